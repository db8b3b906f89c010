import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    app_name: str = "StructuredDataConvertor"
    version: str = "1.0.0"
    host: str = os.environ.get("HOST", "0.0.0.0")
    port: int = int(os.environ.get("PORT", "8000"))
    api_prefix: str = "/api/v1"
    max_batch_size: int = int(os.environ.get("MAX_BATCH_SIZE", "100"))
    max_workers: int = int(os.environ.get("MAX_WORKERS", "4"))


settings = Settings()
