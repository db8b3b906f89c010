import os
import uuid
import math
import logging
import mimetypes
import secrets
from datetime import datetime, timedelta
from functools import wraps

from flask import Flask, request, jsonify, send_file, g
from werkzeug.security import generate_password_hash, check_password_hash
from werkzeug.utils import secure_filename

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("webpan")

app = Flask(__name__)
MAX_FILE_SIZE = 100 * 1024 * 1024
DEFAULT_QUOTA = 10 * 1024 * 1024 * 1024
TOKEN_EXPIRES = 3600
app.config["MAX_CONTENT_LENGTH"] = MAX_FILE_SIZE * 10

UPLOAD_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "uploads")
os.makedirs(UPLOAD_DIR, exist_ok=True)

users = {}      # user_id -> dict
usernames = {}  # username -> user_id
tokens = {}     # token -> (user_id, expires)
files = {}      # file_id -> dict
shares = {}     # share_id -> dict

BLOCKED_EXT = {".exe", ".bat", ".cmd", ".sh", ".com", ".scr", ".msi"}


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def err(msg, code, status, details=None):
    body = {"success": False, "error": msg, "error_code": code}
    if details:
        body["details"] = details
    return jsonify(body), status


def get_user_from_token():
    auth = request.headers.get("Authorization", "")
    if not auth.startswith("Bearer "):
        return None, "AUTH_REQUIRED"
    token = auth[7:].strip()
    info = tokens.get(token)
    if not info:
        return None, "AUTH_INVALID"
    uid, exp = info
    if exp < datetime.utcnow():
        tokens.pop(token, None)
        return None, "AUTH_INVALID"
    return uid, None


def auth_required(f):
    @wraps(f)
    def wrapper(*a, **kw):
        uid, code = get_user_from_token()
        if not uid:
            if code == "AUTH_REQUIRED":
                return err("Authentication required", "AUTH_REQUIRED", 401)
            return err("Invalid or expired token", "AUTH_INVALID", 401)
        g.user_id = uid
        return f(*a, **kw)
    return wrapper


def used_space(uid):
    return sum(f["size"] for f in files.values() if f["owner_id"] == uid)


@app.route("/health")
@app.route("/api/v1/health")
def health():
    return jsonify({"success": True, "status": "healthy"})


@app.route("/api/v1/auth/register", methods=["POST"])
def register():
    data = request.get_json(silent=True) or {}
    username = data.get("username")
    password = data.get("password")
    email = data.get("email")
    if not username or not password or not email:
        return err("username, password and email are required", "INVALID_INPUT", 400)
    if not isinstance(username, str) or not isinstance(password, str) or not isinstance(email, str):
        return err("Invalid input", "INVALID_INPUT", 400)
    if "@" not in email:
        return err("Invalid email", "INVALID_INPUT", 400)
    if username in usernames:
        return err("Username already exists", "USER_EXISTS", 409)
    uid = str(uuid.uuid4())
    users[uid] = {"user_id": uid, "username": username, "email": email,
                  "password": generate_password_hash(password), "quota": DEFAULT_QUOTA}
    usernames[username] = uid
    log.info("user registered: %s", username)
    return jsonify({"success": True, "message": "User registered successfully", "user_id": uid}), 201


@app.route("/api/v1/auth/login", methods=["POST"])
def login():
    data = request.get_json(silent=True) or {}
    username = data.get("username")
    password = data.get("password")
    if not username or not password:
        return err("username and password are required", "INVALID_INPUT", 400)
    uid = usernames.get(username)
    if not uid or not check_password_hash(users[uid]["password"], password):
        return err("Invalid username or password", "AUTH_INVALID", 401)
    token = secrets.token_hex(32)
    tokens[token] = (uid, datetime.utcnow() + timedelta(seconds=TOKEN_EXPIRES))
    return jsonify({"success": True, "token": token, "user_id": uid, "expires_in": TOKEN_EXPIRES})


def save_upload(fs, uid, folder_id=None, description=None):
    filename = fs.filename or ""
    if not filename:
        return None, ("No filename", "INVALID_FORMAT", 400)
    ext = os.path.splitext(filename)[1].lower()
    if ext in BLOCKED_EXT:
        return None, ("File type not allowed", "INVALID_FORMAT", 400)
    content = fs.read()
    size = len(content)
    if size > MAX_FILE_SIZE:
        return None, ("File too large", "FILE_TOO_LARGE", 413)
    if used_space(uid) + size > users[uid]["quota"]:
        return None, ("Storage quota exceeded", "QUOTA_EXCEEDED", 413)
    fid = str(uuid.uuid4())
    path = os.path.join(UPLOAD_DIR, fid)
    with open(path, "wb") as fh:
        fh.write(content)
    mime = fs.mimetype if fs.mimetype and fs.mimetype != "application/octet-stream" else None
    if not mime:
        mime = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    rec = {
        "file_id": fid, "filename": filename, "size": size, "mime_type": mime,
        "upload_time": iso(datetime.utcnow()), "download_count": 0,
        "owner_id": uid, "folder_id": folder_id, "description": description, "path": path,
    }
    files[fid] = rec
    log.info("file uploaded %s by %s", fid, uid)
    return rec, None


