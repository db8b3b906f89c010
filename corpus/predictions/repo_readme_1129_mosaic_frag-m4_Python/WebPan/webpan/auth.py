"""Authentication: register/login endpoints, password hashing, tokens.

Tokens are stateless HMAC-SHA256 signed strings carrying the user id,
username and expiry time.  Protected routes use :func:`get_current_user`
as a FastAPI dependency; it raises 401 errors with the ``AUTH_REQUIRED``
(no token) or ``AUTH_INVALID`` (bad/expired token) error codes.
"""

import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import time
from typing import Any, Dict, Optional

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from . import db

router = APIRouter(prefix="/auth", tags=["auth"])

SECRET_KEY: str = os.environ.get("WEBPAN_SECRET_KEY") or secrets.token_urlsafe(48)
TOKEN_EXPIRES_IN: int = 3600

_HASH_ITERATIONS = 100_000
_USERNAME_RE = re.compile(r"^[A-Za-z0-9_.\-@]{3,64}$")
_EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_MIN_PASSWORD_LENGTH = 6
_MAX_PASSWORD_LENGTH = 128


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def error_response(status_code: int, error: str, error_code: str, details: Optional[str] = None) -> JSONResponse:
    """Build the unified error body as a JSON response."""
    body: Dict[str, Any] = {"success": False, "error": error, "error_code": error_code}
    if details is not None:
        body["details"] = details
    return JSONResponse(status_code=status_code, content=body)


def hash_password(password: str) -> str:
    """Hash a password with PBKDF2-SHA256 and a random salt."""
    salt = secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt.encode("utf-8"), _HASH_ITERATIONS)
    return "pbkdf2_sha256${}${}${}".format(_HASH_ITERATIONS, salt, digest.hex())


