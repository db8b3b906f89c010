import hashlib
import os
import secrets
import threading
import time
import uuid

SERVER_NAME = os.getenv("SERVER_NAME", "example.org")
TOKEN_TTL = int(os.getenv("TOKEN_TTL", "3600"))

lock = threading.Lock()
users = {}
tokens = {}
rooms = {}


def hash_password(password, salt):
    return hashlib.sha256((salt + password).encode("utf-8")).hexdigest()


def create_user(username, password, display_name=None):
    with lock:
        if username in users:
            return None
        salt = secrets.token_hex(8)
        user_id = "@%s:%s" % (username, SERVER_NAME)
        users[username] = {
            "user_id": user_id,
            "salt": salt,
            "password": hash_password(password, salt),
            "display_name": display_name or username,
        }
        return user_id


def check_login(username, password):
    user = users.get(username)
    if not user:
        return None
    if hash_password(password, user["salt"]) != user["password"]:
        return None
    token = "syt_" + secrets.token_urlsafe(32)
    with lock:
        tokens[token] = {"user_id": user["user_id"], "expires": time.time() + TOKEN_TTL}
    return token


def user_for_token(token):
    info = tokens.get(token)
    if not info:
        return None
    if info["expires"] < time.time():
        tokens.pop(token, None)
        return None
    return info["user_id"]


def add_message(room_id, sender, msg_type, body):
    event = {
        "event_id": "$" + uuid.uuid4().hex,
        "sender": sender,
        "type": msg_type,
        "content": {"body": body},
        "ts": int(time.time() * 1000),
    }
    with lock:
        rooms.setdefault(room_id, []).append(event)
    return event


def list_messages(room_id, limit):
    msgs = rooms.get(room_id, [])
    return [dict(m, content=dict(m["content"])) for m in msgs[-limit:]]
