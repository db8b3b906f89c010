"""Identifier formats: ``@user:server``, ``!room:server``, ``$event``."""
import re
import secrets
import string

ROOM_ID_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")
USER_ID_RE = re.compile(r"^@[^:]+:[^:]+$")
# Localpart: no ':' (separator of the server name), no whitespace / control chars.
LOCALPART_RE = re.compile(r"^[^:\s\x00-\x1f\x7f]+$")

_ALNUM = string.ascii_letters + string.digits


def user_id(localpart: str, server_name: str) -> str:
    return f"@{localpart}:{server_name}"


def new_event_id() -> str:
    return "$" + "".join(secrets.choice(_ALNUM) for _ in range(24))


def new_access_token() -> str:
    return "syt_" + secrets.token_urlsafe(32)


def is_valid_room_id(room_id: str) -> bool:
    return bool(ROOM_ID_RE.match(room_id))


def is_valid_localpart(localpart: str) -> bool:
    return bool(LOCALPART_RE.match(localpart))
