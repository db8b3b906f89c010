from flask import Blueprint, request, jsonify
from utils import translate_text, convert_timezone, format_localized_datetime, get_supported_languages

api_bp = Blueprint('api', __name__)


def error_response(message, status=400):
    return jsonify({'success': False, 'error': message}), status


@api_bp.route('/translate', methods=['POST'])
def translate():
    data = request.get_json()
    if not data:
        return error_response('Request body must be JSON')

    text = data.get('text')
    source_lang = data.get('source_lang')
    target_lang = data.get('target_lang')

    if not text or not source_lang or not target_lang:
        return error_response('Missing required fields: text, source_lang, target_lang')

    languages = get_supported_languages()
    if source_lang not in languages or target_lang not in languages:
        return error_response('Unsupported language code')

    try:
        translated = translate_text(text, source_lang, target_lang)
    except Exception as e:
        return error_response('Translation failed: ' + str(e), 500)

    return jsonify({
        'success': True,
        'original_text': text,
        'translated_text': translated,
        'source_lang': source_lang,
        'target_lang': target_lang
    }), 200


@api_bp.route('/timezone', methods=['POST'])
def timezone():
    data = request.get_json()
    if not data:
        return error_response('Request body must be JSON')

    dt = data.get('datetime')
    from_tz = data.get('from_timezone')
    to_tz = data.get('to_timezone')

    if not dt or not from_tz or not to_tz:
        return error_response('Missing required fields: datetime, from_timezone, to_timezone')

    try:
        original, converted = convert_timezone(dt, from_tz, to_tz)
    except ValueError as e:
        return error_response(str(e))
    except Exception as e:
        return error_response('Timezone conversion failed: ' + str(e), 500)

    return jsonify({
        'success': True,
        'original_datetime': original,
        'converted_datetime': converted,
        'from_timezone': from_tz,
        'to_timezone': to_tz
    }), 200


@api_bp.route('/localize', methods=['POST'])
def localize():
    data = request.get_json()
    if not data:
        return error_response('Request body must be JSON')

    dt = data.get('datetime')
    tz = data.get('timezone')
    locale = data.get('locale')

    if not dt or not tz or not locale:
        return error_response('Missing required fields: datetime, timezone, locale')

    try:
        formatted = format_localized_datetime(dt, tz, locale)
    except ValueError as e:
        return error_response(str(e))
    except Exception as e:
        return error_response('Localization failed: ' + str(e), 500)

    return jsonify({
        'success': True,
        'formatted_datetime': formatted,
        'timezone': tz,
        'locale': locale
    }), 200


@api_bp.route('/languages', methods=['GET'])
def languages():
    return jsonify({
        'success': True,
        'languages': get_supported_languages()
    }), 200
