import math
from datetime import datetime, timedelta
from typing import List, Optional

from fastapi import APIRouter, Depends, File, Form, Query, Request, UploadFile
from fastapi.responses import FileResponse, JSONResponse
from sqlalchemy.orm import Session

from app.core.config import settings
from app.core.errors import APIError
from app.core.security import hash_password, verify_password
from app.db import get_db
from app.deps import get_current_user, get_optional_user
from app.models import Share, StoredFile, User, utcnow
from app.schemas import RenameRequest, ShareRequest, iso
from app.services import audit, storage

router = APIRouter(tags=["files"])


def _ip(request: Request) -> Optional[str]:
    return request.client.host if request.client else None


def _abs(request: Request, path: str) -> str:
    return str(request.base_url).rstrip("/") + path


def _download_path(file_id: str) -> str:
    return f"{settings.API_PREFIX}/files/{file_id}/download"


def _get_owned_file(db: Session, file_id: str, user: User) -> StoredFile:
    f = db.get(StoredFile, file_id)
    if not f:
        raise APIError(404, "File not found", "FILE_NOT_FOUND")
    if f.owner_id != user.id:
        raise APIError(403, "You do not have access to this file", "ACCESS_DENIED")
    return f


def _get_share(db: Session, share_id: str) -> Share:
    share = db.get(Share, share_id)
    if not share:
        raise APIError(404, "Share link not found", "SHARE_NOT_FOUND")
    if share.expires_at is not None and share.expires_at < utcnow():
        raise APIError(410, "Share link has expired", "SHARE_EXPIRED")
    return share


def _check_share_access(share: Share, password: Optional[str], user: Optional[User]) -> None:
    if user is not None and user.id == share.owner_id:
        return
    if share.password_hash:
        if not password:
            raise APIError(401, "Password required for this share", "AUTH_REQUIRED")
        if not verify_password(password, share.password_hash):
            raise APIError(403, "Invalid share password", "AUTH_INVALID")
        return
    if not share.is_public and user is None:
        raise APIError(401, "Authentication required for private share", "AUTH_REQUIRED")


# ---------------------------------------------------------------- uploads
@router.post("/files/upload")
def upload_file(request: Request,
                file: UploadFile = File(...),
                folder_id: Optional[str] = Form(None),
                description: Optional[str] = Form(None),
                user: User = Depends(get_current_user),
                db: Session = Depends(get_db)):
    file_id, path, size = storage.save_upload(db, user, file)
    name = storage.safe_filename(file.filename)
    rec = StoredFile(id=file_id, owner_id=user.id, filename=name, storage_path=path, size=size,
                     mime_type=storage.guess_mime(name, file.content_type), folder_id=folder_id or None,
                     description=description)
    db.add(rec)
    db.commit()
    db.refresh(rec)
    audit.record(db, "upload", user_id=user.id, file_id=rec.id, detail=name, ip=_ip(request))
    return JSONResponse(status_code=201, content={
        "success": True,
        "file_id": rec.id,
        "filename": rec.filename,
        "size": rec.size,
        "upload_time": iso(rec.upload_time),
        "download_url": _abs(request, _download_path(rec.id)),
    })


@router.post("/files/upload-multiple")
def upload_multiple(request: Request,
                    files: List[UploadFile] = File(...),
                    folder_id: Optional[str] = Form(None),
                    user: User = Depends(get_current_user),
                    db: Session = Depends(get_db)):
    uploaded, failed = [], []
    for up in files:
        try:
            file_id, path, size = storage.save_upload(db, user, up)
            name = storage.safe_filename(up.filename)
            rec = StoredFile(id=file_id, owner_id=user.id, filename=name, storage_path=path, size=size,
                             mime_type=storage.guess_mime(name, up.content_type), folder_id=folder_id or None)
            db.add(rec)
            db.commit()
            uploaded.append({"file_id": file_id, "filename": name, "size": size, "status": "success"})
            audit.record(db, "upload", user_id=user.id, file_id=file_id, detail=name, ip=_ip(request))
        except APIError as exc:
            db.rollback()
            failed.append({"filename": up.filename or "", "error": exc.error, "error_code": exc.error_code})
        except Exception as exc:  # noqa: BLE001
            db.rollback()
            failed.append({"filename": up.filename or "", "error": str(exc)})
    status = 201 if uploaded else 400
    return JSONResponse(status_code=status, content={
        "success": bool(uploaded), "uploaded_files": uploaded, "failed_files": failed,
    })


