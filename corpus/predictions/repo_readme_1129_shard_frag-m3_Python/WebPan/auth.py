"""Authentication for WebPan.

* password hashing / verification (salted PBKDF2-SHA256, standard library)
* access-token issuing and lookup (HMAC-signed, self-verifying tokens that
  carry the user id and expiry)
* ``require_auth``: decorator demanding ``Authorization: Bearer <token>``
* ``require_auth_or_share``: decorator accepting either a valid bearer token
  or a share token (share id / signed share token) for downloads

All failures answer with the unified error format::

    {"success": false, "error": "...", "error_code": "...", "details": "..."}
"""

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from datetime import datetime, timezone
from functools import wraps

from flask import g, jsonify, request

try:  # the storage module; used only for optional share/user lookups
    import db as _db
except Exception:  # pragma: no cover - auth still works without db helpers
    _db = None


SECRET_KEY = (
    os.environ.get("WEBPAN_SECRET_KEY")
    or os.environ.get("SECRET_KEY")
    or secrets.token_hex(32)
)

try:
    TOKEN_EXPIRES_IN = int(os.environ.get("WEBPAN_TOKEN_EXPIRES_IN", "3600"))
except ValueError:
    TOKEN_EXPIRES_IN = 3600
TOKEN_TTL = TOKEN_EXPIRES_IN
EXPIRES_IN = TOKEN_EXPIRES_IN

PBKDF2_ITERATIONS = 100_000
_HASH_PREFIX = "pbkdf2_sha256"
_ACCESS_KIND = "access"
_SHARE_KIND = "share"

SHARE_QUERY_PARAMS = ("share_token", "share_id", "share", "token")
SHARE_HEADER = "X-Share-Token"
SHARE_PASSWORD_HEADER = "X-Share-Password"


# ---------------------------------------------------------------------------
# Error helper
# ---------------------------------------------------------------------------

def error_response(message, error_code, status, details=None):
    body = {"success": False, "error": message, "error_code": error_code}
    if details is not None:
        body["details"] = details
    response = jsonify(body)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="webpan"'
    return response


# ---------------------------------------------------------------------------
# Passwords
# ---------------------------------------------------------------------------

def hash_password(password):
    """Return a salted hash string for *password*."""
    if not isinstance(password, str):
        raise TypeError("password must be a string")
    salt = secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"),
                                 salt.encode("utf-8"), PBKDF2_ITERATIONS)
    return "{}${}${}${}".format(_HASH_PREFIX, PBKDF2_ITERATIONS, salt, digest.hex())


def verify_password(password, password_hash):
    """True when *password* matches a hash made by :func:`hash_password`."""
    if not isinstance(password, str) or not isinstance(password_hash, str):
        return False
    try:
        prefix, iterations, salt, expected = password_hash.split("$", 3)
        if prefix != _HASH_PREFIX:
            return False
        digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"),
                                     salt.encode("utf-8"), int(iterations))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(digest.hex(), expected)


check_password = verify_password


# ---------------------------------------------------------------------------
# Signed tokens
# ---------------------------------------------------------------------------

