"""Strict request/response models matching the README's JSON schemas.

Request models forbid unknown properties, enforce string types (no coercion)
and the documented length limits. ``limit`` for message listing is bounded by
``MIN_LIMIT``..``MAX_LIMIT`` with ``DEFAULT_LIMIT`` as default.
"""

import re
from typing import List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictStr

MIN_LIMIT = 1
MAX_LIMIT = 100
DEFAULT_LIMIT = 20

USER_ID_PATTERN = re.compile(r"^@[^:]+:[^:]+$")
ROOM_ID_PATTERN = re.compile(r"^![A-Za-z0-9]+:[^:]+$")
EVENT_ID_PATTERN = re.compile(r"^\$[A-Za-z0-9]+$")


class StrictModel(BaseModel):
    """Base for request bodies: no extra properties, no type coercion."""

    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------

class RegisterRequest(StrictModel):
    username: StrictStr = Field(..., min_length=3, max_length=64)
    password: StrictStr = Field(..., min_length=6, max_length=128)
    display_name: Optional[StrictStr] = Field(None, min_length=1, max_length=128)


class LoginRequest(StrictModel):
    username: StrictStr
    password: StrictStr


class MessageContent(StrictModel):
    body: StrictStr = Field(..., min_length=1, max_length=4000)


class SendMessageRequest(StrictModel):
    type: Literal["m.text"]
    content: MessageContent


def parse_limit(value: Optional[str]) -> int:
    """Parse the ``limit`` query parameter.

    Returns ``DEFAULT_LIMIT`` when absent; raises ``ValueError`` when it is not
    an integer or outside ``MIN_LIMIT``..``MAX_LIMIT``.
    """
    if value is None:
        return DEFAULT_LIMIT
    text = str(value).strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        raise ValueError("limit must be an integer")
    limit = int(text)
    if limit < MIN_LIMIT or limit > MAX_LIMIT:
        raise ValueError(f"limit must be between {MIN_LIMIT} and {MAX_LIMIT}")
    return limit


def is_valid_room_id(room_id: str) -> bool:
    return bool(ROOM_ID_PATTERN.match(room_id or ""))


# ---------------------------------------------------------------------------
# Responses
# ---------------------------------------------------------------------------

class HealthResponse(BaseModel):
    status: Literal["ok"] = "ok"
    service: Literal["synapse-benchmark"] = "synapse-benchmark"
    time: str


class RegisterResponse(BaseModel):
    user_id: str


class LoginResponse(BaseModel):
    access_token: str
    token_type: Literal["Bearer"] = "Bearer"
    expires_in: int


class SendMessageResponse(BaseModel):
    event_id: str
    room_id: str
    ts: int


class MessageEventContent(BaseModel):
    body: str


class MessageEvent(BaseModel):
    event_id: str
    sender: str
    type: Literal["m.text"] = "m.text"
    content: MessageEventContent
    ts: int


class ListMessagesResponse(BaseModel):
    room_id: str
    messages: List[MessageEvent]
    next_cursor: Optional[str] = None
