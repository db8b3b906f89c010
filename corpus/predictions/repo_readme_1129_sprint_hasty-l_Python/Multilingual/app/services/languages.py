"""Supported languages registry."""
try:  # pragma: no cover - depends on optional package
    from googletrans import LANGUAGES as _GT_LANGUAGES
except Exception:  # noqa: BLE001
    _GT_LANGUAGES = None

_FALLBACK_LANGUAGES = {
    "af": "afrikaans", "ar": "arabic", "bg": "bulgarian", "bn": "bengali",
    "ca": "catalan", "cs": "czech", "da": "danish", "de": "german",
    "el": "greek", "en": "english", "es": "spanish", "et": "estonian",
    "fa": "persian", "fi": "finnish", "fr": "french", "he": "hebrew",
    "hi": "hindi", "hr": "croatian", "hu": "hungarian", "id": "indonesian",
    "it": "italian", "ja": "japanese", "ko": "korean", "lt": "lithuanian",
    "lv": "latvian", "ms": "malay", "nl": "dutch", "no": "norwegian",
    "pl": "polish", "pt": "portuguese", "ro": "romanian", "ru": "russian",
    "sk": "slovak", "sl": "slovenian", "sr": "serbian", "sv": "swedish",
    "th": "thai", "tr": "turkish", "uk": "ukrainian", "ur": "urdu",
    "vi": "vietnamese", "zh-cn": "chinese (simplified)", "zh-tw": "chinese (traditional)",
}

LANGUAGES = dict(_GT_LANGUAGES) if _GT_LANGUAGES else dict(_FALLBACK_LANGUAGES)
# make sure the common ones are always there
for _code, _name in _FALLBACK_LANGUAGES.items():
    LANGUAGES.setdefault(_code, _name)

_ALIASES = {"zh": "zh-cn", "zh_cn": "zh-cn", "zh-hans": "zh-cn", "zh_tw": "zh-tw", "zh-hant": "zh-tw"}


def normalize_lang(code: str) -> str:
    c = code.strip().lower().replace("_", "-")
    return _ALIASES.get(c, c)


def is_supported(code: str) -> bool:
    return normalize_lang(code) in LANGUAGES
