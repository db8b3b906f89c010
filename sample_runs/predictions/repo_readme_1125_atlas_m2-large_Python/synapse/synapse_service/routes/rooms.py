"""Room messages."""
import re

from flask import Blueprint, current_app, g, request

from ..auth import require_auth
from ..errors import invalid_param
from ..identifiers import is_valid_room_id
from ..schemas import SEND_MESSAGE_REQUEST
from ..validation import int_query_param, json_body

bp = Blueprint("rooms", __name__)

_CURSOR_RE = re.compile(r"^[bf]([0-9]+)$")


def _check_room_id(room_id: str) -> None:
    if not is_valid_room_id(room_id):
        raise invalid_param("room_id must look like '!localpart:server' (localpart alphanumeric).")


@bp.post("/rooms/<room_id>/messages")
@require_auth
def send_message(room_id: str):
    _check_room_id(room_id)
    data = json_body(SEND_MESSAGE_REQUEST)
    event = current_app.extensions["store"].append_message(
        room_id, g.user_id, data["type"], data["content"]["body"]
    )
    return {"event_id": event.event_id, "room_id": room_id, "ts": event.ts}, 200


@bp.get("/rooms/<room_id>/messages")
@require_auth
def list_messages(room_id: str):
    _check_room_id(room_id)
    settings = current_app.extensions["settings"]
    limit = int_query_param("limit", settings.default_limit, 1, settings.max_limit)

    # Optional extensions: ``dir`` (b = the most recent messages, default;
    # f = from the start of the room) and ``from`` (a ``next_cursor`` returned by
    # a previous call).  Messages of a page are always in chronological order.
    direction = request.args.get("dir", "b")
    if direction not in ("b", "f"):
        raise invalid_param("'dir' must be 'b' or 'f'")
    start = None
    cursor = request.args.get("from")
    if cursor:
        match = _CURSOR_RE.match(cursor)
        if not match or cursor[0] != direction:
            raise invalid_param("'from' is not a valid cursor for this direction")
        start = int(match.group(1))

    events, nxt = current_app.extensions["store"].page_messages(
        room_id, limit, start, forwards=(direction == "f")
    )
    return {
        "room_id": room_id,
        "messages": [e.to_dict() for e in events],
        "next_cursor": f"{direction}{nxt}" if nxt is not None else None,
    }, 200
