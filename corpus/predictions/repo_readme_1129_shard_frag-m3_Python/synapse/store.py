"""Thread-safe in-memory storage for the Synapse benchmark service.

Holds:
  * users     keyed by username (user id ``@<username>:<server_name>``)
  * tokens    access token -> owner and expiry (epoch seconds)
  * messages  per room, kept in the order they were sent

Identifiers: user ids ``@alice:example.org``, event ids ``$<32 hex chars>``.
The server name comes from ``SYNAPSE_SERVER_NAME`` / ``SERVER_NAME``
(default ``example.org``).

Message listing is chronological (oldest first) and paginated with an opaque
string cursor: ``list_messages(room_id, limit, cursor)`` returns
``(messages, next_cursor)`` where ``next_cursor`` is None on the last page.

Use the shared instance (``from store import store``) or the module-level
helpers of the same names (``import store; store.create_user(...)``).
"""

from __future__ import annotations

import copy
import os
import threading
import time
import uuid
from typing import Any, Dict, List, Optional, Tuple

SERVER_NAME = os.environ.get("SYNAPSE_SERVER_NAME") or os.environ.get("SERVER_NAME") or "example.org"

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MESSAGE_TYPE_TEXT = "m.text"


class StoreError(Exception):
    """Base class for store errors."""


class UserExistsError(StoreError, ValueError):
    """Raised when registering a username that is already taken."""


# Alternative name.
UserAlreadyExists = UserExistsError


def _now_ms() -> int:
    return int(time.time() * 1000)


def make_user_id(username: str, server_name: Optional[str] = None) -> str:
    """``alice`` -> ``@alice:example.org``."""
    return f"@{username}:{server_name or SERVER_NAME}"


def new_event_id() -> str:
    """A new event id such as ``$3f2a...`` (only ``$`` + alphanumerics)."""
    return "$" + uuid.uuid4().hex


