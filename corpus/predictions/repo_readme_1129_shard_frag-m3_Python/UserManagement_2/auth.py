"""Authentication helpers: password hashing, JWT (HS256) issuing/verification
and the bearer-token requirement for protected endpoints.

The JWT implementation is self-contained (HMAC-SHA256 via the standard
library) so no extra dependency is required.

Configuration (environment variables):
    JWT_SECRET_KEY / SECRET_KEY   signing secret (random per process if unset)
    JWT_EXPIRES_IN                access token lifetime in seconds (default 3600)
"""

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from functools import wraps

from flask import g, jsonify, request

# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------

JWT_ALGORITHM = "HS256"
JWT_SECRET_KEY = (
    os.environ.get("JWT_SECRET_KEY")
    or os.environ.get("SECRET_KEY")
    or secrets.token_hex(32)
)


def _int_env(name, default):
    try:
        value = int(os.environ.get(name, default))
        return value if value > 0 else default
    except (TypeError, ValueError):
        return default


ACCESS_TOKEN_EXPIRES_IN = _int_env("JWT_EXPIRES_IN", 3600)
# Aliases for the token lifetime.
JWT_EXPIRES_IN = ACCESS_TOKEN_EXPIRES_IN
TOKEN_EXPIRES_IN = ACCESS_TOKEN_EXPIRES_IN
TOKEN_TYPE = "Bearer"

PBKDF2_ITERATIONS = 100_000
_HASH_PREFIX = "pbkdf2_sha256"


# ---------------------------------------------------------------------------
# Password hashing
# ---------------------------------------------------------------------------

def hash_password(password):
    """Return a salted PBKDF2-SHA256 hash string for *password*."""
    if not isinstance(password, str):
        raise TypeError("password must be a string")
    salt = secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac(
        "sha256", password.encode("utf-8"), salt.encode("utf-8"), PBKDF2_ITERATIONS
    )
    return "{}${}${}${}".format(_HASH_PREFIX, PBKDF2_ITERATIONS, salt, digest.hex())


def verify_password(password, password_hash):
    """Check *password* against a hash produced by :func:`hash_password`."""
    if not isinstance(password, str) or not isinstance(password_hash, str):
        return False
    try:
        prefix, iterations, salt, expected = password_hash.split("$", 3)
        if prefix != _HASH_PREFIX:
            return False
        digest = hashlib.pbkdf2_hmac(
            "sha256", password.encode("utf-8"), salt.encode("utf-8"), int(iterations)
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(digest.hex(), expected)


# Aliases
check_password = verify_password


# ---------------------------------------------------------------------------
# JWT
# ---------------------------------------------------------------------------

class TokenError(Exception):
    """Raised when a token is malformed, has a bad signature or expired."""

    def __init__(self, message, error_code="INVALID_TOKEN"):
        super().__init__(message)
        self.message = message
        self.error_code = error_code


class TokenExpiredError(TokenError):
    def __init__(self, message="Token has expired"):
        super().__init__(message, "TOKEN_EXPIRED")


def _b64url_encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64url_decode(segment):
    padding = "=" * (-len(segment) % 4)
    return base64.urlsafe_b64decode((segment + padding).encode("ascii"))


def _sign(signing_input):
    return hmac.new(
        JWT_SECRET_KEY.encode("utf-8"), signing_input, hashlib.sha256
    ).digest()


def create_access_token(user_id, username=None, expires_in=None):
    """Issue a signed HS256 JWT for *user_id*; returns the token string."""
    lifetime = int(expires_in) if expires_in else ACCESS_TOKEN_EXPIRES_IN
    now = int(time.time())
    payload = {
        "sub": str(user_id),
        "user_id": user_id,
        "iat": now,
        "exp": now + lifetime,
        "jti": secrets.token_hex(8),
        "type": "access",
    }
    if username is not None:
        payload["username"] = username

    header = {"alg": JWT_ALGORITHM, "typ": "JWT"}
    header_seg = _b64url_encode(json.dumps(header, separators=(",", ":")).encode("utf-8"))
    payload_seg = _b64url_encode(json.dumps(payload, separators=(",", ":")).encode("utf-8"))
    signing_input = "{}.{}".format(header_seg, payload_seg).encode("ascii")
    signature_seg = _b64url_encode(_sign(signing_input))
    return "{}.{}.{}".format(header_seg, payload_seg, signature_seg)


def decode_access_token(token):
    """Verify *token* and return its payload; raises :class:`TokenError`."""
    if not isinstance(token, str) or not token:
        raise TokenError("Token is missing")
    parts = token.split(".")
    if len(parts) != 3:
        raise TokenError("Invalid token format")
    header_seg, payload_seg, signature_seg = parts
    try:
        header = json.loads(_b64url_decode(header_seg))
        payload = json.loads(_b64url_decode(payload_seg))
        signature = _b64url_decode(signature_seg)
    except (ValueError, TypeError, UnicodeDecodeError):
        raise TokenError("Invalid token encoding")

    if not isinstance(header, dict) or header.get("alg") != JWT_ALGORITHM:
        raise TokenError("Unsupported token algorithm")
    expected = _sign("{}.{}".format(header_seg, payload_seg).encode("ascii"))
    if not hmac.compare_digest(signature, expected):
        raise TokenError("Invalid token signature")
    if not isinstance(payload, dict):
        raise TokenError("Invalid token payload")

    exp = payload.get("exp")
    if not isinstance(exp, (int, float)):
        raise TokenError("Token has no expiry")
    if time.time() >= exp:
        raise TokenExpiredError()

    user_id = payload.get("user_id", payload.get("sub"))
    try:
        payload["user_id"] = int(user_id)
    except (TypeError, ValueError):
        raise TokenError("Invalid token subject")
    return payload


def get_user_id_from_token(token):
    """Return the user id in a valid token, or ``None`` when invalid."""
    try:
        return decode_access_token(token)["user_id"]
    except TokenError:
        return None


# Aliases
generate_token = create_access_token
create_token = create_access_token
verify_token = decode_access_token
decode_token = decode_access_token


# ---------------------------------------------------------------------------
# Bearer-token requirement
# ---------------------------------------------------------------------------

def _auth_error(message, error_code, status=401):
    response = jsonify({"success": False, "message": message, "error_code": error_code})
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def get_bearer_token():
    """Extract the bearer token from the Authorization header (or None)."""
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    parts = header.strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
        return ""
    return parts[1].strip()


def token_required(view):
    """Decorator enforcing a valid ``Authorization: Bearer <JWT>`` header.

    On success sets ``g.current_user_id`` (int), ``g.user_id`` and
    ``g.token_payload`` before calling the view.
    """

    @wraps(view)
    def wrapper(*args, **kwargs):
        token = get_bearer_token()
        if token is None:
            return _auth_error("Authorization token is missing", "UNAUTHORIZED")
        if token == "":
            return _auth_error(
                "Authorization header must be 'Bearer <token>'", "INVALID_TOKEN"
            )
        try:
            payload = decode_access_token(token)
        except TokenError as exc:
            return _auth_error(exc.message, exc.error_code)

        g.current_user_id = payload["user_id"]
        g.user_id = payload["user_id"]
        g.token_payload = payload
        g.current_user = payload
        return view(*args, **kwargs)

    return wrapper


# Aliases
require_auth = token_required
jwt_required = token_required
login_required = token_required
auth_required = token_required