@app.route("/api/v1/files/upload", methods=["POST"])
@auth_required
def upload():
    if "file" not in request.files:
        return err("No file provided", "INVALID_INPUT", 400)
    rec, e = save_upload(request.files["file"], g.user_id,
                         request.form.get("folder_id"), request.form.get("description"))
    if e:
        return err(e[0], e[1], e[2])
    return jsonify({
        "success": True, "file_id": rec["file_id"], "filename": rec["filename"],
        "size": rec["size"], "upload_time": rec["upload_time"],
        "download_url": "/api/v1/files/%s/download" % rec["file_id"],
    }), 201


@app.route("/api/v1/files/upload-multiple", methods=["POST"])
@auth_required
def upload_multiple():
    fl = request.files.getlist("files")
    if not fl:
        return err("No files provided", "INVALID_INPUT", 400)
    folder_id = request.form.get("folder_id")
    uploaded, failed = [], []
    for fs in fl:
        rec, e = save_upload(fs, g.user_id, folder_id)
        if e:
            failed.append({"filename": fs.filename, "error": e[0]})
        else:
            uploaded.append({"file_id": rec["file_id"], "filename": rec["filename"],
                             "size": rec["size"], "status": "success"})
    return jsonify({"success": True, "uploaded_files": uploaded, "failed_files": failed})


def check_share_token(fid):
    st = request.args.get("share_token") or request.args.get("share_id")
    if not st:
        return False
    s = shares.get(st)
    if not s or s["file_id"] != fid:
        return False
    if s["expires_at_dt"] and s["expires_at_dt"] < datetime.utcnow():
        return False
    if s["password"] and not check_password_hash(s["password"], request.args.get("password", "")):
        return False
    return True


@app.route("/api/v1/files/<file_id>/download", methods=["GET"])
def download(file_id):
    uid, code = get_user_from_token()
    f = files.get(file_id)
    if uid:
        if not f:
            return err("File not found", "FILE_NOT_FOUND", 404)
        if f["owner_id"] != uid and not check_share_token(file_id):
            return err("Access denied", "ACCESS_DENIED", 403)
    else:
        if not check_share_token(file_id):
            if code == "AUTH_INVALID":
                return err("Invalid or expired token", "AUTH_INVALID", 401)
            return err("Authentication required", "AUTH_REQUIRED", 401)
        if not f:
            return err("File not found", "FILE_NOT_FOUND", 404)
    f["download_count"] += 1
    log.info("file downloaded %s", file_id)
    return send_file(f["path"], mimetype=f["mime_type"], as_attachment=True, download_name=f["filename"])


@app.route("/api/v1/files/<file_id>/info", methods=["GET"])
@auth_required
def file_info(file_id):
    f = files.get(file_id)
    if not f:
        return err("File not found", "FILE_NOT_FOUND", 404)
    if f["owner_id"] != g.user_id:
        return err("Access denied", "ACCESS_DENIED", 403)
    return jsonify({
        "success": True, "file_id": f["file_id"], "filename": f["filename"], "size": f["size"],
        "mime_type": f["mime_type"], "upload_time": f["upload_time"],
        "download_count": f["download_count"], "owner_id": f["owner_id"],
    })


@app.route("/api/v1/files", methods=["GET"])
@auth_required
def list_files():
    try:
        page = int(request.args.get("page", 1))
        limit = int(request.args.get("limit", 20))
    except ValueError:
        return err("Invalid pagination parameters", "INVALID_INPUT", 400)
    if page < 1 or limit < 1:
        return err("Invalid pagination parameters", "INVALID_INPUT", 400)
    folder_id = request.args.get("folder_id")
    sort_by = request.args.get("sort_by", "upload_time")
    order = request.args.get("order", "desc")
    if sort_by not in ("name", "size", "upload_time"):
        return err("Invalid sort_by", "INVALID_INPUT", 400)
    if order not in ("asc", "desc"):
        return err("Invalid order", "INVALID_INPUT", 400)
    items = [f for f in files.values() if f["owner_id"] == g.user_id]
    if folder_id:
        items = [f for f in items if f["folder_id"] == folder_id]
    key = "filename" if sort_by == "name" else sort_by
    items.sort(key=lambda x: x[key], reverse=(order == "desc"))
    total = len(items)
    pages = math.ceil(total / limit) if total else 0
    chunk = items[(page - 1) * limit: page * limit]
    return jsonify({
        "success": True,
        "files": [{"file_id": f["file_id"], "filename": f["filename"], "size": f["size"],
                   "mime_type": f["mime_type"], "upload_time": f["upload_time"],
                   "download_count": f["download_count"]} for f in chunk],
        "pagination": {"page": page, "limit": limit, "total": total, "pages": pages},
    })


