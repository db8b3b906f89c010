"""HTTP endpoints under /api."""
from flask import Blueprint, current_app, jsonify

from .errors import APIError
from .services import localization, timezones
from .services.languages import AUTO, LANGUAGES, normalize_language
from .validation import get_json_object, require_strings

api = Blueprint("api", __name__, url_prefix="/api")


@api.get("/languages")
def languages():
    return jsonify({"success": True, "languages": dict(LANGUAGES)})


@api.post("/translate")
def translate():
    data = get_json_object()
    values = require_strings(data, ("text", "source_lang", "target_lang"))
    cfg = current_app.config["SERVICE_CONFIG"]
    text = values["text"]
    if len(text) > cfg.max_text_length:
        raise APIError(f"Text is too long (maximum {cfg.max_text_length} characters)", 400)

    source = normalize_language(values["source_lang"], allow_auto=True)
    if source is None:
        raise APIError(f"Unsupported source language: '{values['source_lang']}'", 400)
    target = normalize_language(values["target_lang"])
    if target is None:
        raise APIError(f"Unsupported target language: '{values['target_lang']}'", 400)

    result = current_app.extensions["translator"].translate(text, source, target)
    body = {
        "success": True,
        "original_text": text,
        "translated_text": result.text,
        "source_lang": values["source_lang"],
        "target_lang": values["target_lang"],
        "engine": result.engine,
    }
    if source == AUTO and result.detected_source:
        body["detected_source_lang"] = result.detected_source
    if result.warning:
        body["warning"] = result.warning
    return jsonify(body)


@api.post("/timezone")
def convert_timezone():
    data = get_json_object()
    values = require_strings(data, ("datetime", "from_timezone", "to_timezone"))
    dt = timezones.parse_iso_datetime(values["datetime"])
    from_tz = timezones.get_timezone(values["from_timezone"])
    to_tz = timezones.get_timezone(values["to_timezone"])
    original, converted = timezones.convert(dt, from_tz, to_tz)
    return jsonify({
        "success": True,
        "original_datetime": original.isoformat(),
        "converted_datetime": converted.isoformat(),
        "from_timezone": from_tz.zone,
        "to_timezone": to_tz.zone,
    })


@api.post("/localize")
def localize():
    data = get_json_object()
    values = require_strings(data, ("datetime", "timezone", "locale"))
    fmt = data.get("format", "full")
    if not isinstance(fmt, str):
        raise APIError("Field 'format' must be a string", 400)
    dt = timezones.parse_iso_datetime(values["datetime"])
    tz = timezones.get_timezone(values["timezone"])
    locale = localization.parse_locale(values["locale"])
    local_dt = timezones.attach_timezone(dt, tz)
    return jsonify({
        "success": True,
        "formatted_datetime": localization.format_localized(local_dt, locale, fmt.strip().lower()),
        "iso_datetime": local_dt.isoformat(),
        "timezone": tz.zone,
        "locale": values["locale"],
    })
