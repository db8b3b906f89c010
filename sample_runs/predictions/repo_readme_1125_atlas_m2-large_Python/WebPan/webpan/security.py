"""Password hashing, access tokens, signed share-access tokens and auth helpers."""
import base64
import functools
import hashlib
import hmac
import secrets
import sqlite3
import time
from typing import Callable, Optional

from flask import current_app, g, request

from .db import get_db
from .errors import AUTH_INVALID, AUTH_REQUIRED, APIError

_ITERATIONS = 120_000


# ------------------------------------------------------------------ passwords
def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, _ITERATIONS)
    return f"pbkdf2_sha256${_ITERATIONS}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def verify_password(password: str, encoded: Optional[str]) -> bool:
    if not encoded:
        return False
    try:
        scheme, iterations, salt, digest = encoded.split("$")
        if scheme != "pbkdf2_sha256":
            return False
        actual = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"),
                                     base64.b64decode(salt), int(iterations))
        return hmac.compare_digest(actual, base64.b64decode(digest))
    except (ValueError, TypeError):
        return False


# --------------------------------------------------------------- access tokens
def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_token(user_id: str) -> str:
    ttl = current_app.config["WEBPAN"].token_ttl
    token = secrets.token_urlsafe(32)
    now = time.time()
    db = get_db()
    db.execute("DELETE FROM tokens WHERE expires_at < ?", (now,))
    db.execute("INSERT INTO tokens (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
               (_token_hash(token), user_id, now, now + ttl))
    return token


def revoke_token(token: str) -> None:
    get_db().execute("DELETE FROM tokens WHERE token_hash = ?", (_token_hash(token),))


def bearer_token() -> Optional[str]:
    """Return the bearer token of the request, '' for a malformed header, None when absent."""
    header = request.headers.get("Authorization", "").strip()
    if not header:
        return None
    parts = header.split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return ""
    return parts[1]


def user_for_token(token: str) -> Optional[sqlite3.Row]:
    row = get_db().execute(
        "SELECT u.* FROM tokens t JOIN users u ON u.id = t.user_id"
        " WHERE t.token_hash = ? AND t.expires_at > ?",
        (_token_hash(token), time.time()),
    ).fetchone()
    return row


def optional_user() -> Optional[sqlite3.Row]:
    """The authenticated user, None without credentials; raises 401 for bad credentials."""
    if "user" in g:
        return g.user
    token = bearer_token()
    if token is None:
        g.user = None
        return None
    user = user_for_token(token) if token else None
    if user is None:
        raise APIError(401, AUTH_INVALID, "Invalid or expired access token")
    g.user = user
    return user


def current_user() -> sqlite3.Row:
    user = optional_user()
    if user is None:
        raise APIError(401, AUTH_REQUIRED, "Authentication required")
    return user


def login_required(view: Callable) -> Callable:
    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        current_user()
        return view(*args, **kwargs)
    return wrapper


# -------------------------------------------------------- share access tokens
def _sign(message: str) -> str:
    key = current_app.config["SECRET_KEY"].encode("utf-8")
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).hexdigest()[:32]


def make_share_access_token(share_id: str, ttl: int = 600) -> str:
    """A short-lived token proving that the share's password/login checks passed."""
    expires = int(time.time()) + ttl
    message = f"{share_id}.{expires}"
    return f"{message}.{_sign(message)}"


def parse_share_access_token(token: str) -> Optional[str]:
    """Return the share id of a valid signed token, otherwise None."""
    try:
        share_id, expires, signature = token.split(".")
        if int(expires) < time.time():
            return None
    except ValueError:
        return None
    if not hmac.compare_digest(signature, _sign(f"{share_id}.{expires}")):
        return None
    return share_id
