"""User persistence."""
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Optional

from .database import get_connection, transaction
from .errors import APIError


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")


@dataclass
class User:
    id: int
    username: str
    email: str
    password_hash: str
    full_name: Optional[str]
    created_at: str
    updated_at: str

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> "User":
        return cls(**{k: row[k] for k in row.keys()})


def _conflict(conn: sqlite3.Connection, username: Optional[str], email: Optional[str],
              exclude_id: Optional[int] = None) -> None:
    if username is not None:
        row = conn.execute("SELECT id FROM users WHERE username = ?", (username,)).fetchone()
        if row is not None and row["id"] != exclude_id:
            raise APIError(409, "USERNAME_EXISTS", "Username already exists",
                           {"username": "Username already exists"})
    if email is not None:
        row = conn.execute("SELECT id FROM users WHERE email = ? COLLATE NOCASE", (email,)).fetchone()
        if row is not None and row["id"] != exclude_id:
            raise APIError(409, "EMAIL_EXISTS", "Email already registered",
                           {"email": "Email already registered"})


def create_user(username: str, email: str, password_hash: str, full_name: Optional[str]) -> User:
    now = utc_now()
    with transaction() as conn:
        _conflict(conn, username, email)
        try:
            cursor = conn.execute(
                "INSERT INTO users (username, email, password_hash, full_name, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (username, email, password_hash, full_name, now, now),
            )
        except sqlite3.IntegrityError:
            raise APIError(409, "USER_EXISTS", "Username or email already exists")
        user_id = cursor.lastrowid
    return User(user_id, username, email, password_hash, full_name, now, now)


def get_by_id(user_id: int) -> Optional[User]:
    with get_connection() as conn:
        row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    return User.from_row(row) if row else None


def get_by_login(identifier: str) -> Optional[User]:
    """Find a user by username (exact) or, failing that, by email."""
    with get_connection() as conn:
        row = conn.execute("SELECT * FROM users WHERE username = ?", (identifier,)).fetchone()
        if row is None and "@" in identifier:
            row = conn.execute("SELECT * FROM users WHERE email = ? COLLATE NOCASE",
                               (identifier,)).fetchone()
    return User.from_row(row) if row else None


def update_user(user_id: int, fields: dict) -> Optional[User]:
    if not fields:
        return get_by_id(user_id)
    with transaction() as conn:
        if "email" in fields:
            _conflict(conn, None, fields["email"], exclude_id=user_id)
        assignments = ", ".join(f"{name} = ?" for name in fields)
        values = list(fields.values()) + [utc_now(), user_id]
        try:
            cursor = conn.execute(f"UPDATE users SET {assignments}, updated_at = ? WHERE id = ?",
                                  values)
        except sqlite3.IntegrityError:
            raise APIError(409, "EMAIL_EXISTS", "Email already registered")
        if cursor.rowcount == 0:
            return None
        row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    return User.from_row(row)


def delete_user(user_id: int) -> bool:
    with transaction() as conn:
        cursor = conn.execute("DELETE FROM users WHERE id = ?", (user_id,))
        return cursor.rowcount > 0
