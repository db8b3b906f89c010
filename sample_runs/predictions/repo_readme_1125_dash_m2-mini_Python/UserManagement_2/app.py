import logging
import os
import re
import sqlite3
from datetime import datetime, timedelta, timezone
from functools import wraps

import jwt
from flask import Flask, g, jsonify, request
from werkzeug.security import check_password_hash, generate_password_hash

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("usermgmt")

DB_PATH = os.environ.get("DB_PATH", "users.db")
SECRET = os.environ.get("JWT_SECRET", "change-me-secret")
EXPIRES = int(os.environ.get("JWT_EXPIRES", "3600"))
PORT = int(os.environ.get("PORT", "8080"))
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

app = Flask(__name__)


def now_iso():
    return datetime.now(timezone.utc).isoformat()


def get_db():
    if "db" not in g:
        g.db = sqlite3.connect(DB_PATH)
        g.db.row_factory = sqlite3.Row
    return g.db


@app.teardown_appcontext
def close_db(exc):
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_db():
    conn = sqlite3.connect(DB_PATH)
    conn.execute(
        """CREATE TABLE IF NOT EXISTS users (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            username TEXT UNIQUE NOT NULL,
            email TEXT UNIQUE NOT NULL,
            password_hash TEXT NOT NULL,
            full_name TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )"""
    )
    conn.commit()
    conn.close()


def err(message, code, status, details=None):
    body = {"success": False, "message": message, "error_code": code}
    if details is not None:
        body["details"] = details
    return jsonify(body), status


def user_dict(row, fields=("user_id", "username", "email", "full_name", "created_at", "updated_at")):
    full = {
        "user_id": row["id"],
        "username": row["username"],
        "email": row["email"],
        "full_name": row["full_name"] or "",
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }
    return {k: full[k] for k in fields}


def auth_required(f):
    @wraps(f)
    def wrapper(*args, **kwargs):
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return err("Missing or invalid Authorization header", "UNAUTHORIZED", 401)
        token = header[7:].strip()
        try:
            payload = jwt.decode(token, SECRET, algorithms=["HS256"])
        except jwt.ExpiredSignatureError:
            return err("Token expired", "TOKEN_EXPIRED", 401)
        except jwt.InvalidTokenError:
            return err("Invalid token", "INVALID_TOKEN", 401)
        g.current_user_id = int(payload["sub"])
        row = get_db().execute("SELECT id FROM users WHERE id=?", (g.current_user_id,)).fetchone()
        if row is None:
            return err("User not found", "UNAUTHORIZED", 401)
        return f(*args, **kwargs)
    return wrapper


@app.route("/health", methods=["GET"])
@app.route("/api/v1/health", methods=["GET"])
def health():
    return jsonify({"success": True, "status": "healthy", "timestamp": now_iso()})


@app.route("/api/v1/users/register", methods=["POST"])
def register():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return err("Invalid JSON body", "VALIDATION_ERROR", 400)
    errors = {}
    username = data.get("username")
    email = data.get("email")
    password = data.get("password")
    full_name = data.get("full_name")
    if not isinstance(username, str) or not (3 <= len(username) <= 20):
        errors["username"] = "username is required and must be 3-20 characters"
    if not isinstance(email, str) or not EMAIL_RE.match(email):
        errors["email"] = "valid email is required"
    if not isinstance(password, str) or not (6 <= len(password) <= 50):
        errors["password"] = "password is required and must be 6-50 characters"
    if full_name is not None and (not isinstance(full_name, str) or len(full_name) > 100):
        errors["full_name"] = "full_name must be a string of max 100 characters"
    if errors:
        return err("Validation failed", "VALIDATION_ERROR", 400, errors)
    db = get_db()
    if db.execute("SELECT 1 FROM users WHERE username=?", (username,)).fetchone():
        return err("Username already exists", "USERNAME_EXISTS", 409)
    if db.execute("SELECT 1 FROM users WHERE email=?", (email,)).fetchone():
        return err("Email already exists", "EMAIL_EXISTS", 409)
    ts = now_iso()
    cur = db.execute(
        "INSERT INTO users (username, email, password_hash, full_name, created_at, updated_at) VALUES (?,?,?,?,?,?)",
        (username, email, generate_password_hash(password), full_name or "", ts, ts),
    )
    db.commit()
    row = db.execute("SELECT * FROM users WHERE id=?", (cur.lastrowid,)).fetchone()
    log.info("registered user %s", username)
    return jsonify({
        "success": True,
        "message": "User registered successfully",
        "data": user_dict(row, ("user_id", "username", "email", "full_name", "created_at")),
    }), 201


