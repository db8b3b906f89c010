import os
import re
from datetime import datetime, timezone

import uvicorn
from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

import storage
from schemas import LoginRequest, RegisterRequest, SendMessageRequest

app = FastAPI(title="synapse-benchmark")

ROOM_RE = re.compile(r"^![A-Za-z0-9]+:[^:]+$")


class ApiError(Exception):
    def __init__(self, status, errcode, error):
        self.status = status
        self.errcode = errcode
        self.error = error


@app.exception_handler(ApiError)
async def api_error_handler(request: Request, exc: ApiError):
    return JSONResponse(status_code=exc.status, content={"errcode": exc.errcode, "error": exc.error})


@app.exception_handler(RequestValidationError)
async def validation_handler(request: Request, exc: RequestValidationError):
    return JSONResponse(status_code=400, content={"errcode": "M_BAD_JSON", "error": "Invalid request"})


def require_user(authorization):
    if not authorization or not authorization.startswith("Bearer "):
        raise ApiError(401, "M_MISSING_TOKEN", "Missing access token")
    user_id = storage.user_for_token(authorization[7:].strip())
    if user_id is None:
        raise ApiError(401, "M_UNKNOWN_TOKEN", "Invalid access token")
    return user_id


def check_room(room_id):
    if not ROOM_RE.match(room_id):
        raise ApiError(400, "M_INVALID_PARAM", "Invalid room id")


@app.get("/health")
def health():
    now = datetime.now(timezone.utc).replace(microsecond=0)
    return {"status": "ok", "service": "synapse-benchmark", "time": now.strftime("%Y-%m-%dT%H:%M:%SZ")}


@app.post("/register", status_code=201)
def register(req: RegisterRequest):
    user_id = storage.create_user(req.username, req.password, req.display_name)
    if user_id is None:
        raise ApiError(409, "M_USER_IN_USE", "User already exists")
    return {"user_id": user_id}


@app.post("/login")
def login(req: LoginRequest):
    token = storage.check_login(req.username, req.password)
    if token is None:
        raise ApiError(401, "M_FORBIDDEN", "Invalid username or password")
    return {"access_token": token, "token_type": "Bearer", "expires_in": storage.TOKEN_TTL}


@app.post("/rooms/{room_id}/messages")
def send_message(room_id: str, req: SendMessageRequest, authorization: str = Header(None)):
    user_id = require_user(authorization)
    check_room(room_id)
    event = storage.add_message(room_id, user_id, req.type, req.content.body)
    return {"event_id": event["event_id"], "room_id": room_id, "ts": event["ts"]}


@app.get("/rooms/{room_id}/messages")
def get_messages(room_id: str, limit: int = Query(20, ge=1, le=100), authorization: str = Header(None)):
    user_id = require_user(authorization)
    check_room(room_id)
    messages = storage.list_messages(room_id, limit)
    return {"room_id": room_id, "messages": messages, "next_cursor": None}


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=int(os.getenv("PORT", "8080")))
