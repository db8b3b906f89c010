"""Multilingual and Multi-Timezone Support Service.

Creates the Flask application, registers the four ``/api`` endpoints and
makes sure every failure is reported as JSON in the form::

    {"success": false, "error": "..."}

The actual translation work lives in ``translation.py`` and the datetime /
timezone work lives in ``time_utils.py``.
"""

from datetime import datetime

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

import time_utils
import translation


# ---------------------------------------------------------------------------
# Helpers to locate the functions of the sibling modules
# ---------------------------------------------------------------------------

def _resolve(module, names):
    """Return the first attribute of ``module`` found among ``names``."""
    for name in names:
        attr = getattr(module, name, None)
        if attr is not None:
            return attr
    return None


_translate_func = _resolve(translation, ("translate_text", "translate"))
_languages_source = _resolve(
    translation,
    (
        "get_supported_languages",
        "supported_languages",
        "get_languages",
        "SUPPORTED_LANGUAGES",
        "LANGUAGES",
    ),
)
_convert_func = _resolve(
    time_utils,
    ("convert_timezone", "convert_time_zone", "convert_datetime", "convert"),
)
_localize_func = _resolve(
    time_utils,
    (
        "localize_datetime",
        "format_localized_datetime",
        "format_localized",
        "format_datetime",
        "localize",
    ),
)

# Errors raised by helpers that indicate bad input (400) rather than a bug.
# ``pytz.UnknownTimeZoneError`` is a ``KeyError`` subclass.
_CLIENT_ERRORS = (ValueError, KeyError, TypeError, LookupError)


