"""Bearer token authentication."""
from functools import wraps

from flask import current_app, g, request

from .errors import ApiError


def _bearer_token() -> str:
    header = request.headers.get("Authorization", "")
    if not header.strip():
        raise ApiError(401, "M_MISSING_TOKEN", "Missing access token.")
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "M_MISSING_TOKEN", "Authorization header must be 'Bearer <token>'.")
    return token


def require_auth(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        token = _bearer_token()
        user_id = current_app.extensions["store"].user_for_token(token)
        if user_id is None:
            raise ApiError(401, "M_UNKNOWN_TOKEN", "Unknown or expired access token.")
        g.user_id = user_id
        return view(*args, **kwargs)

    return wrapper
