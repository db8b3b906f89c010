"""File, sharing and storage routes for WebPan.

All paths here are relative; ``main.py`` mounts this router under
``/api/v1``.  Errors are returned directly in the unified format
``{"success": false, "error": ..., "error_code": ..., "details": ...}``.
"""

import logging
import math
import mimetypes
import os
import secrets
import uuid
from datetime import datetime, timedelta, timezone
from typing import List, Optional
from urllib.parse import quote

from fastapi import APIRouter, Depends, File, Form, Query, Request, UploadFile
from fastapi.responses import FileResponse, JSONResponse
from sqlalchemy import func
from sqlalchemy.orm import Session

import config
from auth import get_current_user, hash_password, verify_password, verify_token
from database import ShareLink, StoredFile, User, get_db

logger = logging.getLogger("webpan.files")

router = APIRouter()

CHUNK_SIZE = 1024 * 1024
BLOCKED_EXTENSIONS = {
    ".exe", ".bat", ".cmd", ".com", ".scr", ".msi", ".vbs", ".pif", ".cpl", ".jar",
}
SORT_FIELDS = {
    "name": StoredFile.filename,
    "size": StoredFile.size,
    "upload_time": StoredFile.upload_time,
}


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

class UploadRejected(Exception):
    """Raised while storing an upload; carries the error response fields."""

    def __init__(self, status_code: int, error: str, error_code: str, details: Optional[str] = None):
        super().__init__(error)
        self.status_code = status_code
        self.error = error
        self.error_code = error_code
        self.details = details


def error_response(status_code: int, error: str, error_code: str, details: Optional[str] = None) -> JSONResponse:
    body = {"success": False, "error": error, "error_code": error_code}
    if details is not None:
        body["details"] = details
    return JSONResponse(status_code=status_code, content=body)


def utcnow() -> datetime:
    return datetime.utcnow()


def to_naive_utc(value: Optional[datetime]) -> Optional[datetime]:
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(timezone.utc).replace(tzinfo=None)
    return value


def iso(value: Optional[datetime]) -> Optional[str]:
    value = to_naive_utc(value)
    if value is None:
        return None
    return value.replace(microsecond=0).isoformat() + "Z"


def ensure_storage_dir() -> str:
    os.makedirs(config.STORAGE_DIR, exist_ok=True)
    return config.STORAGE_DIR


def sanitize_filename(name: Optional[str]) -> Optional[str]:
    """Strip directory components and control characters; None if unusable."""
    if name is None:
        return None
    name = name.replace("\\", "/").split("/")[-1]
    name = "".join(ch for ch in name if ch >= " " and ch != "\x7f").strip()
    if not name or name in (".", "..") or len(name) > 255:
        return None
    return name


def is_blocked(filename: str) -> bool:
    return os.path.splitext(filename)[1].lower() in BLOCKED_EXTENSIONS


def guess_mime(filename: str, declared: Optional[str]) -> str:
    guessed, _ = mimetypes.guess_type(filename)
    if guessed:
        return guessed
    if declared and declared != "application/octet-stream":
        return declared
    return "application/octet-stream"


def used_space(db: Session, owner_id) -> int:
    total = db.query(func.coalesce(func.sum(StoredFile.size), 0)).filter(
        StoredFile.owner_id == owner_id
    ).scalar()
    return int(total or 0)


def download_url(file_id: str) -> str:
    return f"/api/v1/files/{file_id}/download"


def get_owned_file(db: Session, file_id: str, user: User) -> Optional[StoredFile]:
    record = db.query(StoredFile).filter(StoredFile.id == file_id).first()
    if record is None or str(record.owner_id) != str(user.id):
        return None
    return record


def share_is_expired(share: ShareLink) -> bool:
    expires_at = to_naive_utc(share.expires_at)
    return expires_at is not None and expires_at <= utcnow()


def bearer_user_id(request: Request) -> Optional[str]:
    """Return the user id of a valid bearer token in the request, if any."""
    header = request.headers.get("Authorization", "")
    parts = header.split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
        return None
    try:
        user_id = verify_token(parts[1].strip())
    except Exception:
        return None
    if user_id is None:
        return None
    return str(user_id)


async def read_json(request: Request) -> Optional[dict]:
    try:
        body = await request.body()
        if not body:
            return {}
        data = await request.json()
    except Exception:
        return None
    return data if isinstance(data, dict) else None


