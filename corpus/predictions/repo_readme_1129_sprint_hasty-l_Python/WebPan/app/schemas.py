from typing import Optional

from pydantic import BaseModel, EmailStr, Field


class RegisterRequest(BaseModel):
    username: str = Field(..., min_length=3, max_length=64)
    password: str = Field(..., min_length=6, max_length=128)
    email: EmailStr


class LoginRequest(BaseModel):
    username: str = Field(..., min_length=1)
    password: str = Field(..., min_length=1)


class RenameRequest(BaseModel):
    new_name: str = Field(..., min_length=1, max_length=255)


class ShareRequest(BaseModel):
    is_public: bool = True
    expires_in: Optional[int] = Field(3600, ge=1)
    password: Optional[str] = None


def iso(dt) -> Optional[str]:
    if dt is None:
        return None
    return dt.replace(microsecond=0).isoformat() + "Z"
