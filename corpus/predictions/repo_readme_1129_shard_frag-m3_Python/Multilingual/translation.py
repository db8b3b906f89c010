"""Translation helpers for the Multilingual service.

Responsibilities:
  * the list of supported languages (ISO 639-1 style codes, googletrans flavour,
    e.g. ``en``, ``zh-cn``, ``es``);
  * validation / normalisation of language codes;
  * translating text, using googletrans when it is installed and the remote
    translator is reachable, and falling back to a small offline phrase book
    otherwise (so the service keeps answering without network access).

Public API (module level):
  SUPPORTED_LANGUAGES            dict code -> language name
  get_supported_languages()      copy of SUPPORTED_LANGUAGES
  is_supported_language(code)    bool
  normalize_language_code(code)  canonical code or raises UnsupportedLanguageError
  translate_text(text, source_lang, target_lang) -> translated string
  translate(...)                 alias of translate_text
  translate_with_details(...)    dict with the translation and the provider used

Invalid input raises ``TranslationInputError`` / ``UnsupportedLanguageError``,
both subclasses of ``ValueError`` so callers can map them to HTTP 400.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import re
import threading
import time
from typing import Dict, Optional

logger = logging.getLogger(__name__)

MAX_TEXT_LENGTH = 5000

# Seconds to wait for the online translator, and how long to stop trying it
# after a failure (avoids paying the timeout on every request when offline).
ONLINE_TIMEOUT_SECONDS = float(os.environ.get("TRANSLATION_TIMEOUT", "5"))
ONLINE_RETRY_AFTER_SECONDS = float(os.environ.get("TRANSLATION_RETRY_AFTER", "300"))


class TranslationInputError(ValueError):
    """Raised when the text to translate is invalid."""


class UnsupportedLanguageError(ValueError):
    """Raised when a language code is missing, malformed or not supported."""


# ---------------------------------------------------------------------------
# Supported languages
# ---------------------------------------------------------------------------

SUPPORTED_LANGUAGES: Dict[str, str] = {
    "af": "afrikaans",
    "sq": "albanian",
    "am": "amharic",
    "ar": "arabic",
    "hy": "armenian",
    "az": "azerbaijani",
    "eu": "basque",
    "be": "belarusian",
    "bn": "bengali",
    "bs": "bosnian",
    "bg": "bulgarian",
    "ca": "catalan",
    "ceb": "cebuano",
    "ny": "chichewa",
    "zh-cn": "chinese (simplified)",
    "zh-tw": "chinese (traditional)",
    "co": "corsican",
    "hr": "croatian",
    "cs": "czech",
    "da": "danish",
    "nl": "dutch",
    "en": "english",
    "eo": "esperanto",
    "et": "estonian",
    "tl": "filipino",
    "fi": "finnish",
    "fr": "french",
    "fy": "frisian",
    "gl": "galician",
    "ka": "georgian",
    "de": "german",
    "el": "greek",
    "gu": "gujarati",
    "ht": "haitian creole",
    "ha": "hausa",
    "haw": "hawaiian",
    "iw": "hebrew",
    "he": "hebrew",
    "hi": "hindi",
    "hmn": "hmong",
    "hu": "hungarian",
    "is": "icelandic",
    "ig": "igbo",
    "id": "indonesian",
    "ga": "irish",
    "it": "italian",
    "ja": "japanese",
    "jw": "javanese",
    "kn": "kannada",
    "kk": "kazakh",
    "km": "khmer",
    "ko": "korean",
    "ku": "kurdish (kurmanji)",
    "ky": "kyrgyz",
    "lo": "lao",
    "la": "latin",
    "lv": "latvian",
    "lt": "lithuanian",
    "lb": "luxembourgish",
    "mk": "macedonian",
    "mg": "malagasy",
    "ms": "malay",
    "ml": "malayalam",
    "mt": "maltese",
    "mi": "maori",
    "mr": "marathi",
    "mn": "mongolian",
    "my": "myanmar (burmese)",
    "ne": "nepali",
    "no": "norwegian",
    "or": "odia",
    "ps": "pashto",
    "fa": "persian",
    "pl": "polish",
    "pt": "portuguese",
    "pa": "punjabi",
    "ro": "romanian",
    "ru": "russian",
    "sm": "samoan",
    "gd": "scots gaelic",
    "sr": "serbian",
    "st": "sesotho",
    "sn": "shona",
    "sd": "sindhi",
    "si": "sinhala",
    "sk": "slovak",
    "sl": "slovenian",
    "so": "somali",
    "es": "spanish",
    "su": "sundanese",
    "sw": "swahili",
    "sv": "swedish",
    "tg": "tajik",
    "ta": "tamil",
    "te": "telugu",
    "th": "thai",
    "tr": "turkish",
    "uk": "ukrainian",
    "ur": "urdu",
    "ug": "uyghur",
    "uz": "uzbek",
    "vi": "vietnamese",
    "cy": "welsh",
    "xh": "xhosa",
    "yi": "yiddish",
    "yo": "yoruba",
    "zu": "zulu",
}

# Common alternative spellings mapped onto the canonical codes above.
_LANGUAGE_ALIASES: Dict[str, str] = {
    "zh": "zh-cn",
    "zh-hans": "zh-cn",
    "zh-sg": "zh-cn",
    "zh-hant": "zh-tw",
    "zh-hk": "zh-tw",
    "jv": "jw",
    "fil": "tl",
    "nb": "no",
    "nn": "no",
}

AUTO_DETECT = "auto"

_CODE_RE = re.compile(r"^[a-z]{2,3}(-[a-z]{2,4})?$")


def get_supported_languages() -> Dict[str, str]:
    """Return a copy of the supported languages mapping (code -> name)."""
    return dict(SUPPORTED_LANGUAGES)


# Convenience aliases for callers that use a different name.
get_languages = get_supported_languages
list_languages = get_supported_languages


def normalize_language_code(code, allow_auto: bool = False) -> str:
    """Return the canonical form of ``code`` or raise UnsupportedLanguageError.

    Accepts case and separator variants: ``zh-CN``, ``zh_cn`` -> ``zh-cn``.
    """
    if not isinstance(code, str):
        raise UnsupportedLanguageError("Language code must be a string")
    normalized = code.strip().lower().replace("_", "-")
    if not normalized:
        raise UnsupportedLanguageError("Language code must not be empty")
    if allow_auto and normalized == AUTO_DETECT:
        return AUTO_DETECT
    if normalized in SUPPORTED_LANGUAGES:
        return normalized
    if normalized in _LANGUAGE_ALIASES:
        return _LANGUAGE_ALIASES[normalized]
    if not _CODE_RE.match(normalized):
        raise UnsupportedLanguageError(f"Invalid language code: {code}")
    raise UnsupportedLanguageError(f"Unsupported language: {code}")


def is_supported_language(code) -> bool:
    """True when ``code`` (in any accepted spelling) is a supported language."""
    try:
        normalize_language_code(code)
        return True
    except UnsupportedLanguageError:
        return False


# ---------------------------------------------------------------------------
# Offline fallback: a small phrase book pivoting through English
# ---------------------------------------------------------------------------

_PHRASEBOOK: Dict[str, Dict[str, str]] = {
    "hello": {
        "zh-cn": "你好", "zh-tw": "你好", "es": "hola", "fr": "bonjour",
        "de": "hallo", "it": "ciao", "ja": "こんにちは", "ko": "안녕하세요",
        "pt": "olá", "ru": "привет", "ar": "مرحبا", "hi": "नमस्ते",
        "nl": "hallo", "sv": "hej", "tr": "merhaba", "pl": "cześć",
        "vi": "xin chào", "th": "สวัสดี", "id": "halo", "el": "γεια σας",
    },
    "hello world": {
        "zh-cn": "你好世界", "zh-tw": "你好世界", "es": "hola mundo",
        "fr": "bonjour le monde", "de": "hallo welt", "it": "ciao mondo",
        "ja": "こんにちは世界", "ko": "안녕하세요 세계", "pt": "olá mundo",
        "ru": "привет мир",
    },
    "world": {
        "zh-cn": "世界", "zh-tw": "世界", "es": "mundo", "fr": "monde",
        "de": "welt", "it": "mondo", "ja": "世界", "ko": "세계",
        "pt": "mundo", "ru": "мир",
    },
    "goodbye": {
        "zh-cn": "再见", "zh-tw": "再見", "es": "adiós", "fr": "au revoir",
        "de": "auf wiedersehen", "it": "arrivederci", "ja": "さようなら",
        "ko": "안녕히 가세요", "pt": "adeus", "ru": "до свидания",
    },
    "thank you": {
        "zh-cn": "谢谢", "zh-tw": "謝謝", "es": "gracias", "fr": "merci",
        "de": "danke", "it": "grazie", "ja": "ありがとう", "ko": "감사합니다",
        "pt": "obrigado", "ru": "спасибо",
    },
    "good morning": {
        "zh-cn": "早上好", "zh-tw": "早安", "es": "buenos días",
        "fr": "bonjour", "de": "guten morgen", "it": "buongiorno",
        "ja": "おはようございます", "ko": "좋은 아침", "pt": "bom dia",
        "ru": "доброе утро",
    },
    "good night": {
        "zh-cn": "晚安", "zh-tw": "晚安", "es": "buenas noches",
        "fr": "bonne nuit", "de": "gute nacht", "it": "buona notte",
        "ja": "おやすみなさい", "ko": "안녕히 주무세요", "pt": "boa noite",
        "ru": "спокойной ночи",
    },
    "how are you": {
        "zh-cn": "你好吗", "zh-tw": "你好嗎", "es": "cómo estás",
        "fr": "comment allez-vous", "de": "wie geht es dir",
        "it": "come stai", "ja": "お元気ですか", "ko": "어떻게 지내세요",
        "pt": "como você está", "ru": "как дела",
    },
    "yes": {
        "zh-cn": "是", "zh-tw": "是", "es": "sí", "fr": "oui", "de": "ja",
        "it": "sì", "ja": "はい", "ko": "네", "pt": "sim", "ru": "да",
    },
    "no": {
        "zh-cn": "不", "zh-tw": "不", "es": "no", "fr": "non", "de": "nein",
        "it": "no", "ja": "いいえ", "ko": "아니요", "pt": "não", "ru": "нет",
    },
    "please": {
        "zh-cn": "请", "zh-tw": "請", "es": "por favor", "fr": "s'il vous plaît",
        "de": "bitte", "it": "per favore", "ja": "お願いします", "ko": "제발",
        "pt": "por favor", "ru": "пожалуйста",
    },
    "welcome": {
        "zh-cn": "欢迎", "zh-tw": "歡迎", "es": "bienvenido", "fr": "bienvenue",
        "de": "willkommen", "it": "benvenuto", "ja": "ようこそ", "ko": "환영합니다",
        "pt": "bem-vindo", "ru": "добро пожаловать",
    },
}

_TRAILING_PUNCT_RE = re.compile(r"^(.*?)([\s.!?,;:。！？，]*)$", re.S)


def _split_phrase(text: str):
    """Split text into (core, trailing punctuation)."""
    match = _TRAILING_PUNCT_RE.match(text.strip())
    if not match:
        return text.strip(), ""
    return match.group(1), match.group(2).strip()


def _to_english(phrase: str, source: str) -> Optional[str]:
    key = phrase.lower()
    if source in ("en", AUTO_DETECT) and key in _PHRASEBOOK:
        return key
    for english, translations in _PHRASEBOOK.items():
        for lang, value in translations.items():
            if source not in (AUTO_DETECT, lang):
                continue
            if value.lower() == key:
                return english
    return None


def _restore_case(original: str, translated: str) -> str:
    if original[:1].isupper() and translated[:1].islower():
        return translated[:1].upper() + translated[1:]
    return translated


def _offline_translate(text: str, source: str, target: str) -> Optional[str]:
    """Best-effort dictionary translation; None when the phrase is unknown."""
    core, punct = _split_phrase(text)
    if not core:
        return None
    english = _to_english(core, source)
    if english is None:
        return None
    if target == "en":
        result = english
    else:
        result = _PHRASEBOOK[english].get(target)
        if result is None:
            return None
    return _restore_case(core, result) + punct


# ---------------------------------------------------------------------------
# Online translation (googletrans), guarded by a simple circuit breaker
# ---------------------------------------------------------------------------

_online_lock = threading.Lock()
_online_disabled_until = 0.0
_translator = None


def _online_enabled() -> bool:
    if os.environ.get("TRANSLATION_OFFLINE", "").strip().lower() in ("1", "true", "yes"):
        return False
    return time.monotonic() >= _online_disabled_until


def _mark_online_failure() -> None:
    global _online_disabled_until, _translator
    _online_disabled_until = time.monotonic() + ONLINE_RETRY_AFTER_SECONDS
    _translator = None


def _get_translator():
    global _translator
    if _translator is None:
        from googletrans import Translator  # type: ignore

        try:
            _translator = Translator(timeout=ONLINE_TIMEOUT_SECONDS)
        except TypeError:
            _translator = Translator()
    return _translator


def _run_maybe_async(result):
    """googletrans >= 4.0.1 is async; 4.0.0rc1 is synchronous. Support both."""
    if not inspect.isawaitable(result):
        return result
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(
            asyncio.wait_for(result, timeout=ONLINE_TIMEOUT_SECONDS)
        )
    finally:
        loop.close()


def _online_translate(text: str, source: str, target: str) -> Optional[str]:
    if not _online_enabled():
        return None
    try:
        with _online_lock:
            translator = _get_translator()
            result = _run_maybe_async(
                translator.translate(text, src=source, dest=target)
            )
        translated = getattr(result, "text", None)
        if isinstance(translated, str) and translated.strip():
            return translated
        raise RuntimeError("empty translation result")
    except ImportError:
        logger.info("googletrans is not installed; using offline translation")
        _mark_online_failure()
    except Exception as exc:  # network errors, API changes, parsing errors...
        logger.warning("Online translation failed, using offline fallback: %s", exc)
        _mark_online_failure()
    return None


# ---------------------------------------------------------------------------
# Public translation API
# ---------------------------------------------------------------------------

def _validate_text(text) -> str:
    if text is None:
        raise TranslationInputError("Missing required field: text")
    if not isinstance(text, str):
        raise TranslationInputError("Field 'text' must be a string")
    if not text.strip():
        raise TranslationInputError("Field 'text' must not be empty")
    if len(text) > MAX_TEXT_LENGTH:
        raise TranslationInputError(
            f"Field 'text' is too long (maximum {MAX_TEXT_LENGTH} characters)"
        )
    return text


def translate_with_details(text, source_lang, target_lang) -> Dict[str, str]:
    """Translate and report which provider produced the result.

    Returns a dict with ``translated_text``, ``source_lang``, ``target_lang``
    (canonical codes) and ``provider`` ("none", "online" or "offline").
    """
    text = _validate_text(text)
    source = normalize_language_code(source_lang, allow_auto=True)
    target = normalize_language_code(target_lang)

    def _result(translated: str, provider: str) -> Dict[str, str]:
        return {
            "translated_text": translated,
            "source_lang": source,
            "target_lang": target,
            "provider": provider,
        }

    if source == target:
        return _result(text, "none")

    translated = _online_translate(text, source, target)
    if translated is not None:
        return _result(translated, "online")

    translated = _offline_translate(text, source, target)
    if translated is not None:
        return _result(translated, "offline")

    # Unknown phrase and no translator available: return the text unchanged
    # rather than failing the request.
    return _result(text, "offline")


def translate_text(text, source_lang, target_lang) -> str:
    """Translate ``text`` from ``source_lang`` to ``target_lang``.

    Raises ValueError subclasses for invalid text or unsupported languages.
    Never fails because the remote translator is unavailable: it falls back
    to the offline phrase book (or the original text).
    """
    return translate_with_details(text, source_lang, target_lang)["translated_text"]


translate = translate_text


__all__ = [
    "SUPPORTED_LANGUAGES",
    "MAX_TEXT_LENGTH",
    "TranslationInputError",
    "UnsupportedLanguageError",
    "get_supported_languages",
    "get_languages",
    "list_languages",
    "normalize_language_code",
    "is_supported_language",
    "translate_text",
    "translate",
    "translate_with_details",
]
