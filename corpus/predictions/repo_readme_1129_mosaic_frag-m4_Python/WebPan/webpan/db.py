"""SQLite persistence and on-disk file storage for WebPan.

Holds users, file metadata (file contents live on disk under ``FILES_DIR``),
share links, quota usage and the access/audit log.

Every public function opens its own short-lived connection so the module can
be used from any FastAPI worker thread. Rows are returned as plain dicts.
Timestamps are ISO 8601 strings in UTC with a trailing ``Z``.
"""

import os
import sqlite3
import threading
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional, Tuple, Union

DATA_DIR = os.path.abspath(os.environ.get("WEBPAN_DATA_DIR", os.path.join(os.getcwd(), "data")))
FILES_DIR = os.path.join(DATA_DIR, "files")
DB_PATH = os.environ.get("WEBPAN_DB_PATH", os.path.join(DATA_DIR, "webpan.db"))

MAX_FILE_SIZE = 100 * 1024 * 1024          # 100 MB per file
DEFAULT_QUOTA = 10 * 1024 * 1024 * 1024    # 10 GB per user

_write_lock = threading.RLock()
_initialized = False

_SCHEMA = [
    """
    CREATE TABLE IF NOT EXISTS users (
        user_id       TEXT PRIMARY KEY,
        username      TEXT NOT NULL UNIQUE,
        email         TEXT,
        password_hash TEXT NOT NULL,
        quota         INTEGER NOT NULL,
        created_at    TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS files (
        file_id        TEXT PRIMARY KEY,
        owner_id       TEXT NOT NULL,
        filename       TEXT NOT NULL,
        size           INTEGER NOT NULL,
        mime_type      TEXT NOT NULL,
        folder_id      TEXT,
        description    TEXT,
        storage_path   TEXT NOT NULL,
        upload_time    TEXT NOT NULL,
        download_count INTEGER NOT NULL DEFAULT 0
    )
    """,
    "CREATE INDEX IF NOT EXISTS idx_files_owner ON files(owner_id)",
    """
    CREATE TABLE IF NOT EXISTS shares (
        share_id      TEXT PRIMARY KEY,
        file_id       TEXT NOT NULL,
        owner_id      TEXT NOT NULL,
        is_public     INTEGER NOT NULL DEFAULT 1,
        password_hash TEXT,
        expires_at    TEXT,
        access_count  INTEGER NOT NULL DEFAULT 0,
        created_at    TEXT NOT NULL
    )
    """,
    "CREATE INDEX IF NOT EXISTS idx_shares_file ON shares(file_id)",
    """
    CREATE TABLE IF NOT EXISTS access_log (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        timestamp   TEXT NOT NULL,
        user_id     TEXT,
        action      TEXT NOT NULL,
        resource_id TEXT,
        details     TEXT
    )
    """,
]

