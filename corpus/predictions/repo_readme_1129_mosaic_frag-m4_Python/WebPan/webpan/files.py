"""File endpoints: upload (single/multiple), download, info, list, delete,
rename, and the storage quota endpoint.

Routes are relative; the application mounts this router under ``/api/v1``.
"""

import logging
import mimetypes
import os
from typing import Any, Dict, List, Optional, Tuple

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import FileResponse, JSONResponse

from . import db
from .auth import get_current_user

logger = logging.getLogger(__name__)

router = APIRouter()

API_PREFIX = "/api/v1"
MAX_FILE_SIZE = 100 * 1024 * 1024            # 100 MB per file
DEFAULT_QUOTA = 10 * 1024 * 1024 * 1024      # 10 GB per user
MAX_FILENAME_LENGTH = 255
MAX_PAGE_LIMIT = 100

# Executable / script types refused to prevent malicious uploads.
BLOCKED_EXTENSIONS = {
    ".exe", ".bat", ".cmd", ".com", ".scr", ".msi", ".vbs", ".vbe",
    ".ps1", ".dll", ".pif", ".cpl", ".jse", ".wsf", ".hta",
}

SORT_FIELDS = {
    "name": "filename",
    "filename": "filename",
    "size": "size",
    "upload_time": "upload_time",
}


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def error_response(status_code: int, error_code: str, message: str,
                   details: Optional[str] = None) -> JSONResponse:
    """Build the README's unified error body."""
    body: Dict[str, Any] = {"success": False, "error": message, "error_code": error_code}
    if details is not None:
        body["details"] = details
    return JSONResponse(status_code=status_code, content=body)


def _file_not_found() -> JSONResponse:
    return error_response(404, "FILE_NOT_FOUND", "File not found")


def _audit(user_id: str, action: str, file_id: Optional[str]) -> None:
    """Record an access/audit log entry; auditing must never break a request."""
    try:
        db.log_access(user_id, action, file_id)
    except Exception:  # pragma: no cover - logging side effect only
        logger.exception("Failed to write audit log for %s on %s", action, file_id)


def _download_url(file_id: str) -> str:
    return "{}/files/{}/download".format(API_PREFIX, file_id)


def sanitize_filename(name: Optional[str]) -> Optional[str]:
    """Strip any directory part and control characters; None if unusable."""
    if not name:
        return None
    name = name.replace("\\", "/").split("/")[-1]
    name = "".join(ch for ch in name if ch >= " " and ch != "\x7f").strip()
    if not name or name in (".", "..") or len(name) > MAX_FILENAME_LENGTH:
        return None
    return name


def _is_malicious(filename: str, content: bytes) -> bool:
    ext = os.path.splitext(filename)[1].lower()
    if ext in BLOCKED_EXTENSIONS:
        return True
    # Windows PE executables disguised under another extension.
    return content[:2] == b"MZ" and content[:1024].find(b"This program cannot be run in DOS mode") != -1


def _guess_mime(filename: str, declared: Optional[str]) -> str:
    if declared and declared != "application/octet-stream":
        return declared
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or declared or "application/octet-stream"


def _owned_file(file_id: str, user_id: str) -> Optional[Dict[str, Any]]:
    """Return the file record if it exists and belongs to ``user_id``."""
    record = db.get_file(file_id)
    if not record or str(record["owner_id"]) != str(user_id):
        return None
    return record


