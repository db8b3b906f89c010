"""Bearer-token extraction and validation for protected routes."""

from typing import Optional

from fastapi import HTTPException, Request

from .storage import store

_AUTH_HEADERS = {"WWW-Authenticate": "Bearer"}


def extract_bearer_token(authorization: Optional[str]) -> Optional[str]:
    """Return the token from an ``Authorization: Bearer <token>`` header value.

    Returns ``None`` when the header is missing, uses another scheme, or
    carries an empty token.
    """
    if not authorization:
        return None
    parts = authorization.strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() != "bearer":
        return None
    token = parts[1].strip()
    if not token or " " in token:
        return None
    return token


def get_current_user(request: Request) -> str:
    """FastAPI dependency: resolve the authenticated user id or fail with 401."""
    token = extract_bearer_token(request.headers.get("Authorization"))
    if token is None:
        raise HTTPException(
            status_code=401,
            detail="Missing or malformed Authorization header",
            headers=_AUTH_HEADERS,
        )

    user_id = store.get_user_by_token(token)
    if not user_id:
        raise HTTPException(
            status_code=401,
            detail="Invalid or expired access token",
            headers=_AUTH_HEADERS,
        )
    return user_id
