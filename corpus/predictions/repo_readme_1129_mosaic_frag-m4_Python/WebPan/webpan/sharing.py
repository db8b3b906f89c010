"""Share endpoints: create share links, access a share, revoke a share."""

import secrets
from datetime import datetime, timedelta, timezone
from typing import Optional

from fastapi import APIRouter, Body, Depends, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from webpan import db
from webpan.auth import get_current_user, hash_password, verify_password

router = APIRouter(tags=["sharing"])

API_PREFIX = "/api/v1"


class ShareCreateRequest(BaseModel):
    is_public: bool = True
    expires_in: Optional[int] = None
    password: Optional[str] = None


def _error(status_code: int, error: str, error_code: str, details: Optional[str] = None):
    body = {"success": False, "error": error, "error_code": error_code}
    if details is not None:
        body["details"] = details
    return JSONResponse(status_code=status_code, content=body)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _to_iso(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_iso(value) -> Optional[datetime]:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    text = str(value)
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    parsed = datetime.fromisoformat(text)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed


def _download_url(file_id: str, share_id: str) -> str:
    return f"{API_PREFIX}/files/{file_id}/download?share_token={share_id}"


@router.post("/files/{file_id}/share")
def create_share(
    file_id: str,
    payload: Optional[ShareCreateRequest] = Body(None),
    user: dict = Depends(get_current_user),
):
    if payload is None:
        payload = ShareCreateRequest()

    user_id = user["user_id"]

    file_record = db.get_file(file_id)
    if file_record is None or file_record["owner_id"] != user_id:
        return _error(404, "File not found", "FILE_NOT_FOUND")

    if payload.expires_in is not None and payload.expires_in <= 0:
        return _error(
            400,
            "Invalid expiration",
            "INVALID_REQUEST",
            "expires_in must be a positive number of seconds",
        )
    if payload.password is not None and payload.password == "":
        return _error(
            400,
            "Invalid password",
            "INVALID_REQUEST",
            "password must not be empty when provided",
        )

    share_id = secrets.token_urlsafe(12)
    expires_at = None
    if payload.expires_in is not None:
        expires_at = _to_iso(_now() + timedelta(seconds=payload.expires_in))
    password_hash = hash_password(payload.password) if payload.password else None

    db.create_share(
        share_id=share_id,
        file_id=file_id,
        owner_id=user_id,
        is_public=payload.is_public,
        password_hash=password_hash,
        expires_at=expires_at,
    )
    db.log_access(user_id, "share_create", share_id, f"file_id={file_id}")

    return {
        "success": True,
        "share_id": share_id,
        "share_url": f"{API_PREFIX}/share/{share_id}",
        "expires_at": expires_at,
        "access_count": 0,
    }


@router.get("/share/{share_id}")
def access_share(share_id: str, password: Optional[str] = Query(None)):
    share = db.get_share(share_id)
    if share is None:
        return _error(404, "Share link not found", "SHARE_NOT_FOUND")

    expires_at = _parse_iso(share.get("expires_at"))
    if expires_at is not None and expires_at <= _now():
        return _error(410, "Share link expired", "SHARE_EXPIRED")

    password_hash = share.get("password_hash")
    if password_hash:
        if not password:
            return _error(
                401,
                "Password required to access this share",
                "AUTH_REQUIRED",
            )
        if not verify_password(password, password_hash):
            return _error(403, "Invalid share password", "AUTH_INVALID")

    file_record = db.get_file(share["file_id"])
    if file_record is None:
        return _error(404, "File not found", "FILE_NOT_FOUND")

    db.increment_share_access(share_id)
    db.log_access(None, "share_access", share_id, f"file_id={share['file_id']}")

    return {
        "success": True,
        "file_info": {
            "filename": file_record["filename"],
            "size": file_record["size"],
            "mime_type": file_record["mime_type"],
        },
        "download_url": _download_url(share["file_id"], share_id),
    }


@router.delete("/share/{share_id}")
def delete_share(share_id: str, user: dict = Depends(get_current_user)):
    user_id = user["user_id"]

    share = db.get_share(share_id)
    if share is None:
        return _error(404, "Share link not found", "SHARE_NOT_FOUND")
    if share["owner_id"] != user_id:
        return _error(
            403,
            "You do not have permission to delete this share",
            "ACCESS_DENIED",
        )

    db.delete_share(share_id)
    db.log_access(user_id, "share_delete", share_id, f"file_id={share['file_id']}")

    return {"success": True, "message": "Share link deleted successfully"}
