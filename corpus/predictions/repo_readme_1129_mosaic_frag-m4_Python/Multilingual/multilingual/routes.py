"""API routes for the multilingual / multi-timezone service.

Exposes the four ``/api/*`` endpoints described in the README:

* ``POST /api/translate``  - translate text between languages
* ``POST /api/timezone``   - convert a datetime between IANA timezones
* ``POST /api/localize``   - format a datetime for a timezone and locale
* ``GET  /api/languages``  - list the supported languages
"""

import logging

from flask import Blueprint, jsonify, request

from .translation import SUPPORTED_LANGUAGES, translate_text
from .timezones import (
    convert_timezone,
    format_localized_datetime,
    parse_iso_datetime,
)

logger = logging.getLogger(__name__)

api_bp = Blueprint("api", __name__, url_prefix="/api")


class RequestError(Exception):
    """Raised when the incoming request is invalid (mapped to HTTP 400)."""


def error_response(message, status=400):
    return jsonify({"success": False, "error": message}), status


def get_json_body():
    """Return the request body as a JSON object or raise RequestError."""
    data = request.get_json(silent=True)
    if data is None:
        raise RequestError("Request body must be valid JSON")
    if not isinstance(data, dict):
        raise RequestError("Request body must be a JSON object")
    return data


def require_fields(data, fields):
    """Check that every field is present and is a non-empty string.

    Returns a dict of the stripped values keyed by field name.
    """
    missing = [f for f in fields if f not in data or data[f] is None]
    if missing:
        raise RequestError("Missing required field(s): " + ", ".join(missing))

    values = {}
    for field in fields:
        value = data[field]
        if not isinstance(value, str):
            raise RequestError("Field '%s' must be a string" % field)
        if not value.strip():
            raise RequestError("Field '%s' must not be empty" % field)
        values[field] = value.strip()
    return values


def normalize_language(code):
    return code.strip().lower().replace("_", "-")


@api_bp.route("/translate", methods=["POST"])
def translate():
    try:
        data = get_json_body()
        values = require_fields(data, ["text", "source_lang", "target_lang"])
    except RequestError as exc:
        return error_response(str(exc), 400)

    # Keep the original text exactly as given (only emptiness is checked).
    text = data["text"]
    source_lang = normalize_language(values["source_lang"])
    target_lang = normalize_language(values["target_lang"])

    if source_lang not in SUPPORTED_LANGUAGES:
        return error_response("Unsupported source language: %s" % values["source_lang"], 400)
    if target_lang not in SUPPORTED_LANGUAGES:
        return error_response("Unsupported target language: %s" % values["target_lang"], 400)

    try:
        translated = translate_text(text, source_lang, target_lang)
    except ValueError as exc:
        return error_response(str(exc), 400)
    except Exception:  # pragma: no cover - defensive
        logger.exception("Translation failed")
        return error_response("Translation failed", 500)

    return jsonify(
        {
            "success": True,
            "original_text": text,
            "translated_text": translated,
            "source_lang": source_lang,
            "target_lang": target_lang,
        }
    ), 200


@api_bp.route("/timezone", methods=["POST"])
def timezone_convert():
    try:
        data = get_json_body()
        values = require_fields(data, ["datetime", "from_timezone", "to_timezone"])
    except RequestError as exc:
        return error_response(str(exc), 400)

    from_tz = values["from_timezone"]
    to_tz = values["to_timezone"]

    try:
        dt = parse_iso_datetime(values["datetime"])
        original, converted = convert_timezone(dt, from_tz, to_tz)
    except ValueError as exc:
        return error_response(str(exc), 400)
    except Exception:  # pragma: no cover - defensive
        logger.exception("Timezone conversion failed")
        return error_response("Timezone conversion failed", 500)

    return jsonify(
        {
            "success": True,
            "original_datetime": original.isoformat(),
            "converted_datetime": converted.isoformat(),
            "from_timezone": from_tz,
            "to_timezone": to_tz,
        }
    ), 200


@api_bp.route("/localize", methods=["POST"])
def localize():
    try:
        data = get_json_body()
        values = require_fields(data, ["datetime", "timezone", "locale"])
    except RequestError as exc:
        return error_response(str(exc), 400)

    tz_name = values["timezone"]
    locale_code = values["locale"]

    try:
        dt = parse_iso_datetime(values["datetime"])
        formatted = format_localized_datetime(dt, tz_name, locale_code)
    except ValueError as exc:
        return error_response(str(exc), 400)
    except Exception:  # pragma: no cover - defensive
        logger.exception("Datetime localization failed")
        return error_response("Datetime localization failed", 500)

    return jsonify(
        {
            "success": True,
            "formatted_datetime": formatted,
            "timezone": tz_name,
            "locale": locale_code,
        }
    ), 200


@api_bp.route("/languages", methods=["GET"])
def languages():
    return jsonify({"success": True, "languages": dict(SUPPORTED_LANGUAGES)}), 200
