"""Text translation.

Backends, tried in order:
1. ``online`` - Google's public translate endpoint (the same service used by
   ``googletrans``), called with the standard library so no extra dependency
   is needed.  It is skipped for a while after a failure (circuit breaker).
2. ``glossary`` - a small built-in phrase glossary that works offline.
3. ``passthrough`` - when neither can translate, the text is returned
   unchanged and the response carries a ``warning``.
"""
import json
import logging
import re
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from .glossary import PHRASES
from .languages import AUTO

logger = logging.getLogger(__name__)

GOOGLE_ENDPOINT = "https://translate.googleapis.com/translate_a/single"
_TRAILING = re.compile(r"[\s!?.,;:！？。，、…¡¿]+$")
_LEADING = re.compile(r"^[\s¡¿]+")


@dataclass
class TranslationResult:
    text: str
    engine: str
    detected_source: Optional[str] = None
    warning: Optional[str] = None


def _normalize_phrase(text: str) -> str:
    text = _LEADING.sub("", text.strip())
    return _TRAILING.sub("", text).lower()


class Translator:
    def __init__(self, online: bool = True, timeout: float = 4.0, retry_after: float = 60.0):
        self.online = online
        self.timeout = timeout
        self.retry_after = retry_after
        self._online_disabled_until = 0.0
        self._lock = threading.Lock()
        # index: language -> normalized phrase -> concept index
        self._index: Dict[str, Dict[str, int]] = {}
        for idx, concept in enumerate(PHRASES):
            for lang, phrase in concept.items():
                self._index.setdefault(lang, {}).setdefault(_normalize_phrase(phrase), idx)

    # ------------------------------------------------------------------ public
    def translate(self, text: str, source: str, target: str) -> TranslationResult:
        if source == target:
            return TranslationResult(text=text, engine="identity", detected_source=source)

        result = self._translate_online(text, source, target)
        if result is not None:
            return result

        result = self._translate_glossary(text, source, target)
        if result is not None:
            return result

        return TranslationResult(
            text=text,
            engine="passthrough",
            detected_source=None if source == AUTO else source,
            warning="No translation backend could translate this text; it is returned unchanged.",
        )

    # ----------------------------------------------------------------- backends
    def _online_available(self) -> bool:
        if not self.online:
            return False
        with self._lock:
            return time.monotonic() >= self._online_disabled_until

    def _translate_online(self, text: str, source: str, target: str) -> Optional[TranslationResult]:
        if not self._online_available():
            return None
        params = urllib.parse.urlencode(
            {"client": "gtx", "sl": source, "tl": target, "dt": "t", "q": text}
        )
        req = urllib.request.Request(
            f"{GOOGLE_ENDPOINT}?{params}", headers={"User-Agent": "Mozilla/5.0"}
        )
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                payload = json.loads(resp.read().decode("utf-8"))
            segments = payload[0] or []
            translated = "".join(seg[0] for seg in segments if seg and seg[0])
            detected = payload[2] if len(payload) > 2 and isinstance(payload[2], str) else None
            if not translated:
                raise ValueError("empty translation returned")
            return TranslationResult(
                text=translated, engine="online",
                detected_source=(detected or source).lower() if source == AUTO else source,
            )
        except Exception as exc:  # network errors, HTTP errors, unexpected payloads
            logger.warning("Online translation unavailable (%s); using offline fallback", exc)
            with self._lock:
                self._online_disabled_until = time.monotonic() + self.retry_after
            return None

    def _lookup(self, text: str, source: str) -> Optional[Tuple[int, str]]:
        key = _normalize_phrase(text)
        if source == AUTO:
            for lang, phrases in self._index.items():
                if key in phrases:
                    return phrases[key], lang
            return None
        phrases = self._index.get(source, {})
        if key in phrases:
            return phrases[key], source
        return None

    def _translate_glossary(self, text: str, source: str, target: str) -> Optional[TranslationResult]:
        found = self._lookup(text, source)
        if found is None:
            return None
        concept_idx, detected = found
        phrase = PHRASES[concept_idx].get(target)
        if phrase is None:
            return None
        stripped = text.strip()
        # Keep the capitalisation and trailing punctuation of the input.
        if stripped[:1].isupper() and phrase[:1].islower():
            phrase = phrase[0].upper() + phrase[1:]
        trailing = _TRAILING.search(stripped)
        if trailing:
            phrase += trailing.group(0).strip()
        return TranslationResult(text=phrase, engine="glossary", detected_source=detected)
