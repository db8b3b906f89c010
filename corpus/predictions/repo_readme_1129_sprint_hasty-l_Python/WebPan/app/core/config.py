import os


class Settings:
    APP_NAME = "WebPan"
    VERSION = "1.0.0"
    API_PREFIX = "/api/v1"
    DATABASE_URL = os.environ.get("DATABASE_URL", "sqlite:///./webpan.db")
    STORAGE_DIR = os.path.abspath(os.environ.get("STORAGE_DIR", "./storage"))
    SECRET_KEY = os.environ.get("SECRET_KEY", "webpan-dev-secret-change-me")
    JWT_ALGORITHM = "HS256"
    TOKEN_EXPIRE_SECONDS = int(os.environ.get("TOKEN_EXPIRE_SECONDS", "3600"))
    MAX_FILE_SIZE = int(os.environ.get("MAX_FILE_SIZE", str(100 * 1024 * 1024)))
    DEFAULT_QUOTA = int(os.environ.get("DEFAULT_QUOTA", str(10 * 1024 * 1024 * 1024)))
    BLOCKED_EXTENSIONS = {
        ".exe", ".bat", ".cmd", ".com", ".scr", ".msi", ".vbs", ".ps1", ".php", ".jsp", ".asp", ".aspx", ".dll",
    }
    CHUNK_SIZE = 1024 * 1024


settings = Settings()
