from flask import Flask, request, jsonify
from translator import translate_text, get_languages
from tz_utils import convert_timezone, localize_datetime

app = Flask(__name__)


def error(msg, code=400):
    return jsonify({"success": False, "error": msg}), code


@app.route("/api/translate", methods=["POST"])
def translate():
    data = request.get_json()
    if not data:
        return error("Invalid JSON")
    text = data.get("text")
    source_lang = data.get("source_lang")
    target_lang = data.get("target_lang")
    if not text or not source_lang or not target_lang:
        return error("Missing required fields")
    try:
        translated = translate_text(text, source_lang, target_lang)
    except ValueError as e:
        return error(str(e))
    except Exception as e:
        return error(str(e), 500)
    return jsonify({
        "success": True,
        "original_text": text,
        "translated_text": translated,
        "source_lang": source_lang,
        "target_lang": target_lang,
    })


@app.route("/api/timezone", methods=["POST"])
def timezone():
    data = request.get_json()
    if not data:
        return error("Invalid JSON")
    dt = data.get("datetime")
    from_tz = data.get("from_timezone")
    to_tz = data.get("to_timezone")
    if not dt or not from_tz or not to_tz:
        return error("Missing required fields")
    try:
        original, converted = convert_timezone(dt, from_tz, to_tz)
    except Exception as e:
        return error(str(e))
    return jsonify({
        "success": True,
        "original_datetime": original,
        "converted_datetime": converted,
        "from_timezone": from_tz,
        "to_timezone": to_tz,
    })


@app.route("/api/localize", methods=["POST"])
def localize():
    data = request.get_json()
    if not data:
        return error("Invalid JSON")
    dt = data.get("datetime")
    tz = data.get("timezone")
    locale = data.get("locale")
    if not dt or not tz or not locale:
        return error("Missing required fields")
    try:
        formatted = localize_datetime(dt, tz, locale)
    except Exception as e:
        return error(str(e))
    return jsonify({
        "success": True,
        "formatted_datetime": formatted,
        "timezone": tz,
        "locale": locale,
    })


@app.route("/api/languages", methods=["GET"])
def languages():
    return jsonify({"success": True, "languages": get_languages()})


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5000)
