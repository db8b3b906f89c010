"""Runtime configuration, read from environment variables."""
import os
from dataclasses import dataclass


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else default


@dataclass(frozen=True)
class Settings:
    service_name: str = "synapse-benchmark"
    # Domain part of user ids (``@alice:<server_name>``).
    server_name: str = "example.org"
    host: str = "0.0.0.0"
    port: int = 8080
    token_ttl_seconds: int = 3600
    default_limit: int = 20
    max_limit: int = 100
    max_body_bytes: int = 64 * 1024
    threads: int = 8
    log_level: str = "INFO"

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(
            server_name=os.environ.get("SYNAPSE_SERVER_NAME", cls.server_name),
            host=os.environ.get("HOST", cls.host),
            port=_env_int("SYNAPSE_PORT", _env_int("PORT", cls.port)),
            token_ttl_seconds=max(60, _env_int("TOKEN_TTL_SECONDS", cls.token_ttl_seconds)),
            threads=_env_int("THREADS", cls.threads),
            log_level=os.environ.get("LOG_LEVEL", cls.log_level),
        )
