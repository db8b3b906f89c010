"""SQLite storage for users.

The database file location is taken from the first of these environment
variables that is set: ``USER_DB_PATH``, ``DATABASE_PATH``, ``DB_PATH``,
``SQLITE_PATH`` or ``DATABASE_URL`` (``sqlite:///path`` form).  The default is
``users.db`` next to this module.  The special value ``:memory:`` keeps the
data in a single shared in-memory database (useful for tests).

Users are returned as plain dicts::

    {
        "id": 1, "user_id": 1,
        "username": "alice", "email": "alice@example.com",
        "full_name": "Alice", "password_hash": "...",
        "created_at": "2024-01-01T12:00:00.000000+00:00",
        "updated_at": "2024-01-01T12:00:00.000000+00:00",
    }

Public functions: init_db, get_db_path, create_user, get_user_by_id,
get_user_by_username, get_user_by_email, update_user, delete_user,
list_users, username_exists, email_exists, clear_users, to_public_user.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional

_MODULE_DIR = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DB_PATH = os.path.join(_MODULE_DIR, "users.db")

_ENV_VARS = ("USER_DB_PATH", "DATABASE_PATH", "DB_PATH", "SQLITE_PATH", "DATABASE_URL")

# Columns that update_user() may change.
UPDATABLE_FIELDS = ("username", "email", "full_name", "password_hash")

_lock = threading.RLock()
_initialized_paths = set()
_override_path: Optional[str] = None
_memory_conn: Optional[sqlite3.Connection] = None


class DuplicateUserError(sqlite3.IntegrityError, ValueError):
    """Raised when a username or email is already taken."""

    def __init__(self, field: str, message: Optional[str] = None):
        self.field = field
        super().__init__(message or f"{field} already exists")


_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    username      TEXT    NOT NULL UNIQUE,
    email         TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT    NOT NULL,
    full_name     TEXT,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_users_email ON users(email);
"""


# ---------------------------------------------------------------------------
# Connection handling
# ---------------------------------------------------------------------------

def _path_from_env() -> Optional[str]:
    for name in _ENV_VARS:
        value = os.environ.get(name)
        if not value:
            continue
        value = value.strip()
        if name == "DATABASE_URL":
            if value.startswith("sqlite:///"):
                return value[len("sqlite:///"):] or ":memory:"
            if value.startswith("sqlite://"):
                return value[len("sqlite://"):] or ":memory:"
            continue  # not an SQLite URL
        return value
    return None


