from datetime import datetime, timedelta

from flask import Blueprint, g, jsonify, request
from werkzeug.security import check_password_hash, generate_password_hash

from models import File, Share, db
from utils import error, iso, login_required

share_bp = Blueprint("share", __name__, url_prefix="/api/v1")


@share_bp.route("/files/<file_id>/share", methods=["POST"])
@login_required
def create_share(file_id):
    rec = File.query.get(file_id)
    if rec is None or rec.owner_id != g.user.id:
        return error("File not found", "FILE_NOT_FOUND", 404)
    data = request.get_json(silent=True) or {}
    is_public = data.get("is_public", True)
    expires_in = data.get("expires_in", 3600)
    password = data.get("password")
    try:
        expires_in = int(expires_in)
    except (TypeError, ValueError):
        return error("Invalid expires_in", "INVALID_INPUT", 400)
    share = Share(
        file_id=rec.id,
        owner_id=g.user.id,
        is_public=bool(is_public),
        password_hash=generate_password_hash(password) if password else None,
        expires_at=datetime.utcnow() + timedelta(seconds=expires_in),
    )
    db.session.add(share)
    db.session.commit()
    return jsonify({
        "success": True,
        "share_id": share.id,
        "share_url": "/api/v1/share/%s" % share.id,
        "expires_at": iso(share.expires_at),
        "access_count": share.access_count,
    }), 201


@share_bp.route("/share/<share_id>", methods=["GET"])
def access_share(share_id):
    share = Share.query.get(share_id)
    if share is None:
        return error("Share link not found", "SHARE_NOT_FOUND", 404)
    if share.expires_at and share.expires_at < datetime.utcnow():
        return error("Share link expired", "SHARE_EXPIRED", 410)
    if share.password_hash:
        password = request.args.get("password")
        if not password or not check_password_hash(share.password_hash, password):
            return error("Invalid share password", "AUTH_INVALID", 401)
    rec = File.query.get(share.file_id)
    if rec is None:
        return error("File not found", "FILE_NOT_FOUND", 404)
    share.access_count = (share.access_count or 0) + 1
    db.session.commit()
    return jsonify({
        "success": True,
        "file_info": {"filename": rec.filename, "size": rec.size, "mime_type": rec.mime_type},
        "download_url": "/api/v1/files/%s/download?share_token=%s" % (rec.id, share.id),
    })


@share_bp.route("/share/<share_id>", methods=["DELETE"])
@login_required
def delete_share(share_id):
    share = Share.query.get(share_id)
    if share is None or share.owner_id != g.user.id:
        return error("Share link not found", "SHARE_NOT_FOUND", 404)
    db.session.delete(share)
    db.session.commit()
    return jsonify({"success": True, "message": "Share link deleted successfully"})