# ---------------------------------------------------------------- download / info
@router.get("/files/{file_id}/download")
def download_file(file_id: str, request: Request,
                  share_token: Optional[str] = Query(None),
                  share_id: Optional[str] = Query(None),
                  password: Optional[str] = Query(None),
                  user: Optional[User] = Depends(get_optional_user),
                  db: Session = Depends(get_db)):
    f = db.get(StoredFile, file_id)
    token = share_token or share_id
    if token:
        share = _get_share(db, token)
        if share.file_id != file_id:
            raise APIError(404, "Share link not found", "SHARE_NOT_FOUND")
        _check_share_access(share, password, user)
    else:
        if user is None:
            raise APIError(401, "Authentication required", "AUTH_REQUIRED")
        if not f:
            raise APIError(404, "File not found", "FILE_NOT_FOUND")
        if f.owner_id != user.id:
            raise APIError(403, "You do not have access to this file", "ACCESS_DENIED")
    if not f:
        raise APIError(404, "File not found", "FILE_NOT_FOUND")
    import os
    if not os.path.exists(f.storage_path):
        raise APIError(404, "File not found", "FILE_NOT_FOUND")
    f.download_count = (f.download_count or 0) + 1
    db.commit()
    audit.record(db, "download", user_id=user.id if user else None, file_id=f.id, detail=token, ip=_ip(request))
    return FileResponse(f.storage_path, media_type=f.mime_type, filename=f.filename)


@router.get("/files/{file_id}/info")
def file_info(file_id: str, user: User = Depends(get_current_user), db: Session = Depends(get_db)):
    f = _get_owned_file(db, file_id, user)
    return {
        "success": True,
        "file_id": f.id,
        "filename": f.filename,
        "size": f.size,
        "mime_type": f.mime_type,
        "upload_time": iso(f.upload_time),
        "download_count": f.download_count,
        "owner_id": f.owner_id,
        "folder_id": f.folder_id,
        "description": f.description,
    }


# ---------------------------------------------------------------- management
_SORT_FIELDS = {"name": StoredFile.filename, "size": StoredFile.size, "upload_time": StoredFile.upload_time}


@router.get("/files")
def list_files(page: int = Query(1, ge=1),
               limit: int = Query(20, ge=1, le=100),
               folder_id: Optional[str] = Query(None),
               sort_by: Optional[str] = Query("upload_time"),
               order: Optional[str] = Query("desc"),
               user: User = Depends(get_current_user),
               db: Session = Depends(get_db)):
    sort_by = sort_by or "upload_time"
    order = (order or "desc").lower()
    if sort_by not in _SORT_FIELDS:
        raise APIError(400, "Invalid sort_by value", "INVALID_INPUT", "Allowed: name, size, upload_time")
    if order not in ("asc", "desc"):
        raise APIError(400, "Invalid order value", "INVALID_INPUT", "Allowed: asc, desc")
    q = db.query(StoredFile).filter(StoredFile.owner_id == user.id)
    if folder_id:
        q = q.filter(StoredFile.folder_id == folder_id)
    total = q.count()
    col = _SORT_FIELDS[sort_by]
    q = q.order_by(col.asc() if order == "asc" else col.desc(), StoredFile.id.asc())
    items = q.offset((page - 1) * limit).limit(limit).all()
    return {
        "success": True,
        "files": [{
            "file_id": f.id,
            "filename": f.filename,
            "size": f.size,
            "mime_type": f.mime_type,
            "upload_time": iso(f.upload_time),
            "download_count": f.download_count,
        } for f in items],
        "pagination": {"page": page, "limit": limit, "total": total, "pages": math.ceil(total / limit) if total else 0},
    }


@router.delete("/files/{file_id}")
def delete_file(file_id: str, request: Request, user: User = Depends(get_current_user), db: Session = Depends(get_db)):
    f = _get_owned_file(db, file_id, user)
    path = f.storage_path
    db.query(Share).filter(Share.file_id == f.id).delete()
    db.delete(f)
    db.commit()
    storage.remove_file(path)
    audit.record(db, "delete", user_id=user.id, file_id=file_id, ip=_ip(request))
    return {"success": True, "message": "File deleted successfully"}