async def store_upload(
    db: Session,
    user: User,
    upload: UploadFile,
    folder_id: Optional[str],
    description: Optional[str],
) -> StoredFile:
    """Validate and persist one uploaded file; raises UploadRejected."""
    filename = sanitize_filename(upload.filename)
    if filename is None:
        raise UploadRejected(400, "Invalid or missing filename", "INVALID_FORMAT")
    if is_blocked(filename):
        raise UploadRejected(
            400, "File type not allowed", "INVALID_FORMAT",
            f"Extension {os.path.splitext(filename)[1]} is blocked",
        )

    ensure_storage_dir()
    file_id = uuid.uuid4().hex
    path = os.path.join(config.STORAGE_DIR, file_id)
    available = config.DEFAULT_QUOTA - used_space(db, user.id)

    size = 0
    try:
        with open(path, "wb") as out:
            while True:
                chunk = await upload.read(CHUNK_SIZE)
                if not chunk:
                    break
                size += len(chunk)
                if size > config.MAX_FILE_SIZE:
                    raise UploadRejected(
                        413, "File too large", "FILE_TOO_LARGE",
                        f"Maximum file size is {config.MAX_FILE_SIZE} bytes",
                    )
                if size > available:
                    raise UploadRejected(
                        507, "Storage quota exceeded", "QUOTA_EXCEEDED",
                        f"Available space is {max(available, 0)} bytes",
                    )
                out.write(chunk)
    except BaseException:
        if os.path.exists(path):
            os.remove(path)
        raise
    finally:
        await upload.close()

    record = StoredFile(
        id=file_id,
        owner_id=user.id,
        filename=filename,
        storage_path=path,
        size=size,
        mime_type=guess_mime(filename, upload.content_type),
        description=description,
        folder_id=folder_id,
        upload_time=utcnow(),
        download_count=0,
    )
    db.add(record)
    try:
        db.commit()
    except Exception:
        db.rollback()
        if os.path.exists(path):
            os.remove(path)
        raise
    db.refresh(record)
    logger.info("user=%s uploaded file=%s name=%s size=%d", user.id, file_id, filename, size)
    return record


def remove_physical(record: StoredFile) -> None:
    path = record.storage_path
    try:
        if path and os.path.exists(path):
            os.remove(path)
    except OSError:
        logger.warning("could not remove stored file %s", path)


# ---------------------------------------------------------------------------
# upload
# ---------------------------------------------------------------------------

@router.post("/files/upload")
async def upload_file(
    file: Optional[UploadFile] = File(None),
    folder_id: Optional[str] = Form(None),
    description: Optional[str] = Form(None),
    current_user: User = Depends(get_current_user),
    db: Session = Depends(get_db),
):
    if file is None or not file.filename:
        return error_response(400, "No file provided", "INVALID_REQUEST", "Form field 'file' is required")
    try:
        record = await store_upload(db, current_user, file, folder_id, description)
    except UploadRejected as exc:
        return error_response(exc.status_code, exc.error, exc.error_code, exc.details)
    return {
        "success": True,
        "file_id": record.id,
        "filename": record.filename,
        "size": record.size,
        "upload_time": iso(record.upload_time),
        "download_url": download_url(record.id),
    }


@router.post("/files/upload-multiple")
async def upload_multiple(
    files: Optional[List[UploadFile]] = File(None),
    folder_id: Optional[str] = Form(None),
    current_user: User = Depends(get_current_user),
    db: Session = Depends(get_db),
):
    if not files:
        return error_response(400, "No files provided", "INVALID_REQUEST", "Form field 'files' is required")
    uploaded, failed = [], []
    for upload in files:
        name = upload.filename or ""
        try:
            record = await store_upload(db, current_user, upload, folder_id, None)
        except UploadRejected as exc:
            failed.append({"filename": name, "error": exc.error})
            continue
        uploaded.append({
            "file_id": record.id,
            "filename": record.filename,
            "size": record.size,
            "status": "success",
        })
    return {"success": len(uploaded) > 0, "uploaded_files": uploaded, "failed_files": failed}


# ---------------------------------------------------------------------------
# download / info
# ---------------------------------------------------------------------------

@router.get("/files/{file_id}/download")
def download_file(
    file_id: str,
    request: Request,
    share_id: Optional[str] = Query(None),
    password: Optional[str] = Query(None),
    db: Session = Depends(get_db),
):
    record = db.query(StoredFile).filter(StoredFile.id == file_id).first()
    user_id = bearer_user_id(request)
    has_auth_header = bool(request.headers.get("Authorization"))

    allowed = record is not None and user_id is not None and str(record.owner_id) == user_id

    if not allowed and share_id:
        share = db.query(ShareLink).filter(ShareLink.id == share_id).first()
        if share is None or record is None or str(share.file_id) != str(record.id):
            return error_response(404, "Share link not found", "SHARE_NOT_FOUND")
        if share_is_expired(share):
            return error_response(410, "Share link expired", "SHARE_EXPIRED")
        if share.password_hash:
            if not password:
                return error_response(401, "Password required", "AUTH_REQUIRED")
            if not verify_password(password, share.password_hash):
                return error_response(403, "Invalid share password", "AUTH_INVALID")
        elif not share.is_public and user_id is None:
            return error_response(401, "Authentication required", "AUTH_REQUIRED")
        allowed = True

    if not allowed:
        if user_id is None:
            if has_auth_header:
                return error_response(401, "Invalid or expired token", "AUTH_INVALID")
            return error_response(401, "Authentication required", "AUTH_REQUIRED")
        return error_response(404, "File not found", "FILE_NOT_FOUND")

    if not record.storage_path or not os.path.exists(record.storage_path):
        return error_response(404, "File not found", "FILE_NOT_FOUND", "Stored content is missing")

    record.download_count = (record.download_count or 0) + 1
    db.commit()
    logger.info("file=%s downloaded by=%s share=%s", record.id, user_id, share_id)
    return FileResponse(
        record.storage_path,
        media_type=record.mime_type or "application/octet-stream",
        filename=record.filename,
    )


