import os
import re
import secrets
import threading
import time
import uuid
from datetime import datetime, timezone

from flask import Flask, jsonify, request
from werkzeug.security import check_password_hash, generate_password_hash

SERVER_NAME = os.environ.get("SYNAPSE_SERVER_NAME", "example.org")
PORT = int(os.environ.get("PORT", os.environ.get("SYNAPSE_PORT", "8080")))
TOKEN_TTL = 3600
ROOM_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")

app = Flask(__name__)
lock = threading.Lock()
users = {}      # username -> {user_id, password_hash, display_name}
tokens = {}     # token -> (user_id, expires)
rooms = {}      # room_id -> [events]


def err(code, message, status):
    return jsonify({"errcode": code, "error": message}), status


def is_str(v, lo=None, hi=None):
    if not isinstance(v, str):
        return False
    if lo is not None and len(v) < lo:
        return False
    if hi is not None and len(v) > hi:
        return False
    return True


def body_object():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return None
    return data


def auth_user():
    h = request.headers.get("Authorization", "")
    if not h.startswith("Bearer "):
        return None
    tok = h[7:].strip()
    info = tokens.get(tok)
    if not info:
        return None
    uid, exp = info
    if exp < time.time():
        tokens.pop(tok, None)
        return None
    return uid


@app.route("/health", methods=["GET"])
def health():
    return jsonify({
        "status": "ok",
        "service": "synapse-benchmark",
        "time": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    })


@app.route("/register", methods=["POST"])
def register():
    data = body_object()
    if data is None:
        return err("M_NOT_JSON", "Request body must be a JSON object", 400)
    allowed = {"username", "password", "display_name"}
    extra = set(data) - allowed
    if extra:
        return err("M_BAD_JSON", "Unknown fields: %s" % ", ".join(sorted(extra)), 400)
    username = data.get("username")
    password = data.get("password")
    if not is_str(username, 3, 64) or ":" in username or "@" in username or any(c.isspace() for c in username):
        return err("M_INVALID_USERNAME", "username must be 3-64 characters", 400)
    if not is_str(password, 6, 128):
        return err("M_WEAK_PASSWORD", "password must be 6-128 characters", 400)
    if "display_name" in data and not is_str(data["display_name"], 1, 128):
        return err("M_BAD_JSON", "display_name must be 1-128 characters", 400)
    with lock:
        if username in users:
            return err("M_USER_IN_USE", "User ID already taken", 409)
        uid = "@%s:%s" % (username, SERVER_NAME)
        users[username] = {
            "user_id": uid,
            "password_hash": generate_password_hash(password),
            "display_name": data.get("display_name", username),
        }
    return jsonify({"user_id": uid}), 201


@app.route("/login", methods=["POST"])
def login():
    data = body_object()
    if data is None:
        return err("M_NOT_JSON", "Request body must be a JSON object", 400)
    extra = set(data) - {"username", "password"}
    if extra:
        return err("M_BAD_JSON", "Unknown fields: %s" % ", ".join(sorted(extra)), 400)
    username = data.get("username")
    password = data.get("password")
    if not isinstance(username, str) or not isinstance(password, str):
        return err("M_BAD_JSON", "username and password are required", 400)
    u = users.get(username)
    if u is None or not check_password_hash(u["password_hash"], password):
        return err("M_FORBIDDEN", "Invalid username or password", 401)
    tok = "token-" + secrets.token_hex(16)
    tokens[tok] = (u["user_id"], time.time() + TOKEN_TTL)
    return jsonify({"access_token": tok, "token_type": "Bearer", "expires_in": TOKEN_TTL})


@app.route("/rooms/<path:room_id>/messages", methods=["POST"])
def send_message(room_id):
    uid = auth_user()
    if uid is None:
        return err("M_MISSING_TOKEN", "Missing or invalid access token", 401)
    if not ROOM_RE.match(room_id):
        return err("M_INVALID_PARAM", "Invalid room_id", 400)
    data = body_object()
    if data is None:
        return err("M_NOT_JSON", "Request body must be a JSON object", 400)
    if set(data) - {"type", "content"}:
        return err("M_BAD_JSON", "Unknown fields", 400)
    if data.get("type") != "m.text":
        return err("M_BAD_JSON", "type must be 'm.text'", 400)
    content = data.get("content")
    if not isinstance(content, dict) or set(content) - {"body"}:
        return err("M_BAD_JSON", "content must be an object with only 'body'", 400)
    body = content.get("body")
    if not is_str(body, 1, 4000):
        return err("M_BAD_JSON", "content.body must be 1-4000 characters", 400)
    event = {
        "event_id": "$" + uuid.uuid4().hex,
        "sender": uid,
        "type": "m.text",
        "content": {"body": body},
        "ts": int(time.time() * 1000),
    }
    with lock:
        rooms.setdefault(room_id, []).append(event)
    return jsonify({"event_id": event["event_id"], "room_id": room_id, "ts": event["ts"]}), 200


@app.route("/rooms/<path:room_id>/messages", methods=["GET"])
def list_messages(room_id):
    uid = auth_user()
    if uid is None:
        return err("M_MISSING_TOKEN", "Missing or invalid access token", 401)
    if not ROOM_RE.match(room_id):
        return err("M_INVALID_PARAM", "Invalid room_id", 400)
    raw_limit = request.args.get("limit", "20")
    try:
        limit = int(raw_limit)
    except ValueError:
        return err("M_INVALID_PARAM", "limit must be an integer", 400)
    if limit < 1 or limit > 100:
        return err("M_INVALID_PARAM", "limit must be between 1 and 100", 400)
    cursor = request.args.get("from") or request.args.get("cursor")
    start = 0
    if cursor:
        try:
            start = int(cursor)
        except ValueError:
            return err("M_INVALID_PARAM", "invalid cursor", 400)
        if start < 0:
            return err("M_INVALID_PARAM", "invalid cursor", 400)
    events = rooms.get(room_id, [])
    chunk = events[start:start + limit]
    next_cursor = str(start + limit) if start + limit < len(events) else None
    return jsonify({"room_id": room_id, "messages": chunk, "next_cursor": next_cursor})


@app.errorhandler(404)
def nf(e):
    return err("M_NOT_FOUND", "Not found", 404)


@app.errorhandler(405)
def mna(e):
    return err("M_UNRECOGNIZED", "Method not allowed", 405)


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT, threaded=True)
