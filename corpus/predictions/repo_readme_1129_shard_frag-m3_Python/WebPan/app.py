"""WebPan - File Storage and Sharing Service.

Flask application serving every ``/api/v1`` endpoint (authentication, file
upload/download/management, share links and storage quota) with the unified
error format::

    {"success": false, "error": "...", "error_code": "...", "details": "..."}

Persistence is delegated to ``db.py``, password hashing and token handling to
``auth.py`` and on-disk file handling / quota figures to ``storage.py``.
"""

import inspect
import logging
import math
import mimetypes
import os
import uuid
from datetime import datetime, timedelta, timezone
from functools import wraps

from flask import Flask, g, jsonify, request, send_file
from werkzeug.exceptions import HTTPException

import auth
import db
import storage

logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"))
logger = logging.getLogger("webpan")

PORT = int(os.environ.get("PORT", "8080"))
API = "/api/v1"

MAX_FILE_SIZE = int(getattr(storage, "MAX_FILE_SIZE", 100 * 1024 * 1024))
DEFAULT_QUOTA = int(getattr(storage, "DEFAULT_QUOTA",
                            getattr(storage, "USER_QUOTA", 10 * 1024 * 1024 * 1024)))
TOKEN_EXPIRES_IN = 3600
for _n in ("TOKEN_EXPIRES_IN", "TOKEN_EXPIRY", "TOKEN_TTL", "TOKEN_EXPIRY_SECONDS",
           "EXPIRES_IN", "TOKEN_LIFETIME"):
    _v = getattr(auth, _n, None)
    if isinstance(_v, (int, float)) and not isinstance(_v, bool):
        TOKEN_EXPIRES_IN = int(_v)
        break

BLOCKED_EXTENSIONS = {
    "exe", "bat", "cmd", "com", "scr", "msi", "vbs", "vbe", "ps1", "pif",
    "cpl", "dll", "sys", "jse", "wsf", "wsh", "hta", "php", "phtml", "jsp",
    "asp", "aspx", "cgi",
}
SORT_FIELDS = {"name", "size", "upload_time"}


# ---------------------------------------------------------------------------
# Errors and responses
# ---------------------------------------------------------------------------

class APIError(Exception):
    def __init__(self, status, error_code, message, details=None):
        super().__init__(message)
        self.status = status
        self.error_code = error_code
        self.message = message
        self.details = details


def error_response(status, error_code, message, details=None):
    body = {"success": False, "error": message, "error_code": error_code}
    if details is not None:
        body["details"] = details if isinstance(details, str) else str(details)
    return jsonify(body), status


def now_utc():
    return datetime.now(timezone.utc)


def iso(value):
    """Render a timestamp as ``YYYY-MM-DDTHH:MM:SSZ``."""
    if value is None:
        return None
    dt = parse_time(value)
    if dt is None:
        return str(value)
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(value):
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, tz=timezone.utc)
    text = str(value).strip()
    try:
        return datetime.fromtimestamp(float(text), tz=timezone.utc)
    except ValueError:
        pass
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


# ---------------------------------------------------------------------------
# Adapters to the sibling modules (names guessed from their responsibilities)
# ---------------------------------------------------------------------------

_BUNDLE_NAMES = ("data", "record", "file", "info", "file_record", "fields",
                 "share", "user", "values", "entry", "row", "payload", "meta",
                 "metadata", "file_info", "share_data", "user_data")


def _find(module, *names):
    for name in names:
        attr = getattr(module, name, None)
        if callable(attr) and not inspect.isclass(attr):
            return attr
    return None


