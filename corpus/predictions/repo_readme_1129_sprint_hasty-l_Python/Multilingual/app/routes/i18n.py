"""API routes for translation and timezone handling."""
from flask import Blueprint, current_app, jsonify

from app.errors import APIError
from app.services import timezones
from app.services.languages import LANGUAGES, is_supported, normalize_lang
from app.services.translator import TranslationService
from app.validation import get_json_body, require_fields

bp = Blueprint("i18n", __name__, url_prefix="/api")

_translator = None


def get_translator() -> TranslationService:
    global _translator
    if _translator is None:
        _translator = TranslationService(
            enable_remote=current_app.config["ENABLE_REMOTE_TRANSLATION"],
            timeout=current_app.config["TRANSLATION_TIMEOUT"],
        )
    return _translator


@bp.post("/translate")
def translate():
    data = get_json_body()
    require_fields(data, ["text", "source_lang", "target_lang"])
    text = data["text"]
    if len(text) > current_app.config["MAX_TEXT_LENGTH"]:
        raise APIError("Text too long", 400)
    src, dst = data["source_lang"], data["target_lang"]
    if normalize_lang(src) != "auto" and not is_supported(src):
        raise APIError(f"Unsupported source language: {src}", 400)
    if not is_supported(dst):
        raise APIError(f"Unsupported target language: {dst}", 400)

    try:
        translated = get_translator().translate(text, src, dst)
    except APIError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise APIError(f"Translation failed: {exc}", 500)

    return jsonify({
        "success": True,
        "original_text": text,
        "translated_text": translated,
        "source_lang": src,
        "target_lang": dst,
    })


@bp.post("/timezone")
def convert_timezone():
    data = get_json_body()
    require_fields(data, ["datetime", "from_timezone", "to_timezone"])
    original, converted = timezones.convert(data["datetime"], data["from_timezone"], data["to_timezone"])
    return jsonify({
        "success": True,
        "original_datetime": original.isoformat(),
        "converted_datetime": converted.isoformat(),
        "from_timezone": data["from_timezone"],
        "to_timezone": data["to_timezone"],
    })


@bp.post("/localize")
def localize():
    data = get_json_body()
    require_fields(data, ["datetime", "timezone", "locale"])
    formatted = timezones.localize(data["datetime"], data["timezone"], data["locale"])
    return jsonify({
        "success": True,
        "formatted_datetime": formatted,
        "timezone": data["timezone"],
        "locale": data["locale"],
    })


@bp.get("/languages")
def languages():
    return jsonify({"success": True, "languages": LANGUAGES})
