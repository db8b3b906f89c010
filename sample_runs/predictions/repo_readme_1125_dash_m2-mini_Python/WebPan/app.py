import logging
import math
import mimetypes
import os
import threading
import uuid
from datetime import datetime, timedelta, timezone
from functools import wraps

from flask import Flask, g, jsonify, request, send_file
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.utils import secure_filename

PORT = int(os.environ.get("PORT", "8080"))
STORAGE_DIR = os.environ.get("STORAGE_DIR", os.path.join(os.path.dirname(os.path.abspath(__file__)), "storage"))
MAX_FILE_SIZE = 100 * 1024 * 1024
DEFAULT_QUOTA = 10 * 1024 * 1024 * 1024
TOKEN_TTL = 3600
BLOCKED_EXT = {".exe", ".bat", ".cmd", ".com", ".scr", ".msi", ".vbs", ".ps1"}

os.makedirs(STORAGE_DIR, exist_ok=True)

logging.basicConfig(level=logging.INFO)
audit = logging.getLogger("webpan.audit")

app = Flask(__name__)
app.config["MAX_CONTENT_LENGTH"] = MAX_FILE_SIZE * 10

lock = threading.Lock()
users = {}          # user_id -> dict
usernames = {}      # username -> user_id
tokens = {}         # token -> (user_id, expires_at)
files = {}          # file_id -> dict
shares = {}         # share_id -> dict


def now():
    return datetime.now(timezone.utc)


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def error(msg, code, status, details=None):
    body = {"success": False, "error": msg, "error_code": code}
    if details:
        body["details"] = details
    return jsonify(body), status


def current_user_from_header():
    header = request.headers.get("Authorization", "")
    if not header:
        return None, "AUTH_REQUIRED"
    if not header.startswith("Bearer "):
        return None, "AUTH_INVALID"
    token = header[7:].strip()
    info = tokens.get(token)
    if not info:
        return None, "AUTH_INVALID"
    uid, exp = info
    if exp < now():
        tokens.pop(token, None)
        return None, "AUTH_INVALID"
    return users.get(uid), None


def auth_required(f):
    @wraps(f)
    def wrapper(*a, **kw):
        user, code = current_user_from_header()
        if user is None:
            if code == "AUTH_REQUIRED":
                return error("Authentication required", "AUTH_REQUIRED", 401)
            return error("Invalid or expired token", "AUTH_INVALID", 401)
        g.user = user
        return f(*a, **kw)
    return wrapper


def used_space(uid):
    return sum(f["size"] for f in files.values() if f["owner_id"] == uid)


def save_upload(storage, uid, folder_id=None, description=None):
    filename = storage.filename or ""
    if not filename:
        raise ValueError(("No filename provided", "INVALID_FORMAT", 400))
    ext = os.path.splitext(filename)[1].lower()
    if ext in BLOCKED_EXT:
        raise ValueError(("File type not allowed", "INVALID_FORMAT", 400))
    data = storage.read()
    size = len(data)
    if size > MAX_FILE_SIZE:
        raise ValueError(("File too large", "FILE_TOO_LARGE", 413))
    user = users[uid]
    if used_space(uid) + size > user["quota"]:
        raise ValueError(("Storage quota exceeded", "QUOTA_EXCEEDED", 413))
    file_id = uuid.uuid4().hex
    path = os.path.join(STORAGE_DIR, file_id)
    with open(path, "wb") as fh:
        fh.write(data)
    mime = storage.mimetype if storage.mimetype and storage.mimetype != "application/octet-stream" else None
    if not mime:
        mime = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    rec = {
        "file_id": file_id,
        "filename": filename,
        "size": size,
        "mime_type": mime,
        "upload_time": iso(now()),
        "download_count": 0,
        "owner_id": uid,
        "folder_id": folder_id,
        "description": description,
        "path": path,
    }
    with lock:
        files[file_id] = rec
    audit.info("upload user=%s file=%s name=%s size=%d", uid, file_id, filename, size)
    return rec


