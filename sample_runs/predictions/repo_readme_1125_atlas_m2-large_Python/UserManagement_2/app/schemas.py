"""Request models and validation rules."""
import re
from typing import Optional

from pydantic import BaseModel, ConfigDict, StrictStr, field_validator

USERNAME_RE = re.compile(r"^[\w.\-]+$")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def validate_email(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("Email is required")
    if len(value) > 254 or not EMAIL_RE.match(value):
        raise ValueError("Invalid email format")
    local, _, domain = value.rpartition("@")
    if len(local) > 64 or domain.startswith(".") or domain.endswith(".") or ".." in domain:
        raise ValueError("Invalid email format")
    return value


def validate_full_name(value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    value = value.strip()
    if len(value) > 100:
        raise ValueError("Full name must be at most 100 characters")
    return value


class RegisterRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    username: StrictStr
    email: StrictStr
    password: StrictStr
    full_name: Optional[StrictStr] = None

    @field_validator("username")
    @classmethod
    def _username(cls, value: str) -> str:
        if not 3 <= len(value) <= 20:
            raise ValueError("Username must be 3-20 characters")
        if not USERNAME_RE.match(value):
            raise ValueError("Username may contain only letters, digits, '_', '.' and '-'")
        return value

    @field_validator("email")
    @classmethod
    def _email(cls, value: str) -> str:
        return validate_email(value)

    @field_validator("password")
    @classmethod
    def _password(cls, value: str) -> str:
        if not 6 <= len(value) <= 50:
            raise ValueError("Password must be 6-50 characters")
        return value

    @field_validator("full_name")
    @classmethod
    def _full_name(cls, value: Optional[str]) -> Optional[str]:
        return validate_full_name(value)


class LoginRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    username: StrictStr
    password: StrictStr

    @field_validator("username", "password")
    @classmethod
    def _not_empty(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("Field must not be empty")
        return value


class UpdateUserRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    email: Optional[StrictStr] = None
    full_name: Optional[StrictStr] = None

    @field_validator("email")
    @classmethod
    def _email(cls, value: Optional[str]) -> Optional[str]:
        return None if value is None else validate_email(value)

    @field_validator("full_name")
    @classmethod
    def _full_name(cls, value: Optional[str]) -> Optional[str]:
        return validate_full_name(value)
