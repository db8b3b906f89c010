"""Supported-language table and text translation.

The service tries to use an online translation library (``googletrans``)
when it is installed and reachable.  Any failure of the library (missing
package, network error, timeout, unexpected response) silently falls back
to a small offline dictionary so that a translation request never fails
because of the network.
"""

import threading
import time

# ISO 639-1 based language codes (with the regional Chinese variants used by
# googletrans) mapped to their English names.
SUPPORTED_LANGUAGES = {
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

# Common aliases accepted on input and mapped onto a canonical code.
_LANGUAGE_ALIASES = {
    "zh": "zh-cn",
    "zh_cn": "zh-cn",
    "zh-hans": "zh-cn",
    "zh_tw": "zh-tw",
    "zh-hant": "zh-tw",
    "nb": "no",
    "fil": "tl",
    "jv": "jw",
}

# Small offline phrase book used when the online translator is unavailable.
# Keys are lower-cased English phrases.
_OFFLINE_PHRASES = {
    "hello": {
        "zh-cn": "你好", "zh-tw": "你好", "es": "Hola", "fr": "Bonjour",
        "de": "Hallo", "ja": "こんにちは", "ko": "안녕하세요", "ru": "Привет",
        "it": "Ciao", "pt": "Olá", "ar": "مرحبا", "hi": "नमस्ते",
        "nl": "Hallo", "tr": "Merhaba", "vi": "Xin chào", "th": "สวัสดี",
    },
    "hello world": {
        "zh-cn": "你好世界", "zh-tw": "你好世界", "es": "Hola Mundo",
        "fr": "Bonjour le monde", "de": "Hallo Welt", "ja": "こんにちは世界",
        "ko": "안녕하세요 세계", "ru": "Привет, мир", "it": "Ciao mondo",
        "pt": "Olá Mundo",
    },
    "good morning": {
        "zh-cn": "早上好", "zh-tw": "早安", "es": "Buenos días",
        "fr": "Bonjour", "de": "Guten Morgen", "ja": "おはようございます",
        "ko": "좋은 아침", "ru": "Доброе утро", "it": "Buongiorno",
        "pt": "Bom dia",
    },
    "good night": {
        "zh-cn": "晚安", "zh-tw": "晚安", "es": "Buenas noches",
        "fr": "Bonne nuit", "de": "Gute Nacht", "ja": "おやすみなさい",
        "ko": "안녕히 주무세요", "ru": "Спокойной ночи", "it": "Buona notte",
        "pt": "Boa noite",
    },
    "thank you": {
        "zh-cn": "谢谢", "zh-tw": "謝謝", "es": "Gracias", "fr": "Merci",
        "de": "Danke", "ja": "ありがとう", "ko": "감사합니다", "ru": "Спасибо",
        "it": "Grazie", "pt": "Obrigado",
    },
    "goodbye": {
        "zh-cn": "再见", "zh-tw": "再見", "es": "Adiós", "fr": "Au revoir",
        "de": "Auf Wiedersehen", "ja": "さようなら", "ko": "안녕히 가세요",
        "ru": "До свидания", "it": "Arrivederci", "pt": "Adeus",
    },
    "yes": {
        "zh-cn": "是", "zh-tw": "是", "es": "Sí", "fr": "Oui", "de": "Ja",
        "ja": "はい", "ko": "네", "ru": "Да", "it": "Sì", "pt": "Sim",
    },
    "no": {
        "zh-cn": "不", "zh-tw": "不", "es": "No", "fr": "Non", "de": "Nein",
        "ja": "いいえ", "ko": "아니요", "ru": "Нет", "it": "No", "pt": "Não",
    },
    "how are you": {
        "zh-cn": "你好吗", "zh-tw": "你好嗎", "es": "¿Cómo estás?",
        "fr": "Comment ça va?", "de": "Wie geht es dir?", "ja": "お元気ですか",
        "ko": "어떻게 지내세요?", "ru": "Как дела?", "it": "Come stai?",
        "pt": "Como você está?",
    },
    "welcome": {
        "zh-cn": "欢迎", "zh-tw": "歡迎", "es": "Bienvenido", "fr": "Bienvenue",
        "de": "Willkommen", "ja": "ようこそ", "ko": "환영합니다",
        "ru": "Добро пожаловать", "it": "Benvenuto", "pt": "Bem-vindo",
    },
}

# Seconds to wait for the online translator before giving up.
ONLINE_TIMEOUT = 5.0
# After an online failure, skip the online translator for this many seconds.
_ONLINE_RETRY_AFTER = 300.0

_online_lock = threading.Lock()
_online_disabled_until = 0.0
_translator = None


def normalize_language_code(code):
    """Return the canonical form of a language code (lower case, '-' separator)."""
    if not isinstance(code, str):
        return ""
    normalized = code.strip().lower().replace("_", "-")
    return _LANGUAGE_ALIASES.get(normalized, normalized)


def is_supported_language(code):
    """True when ``code`` (after normalization) is a supported language."""
    return normalize_language_code(code) in SUPPORTED_LANGUAGES


def get_supported_languages():
    """Return a copy of the supported-language table (code -> name)."""
    return dict(SUPPORTED_LANGUAGES)


def _get_translator():
    """Create (once) the googletrans translator, or return None if unavailable."""
    global _translator
    if _translator is not None:
        return _translator
    try:
        from googletrans import Translator  # type: ignore
    except Exception:
        return None
    try:
        _translator = Translator(timeout=ONLINE_TIMEOUT)
    except TypeError:
        _translator = Translator()
    except Exception:
        return None
    return _translator


def _translate_online(text, source, target):
    """Translate via googletrans. Returns the translated string or None."""
    global _online_disabled_until
    with _online_lock:
        if time.time() < _online_disabled_until:
            return None
    translator = _get_translator()
    if translator is None:
        with _online_lock:
            _online_disabled_until = time.time() + _ONLINE_RETRY_AFTER
        return None

    result_box = {}

    def worker():
        try:
            result = translator.translate(text, src=source, dest=target)
            translated = getattr(result, "text", None)
            if isinstance(translated, str) and translated:
                result_box["text"] = translated
        except Exception:
            pass

    thread = threading.Thread(target=worker, daemon=True)
    thread.start()
    thread.join(ONLINE_TIMEOUT + 1.0)
    translated = result_box.get("text")
    if translated is None:
        with _online_lock:
            _online_disabled_until = time.time() + _ONLINE_RETRY_AFTER
    return translated


def _translate_offline(text, source, target):
    """Best-effort offline translation using the built-in phrase book.

    Unknown phrases are returned unchanged so the response is always valid.
    """
    stripped = text.strip()
    key = stripped.lower().rstrip("!.?。！？")
    if source == "en":
        phrases = _OFFLINE_PHRASES.get(key)
        if phrases and target in phrases:
            return phrases[target]
        return text
    # Reverse lookup: foreign phrase -> English (or to another language via English).
    for english, translations in _OFFLINE_PHRASES.items():
        candidate = translations.get(source)
        if candidate is None:
            continue
        if candidate.strip().lower().rstrip("!.?。！？") == key:
            if target == "en":
                return english.capitalize()
            if target in translations:
                return translations[target]
    return text


def translate_text(text, source_lang, target_lang):
    """Translate ``text`` from ``source_lang`` to ``target_lang``.

    Raises ``ValueError`` for a non-string text or an unsupported language
    code.  Never raises because of network problems.
    """
    if not isinstance(text, str):
        raise ValueError("text must be a string")
    source = normalize_language_code(source_lang)
    target = normalize_language_code(target_lang)
    if source not in SUPPORTED_LANGUAGES:
        raise ValueError("Unsupported source language: {}".format(source_lang))
    if target not in SUPPORTED_LANGUAGES:
        raise ValueError("Unsupported target language: {}".format(target_lang))

    if not text.strip() or source == target:
        return text

    translated = _translate_online(text, source, target)
    if translated is not None:
        return translated
    return _translate_offline(text, source, target)
