"""Security helpers: password hashing, JWT handling and bearer authentication.

* ``hash_password`` / ``verify_password`` use salted PBKDF2-HMAC-SHA256
  from the standard library.
* ``create_access_token`` / ``decode_access_token`` issue and validate
  HS256 JWTs signed with the configured secret.
* ``get_current_user`` is a FastAPI dependency that requires a valid
  ``Authorization: Bearer <token>`` header and returns the user row.
"""

import base64
import hashlib
import hmac
import logging
import secrets
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, Optional

import jwt
from fastapi import Depends, HTTPException, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from config import settings
from database import User, get_db

logger = logging.getLogger(__name__)

JWT_ALGORITHM = "HS256"
_PBKDF2_ITERATIONS = 100_000
_HASH_SCHEME = "pbkdf2_sha256"

bearer_scheme = HTTPBearer(auto_error=False)


# --------------------------------------------------------------------------
# Password hashing
# --------------------------------------------------------------------------

def hash_password(password: str) -> str:
    """Return a salted PBKDF2 hash in the form ``scheme$iterations$salt$hash``."""
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac(
        "sha256", password.encode("utf-8"), salt, _PBKDF2_ITERATIONS
    )
    return "{}${}${}${}".format(
        _HASH_SCHEME,
        _PBKDF2_ITERATIONS,
        base64.b64encode(salt).decode("ascii"),
        base64.b64encode(digest).decode("ascii"),
    )


def verify_password(password: str, password_hash: str) -> bool:
    """Check a plain password against a hash produced by ``hash_password``."""
    if not password or not password_hash:
        return False
    try:
        scheme, iterations, salt_b64, digest_b64 = password_hash.split("$", 3)
        if scheme != _HASH_SCHEME:
            return False
        salt = base64.b64decode(salt_b64)
        expected = base64.b64decode(digest_b64)
        actual = hashlib.pbkdf2_hmac(
            "sha256", password.encode("utf-8"), salt, int(iterations)
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


# --------------------------------------------------------------------------
# JWT tokens
# --------------------------------------------------------------------------

def create_access_token(data: Dict[str, Any], expires_delta: Optional[timedelta] = None) -> str:
    """Create a signed JWT containing ``data`` (``sub`` should be the user id)."""
    to_encode = dict(data)
    if "sub" in to_encode:
        to_encode["sub"] = str(to_encode["sub"])
    now = datetime.now(timezone.utc)
    if expires_delta is None:
        expires_delta = timedelta(seconds=settings.access_token_expire_seconds)
    to_encode.update({"iat": now, "exp": now + expires_delta})
    token = jwt.encode(to_encode, settings.jwt_secret, algorithm=JWT_ALGORITHM)
    if isinstance(token, bytes):  # PyJWT < 2 returns bytes
        token = token.decode("utf-8")
    return token


def decode_access_token(token: str) -> Dict[str, Any]:
    """Decode and validate a JWT, raising 401 if it is invalid or expired."""
    try:
        return jwt.decode(token, settings.jwt_secret, algorithms=[JWT_ALGORITHM])
    except jwt.ExpiredSignatureError:
        raise _unauthorized("Token has expired")
    except jwt.InvalidTokenError:
        raise _unauthorized("Invalid authentication token")


def _unauthorized(message: str) -> HTTPException:
    return HTTPException(
        status_code=status.HTTP_401_UNAUTHORIZED,
        detail=message,
        headers={"WWW-Authenticate": "Bearer"},
    )


# --------------------------------------------------------------------------
# Dependencies
# --------------------------------------------------------------------------

def get_current_user(
    credentials: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme),
    db: Session = Depends(get_db),
) -> User:
    """Require a valid bearer token and return the authenticated user."""
    if credentials is None or not credentials.credentials:
        raise _unauthorized("Authentication required")
    if (credentials.scheme or "").lower() != "bearer":
        raise _unauthorized("Authorization scheme must be Bearer")

    payload = decode_access_token(credentials.credentials)
    subject = payload.get("sub")
    try:
        user_id = int(subject)
    except (TypeError, ValueError):
        raise _unauthorized("Invalid authentication token")

    user = db.query(User).filter(User.id == user_id).first()
    if user is None:
        logger.info("Token presented for missing user id=%s", user_id)
        raise _unauthorized("User for this token no longer exists")
    return user
