"""Disk storage helpers."""
import mimetypes
import os
import uuid
from typing import Tuple

from fastapi import UploadFile
from sqlalchemy import func
from sqlalchemy.orm import Session

from app.core.config import settings
from app.core.errors import APIError
from app.models import StoredFile, User


def used_space(db: Session, user_id: str) -> int:
    return int(db.query(func.coalesce(func.sum(StoredFile.size), 0)).filter(StoredFile.owner_id == user_id).scalar() or 0)


def safe_filename(name: str) -> str:
    name = os.path.basename((name or "").replace("\\", "/")).strip()
    name = name.replace("\x00", "")
    if not name or name in (".", ".."):
        raise APIError(400, "Invalid filename", "INVALID_FORMAT")
    return name[:255]


def check_extension(name: str) -> None:
    ext = os.path.splitext(name)[1].lower()
    if ext in settings.BLOCKED_EXTENSIONS:
        raise APIError(400, f"File type '{ext}' is not allowed", "INVALID_FORMAT")


def guess_mime(name: str, declared: str = None) -> str:
    guessed, _ = mimetypes.guess_type(name)
    return guessed or declared or "application/octet-stream"


def save_upload(db: Session, user: User, upload: UploadFile) -> Tuple[str, str, int]:
    """Persist an upload to disk, enforcing size & quota. Returns (file_id, path, size)."""
    filename = safe_filename(upload.filename)
    check_extension(filename)
    file_id = uuid.uuid4().hex
    user_dir = os.path.join(settings.STORAGE_DIR, user.id)
    os.makedirs(user_dir, exist_ok=True)
    path = os.path.join(user_dir, file_id)
    remaining = user.quota - used_space(db, user.id)
    size = 0
    try:
        with open(path, "wb") as out:
            while True:
                chunk = upload.file.read(settings.CHUNK_SIZE)
                if not chunk:
                    break
                size += len(chunk)
                if size > settings.MAX_FILE_SIZE:
                    raise APIError(413, "File exceeds maximum size of 100MB", "FILE_TOO_LARGE")
                if size > remaining:
                    raise APIError(413, "Storage quota exceeded", "QUOTA_EXCEEDED")
                out.write(chunk)
    except Exception:
        if os.path.exists(path):
            os.remove(path)
        raise
    if size == 0:
        os.remove(path)
        raise APIError(400, "Empty files are not allowed", "INVALID_FORMAT")
    return file_id, path, size


def remove_file(path: str) -> None:
    try:
        if path and os.path.exists(path):
            os.remove(path)
    except OSError:
        pass