def _b64e(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64d(text):
    return base64.urlsafe_b64decode((text + "=" * (-len(text) % 4)).encode("ascii"))


def _signature(payload_segment):
    return _b64e(hmac.new(SECRET_KEY.encode("utf-8"),
                          payload_segment.encode("ascii"),
                          hashlib.sha256).digest())


def _encode(payload):
    segment = _b64e(json.dumps(payload, separators=(",", ":")).encode("utf-8"))
    return "{}.{}".format(segment, _signature(segment))


def _decode(token):
    """Return the payload of a well-signed token, or None."""
    if not isinstance(token, str) or token.count(".") != 1:
        return None
    segment, signature = token.split(".", 1)
    try:
        if not hmac.compare_digest(signature, _signature(segment)):
            return None
        payload = json.loads(_b64d(segment))
    except (ValueError, TypeError, UnicodeError):
        return None
    return payload if isinstance(payload, dict) else None


def issue_token(user_id, expires_in=None):
    """Issue an access token for *user_id* (valid ``TOKEN_EXPIRES_IN`` s)."""
    lifetime = int(expires_in) if expires_in else TOKEN_EXPIRES_IN
    payload = {
        "kind": _ACCESS_KIND,
        "uid": user_id,
        "exp": int(time.time()) + lifetime,
        "nonce": secrets.token_hex(8),
    }
    return _encode(payload)


def lookup_token(token):
    """Return the user id for a valid, unexpired access token, else None."""
    payload = _decode(token)
    if not payload or payload.get("kind") != _ACCESS_KIND:
        return None
    exp = payload.get("exp")
    if not isinstance(exp, (int, float)) or time.time() >= exp:
        return None
    return payload.get("uid")


# Aliases
create_token = issue_token
generate_token = issue_token
verify_token = lookup_token
get_user_id_from_token = lookup_token


def issue_share_token(file_id, share_id=None, expires_in=None):
    """Issue a signed token granting download access to *file_id*."""
    payload = {"kind": _SHARE_KIND, "fid": file_id, "sid": share_id,
               "nonce": secrets.token_hex(4)}
    if expires_in:
        payload["exp"] = int(time.time()) + int(expires_in)
    return _encode(payload)


# ---------------------------------------------------------------------------
# Request helpers
# ---------------------------------------------------------------------------

def get_bearer_token():
    """The bearer token from the Authorization header; None if absent,
    empty string if the header is present but malformed."""
    header = request.headers.get("Authorization", "")
    if not header or not header.strip():
        return None
    parts = header.strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
        return ""
    return parts[1].strip()


def _set_user(user_id):
    g.user_id = user_id
    g.current_user_id = user_id
    g.auth_type = "user"
    g.current_user = get_user(user_id) or {"user_id": user_id, "id": user_id}


def get_user(user_id):
    """Best-effort lookup of the user record through db (dict or None)."""
    finder = getattr(_db, "get_user_by_id", None) if _db is not None else None
    if not callable(finder):
        return None
    try:
        row = finder(user_id)
    except Exception:
        return None
    return _as_dict(row)


def _as_dict(row):
    if row is None:
        return None
    if isinstance(row, dict):
        return row
    try:
        return dict(row)  # sqlite3.Row and mappings
    except (TypeError, ValueError):
        return None


def require_auth(view):
    """Decorator: the request must carry a valid bearer access token.

    Sets ``g.user_id`` / ``g.current_user_id`` / ``g.current_user``.
    """

    @wraps(view)
    def wrapper(*args, **kwargs):
        token = get_bearer_token()
        if token is None:
            return error_response("Authentication required", "AUTH_REQUIRED", 401)
        user_id = lookup_token(token) if token else None
        if user_id is None:
            return error_response("Invalid or expired token", "AUTH_INVALID", 401)
        _set_user(user_id)
        return view(*args, **kwargs)

    return wrapper


# Aliases
token_required = require_auth
login_required = require_auth
auth_required = require_auth


# ---------------------------------------------------------------------------
# Share access
# ---------------------------------------------------------------------------

def _parse_time(value):
    """Epoch seconds for an ISO string / number / datetime, or None."""
    if value is None or value == "":
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, datetime):
        dt = value
    else:
        text = str(value).strip()
        try:
            return float(text)
        except ValueError:
            pass
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            dt = datetime.fromisoformat(text)
        except ValueError:
            return None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.timestamp()


def get_share_record(share_id):
    """Fetch a share link record from db as a dict (None if unknown)."""
    if _db is None or not share_id:
        return None
    for name in ("get_share", "get_share_link", "get_share_by_id"):
        finder = getattr(_db, name, None)
        if callable(finder):
            try:
                return _as_dict(finder(share_id))
            except Exception:
                return None
    return None


