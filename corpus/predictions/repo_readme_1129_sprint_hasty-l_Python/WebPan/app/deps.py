from typing import Optional

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from app.core.errors import APIError
from app.core.security import decode_token
from app.db import get_db
from app.models import User


def _extract_token(request: Request) -> Optional[str]:
    auth = request.headers.get("Authorization")
    if not auth:
        return None
    parts = auth.split(" ", 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
        raise APIError(401, "Invalid authorization header", "AUTH_INVALID")
    return parts[1].strip()


def get_optional_user(request: Request, db: Session = Depends(get_db)) -> Optional[User]:
    token = _extract_token(request)
    if token is None:
        return None
    user_id = decode_token(token)
    if not user_id:
        raise APIError(401, "Invalid or expired token", "AUTH_INVALID")
    user = db.get(User, user_id)
    if not user:
        raise APIError(401, "Invalid or expired token", "AUTH_INVALID")
    return user


def get_current_user(user: Optional[User] = Depends(get_optional_user)) -> User:
    if user is None:
        raise APIError(401, "Authentication required", "AUTH_REQUIRED")
    return user
