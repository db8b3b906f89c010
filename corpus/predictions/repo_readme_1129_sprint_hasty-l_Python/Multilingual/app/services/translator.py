"""Translation service with remote backend and offline fallback."""
import logging
from typing import Optional

from app.services.languages import normalize_lang

log = logging.getLogger(__name__)

try:  # pragma: no cover
    from googletrans import Translator as _GTranslator
except Exception:  # noqa: BLE001
    _GTranslator = None

# tiny offline phrasebook used when the remote backend is unavailable
_PHRASEBOOK = {
    "hello": {"zh-cn": "你好", "es": "hola", "fr": "bonjour", "de": "hallo", "ja": "こんにちは",
              "ko": "안녕하세요", "it": "ciao", "pt": "olá", "ru": "привет", "zh-tw": "你好"},
    "goodbye": {"zh-cn": "再见", "es": "adiós", "fr": "au revoir", "de": "auf wiedersehen",
                "ja": "さようなら", "it": "arrivederci", "zh-tw": "再見"},
    "thank you": {"zh-cn": "谢谢", "es": "gracias", "fr": "merci", "de": "danke",
                  "ja": "ありがとう", "it": "grazie", "zh-tw": "謝謝"},
    "good morning": {"zh-cn": "早上好", "es": "buenos días", "fr": "bonjour", "de": "guten morgen"},
    "hello world": {"zh-cn": "你好世界", "es": "hola mundo", "fr": "bonjour le monde", "de": "hallo welt"},
    "yes": {"zh-cn": "是", "es": "sí", "fr": "oui", "de": "ja"},
    "no": {"zh-cn": "不", "es": "no", "fr": "non", "de": "nein"},
}


class TranslationService:
    def __init__(self, enable_remote: bool = True, timeout: float = 5.0):
        self.enable_remote = enable_remote and _GTranslator is not None
        self.timeout = timeout
        self._client: Optional[object] = None

    def _get_client(self):
        if self._client is None and self.enable_remote:
            try:
                self._client = _GTranslator(timeout=self.timeout)
            except TypeError:
                self._client = _GTranslator()
        return self._client

    def _offline(self, text: str, source: str, target: str) -> str:
        key = text.strip().lower()
        if source == "en" and key in _PHRASEBOOK and target in _PHRASEBOOK[key]:
            return _PHRASEBOOK[key][target]
        # reverse lookup: foreign -> english
        if target == "en":
            for en, tr in _PHRASEBOOK.items():
                if tr.get(source, "").lower() == key:
                    return en
        return text

    def translate(self, text: str, source: str, target: str) -> str:
        source = normalize_lang(source)
        target = normalize_lang(target)
        if source == target:
            return text
        client = self._get_client()
        if client is not None:
            try:
                result = client.translate(text, src=source, dest=target)
                if result is not None and getattr(result, "text", None):
                    return result.text
            except Exception as exc:  # noqa: BLE001
                log.warning("Remote translation failed, using offline fallback: %s", exc)
                self.enable_remote = False
        return self._offline(text, source, target)
