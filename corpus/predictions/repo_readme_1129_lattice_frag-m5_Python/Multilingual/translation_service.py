"""Translation service.

Translates text between the supported languages.  The external
``googletrans`` library is used when it is installed and the network is
reachable; otherwise (or when it fails) a small built-in offline
translator is used so that the service always returns a result.
"""

import logging
import re
import threading

from config import SUPPORTED_LANGUAGES

logger = logging.getLogger(__name__)

# Seconds to wait for the external translation service.
EXTERNAL_TIMEOUT = 5

try:  # pragma: no cover - depends on the environment
    from googletrans import Translator as _GoogleTranslator
except Exception:  # ImportError or any import-time failure
    _GoogleTranslator = None


# ---------------------------------------------------------------------------
# Offline dictionary: English phrase -> translations in other languages.
# English is used as a pivot language for non-English pairs.
# ---------------------------------------------------------------------------
_OFFLINE_PHRASES = {
    "hello": {
        "zh-cn": "你好", "zh-tw": "你好", "es": "Hola", "fr": "Bonjour",
        "de": "Hallo", "ja": "こんにちは", "ko": "안녕하세요", "ru": "Привет",
        "it": "Ciao", "pt": "Olá", "ar": "مرحبا", "hi": "नमस्ते",
    },
    "hello world": {
        "zh-cn": "你好世界", "zh-tw": "你好世界", "es": "Hola mundo",
        "fr": "Bonjour le monde", "de": "Hallo Welt", "ja": "こんにちは世界",
        "ko": "안녕하세요 세계", "ru": "Привет мир", "it": "Ciao mondo",
        "pt": "Olá mundo", "ar": "مرحبا بالعالم", "hi": "नमस्ते दुनिया",
    },
    "world": {
        "zh-cn": "世界", "zh-tw": "世界", "es": "mundo", "fr": "monde",
        "de": "Welt", "ja": "世界", "ko": "세계", "ru": "мир", "it": "mondo",
        "pt": "mundo", "ar": "العالم", "hi": "दुनिया",
    },
    "good morning": {
        "zh-cn": "早上好", "zh-tw": "早安", "es": "Buenos días", "fr": "Bonjour",
        "de": "Guten Morgen", "ja": "おはようございます", "ko": "좋은 아침",
        "ru": "Доброе утро", "it": "Buongiorno", "pt": "Bom dia",
        "ar": "صباح الخير", "hi": "सुप्रभात",
    },
    "good night": {
        "zh-cn": "晚安", "zh-tw": "晚安", "es": "Buenas noches",
        "fr": "Bonne nuit", "de": "Gute Nacht", "ja": "おやすみなさい",
        "ko": "안녕히 주무세요", "ru": "Спокойной ночи", "it": "Buona notte",
        "pt": "Boa noite", "ar": "تصبح على خير", "hi": "शुभ रात्रि",
    },
    "goodbye": {
        "zh-cn": "再见", "zh-tw": "再見", "es": "Adiós", "fr": "Au revoir",
        "de": "Auf Wiedersehen", "ja": "さようなら", "ko": "안녕히 가세요",
        "ru": "До свидания", "it": "Arrivederci", "pt": "Adeus",
        "ar": "وداعا", "hi": "अलविदा",
    },
    "thank you": {
        "zh-cn": "谢谢", "zh-tw": "謝謝", "es": "Gracias", "fr": "Merci",
        "de": "Danke", "ja": "ありがとう", "ko": "감사합니다", "ru": "Спасибо",
        "it": "Grazie", "pt": "Obrigado", "ar": "شكرا", "hi": "धन्यवाद",
    },
    "thanks": {
        "zh-cn": "谢谢", "zh-tw": "謝謝", "es": "Gracias", "fr": "Merci",
        "de": "Danke", "ja": "ありがとう", "ko": "고마워요", "ru": "Спасибо",
        "it": "Grazie", "pt": "Obrigado", "ar": "شكرا", "hi": "धन्यवाद",
    },
    "yes": {
        "zh-cn": "是", "zh-tw": "是", "es": "Sí", "fr": "Oui", "de": "Ja",
        "ja": "はい", "ko": "네", "ru": "Да", "it": "Sì", "pt": "Sim",
        "ar": "نعم", "hi": "हाँ",
    },
    "no": {
        "zh-cn": "不", "zh-tw": "不", "es": "No", "fr": "Non", "de": "Nein",
        "ja": "いいえ", "ko": "아니요", "ru": "Нет", "it": "No", "pt": "Não",
        "ar": "لا", "hi": "नहीं",
    },
    "please": {
        "zh-cn": "请", "zh-tw": "請", "es": "Por favor", "fr": "S'il vous plaît",
        "de": "Bitte", "ja": "お願いします", "ko": "제발", "ru": "Пожалуйста",
        "it": "Per favore", "pt": "Por favor", "ar": "من فضلك", "hi": "कृपया",
    },
    "how are you": {
        "zh-cn": "你好吗", "zh-tw": "你好嗎", "es": "¿Cómo estás?",
        "fr": "Comment ça va ?", "de": "Wie geht es dir?", "ja": "お元気ですか",
        "ko": "어떻게 지내세요", "ru": "Как дела?", "it": "Come stai?",
        "pt": "Como você está?", "ar": "كيف حالك", "hi": "आप कैसे हैं",
    },
    "welcome": {
        "zh-cn": "欢迎", "zh-tw": "歡迎", "es": "Bienvenido", "fr": "Bienvenue",
        "de": "Willkommen", "ja": "ようこそ", "ko": "환영합니다",
        "ru": "Добро пожаловать", "it": "Benvenuto", "pt": "Bem-vindo",
        "ar": "مرحبا بك", "hi": "स्वागत है",
    },
    "good": {
        "zh-cn": "好", "zh-tw": "好", "es": "bueno", "fr": "bon", "de": "gut",
        "ja": "良い", "ko": "좋은", "ru": "хорошо", "it": "buono", "pt": "bom",
        "ar": "جيد", "hi": "अच्छा",
    },
    "friend": {
        "zh-cn": "朋友", "zh-tw": "朋友", "es": "amigo", "fr": "ami",
        "de": "Freund", "ja": "友達", "ko": "친구", "ru": "друг", "it": "amico",
        "pt": "amigo", "ar": "صديق", "hi": "दोस्त",
    },
    "i love you": {
        "zh-cn": "我爱你", "zh-tw": "我愛你", "es": "Te quiero",
        "fr": "Je t'aime", "de": "Ich liebe dich", "ja": "愛してる",
        "ko": "사랑해요", "ru": "Я тебя люблю", "it": "Ti amo",
        "pt": "Eu te amo", "ar": "أحبك", "hi": "मैं तुमसे प्यार करता हूँ",
    },
}

