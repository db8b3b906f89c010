from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from app.core.config import settings
from app.core.errors import APIError
from app.core.security import create_token, hash_password, verify_password
from app.db import get_db
from app.models import User
from app.schemas import LoginRequest, RegisterRequest
from app.services import audit

router = APIRouter(prefix="/auth", tags=["auth"])


@router.post("/register")
def register(body: RegisterRequest, request: Request, db: Session = Depends(get_db)):
    if db.query(User).filter(User.username == body.username).first():
        raise APIError(409, "Username already exists", "USER_EXISTS")
    if db.query(User).filter(User.email == body.email.lower()).first():
        raise APIError(409, "Email already registered", "EMAIL_EXISTS")
    user = User(username=body.username, email=body.email.lower(), password_hash=hash_password(body.password))
    db.add(user)
    db.commit()
    db.refresh(user)
    audit.record(db, "register", user_id=user.id, ip=request.client.host if request.client else None)
    return JSONResponse(status_code=201, content={
        "success": True, "message": "User registered successfully", "user_id": user.id,
    })


@router.post("/login")
def login(body: LoginRequest, request: Request, db: Session = Depends(get_db)):
    user = db.query(User).filter(User.username == body.username).first()
    if not user or not verify_password(body.password, user.password_hash):
        audit.record(db, "login_failed", detail=body.username, ip=request.client.host if request.client else None)
        raise APIError(401, "Invalid username or password", "AUTH_INVALID")
    audit.record(db, "login", user_id=user.id, ip=request.client.host if request.client else None)
    return {
        "success": True,
        "token": create_token(user.id),
        "user_id": user.id,
        "expires_in": settings.TOKEN_EXPIRE_SECONDS,
    }