@app.route("/api/v1/files/<file_id>", methods=["DELETE"])
@auth_required
def delete_file(file_id):
    f = files.get(file_id)
    if not f:
        return err("File not found", "FILE_NOT_FOUND", 404)
    if f["owner_id"] != g.user_id:
        return err("Access denied", "ACCESS_DENIED", 403)
    try:
        os.remove(f["path"])
    except OSError:
        pass
    del files[file_id]
    for sid in [k for k, v in shares.items() if v["file_id"] == file_id]:
        del shares[sid]
    return jsonify({"success": True, "message": "File deleted successfully"})


@app.route("/api/v1/files/<file_id>/rename", methods=["PUT"])
@auth_required
def rename_file(file_id):
    f = files.get(file_id)
    if not f:
        return err("File not found", "FILE_NOT_FOUND", 404)
    if f["owner_id"] != g.user_id:
        return err("Access denied", "ACCESS_DENIED", 403)
    data = request.get_json(silent=True) or {}
    new_name = data.get("new_name")
    if not new_name or not isinstance(new_name, str) or not new_name.strip():
        return err("new_name is required", "INVALID_INPUT", 400)
    if "/" in new_name or "\\" in new_name:
        return err("Invalid file name", "INVALID_INPUT", 400)
    f["filename"] = new_name.strip()
    return jsonify({"success": True, "message": "File renamed successfully", "new_filename": f["filename"]})


@app.route("/api/v1/files/<file_id>/share", methods=["POST"])
@auth_required
def create_share(file_id):
    f = files.get(file_id)
    if not f:
        return err("File not found", "FILE_NOT_FOUND", 404)
    if f["owner_id"] != g.user_id:
        return err("Access denied", "ACCESS_DENIED", 403)
    data = request.get_json(silent=True) or {}
    is_public = data.get("is_public", True)
    expires_in = data.get("expires_in", 3600)
    password = data.get("password")
    try:
        expires_in = int(expires_in)
    except (TypeError, ValueError):
        return err("Invalid expires_in", "INVALID_INPUT", 400)
    if expires_in <= 0:
        return err("Invalid expires_in", "INVALID_INPUT", 400)
    sid = secrets.token_urlsafe(12)
    exp = datetime.utcnow() + timedelta(seconds=expires_in)
    shares[sid] = {
        "share_id": sid, "file_id": file_id, "owner_id": g.user_id, "is_public": bool(is_public),
        "password": generate_password_hash(password) if password else None,
        "expires_at_dt": exp, "expires_at": iso(exp), "access_count": 0,
    }
    return jsonify({
        "success": True, "share_id": sid, "share_url": "/api/v1/share/%s" % sid,
        "expires_at": iso(exp), "access_count": 0,
    }), 201


@app.route("/api/v1/share/<share_id>", methods=["GET"])
def access_share(share_id):
    s = shares.get(share_id)
    if not s:
        return err("Share link not found", "SHARE_NOT_FOUND", 404)
    if s["expires_at_dt"] < datetime.utcnow():
        return err("Share link expired", "SHARE_EXPIRED", 410)
    if not s["is_public"]:
        uid, _ = get_user_from_token()
        if not uid:
            return err("Authentication required", "AUTH_REQUIRED", 401)
    if s["password"]:
        pw = request.args.get("password")
        if not pw:
            return err("Password required", "AUTH_REQUIRED", 401)
        if not check_password_hash(s["password"], pw):
            return err("Invalid password", "AUTH_INVALID", 403)
    f = files.get(s["file_id"])
    if not f:
        return err("File not found", "FILE_NOT_FOUND", 404)
    s["access_count"] += 1
    url = "/api/v1/files/%s/download?share_token=%s" % (f["file_id"], share_id)
    if s["password"]:
        url += "&password=" + request.args.get("password")
    return jsonify({
        "success": True,
        "file_info": {"filename": f["filename"], "size": f["size"], "mime_type": f["mime_type"]},
        "download_url": url,
    })


@app.route("/api/v1/share/<share_id>", methods=["DELETE"])
@auth_required
def delete_share(share_id):
    s = shares.get(share_id)
    if not s:
        return err("Share link not found", "SHARE_NOT_FOUND", 404)
    if s["owner_id"] != g.user_id:
        return err("Access denied", "ACCESS_DENIED", 403)
    del shares[share_id]
    return jsonify({"success": True, "message": "Share link deleted successfully"})


@app.route("/api/v1/storage/quota", methods=["GET"])
@auth_required
def quota():
    used = used_space(g.user_id)
    total = users[g.user_id]["quota"]
    return jsonify({
        "success": True, "used_space": used, "total_space": total,
        "available_space": total - used,
        "usage_percentage": round(used * 100.0 / total, 2) if total else 0,
    })


@app.errorhandler(404)
def nf(e):
    return err("Not found", "NOT_FOUND", 404)


@app.errorhandler(405)
def mna(e):
    return err("Method not allowed", "METHOD_NOT_ALLOWED", 405)


@app.errorhandler(413)
def too_large(e):
    return err("File too large", "FILE_TOO_LARGE", 413)


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=8080, threaded=True)