_PUNCTUATION = " \t\r\n.,!?;:。，！？、¿¡\"'"

# Reverse index: (language, normalized phrase) -> English key.
_REVERSE_INDEX = {}
for _en, _translations in _OFFLINE_PHRASES.items():
    _REVERSE_INDEX[("en", _en)] = _en
    for _lang, _phrase in _translations.items():
        _REVERSE_INDEX.setdefault((_lang, _phrase.strip(_PUNCTUATION).lower()), _en)


def _normalize_code(code):
    """Normalize a language code ('zh-CN', 'zh_cn' -> 'zh-cn')."""
    return str(code).strip().lower().replace("_", "-")


def _language_family(code):
    """Map a code to the key used by the offline dictionary."""
    if code in ("zh", "zh-cn", "zh-hans"):
        return "zh-cn"
    if code in ("zh-tw", "zh-hk", "zh-hant"):
        return "zh-tw"
    return code.split("-")[0]


def is_supported_language(code):
    """Return True if ``code`` is one of the configured supported languages."""
    if not isinstance(code, str) or not code.strip():
        return False
    normalized = _normalize_code(code)
    supported = {_normalize_code(c) for c in SUPPORTED_LANGUAGES}
    return normalized in supported


def get_supported_languages():
    """Return a copy of the supported language mapping (code -> name)."""
    return dict(SUPPORTED_LANGUAGES)