@router.get("/files/{file_id}/info")
def file_info(
    file_id: str,
    current_user: User = Depends(get_current_user),
    db: Session = Depends(get_db),
):
    record = get_owned_file(db, file_id, current_user)
    if record is None:
        return error_response(404, "File not found", "FILE_NOT_FOUND")
    return {
        "success": True,
        "file_id": record.id,
        "filename": record.filename,
        "size": record.size,
        "mime_type": record.mime_type,
        "upload_time": iso(record.upload_time),
        "download_count": record.download_count or 0,
        "owner_id": str(record.owner_id),
    }


# ---------------------------------------------------------------------------
# management
# ---------------------------------------------------------------------------

@router.get("/files")
def list_files(
    page: str = Query("1"),
    limit: str = Query("20"),
    folder_id: Optional[str] = Query(None),
    sort_by: str = Query("upload_time"),
    order: str = Query("desc"),
    current_user: User = Depends(get_current_user),
    db: Session = Depends(get_db),
):
    try:
        page_num = int(page)
        limit_num = int(limit)
    except (TypeError, ValueError):
        return error_response(400, "page and limit must be integers", "INVALID_PARAMETER")
    if page_num < 1:
        return error_response(400, "page must be >= 1", "INVALID_PARAMETER")
    if limit_num < 1 or limit_num > 100:
        return error_response(400, "limit must be between 1 and 100", "INVALID_PARAMETER")
    if sort_by not in SORT_FIELDS:
        return error_response(400, "sort_by must be one of: name, size, upload_time", "INVALID_PARAMETER")
    order = (order or "").lower()
    if order not in ("asc", "desc"):
        return error_response(400, "order must be 'asc' or 'desc'", "INVALID_PARAMETER")

    query = db.query(StoredFile).filter(StoredFile.owner_id == current_user.id)
    if folder_id:
        query = query.filter(StoredFile.folder_id == folder_id)

    total = query.count()
    column = SORT_FIELDS[sort_by]
    query = query.order_by(column.asc() if order == "asc" else column.desc(), StoredFile.id.asc())
    records = query.offset((page_num - 1) * limit_num).limit(limit_num).all()

    return {
        "success": True,
        "files": [
            {
                "file_id": r.id,
                "filename": r.filename,
                "size": r.size,
                "mime_type": r.mime_type,
                "upload_time": iso(r.upload_time),
                "download_count": r.download_count or 0,
            }
            for r in records
        ],
        "pagination": {
            "page": page_num,
            "limit": limit_num,
            "total": total,
            "pages": math.ceil(total / limit_num) if total else 0,
        },
    }


@router.delete("/files/{file_id}")
def delete_file(
    file_id: str,
    current_user: User = Depends(get_current_user),
    db: Session = Depends(get_db),
):
    record = get_owned_file(db, file_id, current_user)
    if record is None:
        return error_response(404, "File not found", "FILE_NOT_FOUND")
    db.query(ShareLink).filter(ShareLink.file_id == record.id).delete(synchronize_session=False)
    remove_physical(record)
    db.delete(record)
    db.commit()
    logger.info("user=%s deleted file=%s", current_user.id, file_id)
    return {"success": True, "message": "File deleted successfully"}


@router.put("/files/{file_id}/rename")
async def rename_file(
    file_id: str,
    request: Request,
    current_user: User = Depends(get_current_user),
    db: Session = Depends(get_db),
):
    payload = await read_json(request)
    if payload is None:
        return error_response(400, "Request body must be a JSON object", "INVALID_REQUEST")
    raw_name = payload.get("new_name")
    if not isinstance(raw_name, str) or not raw_name.strip():
        return error_response(400, "new_name is required", "INVALID_REQUEST")
    new_name = sanitize_filename(raw_name)
    if new_name is None or new_name != raw_name.strip():
        return error_response(400, "Invalid file name", "INVALID_FORMAT")
    if is_blocked(new_name):
        return error_response(400, "File type not allowed", "INVALID_FORMAT")

    record = get_owned_file(db, file_id, current_user)
    if record is None:
        return error_response(404, "File not found", "FILE_NOT_FOUND")
    record.filename = new_name
    record.mime_type = guess_mime(new_name, record.mime_type)
    db.commit()
    logger.info("user=%s renamed file=%s to %s", current_user.id, file_id, new_name)
    return {"success": True, "message": "File renamed successfully", "new_filename": new_name}


