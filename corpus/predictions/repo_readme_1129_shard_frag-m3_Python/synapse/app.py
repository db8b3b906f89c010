"""Synapse Message Service (benchmark version).

Serves ``GET /health``, ``POST /register``, ``POST /login`` and the room
message endpoints ``POST/GET /rooms/<room_id>/messages``.  Listens on port
8080 unless overridden by the ``PORT`` (or ``SYNAPSE_PORT``) environment
variable.

State lives in ``store.py`` (thread-safe in-memory users, tokens and
messages), password hashing and tokens in ``auth.py`` and strict request
checks in ``validation.py``.  Errors are JSON objects of the form
``{"errcode": "M_...", "error": "..."}``.
"""

import inspect
import os
import re
import secrets
import threading
import time
from datetime import datetime, timezone
from functools import wraps

from flask import Flask, g, jsonify, request
from werkzeug.exceptions import HTTPException

import auth
import store as store_module
import validation

SERVICE_NAME = "synapse-benchmark"
SERVER_NAME = os.environ.get("SYNAPSE_SERVER_NAME", os.environ.get("SERVER_NAME",
                                                                   "example.org"))
DEFAULT_LIMIT = 20
MAX_LIMIT = 100

ROOM_ID_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")
USER_ID_RE = re.compile(r"^@[^:]+:[^:]+$")


class APIError(Exception):
    def __init__(self, status, errcode, message):
        super().__init__(message)
        self.status = status
        self.errcode = errcode
        self.message = message


def _find(obj, *names):
    for name in names:
        attr = getattr(obj, name, None)
        if callable(attr) and not inspect.isclass(attr):
            return attr
    return None


def _call(func, values, aliases=None):
    """Call ``func`` matching parameter names against ``values``."""
    aliases = aliases or {}
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return func(*values.values())
    kwargs, used = {}, set()
    has_var_kw = any(p.kind == p.VAR_KEYWORD for p in params)
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        key = p.name if p.name in values else aliases.get(p.name)
        if key is None or key in used:
            if p.default is not p.empty:
                continue
            free = [k for k in values if k not in used]
            if not free:
                continue
            key = free[0]
        used.add(key)
        kwargs[p.name] = values[key]
    if has_var_kw:
        for k, v in values.items():
            if k not in used:
                kwargs[k] = v
    positional_only = [p.name for p in params if p.kind == p.POSITIONAL_ONLY]
    args = [kwargs.pop(n) for n in positional_only if n in kwargs]
    return func(*args, **kwargs)


def _as_dict(value):
    if value is None or isinstance(value, (bool, str, int)):
        return None
    if isinstance(value, dict):
        return dict(value)
    return dict(vars(value))


# ---------------------------------------------------------------------------
# Store adapter
# ---------------------------------------------------------------------------

_CREATE_USER = ("create_user", "add_user", "register_user", "insert_user")


def _locate_store():
    for name in ("store", "STORE", "default_store", "memory_store", "db", "state"):
        cand = getattr(store_module, name, None)
        if cand is not None and not inspect.isclass(cand) and not inspect.ismodule(cand) \
                and _find(cand, *_CREATE_USER):
            return cand
    for name in ("Store", "InMemoryStore", "MemoryStore", "DataStore", "MessageStore"):
        cls = getattr(store_module, name, None)
        if inspect.isclass(cls):
            try:
                return cls()
            except TypeError:
                continue
    return store_module


STORE = _locate_store()
_st_create_user = _find(STORE, *_CREATE_USER)
_st_get_user = _find(STORE, "get_user", "get_user_by_username", "find_user",
                     "get_user_by_name")
_st_add_message = _find(STORE, "add_message", "append_message", "send_message",
                        "create_message", "store_message", "save_message",
                        "post_message", "insert_message")
_st_list_messages = _find(STORE, "list_messages", "get_messages", "messages_for_room",
                          "list_room_messages", "get_room_messages")


def store_get_user(username):
    if _st_get_user is None:
        return None
    try:
        return _st_get_user(username)
    except KeyError:
        return None