@app.route("/api/v1/users/login", methods=["POST"])
def login():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return err("Invalid JSON body", "VALIDATION_ERROR", 400)
    username = data.get("username")
    password = data.get("password")
    if not isinstance(username, str) or not username or not isinstance(password, str) or not password:
        return err("username and password are required", "VALIDATION_ERROR", 400)
    row = get_db().execute("SELECT * FROM users WHERE username=?", (username,)).fetchone()
    if row is None or not check_password_hash(row["password_hash"], password):
        return err("Invalid username or password", "INVALID_CREDENTIALS", 401)
    exp = datetime.now(timezone.utc) + timedelta(seconds=EXPIRES)
    token = jwt.encode({"sub": str(row["id"]), "username": row["username"], "exp": exp}, SECRET, algorithm="HS256")
    return jsonify({
        "success": True,
        "message": "Login successful",
        "data": {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": EXPIRES,
            "user": user_dict(row, ("user_id", "username", "email", "full_name")),
        },
    })


def load_target(user_id):
    row = get_db().execute("SELECT * FROM users WHERE id=?", (user_id,)).fetchone()
    return row


@app.route("/api/v1/users/<int:user_id>", methods=["GET"])
@auth_required
def get_user(user_id):
    row = load_target(user_id)
    if row is None:
        return err("User not found", "USER_NOT_FOUND", 404)
    return jsonify({"success": True, "message": "User retrieved successfully", "data": user_dict(row)})


@app.route("/api/v1/users/<int:user_id>", methods=["PUT"])
@auth_required
def update_user(user_id):
    row = load_target(user_id)
    if row is None:
        return err("User not found", "USER_NOT_FOUND", 404)
    if g.current_user_id != user_id:
        return err("Permission denied", "FORBIDDEN", 403)
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return err("Invalid JSON body", "VALIDATION_ERROR", 400)
    errors = {}
    email = data.get("email")
    full_name = data.get("full_name")
    if email is not None and (not isinstance(email, str) or not EMAIL_RE.match(email)):
        errors["email"] = "invalid email format"
    if full_name is not None and (not isinstance(full_name, str) or len(full_name) > 100):
        errors["full_name"] = "full_name must be a string of max 100 characters"
    if errors:
        return err("Validation failed", "VALIDATION_ERROR", 400, errors)
    db = get_db()
    if email is not None and email != row["email"]:
        if db.execute("SELECT 1 FROM users WHERE email=? AND id<>?", (email, user_id)).fetchone():
            return err("Email already exists", "EMAIL_EXISTS", 409)
    new_email = email if email is not None else row["email"]
    new_name = full_name if full_name is not None else row["full_name"]
    db.execute("UPDATE users SET email=?, full_name=?, updated_at=? WHERE id=?", (new_email, new_name, now_iso(), user_id))
    db.commit()
    row = load_target(user_id)
    return jsonify({
        "success": True,
        "message": "User updated successfully",
        "data": user_dict(row, ("user_id", "username", "email", "full_name", "updated_at")),
    })


@app.route("/api/v1/users/<int:user_id>", methods=["DELETE"])
@auth_required
def delete_user(user_id):
    row = load_target(user_id)
    if row is None:
        return err("User not found", "USER_NOT_FOUND", 404)
    if g.current_user_id != user_id:
        return err("Permission denied", "FORBIDDEN", 403)
    db = get_db()
    db.execute("DELETE FROM users WHERE id=?", (user_id,))
    db.commit()
    return jsonify({"success": True, "message": "User deleted successfully"})


@app.errorhandler(404)
def not_found(e):
    return err("Resource not found", "NOT_FOUND", 404)


@app.errorhandler(405)
def not_allowed(e):
    return err("Method not allowed", "METHOD_NOT_ALLOWED", 405)


@app.errorhandler(500)
def server_error(e):
    return err("Internal server error", "INTERNAL_ERROR", 500)


init_db()

if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT)
