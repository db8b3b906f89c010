"""Service settings (overridable through environment variables)."""
import os
from dataclasses import dataclass

VERSION = "1.0.0"


@dataclass(frozen=True)
class Settings:
    host: str = os.environ.get("HOST", "0.0.0.0")
    port: int = int(os.environ.get("PORT", "8000"))
    log_level: str = os.environ.get("LOG_LEVEL", "info")
    api_prefix: str = "/api/v1"
    version: str = VERSION
    # Maximum decoded size of one source file.
    max_source_bytes: int = int(os.environ.get("MAX_SOURCE_BYTES", str(50 * 1024 * 1024)))
    # Maximum number of tasks in one batch request.
    max_batch_size: int = int(os.environ.get("MAX_BATCH_SIZE", "100"))
    # Worker threads used when a batch asks for parallel processing.
    batch_workers: int = int(os.environ.get("BATCH_WORKERS", "4"))


settings = Settings()
