"""In-memory persistence for users, tokens and room events."""
import hashlib
import hmac
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from app.config import settings


@dataclass
class UserRecord:
    user_id: str
    username: str
    password_hash: str
    salt: str
    display_name: Optional[str] = None


@dataclass
class TokenRecord:
    user_id: str
    expires_at: float


@dataclass
class Event:
    event_id: str
    sender: str
    type: str
    content: dict
    ts: int


@dataclass
class Store:
    users: Dict[str, UserRecord] = field(default_factory=dict)
    tokens: Dict[str, TokenRecord] = field(default_factory=dict)
    rooms: Dict[str, List[Event]] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)


_store = Store()


def _hash(password: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt.encode("utf-8"), 100_000).hex()


def make_user_id(username: str) -> str:
    return f"@{username.lower()}:{settings.SERVER_NAME}"


def create_user(username: str, password: str, display_name: Optional[str]) -> Optional[UserRecord]:
    key = username.lower()
    with _store.lock:
        if key in _store.users:
            return None
        salt = secrets.token_hex(16)
        rec = UserRecord(user_id=make_user_id(username), username=key, password_hash=_hash(password, salt),
                         salt=salt, display_name=display_name)
        _store.users[key] = rec
        return rec


def check_credentials(username: str, password: str) -> Optional[UserRecord]:
    with _store.lock:
        rec = _store.users.get(username.lower())
    if rec is None:
        return None
    if not hmac.compare_digest(rec.password_hash, _hash(password, rec.salt)):
        return None
    return rec


def issue_token(user_id: str) -> Tuple[str, int]:
    token = "syt_" + secrets.token_urlsafe(32)
    ttl = settings.TOKEN_TTL_SECONDS
    with _store.lock:
        _store.tokens[token] = TokenRecord(user_id=user_id, expires_at=time.time() + ttl)
    return token, ttl


def resolve_token(token: str) -> Optional[str]:
    with _store.lock:
        rec = _store.tokens.get(token)
        if rec is None:
            return None
        if rec.expires_at < time.time():
            _store.tokens.pop(token, None)
            return None
        return rec.user_id


def _event_id() -> str:
    return "$" + secrets.token_hex(12) + os.urandom(2).hex()


def append_event(room_id: str, sender: str, type_: str, content: dict) -> Event:
    ev = Event(event_id=_event_id(), sender=sender, type=type_, content=dict(content), ts=int(time.time() * 1000))
    with _store.lock:
        _store.rooms.setdefault(room_id, []).append(ev)
    return ev


def list_events(room_id: str, limit: int, cursor: Optional[int]) -> Tuple[List[Event], Optional[str]]:
    with _store.lock:
        events = list(_store.rooms.get(room_id, []))
    start = cursor or 0
    page = events[start:start + limit]
    nxt = start + limit
    return page, (str(nxt) if nxt < len(events) else None)
