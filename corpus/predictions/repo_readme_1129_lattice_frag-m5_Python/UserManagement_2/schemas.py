"""Pydantic request/response models for the user management service."""
import re
from datetime import datetime
from typing import Any, Dict, Generic, Optional, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

EMAIL_REGEX = re.compile(r"^[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}$")


def validate_email_address(value: str) -> str:
    """Return the trimmed email if it is well formed, otherwise raise ValueError."""
    if not isinstance(value, str):
        raise ValueError("Email must be a string")
    email = value.strip()
    if len(email) > 254 or not EMAIL_REGEX.match(email) or ".." in email:
        raise ValueError("Invalid email format")
    return email


# --------------------------------------------------------------------------- #
# Requests
# --------------------------------------------------------------------------- #
class UserRegister(BaseModel):
    username: str = Field(..., min_length=3, max_length=20)
    email: str = Field(...)
    password: str = Field(..., min_length=6, max_length=50)
    full_name: Optional[str] = Field(default=None, max_length=100)

    @field_validator("username")
    @classmethod
    def check_username(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("Username must not be blank")
        if any(ch.isspace() for ch in value):
            raise ValueError("Username must not contain whitespace")
        return value

    @field_validator("email")
    @classmethod
    def check_email(cls, value: str) -> str:
        return validate_email_address(value)


class UserLogin(BaseModel):
    username: str = Field(..., min_length=1)
    password: str = Field(..., min_length=1)


class UserUpdate(BaseModel):
    email: Optional[str] = None
    full_name: Optional[str] = Field(default=None, max_length=100)

    @field_validator("email")
    @classmethod
    def check_email(cls, value: Optional[str]) -> Optional[str]:
        if value is None:
            return value
        return validate_email_address(value)


# --------------------------------------------------------------------------- #
# Responses
# --------------------------------------------------------------------------- #
DataT = TypeVar("DataT")


class UserData(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    user_id: int
    username: str
    email: str
    full_name: Optional[str] = None
    created_at: Optional[str] = None
    updated_at: Optional[str] = None


class UserSummary(BaseModel):
    user_id: int
    username: str
    email: str
    full_name: Optional[str] = None


class LoginData(BaseModel):
    access_token: str
    token_type: str = "Bearer"
    expires_in: int
    user: UserSummary


class APIResponse(BaseModel, Generic[DataT]):
    success: bool = True
    message: str
    data: Optional[DataT] = None


class MessageResponse(BaseModel):
    success: bool = True
    message: str


class ErrorResponse(BaseModel):
    success: bool = False
    message: str
    error_code: str
    details: Optional[Any] = None


def format_datetime(value: Optional[datetime]) -> Optional[str]:
    """ISO 8601 string for a datetime (naive values are treated as UTC)."""
    if value is None:
        return None
    if value.tzinfo is None:
        return value.isoformat() + "Z"
    return value.isoformat()


def user_to_dict(user: Any, include_created: bool = True, include_updated: bool = True) -> Dict[str, Any]:
    """Serialize a user ORM object to the public response shape."""
    data: Dict[str, Any] = {
        "user_id": user.id,
        "username": user.username,
        "email": user.email,
        "full_name": user.full_name,
    }
    if include_created:
        data["created_at"] = format_datetime(getattr(user, "created_at", None))
    if include_updated:
        data["updated_at"] = format_datetime(getattr(user, "updated_at", None))
    return data
