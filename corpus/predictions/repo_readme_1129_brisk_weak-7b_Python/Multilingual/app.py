from flask import Flask, request, jsonify
from datetime import datetime
import pytz
from googletrans import Translator, LANGUAGES

app = Flask(__name__)
translator = Translator()


def error(msg, code=400):
    return jsonify({"success": False, "error": msg}), code


@app.route('/api/translate', methods=['POST'])
def translate():
    data = request.get_json(silent=True)
    if not data:
        return error("Invalid JSON")
    text = data.get('text')
    source_lang = data.get('source_lang')
    target_lang = data.get('target_lang')
    if not text or not source_lang or not target_lang:
        return error("Missing required fields: text, source_lang, target_lang")
    if source_lang.lower() not in LANGUAGES or target_lang.lower() not in LANGUAGES:
        return error("Unsupported language code")
    try:
        result = translator.translate(text, src=source_lang, dest=target_lang)
        translated = result.text
    except Exception as e:
        return error("Translation failed: " + str(e), 500)
    return jsonify({
        "success": True,
        "original_text": text,
        "translated_text": translated,
        "source_lang": source_lang,
        "target_lang": target_lang
    })


@app.route('/api/timezone', methods=['POST'])
def convert_timezone():
    data = request.get_json(silent=True)
    if not data:
        return error("Invalid JSON")
    dt_str = data.get('datetime')
    from_tz = data.get('from_timezone')
    to_tz = data.get('to_timezone')
    if not dt_str or not from_tz or not to_tz:
        return error("Missing required fields: datetime, from_timezone, to_timezone")
    try:
        dt = datetime.fromisoformat(dt_str)
    except Exception:
        return error("Invalid datetime format")
    try:
        src = pytz.timezone(from_tz)
        dst = pytz.timezone(to_tz)
    except pytz.UnknownTimeZoneError:
        return error("Invalid timezone")
    if dt.tzinfo is None:
        dt = src.localize(dt)
    else:
        dt = dt.astimezone(src)
    converted = dt.astimezone(dst)
    return jsonify({
        "success": True,
        "original_datetime": dt.isoformat(),
        "converted_datetime": converted.isoformat(),
        "from_timezone": from_tz,
        "to_timezone": to_tz
    })


FORMATS = {
    'en_US': '%B %d, %Y %I:%M:%S %p %Z',
    'en_GB': '%d %B %Y %H:%M:%S %Z',
    'zh_CN': '%Y年%m月%d日 %H:%M:%S %Z',
    'ja_JP': '%Y年%m月%d日 %H:%M:%S %Z',
    'es_ES': '%d/%m/%Y %H:%M:%S %Z',
    'fr_FR': '%d/%m/%Y %H:%M:%S %Z',
    'de_DE': '%d.%m.%Y %H:%M:%S %Z',
}


@app.route('/api/localize', methods=['POST'])
def localize():
    data = request.get_json(silent=True)
    if not data:
        return error("Invalid JSON")
    dt_str = data.get('datetime')
    tz = data.get('timezone')
    loc = data.get('locale')
    if not dt_str or not tz or not loc:
        return error("Missing required fields: datetime, timezone, locale")
    try:
        dt = datetime.fromisoformat(dt_str)
    except Exception:
        return error("Invalid datetime format")
    try:
        zone = pytz.timezone(tz)
    except pytz.UnknownTimeZoneError:
        return error("Invalid timezone")
    if dt.tzinfo is None:
        dt = pytz.utc.localize(dt)
    dt = dt.astimezone(zone)
    fmt = FORMATS.get(loc, '%Y-%m-%d %H:%M:%S %Z')
    return jsonify({
        "success": True,
        "formatted_datetime": dt.strftime(fmt),
        "timezone": tz,
        "locale": loc
    })


@app.route('/api/languages', methods=['GET'])
def languages():
    return jsonify({"success": True, "languages": LANGUAGES})


@app.errorhandler(404)
def not_found(e):
    return error("Not found", 404)


@app.errorhandler(405)
def not_allowed(e):
    return error("Method not allowed", 405)


if __name__ == '__main__':
    app.run(host='0.0.0.0', port=5000)
