import re
import secrets
import time
from datetime import datetime, timezone

from fastapi import APIRouter, Depends, HTTPException, Query

import storage
from auth import hash_password, verify_password, create_token, get_current_user, TOKEN_TTL
from models import (
    RegisterRequest,
    RegisterResponse,
    LoginRequest,
    LoginResponse,
    SendMessageRequest,
    SendMessageResponse,
    ListMessagesResponse,
    HealthResponse,
)

router = APIRouter()

ROOM_ID_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")
USERNAME_RE = re.compile(r"^[^:@\s]+$")


def check_room_id(room_id: str):
    if not ROOM_ID_RE.match(room_id):
        raise HTTPException(status_code=400, detail="Invalid room_id")


@router.get("/health", response_model=HealthResponse)
def health():
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"status": "ok", "service": "synapse-benchmark", "time": now}


@router.post("/register", response_model=RegisterResponse, status_code=201)
def register(req: RegisterRequest):
    if not USERNAME_RE.match(req.username):
        raise HTTPException(status_code=400, detail="Invalid username")
    with storage.lock:
        if req.username in storage.users:
            raise HTTPException(status_code=409, detail="User already exists")
        user_id = "@%s:%s" % (req.username, storage.SERVER_NAME)
        storage.users[req.username] = {
            "user_id": user_id,
            "password_hash": hash_password(req.password),
            "display_name": req.display_name or req.username,
        }
    return {"user_id": user_id}


@router.post("/login", response_model=LoginResponse)
def login(req: LoginRequest):
    user = storage.users.get(req.username)
    if user is None or not verify_password(req.password, user["password_hash"]):
        raise HTTPException(status_code=401, detail="Invalid username or password")
    token = create_token(user["user_id"])
    return {"access_token": token, "token_type": "Bearer", "expires_in": TOKEN_TTL}


@router.post("/rooms/{room_id}/messages", response_model=SendMessageResponse, status_code=201)
def send_message(room_id: str, req: SendMessageRequest, user_id: str = Depends(get_current_user)):
    check_room_id(room_id)
    if req.type != "m.text":
        raise HTTPException(status_code=400, detail="Unsupported message type")

    event_id = "$" + secrets.token_hex(12)
    ts = int(time.time() * 1000)
    event = {
        "event_id": event_id,
        "sender": user_id,
        "type": req.type,
        "content": {"body": req.content.body},
        "ts": ts,
    }
    with storage.lock:
        storage.rooms.setdefault(room_id, []).append(event)
    return {"event_id": event_id, "room_id": room_id, "ts": ts}


@router.get("/rooms/{room_id}/messages", response_model=ListMessagesResponse)
def list_messages(
    room_id: str,
    limit: int = Query(20, ge=1, le=100),
    user_id: str = Depends(get_current_user),
):
    check_room_id(room_id)
    events = storage.rooms.get(room_id, [])
    messages = events[-limit:]
    return {"room_id": room_id, "messages": messages, "next_cursor": None}
