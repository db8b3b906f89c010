"""Runtime configuration, read from environment variables."""
import os
from dataclasses import dataclass


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Config:
    host: str = "0.0.0.0"
    port: int = 5000
    # Use the online Google translation endpoint when reachable; the built-in
    # phrase glossary is always used as an offline fallback.
    online_translation: bool = True
    translation_timeout: float = 4.0
    # After an online failure, skip the online backend for this many seconds.
    online_retry_after: float = 60.0
    max_text_length: int = 5000

    @classmethod
    def from_env(cls) -> "Config":
        return cls(
            host=os.environ.get("HOST", cls.host),
            port=int(os.environ.get("PORT", cls.port)),
            online_translation=_env_bool("ONLINE_TRANSLATION", cls.online_translation),
            translation_timeout=float(os.environ.get("TRANSLATION_TIMEOUT", cls.translation_timeout)),
            online_retry_after=float(os.environ.get("ONLINE_RETRY_AFTER", cls.online_retry_after)),
            max_text_length=int(os.environ.get("MAX_TEXT_LENGTH", cls.max_text_length)),
        )
