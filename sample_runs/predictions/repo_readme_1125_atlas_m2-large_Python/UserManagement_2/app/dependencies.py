"""Request dependencies: bearer-token authentication."""
from typing import Optional

from fastapi import Header

from . import repository
from .errors import APIError
from .repository import User
from .security import decode_access_token


def get_current_user(authorization: Optional[str] = Header(default=None)) -> User:
    if not authorization or not authorization.strip():
        raise APIError(401, "UNAUTHORIZED", "Authorization header with Bearer token is required")
    parts = authorization.strip().split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        raise APIError(401, "INVALID_TOKEN", "Authorization header must be 'Bearer <token>'")
    payload = decode_access_token(parts[1])
    user = repository.get_by_id(payload["user_id"])
    if user is None:
        raise APIError(401, "INVALID_TOKEN", "Token refers to a user that no longer exists")
    return user