def share_password_ok(share, provided=None):
    """Check a provided share password against a share record."""
    stored = share.get("password_hash") or share.get("password")
    if not stored:
        return True
    if provided is None:
        provided = request.args.get("password") or request.headers.get(SHARE_PASSWORD_HEADER)
    if not provided:
        return False
    return verify_password(provided, stored) or hmac.compare_digest(
        str(provided).encode("utf-8"), str(stored).encode("utf-8"))


def check_share_access(token, file_id=None):
    """Validate a share token or share id for *file_id*.

    Returns ``(share_info, None)`` on success or ``(None, error_response)``.
    """
    # 1. A signed share token issued by issue_share_token().
    payload = _decode(token)
    if payload and payload.get("kind") == _SHARE_KIND:
        exp = payload.get("exp")
        if isinstance(exp, (int, float)) and time.time() >= exp:
            return None, error_response("Share link expired", "SHARE_EXPIRED", 410)
        if file_id is not None and str(payload.get("fid")) != str(file_id):
            return None, error_response("Share token does not grant access to this file",
                                        "AUTH_INVALID", 403)
        info = {"share_id": payload.get("sid"), "file_id": payload.get("fid")}
        if payload.get("sid"):
            record = get_share_record(payload.get("sid"))
            if record is None and _db is not None:
                return None, error_response("Share link not found", "SHARE_NOT_FOUND", 404)
            if record:
                info = record
        return info, None

    # 2. A share id stored in the database.
    share = get_share_record(token)
    if share is None:
        return None, error_response("Share link not found", "SHARE_NOT_FOUND", 404)
    if share.get("is_active") in (0, False) or share.get("deleted") in (1, True):
        return None, error_response("Share link not found", "SHARE_NOT_FOUND", 404)
    expires_at = _parse_time(share.get("expires_at"))
    if expires_at is not None and time.time() >= expires_at:
        return None, error_response("Share link expired", "SHARE_EXPIRED", 410)
    if file_id is not None and share.get("file_id") is not None \
            and str(share.get("file_id")) != str(file_id):
        return None, error_response("Share link does not grant access to this file",
                                    "AUTH_INVALID", 403)
    if not share_password_ok(share):
        return None, error_response("Share password required or incorrect",
                                    "AUTH_INVALID", 403)
    return share, None


def get_share_token():
    """The share token supplied with the request (query or header), or None."""
    for name in SHARE_QUERY_PARAMS:
        value = request.args.get(name)
        if value:
            return value.strip()
    value = request.headers.get(SHARE_HEADER)
    return value.strip() if value else None


def require_auth_or_share(view):
    """Decorator: accept a valid bearer token *or* a share token.

    With a bearer token sets the same ``g`` fields as :func:`require_auth`
    (``g.auth_type = "user"``); with a share token sets ``g.auth_type =
    "share"``, ``g.share`` and ``g.share_id`` and leaves ``g.user_id`` None.
    """

    @wraps(view)
    def wrapper(*args, **kwargs):
        file_id = kwargs.get("file_id")
        bearer = get_bearer_token()
        if bearer:
            user_id = lookup_token(bearer)
            if user_id is not None:
                _set_user(user_id)
                return view(*args, **kwargs)

        share_token = get_share_token()
        if not share_token and bearer:
            # Allow the share token to be sent as the bearer credential too.
            payload = _decode(bearer)
            if (payload and payload.get("kind") == _SHARE_KIND) or get_share_record(bearer):
                share_token = bearer

        if share_token:
            share, error = check_share_access(share_token, file_id)
            if error is not None:
                return error
            g.user_id = None
            g.current_user_id = None
            g.current_user = None
            g.auth_type = "share"
            g.share = share
            g.share_id = share.get("share_id") or share.get("id") or share_token
            return view(*args, **kwargs)

        if bearer is None:
            return error_response("Authentication required", "AUTH_REQUIRED", 401)
        return error_response("Invalid or expired token", "AUTH_INVALID", 401)

    return wrapper


# Aliases
auth_or_share_required = require_auth_or_share
require_auth_or_share_token = require_auth_or_share
token_or_share_required = require_auth_or_share
