"""Strict request models for the Synapse benchmark service."""
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictStr


class StrictModel(BaseModel):
    """Base model rejecting unknown fields."""

    model_config = ConfigDict(extra="forbid")


class RegisterRequest(StrictModel):
    username: StrictStr = Field(..., min_length=3, max_length=64, pattern=r"^[^:\s@]+$")
    password: StrictStr = Field(..., min_length=6, max_length=128)
    display_name: Optional[StrictStr] = Field(default=None, min_length=1, max_length=128)


class LoginRequest(StrictModel):
    username: StrictStr
    password: StrictStr


class MessageContent(StrictModel):
    body: StrictStr = Field(..., min_length=1, max_length=4000)


class SendMessageRequest(StrictModel):
    type: Literal["m.text"]
    content: MessageContent