# ---------------------------------------------------------------------------
# sharing
# ---------------------------------------------------------------------------

@router.post("/files/{file_id}/share")
async def create_share(
    file_id: str,
    request: Request,
    current_user: User = Depends(get_current_user),
    db: Session = Depends(get_db),
):
    payload = await read_json(request)
    if payload is None:
        return error_response(400, "Request body must be a JSON object", "INVALID_REQUEST")

    is_public = payload.get("is_public", True)
    if not isinstance(is_public, bool):
        return error_response(400, "is_public must be a boolean", "INVALID_REQUEST")

    expires_in = payload.get("expires_in", 3600)
    if expires_in is not None:
        if isinstance(expires_in, bool) or not isinstance(expires_in, int) or expires_in <= 0:
            return error_response(400, "expires_in must be a positive integer", "INVALID_REQUEST")

    password = payload.get("password")
    if password is not None and not isinstance(password, str):
        return error_response(400, "password must be a string", "INVALID_REQUEST")

    record = get_owned_file(db, file_id, current_user)
    if record is None:
        return error_response(404, "File not found", "FILE_NOT_FOUND")

    now = utcnow()
    share = ShareLink(
        id=secrets.token_urlsafe(16),
        file_id=record.id,
        owner_id=current_user.id,
        is_public=is_public,
        password_hash=hash_password(password) if password else None,
        expires_at=(now + timedelta(seconds=expires_in)) if expires_in else None,
        access_count=0,
        created_at=now,
    )
    db.add(share)
    db.commit()
    db.refresh(share)
    logger.info("user=%s shared file=%s share=%s", current_user.id, record.id, share.id)
    return {
        "success": True,
        "share_id": share.id,
        "share_url": f"/api/v1/share/{share.id}",
        "expires_at": iso(share.expires_at),
        "access_count": share.access_count or 0,
    }


@router.get("/share/{share_id}")
def access_share(
    share_id: str,
    request: Request,
    password: Optional[str] = Query(None),
    db: Session = Depends(get_db),
):
    share = db.query(ShareLink).filter(ShareLink.id == share_id).first()
    if share is None:
        return error_response(404, "Share link not found", "SHARE_NOT_FOUND")
    if share_is_expired(share):
        return error_response(410, "Share link expired", "SHARE_EXPIRED")

    if share.password_hash:
        if not password:
            return error_response(401, "Password required", "AUTH_REQUIRED")
        if not verify_password(password, share.password_hash):
            return error_response(403, "Invalid share password", "AUTH_INVALID")
    elif not share.is_public and bearer_user_id(request) is None:
        return error_response(401, "Authentication required", "AUTH_REQUIRED")

    record = db.query(StoredFile).filter(StoredFile.id == share.file_id).first()
    if record is None:
        return error_response(404, "File not found", "FILE_NOT_FOUND")

    share.access_count = (share.access_count or 0) + 1
    db.commit()

    url = f"{download_url(record.id)}?share_id={quote(share.id, safe='')}"
    if password:
        url += f"&password={quote(password, safe='')}"
    logger.info("share=%s accessed file=%s", share.id, record.id)
    return {
        "success": True,
        "file_info": {
            "filename": record.filename,
            "size": record.size,
            "mime_type": record.mime_type,
        },
        "download_url": url,
    }


@router.delete("/share/{share_id}")
def delete_share(
    share_id: str,
    current_user: User = Depends(get_current_user),
    db: Session = Depends(get_db),
):
    share = db.query(ShareLink).filter(ShareLink.id == share_id).first()
    if share is None or str(share.owner_id) != str(current_user.id):
        return error_response(404, "Share link not found", "SHARE_NOT_FOUND")
    db.delete(share)
    db.commit()
    logger.info("user=%s deleted share=%s", current_user.id, share_id)
    return {"success": True, "message": "Share link deleted successfully"}


# ---------------------------------------------------------------------------
# storage
# ---------------------------------------------------------------------------

@router.get("/storage/quota")
def storage_quota(
    current_user: User = Depends(get_current_user),
    db: Session = Depends(get_db),
):
    used = used_space(db, current_user.id)
    total = int(config.DEFAULT_QUOTA)
    available = max(total - used, 0)
    percentage = round(used / total * 100, 2) if total else 0.0
    return {
        "success": True,
        "used_space": used,
        "total_space": total,
        "available_space": available,
        "usage_percentage": percentage,
    }
