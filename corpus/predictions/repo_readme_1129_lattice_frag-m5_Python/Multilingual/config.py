"""Configuration for the Multilingual and Multi-Timezone Support Service."""

import os

# Server settings
HOST = os.environ.get("HOST", "0.0.0.0")
PORT = int(os.environ.get("PORT", 5000))
DEBUG = os.environ.get("DEBUG", "false").lower() in ("1", "true", "yes")

# Supported languages: ISO 639-1 codes (plus a few regional variants used by googletrans)
SUPPORTED_LANGUAGES = {
    "en": "English",
    "zh-cn": "Chinese (Simplified)",
    "zh-tw": "Chinese (Traditional)",
    "es": "Spanish",
    "fr": "French",
    "de": "German",
    "it": "Italian",
    "pt": "Portuguese",
    "ru": "Russian",
    "ja": "Japanese",
    "ko": "Korean",
    "ar": "Arabic",
    "hi": "Hindi",
    "nl": "Dutch",
    "sv": "Swedish",
    "pl": "Polish",
    "tr": "Turkish",
    "vi": "Vietnamese",
    "th": "Thai",
    "id": "Indonesian",
}

# Supported locales: language_COUNTRY format
SUPPORTED_LOCALES = [
    "en_US",
    "en_GB",
    "zh_CN",
    "zh_TW",
    "es_ES",
    "es_MX",
    "fr_FR",
    "de_DE",
    "it_IT",
    "pt_PT",
    "pt_BR",
    "ru_RU",
    "ja_JP",
    "ko_KR",
    "ar_SA",
    "hi_IN",
    "nl_NL",
    "sv_SE",
    "pl_PL",
    "tr_TR",
    "vi_VN",
    "th_TH",
    "id_ID",
]

DEFAULT_LOCALE = "en_US"
DEFAULT_TIMEZONE = "UTC"
