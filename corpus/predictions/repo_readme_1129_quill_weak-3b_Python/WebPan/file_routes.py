import math
import mimetypes
import os
import uuid

from flask import Blueprint, g, jsonify, request, send_file
from sqlalchemy import func
from werkzeug.utils import secure_filename

import config
from models import File, Share, db
from utils import error, iso, login_required, user_from_request

files_bp = Blueprint("files", __name__, url_prefix="/api/v1")


def used_space(user_id):
    total = db.session.query(func.sum(File.size)).filter(File.owner_id == user_id).scalar()
    return total or 0


def save_upload(f, user, folder_id=None, description=None):
    if f is None or f.filename == "":
        raise ValueError("No file provided")
    content = f.read()
    size = len(content)
    if size > config.MAX_FILE_SIZE:
        raise OverflowError("File too large")
    if used_space(user.id) + size > user.quota:
        raise MemoryError("Storage quota exceeded")
    filename = f.filename
    stored = uuid.uuid4().hex + "_" + secure_filename(filename)
    os.makedirs(config.UPLOAD_FOLDER, exist_ok=True)
    with open(os.path.join(config.UPLOAD_FOLDER, stored), "wb") as out:
        out.write(content)
    mime = f.mimetype or mimetypes.guess_type(filename)[0] or "application/octet-stream"
    rec = File(filename=filename, stored_name=stored, size=size, mime_type=mime,
               folder_id=folder_id, description=description, owner_id=user.id)
    db.session.add(rec)
    db.session.commit()
    return rec


@files_bp.route("/files/upload", methods=["POST"])
@login_required
def upload():
    f = request.files.get("file")
    if f is None:
        return error("No file provided", "INVALID_FORMAT", 400)
    try:
        rec = save_upload(f, g.user, request.form.get("folder_id"), request.form.get("description"))
    except OverflowError as e:
        return error(str(e), "FILE_TOO_LARGE", 413)
    except MemoryError as e:
        return error(str(e), "QUOTA_EXCEEDED", 413)
    except ValueError as e:
        return error(str(e), "INVALID_FORMAT", 400)
    return jsonify({
        "success": True,
        "file_id": rec.id,
        "filename": rec.filename,
        "size": rec.size,
        "upload_time": iso(rec.upload_time),
        "download_url": "/api/v1/files/%s/download" % rec.id,
    }), 201


@files_bp.route("/files/upload-multiple", methods=["POST"])
@login_required
def upload_multiple():
    files = request.files.getlist("files")
    if not files:
        return error("No files provided", "INVALID_FORMAT", 400)
    uploaded = []
    failed = []
    for f in files:
        try:
            rec = save_upload(f, g.user, request.form.get("folder_id"))
            uploaded.append({"file_id": rec.id, "filename": rec.filename, "size": rec.size, "status": "success"})
        except Exception as e:
            failed.append({"filename": f.filename, "error": str(e)})
    return jsonify({"success": True, "uploaded_files": uploaded, "failed_files": failed}), 201


def file_path(rec):
    return os.path.join(config.UPLOAD_FOLDER, rec.stored_name)


@files_bp.route("/files/<file_id>/download", methods=["GET"])
def download(file_id):
    rec = File.query.get(file_id)
    user = user_from_request()
    share_token = request.args.get("share_token") or request.args.get("share_id")
    allowed = False
    if user is not None and rec is not None and rec.owner_id == user.id:
        allowed = True
    elif share_token and rec is not None:
        share = Share.query.get(share_token)
        if share and share.file_id == rec.id:
            allowed = True
    if user is None and not share_token:
        return error("Authentication required", "AUTH_REQUIRED", 401)
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    if not allowed:
        return error("File not found", "FILE_NOT_FOUND", 404)
    rec.download_count = (rec.download_count or 0) + 1
    db.session.commit()
    return send_file(file_path(rec), mimetype=rec.mime_type, as_attachment=True, download_name=rec.filename)


def get_own_file(file_id):
    rec = File.query.get(file_id)
    if rec is None or rec.owner_id != g.user.id:
        return None
    return rec


@files_bp.route("/files/<file_id>/info", methods=["GET"])
@login_required
def info(file_id):
    rec = get_own_file(file_id)
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    return jsonify({
        "success": True,
        "file_id": rec.id,
        "filename": rec.filename,
        "size": rec.size,
        "mime_type": rec.mime_type,
        "upload_time": iso(rec.upload_time),
        "download_count": rec.download_count,
        "owner_id": rec.owner_id,
    })


@files_bp.route("/files", methods=["GET"])
@login_required
def list_files():
    try:
        page = int(request.args.get("page", 1))
        limit = int(request.args.get("limit", 20))
    except ValueError:
        return error("Invalid pagination parameters", "INVALID_INPUT", 400)
    if page < 1:
        page = 1
    if limit < 1:
        limit = 20
    sort_by = request.args.get("sort_by", "upload_time")
    order = request.args.get("order", "desc")
    query = File.query.filter_by(owner_id=g.user.id)
    folder_id = request.args.get("folder_id")
    if folder_id:
        query = query.filter_by(folder_id=folder_id)
    col = {"name": File.filename, "size": File.size, "upload_time": File.upload_time}.get(sort_by, File.upload_time)
    query = query.order_by(col.asc() if order == "asc" else col.desc())
    total = query.count()
    items = query.offset((page - 1) * limit).limit(limit).all()
    return jsonify({
        "success": True,
        "files": [{
            "file_id": r.id,
            "filename": r.filename,
            "size": r.size,
            "mime_type": r.mime_type,
            "upload_time": iso(r.upload_time),
            "download_count": r.download_count,
        } for r in items],
        "pagination": {
            "page": page,
            "limit": limit,
            "total": total,
            "pages": int(math.ceil(total / float(limit))) if total else 0,
        },
    })


@files_bp.route("/files/<file_id>", methods=["DELETE"])
@login_required
def delete_file(file_id):
    rec = get_own_file(file_id)
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    try:
        os.remove(file_path(rec))
    except OSError:
        pass
    Share.query.filter_by(file_id=rec.id).delete()
    db.session.delete(rec)
    db.session.commit()
    return jsonify({"success": True, "message": "File deleted successfully"})


@files_bp.route("/files/<file_id>/rename", methods=["PUT"])
@login_required
def rename_file(file_id):
    rec = get_own_file(file_id)
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    data = request.get_json(silent=True) or {}
    new_name = data.get("new_name")
    if not new_name or not isinstance(new_name, str):
        return error("new_name is required", "INVALID_INPUT", 400)
    rec.filename = new_name
    db.session.commit()
    return jsonify({"success": True, "message": "File renamed successfully", "new_filename": new_name})


@files_bp.route("/storage/quota", methods=["GET"])
@login_required
def quota():
    used = used_space(g.user.id)
    total = g.user.quota
    return jsonify({
        "success": True,
        "used_space": used,
        "total_space": total,
        "available_space": total - used,
        "usage_percentage": round(used * 100.0 / total, 2) if total else 0,
    })
