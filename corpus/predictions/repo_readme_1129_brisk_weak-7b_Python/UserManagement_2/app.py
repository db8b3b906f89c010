import os
import re
import sqlite3
import logging
import datetime
from functools import wraps

import jwt
from flask import Flask, request, jsonify, g
from werkzeug.security import generate_password_hash, check_password_hash

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger("projectc")

SECRET_KEY = os.environ.get("SECRET_KEY", "projectc-secret-key")
DB_PATH = os.environ.get("DB_PATH", "users.db")
TOKEN_EXPIRES = int(os.environ.get("TOKEN_EXPIRES", "3600"))
PORT = int(os.environ.get("PORT", "8080"))

app = Flask(__name__)

EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def get_db():
    conn = sqlite3.connect(DB_PATH)
    conn.row_factory = sqlite3.Row
    return conn


def init_db():
    conn = get_db()
    conn.execute("""
        CREATE TABLE IF NOT EXISTS users (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            username TEXT UNIQUE NOT NULL,
            email TEXT UNIQUE NOT NULL,
            password TEXT NOT NULL,
            full_name TEXT,
            created_at TEXT,
            updated_at TEXT
        )
    """)
    conn.commit()
    conn.close()


def now():
    return datetime.datetime.utcnow().isoformat() + "Z"


def error(message, code, status, details=None):
    body = {"success": False, "message": message, "error_code": code}
    if details is not None:
        body["details"] = details
    return jsonify(body), status


def user_dict(row, updated=True):
    d = {
        "user_id": row["id"],
        "username": row["username"],
        "email": row["email"],
        "full_name": row["full_name"] or "",
        "created_at": row["created_at"],
    }
    if updated:
        d["updated_at"] = row["updated_at"]
    return d


def token_required(f):
    @wraps(f)
    def wrapper(*args, **kwargs):
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return error("Missing or invalid authorization header", "UNAUTHORIZED", 401)
        token = auth[7:]
        try:
            payload = jwt.decode(token, SECRET_KEY, algorithms=["HS256"])
        except jwt.ExpiredSignatureError:
            return error("Token expired", "TOKEN_EXPIRED", 401)
        except Exception:
            return error("Invalid token", "INVALID_TOKEN", 401)
        g.user_id = int(payload.get("sub"))
        return f(*args, **kwargs)
    return wrapper


@app.route("/health", methods=["GET"])
@app.route("/api/v1/health", methods=["GET"])
def health():
    return jsonify({"success": True, "status": "healthy", "message": "ok"})


@app.route("/api/v1/users/register", methods=["POST"])
def register():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return error("Invalid JSON body", "INVALID_REQUEST", 400)
    username = data.get("username")
    email = data.get("email")
    password = data.get("password")
    full_name = data.get("full_name")
    errors = {}
    if not isinstance(username, str) or not (3 <= len(username) <= 20):
        errors["username"] = "Username must be 3-20 characters"
    if not isinstance(email, str) or not EMAIL_RE.match(email):
        errors["email"] = "Invalid email format"
    if not isinstance(password, str) or not (6 <= len(password) <= 50):
        errors["password"] = "Password must be 6-50 characters"
    if full_name is not None and (not isinstance(full_name, str) or len(full_name) > 100):
        errors["full_name"] = "Full name max 100 characters"
    if errors:
        return error("Validation failed", "VALIDATION_ERROR", 400, errors)

    conn = get_db()
    existing = conn.execute("SELECT id FROM users WHERE username = ?", (username,)).fetchone()
    if existing:
        conn.close()
        return error("Username already exists", "USERNAME_EXISTS", 409)
    existing = conn.execute("SELECT id FROM users WHERE email = ?", (email,)).fetchone()
    if existing:
        conn.close()
        return error("Email already exists", "EMAIL_EXISTS", 409)
    ts = now()
    cur = conn.execute(
        "INSERT INTO users (username, email, password, full_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
        (username, email, generate_password_hash(password), full_name or "", ts, ts),
    )
    conn.commit()
    row = conn.execute("SELECT * FROM users WHERE id = ?", (cur.lastrowid,)).fetchone()
    conn.close()
    logger.info("registered user %s", username)
    return jsonify({"success": True, "message": "User registered successfully",
                    "data": user_dict(row, updated=False)}), 201


