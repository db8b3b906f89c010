"""Configuration from environment variables."""
import os
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Settings:
    host: str = field(default_factory=lambda: os.environ.get("HOST", "0.0.0.0"))
    port: int = field(default_factory=lambda: int(os.environ.get("PORT", "8080")))
    log_level: str = field(default_factory=lambda: os.environ.get("LOG_LEVEL", "INFO"))
    api_prefix: str = "/api/v1"
    version: str = "1.0.0"
    database_path: str = field(
        default_factory=lambda: os.environ.get("DATABASE_PATH", str(BASE_DIR / "data" / "users.db"))
    )
    # When unset, a random secret is generated once and kept next to the database.
    jwt_secret: str = field(default_factory=lambda: os.environ.get("JWT_SECRET_KEY", ""))
    jwt_algorithm: str = "HS256"
    jwt_expires_in: int = field(default_factory=lambda: int(os.environ.get("JWT_EXPIRES_IN", "3600")))
    password_iterations: int = field(
        default_factory=lambda: int(os.environ.get("PASSWORD_HASH_ITERATIONS", "120000"))
    )


settings = Settings()
