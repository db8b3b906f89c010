"""Thread-safe in-memory store for users, access tokens and room messages."""

import hashlib
import hmac
import os
import secrets
import threading
import time
import uuid

from config import SERVER_NAME, TOKEN_LIFETIME

_PBKDF2_ITERATIONS = 100_000


def _hash_password(password, salt=None):
    """Return ``(salt_hex, hash_hex)`` for the password."""
    if salt is None:
        salt = os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, _PBKDF2_ITERATIONS)
    return salt.hex(), digest.hex()


def _verify_password(password, salt_hex, hash_hex):
    _, candidate = _hash_password(password, bytes.fromhex(salt_hex))
    return hmac.compare_digest(candidate, hash_hex)


def make_user_id(username):
    """Build a Matrix-style user id: ``@username:server``."""
    return "@{}:{}".format(username, SERVER_NAME)


def make_event_id():
    """Build a Matrix-style event id: ``$`` followed by alphanumerics."""
    return "$" + uuid.uuid4().hex


def now_ms():
    """Current timestamp in milliseconds since the epoch."""
    return int(time.time() * 1000)


class Store:
    """In-memory data store guarded by a single lock."""

    def __init__(self):
        self._lock = threading.RLock()
        self._users = {}      # username -> {"user_id", "salt", "password_hash", "display_name"}
        self._tokens = {}     # token -> {"user_id", "expires_at"}
        self._messages = {}   # room_id -> [event, ...] in chronological order

    # ------------------------------------------------------------------ users
    def register_user(self, username, password, display_name=None):
        """Create a user; return its user id, or None if the username is taken."""
        with self._lock:
            if username in self._users:
                return None
            salt, password_hash = _hash_password(password)
            user_id = make_user_id(username)
            self._users[username] = {
                "user_id": user_id,
                "username": username,
                "salt": salt,
                "password_hash": password_hash,
                "display_name": display_name if display_name is not None else username,
                "created_at": now_ms(),
            }
            return user_id

    def user_exists(self, username):
        with self._lock:
            return username in self._users

    def authenticate(self, username, password):
        """Return the user id if the credentials are valid, else None."""
        with self._lock:
            user = self._users.get(username)
        if user is None:
            return None
        if not _verify_password(password, user["salt"], user["password_hash"]):
            return None
        return user["user_id"]

    # ----------------------------------------------------------------- tokens
    def create_token(self, user_id):
        """Issue a new access token for the user; valid for TOKEN_LIFETIME seconds."""
        token = "syt_" + secrets.token_urlsafe(32)
        with self._lock:
            self._tokens[token] = {
                "user_id": user_id,
                "expires_at": time.time() + TOKEN_LIFETIME,
            }
        return token

    def resolve_token(self, token):
        """Return the user id owning a valid token, or None (unknown/expired)."""
        if not token:
            return None
        with self._lock:
            entry = self._tokens.get(token)
            if entry is None:
                return None
            if entry["expires_at"] <= time.time():
                del self._tokens[token]
                return None
            return entry["user_id"]

    def revoke_token(self, token):
        with self._lock:
            self._tokens.pop(token, None)

    # --------------------------------------------------------------- messages
    def add_message(self, room_id, sender, msg_type, content):
        """Append a message event to a room and return the stored event."""
        event = {
            "event_id": make_event_id(),
            "sender": sender,
            "type": msg_type,
            "content": dict(content),
            "ts": now_ms(),
        }
        with self._lock:
            self._messages.setdefault(room_id, []).append(event)
        return dict(event, content=dict(event["content"]))

    def list_messages(self, room_id, limit=20, cursor=None):
        """Return ``(messages, next_cursor)`` for a room in chronological order.

        ``cursor`` is an opaque string (the offset of the next page) previously
        returned as ``next_cursor``; ``next_cursor`` is None when there are no
        more messages.
        """
        try:
            start = int(cursor) if cursor not in (None, "") else 0
        except (TypeError, ValueError):
            start = 0
        if start < 0:
            start = 0
        with self._lock:
            events = self._messages.get(room_id, [])
            page = events[start:start + limit]
            total = len(events)
        messages = [dict(e, content=dict(e["content"])) for e in page]
        end = start + len(page)
        next_cursor = str(end) if end < total else None
        return messages, next_cursor

    def reset(self):
        """Clear all data (useful for tests)."""
        with self._lock:
            self._users.clear()
            self._tokens.clear()
            self._messages.clear()


store = Store()
