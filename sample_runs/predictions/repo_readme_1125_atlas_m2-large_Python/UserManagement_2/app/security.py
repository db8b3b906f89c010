"""Password hashing (PBKDF2-SHA256) and JWT handling."""
import base64
import hashlib
import hmac
import logging
import os
import secrets
import time
import uuid
from pathlib import Path
from typing import Any, Dict

import jwt

from .config import settings
from .errors import APIError

logger = logging.getLogger(__name__)

_HASH_SCHEME = "pbkdf2_sha256"


# ------------------------------------------------------------------ passwords
def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    iterations = settings.password_iterations
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations)
    return "$".join([
        _HASH_SCHEME, str(iterations),
        base64.b64encode(salt).decode("ascii"), base64.b64encode(digest).decode("ascii"),
    ])


def verify_password(password: str, encoded: str) -> bool:
    try:
        scheme, iterations, salt_b64, digest_b64 = encoded.split("$")
        if scheme != _HASH_SCHEME:
            return False
        salt = base64.b64decode(salt_b64)
        expected = base64.b64decode(digest_b64)
        actual = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, int(iterations))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


# ------------------------------------------------------------------------ JWT
_secret_cache: Dict[str, str] = {}


def _secret() -> str:
    if settings.jwt_secret:
        return settings.jwt_secret
    if "key" not in _secret_cache:
        path = Path(settings.database_path).parent / ".jwt_secret"
        try:
            if path.exists():
                _secret_cache["key"] = path.read_text().strip()
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                key = secrets.token_urlsafe(48)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "w") as fh:
                    fh.write(key)
                _secret_cache["key"] = key
                logger.warning("JWT_SECRET_KEY not set; generated a secret in %s", path)
        except FileExistsError:
            _secret_cache["key"] = path.read_text().strip()
        except OSError:
            _secret_cache["key"] = secrets.token_urlsafe(48)
            logger.warning("JWT_SECRET_KEY not set and secret file not writable; using ephemeral key")
    return _secret_cache["key"]


def create_access_token(user_id: int, username: str) -> str:
    now = int(time.time())
    payload = {
        "sub": str(user_id),
        "username": username,
        "type": "access",
        "iat": now,
        "exp": now + settings.jwt_expires_in,
        "jti": uuid.uuid4().hex,
    }
    return jwt.encode(payload, _secret(), algorithm=settings.jwt_algorithm)


def decode_access_token(token: str) -> Dict[str, Any]:
    try:
        payload = jwt.decode(token, _secret(), algorithms=[settings.jwt_algorithm],
                             options={"require": ["exp", "sub"]})
    except jwt.ExpiredSignatureError:
        raise APIError(401, "TOKEN_EXPIRED", "Access token has expired")
    except jwt.InvalidTokenError:
        raise APIError(401, "INVALID_TOKEN", "Invalid access token")
    if payload.get("type") != "access":
        raise APIError(401, "INVALID_TOKEN", "Invalid access token")
    try:
        payload["user_id"] = int(payload["sub"])
    except (TypeError, ValueError):
        raise APIError(401, "INVALID_TOKEN", "Invalid access token")
    return payload
