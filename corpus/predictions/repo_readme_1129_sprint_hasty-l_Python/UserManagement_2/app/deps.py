"""FastAPI dependencies."""
from fastapi import Depends, Request
from sqlalchemy.orm import Session

from app.core.errors import APIException
from app.core.security import decode_access_token
from app.db import get_db
from app.models import User


def get_current_user(request: Request, db: Session = Depends(get_db)) -> User:
    auth = request.headers.get("Authorization")
    if not auth:
        raise APIException(401, "Authorization header missing", "UNAUTHORIZED")
    parts = auth.split()
    if len(parts) != 2 or parts[0].lower() != "bearer":
        raise APIException(401, "Invalid authorization header", "INVALID_TOKEN")
    payload = decode_access_token(parts[1])
    if not payload or "sub" not in payload:
        raise APIException(401, "Invalid or expired token", "INVALID_TOKEN")
    try:
        user_id = int(payload["sub"])
    except (TypeError, ValueError):
        raise APIException(401, "Invalid token subject", "INVALID_TOKEN")
    user = db.get(User, user_id)
    if not user:
        raise APIException(401, "User no longer exists", "INVALID_TOKEN")
    return user
