"""HTTP routes for the Multilingual and Multi-Timezone Support Service.

Exposes the four ``/api/*`` endpoints:

* ``POST /api/translate``  - translate text between supported languages
* ``POST /api/timezone``   - convert a datetime between IANA timezones
* ``POST /api/localize``   - format a datetime for a timezone and locale
* ``GET  /api/languages``  - list supported languages

Every failure is reported as ``{"success": false, "error": "..."}`` with
HTTP 400 for bad input and HTTP 500 for unexpected errors.
"""

import logging

from flask import jsonify, request

from config import SUPPORTED_LANGUAGES
from time_service import convert_timezone, localize_datetime
from translation_service import translate_text

logger = logging.getLogger(__name__)


def error_response(message, status=400):
    """Build the standard error payload."""
    return jsonify({"success": False, "error": message}), status


def _get_json_object():
    """Return the request body as a dict, or None if it is not a JSON object."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return None
    return data


def _require_string_fields(data, fields):
    """Check that every field is present and is a non-empty string.

    Returns an error message, or None when everything is valid.
    """
    missing = [f for f in fields if f not in data or data[f] is None]
    if missing:
        return "Missing required field(s): " + ", ".join(missing)
    for field in fields:
        value = data[field]
        if not isinstance(value, str):
            return "Field '{}' must be a string".format(field)
        if not value.strip():
            return "Field '{}' must not be empty".format(field)
    return None


def _normalize_language(code):
    """Map a language code to its supported form (case-insensitive), or None."""
    if not isinstance(code, str):
        return None
    candidate = code.strip().lower().replace("_", "-")
    for supported in SUPPORTED_LANGUAGES:
        if supported.lower() == candidate:
            return supported
    return None


def translate():
    data = _get_json_object()
    if data is None:
        return error_response("Request body must be a JSON object")

    problem = _require_string_fields(data, ["text", "source_lang", "target_lang"])
    if problem:
        return error_response(problem)

    text = data["text"]
    source_lang = _normalize_language(data["source_lang"])
    target_lang = _normalize_language(data["target_lang"])
    if source_lang is None:
        return error_response(
            "Unsupported source language: {}".format(data["source_lang"])
        )
    if target_lang is None:
        return error_response(
            "Unsupported target language: {}".format(data["target_lang"])
        )

    try:
        if source_lang == target_lang:
            translated = text
        else:
            translated = translate_text(text, source_lang, target_lang)
    except ValueError as exc:
        return error_response(str(exc))
    except Exception as exc:  # pragma: no cover - defensive
        logger.exception("Translation failed")
        return error_response("Translation failed: {}".format(exc), 500)

    return jsonify(
        {
            "success": True,
            "original_text": text,
            "translated_text": translated,
            "source_lang": source_lang,
            "target_lang": target_lang,
        }
    ), 200


def timezone():
    data = _get_json_object()
    if data is None:
        return error_response("Request body must be a JSON object")

    problem = _require_string_fields(data, ["datetime", "from_timezone", "to_timezone"])
    if problem:
        return error_response(problem)

    datetime_str = data["datetime"].strip()
    from_tz = data["from_timezone"].strip()
    to_tz = data["to_timezone"].strip()

    try:
        original, converted = convert_timezone(datetime_str, from_tz, to_tz)
    except ValueError as exc:
        return error_response(str(exc))
    except Exception as exc:  # pragma: no cover - defensive
        logger.exception("Timezone conversion failed")
        return error_response("Timezone conversion failed: {}".format(exc), 500)

    return jsonify(
        {
            "success": True,
            "original_datetime": original,
            "converted_datetime": converted,
            "from_timezone": from_tz,
            "to_timezone": to_tz,
        }
    ), 200


def localize():
    data = _get_json_object()
    if data is None:
        return error_response("Request body must be a JSON object")

    problem = _require_string_fields(data, ["datetime", "timezone", "locale"])
    if problem:
        return error_response(problem)

    datetime_str = data["datetime"].strip()
    tz_name = data["timezone"].strip()
    locale_code = data["locale"].strip()

    try:
        formatted = localize_datetime(datetime_str, tz_name, locale_code)
    except ValueError as exc:
        return error_response(str(exc))
    except Exception as exc:  # pragma: no cover - defensive
        logger.exception("Localization failed")
        return error_response("Localization failed: {}".format(exc), 500)

    return jsonify(
        {
            "success": True,
            "formatted_datetime": formatted,
            "timezone": tz_name,
            "locale": locale_code,
        }
    ), 200


def languages():
    try:
        return jsonify({"success": True, "languages": dict(SUPPORTED_LANGUAGES)}), 200
    except Exception as exc:  # pragma: no cover - defensive
        logger.exception("Listing languages failed")
        return error_response("Failed to list languages: {}".format(exc), 500)


def register_routes(app):
    """Attach the /api/* endpoints to the given Flask app."""
    app.add_url_rule("/api/translate", "translate", translate, methods=["POST"])
    app.add_url_rule("/api/timezone", "timezone", timezone, methods=["POST"])
    app.add_url_rule("/api/localize", "localize", localize, methods=["POST"])
    app.add_url_rule("/api/languages", "languages", languages, methods=["GET"])
