import os
import re
import time
import secrets
import threading
from datetime import datetime, timezone
from functools import wraps

from flask import Flask, request, jsonify, g
from werkzeug.security import generate_password_hash, check_password_hash

app = Flask(__name__)

SERVER_NAME = os.environ.get("SERVER_NAME", "example.org")
TOKEN_TTL = 3600

users = {}    # username -> {user_id, password, display_name}
tokens = {}   # token -> (user_id, expires_at)
rooms = {}    # room_id -> [messages]
lock = threading.Lock()

ROOM_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")


def err(status, errcode, msg):
    return jsonify({"errcode": errcode, "error": msg}), status


def require_auth(f):
    @wraps(f)
    def wrapper(*args, **kwargs):
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return err(401, "M_MISSING_TOKEN", "Missing access token")
        token = auth[len("Bearer "):].strip()
        info = tokens.get(token)
        if not info or info[1] < time.time():
            return err(401, "M_UNKNOWN_TOKEN", "Invalid access token")
        g.user_id = info[0]
        return f(*args, **kwargs)
    return wrapper


@app.route("/health", methods=["GET"])
def health():
    return jsonify({
        "status": "ok",
        "service": "synapse-benchmark",
        "time": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    })


@app.route("/register", methods=["POST"])
def register():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return err(400, "M_BAD_JSON", "Body must be a JSON object")
    allowed = {"username", "password", "display_name"}
    if set(data.keys()) - allowed:
        return err(400, "M_BAD_JSON", "Unknown fields")
    username = data.get("username")
    password = data.get("password")
    display_name = data.get("display_name")
    if not isinstance(username, str) or not (3 <= len(username) <= 64):
        return err(400, "M_INVALID_USERNAME", "username must be 3-64 characters")
    if ":" in username or "@" in username:
        return err(400, "M_INVALID_USERNAME", "username contains invalid characters")
    if not isinstance(password, str) or not (6 <= len(password) <= 128):
        return err(400, "M_WEAK_PASSWORD", "password must be 6-128 characters")
    if display_name is not None and (not isinstance(display_name, str) or not (1 <= len(display_name) <= 128)):
        return err(400, "M_BAD_JSON", "display_name must be 1-128 characters")
    with lock:
        if username in users:
            return err(409, "M_USER_IN_USE", "Username already taken")
        user_id = "@%s:%s" % (username, SERVER_NAME)
        users[username] = {
            "user_id": user_id,
            "password": generate_password_hash(password),
            "display_name": display_name or username,
        }
    return jsonify({"user_id": user_id}), 201


@app.route("/login", methods=["POST"])
def login():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return err(400, "M_BAD_JSON", "Body must be a JSON object")
    username = data.get("username")
    password = data.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        return err(400, "M_BAD_JSON", "username and password are required")
    u = users.get(username)
    if not u or not check_password_hash(u["password"], password):
        return err(401, "M_FORBIDDEN", "Invalid username or password")
    token = "syt_" + secrets.token_urlsafe(32)
    tokens[token] = (u["user_id"], time.time() + TOKEN_TTL)
    return jsonify({"access_token": token, "token_type": "Bearer", "expires_in": TOKEN_TTL})


@app.route("/rooms/<room_id>/messages", methods=["POST"])
@require_auth
def send_message(room_id):
    if not ROOM_RE.match(room_id):
        return err(400, "M_INVALID_PARAM", "Invalid room id")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return err(400, "M_BAD_JSON", "Body must be a JSON object")
    if set(data.keys()) - {"type", "content"}:
        return err(400, "M_BAD_JSON", "Unknown fields")
    if data.get("type") != "m.text":
        return err(400, "M_BAD_JSON", "type must be m.text")
    content = data.get("content")
    if not isinstance(content, dict) or set(content.keys()) - {"body"}:
        return err(400, "M_BAD_JSON", "Invalid content")
    body = content.get("body")
    if not isinstance(body, str) or not (1 <= len(body) <= 4000):
        return err(400, "M_BAD_JSON", "body must be 1-4000 characters")
    event_id = "$" + secrets.token_hex(12)
    ts = int(time.time() * 1000)
    msg = {
        "event_id": event_id,
        "sender": g.user_id,
        "type": "m.text",
        "content": {"body": body},
        "ts": ts,
    }
    with lock:
        rooms.setdefault(room_id, []).append(msg)
    return jsonify({"event_id": event_id, "room_id": room_id, "ts": ts})


@app.route("/rooms/<room_id>/messages", methods=["GET"])
@require_auth
def list_messages(room_id):
    if not ROOM_RE.match(room_id):
        return err(400, "M_INVALID_PARAM", "Invalid room id")
    limit = request.args.get("limit", "20")
    try:
        limit = int(limit)
    except ValueError:
        return err(400, "M_INVALID_PARAM", "limit must be an integer")
    if limit < 1 or limit > 100:
        return err(400, "M_INVALID_PARAM", "limit must be between 1 and 100")
    cursor = request.args.get("from") or request.args.get("cursor")
    start = 0
    if cursor:
        try:
            start = int(cursor)
        except ValueError:
            return err(400, "M_INVALID_PARAM", "invalid cursor")
    msgs = rooms.get(room_id, [])
    page = msgs[start:start + limit]
    next_cursor = str(start + limit) if start + limit < len(msgs) else None
    return jsonify({"room_id": room_id, "messages": page, "next_cursor": next_cursor})


@app.errorhandler(404)
def nf(e):
    return err(404, "M_NOT_FOUND", "Not found")


@app.errorhandler(405)
def mna(e):
    return err(405, "M_UNRECOGNIZED", "Method not allowed")


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "8080"))
    app.run(host="0.0.0.0", port=port, threaded=True)