def verify_password(password: str, password_hash: str) -> bool:
    """Check a password against a hash produced by :func:`hash_password`."""
    try:
        algorithm, iterations, salt, expected = password_hash.split("$", 3)
        if algorithm != "pbkdf2_sha256":
            return False
        digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt.encode("utf-8"), int(iterations))
    except (AttributeError, ValueError, TypeError):
        return False
    return hmac.compare_digest(digest.hex(), expected)


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64decode(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def _signature(payload_segment: str) -> str:
    mac = hmac.new(SECRET_KEY.encode("utf-8"), payload_segment.encode("ascii"), hashlib.sha256)
    return _b64encode(mac.digest())


def create_token(user_id: str, username: str, expires_in: int = TOKEN_EXPIRES_IN) -> str:
    """Issue a signed access token for a user."""
    payload = {
        "uid": str(user_id),
        "usr": username,
        "exp": int(time.time()) + int(expires_in),
        "nonce": secrets.token_hex(8),
    }
    payload_segment = _b64encode(json.dumps(payload, separators=(",", ":")).encode("utf-8"))
    return "{}.{}".format(payload_segment, _signature(payload_segment))


def verify_token(token: str) -> Optional[Dict[str, Any]]:
    """Return ``{"user_id", "username"}`` for a valid token, else ``None``."""
    if not isinstance(token, str) or token.count(".") != 1:
        return None
    payload_segment, signature = token.split(".", 1)
    try:
        expected = _signature(payload_segment)
    except (UnicodeEncodeError, ValueError):
        return None
    if not hmac.compare_digest(expected, signature):
        return None
    try:
        payload = json.loads(_b64decode(payload_segment))
    except (ValueError, TypeError):
        return None
    if not isinstance(payload, dict):
        return None
    exp = payload.get("exp")
    if not isinstance(exp, int) or exp < time.time():
        return None
    user_id = payload.get("uid")
    if not isinstance(user_id, str) or not user_id:
        return None
    return {"user_id": user_id, "username": payload.get("usr")}


def _extract_bearer(request: Request) -> Optional[str]:
    """Return the raw token from the Authorization header, '' if malformed, None if absent."""
    header = request.headers.get("Authorization")
    if header is None or not header.strip():
        return None
    parts = header.strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
        return ""
    return parts[1].strip()


def _auth_exception(error: str, error_code: str) -> HTTPException:
    return HTTPException(
        status_code=401,
        detail={"success": False, "error": error, "error_code": error_code},
        headers={"WWW-Authenticate": "Bearer"},
    )


# ---------------------------------------------------------------------------
# Dependencies
# ---------------------------------------------------------------------------


def get_current_user(request: Request) -> Dict[str, Any]:
    """FastAPI dependency requiring a valid Bearer token.

    Returns ``{"user_id": str, "username": str}``.
    """
    token = _extract_bearer(request)
    if token is None:
        raise _auth_exception("Authentication required", "AUTH_REQUIRED")
    user = verify_token(token) if token else None
    if user is None:
        raise _auth_exception("Invalid or expired token", "AUTH_INVALID")
    return user


def get_optional_user(request: Request) -> Optional[Dict[str, Any]]:
    """FastAPI dependency returning the authenticated user or ``None``."""
    token = _extract_bearer(request)
    if not token:
        return None
    return verify_token(token)


# ---------------------------------------------------------------------------
# Endpoints
# ---------------------------------------------------------------------------


async def _json_body(request: Request) -> Optional[Dict[str, Any]]:
    try:
        body = await request.json()
    except Exception:
        return None
    return body if isinstance(body, dict) else None


@router.post("/register")
async def register(request: Request):
    body = await _json_body(request)
    if body is None:
        return error_response(400, "Request body must be a JSON object", "INVALID_REQUEST")

    username = body.get("username")
    password = body.get("password")
    email = body.get("email")

    missing = [name for name, value in (("username", username), ("password", password), ("email", email))
               if value is None or (isinstance(value, str) and not value.strip())]
    if missing:
        return error_response(400, "Missing required fields", "INVALID_REQUEST", ", ".join(missing))
    if not isinstance(username, str) or not isinstance(password, str) or not isinstance(email, str):
        return error_response(400, "username, password and email must be strings", "INVALID_REQUEST")

    username = username.strip()
    email = email.strip()
    if not _USERNAME_RE.match(username):
        return error_response(
            400, "Invalid username", "INVALID_REQUEST",
            "Username must be 3-64 characters of letters, digits, '_', '.', '-' or '@'",
        )
    if not (_MIN_PASSWORD_LENGTH <= len(password) <= _MAX_PASSWORD_LENGTH):
        return error_response(
            400, "Invalid password", "INVALID_REQUEST",
            "Password must be {}-{} characters".format(_MIN_PASSWORD_LENGTH, _MAX_PASSWORD_LENGTH),
        )
    if len(email) > 254 or not _EMAIL_RE.match(email):
        return error_response(400, "Invalid email address", "INVALID_REQUEST")

    if db.get_user_by_username(username) is not None:
        return error_response(409, "Username already exists", "USER_EXISTS")

    try:
        user_id = db.create_user(username, hash_password(password), email)
    except Exception:
        if db.get_user_by_username(username) is not None:
            return error_response(409, "Username already exists", "USER_EXISTS")
        raise

    return JSONResponse(
        status_code=201,
        content={"success": True, "message": "User registered successfully", "user_id": str(user_id)},
    )


@router.post("/login")
async def login(request: Request):
    body = await _json_body(request)
    if body is None:
        return error_response(400, "Request body must be a JSON object", "INVALID_REQUEST")

    username = body.get("username")
    password = body.get("password")
    if not isinstance(username, str) or not username.strip() or not isinstance(password, str) or not password:
        return error_response(400, "username and password are required", "INVALID_REQUEST")

    user = db.get_user_by_username(username.strip())
    if user is None or not verify_password(password, user["password_hash"]):
        return error_response(401, "Invalid username or password", "AUTH_INVALID")

    user_id = str(user["user_id"])
    token = create_token(user_id, username.strip())
    return {
        "success": True,
        "token": token,
        "user_id": user_id,
        "expires_in": TOKEN_EXPIRES_IN,
    }
