"""ProjectC - User Management Microservice (Flask).

Serves the ``/api/v1/users`` endpoints plus health checks, translating every
failure into the unified error format::

    {"success": false, "message": "...", "error_code": "...", "details": {...}}

Storage lives in ``db.py``, password hashing / JWT handling in ``auth.py`` and
input validation rules in ``validation.py``.  This module only wires them
together into HTTP endpoints.
"""

import inspect
import logging
import os
import re
from datetime import datetime, timezone
from functools import wraps

from flask import Flask, g, jsonify, request
from werkzeug.exceptions import HTTPException

import auth
import db
import validation

logging.basicConfig(
    level=os.environ.get("LOG_LEVEL", "INFO"),
    format="%(asctime)s %(levelname)s %(name)s: %(message)s",
)
logger = logging.getLogger("user_service")

PORT = int(os.environ.get("PORT", "8080"))


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class APIError(Exception):
    """Error converted into the unified JSON error response."""

    def __init__(self, message, error_code, status=400, details=None):
        super().__init__(message)
        self.message = message
        self.error_code = error_code
        self.status = status
        self.details = details


def error_response(message, error_code, status, details=None):
    body = {"success": False, "message": message, "error_code": error_code}
    if details is not None:
        body["details"] = details
    return jsonify(body), status


def success_response(message, data=None, status=200):
    body = {"success": True, "message": message}
    if data is not None:
        body["data"] = data
    return jsonify(body), status


# ---------------------------------------------------------------------------
# Adapters for the sibling modules
# ---------------------------------------------------------------------------

def _find(module, names, holders=()):
    """Find a callable named in ``names`` on ``module`` or a holder object."""
    for name in names:
        attr = getattr(module, name, None)
        if callable(attr) and not inspect.isclass(attr):
            return attr
    for holder_name in holders:
        holder = getattr(module, holder_name, None)
        if holder is None:
            continue
        if inspect.isclass(holder):
            try:
                holder = holder()
            except Exception:  # pragma: no cover - defensive
                continue
        for name in names:
            attr = getattr(holder, name, None)
            if callable(attr):
                return attr
    return None


def _call(func, values, aliases=None):
    """Call ``func`` mapping its parameter names onto ``values``.

    ``values`` is an ordered mapping of canonical names to values; ``aliases``
    maps alternative parameter names to canonical names.  Parameters that
    cannot be matched by name are filled positionally in ``values`` order.
    """
    aliases = aliases or {}
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return func(*values.values())

    args, kwargs = [], {}
    used = set()
    remaining = [k for k in values]
    has_var_kw = any(p.kind == p.VAR_KEYWORD for p in params)
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        key = p.name if p.name in values else aliases.get(p.name)
        if key is None or key in used:
            if p.default is not p.empty:
                continue
            free = [k for k in remaining if k not in used]
            if not free:
                continue
            key = free[0]
        used.add(key)
        if p.kind == p.POSITIONAL_ONLY:
            args.append(values[key])
        else:
            kwargs[p.name] = values[key]
    if has_var_kw:
        for key, val in values.items():
            if key not in used:
                kwargs[key] = val
    return func(*args, **kwargs)


_DB_HOLDERS = ("Database", "UserDB", "UserRepository", "UserStore", "db", "database")

_db_init = _find(db, ("init_db", "initialize", "init", "create_tables", "setup_db"),
                 _DB_HOLDERS)
_db_create = _find(db, ("create_user", "add_user", "insert_user"), _DB_HOLDERS)
_db_get = _find(db, ("get_user_by_id", "get_user", "find_user_by_id", "fetch_user"),
                _DB_HOLDERS)
_db_by_username = _find(db, ("get_user_by_username", "find_user_by_username",
                             "get_by_username"), _DB_HOLDERS)
_db_by_email = _find(db, ("get_user_by_email", "find_user_by_email", "get_by_email"),
                     _DB_HOLDERS)
_db_update = _find(db, ("update_user", "modify_user", "edit_user"), _DB_HOLDERS)
_db_delete = _find(db, ("delete_user", "remove_user"), _DB_HOLDERS)