class ApiError(Exception):
    """An error that should be returned to the client as JSON."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.message = message
        self.status = status


def _error(message, status):
    return jsonify({"success": False, "error": message}), status


def _error_message(exc, default):
    """Build a readable message from an exception raised by a helper."""
    if isinstance(exc, KeyError) and exc.args:
        text = str(exc.args[0])
    else:
        text = str(exc)
    text = text.strip().strip("'\"")
    return text or default


def _get_json_body():
    """Return the request JSON object or raise ``ApiError``."""
    data = request.get_json(silent=True)
    if data is None:
        raise ApiError("Request body must be valid JSON")
    if not isinstance(data, dict):
        raise ApiError("Request body must be a JSON object")
    return data


def _require_string(data, field):
    """Return a required non-empty string field or raise ``ApiError``."""
    if field not in data or data[field] is None:
        raise ApiError(f"Missing required field: {field}")
    value = data[field]
    if not isinstance(value, str):
        raise ApiError(f"Field '{field}' must be a string")
    if not value.strip():
        raise ApiError(f"Field '{field}' must not be empty")
    return value


def _supported_languages():
    """Return the supported languages as a ``{code: name}`` dict."""
    source = _languages_source
    if source is None:
        return {}
    languages = source() if callable(source) else source
    if isinstance(languages, dict):
        return dict(languages)
    if isinstance(languages, (list, tuple, set)):
        return {str(code): str(code) for code in languages}
    return {}


def _check_language(code, field, languages, allow_auto=False):
    """Validate a language code against the supported list."""
    normalized = code.strip().lower().replace("_", "-")
    if allow_auto and normalized == "auto":
        return
    if not languages:
        return
    lowered = {str(k).lower().replace("_", "-") for k in languages}
    if normalized not in lowered:
        raise ApiError(f"Unsupported language code for '{field}': {code}")


def _as_text(value):
    if isinstance(value, datetime):
        return value.isoformat()
    return value if isinstance(value, str) else str(value)


# ---------------------------------------------------------------------------
# Application factory
# ---------------------------------------------------------------------------

def create_app():
    app = Flask(__name__)
    app.config["JSON_AS_ASCII"] = False
    try:  # Flask >= 2.3
        app.json.ensure_ascii = False
    except AttributeError:
        pass

    # ------------------------------------------------------------------ errors
    @app.errorhandler(ApiError)
    def handle_api_error(exc):
        return _error(exc.message, exc.status)

    @app.errorhandler(HTTPException)
    def handle_http_error(exc):
        if exc.code == 404:
            message = "Endpoint not found"
        elif exc.code == 405:
            message = "Method not allowed"
        elif exc.code == 400:
            message = "Bad request: invalid JSON"
        else:
            message = exc.description or exc.name
        return _error(message, exc.code or 500)

    @app.errorhandler(Exception)
    def handle_unexpected_error(exc):
        return _error(f"Internal server error: {exc}", 500)

    # -------------------------------------------------------------- endpoints
    @app.route("/api/translate", methods=["POST"])
    def translate_endpoint():
        data = _get_json_body()
        text = _require_string(data, "text")
        source_lang = _require_string(data, "source_lang").strip()
        target_lang = _require_string(data, "target_lang").strip()

        languages = _supported_languages()
        _check_language(source_lang, "source_lang", languages, allow_auto=True)
        _check_language(target_lang, "target_lang", languages)

        if _translate_func is None:
            raise ApiError("Translation is not available", 500)
        try:
            result = _translate_func(text, source_lang, target_lang)
        except _CLIENT_ERRORS as exc:
            raise ApiError(_error_message(exc, "Invalid translation request"))

        if isinstance(result, dict):
            if result.get("success") is False:
                raise ApiError(result.get("error") or "Translation failed")
            translated = result.get(
                "translated_text", result.get("text", result.get("translation"))
            )
        elif isinstance(result, (tuple, list)):
            translated = result[0] if result else ""
        else:
            translated = getattr(result, "text", result)
        if translated is None:
            translated = text

        return jsonify(
            {
                "success": True,
                "original_text": text,
                "translated_text": _as_text(translated),
                "source_lang": source_lang,
                "target_lang": target_lang,
            }
        ), 200

    @app.route("/api/timezone", methods=["POST"])
    def timezone_endpoint():
        data = _get_json_body()
        dt_value = _require_string(data, "datetime").strip()
        from_tz = _require_string(data, "from_timezone").strip()
        to_tz = _require_string(data, "to_timezone").strip()

        if _convert_func is None:
            raise ApiError("Timezone conversion is not available", 500)
        try:
            result = _convert_func(dt_value, from_tz, to_tz)
        except _CLIENT_ERRORS as exc:
            raise ApiError(_error_message(exc, "Invalid timezone conversion request"))

        original = None
        converted = None
        if isinstance(result, dict):
            if result.get("success") is False:
                raise ApiError(result.get("error") or "Timezone conversion failed")
            original = result.get("original_datetime", result.get("original"))
            converted = result.get("converted_datetime", result.get("converted"))
        elif isinstance(result, (tuple, list)) and len(result) >= 2:
            original, converted = result[0], result[1]
        else:
            converted = result

        if original is None:
            original = dt_value
        if converted is None:
            raise ApiError("Timezone conversion failed", 500)

        return jsonify(
            {
                "success": True,
                "original_datetime": _as_text(original),
                "converted_datetime": _as_text(converted),
                "from_timezone": from_tz,
                "to_timezone": to_tz,
            }
        ), 200

    @app.route("/api/localize", methods=["POST"])
    def localize_endpoint():
        data = _get_json_body()
        dt_value = _require_string(data, "datetime").strip()
        tz_name = _require_string(data, "timezone").strip()
        locale_code = _require_string(data, "locale").strip()

        if _localize_func is None:
            raise ApiError("Datetime localization is not available", 500)
        try:
            result = _localize_func(dt_value, tz_name, locale_code)
        except _CLIENT_ERRORS as exc:
            raise ApiError(_error_message(exc, "Invalid localization request"))

        if isinstance(result, dict):
            if result.get("success") is False:
                raise ApiError(result.get("error") or "Localization failed")
            formatted = result.get("formatted_datetime", result.get("formatted"))
        elif isinstance(result, (tuple, list)):
            formatted = result[0] if result else None
        else:
            formatted = result
        if formatted is None:
            raise ApiError("Localization failed", 500)

        return jsonify(
            {
                "success": True,
                "formatted_datetime": _as_text(formatted),
                "timezone": tz_name,
                "locale": locale_code,
            }
        ), 200

    @app.route("/api/languages", methods=["GET"])
    def languages_endpoint():
        return jsonify({"success": True, "languages": _supported_languages()}), 200

    return app


app = create_app()


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5000)
