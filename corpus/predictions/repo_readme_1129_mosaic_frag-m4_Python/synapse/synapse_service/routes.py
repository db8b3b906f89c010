"""HTTP endpoints: health, register, login, and room message send/list."""

import re
from datetime import datetime, timezone
from typing import Optional

from fastapi import APIRouter, Depends, HTTPException

from synapse_service.auth import get_current_user
from synapse_service.schemas import LoginRequest, RegisterRequest, SendMessageRequest
from synapse_service.storage import TOKEN_TTL_SECONDS, storage

router = APIRouter()

SERVICE_NAME = "synapse-benchmark"
ROOM_ID_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")
DEFAULT_LIMIT = 20
MIN_LIMIT = 1
MAX_LIMIT = 100


def _validate_room_id(room_id: str) -> None:
    if not ROOM_ID_RE.match(room_id):
        raise HTTPException(status_code=400, detail="Invalid room_id")


def _parse_limit(limit: Optional[str]) -> int:
    if limit is None or limit == "":
        return DEFAULT_LIMIT
    try:
        value = int(limit)
    except (TypeError, ValueError):
        raise HTTPException(status_code=400, detail="limit must be an integer")
    if value < MIN_LIMIT or value > MAX_LIMIT:
        raise HTTPException(
            status_code=400,
            detail=f"limit must be between {MIN_LIMIT} and {MAX_LIMIT}",
        )
    return value


def _parse_cursor(cursor: Optional[str], total: int) -> int:
    if cursor is None or cursor == "":
        return total
    try:
        value = int(cursor)
    except (TypeError, ValueError):
        raise HTTPException(status_code=400, detail="Invalid cursor")
    if value < 0 or value > total:
        raise HTTPException(status_code=400, detail="Invalid cursor")
    return value


@router.get("/health")
def health():
    now = datetime.now(timezone.utc).replace(microsecond=0)
    return {
        "status": "ok",
        "service": SERVICE_NAME,
        "time": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


@router.post("/register")
def register(payload: RegisterRequest):
    user_id = storage.create_user(payload.username, payload.password, payload.display_name)
    if user_id is None:
        raise HTTPException(status_code=409, detail="Username already taken")
    return {"user_id": user_id}


@router.post("/login")
def login(payload: LoginRequest):
    user_id = storage.verify_user(payload.username, payload.password)
    if user_id is None:
        raise HTTPException(status_code=401, detail="Invalid username or password")
    token = storage.issue_token(user_id)
    return {
        "access_token": token,
        "token_type": "Bearer",
        "expires_in": int(TOKEN_TTL_SECONDS),
    }


@router.post("/rooms/{room_id}/messages")
def send_message(
    room_id: str,
    payload: SendMessageRequest,
    user_id: str = Depends(get_current_user),
):
    _validate_room_id(room_id)
    event = storage.add_message(
        room_id,
        user_id,
        payload.type,
        {"body": payload.content.body},
    )
    return {
        "event_id": event["event_id"],
        "room_id": room_id,
        "ts": event["ts"],
    }


@router.get("/rooms/{room_id}/messages")
def list_messages(
    room_id: str,
    limit: Optional[str] = None,
    cursor: Optional[str] = None,
    user_id: str = Depends(get_current_user),
):
    _validate_room_id(room_id)
    page_size = _parse_limit(limit)

    events = storage.get_messages(room_id)
    end = _parse_cursor(cursor, len(events))
    start = max(0, end - page_size)
    page = events[start:end]

    messages = [
        {
            "event_id": event["event_id"],
            "sender": event["sender"],
            "type": event["type"],
            "content": {"body": event["content"]["body"]},
            "ts": event["ts"],
        }
        for event in page
    ]

    return {
        "room_id": room_id,
        "messages": messages,
        "next_cursor": str(start) if start > 0 else None,
    }
