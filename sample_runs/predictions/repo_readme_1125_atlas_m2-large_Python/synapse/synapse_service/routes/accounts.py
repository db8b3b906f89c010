"""Registration and login."""
from flask import Blueprint, current_app

from ..errors import ApiError
from ..identifiers import USER_ID_RE, is_valid_localpart, user_id as make_user_id
from ..schemas import LOGIN_REQUEST, REGISTER_REQUEST
from ..store import UserExists
from ..validation import json_body

bp = Blueprint("accounts", __name__)


@bp.post("/register")
def register():
    data = json_body(REGISTER_REQUEST)
    settings = current_app.extensions["settings"]
    localpart = data["username"]
    if not is_valid_localpart(localpart):
        raise ApiError(400, "M_INVALID_USERNAME",
                       "Username must not contain ':' or whitespace characters.")
    uid = make_user_id(localpart, settings.server_name)
    try:
        current_app.extensions["store"].create_user(uid, data["password"], data.get("display_name"))
    except UserExists:
        raise ApiError(409, "M_USER_IN_USE", "User ID already taken.") from None
    return {"user_id": uid}, 200


def _resolve_user_id(username: str, server_name: str) -> str:
    """Accept a bare localpart (``alice``) or a full user id (``@alice:server``)."""
    if USER_ID_RE.match(username):
        return username
    return make_user_id(username, server_name)


@bp.post("/login")
def login():
    data = json_body(LOGIN_REQUEST)
    settings = current_app.extensions["settings"]
    store = current_app.extensions["store"]
    uid = _resolve_user_id(data["username"], settings.server_name)
    if store.check_credentials(uid, data["password"]) is None:
        raise ApiError(401, "M_FORBIDDEN", "Invalid username or password.")
    token = store.issue_token(uid, settings.token_ttl_seconds)
    return {
        "access_token": token,
        "token_type": "Bearer",
        "expires_in": settings.token_ttl_seconds,
    }, 200