async def _store_upload(upload: UploadFile, user_id: str, used_space: int,
                        folder_id: Optional[str], description: Optional[str]
                        ) -> Tuple[Optional[Dict[str, Any]], Optional[Tuple[int, str, str]]]:
    """Validate and persist one upload.

    Returns ``(file_data, None)`` on success, ``(None, (status, code, message))``
    on failure.
    """
    filename = sanitize_filename(upload.filename)
    if filename is None:
        return None, (400, "INVALID_FORMAT", "Invalid or missing filename")

    content = await upload.read()
    size = len(content)
    if size > MAX_FILE_SIZE:
        return None, (413, "FILE_TOO_LARGE",
                      "File exceeds maximum size of {} bytes".format(MAX_FILE_SIZE))
    if used_space + size > DEFAULT_QUOTA:
        return None, (413, "QUOTA_EXCEEDED", "Storage quota exceeded")
    if _is_malicious(filename, content):
        return None, (400, "INVALID_FORMAT", "File type not allowed")

    mime_type = _guess_mime(filename, upload.content_type)
    record = db.save_file(
        owner_id=user_id,
        filename=filename,
        content=content,
        mime_type=mime_type,
        folder_id=folder_id,
        description=description,
    )
    file_id = record["file_id"]
    _audit(user_id, "upload", file_id)
    return {
        "file_id": file_id,
        "filename": filename,
        "size": size,
        "upload_time": record["upload_time"],
        "download_url": _download_url(file_id),
    }, None


# ---------------------------------------------------------------------------
# Upload
# ---------------------------------------------------------------------------

@router.post("/files/upload")
async def upload_file(
    file: Optional[UploadFile] = File(None),
    folder_id: Optional[str] = Form(None),
    description: Optional[str] = Form(None),
    current_user: Dict[str, Any] = Depends(get_current_user),
):
    user_id = current_user["user_id"]
    if file is None:
        return error_response(400, "INVALID_FORMAT", "No file provided")

    used_space = db.get_used_space(user_id)
    data, error = await _store_upload(file, user_id, used_space, folder_id, description)
    if error is not None:
        status, code, message = error
        return error_response(status, code, message)

    return {"success": True, **data}


@router.post("/files/upload-multiple")
async def upload_multiple_files(
    files: Optional[List[UploadFile]] = File(None),
    folder_id: Optional[str] = Form(None),
    current_user: Dict[str, Any] = Depends(get_current_user),
):
    user_id = current_user["user_id"]
    if not files:
        return error_response(400, "INVALID_FORMAT", "No files provided")

    used_space = db.get_used_space(user_id)
    uploaded: List[Dict[str, Any]] = []
    failed: List[Dict[str, Any]] = []

    for upload in files:
        try:
            data, error = await _store_upload(upload, user_id, used_space, folder_id, None)
        except Exception as exc:
            logger.exception("Upload of %s failed", upload.filename)
            failed.append({"filename": upload.filename or "", "error": str(exc) or "Upload failed"})
            continue
        if error is not None:
            failed.append({"filename": upload.filename or "", "error": error[2]})
            continue
        used_space += data["size"]
        uploaded.append({
            "file_id": data["file_id"],
            "filename": data["filename"],
            "size": data["size"],
            "status": "success",
        })

    return {"success": True, "uploaded_files": uploaded, "failed_files": failed}


# ---------------------------------------------------------------------------
# Download / info
# ---------------------------------------------------------------------------

@router.get("/files/{file_id}/download")
def download_file(file_id: str, current_user: Dict[str, Any] = Depends(get_current_user)):
    user_id = current_user["user_id"]
    record = _owned_file(file_id, user_id)
    if record is None:
        return _file_not_found()

    path = db.get_file_path(file_id)
    if not path or not os.path.isfile(path):
        return _file_not_found()

    db.increment_download_count(file_id)
    _audit(user_id, "download", file_id)
    return FileResponse(
        path,
        media_type=record.get("mime_type") or "application/octet-stream",
        filename=record["filename"],
    )


@router.get("/files/{file_id}/info")
def file_info(file_id: str, current_user: Dict[str, Any] = Depends(get_current_user)):
    user_id = current_user["user_id"]
    record = _owned_file(file_id, user_id)
    if record is None:
        return _file_not_found()

    _audit(user_id, "info", file_id)
    return {
        "success": True,
        "file_id": record["file_id"],
        "filename": record["filename"],
        "size": record["size"],
        "mime_type": record.get("mime_type") or "application/octet-stream",
        "upload_time": record["upload_time"],
        "download_count": record.get("download_count") or 0,
        "owner_id": str(record["owner_id"]),
    }


# ---------------------------------------------------------------------------
# Listing / management
# ---------------------------------------------------------------------------

