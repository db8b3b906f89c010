"""Environment-variable based settings and logging setup for the user management service."""

import logging
import os
import sys

# JWT settings
JWT_SECRET_KEY = os.environ.get("JWT_SECRET_KEY", "change-me-in-production-secret-key")
JWT_ALGORITHM = os.environ.get("JWT_ALGORITHM", "HS256")
ACCESS_TOKEN_EXPIRE_MINUTES = int(os.environ.get("ACCESS_TOKEN_EXPIRE_MINUTES", "60"))

# Database
DATABASE_URL = os.environ.get("DATABASE_URL", "sqlite:///./users.db")

# Server
HOST = os.environ.get("HOST", "0.0.0.0")
PORT = int(os.environ.get("PORT", "8080"))

# Logging
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()


def setup_logging() -> logging.Logger:
    """Configure root logging and return the service logger."""
    level = getattr(logging, LOG_LEVEL, logging.INFO)
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)s [%(name)s] %(message)s",
        stream=sys.stdout,
    )
    service_logger = logging.getLogger("user_management")
    service_logger.setLevel(level)
    return service_logger


logger = setup_logging()
