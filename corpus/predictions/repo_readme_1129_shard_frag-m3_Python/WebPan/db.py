"""SQLite persistence for WebPan.

Tables: users, tokens, files (file records), shares (share links) and
access_logs.  Every public function opens its own short-lived connection, so
the module is safe to use from Flask's threaded server.

Database location: ``WEBPAN_DB_PATH``, ``DATABASE_PATH`` or ``DB_PATH``
environment variable (first one set), otherwise ``webpan.db`` in the
``WEBPAN_DATA_DIR`` / ``DATA_DIR`` directory or next to this module.

Conventions
-----------
* Identifiers are strings (uuid4 hex) generated here unless supplied.
* Timestamps shown to clients are ISO 8601 UTC strings ("2024-01-01T12:00:00Z").
* Expiry moments (tokens, shares) are stored as UNIX epoch seconds (float);
  records also carry an ``expires_at_iso`` string.
* ``create_*`` functions return the new identifier; getters return a dict or
  None.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, List, Optional, Tuple

_MODULE_DIR = os.path.dirname(os.path.abspath(__file__))

DEFAULT_QUOTA = 10 * 1024 * 1024 * 1024  # 10 GB

_lock = threading.RLock()
_initialized_path: Optional[str] = None
_override_path: Optional[str] = None


# ---------------------------------------------------------------------------
# Time helpers
# ---------------------------------------------------------------------------

def now_iso() -> str:
    """Current UTC time as ``YYYY-MM-DDTHH:MM:SSZ``."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def epoch_to_iso(value: Optional[float]) -> Optional[str]:
    if value is None:
        return None
    return datetime.fromtimestamp(float(value), tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _to_epoch(value: Any) -> Optional[float]:
    """Accept None, epoch seconds, datetime, timedelta (from now) or ISO string."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError("invalid expiry value")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, timedelta):
        return time.time() + value.total_seconds()
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value.timestamp()
    if isinstance(value, str):
        text = value.strip()
        try:
            return float(text)
        except ValueError:
            pass
        if text.endswith("Z"):
            text = text[:-1] + "+00:00"
        parsed = datetime.fromisoformat(text)
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=timezone.utc)
        return parsed.timestamp()
    raise ValueError("invalid expiry value")


def _new_id() -> str:
    return uuid.uuid4().hex


# ---------------------------------------------------------------------------
# Connection handling
# ---------------------------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id            TEXT PRIMARY KEY,
    username      TEXT NOT NULL UNIQUE,
    email         TEXT,
    password_hash TEXT NOT NULL,
    quota         INTEGER,
    created_at    TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS tokens (
    token       TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    expires_at  REAL,
    FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_tokens_user ON tokens(user_id);

CREATE TABLE IF NOT EXISTS files (
    id             TEXT PRIMARY KEY,
    owner_id       TEXT NOT NULL,
    filename       TEXT NOT NULL,
    stored_name    TEXT,
    storage_path   TEXT,
    size           INTEGER NOT NULL DEFAULT 0,
    mime_type      TEXT,
    folder_id      TEXT,
    description    TEXT,
    upload_time    TEXT NOT NULL,
    download_count INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (owner_id) REFERENCES users(id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_files_owner ON files(owner_id);

CREATE TABLE IF NOT EXISTS shares (
    id            TEXT PRIMARY KEY,
    file_id       TEXT NOT NULL,
    owner_id      TEXT NOT NULL,
    is_public     INTEGER NOT NULL DEFAULT 1,
    password_hash TEXT,
    expires_at    REAL,
    created_at    TEXT NOT NULL,
    access_count  INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (file_id) REFERENCES files(id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_shares_file ON shares(file_id);

CREATE TABLE IF NOT EXISTS access_logs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     TEXT,
    file_id     TEXT,
    share_id    TEXT,
    action      TEXT NOT NULL,
    ip_address  TEXT,
    details     TEXT,
    created_at  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_logs_file ON access_logs(file_id);
"""


def get_db_path() -> str:
    if _override_path:
        return _override_path
    for name in ("WEBPAN_DB_PATH", "DATABASE_PATH", "DB_PATH"):
        value = os.environ.get(name)
        if value:
            return value
    data_dir = os.environ.get("WEBPAN_DATA_DIR") or os.environ.get("DATA_DIR") or _MODULE_DIR
    return os.path.join(data_dir, "webpan.db")


def _connect() -> sqlite3.Connection:
    global _initialized_path
    path = get_db_path()
    directory = os.path.dirname(os.path.abspath(path))
    if directory:
        os.makedirs(directory, exist_ok=True)
    conn = sqlite3.connect(path, timeout=30, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    if _initialized_path != path:
        with _lock:
            if _initialized_path != path:
                try:
                    conn.execute("PRAGMA journal_mode = WAL")
                except sqlite3.DatabaseError:
                    pass
                conn.executescript(_SCHEMA)
                conn.commit()
                _initialized_path = path
    return conn


class _Tx:
    """``with _Tx() as conn``: commit on success, rollback on error, close."""

    def __enter__(self) -> sqlite3.Connection:
        self.conn = _connect()
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> bool:
        try:
            if exc_type is None:
                self.conn.commit()
            else:
                self.conn.rollback()
        finally:
            self.conn.close()
        return False


def get_connection() -> _Tx:
    return _Tx()


def init_db(db_path: Optional[str] = None) -> str:
    """Create all tables (idempotent); optionally switch database file."""
    global _override_path, _initialized_path
    with _lock:
        if db_path:
            _override_path = db_path
        _initialized_path = None
    with _Tx():
        pass
    return get_db_path()


init_database = init_db


def reset_db() -> None:
    """Delete all rows from every table (intended for tests)."""
    with _Tx() as conn:
        for table in ("access_logs", "shares", "files", "tokens", "users"):
            conn.execute(f"DELETE FROM {table}")


# ---------------------------------------------------------------------------
# Users
# ---------------------------------------------------------------------------

class DuplicateError(sqlite3.IntegrityError, ValueError):
    """Raised when a unique value (e.g. username) already exists."""


def _user(row: Optional[sqlite3.Row]) -> Optional[Dict[str, Any]]:
    if row is None:
        return None
    user = dict(row)
    user["user_id"] = user["id"]
    if user.get("quota") is None:
        user["quota"] = DEFAULT_QUOTA
    return user


def create_user(username: str, password_hash: str, email: Optional[str] = None,
                user_id: Optional[str] = None, quota: Optional[int] = None) -> str:
    """Insert a user; returns the new user id. Raises DuplicateError."""
    user_id = user_id or _new_id()
    try:
        with _Tx() as conn:
            conn.execute(
                "INSERT INTO users (id, username, email, password_hash, quota, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (user_id, username, email, password_hash, quota, now_iso()),
            )
    except sqlite3.IntegrityError as exc:
        raise DuplicateError(f"User '{username}' already exists") from exc
    return user_id


def get_user_by_id(user_id: Any) -> Optional[Dict[str, Any]]:
    if user_id is None:
        return None
    with _Tx() as conn:
        row = conn.execute("SELECT * FROM users WHERE id = ?", (str(user_id),)).fetchone()
    return _user(row)


def get_user_by_username(username: Any) -> Optional[Dict[str, Any]]:
    if not isinstance(username, str):
        return None
    with _Tx() as conn:
        row = conn.execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()
    return _user(row)


def get_user_by_email(email: Any) -> Optional[Dict[str, Any]]:
    if not isinstance(email, str):
        return None
    with _Tx() as conn:
        row = conn.execute(
            "SELECT * FROM users WHERE email = ? COLLATE NOCASE", (email,)
        ).fetchone()
    return _user(row)


def get_user_quota(user_id: Any) -> int:
    user = get_user_by_id(user_id)
    return int(user["quota"]) if user else DEFAULT_QUOTA


def set_user_quota(user_id: Any, quota: Optional[int]) -> bool:
    with _Tx() as conn:
        cur = conn.execute("UPDATE users SET quota = ? WHERE id = ?", (quota, str(user_id)))
        return cur.rowcount > 0


get_user = get_user_by_id


# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------

def _token(row: Optional[sqlite3.Row]) -> Optional[Dict[str, Any]]:
    if row is None:
        return None
    token = dict(row)
    token["expires_at_iso"] = epoch_to_iso(token.get("expires_at"))
    return token


def create_token(token: str, user_id: Any, expires_at: Any = None) -> str:
    """Store an access token for ``user_id``; ``expires_at`` may be epoch
    seconds, a datetime, a timedelta or an ISO string (None = never)."""
    with _Tx() as conn:
        conn.execute(
            "INSERT OR REPLACE INTO tokens (token, user_id, created_at, expires_at) "
            "VALUES (?, ?, ?, ?)",
            (token, str(user_id), now_iso(), _to_epoch(expires_at)),
        )
    return token


save_token = create_token
store_token = create_token
add_token = create_token


def get_token(token: Any, include_expired: bool = False) -> Optional[Dict[str, Any]]:
    """Return the token record, or None when unknown (or expired, unless
    ``include_expired`` is True)."""
    if not isinstance(token, str) or not token:
        return None
    with _Tx() as conn:
        row = conn.execute("SELECT * FROM tokens WHERE token = ?", (token,)).fetchone()
    record = _token(row)
    if record is None:
        return None
    expired = record["expires_at"] is not None and record["expires_at"] <= time.time()
    record["expired"] = expired
    if expired and not include_expired:
        delete_token(token)
        return None
    return record


def get_user_by_token(token: Any) -> Optional[Dict[str, Any]]:
    record = get_token(token)
    if record is None:
        return None
    return get_user_by_id(record["user_id"])


def delete_token(token: Any) -> bool:
    with _Tx() as conn:
        cur = conn.execute("DELETE FROM tokens WHERE token = ?", (str(token),))
        return cur.rowcount > 0


def delete_expired_tokens() -> int:
    with _Tx() as conn:
        cur = conn.execute(
            "DELETE FROM tokens WHERE expires_at IS NOT NULL AND expires_at <= ?", (time.time(),)
        )
        return cur.rowcount


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------

_SORT_COLUMNS = {
    "name": "filename COLLATE NOCASE",
    "filename": "filename COLLATE NOCASE",
    "size": "size",
    "upload_time": "upload_time",
    "date": "upload_time",
}


def _file(row: Optional[sqlite3.Row]) -> Optional[Dict[str, Any]]:
    if row is None:
        return None
    record = dict(row)
    record["file_id"] = record["id"]
    record["user_id"] = record["owner_id"]
    record["path"] = record.get("storage_path")
    return record


def create_file(owner_id: Any = None, filename: Optional[str] = None, size: int = 0,
                mime_type: Optional[str] = None,
                storage_path: Optional[str] = None, folder_id: Optional[str] = None,
                description: Optional[str] = None, file_id: Optional[str] = None,
                stored_name: Optional[str] = None, **extra: Any) -> str:
    """Insert a file record; returns the file id.

    ``path`` / ``stored_path`` / ``file_path`` are accepted as synonyms of
    ``storage_path`` and ``user_id`` as a synonym of ``owner_id``.
    """
    if storage_path is None:
        storage_path = extra.get("path") or extra.get("stored_path") or extra.get("file_path")
    if owner_id is None:
        owner_id = extra.get("user_id")
    if filename is None:
        filename = extra.get("name") or extra.get("original_filename") or "unnamed"
    if owner_id is None:
        raise ValueError("owner_id is required")
    file_id = file_id or _new_id()
    if stored_name is None and storage_path:
        stored_name = os.path.basename(storage_path)
    with _Tx() as conn:
        conn.execute(
            "INSERT INTO files (id, owner_id, filename, stored_name, storage_path, size, "
            "mime_type, folder_id, description, upload_time, download_count) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            (file_id, str(owner_id), filename, stored_name, storage_path, int(size or 0),
             mime_type or "application/octet-stream", folder_id, description, now_iso()),
        )
    return file_id


add_file = create_file
create_file_record = create_file
add_file_record = create_file
insert_file = create_file
save_file_record = create_file


def get_file(file_id: Any) -> Optional[Dict[str, Any]]:
    if file_id is None:
        return None
    with _Tx() as conn:
        row = conn.execute("SELECT * FROM files WHERE id = ?", (str(file_id),)).fetchone()
    return _file(row)


get_file_record = get_file


def list_files(owner_id: Any, page: int = 1, limit: int = 20, folder_id: Optional[str] = None,
               sort_by: Optional[str] = "upload_time",
               order: Optional[str] = "desc") -> Tuple[List[Dict[str, Any]], int]:
    """Return ``(files, total)`` for one page of the owner's files."""
    page = max(1, int(page or 1))
    limit = max(1, int(limit or 20))
    column = _SORT_COLUMNS.get((sort_by or "upload_time").lower(), "upload_time")
    direction = "ASC" if (order or "desc").lower() == "asc" else "DESC"

    where = "owner_id = ?"
    params: List[Any] = [str(owner_id)]
    if folder_id is not None and folder_id != "":
        where += " AND folder_id = ?"
        params.append(folder_id)

    with _Tx() as conn:
        total = conn.execute(f"SELECT COUNT(*) FROM files WHERE {where}", params).fetchone()[0]
        rows = conn.execute(
            f"SELECT * FROM files WHERE {where} "
            f"ORDER BY {column} {direction}, rowid {direction} LIMIT ? OFFSET ?",
            params + [limit, (page - 1) * limit],
        ).fetchall()
    return [_file(r) for r in rows], int(total)


def count_files(owner_id: Any, folder_id: Optional[str] = None) -> int:
    _, total = list_files(owner_id, page=1, limit=1, folder_id=folder_id)
    return total


def rename_file(file_id: Any, new_name: str) -> bool:
    with _Tx() as conn:
        cur = conn.execute("UPDATE files SET filename = ? WHERE id = ?", (new_name, str(file_id)))
        return cur.rowcount > 0


def increment_download_count(file_id: Any) -> None:
    with _Tx() as conn:
        conn.execute(
            "UPDATE files SET download_count = download_count + 1 WHERE id = ?", (str(file_id),)
        )


def delete_file(file_id: Any) -> bool:
    """Delete a file record together with its share links."""
    with _Tx() as conn:
        conn.execute("DELETE FROM shares WHERE file_id = ?", (str(file_id),))
        cur = conn.execute("DELETE FROM files WHERE id = ?", (str(file_id),))
        return cur.rowcount > 0


delete_file_record = delete_file


def get_used_space(owner_id: Any) -> int:
    """Total size in bytes of the owner's files."""
    with _Tx() as conn:
        value = conn.execute(
            "SELECT COALESCE(SUM(size), 0) FROM files WHERE owner_id = ?", (str(owner_id),)
        ).fetchone()[0]
    return int(value or 0)


get_user_storage_used = get_used_space
get_storage_used = get_used_space


# ---------------------------------------------------------------------------
# Share links
# ---------------------------------------------------------------------------

def _share(row: Optional[sqlite3.Row]) -> Optional[Dict[str, Any]]:
    if row is None:
        return None
    share = dict(row)
    share["share_id"] = share["id"]
    share["is_public"] = bool(share["is_public"])
    share["has_password"] = bool(share.get("password_hash"))
    share["expires_at_iso"] = epoch_to_iso(share.get("expires_at"))
    share["expired"] = is_share_expired(share)
    return share


def is_share_expired(share: Optional[Dict[str, Any]]) -> bool:
    if not share:
        return True
    expires_at = share.get("expires_at")
    if expires_at is None:
        return False
    try:
        return _to_epoch(expires_at) <= time.time()
    except ValueError:
        return False


def create_share(file_id: Any, owner_id: Any, is_public: bool = True, expires_at: Any = None,
                 password_hash: Optional[str] = None, share_id: Optional[str] = None) -> str:
    """Create a share link; returns the share id."""
    share_id = share_id or _new_id()
    with _Tx() as conn:
        conn.execute(
            "INSERT INTO shares (id, file_id, owner_id, is_public, password_hash, expires_at, "
            "created_at, access_count) VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
            (share_id, str(file_id), str(owner_id), 1 if is_public else 0, password_hash,
             _to_epoch(expires_at), now_iso()),
        )
    return share_id


create_share_link = create_share
add_share = create_share


def get_share(share_id: Any) -> Optional[Dict[str, Any]]:
    if share_id is None:
        return None
    with _Tx() as conn:
        row = conn.execute("SELECT * FROM shares WHERE id = ?", (str(share_id),)).fetchone()
    return _share(row)


get_share_link = get_share


def list_shares_for_file(file_id: Any) -> List[Dict[str, Any]]:
    with _Tx() as conn:
        rows = conn.execute(
            "SELECT * FROM shares WHERE file_id = ? ORDER BY created_at", (str(file_id),)
        ).fetchall()
    return [_share(r) for r in rows]


def increment_share_access(share_id: Any) -> None:
    with _Tx() as conn:
        conn.execute(
            "UPDATE shares SET access_count = access_count + 1 WHERE id = ?", (str(share_id),)
        )


increment_share_access_count = increment_share_access


def delete_share(share_id: Any) -> bool:
    with _Tx() as conn:
        cur = conn.execute("DELETE FROM shares WHERE id = ?", (str(share_id),))
        return cur.rowcount > 0


delete_share_link = delete_share


# ---------------------------------------------------------------------------
# Access logs
# ---------------------------------------------------------------------------

def log_access(user_id: Any = None, file_id: Any = None, action: str = "access",
               ip_address: Optional[str] = None, share_id: Any = None,
               details: Any = None) -> None:
    """Append an audit log entry. Never raises: logging must not break requests."""
    try:
        with _Tx() as conn:
            conn.execute(
                "INSERT INTO access_logs (user_id, file_id, share_id, action, ip_address, "
                "details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (None if user_id is None else str(user_id),
                 None if file_id is None else str(file_id),
                 None if share_id is None else str(share_id),
                 action or "access", ip_address,
                 None if details is None else str(details), now_iso()),
            )
    except sqlite3.Error:
        pass


add_access_log = log_access


def get_access_logs(file_id: Any = None, user_id: Any = None,
                    limit: int = 100) -> List[Dict[str, Any]]:
    clauses, params = [], []
    if file_id is not None:
        clauses.append("file_id = ?")
        params.append(str(file_id))
    if user_id is not None:
        clauses.append("user_id = ?")
        params.append(str(user_id))
    where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
    with _Tx() as conn:
        rows = conn.execute(
            f"SELECT * FROM access_logs {where} ORDER BY id DESC LIMIT ?",
            params + [int(limit)],
        ).fetchall()
    return [dict(r) for r in rows]
