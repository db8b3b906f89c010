"""Checks performed when a file is reached through a share link."""
import sqlite3
from typing import Optional

from flask import request

from ..errors import ACCESS_DENIED, AUTH_INVALID, AUTH_REQUIRED, APIError
from ..security import parse_share_access_token, verify_password
from .shares import get_active_share


def supplied_password() -> Optional[str]:
    return request.args.get("password") or request.headers.get("X-Share-Password")


def check_share_access(share: sqlite3.Row, user: Optional[sqlite3.Row]) -> None:
    """Enforce private-share login and share password (raise 401 on failure)."""
    if not share["is_public"] and user is None:
        raise APIError(401, AUTH_REQUIRED, "This share is private: authentication required")
    if share["password_hash"]:
        password = supplied_password()
        if not password:
            raise APIError(401, AUTH_REQUIRED, "This share is password protected",
                           "Provide the 'password' query parameter")
        if not verify_password(password, share["password_hash"]):
            raise APIError(401, AUTH_INVALID, "Incorrect share password")


def authorize_share_download(token: str, file_row: sqlite3.Row,
                             user: Optional[sqlite3.Row]) -> str:
    """Validate a share token for downloading ``file_row``; returns the share id."""
    signed_share_id = parse_share_access_token(token)
    share = get_active_share(signed_share_id or token)
    if share["file_id"] != file_row["id"]:
        raise APIError(403, ACCESS_DENIED, "Share token does not grant access to this file")
    if signed_share_id is None:
        # A bare share id: apply the same checks as the share page.
        check_share_access(share, user)
    return share["id"]