def _row_to_dict(row):
    if row is None:
        return None
    if isinstance(row, dict):
        return dict(row)
    try:
        return dict(row)  # sqlite3.Row and similar mappings
    except (TypeError, ValueError):
        return dict(vars(row))


def _uid(user):
    value = user.get("user_id", user.get("id"))
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def _iso(value):
    if value is None:
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value.isoformat()
    return str(value)


def _password_hash_of(user):
    for key in ("password_hash", "hashed_password", "password"):
        if user.get(key):
            return user[key]
    return None


def db_get_user(user_id):
    return _row_to_dict(_db_get(user_id)) if _db_get else None


def db_get_by_username(username):
    return _row_to_dict(_db_by_username(username)) if _db_by_username else None


def db_get_by_email(email):
    return _row_to_dict(_db_by_email(email)) if _db_by_email else None


def db_create_user(username, email, password_hash, full_name):
    try:
        params = [p for p in inspect.signature(_db_create).parameters.values()
                  if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    values = {"username": username, "email": email,
              "password_hash": password_hash, "full_name": full_name}
    if len(params) == 1 and params[0].name != "username":
        # Storage layer takes a single mapping of user fields.
        result = _db_create(values)
    else:
        result = _call(
            _db_create,
            values,
            {"hashed_password": "password_hash", "password": "password_hash",
             "pw_hash": "password_hash", "name": "full_name"},
        )
    if isinstance(result, (int, str)) and not isinstance(result, bool):
        return db_get_user(int(result)) if str(result).isdigit() else None
    if result is None:
        return db_get_by_username(username)
    return _row_to_dict(result)


def db_update_user(user_id, fields):
    try:
        params = list(inspect.signature(_db_update).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = [p.name for p in params
             if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    has_var_kw = any(p.kind == p.VAR_KEYWORD for p in params)
    named_fields = any(n in ("email", "full_name") for n in names)
    if named_fields or (has_var_kw and len(names) <= 1):
        result = _db_update(user_id, **fields)
    else:
        result = _db_update(user_id, fields)
    if isinstance(result, dict) or (result is not None and not isinstance(result, (bool, int))):
        return _row_to_dict(result)
    return db_get_user(user_id)


def db_delete_user(user_id):
    return _db_delete(user_id)


# -- auth -------------------------------------------------------------------

_hash_password = _find(auth, ("hash_password", "generate_password_hash", "make_password_hash"))
_verify_password = _find(auth, ("verify_password", "check_password",
                                "check_password_hash", "password_matches"))
_create_token = _find(auth, ("create_access_token", "generate_token", "create_token",
                             "issue_token", "generate_access_token", "encode_token",
                             "create_jwt"))
_decode_token = _find(auth, ("decode_token", "verify_token", "decode_access_token",
                             "verify_access_token", "decode_jwt", "verify_jwt",
                             "validate_token"))

_use_auth_hashing = _hash_password is not None and _verify_password is not None
_use_auth_tokens = _create_token is not None and _decode_token is not None

TOKEN_EXPIRES_IN = 3600
for _name in ("TOKEN_EXPIRES_IN", "JWT_EXPIRES_IN", "JWT_EXPIRATION_SECONDS",
              "ACCESS_TOKEN_EXPIRES_IN", "TOKEN_EXPIRY_SECONDS", "EXPIRES_IN",
              "JWT_EXP_SECONDS", "TOKEN_TTL"):
    _val = getattr(auth, _name, None)
    if isinstance(_val, (int, float)) and not isinstance(_val, bool):
        TOKEN_EXPIRES_IN = int(_val)
        break
    if hasattr(_val, "total_seconds"):
        TOKEN_EXPIRES_IN = int(_val.total_seconds())
        break

_FALLBACK_SECRET = os.environ.get("JWT_SECRET_KEY", os.environ.get("SECRET_KEY",
                                                                   "change-me-secret"))


def hash_password(password):
    if _use_auth_hashing:
        return _hash_password(password)
    from werkzeug.security import generate_password_hash
    return generate_password_hash(password)


def verify_password(password, password_hash):
    if not password_hash:
        return False
    if _use_auth_hashing:
        try:
            return bool(_call(_verify_password,
                              {"password": password, "password_hash": password_hash},
                              {"plain_password": "password", "plain": "password",
                               "hashed_password": "password_hash", "hashed": "password_hash",
                               "pw_hash": "password_hash", "stored_hash": "password_hash",
                               "hash": "password_hash"}))
        except Exception:
            return False
    from werkzeug.security import check_password_hash
    return check_password_hash(password_hash, password)


def issue_token(user):
    if _use_auth_tokens:
        token = _call(_create_token,
                      {"user_id": _uid(user), "username": user.get("username")},
                      {"sub": "user_id", "uid": "user_id", "identity": "user_id"})
        if isinstance(token, tuple):
            token = token[0]
        if isinstance(token, dict):
            token = token.get("access_token") or token.get("token")
        if isinstance(token, bytes):
            token = token.decode("utf-8")
        return token
    import jwt
    now = datetime.now(timezone.utc)
    payload = {"sub": str(_uid(user)), "user_id": _uid(user),
               "username": user.get("username"), "iat": now,
               "exp": int(now.timestamp()) + TOKEN_EXPIRES_IN}
    token = jwt.encode(payload, _FALLBACK_SECRET, algorithm="HS256")
    return token.decode("utf-8") if isinstance(token, bytes) else token


def token_user_id(token):
    """Return the user id carried by ``token`` or ``None`` when invalid."""
    try:
        if _use_auth_tokens:
            payload = _decode_token(token)
        else:
            import jwt
            payload = jwt.decode(token, _FALLBACK_SECRET, algorithms=["HS256"])
    except Exception:
        return None
    if isinstance(payload, tuple):
        payload = next((p for p in payload if isinstance(p, dict)), None)
    if payload is None or payload is False:
        return None
    if isinstance(payload, (int, str)) and not isinstance(payload, bool):
        value = payload
    elif isinstance(payload, dict):
        value = payload.get("user_id", payload.get("sub", payload.get("id")))
    else:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


# -- validation ---------------------------------------------------------------

_validate_register = _find(validation, ("validate_registration", "validate_register",
                                        "validate_registration_data",
                                        "validate_register_payload",
                                        "validate_registration_payload",
                                        "validate_user_registration"))
_validate_login = _find(validation, ("validate_login", "validate_login_data",
                                     "validate_login_payload"))
_validate_update = _find(validation, ("validate_update", "validate_user_update",
                                      "validate_update_data", "validate_update_payload",
                                      "validate_profile_update"))

EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _fallback_validate(data, kind):
    errors = {}

    def check_str(field, required, min_len=None, max_len=None, pattern=None):
        if field not in data or data[field] is None:
            if required:
                errors[field] = "This field is required"
            return
        value = data[field]
        if not isinstance(value, str):
            errors[field] = "Must be a string"
            return
        if required and not value.strip():
            errors[field] = "This field is required"
            return
        if min_len is not None and len(value) < min_len:
            errors[field] = f"Must be at least {min_len} characters"
        elif max_len is not None and len(value) > max_len:
            errors[field] = f"Must be at most {max_len} characters"
        elif pattern is not None and not pattern.match(value):
            errors[field] = "Invalid format"

    if kind == "register":
        check_str("username", True, 3, 20)
        check_str("email", True, pattern=EMAIL_RE)
        check_str("password", True, 6, 50)
        check_str("full_name", False, max_len=100)
    elif kind == "login":
        check_str("username", True)
        check_str("password", True)
    else:
        check_str("email", False, pattern=EMAIL_RE)
        check_str("full_name", False, max_len=100)
    return errors


def run_validation(kind, data):
    """Run the validation rule for ``kind``; raise ``APIError`` on failure."""
    func = {"register": _validate_register, "login": _validate_login,
            "update": _validate_update}[kind]
    default_msg = "Validation failed"
    if func is None:
        errors = _fallback_validate(data, kind)
        if errors:
            raise APIError(default_msg, "VALIDATION_ERROR", 400, errors)
        return

    try:
        result = func(data)
    except APIError:
        raise
    except Exception as exc:  # validation modules may raise their own error type
        status = getattr(exc, "status_code", None) or getattr(exc, "status", None)
        raise APIError(getattr(exc, "message", None) or str(exc) or default_msg,
                       getattr(exc, "error_code", None) or getattr(exc, "code", None)
                       or "VALIDATION_ERROR",
                       status if isinstance(status, int) else 400,
                       getattr(exc, "details", None))

    ok, code, message, details = True, "VALIDATION_ERROR", default_msg, None
    if result is None or result is True:
        return
    if result is False:
        ok = False
    elif isinstance(result, tuple):
        items = list(result)
        if items and isinstance(items[0], bool):
            ok = items.pop(0)
            if ok:
                return
        for item in items:
            if isinstance(item, dict):
                if "error_code" in item or "message" in item:
                    code = item.get("error_code", code)
                    message = item.get("message", message)
                    details = item.get("details", details)
                else:
                    details = item
                ok = ok and not item
            elif isinstance(item, list):
                if item:
                    details = {"errors": item}
                    ok = False
            elif isinstance(item, str):
                if item.isupper() and " " not in item:
                    code = item
                else:
                    message = item
                ok = False
        if ok:
            return
    elif isinstance(result, dict):
        if not result:
            return
        if result.get("valid") is True or result.get("is_valid") is True:
            return
        if "error_code" in result or "message" in result:
            code = result.get("error_code", code)
            message = result.get("message", message)
            details = result.get("details", result.get("errors"))
        elif "errors" in result:
            if not result["errors"]:
                return
            details = result["errors"]
            if isinstance(details, list):
                details = {"errors": details}
        else:
            details = result
        ok = False
    elif isinstance(result, list):
        if not result:
            return
        details = {"errors": result}
        ok = False
    elif isinstance(result, str):
        if not result:
            return
        message = result
        ok = False
    if not ok:
        raise APIError(message, code or "VALIDATION_ERROR", 400, details)


# ---------------------------------------------------------------------------
# Serialisation
# ---------------------------------------------------------------------------

def public_user(user, include=("created_at", "updated_at")):
    data = {
        "user_id": _uid(user),
        "username": user.get("username"),
        "email": user.get("email"),
        "full_name": user.get("full_name") or "",
    }
    for key in include:
        data[key] = _iso(user.get(key))
    return data


# ---------------------------------------------------------------------------
# Request helpers
# ---------------------------------------------------------------------------

def get_json_body():
    data = request.get_json(silent=True)
    if data is None:
        raise APIError("Request body must be valid JSON", "INVALID_JSON", 400)
    if not isinstance(data, dict):
        raise APIError("Request body must be a JSON object", "INVALID_JSON", 400)
    return data


def require_auth(view):
    """Require ``Authorization: Bearer <token>`` and set ``g.current_user_id``."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        header = request.headers.get("Authorization", "")
        if not header:
            raise APIError("Authorization header is missing", "UNAUTHORIZED", 401)
        parts = header.split()
        if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1]:
            raise APIError("Invalid authorization header format",
                           "INVALID_TOKEN", 401)
        user_id = token_user_id(parts[1])
        if user_id is None:
            raise APIError("Invalid or expired token", "INVALID_TOKEN", 401)
        g.current_user_id = user_id
        return view(*args, **kwargs)

    return wrapper


def load_target_user(user_id):
    """Fetch the user addressed by the URL and enforce ownership."""
    user = db_get_user(user_id)
    if user is None:
        raise APIError("User not found", "USER_NOT_FOUND", 404)
    if g.current_user_id != _uid(user):
        raise APIError("You are not allowed to access this user", "FORBIDDEN", 403)
    return user


# ---------------------------------------------------------------------------
# Application factory
# ---------------------------------------------------------------------------

def create_app():
    app = Flask(__name__)
    app.config["JSON_SORT_KEYS"] = False

    if _db_init is not None:
        try:
            _db_init()
        except Exception:  # pragma: no cover - defensive
            logger.exception("Database initialisation failed")

    # --------------------------------------------------------------- errors
    @app.errorhandler(APIError)
    def handle_api_error(exc):
        return error_response(exc.message, exc.error_code, exc.status, exc.details)

    @app.errorhandler(HTTPException)
    def handle_http_error(exc):
        codes = {400: "BAD_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN",
                 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
                 415: "UNSUPPORTED_MEDIA_TYPE"}
        status = exc.code or 500
        return error_response(exc.description or exc.name,
                              codes.get(status, "HTTP_ERROR"), status)

    @app.errorhandler(Exception)
    def handle_unexpected(exc):
        logger.exception("Unhandled error")
        return error_response("Internal server error", "INTERNAL_ERROR", 500)

    # --------------------------------------------------------------- health
    def health():
        return jsonify({"success": True, "status": "healthy",
                        "message": "Service is healthy",
                        "timestamp": datetime.now(timezone.utc).isoformat()}), 200

    app.add_url_rule("/health", "health", health, methods=["GET"])
    app.add_url_rule("/api/v1/health", "api_health", health, methods=["GET"])

    # ------------------------------------------------------------- register
    @app.route("/api/v1/users/register", methods=["POST"])
    def register():
        data = get_json_body()
        run_validation("register", data)

        username = data["username"].strip()
        email = data["email"].strip()
        full_name = data.get("full_name")
        if isinstance(full_name, str):
            full_name = full_name.strip()
        password = data["password"]

        if db_get_by_username(username) is not None:
            raise APIError("Username already exists", "USERNAME_EXISTS", 409,
                           {"username": "Username is already taken"})
        if db_get_by_email(email) is not None:
            raise APIError("Email already exists", "EMAIL_EXISTS", 409,
                           {"email": "Email is already registered"})

        try:
            user = db_create_user(username, email, hash_password(password), full_name)
        except Exception as exc:
            if "unique" in str(exc).lower() or "integrity" in type(exc).__name__.lower():
                raise APIError("Username or email already exists", "USER_EXISTS", 409)
            raise
        if user is None:
            user = db_get_by_username(username)
        logger.info("Registered user %s", username)
        return success_response("User registered successfully",
                                public_user(user, include=("created_at",)), 201)

    # ---------------------------------------------------------------- login
    @app.route("/api/v1/users/login", methods=["POST"])
    def login():
        data = get_json_body()
        run_validation("login", data)

        username = data["username"].strip() if isinstance(data.get("username"), str) \
            else data.get("username")
        user = db_get_by_username(username)
        if user is None or not verify_password(data.get("password"),
                                                _password_hash_of(user)):
            raise APIError("Invalid username or password", "INVALID_CREDENTIALS", 401)

        token = issue_token(user)
        return success_response("Login successful", {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": TOKEN_EXPIRES_IN,
            "user": public_user(user, include=()),
        })

    # -------------------------------------------------------- user resource
    @app.route("/api/v1/users/<int:user_id>", methods=["GET"])
    @require_auth
    def get_user(user_id):
        user = load_target_user(user_id)
        return success_response("User retrieved successfully", public_user(user))

    @app.route("/api/v1/users/<int:user_id>", methods=["PUT"])
    @require_auth
    def update_user(user_id):
        load_target_user(user_id)
        data = get_json_body()
        run_validation("update", data)

        fields = {}
        if data.get("email") is not None:
            fields["email"] = data["email"].strip()
        if "full_name" in data and data["full_name"] is not None:
            fields["full_name"] = data["full_name"].strip()

        if "email" in fields:
            other = db_get_by_email(fields["email"])
            if other is not None and _uid(other) != user_id:
                raise APIError("Email already exists", "EMAIL_EXISTS", 409,
                               {"email": "Email is already registered"})

        if fields:
            user = db_update_user(user_id, fields)
        else:
            user = db_get_user(user_id)
        if user is None:
            raise APIError("User not found", "USER_NOT_FOUND", 404)
        return success_response("User updated successfully",
                                public_user(user, include=("updated_at",)))

    @app.route("/api/v1/users/<int:user_id>", methods=["DELETE"])
    @require_auth
    def delete_user(user_id):
        load_target_user(user_id)
        db_delete_user(user_id)
        return success_response("User deleted successfully")

    return app


app = create_app()


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT)