_FILE_SORT_COLUMNS = {
    "name": "filename",
    "filename": "filename",
    "size": "size",
    "upload_time": "upload_time",
}


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def to_iso(dt: datetime) -> str:
    """Format a datetime as ISO 8601 UTC with a trailing ``Z``."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    dt = dt.astimezone(timezone.utc).replace(microsecond=0)
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def now_iso() -> str:
    return to_iso(utc_now())


def parse_iso(value: Optional[str]) -> Optional[datetime]:
    """Parse a timestamp produced by :func:`to_iso` (or any ISO string)."""
    if not value:
        return None
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    dt = datetime.fromisoformat(text)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt


def new_id() -> str:
    return uuid.uuid4().hex


def _connect() -> sqlite3.Connection:
    conn = sqlite3.connect(DB_PATH, timeout=30, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    return conn


def init_db() -> None:
    """Create the storage directories and the database schema if missing."""
    global _initialized
    with _write_lock:
        os.makedirs(DATA_DIR, exist_ok=True)
        os.makedirs(FILES_DIR, exist_ok=True)
        db_dir = os.path.dirname(os.path.abspath(DB_PATH))
        if db_dir:
            os.makedirs(db_dir, exist_ok=True)
        conn = _connect()
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.commit()
        finally:
            conn.close()
        _initialized = True


@contextmanager
def get_conn():
    """Yield a connection; commits on success, rolls back on error."""
    if not _initialized:
        init_db()
    conn = _connect()
    try:
        yield conn
        conn.commit()
    except Exception:
        conn.rollback()
        raise
    finally:
        conn.close()


def _row(row: Optional[sqlite3.Row]) -> Optional[Dict[str, Any]]:
    return dict(row) if row is not None else None


def _share_row(row: Optional[sqlite3.Row]) -> Optional[Dict[str, Any]]:
    if row is None:
        return None
    data = dict(row)
    data["is_public"] = bool(data["is_public"])
    return data


# ---------------------------------------------------------------------------
# Users
# ---------------------------------------------------------------------------

def create_user(username: str, password_hash: str, email: Optional[str] = None,
                quota: int = DEFAULT_QUOTA) -> Optional[Dict[str, Any]]:
    """Create a user. Returns the user dict, or None if the username is taken."""
    user_id = new_id()
    with _write_lock, get_conn() as conn:
        exists = conn.execute(
            "SELECT 1 FROM users WHERE username = ?", (username,)
        ).fetchone()
        if exists:
            return None
        try:
            conn.execute(
                "INSERT INTO users (user_id, username, email, password_hash, quota, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (user_id, username, email, password_hash, int(quota), now_iso()),
            )
        except sqlite3.IntegrityError:
            return None
        row = conn.execute("SELECT * FROM users WHERE user_id = ?", (user_id,)).fetchone()
    return _row(row)


def get_user_by_username(username: str) -> Optional[Dict[str, Any]]:
    with get_conn() as conn:
        row = conn.execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()
    return _row(row)


def get_user_by_id(user_id: str) -> Optional[Dict[str, Any]]:
    with get_conn() as conn:
        row = conn.execute("SELECT * FROM users WHERE user_id = ?", (user_id,)).fetchone()
    return _row(row)


# ---------------------------------------------------------------------------
# File content on disk
# ---------------------------------------------------------------------------

def get_storage_path(file_id: str) -> str:
    """Absolute path of the stored content for ``file_id``."""
    safe = os.path.basename(file_id)
    return os.path.join(FILES_DIR, safe)


def write_file_content(file_id: str, content: bytes) -> str:
    os.makedirs(FILES_DIR, exist_ok=True)
    path = get_storage_path(file_id)
    tmp_path = path + ".part"
    with open(tmp_path, "wb") as fh:
        fh.write(content)
    os.replace(tmp_path, path)
    return path


def read_file_content(file_id: str) -> Optional[bytes]:
    path = get_storage_path(file_id)
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as fh:
        return fh.read()


def remove_file_content(file_id: str) -> None:
    path = get_storage_path(file_id)
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


# ---------------------------------------------------------------------------
# File metadata
# ---------------------------------------------------------------------------

def create_file(owner_id: str, filename: str, content: bytes,
                mime_type: Optional[str] = None, folder_id: Optional[str] = None,
                description: Optional[str] = None) -> Dict[str, Any]:
    """Store ``content`` on disk and record its metadata. Returns the file dict."""
    file_id = new_id()
    size = len(content)
    mime = mime_type or "application/octet-stream"
    path = write_file_content(file_id, content)
    try:
        with _write_lock, get_conn() as conn:
            conn.execute(
                "INSERT INTO files (file_id, owner_id, filename, size, mime_type, folder_id, "
                "description, storage_path, upload_time, download_count) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (file_id, owner_id, filename, size, mime, folder_id, description, path, now_iso()),
            )
            row = conn.execute("SELECT * FROM files WHERE file_id = ?", (file_id,)).fetchone()
    except Exception:
        remove_file_content(file_id)
        raise
    return _row(row)


def get_file(file_id: str) -> Optional[Dict[str, Any]]:
    with get_conn() as conn:
        row = conn.execute("SELECT * FROM files WHERE file_id = ?", (file_id,)).fetchone()
    return _row(row)


def list_files(owner_id: str, page: int = 1, limit: int = 20,
               folder_id: Optional[str] = None, sort_by: Optional[str] = None,
               order: Optional[str] = None) -> Tuple[List[Dict[str, Any]], int]:
    """Return ``(files, total)`` for one page of the owner's files."""
    page = max(int(page or 1), 1)
    limit = max(int(limit or 20), 1)
    column = _FILE_SORT_COLUMNS.get((sort_by or "upload_time").lower(), "upload_time")
    direction = "ASC" if (order or "desc").lower() == "asc" else "DESC"

    where = "owner_id = ?"
    params: List[Any] = [owner_id]
    if folder_id is not None:
        where += " AND folder_id = ?"
        params.append(folder_id)

    with get_conn() as conn:
        total = conn.execute(
            f"SELECT COUNT(*) FROM files WHERE {where}", params
        ).fetchone()[0]
        rows = conn.execute(
            f"SELECT * FROM files WHERE {where} "
            f"ORDER BY {column} {direction}, rowid {direction} LIMIT ? OFFSET ?",
            params + [limit, (page - 1) * limit],
        ).fetchall()
    return [dict(r) for r in rows], int(total)


def rename_file(file_id: str, new_name: str) -> Optional[Dict[str, Any]]:
    """Rename a file. Returns the updated file dict or None if missing."""
    with _write_lock, get_conn() as conn:
        cur = conn.execute(
            "UPDATE files SET filename = ? WHERE file_id = ?", (new_name, file_id)
        )
        if cur.rowcount == 0:
            return None
        row = conn.execute("SELECT * FROM files WHERE file_id = ?", (file_id,)).fetchone()
    return _row(row)


