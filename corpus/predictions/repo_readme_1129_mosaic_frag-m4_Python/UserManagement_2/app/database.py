"""SQLite persistence for users.

All functions open short-lived connections so they are safe to call from
FastAPI's worker threads. Users are returned as plain dictionaries with the
keys ``user_id``, ``username``, ``email``, ``full_name``, ``password_hash``,
``created_at`` and ``updated_at`` (timestamps are ISO 8601 strings in UTC).
"""

import logging
import os
import sqlite3
import threading
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Dict, Optional

logger = logging.getLogger(__name__)

DATABASE_PATH = os.environ.get("DATABASE_PATH", os.environ.get("DB_PATH", "users.db"))

_lock = threading.RLock()
_initialized_paths = set()

_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    user_id       INTEGER PRIMARY KEY AUTOINCREMENT,
    username      TEXT NOT NULL UNIQUE,
    email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT NOT NULL,
    full_name     TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
)
"""

_COLUMNS = "user_id, username, email, password_hash, full_name, created_at, updated_at"


class DuplicateUserError(Exception):
    """Raised when a username or email is already taken."""

    def __init__(self, field: str, message: Optional[str] = None):
        self.field = field
        super().__init__(message or f"{field} already exists")


def utc_now_iso() -> str:
    """Current UTC time as an ISO 8601 string."""
    return datetime.now(timezone.utc).isoformat()


def _connect() -> sqlite3.Connection:
    directory = os.path.dirname(os.path.abspath(DATABASE_PATH))
    if directory and not os.path.isdir(directory):
        os.makedirs(directory, exist_ok=True)
    conn = sqlite3.connect(DATABASE_PATH, timeout=30, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    return conn


@contextmanager
def get_connection():
    """Yield a connection (schema guaranteed), committing on success."""
    with _lock:
        if DATABASE_PATH not in _initialized_paths:
            _create_schema()
        conn = _connect()
        try:
            yield conn
            conn.commit()
        except Exception:
            conn.rollback()
            raise
        finally:
            conn.close()


def _create_schema() -> None:
    conn = _connect()
    try:
        conn.execute(_SCHEMA)
        conn.commit()
    finally:
        conn.close()
    _initialized_paths.add(DATABASE_PATH)


def init_db() -> None:
    """Create the users table if it does not exist."""
    with _lock:
        _create_schema()
    logger.info("Database initialised at %s", DATABASE_PATH)


def _row_to_dict(row: Optional[sqlite3.Row]) -> Optional[Dict[str, Any]]:
    if row is None:
        return None
    return {
        "user_id": row["user_id"],
        "username": row["username"],
        "email": row["email"],
        "password_hash": row["password_hash"],
        "full_name": row["full_name"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


# ---------------------------------------------------------------------------
# Uniqueness checks
# ---------------------------------------------------------------------------

def username_exists(username: str, exclude_user_id: Optional[int] = None) -> bool:
    """Return True if ``username`` is already used (optionally by another user)."""
    with get_connection() as conn:
        if exclude_user_id is None:
            row = conn.execute(
                "SELECT 1 FROM users WHERE username = ?", (username,)
            ).fetchone()
        else:
            row = conn.execute(
                "SELECT 1 FROM users WHERE username = ? AND user_id != ?",
                (username, exclude_user_id),
            ).fetchone()
    return row is not None


def email_exists(email: str, exclude_user_id: Optional[int] = None) -> bool:
    """Return True if ``email`` is already used (optionally by another user)."""
    with get_connection() as conn:
        if exclude_user_id is None:
            row = conn.execute(
                "SELECT 1 FROM users WHERE email = ? COLLATE NOCASE", (email,)
            ).fetchone()
        else:
            row = conn.execute(
                "SELECT 1 FROM users WHERE email = ? COLLATE NOCASE AND user_id != ?",
                (email, exclude_user_id),
            ).fetchone()
    return row is not None


# ---------------------------------------------------------------------------
# CRUD
# ---------------------------------------------------------------------------

def create_user(
    username: str,
    email: str,
    password_hash: str,
    full_name: Optional[str] = None,
) -> Dict[str, Any]:
    """Insert a new user and return it.

    Raises :class:`DuplicateUserError` if the username or email is taken.
    """
    now = utc_now_iso()
    with get_connection() as conn:
        if conn.execute(
            "SELECT 1 FROM users WHERE username = ?", (username,)
        ).fetchone():
            raise DuplicateUserError("username", "Username already exists")
        if conn.execute(
            "SELECT 1 FROM users WHERE email = ? COLLATE NOCASE", (email,)
        ).fetchone():
            raise DuplicateUserError("email", "Email already exists")
        try:
            cursor = conn.execute(
                "INSERT INTO users (username, email, password_hash, full_name, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (username, email, password_hash, full_name, now, now),
            )
        except sqlite3.IntegrityError as exc:
            field = "email" if "email" in str(exc).lower() else "username"
            raise DuplicateUserError(field, f"{field.capitalize()} already exists") from exc
        user_id = cursor.lastrowid
        row = conn.execute(
            f"SELECT {_COLUMNS} FROM users WHERE user_id = ?", (user_id,)
        ).fetchone()
    return _row_to_dict(row)


def get_user_by_id(user_id: int) -> Optional[Dict[str, Any]]:
    """Return the user with ``user_id`` or None."""
    with get_connection() as conn:
        row = conn.execute(
            f"SELECT {_COLUMNS} FROM users WHERE user_id = ?", (user_id,)
        ).fetchone()
    return _row_to_dict(row)


def get_user_by_username(username: str) -> Optional[Dict[str, Any]]:
    """Return the user with ``username`` or None."""
    with get_connection() as conn:
        row = conn.execute(
            f"SELECT {_COLUMNS} FROM users WHERE username = ?", (username,)
        ).fetchone()
    return _row_to_dict(row)


def get_user_by_email(email: str) -> Optional[Dict[str, Any]]:
    """Return the user with ``email`` (case-insensitive) or None."""
    with get_connection() as conn:
        row = conn.execute(
            f"SELECT {_COLUMNS} FROM users WHERE email = ? COLLATE NOCASE", (email,)
        ).fetchone()
    return _row_to_dict(row)


def update_user(user_id: int, **fields: Any) -> Optional[Dict[str, Any]]:
    """Update ``email`` and/or ``full_name`` of a user.

    Keyword arguments whose value is None are ignored. ``updated_at`` is
    always refreshed. Returns the updated user, or None if it does not exist.
    Raises :class:`DuplicateUserError` if the new email belongs to another user.
    """
    allowed = ("email", "full_name")
    updates = {k: v for k, v in fields.items() if k in allowed and v is not None}
    now = utc_now_iso()

    with get_connection() as conn:
        existing = conn.execute(
            "SELECT user_id FROM users WHERE user_id = ?", (user_id,)
        ).fetchone()
        if existing is None:
            return None

        if "email" in updates:
            clash = conn.execute(
                "SELECT 1 FROM users WHERE email = ? COLLATE NOCASE AND user_id != ?",
                (updates["email"], user_id),
            ).fetchone()
            if clash:
                raise DuplicateUserError("email", "Email already exists")

        assignments = [f"{column} = ?" for column in updates]
        params = list(updates.values())
        assignments.append("updated_at = ?")
        params.append(now)
        params.append(user_id)
        try:
            conn.execute(
                f"UPDATE users SET {', '.join(assignments)} WHERE user_id = ?",
                params,
            )
        except sqlite3.IntegrityError as exc:
            raise DuplicateUserError("email", "Email already exists") from exc

        row = conn.execute(
            f"SELECT {_COLUMNS} FROM users WHERE user_id = ?", (user_id,)
        ).fetchone()
    return _row_to_dict(row)


def delete_user(user_id: int) -> bool:
    """Delete a user. Returns True if a row was removed."""
    with get_connection() as conn:
        cursor = conn.execute("DELETE FROM users WHERE user_id = ?", (user_id,))
        deleted = cursor.rowcount > 0
    return deleted
