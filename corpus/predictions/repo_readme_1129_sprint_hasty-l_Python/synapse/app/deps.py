from fastapi import Request

from app.errors import MatrixError
from app.services import store


def require_user(request: Request) -> str:
    auth = request.headers.get("Authorization")
    if not auth:
        raise MatrixError(401, "M_MISSING_TOKEN", "Missing access token")
    parts = auth.split(" ", 1)
    if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
        raise MatrixError(401, "M_UNKNOWN_TOKEN", "Invalid authorization header")
    user_id = store.resolve_token(parts[1].strip())
    if not user_id:
        raise MatrixError(401, "M_UNKNOWN_TOKEN", "Unrecognised access token")
    return user_id