def store_create_user(username, user_id, password_hash, display_name):
    return _call(_st_create_user,
                 {"username": username, "password_hash": password_hash,
                  "display_name": display_name, "user_id": user_id},
                 {"hashed_password": "password_hash", "password": "password_hash",
                  "pw_hash": "password_hash", "displayname": "display_name",
                  "name": "display_name", "mxid": "user_id"})


# ---------------------------------------------------------------------------
# Auth adapter
# ---------------------------------------------------------------------------

_hash_password = _find(auth, "hash_password", "make_password_hash")
_verify_password = _find(auth, "verify_password", "check_password", "password_matches")
_issue_token = _find(auth, "issue_token", "create_token", "generate_token",
                     "create_access_token", "new_token", "login_token")
_lookup_token = _find(auth, "get_user_for_token", "get_user_from_token",
                      "user_for_token", "verify_token", "validate_token",
                      "lookup_token", "resolve_token", "authenticate_token",
                      "check_token", "get_token_user")
TOKEN_TTL = 3600
for _n in ("TOKEN_TTL", "TOKEN_TTL_SECONDS", "TOKEN_EXPIRES_IN", "EXPIRES_IN",
           "TOKEN_EXPIRY_SECONDS", "TOKEN_LIFETIME", "ACCESS_TOKEN_TTL"):
    _v = getattr(auth, _n, None)
    if isinstance(_v, (int, float)) and not isinstance(_v, bool):
        TOKEN_TTL = int(_v)
        break

# Use auth.py's tokens only when it exposes both issuing and lookup.
_USE_AUTH_TOKENS = _issue_token is not None and _lookup_token is not None

# Tokens issued locally when auth.py does not expose a usable token API.
_local_tokens = {}
_local_lock = threading.Lock()


def _password_hash(user):
    rec = _as_dict(user) or {}
    for key in ("password_hash", "hashed_password", "pw_hash", "password"):
        if rec.get(key):
            return rec[key]
    return None


def _user_id_of(user, username=None):
    rec = _as_dict(user) or {}
    uid = rec.get("user_id") or rec.get("id") or rec.get("mxid")
    if isinstance(uid, str) and USER_ID_RE.match(uid):
        return uid
    return f"@{username or rec.get('username')}:{SERVER_NAME}"


def hash_password(password):
    if _hash_password is not None:
        return _hash_password(password)
    from werkzeug.security import generate_password_hash
    return generate_password_hash(password)


def verify_password(password, stored):
    if not stored:
        return False
    if _verify_password is None:
        from werkzeug.security import check_password_hash
        return check_password_hash(stored, password)
    try:
        return bool(_call(_verify_password, {"password": password, "stored": stored},
                          {"plain": "password", "plain_password": "password",
                           "raw": "password", "candidate": "password",
                           "password_hash": "stored", "hashed": "stored",
                           "hashed_password": "stored", "stored_hash": "stored",
                           "pw_hash": "stored", "hash": "stored", "encoded": "stored"}))
    except Exception:
        return False


def issue_token(user_id, username):
    """Return ``(token, expires_in)`` for a freshly logged-in user."""
    if not _USE_AUTH_TOKENS:
        token = "syt_" + secrets.token_urlsafe(32)
        with _local_lock:
            _local_tokens[token] = (user_id, time.time() + TOKEN_TTL)
        return token, TOKEN_TTL
    result = _call(_issue_token, {"user_id": user_id, "username": username},
                   {"sender": "user_id", "mxid": "user_id", "uid": "user_id",
                    "user": "user_id"})
    expires_in = TOKEN_TTL
    token = result
    if isinstance(result, tuple):
        token = result[0]
        ints = [x for x in result[1:] if isinstance(x, (int, float))
                and not isinstance(x, bool)]
        if ints:
            val = int(ints[0])
            # A large value is an absolute expiry timestamp, not a TTL.
            expires_in = val - int(time.time()) if val > 10 ** 9 else val
    elif isinstance(result, dict):
        token = result.get("access_token") or result.get("token")
        expires_in = int(result.get("expires_in", expires_in))
    return str(token), max(int(expires_in), 60)


