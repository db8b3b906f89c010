"""Share links."""
import secrets
import sqlite3
import time
from typing import Optional

from ..db import get_db
from ..errors import SHARE_EXPIRED, SHARE_NOT_FOUND, APIError
from ..security import hash_password
from ..utils import utc_iso


def create_share(file_row: sqlite3.Row, owner_id: str, is_public: bool,
                 expires_in: Optional[int], password: Optional[str]) -> sqlite3.Row:
    share_id = secrets.token_urlsafe(12)
    expires_at = time.time() + expires_in if expires_in else None
    get_db().execute(
        "INSERT INTO shares (id, file_id, owner_id, is_public, password_hash, created_at, expires_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (share_id, file_row["id"], owner_id, int(is_public),
         hash_password(password) if password else None, utc_iso(), expires_at),
    )
    return get_share(share_id)


def get_share(share_id: str) -> Optional[sqlite3.Row]:
    return get_db().execute("SELECT * FROM shares WHERE id = ?", (share_id,)).fetchone()


def get_active_share(share_id: str) -> sqlite3.Row:
    share = get_share(share_id)
    if share is None:
        raise APIError(404, SHARE_NOT_FOUND, "Share link not found")
    if share["expires_at"] is not None and share["expires_at"] <= time.time():
        raise APIError(410, SHARE_EXPIRED, "Share link has expired")
    return share


def increment_access(share_id: str) -> None:
    get_db().execute("UPDATE shares SET access_count = access_count + 1 WHERE id = ?", (share_id,))


def delete_share(share_id: str) -> None:
    get_db().execute("DELETE FROM shares WHERE id = ?", (share_id,))


def expires_at_iso(share: sqlite3.Row) -> Optional[str]:
    return utc_iso(share["expires_at"]) if share["expires_at"] is not None else None
