"""Thread-safe in-memory storage for users, access tokens and room messages.

* Users are keyed by username; their ids have the form ``@<username>:<server>``
  and passwords are stored as salted PBKDF2 hashes.
* Access tokens are random strings that expire after ``TOKEN_TTL_SECONDS``.
* Each room keeps an append-only list of message events with ``$``-prefixed
  alphanumeric event ids and millisecond timestamps.
"""

import hashlib
import hmac
import os
import secrets
import string
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

SERVER_NAME: str = os.environ.get("SYNAPSE_SERVER_NAME", "example.org")
TOKEN_TTL_SECONDS: int = 3600

_HASH_ITERATIONS = 100_000
_ALPHANUMERIC = string.ascii_letters + string.digits


class UserExistsError(Exception):
    """Raised when registering a username that is already taken."""


class InvalidCursorError(ValueError):
    """Raised when a pagination cursor cannot be parsed."""


def _hash_password(password: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, _HASH_ITERATIONS)


def _random_alnum(length: int) -> str:
    return "".join(secrets.choice(_ALPHANUMERIC) for _ in range(length))


class InMemoryStorage:
    """All service state, guarded by a single re-entrant lock."""

    def __init__(self, server_name: str = SERVER_NAME, token_ttl: int = TOKEN_TTL_SECONDS) -> None:
        self.server_name = server_name
        self.token_ttl = token_ttl
        self._lock = threading.RLock()
        self._users: Dict[str, Dict[str, Any]] = {}
        self._tokens: Dict[str, Tuple[str, float]] = {}
        self._rooms: Dict[str, List[Dict[str, Any]]] = {}

    # -- users ------------------------------------------------------------

    def make_user_id(self, username: str) -> str:
        return "@{}:{}".format(username, self.server_name)

    def create_user(self, username: str, password: str, display_name: Optional[str] = None) -> str:
        """Register a user and return its user id.

        Raises :class:`UserExistsError` if the username is already registered.
        """
        salt = secrets.token_bytes(16)
        password_hash = _hash_password(password, salt)
        with self._lock:
            if username in self._users:
                raise UserExistsError(username)
            user_id = self.make_user_id(username)
            self._users[username] = {
                "user_id": user_id,
                "username": username,
                "display_name": display_name,
                "salt": salt,
                "password_hash": password_hash,
                "created_at": int(time.time() * 1000),
            }
            return user_id

    def user_exists(self, username: str) -> bool:
        with self._lock:
            return username in self._users

    def authenticate(self, username: str, password: str) -> Optional[str]:
        """Return the user id when the credentials are valid, else ``None``."""
        with self._lock:
            user = self._users.get(username)
            if user is None:
                return None
            salt = user["salt"]
            expected = user["password_hash"]
            user_id = user["user_id"]
        if hmac.compare_digest(_hash_password(password, salt), expected):
            return user_id
        return None

    # -- tokens -----------------------------------------------------------

    def issue_token(self, user_id: str) -> Tuple[str, int]:
        """Create an access token for ``user_id``; return ``(token, expires_in)``."""
        token = "syt_" + secrets.token_hex(24)
        expires_at = time.time() + self.token_ttl
        with self._lock:
            self._purge_expired_tokens()
            self._tokens[token] = (user_id, expires_at)
        return token, self.token_ttl

    def get_user_id_for_token(self, token: str) -> Optional[str]:
        """Return the user id owning a valid, unexpired token, else ``None``."""
        if not token:
            return None
        with self._lock:
            entry = self._tokens.get(token)
            if entry is None:
                return None
            user_id, expires_at = entry
            if expires_at <= time.time():
                del self._tokens[token]
                return None
            return user_id

    def revoke_token(self, token: str) -> None:
        with self._lock:
            self._tokens.pop(token, None)

    def _purge_expired_tokens(self) -> None:
        now = time.time()
        expired = [token for token, (_, expires_at) in self._tokens.items() if expires_at <= now]
        for token in expired:
            del self._tokens[token]

    # -- messages ---------------------------------------------------------

    def add_message(self, room_id: str, sender: str, msg_type: str, content: Dict[str, Any]) -> Dict[str, Any]:
        """Append a message event to a room and return a copy of the event."""
        with self._lock:
            event = {
                "event_id": "$" + _random_alnum(24),
                "room_id": room_id,
                "sender": sender,
                "type": msg_type,
                "content": {"body": content["body"]},
                "ts": int(time.time() * 1000),
            }
            self._rooms.setdefault(room_id, []).append(event)
            return self._copy_event(event)

    def list_messages(
        self, room_id: str, limit: int = 20, cursor: Optional[str] = None
    ) -> Tuple[List[Dict[str, Any]], Optional[str]]:
        """Return up to ``limit`` most recent messages before ``cursor``.

        Messages are returned in chronological order (oldest first).  The
        returned ``next_cursor`` points at older messages, or is ``None`` when
        there are none left.  Raises :class:`InvalidCursorError` for a bad
        cursor.  The events do not include ``room_id``.
        """
        with self._lock:
            events = self._rooms.get(room_id, [])
            end = len(events)
            if cursor is not None and cursor != "":
                if not cursor.isdigit():
                    raise InvalidCursorError("Invalid cursor")
                end = min(int(cursor), len(events))
            start = max(0, end - limit)
            page = [self._public_event(event) for event in events[start:end]]
        next_cursor = str(start) if start > 0 else None
        return page, next_cursor

    def room_exists(self, room_id: str) -> bool:
        with self._lock:
            return room_id in self._rooms

    @staticmethod
    def _copy_event(event: Dict[str, Any]) -> Dict[str, Any]:
        copied = dict(event)
        copied["content"] = dict(event["content"])
        return copied

    @staticmethod
    def _public_event(event: Dict[str, Any]) -> Dict[str, Any]:
        return {
            "event_id": event["event_id"],
            "sender": event["sender"],
            "type": event["type"],
            "content": {"body": event["content"]["body"]},
            "ts": event["ts"],
        }

    # -- maintenance ------------------------------------------------------

    def reset(self) -> None:
        """Clear all state (useful for tests)."""
        with self._lock:
            self._users.clear()
            self._tokens.clear()
            self._rooms.clear()


storage = InMemoryStorage()