@router.get("/files")
def list_files(
    page: int = 1,
    limit: int = 20,
    folder_id: Optional[str] = None,
    sort_by: str = "upload_time",
    order: str = "desc",
    current_user: Dict[str, Any] = Depends(get_current_user),
):
    user_id = current_user["user_id"]

    if page < 1:
        return error_response(400, "INVALID_PARAMETER", "page must be >= 1")
    if limit < 1:
        return error_response(400, "INVALID_PARAMETER", "limit must be >= 1")
    limit = min(limit, MAX_PAGE_LIMIT)

    sort_key = SORT_FIELDS.get((sort_by or "").lower())
    if sort_key is None:
        return error_response(400, "INVALID_PARAMETER",
                              "sort_by must be one of: name, size, upload_time")
    order = (order or "").lower()
    if order not in ("asc", "desc"):
        return error_response(400, "INVALID_PARAMETER", "order must be 'asc' or 'desc'")

    records = list(db.list_files(user_id))
    if folder_id is not None:
        records = [r for r in records if r.get("folder_id") == folder_id]

    if sort_key == "filename":
        key_func = lambda r: (r.get("filename") or "").lower()
    elif sort_key == "size":
        key_func = lambda r: r.get("size") or 0
    else:
        key_func = lambda r: r.get("upload_time") or ""
    records.sort(key=key_func, reverse=(order == "desc"))

    total = len(records)
    pages = (total + limit - 1) // limit
    start = (page - 1) * limit
    items = records[start:start + limit]

    return {
        "success": True,
        "files": [
            {
                "file_id": r["file_id"],
                "filename": r["filename"],
                "size": r["size"],
                "mime_type": r.get("mime_type") or "application/octet-stream",
                "upload_time": r["upload_time"],
                "download_count": r.get("download_count") or 0,
            }
            for r in items
        ],
        "pagination": {"page": page, "limit": limit, "total": total, "pages": pages},
    }


@router.delete("/files/{file_id}")
def delete_file(file_id: str, current_user: Dict[str, Any] = Depends(get_current_user)):
    user_id = current_user["user_id"]
    if _owned_file(file_id, user_id) is None:
        return _file_not_found()

    db.delete_file(file_id)
    _audit(user_id, "delete", file_id)
    return {"success": True, "message": "File deleted successfully"}


@router.put("/files/{file_id}/rename")
async def rename_file(file_id: str, request: Request,
                      current_user: Dict[str, Any] = Depends(get_current_user)):
    user_id = current_user["user_id"]

    try:
        body = await request.json()
    except Exception:
        return error_response(400, "INVALID_REQUEST", "Request body must be valid JSON")
    if not isinstance(body, dict):
        return error_response(400, "INVALID_REQUEST", "Request body must be a JSON object")

    new_name = body.get("new_name")
    if not isinstance(new_name, str) or not new_name.strip():
        return error_response(400, "INVALID_REQUEST", "new_name is required")
    new_name = new_name.strip()
    if ("/" in new_name or "\\" in new_name or new_name in (".", "..")
            or len(new_name) > MAX_FILENAME_LENGTH
            or any(ch < " " or ch == "\x7f" for ch in new_name)):
        return error_response(400, "INVALID_REQUEST", "Invalid file name")
    if os.path.splitext(new_name)[1].lower() in BLOCKED_EXTENSIONS:
        return error_response(400, "INVALID_FORMAT", "File type not allowed")

    if _owned_file(file_id, user_id) is None:
        return _file_not_found()

    db.rename_file(file_id, new_name)
    _audit(user_id, "rename", file_id)
    return {"success": True, "message": "File renamed successfully", "new_filename": new_name}


# ---------------------------------------------------------------------------
# Storage quota
# ---------------------------------------------------------------------------

@router.get("/storage/quota")
def storage_quota(current_user: Dict[str, Any] = Depends(get_current_user)):
    user_id = current_user["user_id"]
    used = int(db.get_used_space(user_id) or 0)
    total = DEFAULT_QUOTA
    available = max(total - used, 0)
    return {
        "success": True,
        "used_space": used,
        "total_space": total,
        "available_space": available,
        "usage_percentage": round(used / total * 100, 2) if total else 0.0,
    }
