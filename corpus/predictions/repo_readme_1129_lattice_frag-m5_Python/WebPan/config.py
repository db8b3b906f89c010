"""Settings for the WebPan file storage and sharing service."""

import os

BASE_DIR = os.path.dirname(os.path.abspath(__file__))

# Storage
STORAGE_DIR = os.environ.get("WEBPAN_STORAGE_DIR", os.path.join(BASE_DIR, "storage"))
os.makedirs(STORAGE_DIR, exist_ok=True)

# Database
DATABASE_PATH = os.environ.get("WEBPAN_DATABASE_PATH", os.path.join(BASE_DIR, "webpan.db"))
DATABASE_URL = f"sqlite:///{DATABASE_PATH}"

# Limits
MAX_FILE_SIZE = 100 * 1024 * 1024  # 100MB
DEFAULT_QUOTA = 10 * 1024 * 1024 * 1024  # 10GB

# Authentication tokens
SECRET_KEY = os.environ.get("WEBPAN_SECRET_KEY", "webpan-dev-secret-key-change-me")
ALGORITHM = "HS256"
TOKEN_EXPIRE_SECONDS = 3600

# Server
HOST = os.environ.get("HOST", "0.0.0.0")
PORT = int(os.environ.get("PORT", "8080"))
