"""Authentication for the Synapse benchmark service.

* password hashing / verification (salted PBKDF2-SHA256)
* access-token issuing with expiry (opaque random tokens kept in a
  thread-safe in-process registry)
* ``require_auth``: decorator enforcing ``Authorization: Bearer <token>`` and
  exposing the caller's user id as ``g.user_id``

Errors use Matrix-style bodies: ``{"errcode": "M_...", "error": "..."}``.
"""

import hashlib
import hmac
import os
import secrets
import threading
import time
from functools import wraps

from flask import g, jsonify, request

try:
    TOKEN_TTL_SECONDS = max(60, int(os.environ.get("TOKEN_TTL_SECONDS", "3600")))
except ValueError:
    TOKEN_TTL_SECONDS = 3600
# Aliases for the token lifetime.
TOKEN_EXPIRES_IN = TOKEN_TTL_SECONDS
EXPIRES_IN = TOKEN_TTL_SECONDS
TOKEN_TYPE = "Bearer"

PBKDF2_ITERATIONS = 100_000
_HASH_PREFIX = "pbkdf2_sha256"


# ---------------------------------------------------------------------------
# Passwords
# ---------------------------------------------------------------------------

def hash_password(password):
    """Return a salted PBKDF2 hash string for *password*."""
    if not isinstance(password, str):
        raise TypeError("password must be a string")
    salt = secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"),
                                 salt.encode("utf-8"), PBKDF2_ITERATIONS)
    return "{}${}${}${}".format(_HASH_PREFIX, PBKDF2_ITERATIONS, salt, digest.hex())


def verify_password(password, password_hash):
    """True if *password* matches *password_hash* (constant-time compare)."""
    if not isinstance(password, str) or not isinstance(password_hash, str):
        return False
    try:
        prefix, iterations, salt, expected = password_hash.split("$", 3)
        if prefix != _HASH_PREFIX:
            return False
        digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"),
                                     salt.encode("utf-8"), int(iterations))
        return hmac.compare_digest(digest.hex().encode("ascii"),
                                   expected.encode("utf-8"))
    except (ValueError, TypeError):
        return False


check_password = verify_password


# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------

_tokens = {}  # token -> (user_id, expires_at)
_tokens_lock = threading.Lock()


def _purge_expired(now):
    expired = [t for t, (_, exp) in _tokens.items() if exp <= now]
    for token in expired:
        del _tokens[token]


def issue_token(user_id, ttl=None):
    """Create an access token for *user_id*; returns the token string.

    The token expires after ``ttl`` seconds (default ``TOKEN_TTL_SECONDS``).
    """
    lifetime = int(ttl) if ttl else TOKEN_TTL_SECONDS
    token = "syt_" + secrets.token_urlsafe(32)
    now = time.time()
    with _tokens_lock:
        _purge_expired(now)
        _tokens[token] = (user_id, now + lifetime)
    return token


def issue_login_response(user_id):
    """Body for a successful /login response."""
    return {
        "access_token": issue_token(user_id),
        "token_type": TOKEN_TYPE,
        "expires_in": TOKEN_TTL_SECONDS,
    }


def resolve_token(token):
    """Return the user id for a valid unexpired *token*, else None."""
    if not isinstance(token, str) or not token:
        return None
    now = time.time()
    with _tokens_lock:
        entry = _tokens.get(token)
        if entry is None:
            return None
        user_id, expires_at = entry
        if expires_at <= now:
            del _tokens[token]
            return None
        return user_id


def revoke_token(token):
    """Invalidate *token*; returns True if it existed."""
    with _tokens_lock:
        return _tokens.pop(token, None) is not None


def clear_tokens():
    """Drop all tokens (useful for tests)."""
    with _tokens_lock:
        _tokens.clear()


# Aliases
create_token = issue_token
generate_token = issue_token
get_user_for_token = resolve_token
validate_token = resolve_token
lookup_token = resolve_token


# ---------------------------------------------------------------------------
# Bearer-token requirement
# ---------------------------------------------------------------------------

def _error(errcode, message, status=401):
    response = jsonify({"errcode": errcode, "error": message})
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="synapse-benchmark"'
    return response


def extract_bearer_token():
    """Token from the Authorization header; None if absent, "" if malformed."""
    header = request.headers.get("Authorization")
    if header is None or not header.strip():
        return None
    parts = header.strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
        return ""
    return parts[1].strip()


def require_auth(view):
    """Decorator enforcing a valid bearer token; sets ``g.user_id``."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        token = extract_bearer_token()
        if token is None:
            return _error("M_MISSING_TOKEN", "Missing access token")
        user_id = resolve_token(token) if token else None
        if user_id is None:
            return _error("M_UNKNOWN_TOKEN", "Unknown or expired access token")
        g.user_id = user_id
        g.current_user = user_id
        g.access_token = token
        return view(*args, **kwargs)

    return wrapper


# Aliases
token_required = require_auth
auth_required = require_auth
login_required = require_auth
