"""Configuration from environment variables."""
import os
from dataclasses import dataclass
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
MB = 1024 * 1024
GB = 1024 * MB


@dataclass(frozen=True)
class Config:
    host: str
    port: int
    threads: int
    data_dir: Path
    storage_dir: Path
    database_path: Path
    secret_key: str
    token_ttl: int
    max_file_size: int
    max_request_bytes: int
    default_quota: int
    default_share_ttl: int
    max_share_ttl: int
    public_base_url: str

    @classmethod
    def from_env(cls) -> "Config":
        data_dir = Path(os.environ.get("WEBPAN_DATA_DIR", BASE_DIR / "data"))
        return cls(
            host=os.environ.get("HOST", "0.0.0.0"),
            port=int(os.environ.get("PORT", "8080")),
            threads=int(os.environ.get("WEBPAN_THREADS", "16")),
            data_dir=data_dir,
            storage_dir=Path(os.environ.get("WEBPAN_STORAGE_DIR", data_dir / "files")),
            database_path=Path(os.environ.get("WEBPAN_DATABASE", data_dir / "webpan.db")),
            secret_key=os.environ.get("WEBPAN_SECRET_KEY", ""),
            token_ttl=int(os.environ.get("WEBPAN_TOKEN_TTL", "3600")),
            max_file_size=int(os.environ.get("WEBPAN_MAX_FILE_SIZE", str(100 * MB))),
            max_request_bytes=int(os.environ.get("WEBPAN_MAX_REQUEST_BYTES", str(1 * GB))),
            default_quota=int(os.environ.get("WEBPAN_DEFAULT_QUOTA", str(10 * GB))),
            default_share_ttl=int(os.environ.get("WEBPAN_DEFAULT_SHARE_TTL", str(24 * 3600))),
            max_share_ttl=int(os.environ.get("WEBPAN_MAX_SHARE_TTL", str(365 * 24 * 3600))),
            public_base_url=os.environ.get("WEBPAN_PUBLIC_BASE_URL", "").rstrip("/"),
        )