def download_url(file_id):
    return f"/api/v1/files/{file_id}/download"


# ---------------- auth ----------------

@app.route("/api/v1/auth/register", methods=["POST"])
def register():
    data = request.get_json(silent=True) or {}
    username = data.get("username")
    password = data.get("password")
    email = data.get("email")
    if not isinstance(username, str) or not username.strip() or not isinstance(password, str) or not password:
        return error("username and password are required", "INVALID_FORMAT", 400)
    if email is not None and (not isinstance(email, str) or "@" not in email):
        return error("Invalid email", "INVALID_FORMAT", 400)
    with lock:
        if username in usernames:
            return error("Username already exists", "USER_EXISTS", 409)
        uid = uuid.uuid4().hex
        users[uid] = {
            "user_id": uid,
            "username": username,
            "email": email,
            "password_hash": generate_password_hash(password),
            "quota": DEFAULT_QUOTA,
        }
        usernames[username] = uid
    return jsonify({"success": True, "message": "User registered successfully", "user_id": uid}), 201


@app.route("/api/v1/auth/login", methods=["POST"])
def login():
    data = request.get_json(silent=True) or {}
    username = data.get("username")
    password = data.get("password")
    if not isinstance(username, str) or not isinstance(password, str) or not username or not password:
        return error("username and password are required", "INVALID_FORMAT", 400)
    uid = usernames.get(username)
    if not uid or not check_password_hash(users[uid]["password_hash"], password):
        return error("Invalid username or password", "AUTH_INVALID", 401)
    token = uuid.uuid4().hex + uuid.uuid4().hex
    tokens[token] = (uid, now() + timedelta(seconds=TOKEN_TTL))
    return jsonify({"success": True, "token": token, "user_id": uid, "expires_in": TOKEN_TTL})


# ---------------- files ----------------

@app.route("/api/v1/files/upload", methods=["POST"])
@auth_required
def upload():
    f = request.files.get("file")
    if f is None:
        return error("No file provided", "INVALID_FORMAT", 400)
    try:
        rec = save_upload(f, g.user["user_id"], request.form.get("folder_id"), request.form.get("description"))
    except ValueError as e:
        msg, code, status = e.args[0]
        return error(msg, code, status)
    return jsonify({
        "success": True,
        "file_id": rec["file_id"],
        "filename": rec["filename"],
        "size": rec["size"],
        "upload_time": rec["upload_time"],
        "download_url": download_url(rec["file_id"]),
    }), 201


@app.route("/api/v1/files/upload-multiple", methods=["POST"])
@auth_required
def upload_multiple():
    flist = request.files.getlist("files")
    if not flist:
        return error("No files provided", "INVALID_FORMAT", 400)
    folder_id = request.form.get("folder_id")
    uploaded, failed = [], []
    for f in flist:
        try:
            rec = save_upload(f, g.user["user_id"], folder_id)
            uploaded.append({"file_id": rec["file_id"], "filename": rec["filename"], "size": rec["size"], "status": "success"})
        except ValueError as e:
            failed.append({"filename": f.filename, "error": e.args[0][0]})
    return jsonify({"success": True, "uploaded_files": uploaded, "failed_files": failed}), 201


def find_owned_file(file_id):
    rec = files.get(file_id)
    if rec is None or rec["owner_id"] != g.user["user_id"]:
        return None
    return rec


