from typing import List, Optional
from pydantic import BaseModel, Field


class RegisterRequest(BaseModel):
    username: str = Field(..., min_length=3, max_length=64)
    password: str = Field(..., min_length=6, max_length=128)
    display_name: Optional[str] = Field(None, min_length=1, max_length=128)

    class Config:
        extra = "forbid"


class RegisterResponse(BaseModel):
    user_id: str


class LoginRequest(BaseModel):
    username: str
    password: str

    class Config:
        extra = "forbid"


class LoginResponse(BaseModel):
    access_token: str
    token_type: str = "Bearer"
    expires_in: int


class MessageContent(BaseModel):
    body: str = Field(..., min_length=1, max_length=4000)

    class Config:
        extra = "forbid"


class SendMessageRequest(BaseModel):
    type: str
    content: MessageContent

    class Config:
        extra = "forbid"


class SendMessageResponse(BaseModel):
    event_id: str
    room_id: str
    ts: int


class MessageEvent(BaseModel):
    event_id: str
    sender: str
    type: str
    content: dict
    ts: int


class ListMessagesResponse(BaseModel):
    room_id: str
    messages: List[MessageEvent]
    next_cursor: Optional[str] = None


class HealthResponse(BaseModel):
    status: str
    service: str
    time: str