# ---------------------------------------------------------------------------
# External translation (googletrans)
# ---------------------------------------------------------------------------
_external_lock = threading.Lock()
_external_state = {"translator": None, "disabled": _GoogleTranslator is None}


def _external_translate(text, source_lang, target_lang):
    """Translate with googletrans; return None if unavailable or failing."""
    if _external_state["disabled"]:
        return None
    try:
        with _external_lock:
            if _external_state["translator"] is None:
                try:
                    _external_state["translator"] = _GoogleTranslator(timeout=EXTERNAL_TIMEOUT)
                except TypeError:
                    _external_state["translator"] = _GoogleTranslator()
            translator = _external_state["translator"]
        result = translator.translate(text, src=source_lang, dest=target_lang)
        translated = getattr(result, "text", None)
        if isinstance(translated, str) and translated.strip():
            return translated
        return None
    except Exception as exc:  # network errors, API changes, etc.
        logger.warning("External translation unavailable, using offline fallback: %s", exc)
        # Avoid paying the network timeout on every subsequent request.
        _external_state["disabled"] = True
        return None


# ---------------------------------------------------------------------------
# Offline translation
# ---------------------------------------------------------------------------
def _lookup_phrase(phrase, source, target):
    """Translate one phrase via the English pivot; None if unknown."""
    key = phrase.strip(_PUNCTUATION).lower()
    if not key:
        return None
    english = _REVERSE_INDEX.get((source, key))
    if english is None:
        return None
    if target == "en":
        return english.capitalize() if phrase[:1].isupper() else english
    translated = _OFFLINE_PHRASES[english].get(target)
    if translated is None:
        return None
    return translated


def offline_translate(text, source_lang, target_lang):
    """Translate ``text`` using the built-in dictionary.

    Tries the whole text first, then word-by-word; words without a known
    translation are kept unchanged.
    """
    source = _language_family(_normalize_code(source_lang))
    target = _language_family(_normalize_code(target_lang))
    if source == target:
        return text

    stripped = text.strip()
    whole = _lookup_phrase(stripped, source, target)
    if whole is not None:
        trailing = stripped[len(stripped.rstrip(_PUNCTUATION)):]
        if trailing and not whole.endswith(tuple(_PUNCTUATION)):
            whole = whole + trailing
        return whole

    tokens = re.split(r"(\s+)", text)
    out = []
    changed = False
    for token in tokens:
        if not token or token.isspace():
            out.append(token)
            continue
        core = token.strip(_PUNCTUATION)
        translated = _lookup_phrase(core, source, target) if core else None
        if translated is None:
            out.append(token)
        else:
            changed = True
            start = token.find(core)
            out.append(token[:start] + translated + token[start + len(core):])
    if changed:
        joiner_free = target in ("zh-cn", "zh-tw", "ja")
        result = "".join(out)
        if joiner_free:
            result = re.sub(r"(?<=[^\x00-\x7f])\s+(?=[^\x00-\x7f])", "", result)
        return result
    return text


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------
def translate_text(text, source_lang, target_lang):
    """Translate ``text`` from ``source_lang`` to ``target_lang``.

    Raises ``ValueError`` for empty text or unsupported languages.
    Returns the translated string.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("text must be a non-empty string")
    if not is_supported_language(source_lang):
        raise ValueError("Unsupported source language: {}".format(source_lang))
    if not is_supported_language(target_lang):
        raise ValueError("Unsupported target language: {}".format(target_lang))

    source = _normalize_code(source_lang)
    target = _normalize_code(target_lang)
    if source == target:
        return text

    translated = _external_translate(text, source, target)
    if translated is not None:
        return translated
    return offline_translate(text, source, target)