@app.route("/api/v1/files/<file_id>/download", methods=["GET"])
def download(file_id):
    rec = files.get(file_id)
    share_token = request.args.get("share_token") or request.args.get("share_id")
    allowed = False
    user, code = current_user_from_header()
    if user is not None and rec is not None and rec["owner_id"] == user["user_id"]:
        allowed = True
    elif share_token:
        sh = shares.get(share_token)
        if sh is None:
            return error("Share link not found", "SHARE_NOT_FOUND", 404)
        if sh["expires_at"] and sh["expires_at"] < now():
            return error("Share link expired", "SHARE_EXPIRED", 410)
        if sh.get("password_hash") and not check_password_hash(sh["password_hash"], request.args.get("password", "")):
            return error("Invalid share password", "AUTH_INVALID", 403)
        if sh["file_id"] == file_id:
            allowed = True
    elif user is None:
        if rec is None:
            return error("File not found", "FILE_NOT_FOUND", 404)
        if code == "AUTH_REQUIRED":
            return error("Authentication required", "AUTH_REQUIRED", 401)
        return error("Invalid or expired token", "AUTH_INVALID", 401)
    if rec is None or not allowed:
        return error("File not found", "FILE_NOT_FOUND", 404)
    rec["download_count"] += 1
    audit.info("download file=%s", file_id)
    return send_file(rec["path"], mimetype=rec["mime_type"], as_attachment=True, download_name=rec["filename"])


@app.route("/api/v1/files/<file_id>/info", methods=["GET"])
@auth_required
def file_info(file_id):
    rec = find_owned_file(file_id)
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    return jsonify({
        "success": True,
        "file_id": rec["file_id"],
        "filename": rec["filename"],
        "size": rec["size"],
        "mime_type": rec["mime_type"],
        "upload_time": rec["upload_time"],
        "download_count": rec["download_count"],
        "owner_id": rec["owner_id"],
    })


@app.route("/api/v1/files", methods=["GET"])
@auth_required
def list_files():
    try:
        page = int(request.args.get("page", 1))
        limit = int(request.args.get("limit", 20))
    except ValueError:
        return error("page and limit must be integers", "INVALID_FORMAT", 400)
    if page < 1 or limit < 1:
        return error("page and limit must be positive", "INVALID_FORMAT", 400)
    limit = min(limit, 100)
    folder_id = request.args.get("folder_id")
    sort_by = request.args.get("sort_by", "upload_time")
    order = request.args.get("order", "desc")
    if sort_by not in ("name", "size", "upload_time"):
        return error("Invalid sort_by", "INVALID_FORMAT", 400)
    if order not in ("asc", "desc"):
        return error("Invalid order", "INVALID_FORMAT", 400)
    items = [f for f in files.values() if f["owner_id"] == g.user["user_id"]]
    if folder_id:
        items = [f for f in items if f["folder_id"] == folder_id]
    key = {"name": lambda f: f["filename"].lower(), "size": lambda f: f["size"], "upload_time": lambda f: f["upload_time"]}[sort_by]
    items.sort(key=key, reverse=(order == "desc"))
    total = len(items)
    pages = math.ceil(total / limit) if total else 0
    chunk = items[(page - 1) * limit: page * limit]
    return jsonify({
        "success": True,
        "files": [{
            "file_id": f["file_id"],
            "filename": f["filename"],
            "size": f["size"],
            "mime_type": f["mime_type"],
            "upload_time": f["upload_time"],
            "download_count": f["download_count"],
        } for f in chunk],
        "pagination": {"page": page, "limit": limit, "total": total, "pages": pages},
    })


@app.route("/api/v1/files/<file_id>", methods=["DELETE"])
@auth_required
def delete_file(file_id):
    rec = find_owned_file(file_id)
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    with lock:
        files.pop(file_id, None)
        for sid in [s for s, v in shares.items() if v["file_id"] == file_id]:
            shares.pop(sid, None)
    try:
        os.remove(rec["path"])
    except OSError:
        pass
    audit.info("delete file=%s", file_id)
    return jsonify({"success": True, "message": "File deleted successfully"})


