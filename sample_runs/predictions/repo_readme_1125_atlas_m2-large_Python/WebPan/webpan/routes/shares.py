"""Share link endpoints."""
from flask import Blueprint, current_app, g

from ..errors import ACCESS_DENIED, FILE_NOT_FOUND, SHARE_NOT_FOUND, VALIDATION_ERROR, APIError
from ..security import login_required, make_share_access_token, optional_user
from ..services import audit, files as file_service, shares as share_service
from ..services.share_access import check_share_access
from ..utils import absolute_url, json_body

bp = Blueprint("shares", __name__, url_prefix="/api/v1")


def _share_path(share_id: str) -> str:
    return f"/api/v1/share/{share_id}"


@bp.post("/files/<file_id>/share")
@login_required
def create_share(file_id: str):
    cfg = current_app.config["WEBPAN"]
    file_row = file_service.get_owned_file(file_id, g.user)
    data = json_body(required=False)

    is_public = data.get("is_public", True)
    if not isinstance(is_public, bool):
        raise APIError(400, VALIDATION_ERROR, "is_public must be a boolean")

    if "expires_in" in data:
        expires_in = data["expires_in"]
        if expires_in is not None:
            if isinstance(expires_in, bool) or not isinstance(expires_in, int):
                raise APIError(400, VALIDATION_ERROR, "expires_in must be an integer number of seconds")
            if expires_in <= 0 or expires_in > cfg.max_share_ttl:
                raise APIError(400, VALIDATION_ERROR,
                               f"expires_in must be between 1 and {cfg.max_share_ttl} seconds")
    else:
        expires_in = cfg.default_share_ttl

    password = data.get("password")
    if password is not None and not isinstance(password, str):
        raise APIError(400, VALIDATION_ERROR, "password must be a string")
    if password is not None and len(password) > 128:
        raise APIError(400, VALIDATION_ERROR, "password must be at most 128 characters")
    password = password or None

    share = share_service.create_share(file_row, g.user["id"], is_public, expires_in, password)
    audit.record("share_create", g.user["id"], share["id"], f"file={file_id}")
    return {
        "success": True,
        "share_id": share["id"],
        "share_url": absolute_url(_share_path(share["id"])),
        "expires_at": share_service.expires_at_iso(share),
        "access_count": share["access_count"],
        "is_public": bool(share["is_public"]),
        "password_protected": bool(share["password_hash"]),
        "file_id": file_id,
    }, 201


@bp.get("/share/<share_id>")
def access_share(share_id: str):
    share = share_service.get_active_share(share_id)
    file_row = file_service.get_file(share["file_id"])
    if file_row is None:
        raise APIError(404, FILE_NOT_FOUND, "The shared file no longer exists")
    user = optional_user() if not share["is_public"] else None
    check_share_access(share, user)

    share_service.increment_access(share["id"])
    needs_proof = bool(share["password_hash"]) or not share["is_public"]
    token = make_share_access_token(share["id"]) if needs_proof else share["id"]
    audit.record("share_access", user["id"] if user else None, share["id"])
    return {
        "success": True,
        "share_id": share["id"],
        "file_info": {
            "filename": file_row["filename"],
            "size": file_row["size"],
            "mime_type": file_row["mime_type"],
        },
        "download_url": absolute_url(
            f"/api/v1/files/{file_row['id']}/download?share_token={token}"),
        "expires_at": share_service.expires_at_iso(share),
        "access_count": share["access_count"] + 1,
    }


@bp.delete("/share/<share_id>")
@login_required
def delete_share(share_id: str):
    share = share_service.get_share(share_id)
    if share is None:
        raise APIError(404, SHARE_NOT_FOUND, "Share link not found")
    if share["owner_id"] != g.user["id"]:
        raise APIError(403, ACCESS_DENIED, "You do not own this share link")
    share_service.delete_share(share_id)
    audit.record("share_delete", g.user["id"], share_id)
    return {"success": True, "message": "Share link deleted successfully"}