class InMemoryStore:
    """All state of the service, guarded by a single re-entrant lock."""

    def __init__(self, server_name: Optional[str] = None) -> None:
        self.server_name = server_name or SERVER_NAME
        self._lock = threading.RLock()
        self._users: Dict[str, Dict[str, Any]] = {}        # username -> user
        self._users_by_id: Dict[str, Dict[str, Any]] = {}  # user_id -> user
        self._tokens: Dict[str, Dict[str, Any]] = {}       # token -> record
        self._rooms: Dict[str, List[Dict[str, Any]]] = {}  # room_id -> events
        self._last_ts = 0

    # ------------------------------------------------------------------ users
    def create_user(self, username: str, password_hash: str,
                    display_name: Optional[str] = None) -> Dict[str, Any]:
        """Register a user atomically; raises UserExistsError when taken.

        Returns a copy of the user record (``user_id``, ``username``,
        ``password_hash``, ``display_name``, ``created_at``).
        """
        with self._lock:
            if username in self._users:
                raise UserExistsError(f"User '{username}' already exists")
            user = {
                "user_id": make_user_id(username, self.server_name),
                "username": username,
                "password_hash": password_hash,
                "display_name": display_name if display_name else username,
                "created_at": _now_ms(),
            }
            self._users[username] = user
            self._users_by_id[user["user_id"]] = user
            return dict(user)

    def get_user(self, username: str) -> Optional[Dict[str, Any]]:
        """User record by username, or None."""
        with self._lock:
            user = self._users.get(username)
            return dict(user) if user else None

    def get_user_by_id(self, user_id: str) -> Optional[Dict[str, Any]]:
        with self._lock:
            user = self._users_by_id.get(user_id)
            return dict(user) if user else None

    def user_exists(self, username: str) -> bool:
        with self._lock:
            return username in self._users

    # ----------------------------------------------------------------- tokens
    def save_token(self, token: str, user_id: str, expires_at: Optional[float] = None,
                   expires_in: Optional[float] = None) -> Dict[str, Any]:
        """Store an access token for ``user_id``.

        ``expires_at`` is epoch seconds; alternatively ``expires_in`` seconds
        from now.  Neither means the token never expires.
        """
        if expires_at is None and expires_in is not None:
            expires_at = time.time() + float(expires_in)
        with self._lock:
            user = self._users_by_id.get(user_id) or self._users.get(user_id)
            record = {
                "token": token,
                "user_id": user["user_id"] if user else user_id,
                "username": user["username"] if user else None,
                "expires_at": float(expires_at) if expires_at is not None else None,
                "created_at": time.time(),
            }
            self._tokens[token] = record
            return dict(record)

    def get_token(self, token: str) -> Optional[Dict[str, Any]]:
        """Token record, or None when unknown or expired (expired tokens are
        removed)."""
        if not isinstance(token, str) or not token:
            return None
        with self._lock:
            record = self._tokens.get(token)
            if record is None:
                return None
            expires_at = record.get("expires_at")
            if expires_at is not None and expires_at <= time.time():
                del self._tokens[token]
                return None
            return dict(record)

    def get_user_by_token(self, token: str) -> Optional[Dict[str, Any]]:
        record = self.get_token(token)
        if record is None:
            return None
        return self.get_user_by_id(record["user_id"])

    def revoke_token(self, token: str) -> bool:
        with self._lock:
            return self._tokens.pop(token, None) is not None

    def purge_expired_tokens(self) -> int:
        now = time.time()
        with self._lock:
            expired = [t for t, r in self._tokens.items()
                       if r.get("expires_at") is not None and r["expires_at"] <= now]
            for token in expired:
                del self._tokens[token]
            return len(expired)

    # --------------------------------------------------------------- messages
    def add_message(self, room_id: str, sender: str, msg_type: Any = MESSAGE_TYPE_TEXT,
                    content: Any = None, ts: Optional[int] = None,
                    **kwargs: Any) -> Dict[str, Any]:
        """Append a message event to ``room_id`` and return the full event
        (``event_id``, ``room_id``, ``sender``, ``type``, ``content``, ``ts``).

        Accepts ``add_message(room, sender, "m.text", {"body": ...})``,
        ``add_message(room, sender, {"body": ...})`` or keyword forms
        (``type=``, ``content=``, ``body=``).
        """
        if isinstance(msg_type, dict):  # called as (room_id, sender, content[, type])
            msg_type, content = (content if isinstance(content, str) else MESSAGE_TYPE_TEXT), msg_type
        msg_type = kwargs.get("type", kwargs.get("event_type", msg_type)) or MESSAGE_TYPE_TEXT
        if content is None and "body" in kwargs:
            content = {"body": kwargs["body"]}
        if isinstance(content, str):
            content = {"body": content}
        content = copy.deepcopy(content) if isinstance(content, dict) else {}

        with self._lock:
            if ts is None:
                ts = _now_ms()
                if ts <= self._last_ts:
                    ts = self._last_ts + 1  # keep timestamps strictly increasing
            self._last_ts = max(self._last_ts, int(ts))
            event = {
                "event_id": new_event_id(),
                "room_id": room_id,
                "sender": sender,
                "type": msg_type,
                "content": content,
                "ts": int(ts),
            }
            self._rooms.setdefault(room_id, []).append(event)
            return copy.deepcopy(event)

    def list_messages(self, room_id: str, limit: int = DEFAULT_LIMIT,
                      cursor: Optional[str] = None
                      ) -> Tuple[List[Dict[str, Any]], Optional[str]]:
        """One page of a room's messages, oldest first.

        Each message has exactly ``event_id``, ``sender``, ``type``,
        ``content`` and ``ts``.  ``cursor`` is the ``next_cursor`` returned by
        a previous call (an invalid cursor starts from the beginning).
        """
        try:
            limit = int(limit)
        except (TypeError, ValueError):
            limit = DEFAULT_LIMIT
        limit = max(1, min(MAX_LIMIT, limit))
        start = 0
        if cursor not in (None, ""):
            try:
                start = max(0, int(str(cursor)))
            except ValueError:
                start = 0
        with self._lock:
            events = self._rooms.get(room_id, [])
            page = events[start:start + limit]
            end = start + len(page)
            next_cursor = str(end) if end < len(events) else None
            messages = [
                {
                    "event_id": e["event_id"],
                    "sender": e["sender"],
                    "type": e["type"],
                    "content": copy.deepcopy(e["content"]),
                    "ts": e["ts"],
                }
                for e in page
            ]
        return messages, next_cursor

    def count_messages(self, room_id: str) -> int:
        with self._lock:
            return len(self._rooms.get(room_id, []))

    # ------------------------------------------------------------------ misc
    def reset(self) -> None:
        """Forget everything (intended for tests)."""
        with self._lock:
            self._users.clear()
            self._users_by_id.clear()
            self._tokens.clear()
            self._rooms.clear()
            self._last_ts = 0

    # Alternative method names.
    get_user_by_username = get_user
    add_token = save_token
    store_token = save_token
    create_token = save_token
    send_message = add_message
    append_message = add_message
    get_messages = list_messages
    clear = reset


# Alternative class names.
Store = InMemoryStore
MemoryStore = InMemoryStore

# Shared instance used by the application.
store = InMemoryStore()


# Module-level helpers bound to the shared instance.
def create_user(username: str, password_hash: str,
                display_name: Optional[str] = None) -> Dict[str, Any]:
    return store.create_user(username, password_hash, display_name)


def get_user(username: str) -> Optional[Dict[str, Any]]:
    return store.get_user(username)


get_user_by_username = get_user


def get_user_by_id(user_id: str) -> Optional[Dict[str, Any]]:
    return store.get_user_by_id(user_id)


def user_exists(username: str) -> bool:
    return store.user_exists(username)


def save_token(token: str, user_id: str, expires_at: Optional[float] = None,
               expires_in: Optional[float] = None) -> Dict[str, Any]:
    return store.save_token(token, user_id, expires_at, expires_in)


add_token = save_token
store_token = save_token
create_token = save_token


def get_token(token: str) -> Optional[Dict[str, Any]]:
    return store.get_token(token)


def get_user_by_token(token: str) -> Optional[Dict[str, Any]]:
    return store.get_user_by_token(token)


def revoke_token(token: str) -> bool:
    return store.revoke_token(token)


def add_message(room_id: str, sender: str, msg_type: Any = MESSAGE_TYPE_TEXT,
                content: Any = None, ts: Optional[int] = None, **kwargs: Any) -> Dict[str, Any]:
    return store.add_message(room_id, sender, msg_type, content, ts, **kwargs)


send_message = add_message
append_message = add_message


def list_messages(room_id: str, limit: int = DEFAULT_LIMIT,
                  cursor: Optional[str] = None) -> Tuple[List[Dict[str, Any]], Optional[str]]:
    return store.list_messages(room_id, limit, cursor)


get_messages = list_messages


def reset() -> None:
    store.reset()
