from typing import List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictStr


class RegisterRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: StrictStr = Field(..., min_length=3, max_length=64, pattern=r"^[A-Za-z0-9_.=\-]+$")
    password: StrictStr = Field(..., min_length=6, max_length=128)
    display_name: Optional[StrictStr] = Field(None, min_length=1, max_length=128)


class RegisterResponse(BaseModel):
    user_id: str


class LoginRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: StrictStr
    password: StrictStr


class LoginResponse(BaseModel):
    access_token: str
    token_type: Literal["Bearer"] = "Bearer"
    expires_in: int


class MessageContent(BaseModel):
    model_config = ConfigDict(extra="forbid")
    body: StrictStr = Field(..., min_length=1, max_length=4000)


class SendMessageRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["m.text"]
    content: MessageContent


class SendMessageResponse(BaseModel):
    event_id: str
    room_id: str
    ts: int


class MessageEvent(BaseModel):
    event_id: str
    sender: str
    type: Literal["m.text"]
    content: dict
    ts: int


class ListMessagesResponse(BaseModel):
    room_id: str
    messages: List[MessageEvent]
    next_cursor: Optional[str] = None


class HealthResponse(BaseModel):
    status: Literal["ok"]
    service: str
    time: str
