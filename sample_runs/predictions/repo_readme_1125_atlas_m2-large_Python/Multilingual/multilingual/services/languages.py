"""Supported language codes (ISO 639-1, plus the regional Chinese variants)."""
from typing import Dict, Optional

LANGUAGES: Dict[str, str] = {
    "af": "afrikaans", "sq": "albanian", "am": "amharic", "ar": "arabic",
    "hy": "armenian", "az": "azerbaijani", "eu": "basque", "be": "belarusian",
    "bn": "bengali", "bs": "bosnian", "bg": "bulgarian", "ca": "catalan",
    "ceb": "cebuano", "ny": "chichewa", "zh-cn": "chinese (simplified)",
    "zh-tw": "chinese (traditional)", "co": "corsican", "hr": "croatian",
    "cs": "czech", "da": "danish", "nl": "dutch", "en": "english",
    "eo": "esperanto", "et": "estonian", "tl": "filipino", "fi": "finnish",
    "fr": "french", "fy": "frisian", "gl": "galician", "ka": "georgian",
    "de": "german", "el": "greek", "gu": "gujarati", "ht": "haitian creole",
    "ha": "hausa", "haw": "hawaiian", "he": "hebrew", "hi": "hindi",
    "hmn": "hmong", "hu": "hungarian", "is": "icelandic", "ig": "igbo",
    "id": "indonesian", "ga": "irish", "it": "italian", "ja": "japanese",
    "jw": "javanese", "kn": "kannada", "kk": "kazakh", "km": "khmer",
    "ko": "korean", "ku": "kurdish (kurmanji)", "ky": "kyrgyz", "lo": "lao",
    "la": "latin", "lv": "latvian", "lt": "lithuanian", "lb": "luxembourgish",
    "mk": "macedonian", "mg": "malagasy", "ms": "malay", "ml": "malayalam",
    "mt": "maltese", "mi": "maori", "mr": "marathi", "mn": "mongolian",
    "my": "myanmar (burmese)", "ne": "nepali", "no": "norwegian", "or": "odia",
    "ps": "pashto", "fa": "persian", "pl": "polish", "pt": "portuguese",
    "pa": "punjabi", "ro": "romanian", "ru": "russian", "sm": "samoan",
    "gd": "scots gaelic", "sr": "serbian", "st": "sesotho", "sn": "shona",
    "sd": "sindhi", "si": "sinhala", "sk": "slovak", "sl": "slovenian",
    "so": "somali", "es": "spanish", "su": "sundanese", "sw": "swahili",
    "sv": "swedish", "tg": "tajik", "ta": "tamil", "te": "telugu", "th": "thai",
    "tr": "turkish", "uk": "ukrainian", "ur": "urdu", "ug": "uyghur",
    "uz": "uzbek", "vi": "vietnamese", "cy": "welsh", "xh": "xhosa",
    "yi": "yiddish", "yo": "yoruba", "zu": "zulu",
}

# Common alternative spellings mapped onto the canonical codes above.
ALIASES: Dict[str, str] = {
    "zh": "zh-cn",
    "zh-hans": "zh-cn",
    "zh-sg": "zh-cn",
    "zh-hant": "zh-tw",
    "zh-hk": "zh-tw",
    "iw": "he",
    "jv": "jw",
    "fil": "tl",
    "nb": "no",
}

AUTO = "auto"


def normalize_language(code: str, allow_auto: bool = False) -> Optional[str]:
    """Return the canonical code for ``code`` or None when it is not supported."""
    key = code.strip().lower().replace("_", "-")
    if allow_auto and key == AUTO:
        return AUTO
    key = ALIASES.get(key, key)
    return key if key in LANGUAGES else None