def get_db_path() -> str:
    """Return the path of the SQLite database currently in use."""
    return _override_path or _path_from_env() or DEFAULT_DB_PATH


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def _connect() -> sqlite3.Connection:
    global _memory_conn
    path = get_db_path()
    if path == ":memory:":
        with _lock:
            if _memory_conn is None:
                _memory_conn = sqlite3.connect(":memory:", check_same_thread=False)
                _memory_conn.row_factory = sqlite3.Row
                _memory_conn.executescript(_SCHEMA)
            return _memory_conn
    directory = os.path.dirname(os.path.abspath(path))
    if directory and not os.path.isdir(directory):
        os.makedirs(directory, exist_ok=True)
    conn = sqlite3.connect(path, timeout=30, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    if path not in _initialized_paths:
        with _lock:
            if path not in _initialized_paths:
                conn.executescript(_SCHEMA)
                conn.commit()
                _initialized_paths.add(path)
    return conn


class _Connection:
    """Context manager: yields a connection, commits on success, always closes."""

    def __enter__(self) -> sqlite3.Connection:
        self.conn = _connect()
        self.shared = self.conn is _memory_conn
        if self.shared:
            _lock.acquire()
        return self.conn

    def __exit__(self, exc_type, exc, tb) -> bool:
        try:
            if exc_type is None:
                self.conn.commit()
            else:
                self.conn.rollback()
        finally:
            if self.shared:
                _lock.release()
            else:
                self.conn.close()
        return False


def get_connection() -> _Connection:
    """``with get_connection() as conn: ...``"""
    return _Connection()


def init_db(db_path: Optional[str] = None) -> str:
    """Create the schema (idempotent). Optionally switch to ``db_path``.

    Returns the database path in use.
    """
    global _override_path, _memory_conn
    with _lock:
        if db_path is not None:
            if db_path != _override_path:
                _memory_conn = None
            _override_path = db_path
        path = get_db_path()
        _initialized_paths.discard(path)
    with get_connection():
        pass
    return path


# Common alternative name.
init_database = init_db


# ---------------------------------------------------------------------------
# Row helpers
# ---------------------------------------------------------------------------

def _row_to_user(row: Optional[sqlite3.Row]) -> Optional[Dict[str, Any]]:
    if row is None:
        return None
    user = dict(row)
    user["user_id"] = user["id"]
    return user


def to_public_user(user: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """User dict without the password hash, as exposed by the API."""
    if user is None:
        return None
    return {
        "user_id": user["id"],
        "username": user["username"],
        "email": user["email"],
        "full_name": user.get("full_name"),
        "created_at": user.get("created_at"),
        "updated_at": user.get("updated_at"),
    }


def _duplicate_field(exc: sqlite3.IntegrityError) -> str:
    message = str(exc).lower()
    if "email" in message:
        return "email"
    return "username"


# ---------------------------------------------------------------------------
# CRUD
# ---------------------------------------------------------------------------

def create_user(username: str, email: str, password_hash: str,
                full_name: Optional[str] = None) -> Dict[str, Any]:
    """Insert a user and return it. Raises DuplicateUserError on conflicts."""
    now = _now()
    try:
        with get_connection() as conn:
            cursor = conn.execute(
                "INSERT INTO users (username, email, password_hash, full_name, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (username, email, password_hash, full_name, now, now),
            )
            user_id = cursor.lastrowid
            row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    except DuplicateUserError:
        raise
    except sqlite3.IntegrityError as exc:
        raise DuplicateUserError(_duplicate_field(exc)) from exc
    return _row_to_user(row)


def get_user_by_id(user_id: Any) -> Optional[Dict[str, Any]]:
    try:
        user_id = int(user_id)
    except (TypeError, ValueError):
        return None
    with get_connection() as conn:
        row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    return _row_to_user(row)


def get_user_by_username(username: str) -> Optional[Dict[str, Any]]:
    if not isinstance(username, str):
        return None
    with get_connection() as conn:
        row = conn.execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()
    return _row_to_user(row)


def get_user_by_email(email: str) -> Optional[Dict[str, Any]]:
    if not isinstance(email, str):
        return None
    with get_connection() as conn:
        row = conn.execute(
            "SELECT * FROM users WHERE email = ? COLLATE NOCASE", (email,)
        ).fetchone()
    return _row_to_user(row)


def username_exists(username: str, exclude_user_id: Any = None) -> bool:
    user = get_user_by_username(username)
    return user is not None and (exclude_user_id is None or str(user["id"]) != str(exclude_user_id))


def email_exists(email: str, exclude_user_id: Any = None) -> bool:
    user = get_user_by_email(email)
    return user is not None and (exclude_user_id is None or str(user["id"]) != str(exclude_user_id))


def update_user(user_id: Any, fields: Optional[Dict[str, Any]] = None,
                **kwargs: Any) -> Optional[Dict[str, Any]]:
    """Update the given fields of a user and return the updated user.

    Fields may be passed as a dict and/or keyword arguments; only
    ``username``, ``email``, ``full_name`` and ``password_hash`` are applied.
    Returns None when the user does not exist.  ``updated_at`` is always
    refreshed.  Raises DuplicateUserError on username/email conflicts.
    """
    changes: Dict[str, Any] = {}
    if fields:
        changes.update(fields)
    changes.update(kwargs)
    changes = {k: v for k, v in changes.items() if k in UPDATABLE_FIELDS}

    try:
        user_id = int(user_id)
    except (TypeError, ValueError):
        return None

    assignments = [f"{column} = ?" for column in changes]
    params: List[Any] = list(changes.values())
    assignments.append("updated_at = ?")
    params.append(_now())
    params.append(user_id)

    try:
        with get_connection() as conn:
            cursor = conn.execute(
                f"UPDATE users SET {', '.join(assignments)} WHERE id = ?", params
            )
            if cursor.rowcount == 0:
                return None
            row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    except sqlite3.IntegrityError as exc:
        if isinstance(exc, DuplicateUserError):
            raise
        raise DuplicateUserError(_duplicate_field(exc)) from exc
    return _row_to_user(row)


def delete_user(user_id: Any) -> bool:
    """Delete a user; True when a row was removed."""
    try:
        user_id = int(user_id)
    except (TypeError, ValueError):
        return False
    with get_connection() as conn:
        cursor = conn.execute("DELETE FROM users WHERE id = ?", (user_id,))
        return cursor.rowcount > 0


def list_users(limit: int = 100, offset: int = 0) -> List[Dict[str, Any]]:
    with get_connection() as conn:
        rows = conn.execute(
            "SELECT * FROM users ORDER BY id LIMIT ? OFFSET ?", (int(limit), int(offset))
        ).fetchall()
    return [_row_to_user(r) for r in rows]


def count_users() -> int:
    with get_connection() as conn:
        return conn.execute("SELECT COUNT(*) FROM users").fetchone()[0]


def clear_users() -> None:
    """Remove every user (intended for tests)."""
    with get_connection() as conn:
        conn.execute("DELETE FROM users")


# Alternative names used by some callers.
get_user = get_user_by_id
find_user_by_username = get_user_by_username
find_user_by_email = get_user_by_email
