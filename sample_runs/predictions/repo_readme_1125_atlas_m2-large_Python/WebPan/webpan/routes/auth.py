"""/api/v1/auth: registration, login, logout."""
import re
import sqlite3
import uuid

from flask import Blueprint, current_app, g

from ..db import get_db
from ..errors import AUTH_INVALID, USER_EXISTS, VALIDATION_ERROR, APIError
from ..security import bearer_token, hash_password, issue_token, login_required, revoke_token, verify_password
from ..services import audit
from ..utils import json_body, utc_iso

bp = Blueprint("auth", __name__, url_prefix="/api/v1/auth")

USERNAME_RE = re.compile(r"^[\w.\-]{3,50}$")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _required_str(data: dict, field: str) -> str:
    value = data.get(field)
    if value is None or (isinstance(value, str) and not value.strip()):
        raise APIError(400, VALIDATION_ERROR, f"Field '{field}' is required")
    if not isinstance(value, str):
        raise APIError(400, VALIDATION_ERROR, f"Field '{field}' must be a string")
    return value


@bp.post("/register")
def register():
    data = json_body()
    username = _required_str(data, "username").strip()
    password = _required_str(data, "password")
    email = _required_str(data, "email").strip()
    if not USERNAME_RE.match(username):
        raise APIError(400, VALIDATION_ERROR,
                       "Username must be 3-50 characters of letters, digits, '_', '.' or '-'")
    if not 6 <= len(password) <= 128:
        raise APIError(400, VALIDATION_ERROR, "Password must be 6-128 characters")
    if len(email) > 254 or not EMAIL_RE.match(email):
        raise APIError(400, VALIDATION_ERROR, "Invalid email format")

    user_id = uuid.uuid4().hex
    db = get_db()
    if db.execute("SELECT 1 FROM users WHERE username = ?", (username,)).fetchone():
        raise APIError(409, USER_EXISTS, "Username already exists")
    if db.execute("SELECT 1 FROM users WHERE email = ?", (email,)).fetchone():
        raise APIError(409, USER_EXISTS, "Email already registered")
    try:
        db.execute(
            "INSERT INTO users (id, username, email, password_hash, quota_bytes, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (user_id, username, email, hash_password(password),
             current_app.config["WEBPAN"].default_quota, utc_iso()),
        )
    except sqlite3.IntegrityError:
        raise APIError(409, USER_EXISTS, "Username or email already exists")
    audit.record("register", user_id, username)
    return {"success": True, "message": "User registered successfully", "user_id": user_id}, 201


@bp.post("/login")
def login():
    data = json_body()
    username = _required_str(data, "username").strip()
    password = _required_str(data, "password")
    user = get_db().execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()
    if user is None or not verify_password(password, user["password_hash"]):
        audit.record("login_failed", None, username)
        raise APIError(401, AUTH_INVALID, "Invalid username or password")
    token = issue_token(user["id"])
    audit.record("login", user["id"])
    return {
        "success": True,
        "token": token,
        "user_id": user["id"],
        "expires_in": current_app.config["WEBPAN"].token_ttl,
    }


@bp.post("/logout")
@login_required
def logout():
    revoke_token(bearer_token())
    audit.record("logout", g.user["id"])
    return {"success": True, "message": "Logged out successfully"}
