"""/api/v1/files: upload, download, info, listing, delete, rename."""
import math
from typing import Optional

from flask import Blueprint, g, request, send_file

from ..db import get_db
from ..errors import ACCESS_DENIED, AUTH_REQUIRED, FILE_NOT_FOUND, VALIDATION_ERROR, APIError
from ..security import login_required, optional_user
from ..services import audit, files as file_service
from ..services.share_access import authorize_share_download
from ..utils import absolute_url, json_body, validate_new_name

bp = Blueprint("files", __name__, url_prefix="/api/v1/files")

SORT_COLUMNS = {"name": "filename COLLATE NOCASE", "size": "size", "upload_time": "upload_time"}
MAX_LIMIT = 100


def download_path(file_id: str) -> str:
    return f"/api/v1/files/{file_id}/download"


def _optional_form_text(name: str, max_length: int) -> Optional[str]:
    value = request.form.get(name)
    if value is None or not value.strip():
        return None
    value = value.strip()
    if len(value) > max_length:
        raise APIError(400, VALIDATION_ERROR, f"Field '{name}' must be at most {max_length} characters")
    return value


@bp.post("/upload")
@login_required
def upload():
    upload_file = request.files.get("file")
    if upload_file is None or not upload_file.filename:
        raise APIError(400, VALIDATION_ERROR, "No file provided (multipart field 'file')")
    folder_id = _optional_form_text("folder_id", 255)
    description = _optional_form_text("description", 1000)
    row = file_service.store_upload(g.user, upload_file, folder_id, description)
    audit.record("upload", g.user["id"], row["id"], row["filename"])
    return {
        "success": True,
        "file_id": row["id"],
        "filename": row["filename"],
        "size": row["size"],
        "mime_type": row["mime_type"],
        "upload_time": row["upload_time"],
        "folder_id": row["folder_id"],
        "description": row["description"],
        "download_url": absolute_url(download_path(row["id"])),
    }, 201


@bp.post("/upload-multiple")
@login_required
def upload_multiple():
    uploads = request.files.getlist("files") + request.files.getlist("files[]")
    if not uploads:
        uploads = request.files.getlist("file")
    uploads = [u for u in uploads if u is not None and (u.filename or "").strip()]
    if not uploads:
        raise APIError(400, VALIDATION_ERROR, "No files provided (multipart field 'files')")
    folder_id = _optional_form_text("folder_id", 255)

    uploaded, failed = [], []
    for item in uploads:
        try:
            row = file_service.store_upload(g.user, item, folder_id, None)
        except APIError as exc:
            failed.append({"filename": item.filename, "error": exc.message, "error_code": exc.error_code})
            continue
        audit.record("upload", g.user["id"], row["id"], row["filename"])
        uploaded.append({
            "file_id": row["id"],
            "filename": row["filename"],
            "size": row["size"],
            "mime_type": row["mime_type"],
            "upload_time": row["upload_time"],
            "download_url": absolute_url(download_path(row["id"])),
            "status": "success",
        })

    body = {"success": bool(uploaded), "uploaded_files": uploaded, "failed_files": failed}
    if not uploaded:
        body.update({"error": "None of the files could be uploaded",
                     "error_code": failed[0]["error_code"] if failed else VALIDATION_ERROR})
        return body, 400
    return body, 201


@bp.get("/<file_id>/download")
def download(file_id: str):
    share_token = request.args.get("share_token") or request.args.get("share_id")
    user = optional_user()
    if user is None and not share_token:
        raise APIError(401, AUTH_REQUIRED, "Authentication or a share token is required")
    row = file_service.get_file(file_id)
    if row is None:
        raise APIError(404, FILE_NOT_FOUND, "File not found")

    via_share = None
    if user is None or row["owner_id"] != user["id"]:
        if not share_token:
            raise APIError(403, ACCESS_DENIED, "You do not have access to this file")
        via_share = authorize_share_download(share_token, row, user)

    path = file_service.file_path(row)
    if not path.is_file():
        raise APIError(404, FILE_NOT_FOUND, "File content is missing")
    file_service.increment_downloads(row["id"])
    audit.record("download", user["id"] if user else None, row["id"],
                 f"share={via_share}" if via_share else None)
    return send_file(path, mimetype=row["mime_type"], as_attachment=True,
                     download_name=row["filename"], conditional=True, max_age=0)