def user_for_token(token):
    if not token:
        return None
    if not _USE_AUTH_TOKENS:
        with _local_lock:
            entry = _local_tokens.get(token)
            if entry and entry[1] > time.time():
                return entry[0]
            if entry:
                _local_tokens.pop(token, None)
        return None
    try:
        result = _lookup_token(token)
    except Exception:
        return None
    if isinstance(result, tuple):
        result = next((r for r in result if r), None)
    if not result:
        return None
    if isinstance(result, str):
        return result if USER_ID_RE.match(result) else f"@{result}:{SERVER_NAME}"
    rec = _as_dict(result) or {}
    uid = rec.get("user_id") or rec.get("sender") or rec.get("id")
    if uid:
        return uid
    if rec.get("username"):
        return f"@{rec['username']}:{SERVER_NAME}"
    return None


def require_token(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        header = request.headers.get("Authorization", "")
        if not header:
            raise APIError(401, "M_MISSING_TOKEN", "Missing access token")
        parts = header.split(None, 1)
        if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
            raise APIError(401, "M_MISSING_TOKEN", "Invalid Authorization header")
        user_id = user_for_token(parts[1].strip())
        if user_id is None:
            raise APIError(401, "M_UNKNOWN_TOKEN", "Unrecognised or expired access token")
        g.user_id = user_id
        return view(*args, **kwargs)
    return wrapper


# ---------------------------------------------------------------------------
# Validation adapter
# ---------------------------------------------------------------------------

def _check_object(data, required, allowed):
    if not isinstance(data, dict):
        return "Request body must be a JSON object"
    extra = [k for k in data if k not in allowed]
    if extra:
        return f"Unknown field(s): {', '.join(sorted(extra))}"
    missing = [k for k in required if k not in data]
    if missing:
        return f"Missing required field(s): {', '.join(missing)}"
    return None


def _fallback_register(data):
    err = _check_object(data, ("username", "password"),
                        ("username", "password", "display_name"))
    if err:
        return err
    u, p = data["username"], data["password"]
    if not isinstance(u, str) or not 3 <= len(u) <= 64:
        return "username must be a string of 3 to 64 characters"
    if ":" in u or "@" in u or any(c.isspace() for c in u):
        return "username contains invalid characters"
    if not isinstance(p, str) or not 6 <= len(p) <= 128:
        return "password must be a string of 6 to 128 characters"
    if "display_name" in data:
        d = data["display_name"]
        if not isinstance(d, str) or not 1 <= len(d) <= 128:
            return "display_name must be a string of 1 to 128 characters"
    return None


def _fallback_login(data):
    err = _check_object(data, ("username", "password"), ("username", "password"))
    if err:
        return err
    if not isinstance(data["username"], str) or not isinstance(data["password"], str):
        return "username and password must be strings"
    return None


def _fallback_message(data):
    err = _check_object(data, ("type", "content"), ("type", "content"))
    if err:
        return err
    if data["type"] != "m.text":
        return "type must be 'm.text'"
    content = data["content"]
    err = _check_object(content, ("body",), ("body",))
    if err:
        return "content: " + err
    body = content["body"]
    if not isinstance(body, str) or not 1 <= len(body) <= 4000:
        return "content.body must be a string of 1 to 4000 characters"
    return None


_VALIDATORS = {
    "register": (_find(validation, "validate_register", "validate_register_body",
                       "validate_registration", "validate_register_request",
                       "validate_register_payload"), _fallback_register),
    "login": (_find(validation, "validate_login", "validate_login_body",
                    "validate_login_request", "validate_login_payload"),
              _fallback_login),
    "message": (_find(validation, "validate_message", "validate_send_message",
                      "validate_message_body", "validate_send_message_body",
                      "validate_send_body", "validate_send_message_payload",
                      "validate_message_payload"), _fallback_message),
}
_validate_room = _find(validation, "validate_room_id", "is_valid_room_id",
                       "check_room_id", "valid_room_id")
_validate_limit = _find(validation, "validate_limit", "parse_limit", "check_limit")


def _validation_problem(result, data):
    """Interpret a validator's return value; returns an error string or None."""
    if result is None or result is True:
        return None
    if result is False:
        return "Invalid request body"
    if isinstance(result, tuple):
        if result and isinstance(result[0], bool):
            if result[0]:
                return None
            return str(result[1]) if len(result) > 1 and result[1] else \
                "Invalid request body"
        if len(result) >= 2 and result[1] and isinstance(result[1], (str, list, dict)):
            return _validation_problem(result[1], data)
        return None
    if isinstance(result, dict):
        if not result:
            return None
        if isinstance(data, dict) and any(k in result and result[k] == data.get(k)
                                          for k in data):
            return None  # validator returned the cleaned body
        return "; ".join(f"{k}: {v}" for k, v in result.items())
    if isinstance(result, (list, set)):
        return "; ".join(str(x) for x in result) if result else None
    if isinstance(result, str):
        return result or None
    return None


def validate(kind, data):
    func, fallback = _VALIDATORS[kind]
    if func is None:
        problem = fallback(data)
    else:
        try:
            problem = _validation_problem(func(data), data)
        except (ValueError, TypeError, KeyError) as exc:
            problem = str(exc) or "Invalid request body"
        except Exception as exc:
            if "valid" in type(exc).__name__.lower():
                problem = str(exc) or "Invalid request body"
            else:
                raise
    if problem:
        raise APIError(400, "M_BAD_JSON", problem)


def check_room_id(room_id):
    ok = bool(ROOM_ID_RE.match(room_id or ""))
    if _validate_room is not None:
        try:
            res = _validate_room(room_id)
            if res is False or (isinstance(res, str) and res and res != room_id
                                and not ROOM_ID_RE.match(res)):
                ok = False
        except (ValueError, TypeError, KeyError):
            ok = False
        except Exception as exc:
            if "valid" in type(exc).__name__.lower():
                ok = False
            else:
                raise
    if not ok:
        raise APIError(400, "M_INVALID_PARAM", "Invalid room id")


def parse_limit(raw):
    def own():
        if raw is None:
            return DEFAULT_LIMIT
        text = raw.strip()
        if not re.fullmatch(r"[+-]?\d+", text):
            raise APIError(400, "M_INVALID_PARAM", "limit must be an integer")
        value = int(text)
        if not 1 <= value <= MAX_LIMIT:
            raise APIError(400, "M_INVALID_PARAM",
                           f"limit must be between 1 and {MAX_LIMIT}")
        return value

    value = own()
    if _validate_limit is not None:
        try:
            res = _validate_limit(raw)
        except (ValueError, TypeError, KeyError) as exc:
            raise APIError(400, "M_INVALID_PARAM", str(exc) or "Invalid limit")
        except Exception as exc:
            if "valid" in type(exc).__name__.lower():
                raise APIError(400, "M_INVALID_PARAM", str(exc) or "Invalid limit")
            raise
        if isinstance(res, int) and not isinstance(res, bool):
            value = res
    return value


# ---------------------------------------------------------------------------
# Message helpers
# ---------------------------------------------------------------------------

def _event(rec, room_id):
    rec = _as_dict(rec) or {}
    content = rec.get("content")
    if not isinstance(content, dict):
        content = {"body": rec.get("body", "")}
    return {
        "event_id": rec.get("event_id") or rec.get("id"),
        "sender": rec.get("sender") or rec.get("user_id"),
        "type": rec.get("type", "m.text"),
        "content": {"body": content.get("body", "")},
        "ts": int(rec.get("ts", rec.get("timestamp", 0)) or 0),
    }


def _error_json(status, errcode, message):
    return jsonify({"errcode": errcode, "error": message}), status


def _json_body():
    if not request.data:
        raise APIError(400, "M_NOT_JSON", "Request body must be JSON")
    data = request.get_json(silent=True)
    if data is None:
        raise APIError(400, "M_NOT_JSON", "Request body must be valid JSON")
    return data


# ---------------------------------------------------------------------------
# Application
# ---------------------------------------------------------------------------

def create_app():
    app = Flask(__name__)
    app.config["JSON_SORT_KEYS"] = False

    @app.errorhandler(APIError)
    def _api_error(exc):
        return _error_json(exc.status, exc.errcode, exc.message)

    @app.errorhandler(HTTPException)
    def _http_error(exc):
        codes = {404: "M_NOT_FOUND", 405: "M_UNRECOGNIZED", 400: "M_BAD_JSON",
                 413: "M_TOO_LARGE"}
        return _error_json(exc.code or 500, codes.get(exc.code, "M_UNKNOWN"),
                           exc.description or exc.name)

    @app.errorhandler(Exception)
    def _unexpected(exc):
        return _error_json(500, "M_UNKNOWN", "Internal server error")

    @app.route("/health", methods=["GET"])
    def health():
        now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        return jsonify({"status": "ok", "service": SERVICE_NAME, "time": now}), 200

    @app.route("/register", methods=["POST"])
    def register():
        data = _json_body()
        validate("register", data)
        username = data["username"]
        user_id = f"@{username}:{SERVER_NAME}"
        if store_get_user(username) is not None:
            raise APIError(409, "M_USER_IN_USE", "User ID already taken")
        try:
            result = store_create_user(username, user_id,
                                       hash_password(data["password"]),
                                       data.get("display_name"))
        except (ValueError, KeyError) as exc:
            raise APIError(409, "M_USER_IN_USE", str(exc) or "User ID already taken")
        if result is False or result is None and store_get_user(username) is None:
            raise APIError(409, "M_USER_IN_USE", "User ID already taken")
        if isinstance(result, str) and USER_ID_RE.match(result):
            user_id = result
        elif result not in (None, True):
            user_id = _user_id_of(result, username)
        return jsonify({"user_id": user_id}), 200

    @app.route("/login", methods=["POST"])
    def login():
        data = _json_body()
        validate("login", data)
        username = data["username"]
        user = store_get_user(username)
        if user is None or not verify_password(data["password"], _password_hash(user)):
            raise APIError(401, "M_FORBIDDEN", "Invalid username or password")
        token, expires_in = issue_token(_user_id_of(user, username), username)
        return jsonify({"access_token": token, "token_type": "Bearer",
                        "expires_in": expires_in}), 200

    @app.route("/rooms/<room_id>/messages", methods=["POST"])
    @require_token
    def send_message(room_id):
        check_room_id(room_id)
        data = _json_body()
        validate("message", data)
        ts = int(time.time() * 1000)
        result = _call(_st_add_message,
                       {"room_id": room_id, "sender": g.user_id, "type": data["type"],
                        "content": {"body": data["content"]["body"]}, "ts": ts},
                       {"user_id": "sender", "msg_type": "type",
                        "event_type": "type", "message_type": "type",
                        "timestamp": "ts", "room": "room_id"})
        if isinstance(result, str):
            event_id = result
        else:
            rec = _as_dict(result[0] if isinstance(result, tuple) else result) or {}
            event_id = rec.get("event_id") or rec.get("id")
            ts = int(rec.get("ts", rec.get("timestamp", ts)) or ts)
        return jsonify({"event_id": event_id, "room_id": room_id, "ts": ts}), 200

    @app.route("/rooms/<room_id>/messages", methods=["GET"])
    @require_token
    def list_messages(room_id):
        check_room_id(room_id)
        limit = parse_limit(request.args.get("limit"))
        cursor = request.args.get("cursor", request.args.get("from"))
        if cursor is not None and cursor == "":
            cursor = None
        try:
            result = _call(_st_list_messages,
                           {"room_id": room_id, "limit": limit, "cursor": cursor},
                           {"room": "room_id", "from_token": "cursor",
                            "since": "cursor", "before": "cursor", "start": "cursor",
                            "from_": "cursor", "after": "cursor"})
        except (ValueError, KeyError, TypeError) as exc:
            if cursor is not None:
                raise APIError(400, "M_INVALID_PARAM", "Invalid cursor")
            raise
        next_cursor = None
        if isinstance(result, tuple):
            messages = result[0]
            next_cursor = result[1] if len(result) > 1 else None
        elif isinstance(result, dict):
            messages = result.get("messages") or result.get("events") or []
            next_cursor = result.get("next_cursor", result.get("end"))
        else:
            messages = result or []
        if next_cursor is not None:
            next_cursor = str(next_cursor)
        return jsonify({"room_id": room_id,
                        "messages": [_event(m, room_id) for m in messages][:limit],
                        "next_cursor": next_cursor}), 200

    return app


app = create_app()


if __name__ == "__main__":
    port = int(os.environ.get("PORT", os.environ.get("SYNAPSE_PORT", "8080")))
    app.run(host="0.0.0.0", port=port, threaded=True)
