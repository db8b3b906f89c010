"""Thread-safe in-memory storage of users, access tokens and room timelines."""
import threading
import time
from dataclasses import dataclass, field
from typing import Optional

from werkzeug.security import check_password_hash, generate_password_hash

from .identifiers import new_access_token, new_event_id


@dataclass
class User:
    user_id: str
    password_hash: str
    display_name: Optional[str] = None


@dataclass
class Event:
    event_id: str
    sender: str
    type: str
    body: str
    ts: int  # milliseconds since the epoch (Matrix origin_server_ts)

    def to_dict(self) -> dict:
        return {
            "event_id": self.event_id,
            "sender": self.sender,
            "type": self.type,
            "content": {"body": self.body},
            "ts": self.ts,
        }


@dataclass
class Room:
    room_id: str
    events: list = field(default_factory=list)


class UserExists(Exception):
    pass


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._users: dict[str, User] = {}
        self._tokens: dict[str, tuple[str, float]] = {}  # token -> (user_id, expires_at)
        self._rooms: dict[str, Room] = {}

    # -- users ----------------------------------------------------------
    def create_user(self, user_id: str, password: str, display_name: Optional[str]) -> User:
        password_hash = generate_password_hash(password)
        with self._lock:
            if user_id in self._users:
                raise UserExists(user_id)
            user = User(user_id, password_hash, display_name)
            self._users[user_id] = user
            return user

    def check_credentials(self, user_id: str, password: str) -> Optional[User]:
        with self._lock:
            user = self._users.get(user_id)
        if user is None or not check_password_hash(user.password_hash, password):
            return None
        return user

    # -- tokens ---------------------------------------------------------
    def issue_token(self, user_id: str, ttl_seconds: int) -> str:
        token = new_access_token()
        now = time.time()
        with self._lock:
            # opportunistic clean-up of expired tokens
            for t in [t for t, (_, exp) in self._tokens.items() if exp <= now]:
                del self._tokens[t]
            self._tokens[token] = (user_id, now + ttl_seconds)
        return token

    def user_for_token(self, token: str) -> Optional[str]:
        with self._lock:
            entry = self._tokens.get(token)
            if entry is None:
                return None
            user_id, expires_at = entry
            if expires_at <= time.time():
                del self._tokens[token]
                return None
            return user_id

    # -- rooms / events -------------------------------------------------
    def append_message(self, room_id: str, sender: str, msgtype: str, body: str) -> Event:
        with self._lock:
            room = self._rooms.setdefault(room_id, Room(room_id))
            ts = int(time.time() * 1000)
            if room.events and ts < room.events[-1].ts:
                ts = room.events[-1].ts  # keep timestamps monotonic within a room
            event = Event(new_event_id(), sender, msgtype, body, ts)
            room.events.append(event)
            return event

    def page_messages(self, room_id: str, limit: int, start: Optional[int], forwards: bool):
        """Return ``(events, next_start)`` of a room's timeline.

        Backwards (default): the ``limit`` most recent events up to index
        ``start`` (inclusive; default: the newest event), returned in
        chronological order; ``next_start`` then points at older events.
        Forwards: ``limit`` events from index ``start`` (default: the oldest),
        in chronological order; ``next_start`` then points at newer events.
        ``next_start`` is ``None`` when there is nothing more to read.
        """
        with self._lock:
            room = self._rooms.get(room_id)
            events = list(room.events) if room else []
        if forwards:
            begin = 0 if start is None else max(start, 0)
            page = events[begin:begin + limit]
            nxt = begin + limit if begin + limit < len(events) else None
        else:
            top = len(events) - 1 if start is None else min(start, len(events) - 1)
            bottom = max(top - limit + 1, 0)
            page = events[bottom:top + 1] if top >= 0 else []
            nxt = bottom - 1 if bottom > 0 and top >= 0 else None
        return page, nxt