@app.route("/api/v1/files/<file_id>/rename", methods=["PUT"])
@auth_required
def rename_file(file_id):
    rec = find_owned_file(file_id)
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    data = request.get_json(silent=True) or {}
    new_name = data.get("new_name")
    if not isinstance(new_name, str) or not new_name.strip() or "/" in new_name or "\\" in new_name:
        return error("Invalid new_name", "INVALID_FORMAT", 400)
    rec["filename"] = new_name.strip()
    return jsonify({"success": True, "message": "File renamed successfully", "new_filename": rec["filename"]})


# ---------------- sharing ----------------

@app.route("/api/v1/files/<file_id>/share", methods=["POST"])
@auth_required
def create_share(file_id):
    rec = find_owned_file(file_id)
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    data = request.get_json(silent=True) or {}
    is_public = data.get("is_public", True)
    expires_in = data.get("expires_in", 3600)
    password = data.get("password")
    if not isinstance(expires_in, int) or isinstance(expires_in, bool) or expires_in <= 0:
        return error("expires_in must be a positive integer", "INVALID_FORMAT", 400)
    share_id = uuid.uuid4().hex
    expires_at = now() + timedelta(seconds=expires_in)
    shares[share_id] = {
        "share_id": share_id,
        "file_id": file_id,
        "owner_id": g.user["user_id"],
        "is_public": bool(is_public),
        "expires_at": expires_at,
        "password_hash": generate_password_hash(password) if password else None,
        "access_count": 0,
    }
    return jsonify({
        "success": True,
        "share_id": share_id,
        "share_url": f"/api/v1/share/{share_id}",
        "expires_at": iso(expires_at),
        "access_count": 0,
    }), 201


@app.route("/api/v1/share/<share_id>", methods=["GET"])
def access_share(share_id):
    sh = shares.get(share_id)
    if sh is None:
        return error("Share link not found", "SHARE_NOT_FOUND", 404)
    if sh["expires_at"] < now():
        return error("Share link expired", "SHARE_EXPIRED", 410)
    if sh["password_hash"]:
        pw = request.args.get("password")
        if not pw or not check_password_hash(sh["password_hash"], pw):
            return error("Invalid share password", "AUTH_INVALID", 403)
    if not sh["is_public"]:
        user, _ = current_user_from_header()
        if user is None:
            return error("Authentication required", "AUTH_REQUIRED", 401)
    rec = files.get(sh["file_id"])
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    sh["access_count"] += 1
    url = f"{download_url(rec['file_id'])}?share_token={share_id}"
    if request.args.get("password"):
        url += f"&password={request.args.get('password')}"
    return jsonify({
        "success": True,
        "file_info": {"filename": rec["filename"], "size": rec["size"], "mime_type": rec["mime_type"]},
        "download_url": url,
    })


@app.route("/api/v1/share/<share_id>", methods=["DELETE"])
@auth_required
def delete_share(share_id):
    sh = shares.get(share_id)
    if sh is None or sh["owner_id"] != g.user["user_id"]:
        return error("Share link not found", "SHARE_NOT_FOUND", 404)
    shares.pop(share_id, None)
    return jsonify({"success": True, "message": "Share link deleted successfully"})


# ---------------- storage ----------------

@app.route("/api/v1/storage/quota", methods=["GET"])
@auth_required
def quota():
    uid = g.user["user_id"]
    used = used_space(uid)
    total = g.user["quota"]
    return jsonify({
        "success": True,
        "used_space": used,
        "total_space": total,
        "available_space": total - used,
        "usage_percentage": round(used * 100.0 / total, 2) if total else 0.0,
    })


@app.route("/health", methods=["GET"])
def health():
    return jsonify({"status": "ok"})


@app.errorhandler(404)
def nf(e):
    return error("Not found", "NOT_FOUND", 404)


@app.errorhandler(405)
def mna(e):
    return error("Method not allowed", "METHOD_NOT_ALLOWED", 405)


@app.errorhandler(413)
def too_large(e):
    return error("File too large", "FILE_TOO_LARGE", 413)


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT, threaded=True)