@bp.get("/<file_id>/info")
@login_required
def info(file_id: str):
    row = file_service.get_owned_file(file_id, g.user)
    return {
        "success": True,
        "file_id": row["id"],
        "filename": row["filename"],
        "size": row["size"],
        "mime_type": row["mime_type"],
        "upload_time": row["upload_time"],
        "download_count": row["download_count"],
        "owner_id": row["owner_id"],
        "folder_id": row["folder_id"],
        "description": row["description"],
        "sha256": row["sha256"],
        "download_url": absolute_url(download_path(row["id"])),
    }


def _int_arg(name: str, default: int, minimum: int, maximum: Optional[int] = None) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise APIError(400, VALIDATION_ERROR, f"Query parameter '{name}' must be an integer")
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f">= {minimum}" if maximum is None else f"between {minimum} and {maximum}"
        raise APIError(400, VALIDATION_ERROR, f"Query parameter '{name}' must be {bounds}")
    return value


@bp.get("")
@login_required
def list_files():
    page = _int_arg("page", 1, 1)
    limit = _int_arg("limit", 20, 1, MAX_LIMIT)
    sort_by = (request.args.get("sort_by") or "upload_time").strip().lower()
    order = (request.args.get("order") or "desc").strip().lower()
    if sort_by not in SORT_COLUMNS:
        raise APIError(400, VALIDATION_ERROR, "sort_by must be one of: name, size, upload_time")
    if order not in ("asc", "desc"):
        raise APIError(400, VALIDATION_ERROR, "order must be 'asc' or 'desc'")
    folder_id = request.args.get("folder_id")

    where, params = "owner_id = ?", [g.user["id"]]
    if folder_id:
        where += " AND folder_id = ?"
        params.append(folder_id)
    db = get_db()
    total = db.execute(f"SELECT COUNT(*) FROM files WHERE {where}", params).fetchone()[0]
    direction = "ASC" if order == "asc" else "DESC"
    rows = db.execute(
        f"SELECT * FROM files WHERE {where} ORDER BY {SORT_COLUMNS[sort_by]} {direction},"
        f" rowid {direction} LIMIT ? OFFSET ?",
        params + [limit, (page - 1) * limit],
    ).fetchall()
    return {
        "success": True,
        "files": [{
            "file_id": r["id"],
            "filename": r["filename"],
            "size": r["size"],
            "mime_type": r["mime_type"],
            "upload_time": r["upload_time"],
            "download_count": r["download_count"],
            "folder_id": r["folder_id"],
        } for r in rows],
        "pagination": {
            "page": page,
            "limit": limit,
            "total": total,
            "pages": math.ceil(total / limit) if total else 0,
        },
    }


@bp.delete("/<file_id>")
@login_required
def delete(file_id: str):
    row = file_service.get_owned_file(file_id, g.user)
    file_service.delete_file(row)
    audit.record("delete", g.user["id"], file_id, row["filename"])
    return {"success": True, "message": "File deleted successfully"}


@bp.put("/<file_id>/rename")
@login_required
def rename(file_id: str):
    row = file_service.get_owned_file(file_id, g.user)
    data = json_body()
    new_name = validate_new_name(data.get("new_name"))
    file_service.rename_file(row, new_name)
    audit.record("rename", g.user["id"], file_id, f"{row['filename']} -> {new_name}")
    return {"success": True, "message": "File renamed successfully", "new_filename": new_name}
