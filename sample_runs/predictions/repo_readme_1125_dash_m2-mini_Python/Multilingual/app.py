from datetime import datetime

import pytz
from flask import Flask, jsonify, request

try:
    from googletrans import Translator, LANGUAGES
except Exception:  # pragma: no cover
    Translator = None
    LANGUAGES = {
        "en": "english", "zh-cn": "chinese (simplified)", "zh-tw": "chinese (traditional)",
        "es": "spanish", "fr": "french", "de": "german", "ja": "japanese", "ko": "korean",
        "ru": "russian", "it": "italian", "pt": "portuguese", "ar": "arabic",
    }

try:
    from babel.dates import format_datetime as babel_format_datetime
except Exception:  # pragma: no cover
    babel_format_datetime = None

app = Flask(__name__)
app.config["JSON_AS_ASCII"] = False
try:
    app.json.ensure_ascii = False
except Exception:
    pass


def error(msg, code=400):
    return jsonify({"success": False, "error": msg}), code


def get_json():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return None
    return data


def check_required(data, fields):
    for f in fields:
        v = data.get(f)
        if v is None or not isinstance(v, str) or not v.strip():
            return f"Missing or invalid field: {f}"
    return None


def parse_dt(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


def get_tz(name):
    try:
        return pytz.timezone(name)
    except pytz.exceptions.UnknownTimeZoneError:
        return None


@app.route("/api/translate", methods=["POST"])
def translate():
    data = get_json()
    if data is None:
        return error("Invalid JSON body")
    err = check_required(data, ["text", "source_lang", "target_lang"])
    if err:
        return error(err)
    src = data["source_lang"].lower()
    dest = data["target_lang"].lower()
    if src != "auto" and src not in LANGUAGES:
        return error(f"Unsupported source language: {data['source_lang']}")
    if dest not in LANGUAGES:
        return error(f"Unsupported target language: {data['target_lang']}")
    text = data["text"]
    try:
        if src == dest:
            translated = text
        else:
            if Translator is None:
                return error("Translation backend not available", 500)
            translated = Translator().translate(text, src=src, dest=dest).text
    except Exception as e:
        return error(f"Translation failed: {e}", 500)
    return jsonify({
        "success": True,
        "original_text": text,
        "translated_text": translated,
        "source_lang": data["source_lang"],
        "target_lang": data["target_lang"],
    })


@app.route("/api/timezone", methods=["POST"])
def convert_timezone():
    data = get_json()
    if data is None:
        return error("Invalid JSON body")
    err = check_required(data, ["datetime", "from_timezone", "to_timezone"])
    if err:
        return error(err)
    from_tz = get_tz(data["from_timezone"])
    if from_tz is None:
        return error(f"Invalid timezone: {data['from_timezone']}")
    to_tz = get_tz(data["to_timezone"])
    if to_tz is None:
        return error(f"Invalid timezone: {data['to_timezone']}")
    try:
        dt = parse_dt(data["datetime"])
    except ValueError:
        return error("Invalid datetime format, expected ISO 8601")
    if dt.tzinfo is None:
        dt = from_tz.localize(dt)
    else:
        dt = dt.astimezone(from_tz)
    converted = dt.astimezone(to_tz)
    return jsonify({
        "success": True,
        "original_datetime": dt.isoformat(),
        "converted_datetime": converted.isoformat(),
        "from_timezone": data["from_timezone"],
        "to_timezone": data["to_timezone"],
    })


@app.route("/api/localize", methods=["POST"])
def localize():
    data = get_json()
    if data is None:
        return error("Invalid JSON body")
    err = check_required(data, ["datetime", "timezone", "locale"])
    if err:
        return error(err)
    tz = get_tz(data["timezone"])
    if tz is None:
        return error(f"Invalid timezone: {data['timezone']}")
    try:
        dt = parse_dt(data["datetime"])
    except ValueError:
        return error("Invalid datetime format, expected ISO 8601")
    if dt.tzinfo is None:
        dt = tz.localize(dt)
    else:
        dt = dt.astimezone(tz)
    locale = data["locale"]
    try:
        if babel_format_datetime is None:
            formatted = dt.strftime("%Y-%m-%d %H:%M:%S %Z")
        else:
            formatted = babel_format_datetime(dt, format="full", tzinfo=tz, locale=locale)
    except Exception as e:
        return error(f"Invalid locale: {locale}")
    return jsonify({
        "success": True,
        "formatted_datetime": formatted,
        "timezone": data["timezone"],
        "locale": locale,
    })


@app.route("/api/languages", methods=["GET"])
def languages():
    return jsonify({"success": True, "languages": dict(LANGUAGES)})


@app.errorhandler(404)
def not_found(e):
    return error("Not found", 404)


@app.errorhandler(405)
def method_not_allowed(e):
    return error("Method not allowed", 405)


@app.errorhandler(500)
def internal(e):
    return error("Internal server error", 500)


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5000)
