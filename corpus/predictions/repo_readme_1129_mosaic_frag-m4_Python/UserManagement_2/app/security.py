"""Password hashing, JWT issuing/verification and the Bearer-token dependency.

JWTs are HS256-signed tokens implemented with the standard library
(``hmac`` + ``hashlib``) so no extra dependency is needed.  Configuration is
read from environment variables:

* ``JWT_SECRET_KEY`` - signing secret (a random one is generated when unset)
* ``ACCESS_TOKEN_EXPIRE_SECONDS`` - token lifetime in seconds (default 3600)
"""

import base64
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from typing import Any, Dict, Optional

from fastapi import Depends, HTTPException, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

logger = logging.getLogger(__name__)

SECRET_KEY: str = os.environ.get("JWT_SECRET_KEY") or secrets.token_urlsafe(48)
ALGORITHM: str = "HS256"
TOKEN_TYPE: str = "Bearer"


def _read_expiry() -> int:
    raw = os.environ.get("ACCESS_TOKEN_EXPIRE_SECONDS", "3600")
    try:
        value = int(raw)
    except ValueError:
        return 3600
    return value if value > 0 else 3600


ACCESS_TOKEN_EXPIRE_SECONDS: int = _read_expiry()

_HASH_ALGORITHM = "pbkdf2_sha256"
_HASH_ITERATIONS = 100_000


class TokenError(Exception):
    """Raised when a token is malformed, has a bad signature or is expired."""


# ---------------------------------------------------------------------------
# Passwords
# ---------------------------------------------------------------------------


def hash_password(password: str) -> str:
    """Hash a password with PBKDF2-SHA256 and a random salt.

    The result has the form ``pbkdf2_sha256$<iterations>$<salt>$<hash>``.
    """
    salt = secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac(
        "sha256", password.encode("utf-8"), salt.encode("utf-8"), _HASH_ITERATIONS
    )
    return "{}${}${}${}".format(
        _HASH_ALGORITHM, _HASH_ITERATIONS, salt, base64.b64encode(digest).decode("ascii")
    )


def verify_password(password: str, hashed_password: str) -> bool:
    """Check a plain password against a hash produced by :func:`hash_password`."""
    if not isinstance(password, str) or not isinstance(hashed_password, str):
        return False
    try:
        algorithm, iterations, salt, expected = hashed_password.split("$", 3)
        if algorithm != _HASH_ALGORITHM:
            return False
        digest = hashlib.pbkdf2_hmac(
            "sha256", password.encode("utf-8"), salt.encode("utf-8"), int(iterations)
        )
    except (ValueError, TypeError):
        return False
    actual = base64.b64encode(digest).decode("ascii")
    return hmac.compare_digest(actual, expected)


# ---------------------------------------------------------------------------
# JWT
# ---------------------------------------------------------------------------


def _b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64url_decode(segment: str) -> bytes:
    padding = "=" * (-len(segment) % 4)
    return base64.urlsafe_b64decode(segment + padding)


def _sign(signing_input: bytes) -> str:
    signature = hmac.new(SECRET_KEY.encode("utf-8"), signing_input, hashlib.sha256).digest()
    return _b64url_encode(signature)


def create_access_token(
    user_id: int, username: str, expires_in: Optional[int] = None
) -> str:
    """Issue a signed JWT for the given user.

    The token carries ``sub`` (user id as string), ``user_id``, ``username``,
    ``iat``, ``exp`` and a unique ``jti``.
    """
    lifetime = ACCESS_TOKEN_EXPIRE_SECONDS if expires_in is None else int(expires_in)
    now = int(time.time())
    header = {"alg": ALGORITHM, "typ": "JWT"}
    payload = {
        "sub": str(user_id),
        "user_id": int(user_id),
        "username": username,
        "iat": now,
        "exp": now + lifetime,
        "jti": secrets.token_hex(8),
    }
    header_segment = _b64url_encode(json.dumps(header, separators=(",", ":")).encode("utf-8"))
    payload_segment = _b64url_encode(json.dumps(payload, separators=(",", ":")).encode("utf-8"))
    signing_input = "{}.{}".format(header_segment, payload_segment).encode("ascii")
    return "{}.{}.{}".format(header_segment, payload_segment, _sign(signing_input))


def decode_access_token(token: str) -> Dict[str, Any]:
    """Verify a JWT and return its payload.

    Raises :class:`TokenError` if the token is malformed, its signature is
    invalid or it has expired.
    """
    if not isinstance(token, str) or token.count(".") != 2:
        raise TokenError("Malformed token")
    header_segment, payload_segment, signature_segment = token.split(".")
    try:
        header = json.loads(_b64url_decode(header_segment))
        payload = json.loads(_b64url_decode(payload_segment))
    except (ValueError, TypeError):
        raise TokenError("Malformed token")
    if not isinstance(header, dict) or header.get("alg") != ALGORITHM:
        raise TokenError("Unsupported token algorithm")
    signing_input = "{}.{}".format(header_segment, payload_segment).encode("ascii")
    if not hmac.compare_digest(_sign(signing_input), signature_segment):
        raise TokenError("Invalid token signature")
    if not isinstance(payload, dict):
        raise TokenError("Malformed token payload")
    exp = payload.get("exp")
    if not isinstance(exp, (int, float)) or exp < time.time():
        raise TokenError("Token has expired")
    user_id = payload.get("user_id", payload.get("sub"))
    try:
        payload["user_id"] = int(user_id)
    except (TypeError, ValueError):
        raise TokenError("Malformed token payload")
    return payload


# ---------------------------------------------------------------------------
# FastAPI dependency
# ---------------------------------------------------------------------------

bearer_scheme = HTTPBearer(auto_error=False)


def _unauthorized(message: str) -> HTTPException:
    return HTTPException(
        status_code=status.HTTP_401_UNAUTHORIZED,
        detail=message,
        headers={"WWW-Authenticate": "Bearer"},
    )


def get_current_user(
    credentials: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme),
) -> Dict[str, Any]:
    """Require a valid ``Authorization: Bearer <token>`` header.

    Returns ``{"user_id": int, "username": str}`` for the authenticated user,
    or raises a 401 ``HTTPException``.
    """
    if credentials is None or not credentials.credentials:
        raise _unauthorized("Authentication required")
    if credentials.scheme.lower() != "bearer":
        raise _unauthorized("Invalid authentication scheme")
    try:
        payload = decode_access_token(credentials.credentials)
    except TokenError as exc:
        logger.info("Rejected access token: %s", exc)
        raise _unauthorized("Invalid or expired token")
    return {"user_id": payload["user_id"], "username": payload.get("username")}