def delete_file(file_id: str) -> bool:
    """Delete a file's metadata, its shares and its content on disk."""
    with _write_lock, get_conn() as conn:
        cur = conn.execute("DELETE FROM files WHERE file_id = ?", (file_id,))
        deleted = cur.rowcount > 0
        if deleted:
            conn.execute("DELETE FROM shares WHERE file_id = ?", (file_id,))
    if deleted:
        remove_file_content(file_id)
    return deleted


def increment_download_count(file_id: str) -> None:
    with _write_lock, get_conn() as conn:
        conn.execute(
            "UPDATE files SET download_count = download_count + 1 WHERE file_id = ?",
            (file_id,),
        )


# ---------------------------------------------------------------------------
# Quota
# ---------------------------------------------------------------------------

def get_used_space(owner_id: str) -> int:
    with get_conn() as conn:
        value = conn.execute(
            "SELECT COALESCE(SUM(size), 0) FROM files WHERE owner_id = ?", (owner_id,)
        ).fetchone()[0]
    return int(value or 0)


def get_quota(owner_id: str) -> int:
    user = get_user_by_id(owner_id)
    if user is None:
        return DEFAULT_QUOTA
    return int(user.get("quota") or DEFAULT_QUOTA)


def get_quota_info(owner_id: str) -> Dict[str, Any]:
    """Quota usage summary in the shape of the ``/storage/quota`` response."""
    used = get_used_space(owner_id)
    total = get_quota(owner_id)
    available = max(total - used, 0)
    percentage = round((used / total) * 100, 2) if total else 0.0
    return {
        "used_space": used,
        "total_space": total,
        "available_space": available,
        "usage_percentage": percentage,
    }


# ---------------------------------------------------------------------------
# Shares
# ---------------------------------------------------------------------------

def create_share(file_id: str, owner_id: str, is_public: bool = True,
                 password_hash: Optional[str] = None,
                 expires_at: Optional[Union[str, datetime]] = None) -> Dict[str, Any]:
    """Create a share link for a file. Returns the share dict."""
    share_id = new_id()
    if isinstance(expires_at, datetime):
        expires_at = to_iso(expires_at)
    with _write_lock, get_conn() as conn:
        conn.execute(
            "INSERT INTO shares (share_id, file_id, owner_id, is_public, password_hash, "
            "expires_at, access_count, created_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
            (share_id, file_id, owner_id, 1 if is_public else 0, password_hash,
             expires_at, now_iso()),
        )
        row = conn.execute("SELECT * FROM shares WHERE share_id = ?", (share_id,)).fetchone()
    return _share_row(row)


def get_share(share_id: str) -> Optional[Dict[str, Any]]:
    with get_conn() as conn:
        row = conn.execute("SELECT * FROM shares WHERE share_id = ?", (share_id,)).fetchone()
    return _share_row(row)


def is_share_expired(share: Dict[str, Any]) -> bool:
    expires = parse_iso(share.get("expires_at"))
    return expires is not None and utc_now() >= expires


def increment_share_access(share_id: str) -> None:
    with _write_lock, get_conn() as conn:
        conn.execute(
            "UPDATE shares SET access_count = access_count + 1 WHERE share_id = ?",
            (share_id,),
        )


def delete_share(share_id: str) -> bool:
    with _write_lock, get_conn() as conn:
        cur = conn.execute("DELETE FROM shares WHERE share_id = ?", (share_id,))
        return cur.rowcount > 0


# ---------------------------------------------------------------------------
# Access / audit log
# ---------------------------------------------------------------------------

def log_access(user_id: Optional[str], action: str, resource_id: Optional[str] = None,
               details: Optional[str] = None) -> None:
    """Append an entry to the access/audit log (never raises)."""
    try:
        with _write_lock, get_conn() as conn:
            conn.execute(
                "INSERT INTO access_log (timestamp, user_id, action, resource_id, details) "
                "VALUES (?, ?, ?, ?, ?)",
                (now_iso(), user_id, action, resource_id,
                 None if details is None else str(details)),
            )
    except Exception:
        pass


def get_access_log(user_id: Optional[str] = None, limit: int = 100) -> List[Dict[str, Any]]:
    with get_conn() as conn:
        if user_id is None:
            rows = conn.execute(
                "SELECT * FROM access_log ORDER BY id DESC LIMIT ?", (limit,)
            ).fetchall()
        else:
            rows = conn.execute(
                "SELECT * FROM access_log WHERE user_id = ? ORDER BY id DESC LIMIT ?",
                (user_id, limit),
            ).fetchall()
    return [dict(r) for r in rows]
