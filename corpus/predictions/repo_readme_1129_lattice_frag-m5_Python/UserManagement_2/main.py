"""ProjectC - User Management Microservice entry point.

Routes (base path /api/v1):
    POST   /api/v1/users/register
    POST   /api/v1/users/login
    GET    /api/v1/users/{user_id}
    PUT    /api/v1/users/{user_id}
    DELETE /api/v1/users/{user_id}
    GET    /health
"""

import logging
from datetime import datetime, timezone
from typing import Any, Optional

import uvicorn
from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request, status
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session
from starlette.exceptions import HTTPException as StarletteHTTPException

from config import settings, setup_logging
from database import Base, User, engine, get_db
from schemas import UserLogin, UserRegister, UserUpdate
from security import (
    create_access_token,
    get_current_user_id,
    hash_password,
    verify_password,
)

setup_logging()
logger = logging.getLogger("user_management")

Base.metadata.create_all(bind=engine)

app = FastAPI(
    title="ProjectC - User Management Microservice",
    version="1.0.0",
)

router = APIRouter(prefix="/api/v1/users", tags=["users"])


# --------------------------------------------------------------------------- #
# Error handling
# --------------------------------------------------------------------------- #

class APIError(Exception):
    """Application error rendered in the unified error format."""

    def __init__(
        self,
        status_code: int,
        message: str,
        error_code: str,
        details: Optional[Any] = None,
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.message = message
        self.error_code = error_code
        self.details = details


_DEFAULT_ERROR_CODES = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
    422: "VALIDATION_ERROR",
    500: "INTERNAL_ERROR",
}


def error_response(
    status_code: int,
    message: str,
    error_code: str,
    details: Optional[Any] = None,
    headers: Optional[dict] = None,
) -> JSONResponse:
    body = {
        "success": False,
        "message": message,
        "error_code": error_code,
    }
    if details is not None:
        body["details"] = jsonable_encoder(details)
    return JSONResponse(status_code=status_code, content=body, headers=headers)


@app.exception_handler(APIError)
async def api_error_handler(request: Request, exc: APIError) -> JSONResponse:
    return error_response(exc.status_code, exc.message, exc.error_code, exc.details)


