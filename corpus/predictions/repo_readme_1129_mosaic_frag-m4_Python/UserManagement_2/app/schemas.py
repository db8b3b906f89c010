"""Request validation models and response shapes for the user API."""

import re
from typing import Any, Dict, Optional

from pydantic import BaseModel, Field, field_validator

USERNAME_MIN_LENGTH = 3
USERNAME_MAX_LENGTH = 20
PASSWORD_MIN_LENGTH = 6
PASSWORD_MAX_LENGTH = 50
FULL_NAME_MAX_LENGTH = 100
EMAIL_MAX_LENGTH = 254

USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9_.-]+$")
EMAIL_PATTERN = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+"
    r"@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$"
)


def validate_email_format(value: str) -> str:
    """Raise ValueError unless ``value`` looks like a valid email address."""
    if len(value) > EMAIL_MAX_LENGTH or not EMAIL_PATTERN.match(value):
        raise ValueError("Invalid email format")
    local_part = value.split("@", 1)[0]
    if local_part.startswith(".") or local_part.endswith(".") or ".." in local_part:
        raise ValueError("Invalid email format")
    return value


def validate_username_format(value: str) -> str:
    """Raise ValueError unless ``value`` only uses allowed username characters."""
    if not USERNAME_PATTERN.match(value):
        raise ValueError(
            "Username may only contain letters, digits, underscores, hyphens and dots"
        )
    return value


# ---------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------

class RegisterRequest(BaseModel):
    """Body of POST /api/v1/users/register."""

    username: str = Field(..., min_length=USERNAME_MIN_LENGTH, max_length=USERNAME_MAX_LENGTH)
    email: str = Field(..., max_length=EMAIL_MAX_LENGTH)
    password: str = Field(..., min_length=PASSWORD_MIN_LENGTH, max_length=PASSWORD_MAX_LENGTH)
    full_name: Optional[str] = Field(None, max_length=FULL_NAME_MAX_LENGTH)

    @field_validator("username")
    @classmethod
    def _check_username(cls, value: str) -> str:
        return validate_username_format(value)

    @field_validator("email")
    @classmethod
    def _check_email(cls, value: str) -> str:
        return validate_email_format(value)


class LoginRequest(BaseModel):
    """Body of POST /api/v1/users/login."""

    username: str = Field(..., min_length=1)
    password: str = Field(..., min_length=1)


class UpdateUserRequest(BaseModel):
    """Body of PUT /api/v1/users/{user_id}; every field is optional."""

    email: Optional[str] = Field(None, max_length=EMAIL_MAX_LENGTH)
    full_name: Optional[str] = Field(None, max_length=FULL_NAME_MAX_LENGTH)

    @field_validator("email")
    @classmethod
    def _check_email(cls, value: Optional[str]) -> Optional[str]:
        if value is None:
            return value
        return validate_email_format(value)


# ---------------------------------------------------------------------------
# Responses
# ---------------------------------------------------------------------------

class UserSummary(BaseModel):
    """User as embedded in the login response."""

    user_id: int
    username: str
    email: str
    full_name: Optional[str] = None


class RegisteredUser(UserSummary):
    """``data`` of the registration response."""

    created_at: str


class UserDetail(UserSummary):
    """``data`` of the get-user response."""

    created_at: str
    updated_at: str


class UpdatedUser(UserSummary):
    """``data`` of the update-user response."""

    updated_at: str


class LoginData(BaseModel):
    """``data`` of the login response."""

    access_token: str
    token_type: str = "Bearer"
    expires_in: int
    user: UserSummary


class SuccessResponse(BaseModel):
    """Success envelope: ``{"success": true, "message": ..., "data": ...}``."""

    success: bool = True
    message: str
    data: Optional[Any] = None


class ErrorResponse(BaseModel):
    """Unified error envelope."""

    success: bool = False
    message: str
    error_code: str
    details: Optional[Dict[str, Any]] = None