@router.put("/files/{file_id}/rename")
def rename_file(file_id: str, body: RenameRequest, request: Request,
                user: User = Depends(get_current_user), db: Session = Depends(get_db)):
    f = _get_owned_file(db, file_id, user)
    new_name = body.new_name.strip()
    if not new_name or "/" in new_name or "\\" in new_name or new_name in (".", ".."):
        raise APIError(400, "Invalid file name", "INVALID_INPUT")
    storage.check_extension(new_name)
    f.filename = new_name
    f.mime_type = storage.guess_mime(new_name, f.mime_type)
    db.commit()
    audit.record(db, "rename", user_id=user.id, file_id=file_id, detail=new_name, ip=_ip(request))
    return {"success": True, "message": "File renamed successfully", "new_filename": new_name}


# ---------------------------------------------------------------- sharing
@router.post("/files/{file_id}/share")
def create_share(file_id: str, request: Request, body: Optional[ShareRequest] = None,
                 user: User = Depends(get_current_user), db: Session = Depends(get_db)):
    body = body or ShareRequest()
    f = _get_owned_file(db, file_id, user)
    expires_at = utcnow() + timedelta(seconds=body.expires_in) if body.expires_in else None
    share = Share(file_id=f.id, owner_id=user.id, is_public=body.is_public,
                  password_hash=hash_password(body.password) if body.password else None,
                  expires_at=expires_at)
    db.add(share)
    db.commit()
    db.refresh(share)
    audit.record(db, "share_create", user_id=user.id, file_id=f.id, detail=share.id, ip=_ip(request))
    return JSONResponse(status_code=201, content={
        "success": True,
        "share_id": share.id,
        "share_url": _abs(request, f"{settings.API_PREFIX}/share/{share.id}"),
        "expires_at": iso(share.expires_at),
        "access_count": share.access_count,
    })


@router.get("/share/{share_id}")
def access_share(share_id: str, request: Request, password: Optional[str] = Query(None),
                 user: Optional[User] = Depends(get_optional_user), db: Session = Depends(get_db)):
    share = _get_share(db, share_id)
    _check_share_access(share, password, user)
    f = db.get(StoredFile, share.file_id)
    if not f:
        raise APIError(404, "File not found", "FILE_NOT_FOUND")
    share.access_count = (share.access_count or 0) + 1
    db.commit()
    audit.record(db, "share_access", user_id=user.id if user else None, file_id=f.id, detail=share.id, ip=_ip(request))
    url = f"{settings.API_PREFIX}/share/{share.id}/download"
    if password:
        from urllib.parse import quote
        url += f"?password={quote(password)}"
    return {
        "success": True,
        "file_info": {"filename": f.filename, "size": f.size, "mime_type": f.mime_type},
        "download_url": _abs(request, url),
    }


@router.get("/share/{share_id}/download")
def download_share(share_id: str, request: Request, password: Optional[str] = Query(None),
                   user: Optional[User] = Depends(get_optional_user), db: Session = Depends(get_db)):
    share = _get_share(db, share_id)
    _check_share_access(share, password, user)
    f = db.get(StoredFile, share.file_id)
    import os
    if not f or not os.path.exists(f.storage_path):
        raise APIError(404, "File not found", "FILE_NOT_FOUND")
    f.download_count = (f.download_count or 0) + 1
    db.commit()
    audit.record(db, "share_download", user_id=user.id if user else None, file_id=f.id, detail=share.id, ip=_ip(request))
    return FileResponse(f.storage_path, media_type=f.mime_type, filename=f.filename)


@router.delete("/share/{share_id}")
def delete_share(share_id: str, request: Request, user: User = Depends(get_current_user),
                 db: Session = Depends(get_db)):
    share = db.get(Share, share_id)
    if not share:
        raise APIError(404, "Share link not found", "SHARE_NOT_FOUND")
    if share.owner_id != user.id:
        raise APIError(403, "You do not own this share link", "ACCESS_DENIED")
    db.delete(share)
    db.commit()
    audit.record(db, "share_delete", user_id=user.id, file_id=share.file_id, detail=share_id, ip=_ip(request))
    return {"success": True, "message": "Share link deleted successfully"}


# ---------------------------------------------------------------- storage
@router.get("/storage/quota")
def quota(user: User = Depends(get_current_user), db: Session = Depends(get_db)):
    used = storage.used_space(db, user.id)
    total = int(user.quota)
    return {
        "success": True,
        "used_space": used,
        "total_space": total,
        "available_space": max(total - used, 0),
        "usage_percentage": round(used / total * 100, 2) if total else 0.0,
    }