@app.exception_handler(StarletteHTTPException)
async def http_exception_handler(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    code = _DEFAULT_ERROR_CODES.get(exc.status_code, "HTTP_ERROR")
    detail = exc.detail
    details = None
    if isinstance(detail, dict):
        message = str(detail.get("message") or detail.get("detail") or "Request failed")
        code = str(detail.get("error_code") or code)
        details = detail.get("details")
    else:
        message = str(detail) if detail else "Request failed"
    return error_response(
        exc.status_code, message, code, details, headers=getattr(exc, "headers", None)
    )


@app.exception_handler(RequestValidationError)
async def validation_exception_handler(
    request: Request, exc: RequestValidationError
) -> JSONResponse:
    errors = []
    for err in exc.errors():
        loc = [str(part) for part in err.get("loc", []) if part != "body"]
        errors.append(
            {
                "field": ".".join(loc) if loc else None,
                "message": err.get("msg"),
                "type": err.get("type"),
            }
        )
    return error_response(
        status.HTTP_422_UNPROCESSABLE_ENTITY,
        "Request validation failed",
        "VALIDATION_ERROR",
        {"errors": errors},
    )


@app.exception_handler(Exception)
async def unhandled_exception_handler(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("Unhandled error on %s %s", request.method, request.url.path)
    return error_response(500, "Internal server error", "INTERNAL_ERROR")


# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #

def _iso(value: Optional[datetime]) -> Optional[str]:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.isoformat()


def _get_user_or_404(db: Session, user_id: int) -> User:
    user = db.query(User).filter(User.id == user_id).first()
    if user is None:
        raise APIError(404, "User not found", "USER_NOT_FOUND")
    return user


def _require_self(current_user_id: int, user_id: int) -> None:
    if int(current_user_id) != int(user_id):
        raise APIError(
            403, "You are not allowed to modify this user", "FORBIDDEN"
        )


# --------------------------------------------------------------------------- #
# Routes
# --------------------------------------------------------------------------- #

@app.get("/health")
def health() -> dict:
    return {
        "success": True,
        "status": "healthy",
        "message": "Service is healthy",
        "timestamp": datetime.now(timezone.utc).isoformat(),
    }


@router.post("/register", status_code=status.HTTP_201_CREATED)
def register(payload: UserRegister, db: Session = Depends(get_db)) -> dict:
    if db.query(User).filter(User.username == payload.username).first():
        raise APIError(409, "Username already exists", "USERNAME_EXISTS")
    if db.query(User).filter(User.email == payload.email).first():
        raise APIError(409, "Email already exists", "EMAIL_EXISTS")

    now = datetime.now(timezone.utc)
    user = User(
        username=payload.username,
        email=payload.email,
        full_name=payload.full_name,
        password_hash=hash_password(payload.password),
        created_at=now,
        updated_at=now,
    )
    db.add(user)
    db.commit()
    db.refresh(user)
    logger.info("Registered user id=%s username=%s", user.id, user.username)

    return {
        "success": True,
        "message": "User registered successfully",
        "data": {
            "user_id": user.id,
            "username": user.username,
            "email": user.email,
            "full_name": user.full_name,
            "created_at": _iso(user.created_at),
        },
    }


@router.post("/login")
def login(payload: UserLogin, db: Session = Depends(get_db)) -> dict:
    user = db.query(User).filter(User.username == payload.username).first()
    if user is None or not verify_password(payload.password, user.password_hash):
        raise APIError(401, "Invalid username or password", "INVALID_CREDENTIALS")

    token = create_access_token({"sub": str(user.id), "username": user.username})
    logger.info("User logged in id=%s", user.id)

    return {
        "success": True,
        "message": "Login successful",
        "data": {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": int(settings.ACCESS_TOKEN_EXPIRE_MINUTES) * 60,
            "user": {
                "user_id": user.id,
                "username": user.username,
                "email": user.email,
                "full_name": user.full_name,
            },
        },
    }


@router.get("/{user_id}")
def get_user(
    user_id: int,
    current_user_id: int = Depends(get_current_user_id),
    db: Session = Depends(get_db),
) -> dict:
    user = _get_user_or_404(db, user_id)
    return {
        "success": True,
        "message": "User retrieved successfully",
        "data": {
            "user_id": user.id,
            "username": user.username,
            "email": user.email,
            "full_name": user.full_name,
            "created_at": _iso(user.created_at),
            "updated_at": _iso(user.updated_at),
        },
    }


@router.put("/{user_id}")
def update_user(
    user_id: int,
    payload: UserUpdate,
    current_user_id: int = Depends(get_current_user_id),
    db: Session = Depends(get_db),
) -> dict:
    user = _get_user_or_404(db, user_id)
    _require_self(current_user_id, user_id)

    if payload.email is not None and payload.email != user.email:
        existing = (
            db.query(User)
            .filter(User.email == payload.email, User.id != user.id)
            .first()
        )
        if existing is not None:
            raise APIError(409, "Email already exists", "EMAIL_EXISTS")
        user.email = payload.email
    if payload.full_name is not None:
        user.full_name = payload.full_name

    user.updated_at = datetime.now(timezone.utc)
    db.commit()
    db.refresh(user)
    logger.info("Updated user id=%s", user.id)

    return {
        "success": True,
        "message": "User updated successfully",
        "data": {
            "user_id": user.id,
            "username": user.username,
            "email": user.email,
            "full_name": user.full_name,
            "updated_at": _iso(user.updated_at),
        },
    }


@router.delete("/{user_id}")
def delete_user(
    user_id: int,
    current_user_id: int = Depends(get_current_user_id),
    db: Session = Depends(get_db),
) -> dict:
    user = _get_user_or_404(db, user_id)
    _require_self(current_user_id, user_id)

    db.delete(user)
    db.commit()
    logger.info("Deleted user id=%s", user_id)

    return {"success": True, "message": "User deleted successfully"}


app.include_router(router)


if __name__ == "__main__":
    uvicorn.run(app, host="0.0.0.0", port=int(settings.PORT))