def _call(func, values, aliases=None):
    """Call ``func`` matching its parameter names against ``values``.

    ``aliases`` maps alternative parameter names onto keys of ``values``.
    A single unmatched parameter with a "bundle" name gets the whole dict.
    Remaining required parameters are filled positionally.
    """
    aliases = aliases or {}
    try:
        params = [p for p in inspect.signature(func).parameters.values()]
    except (TypeError, ValueError):
        return func(*values.values())
    plain = [p for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    has_var_kw = any(p.kind == p.VAR_KEYWORD for p in params)

    def key_for(name):
        if name in values:
            return name
        return aliases.get(name)

    required = [p for p in plain if p.default is p.empty]
    if (len(required) == 1 and key_for(required[0].name) is None
            and required[0].name in _BUNDLE_NAMES):
        return func(dict(values))

    args, kwargs, used = [], {}, set()
    positional_ok = True
    for p in plain:
        key = key_for(p.name)
        if key is not None and key not in used:
            used.add(key)
            if p.kind == p.POSITIONAL_ONLY and positional_ok:
                args.append(values[key])
            else:
                kwargs[p.name] = values[key]
            continue
        if p.default is not p.empty:
            positional_ok = False
            continue
        free = [k for k in values if k not in used]
        if not free:
            continue
        used.add(free[0])
        if p.kind == p.POSITIONAL_ONLY and positional_ok:
            args.append(values[free[0]])
        else:
            kwargs[p.name] = values[free[0]]
    if has_var_kw:
        for k, v in values.items():
            if k not in used and k not in kwargs:
                kwargs[k] = v
    return func(*args, **kwargs)


def _as_dict(row):
    if row is None:
        return None
    if isinstance(row, dict):
        return dict(row)
    try:
        return dict(row)
    except (TypeError, ValueError):
        return dict(vars(row))


def _pick(record, *keys, default=None):
    if not record:
        return default
    for key in keys:
        if key in record and record[key] is not None:
            return record[key]
    return default


def _returned_id(result, *keys):
    if result is None or isinstance(result, bool):
        return None
    if isinstance(result, (str, int)):
        return str(result)
    if isinstance(result, tuple) and result:
        return _returned_id(result[0], *keys)
    rec = _as_dict(result)
    value = _pick(rec, *keys)
    return str(value) if value is not None else None


# -- db ---------------------------------------------------------------------

_db_init = _find(db, "init_db", "initialize", "init", "create_tables", "setup")
_db_create_user = _find(db, "create_user", "add_user", "insert_user")
_db_user_by_name = _find(db, "get_user_by_username", "find_user_by_username",
                         "get_user_by_name")
_db_user_by_id = _find(db, "get_user_by_id", "get_user", "find_user_by_id")
_db_token_get = _find(db, "get_token", "get_token_record", "find_token", "lookup_token")
_db_create_file = _find(db, "create_file", "add_file", "insert_file", "create_file_record",
                        "add_file_record", "insert_file_record", "save_file_record",
                        "save_file")
_db_get_file = _find(db, "get_file", "get_file_by_id", "get_file_record", "find_file")
_db_list_files = _find(db, "list_files", "get_user_files", "get_files_by_owner",
                       "list_user_files", "get_files", "get_files_by_user")
_db_delete_file = _find(db, "delete_file", "delete_file_record", "remove_file",
                        "remove_file_record")
_db_rename_file = _find(db, "rename_file", "update_filename", "update_file_name")
_db_update_file = _find(db, "update_file", "update_file_record")
_db_inc_download = _find(db, "increment_download_count", "increment_downloads",
                         "inc_download_count", "increment_file_download_count")
_db_create_share = _find(db, "create_share", "add_share", "insert_share",
                         "create_share_link", "add_share_link")
_db_get_share = _find(db, "get_share", "get_share_by_id", "get_share_link", "find_share")
_db_delete_share = _find(db, "delete_share", "remove_share", "delete_share_link")
_db_inc_share = _find(db, "increment_share_access", "increment_access_count",
                      "increment_share_access_count", "increment_share_count",
                      "inc_share_access")
_db_delete_file_shares = _find(db, "delete_shares_for_file", "delete_file_shares",
                               "delete_shares_by_file")
_db_log = _find(db, "log_access", "add_access_log", "create_access_log",
                "insert_access_log", "record_access", "add_log", "log_action")
_db_used_space = _find(db, "get_used_space", "get_user_used_space", "get_total_size",
                       "get_storage_used", "sum_file_sizes", "get_user_storage_used")

_FILE_ALIASES = {
    "id": "file_id", "user_id": "owner_id", "owner": "owner_id",
    "original_name": "filename", "original_filename": "filename", "name": "filename",
    "file_name": "filename",
    "path": "stored_path", "storage_path": "stored_path", "file_path": "stored_path",
    "stored_name": "stored_path", "disk_path": "stored_path",
    "file_size": "size", "content_type": "mime_type", "mimetype": "mime_type",
    "created_at": "upload_time", "uploaded_at": "upload_time",
}
_SHARE_ALIASES = {
    "id": "share_id", "user_id": "owner_id", "created_by": "owner_id",
    "owner": "owner_id", "password": "password_hash", "hashed_password": "password_hash",
    "public": "is_public",
}


def db_get_file(file_id):
    rec = _as_dict(_db_get_file(file_id)) if _db_get_file else None
    return rec


def db_get_share(share_id):
    return _as_dict(_db_get_share(share_id)) if _db_get_share else None


def db_log(user_id, file_id, action):
    if _db_log is None:
        return
    try:
        _call(_db_log, {"user_id": user_id, "file_id": file_id, "action": action,
                        "ip_address": request.remote_addr,
                        "timestamp": now_utc().isoformat()},
              {"ip": "ip_address", "remote_addr": "ip_address",
               "created_at": "timestamp", "time": "timestamp"})
    except Exception:  # logging must never break a request
        logger.exception("access log failed")


def db_user_files(user_id, folder_id=None):
    if _db_list_files is None:
        return []
    values = {"owner_id": user_id}
    try:
        names = list(inspect.signature(_db_list_files).parameters)
    except (TypeError, ValueError):
        names = []
    if "folder_id" in names:
        values["folder_id"] = folder_id
    result = _call(_db_list_files, values, {"user_id": "owner_id", "owner": "owner_id"})
    if isinstance(result, tuple):
        result = next((r for r in result if isinstance(r, list)), [])
    if isinstance(result, dict):
        result = result.get("files") or result.get("items") or []
    return [_as_dict(r) for r in (result or [])]


# -- auth -------------------------------------------------------------------

_hash_password = _find(auth, "hash_password", "generate_password_hash", "make_password")
_verify_password = _find(auth, "verify_password", "check_password",
                         "check_password_hash", "password_matches")
_issue_token = _find(auth, "issue_token", "create_token", "generate_token",
                     "create_access_token", "new_token", "create_user_token")
_lookup_token = _find(auth, "get_user_id_from_token", "get_user_from_token",
                      "verify_token", "validate_token", "lookup_token",
                      "get_token_user", "authenticate_token", "resolve_token",
                      "user_id_for_token", "check_token")


def hash_password(password):
    if _hash_password is not None:
        return _hash_password(password)
    from werkzeug.security import generate_password_hash
    return generate_password_hash(password)


def verify_password(password, stored):
    if not stored or password is None:
        return False
    if _verify_password is None:
        from werkzeug.security import check_password_hash
        return check_password_hash(stored, password)
    try:
        return bool(_call(_verify_password, {"password": password, "stored": stored},
                          {"plain": "password", "plain_password": "password",
                           "raw": "password", "raw_password": "password",
                           "candidate": "password",
                           "password_hash": "stored", "hashed": "stored",
                           "hashed_password": "stored", "stored_hash": "stored",
                           "pw_hash": "stored", "hash": "stored",
                           "pwhash": "stored", "hash_value": "stored"}))
    except Exception:
        return False


def issue_token(user_id):
    """Issue a token for ``user_id``; returns ``(token, expires_in)``."""
    result = _issue_token(user_id)
    expires = TOKEN_EXPIRES_IN
    if isinstance(result, tuple):
        token = result[0]
        for extra in result[1:]:
            if isinstance(extra, int) and not isinstance(extra, bool):
                expires = extra
    elif isinstance(result, dict):
        token = result.get("token") or result.get("access_token")
        expires = result.get("expires_in", expires)
    else:
        token = result
    if isinstance(token, bytes):
        token = token.decode()
    return token, expires


def _user_id_from(value):
    if value is None or value is False:
        return None
    if isinstance(value, tuple):
        for item in value:
            uid = _user_id_from(item)
            if uid is not None:
                return uid
        return None
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return str(value)
    rec = _as_dict(value)
    uid = _pick(rec, "user_id", "owner_id", "id")
    return str(uid) if uid is not None else None


def user_id_for_token(token):
    if not token:
        return None
    try:
        if _lookup_token is not None:
            return _user_id_from(_lookup_token(token))
        if _db_token_get is not None:
            rec = _as_dict(_db_token_get(token))
            if not rec:
                return None
            exp = parse_time(_pick(rec, "expires_at", "expiry", "expires"))
            if exp is not None and exp < now_utc():
                return None
            return _user_id_from(rec)
    except Exception:
        return None
    return None


def bearer_token():
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    parts = header.split(None, 1)
    if len(parts) == 2 and parts[0].lower() == "bearer":
        return parts[1].strip()
    return ""


def require_auth(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        token = bearer_token()
        if token is None:
            raise APIError(401, "AUTH_REQUIRED", "Authentication required")
        user_id = user_id_for_token(token)
        if user_id is None:
            raise APIError(401, "AUTH_INVALID", "Invalid or expired token")
        g.user_id = user_id
        return view(*args, **kwargs)
    return wrapper


# -- storage ----------------------------------------------------------------

_st_save = _find(storage, "save_file", "save_upload", "store_file", "save_uploaded_file",
                 "write_file")
_st_delete = _find(storage, "delete_file", "remove_file", "delete_stored_file")
_st_quota = _find(storage, "get_quota_info", "get_quota", "quota_info", "get_storage_quota",
                  "get_user_quota", "quota_figures", "get_quota_figures")
_st_path = _find(storage, "get_file_path", "resolve_path", "file_path", "get_path")
UPLOAD_DIR = None
for _n in ("UPLOAD_DIR", "STORAGE_DIR", "UPLOAD_FOLDER", "STORAGE_ROOT", "BASE_DIR",
           "FILES_DIR", "STORAGE_PATH"):
    if isinstance(getattr(storage, _n, None), (str, os.PathLike)):
        UPLOAD_DIR = os.fspath(getattr(storage, _n))
        break
if UPLOAD_DIR is None:
    UPLOAD_DIR = os.environ.get("UPLOAD_DIR", os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "uploads"))


def file_path_of(record):
    stored = _pick(record, "stored_path", "storage_path", "path", "file_path",
                   "stored_name", "disk_path")
    if stored is None and _st_path is not None:
        try:
            stored = _call(_st_path, {"file_id": _pick(record, "file_id", "id"),
                                      "owner_id": _pick(record, "owner_id", "user_id")},
                           {"id": "file_id", "user_id": "owner_id"})
        except Exception:
            stored = None
    if stored is None:
        return None
    stored = os.fspath(stored)
    if os.path.isabs(stored) or os.path.exists(stored):
        return stored
    return os.path.join(UPLOAD_DIR, stored)


def measure_size(file_storage):
    stream = file_storage.stream
    try:
        pos = stream.tell()
        stream.seek(0, os.SEEK_END)
        size = stream.tell()
        stream.seek(pos)
        return size
    except (AttributeError, OSError):
        data = file_storage.read()
        file_storage.stream.seek(0)
        return len(data)


def quota_figures(user_id):
    used, total = None, DEFAULT_QUOTA
    if _st_quota is not None:
        try:
            info = _st_quota(user_id)
            if isinstance(info, tuple):
                used, total = info[0], info[1]
            elif isinstance(info, dict):
                used = info.get("used_space", info.get("used"))
                total = info.get("total_space", info.get("total", total))
        except Exception:
            logger.exception("quota lookup failed")
    if used is None and _db_used_space is not None:
        try:
            used = _db_used_space(user_id)
        except Exception:
            used = None
    if used is None:
        used = sum(int(_pick(f, "size", "file_size", default=0) or 0)
                   for f in db_user_files(user_id))
    used, total = int(used or 0), int(total or DEFAULT_QUOTA)
    available = max(total - used, 0)
    pct = round(used / total * 100, 2) if total else 0.0
    return {"used_space": used, "total_space": total,
            "available_space": available, "usage_percentage": pct}


def _storage_error(exc):
    name = type(exc).__name__.lower()
    text = str(exc).lower()
    if "quota" in name or "quota" in text:
        return APIError(413, "QUOTA_EXCEEDED", "Storage quota exceeded")
    if "large" in name or "size" in name or "too large" in text:
        return APIError(413, "FILE_TOO_LARGE", "File too large")
    if "format" in name or "type" in name:
        return APIError(400, "INVALID_FORMAT", str(exc) or "File format not supported")
    return None


def save_upload(file_storage, user_id, file_id, filename, size):
    """Persist the uploaded bytes; returns ``(stored_path, size)``."""
    if _st_save is None:
        os.makedirs(os.path.join(UPLOAD_DIR, user_id), exist_ok=True)
        path = os.path.join(UPLOAD_DIR, user_id, file_id)
        file_storage.save(path)
        return path, os.path.getsize(path)
    result = _call(_st_save, {"file_storage": file_storage, "user_id": user_id,
                              "file_id": file_id, "filename": filename},
                   {"file": "file_storage", "upload": "file_storage",
                    "uploaded_file": "file_storage", "fileobj": "file_storage",
                    "file_obj": "file_storage", "stream": "file_storage",
                    "owner_id": "user_id", "name": "filename",
                    "original_name": "filename", "stored_name": "file_id"})
    path, saved_size = None, size
    if isinstance(result, tuple):
        for item in result:
            if isinstance(item, (str, os.PathLike)) and path is None:
                path = os.fspath(item)
            elif isinstance(item, int) and not isinstance(item, bool):
                saved_size = item
    elif isinstance(result, dict):
        path = _pick(result, "stored_path", "storage_path", "path", "file_path",
                     "stored_name")
        saved_size = _pick(result, "size", "file_size", default=size)
    elif result is not None:
        path = os.fspath(result)
    return path, int(saved_size)


def remove_stored(path, record):
    try:
        if _st_delete is not None:
            _call(_st_delete, {"path": path}, {"file_path": "path", "stored_path": "path",
                                               "storage_path": "path"})
    except Exception:
        logger.exception("storage delete failed")
    try:
        if path and os.path.isfile(path):
            os.remove(path)
    except OSError:
        pass


# ---------------------------------------------------------------------------
# Serialisation helpers
# ---------------------------------------------------------------------------

def file_id_of(rec):
    return str(_pick(rec, "file_id", "id"))


def owner_of(rec):
    owner = _pick(rec, "owner_id", "user_id", "owner")
    return str(owner) if owner is not None else None


def filename_of(rec):
    return _pick(rec, "filename", "original_name", "original_filename", "name",
                 "file_name", default="")


def mime_of(rec):
    return _pick(rec, "mime_type", "content_type", "mimetype",
                 default="application/octet-stream")


def size_of(rec):
    return int(_pick(rec, "size", "file_size", default=0) or 0)


def upload_time_of(rec):
    return iso(_pick(rec, "upload_time", "created_at", "uploaded_at"))


def download_url(file_id):
    return f"{request.host_url.rstrip('/')}{API}/files/{file_id}/download"


def file_summary(rec):
    return {
        "file_id": file_id_of(rec),
        "filename": filename_of(rec),
        "size": size_of(rec),
        "mime_type": mime_of(rec),
        "upload_time": upload_time_of(rec),
        "download_count": int(_pick(rec, "download_count", "downloads", default=0) or 0),
    }


def json_body():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise APIError(400, "INVALID_REQUEST", "Request body must be a JSON object")
    return data


def owned_file(file_id):
    rec = db_get_file(file_id)
    if not rec or _pick(rec, "deleted", "is_deleted"):
        raise APIError(404, "FILE_NOT_FOUND", "File not found")
    if owner_of(rec) != g.user_id:
        raise APIError(403, "ACCESS_DENIED", "You do not have access to this file")
    return rec


def clean_filename(name):
    name = (name or "").replace("\\", "/").split("/")[-1].strip()
    name = "".join(ch for ch in name if ch >= " " and ch != "\x7f")
    return name


def check_format(name):
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if ext in BLOCKED_EXTENSIONS:
        raise APIError(400, "INVALID_FORMAT", "File format not supported",
                       f"Files with extension '.{ext}' are not allowed")


def share_expired(share):
    exp = parse_time(_pick(share, "expires_at", "expiry", "expires"))
    return exp is not None and exp <= now_utc()


# ---------------------------------------------------------------------------
# Upload core
# ---------------------------------------------------------------------------

def process_upload(file_storage, user_id, folder_id, description):
    """Validate and store one upload, returning the file record summary."""
    filename = clean_filename(file_storage.filename if file_storage else "")
    if not filename:
        raise APIError(400, "INVALID_REQUEST", "No file provided")
    check_format(filename)
    size = measure_size(file_storage)
    if size > MAX_FILE_SIZE:
        raise APIError(413, "FILE_TOO_LARGE", "File too large",
                       f"Maximum file size is {MAX_FILE_SIZE} bytes")
    quota = quota_figures(user_id)
    if quota["used_space"] + size > quota["total_space"]:
        raise APIError(413, "QUOTA_EXCEEDED", "Storage quota exceeded")

    file_id = uuid.uuid4().hex
    mime = file_storage.mimetype
    if not mime or mime == "application/octet-stream":
        mime = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    try:
        stored_path, size = save_upload(file_storage, user_id, file_id, filename, size)
    except APIError:
        raise
    except Exception as exc:
        mapped = _storage_error(exc)
        if mapped is not None:
            raise mapped
        raise
    uploaded = now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")
    values = {"file_id": file_id, "owner_id": user_id, "filename": filename,
              "stored_path": stored_path, "size": size, "mime_type": mime,
              "folder_id": folder_id, "description": description,
              "upload_time": uploaded}
    try:
        result = _call(_db_create_file, values, _FILE_ALIASES)
    except Exception:
        remove_stored(stored_path, None)
        raise
    new_id = _returned_id(result, "file_id", "id")
    if new_id and new_id != file_id and db_get_file(new_id):
        file_id = new_id
    db_log(user_id, file_id, "upload")
    rec = db_get_file(file_id) or values
    return {
        "file_id": file_id,
        "filename": filename_of(rec) or filename,
        "size": size_of(rec) or size,
        "upload_time": upload_time_of(rec) or uploaded,
        "download_url": download_url(file_id),
    }


# ---------------------------------------------------------------------------
# Application
# ---------------------------------------------------------------------------

def create_app():
    app = Flask(__name__)
    # Allow a 100MB file plus multipart overhead; bigger bodies are rejected.
    app.config["MAX_CONTENT_LENGTH"] = MAX_FILE_SIZE + 10 * 1024 * 1024
    app.config["JSON_SORT_KEYS"] = False
    if _db_init is not None:
        _db_init()

    # ------------------------------------------------------------ errors
    @app.errorhandler(APIError)
    def _api_error(exc):
        return error_response(exc.status, exc.error_code, exc.message, exc.details)

    @app.errorhandler(HTTPException)
    def _http_error(exc):
        code = exc.code or 500
        mapping = {
            400: ("INVALID_REQUEST", "Bad request"),
            401: ("AUTH_REQUIRED", "Authentication required"),
            403: ("ACCESS_DENIED", "Forbidden"),
            404: ("NOT_FOUND", "Resource not found"),
            405: ("METHOD_NOT_ALLOWED", "Method not allowed"),
            413: ("FILE_TOO_LARGE", "File too large"),
        }
        err_code, msg = mapping.get(code, ("HTTP_ERROR", exc.name))
        return error_response(code, err_code, msg)

    @app.errorhandler(Exception)
    def _unexpected(exc):
        logger.exception("Unhandled error")
        return error_response(500, "INTERNAL_ERROR", "Internal server error")

    # ------------------------------------------------------------ health
    @app.route("/health", methods=["GET"])
    @app.route(f"{API}/health", methods=["GET"])
    def health():
        return jsonify({"success": True, "status": "healthy"})

    # -------------------------------------------------------------- auth
    @app.route(f"{API}/auth/register", methods=["POST"])
    def register():
        data = json_body()
        username = data.get("username")
        password = data.get("password")
        email = data.get("email")
        missing = [f for f, v in (("username", username), ("password", password),
                                  ("email", email))
                   if not isinstance(v, str) or not v.strip()]
        if missing:
            raise APIError(400, "INVALID_REQUEST", "Missing or invalid fields",
                           ", ".join(missing))
        username, email = username.strip(), email.strip()
        if len(username) < 3 or len(username) > 50:
            raise APIError(400, "INVALID_REQUEST",
                           "Username must be between 3 and 50 characters")
        if len(password) < 6:
            raise APIError(400, "INVALID_REQUEST",
                           "Password must be at least 6 characters")
        if "@" not in email or "." not in email.split("@")[-1]:
            raise APIError(400, "INVALID_REQUEST", "Invalid email address")
        if _db_user_by_name and _db_user_by_name(username):
            raise APIError(409, "USER_EXISTS", "Username already exists")

        user_id = uuid.uuid4().hex
        try:
            result = _call(_db_create_user,
                           {"user_id": user_id, "username": username,
                            "password_hash": hash_password(password), "email": email,
                            "created_at": now_utc().isoformat()},
                           {"id": "user_id", "hashed_password": "password_hash",
                            "password": "password_hash", "pw_hash": "password_hash"})
        except Exception as exc:
            if "unique" in str(exc).lower() or "integrity" in type(exc).__name__.lower():
                raise APIError(409, "USER_EXISTS", "Username or email already exists")
            raise
        if result is False:
            raise APIError(409, "USER_EXISTS", "Username already exists")
        returned = _returned_id(result, "user_id", "id")
        if returned:
            user_id = returned
        elif _db_user_by_name:
            user_id = _user_id_from(_db_user_by_name(username)) or user_id
        return jsonify({"success": True, "message": "User registered successfully",
                        "user_id": user_id}), 201

    @app.route(f"{API}/auth/login", methods=["POST"])
    def login():
        data = json_body()
        username = data.get("username")
        password = data.get("password")
        if not isinstance(username, str) or not username.strip() \
                or not isinstance(password, str) or not password:
            raise APIError(400, "INVALID_REQUEST", "Username and password are required")
        user = _as_dict(_db_user_by_name(username.strip())) if _db_user_by_name else None
        stored = _pick(user, "password_hash", "hashed_password", "password")
        if not user or not verify_password(password, stored):
            raise APIError(401, "AUTH_INVALID", "Invalid username or password")
        user_id = _user_id_from(user)
        token, expires_in = issue_token(user_id)
        return jsonify({"success": True, "token": token, "user_id": user_id,
                        "expires_in": expires_in})

    # ------------------------------------------------------------ upload
    @app.route(f"{API}/files/upload", methods=["POST"])
    @require_auth
    def upload():
        file_storage = request.files.get("file")
        if file_storage is None:
            raise APIError(400, "INVALID_REQUEST", "No file provided",
                           "multipart field 'file' is required")
        folder_id = request.form.get("folder_id") or None
        description = request.form.get("description") or None
        info = process_upload(file_storage, g.user_id, folder_id, description)
        return jsonify({"success": True, **info}), 201

    @app.route(f"{API}/files/upload-multiple", methods=["POST"])
    @require_auth
    def upload_multiple():
        files = request.files.getlist("files") or request.files.getlist("files[]")
        if not files:
            files = [f for key in request.files for f in request.files.getlist(key)]
        if not files:
            raise APIError(400, "INVALID_REQUEST", "No files provided",
                           "multipart field 'files' is required")
        folder_id = request.form.get("folder_id") or None
        uploaded, failed = [], []
        for fs in files:
            try:
                info = process_upload(fs, g.user_id, folder_id, None)
                uploaded.append({"file_id": info["file_id"], "filename": info["filename"],
                                 "size": info["size"], "status": "success"})
            except APIError as exc:
                failed.append({"filename": clean_filename(fs.filename) or fs.filename or "",
                               "error": exc.message, "error_code": exc.error_code})
        status = 201 if uploaded else 400
        return jsonify({"success": bool(uploaded), "uploaded_files": uploaded,
                        "failed_files": failed}), status

    # ---------------------------------------------------------- download
    @app.route(f"{API}/files/<file_id>/download", methods=["GET"])
    def download(file_id):
        rec = db_get_file(file_id)
        token = bearer_token()
        share_token = (request.args.get("share_token") or request.args.get("share_id")
                       or request.args.get("share"))
        user_id = user_id_for_token(token) if token else None

        if user_id is None and not share_token:
            if token is None:
                raise APIError(401, "AUTH_REQUIRED", "Authentication required")
            if not token:
                raise APIError(401, "AUTH_INVALID", "Invalid authorization header")
            share_token = token  # the bearer value may itself be a share token
        if user_id is None and share_token:
            share = db_get_share(share_token)
            if not share:
                if token and not request.args.get("share_token"):
                    raise APIError(401, "AUTH_INVALID", "Invalid or expired token")
                raise APIError(404, "SHARE_NOT_FOUND", "Share link not found")
            if share_expired(share):
                raise APIError(410, "SHARE_EXPIRED", "Share link expired")
            if str(_pick(share, "file_id")) != str(file_id):
                raise APIError(403, "ACCESS_DENIED", "Share does not grant this file")
            pw_hash = _pick(share, "password_hash", "password")
            if pw_hash and not verify_password(request.args.get("password", ""), pw_hash):
                raise APIError(401, "AUTH_INVALID", "Invalid share password")
        if not rec:
            raise APIError(404, "FILE_NOT_FOUND", "File not found")
        if user_id is not None and owner_of(rec) != user_id:
            raise APIError(403, "ACCESS_DENIED", "You do not have access to this file")

        path = file_path_of(rec)
        if not path or not os.path.isfile(path):
            raise APIError(404, "FILE_NOT_FOUND", "File not found",
                           "Stored file content is missing")
        if _db_inc_download is not None:
            try:
                _db_inc_download(file_id)
            except Exception:
                logger.exception("download counter failed")
        elif _db_update_file is not None:
            try:
                count = int(_pick(rec, "download_count", default=0) or 0) + 1
                _db_update_file(file_id, {"download_count": count})
            except Exception:
                logger.exception("download counter failed")
        db_log(user_id, file_id, "download")
        return send_file(path, mimetype=mime_of(rec), as_attachment=True,
                         download_name=filename_of(rec) or file_id)

    # -------------------------------------------------------------- info
    @app.route(f"{API}/files/<file_id>/info", methods=["GET"])
    @require_auth
    def file_info(file_id):
        rec = owned_file(file_id)
        body = {"success": True, **file_summary(rec), "owner_id": owner_of(rec)}
        folder = _pick(rec, "folder_id")
        desc = _pick(rec, "description")
        if folder is not None:
            body["folder_id"] = folder
        if desc is not None:
            body["description"] = desc
        db_log(g.user_id, file_id, "info")
        return jsonify(body)

    # -------------------------------------------------------------- list
    @app.route(f"{API}/files", methods=["GET"])
    @require_auth
    def list_files():
        def int_arg(name, default):
            raw = request.args.get(name)
            if raw is None or raw == "":
                return default
            try:
                value = int(raw)
            except ValueError:
                raise APIError(400, "INVALID_REQUEST", f"'{name}' must be an integer")
            if value < 1:
                raise APIError(400, "INVALID_REQUEST", f"'{name}' must be at least 1")
            return value

        page = int_arg("page", 1)
        limit = min(int_arg("limit", 20), 100)
        folder_id = request.args.get("folder_id") or None
        sort_by = request.args.get("sort_by", "upload_time") or "upload_time"
        order = (request.args.get("order", "desc") or "desc").lower()
        if sort_by not in SORT_FIELDS:
            raise APIError(400, "INVALID_REQUEST",
                           "sort_by must be one of: name, size, upload_time")
        if order not in ("asc", "desc"):
            raise APIError(400, "INVALID_REQUEST", "order must be 'asc' or 'desc'")

        files = [f for f in db_user_files(g.user_id, folder_id)
                 if f and owner_of(f) in (None, g.user_id)
                 and not _pick(f, "deleted", "is_deleted")]
        if folder_id is not None:
            files = [f for f in files if str(_pick(f, "folder_id", default="")) == folder_id]

        if sort_by == "name":
            key = lambda f: (filename_of(f) or "").lower()
        elif sort_by == "size":
            key = size_of
        else:
            epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
            key = lambda f: parse_time(_pick(f, "upload_time", "created_at",
                                             "uploaded_at")) or epoch
        files.sort(key=key, reverse=(order == "desc"))

        total = len(files)
        pages = math.ceil(total / limit) if total else 0
        start = (page - 1) * limit
        items = [file_summary(f) for f in files[start:start + limit]]
        return jsonify({"success": True, "files": items,
                        "pagination": {"page": page, "limit": limit,
                                       "total": total, "pages": pages}})

    # ------------------------------------------------------------ delete
    @app.route(f"{API}/files/<file_id>", methods=["DELETE"])
    @require_auth
    def delete_file(file_id):
        rec = owned_file(file_id)
        path = file_path_of(rec)
        if _db_delete_file_shares is not None:
            try:
                _db_delete_file_shares(file_id)
            except Exception:
                logger.exception("share cleanup failed")
        _db_delete_file(file_id)
        remove_stored(path, rec)
        db_log(g.user_id, file_id, "delete")
        return jsonify({"success": True, "message": "File deleted successfully"})

    # ------------------------------------------------------------ rename
    @app.route(f"{API}/files/<file_id>/rename", methods=["PUT"])
    @require_auth
    def rename_file(file_id):
        rec = owned_file(file_id)
        data = json_body()
        new_name = data.get("new_name")
        if not isinstance(new_name, str) or not new_name.strip():
            raise APIError(400, "INVALID_REQUEST", "new_name is required")
        new_name = new_name.strip()
        if "/" in new_name or "\\" in new_name or new_name in (".", "..") \
                or len(new_name) > 255 or any(ord(c) < 32 for c in new_name):
            raise APIError(400, "INVALID_REQUEST", "Invalid file name")
        check_format(new_name)
        if _db_rename_file is not None:
            _db_rename_file(file_id, new_name)
        elif _db_update_file is not None:
            _db_update_file(file_id, {"filename": new_name})
        db_log(g.user_id, file_id, "rename")
        return jsonify({"success": True, "message": "File renamed successfully",
                        "new_filename": new_name})

    # ------------------------------------------------------------- share
    @app.route(f"{API}/files/<file_id>/share", methods=["POST"])
    @require_auth
    def create_share(file_id):
        owned_file(file_id)
        data = request.get_json(silent=True)
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise APIError(400, "INVALID_REQUEST", "Request body must be a JSON object")

        is_public = data.get("is_public", True)
        if not isinstance(is_public, bool):
            raise APIError(400, "INVALID_REQUEST", "is_public must be a boolean")
        expires_in = data.get("expires_in")
        if expires_in is not None:
            if isinstance(expires_in, bool) or not isinstance(expires_in, int) \
                    or expires_in <= 0:
                raise APIError(400, "INVALID_REQUEST",
                               "expires_in must be a positive integer (seconds)")
        password = data.get("password")
        if password is not None and (not isinstance(password, str)):
            raise APIError(400, "INVALID_REQUEST", "password must be a string")

        share_id = uuid.uuid4().hex
        created = now_utc()
        expires_at = (created + timedelta(seconds=expires_in)).strftime(
            "%Y-%m-%dT%H:%M:%SZ") if expires_in else None
        values = {"share_id": share_id, "file_id": file_id, "owner_id": g.user_id,
                  "is_public": is_public,
                  "password_hash": hash_password(password) if password else None,
                  "expires_at": expires_at,
                  "created_at": created.strftime("%Y-%m-%dT%H:%M:%SZ")}
        result = _call(_db_create_share, values, _SHARE_ALIASES)
        returned = _returned_id(result, "share_id", "id")
        if returned and returned != share_id and db_get_share(returned):
            share_id = returned
        db_log(g.user_id, file_id, "share")
        return jsonify({"success": True, "share_id": share_id,
                        "share_url": f"{request.host_url.rstrip('/')}{API}/share/{share_id}",
                        "expires_at": expires_at, "access_count": 0}), 201

    @app.route(f"{API}/share/<share_id>", methods=["GET"])
    def access_share(share_id):
        share = db_get_share(share_id)
        if not share:
            raise APIError(404, "SHARE_NOT_FOUND", "Share link not found")
        if share_expired(share):
            raise APIError(410, "SHARE_EXPIRED", "Share link expired")
        pw_hash = _pick(share, "password_hash", "password")
        password = request.args.get("password")
        if pw_hash:
            if not password:
                raise APIError(401, "AUTH_REQUIRED", "Password required for this share")
            if not verify_password(password, pw_hash):
                raise APIError(401, "AUTH_INVALID", "Invalid share password")
        else:
            is_public = _pick(share, "is_public", "public", default=True)
            if not is_public or str(is_public).lower() in ("0", "false"):
                token = bearer_token()
                if token is None:
                    raise APIError(401, "AUTH_REQUIRED", "Authentication required")
                if user_id_for_token(token) is None:
                    raise APIError(401, "AUTH_INVALID", "Invalid or expired token")
        file_id = str(_pick(share, "file_id"))
        rec = db_get_file(file_id)
        if not rec:
            raise APIError(404, "FILE_NOT_FOUND", "File not found")
        if _db_inc_share is not None:
            try:
                _db_inc_share(share_id)
            except Exception:
                logger.exception("share counter failed")
        db_log(None, file_id, "share_access")
        url = f"{download_url(file_id)}?share_token={share_id}"
        if password:
            from urllib.parse import quote
            url += f"&password={quote(password)}"
        return jsonify({"success": True,
                        "file_info": {"filename": filename_of(rec), "size": size_of(rec),
                                      "mime_type": mime_of(rec)},
                        "download_url": url})

    @app.route(f"{API}/share/<share_id>", methods=["DELETE"])
    @require_auth
    def delete_share(share_id):
        share = db_get_share(share_id)
        if not share:
            raise APIError(404, "SHARE_NOT_FOUND", "Share link not found")
        owner = _pick(share, "owner_id", "user_id", "created_by")
        if owner is None:
            owner = owner_of(db_get_file(str(_pick(share, "file_id"))) or {})
        if str(owner) != g.user_id:
            raise APIError(403, "ACCESS_DENIED", "You do not own this share link")
        _db_delete_share(share_id)
        return jsonify({"success": True, "message": "Share link deleted successfully"})

    # ----------------------------------------------------------- storage
    @app.route(f"{API}/storage/quota", methods=["GET"])
    @require_auth
    def storage_quota():
        return jsonify({"success": True, **quota_figures(g.user_id)})

    return app


app = create_app()


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT, threaded=True)