@app.route("/api/v1/users/login", methods=["POST"])
def login():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return error("Invalid JSON body", "INVALID_REQUEST", 400)
    username = data.get("username")
    password = data.get("password")
    if not username or not password:
        return error("Username and password are required", "VALIDATION_ERROR", 400)
    conn = get_db()
    row = conn.execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()
    conn.close()
    if not row or not check_password_hash(row["password"], password):
        return error("Invalid username or password", "INVALID_CREDENTIALS", 401)
    payload = {
        "sub": str(row["id"]),
        "username": row["username"],
        "exp": datetime.datetime.utcnow() + datetime.timedelta(seconds=TOKEN_EXPIRES),
    }
    token = jwt.encode(payload, SECRET_KEY, algorithm="HS256")
    if isinstance(token, bytes):
        token = token.decode()
    return jsonify({
        "success": True,
        "message": "Login successful",
        "data": {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": TOKEN_EXPIRES,
            "user": {
                "user_id": row["id"],
                "username": row["username"],
                "email": row["email"],
                "full_name": row["full_name"] or "",
            },
        },
    })


@app.route("/api/v1/users/<int:user_id>", methods=["GET"])
@token_required
def get_user(user_id):
    conn = get_db()
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    conn.close()
    if not row:
        return error("User not found", "USER_NOT_FOUND", 404)
    return jsonify({"success": True, "message": "User retrieved successfully", "data": user_dict(row)})


@app.route("/api/v1/users/<int:user_id>", methods=["PUT"])
@token_required
def update_user(user_id):
    conn = get_db()
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if not row:
        conn.close()
        return error("User not found", "USER_NOT_FOUND", 404)
    if g.user_id != user_id:
        conn.close()
        return error("Permission denied", "FORBIDDEN", 403)
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        conn.close()
        return error("Invalid JSON body", "INVALID_REQUEST", 400)
    email = data.get("email")
    full_name = data.get("full_name")
    errors = {}
    if email is not None and (not isinstance(email, str) or not EMAIL_RE.match(email)):
        errors["email"] = "Invalid email format"
    if full_name is not None and (not isinstance(full_name, str) or len(full_name) > 100):
        errors["full_name"] = "Full name max 100 characters"
    if errors:
        conn.close()
        return error("Validation failed", "VALIDATION_ERROR", 400, errors)
    if email is not None and email != row["email"]:
        other = conn.execute("SELECT id FROM users WHERE email = ? AND id != ?", (email, user_id)).fetchone()
        if other:
            conn.close()
            return error("Email already exists", "EMAIL_EXISTS", 409)
    new_email = email if email is not None else row["email"]
    new_name = full_name if full_name is not None else row["full_name"]
    ts = now()
    conn.execute("UPDATE users SET email = ?, full_name = ?, updated_at = ? WHERE id = ?",
                 (new_email, new_name, ts, user_id))
    conn.commit()
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    conn.close()
    d = user_dict(row)
    d.pop("created_at", None)
    return jsonify({"success": True, "message": "User updated successfully", "data": d})


@app.route("/api/v1/users/<int:user_id>", methods=["DELETE"])
@token_required
def delete_user(user_id):
    conn = get_db()
    row = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if not row:
        conn.close()
        return error("User not found", "USER_NOT_FOUND", 404)
    if g.user_id != user_id:
        conn.close()
        return error("Permission denied", "FORBIDDEN", 403)
    conn.execute("DELETE FROM users WHERE id = ?", (user_id,))
    conn.commit()
    conn.close()
    return jsonify({"success": True, "message": "User deleted successfully"})


@app.errorhandler(404)
def not_found(e):
    return error("Resource not found", "NOT_FOUND", 404)


@app.errorhandler(405)
def method_not_allowed(e):
    return error("Method not allowed", "METHOD_NOT_ALLOWED", 405)


@app.errorhandler(500)
def internal(e):
    return error("Internal server error", "INTERNAL_ERROR", 500)


init_db()

if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT)
