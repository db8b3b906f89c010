"""HTTP routes of the Synapse Message Service (benchmark version)."""

import re
from datetime import datetime, timezone
from typing import Optional

from fastapi import APIRouter, Depends, Header, HTTPException, Query

import config
from schemas import LoginRequest, RegisterRequest, SendMessageRequest
from store import store

router = APIRouter()

ROOM_ID_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")


def _unauthorized(message: str) -> HTTPException:
    return HTTPException(
        status_code=401,
        detail=message,
        headers={"WWW-Authenticate": "Bearer"},
    )


def require_user(authorization: Optional[str] = Header(None)) -> str:
    """Resolve the bearer token in the Authorization header to a user id."""
    if not authorization:
        raise _unauthorized("Missing Authorization header")
    parts = authorization.split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
        raise _unauthorized("Authorization header must be 'Bearer <token>'")
    user_id = store.resolve_token(parts[1].strip())
    if user_id is None:
        raise _unauthorized("Invalid or expired access token")
    return user_id


def _check_room_id(room_id: str) -> None:
    if not ROOM_ID_RE.match(room_id):
        raise HTTPException(status_code=400, detail="Invalid room_id format")


def _format_message(event: dict) -> dict:
    return {
        "event_id": event["event_id"],
        "sender": event["sender"],
        "type": event["type"],
        "content": {"body": event["content"]["body"]},
        "ts": int(event["ts"]),
    }


@router.get("/health")
def health():
    now = datetime.now(timezone.utc).replace(microsecond=0)
    return {
        "status": "ok",
        "service": config.SERVICE_NAME,
        "time": now.isoformat().replace("+00:00", "Z"),
    }


@router.post("/register")
def register(body: RegisterRequest):
    user_id = store.create_user(body.username, body.password, body.display_name)
    if user_id is None:
        raise HTTPException(status_code=409, detail="Username already taken")
    return {"user_id": user_id}


@router.post("/login")
def login(body: LoginRequest):
    user_id = store.authenticate(body.username, body.password)
    if user_id is None:
        raise _unauthorized("Invalid username or password")
    token = store.issue_token(user_id)
    return {
        "access_token": token,
        "token_type": "Bearer",
        "expires_in": int(config.TOKEN_TTL_SECONDS),
    }


@router.post("/rooms/{room_id}/messages")
def send_message(
    room_id: str,
    body: SendMessageRequest,
    user_id: str = Depends(require_user),
):
    _check_room_id(room_id)
    event = store.add_message(room_id, user_id, body.type, {"body": body.content.body})
    return {
        "event_id": event["event_id"],
        "room_id": room_id,
        "ts": int(event["ts"]),
    }


@router.get("/rooms/{room_id}/messages")
def list_messages(
    room_id: str,
    limit: int = Query(20, ge=1, le=100),
    cursor: Optional[str] = Query(None, alias="from"),
    user_id: str = Depends(require_user),
):
    _check_room_id(room_id)

    start = 0
    if cursor is not None and cursor != "":
        try:
            start = int(cursor)
        except ValueError:
            raise HTTPException(status_code=400, detail="Invalid cursor")
        if start < 0:
            raise HTTPException(status_code=400, detail="Invalid cursor")

    # Newest first, paginated by offset.
    events = list(reversed(store.get_messages(room_id)))
    page = events[start:start + limit]
    next_index = start + len(page)
    next_cursor = str(next_index) if next_index < len(events) else None

    return {
        "room_id": room_id,
        "messages": [_format_message(e) for e in page],
        "next_cursor": next_cursor,
    }
