import re
from typing import Optional

from fastapi import APIRouter, Depends, Query

from app.config import settings
from app.deps import require_user
from app.errors import MatrixError
from app.schemas import ListMessagesResponse, SendMessageRequest, SendMessageResponse
from app.services import store

router = APIRouter(prefix="/rooms")

ROOM_ID_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")


def _check_room(room_id: str) -> str:
    if not ROOM_ID_RE.match(room_id):
        raise MatrixError(400, "M_INVALID_PARAM", "Invalid room_id")
    return room_id


@router.post("/{room_id}/messages", response_model=SendMessageResponse)
def send_message(room_id: str, body: SendMessageRequest, user_id: str = Depends(require_user)):
    _check_room(room_id)
    ev = store.append_event(room_id, user_id, body.type, body.content.model_dump())
    return SendMessageResponse(event_id=ev.event_id, room_id=room_id, ts=ev.ts)


@router.get("/{room_id}/messages", response_model=ListMessagesResponse)
def list_messages(room_id: str,
                  limit: int = Query(settings.DEFAULT_LIMIT, ge=1, le=settings.MAX_LIMIT),
                  cursor: Optional[str] = Query(None),
                  user_id: str = Depends(require_user)):
    _check_room(room_id)
    start = 0
    if cursor:
        if not cursor.isdigit():
            raise MatrixError(400, "M_INVALID_PARAM", "Invalid cursor")
        start = int(cursor)
    events, nxt = store.list_events(room_id, limit, start)
    return {
        "room_id": room_id,
        "messages": [
            {"event_id": e.event_id, "sender": e.sender, "type": e.type,
             "content": {"body": e.content.get("body", "")}, "ts": e.ts}
            for e in events
        ],
        "next_cursor": nxt,
    }
