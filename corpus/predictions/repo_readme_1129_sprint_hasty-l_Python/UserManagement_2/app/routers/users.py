"""User endpoints."""
import logging

from fastapi import APIRouter, Depends, status
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from app.core.config import settings
from app.core.errors import APIException
from app.core.security import create_access_token
from app.db import get_db
from app.deps import get_current_user
from app.models import User
from app.schemas import UserLogin, UserRegister, UserUpdate, iso
from app.services import user_service

log = logging.getLogger(__name__)
router = APIRouter(prefix="/users", tags=["users"])


def _load_target(db: Session, user_id: int, current: User) -> User:
    target = user_service.get_by_id(db, user_id)
    if not target:
        raise APIException(404, "User not found", "USER_NOT_FOUND")
    if target.id != current.id:
        raise APIException(403, "You are not allowed to access this user", "FORBIDDEN")
    return target


@router.post("/register", status_code=status.HTTP_201_CREATED)
def register(payload: UserRegister, db: Session = Depends(get_db)):
    user = user_service.register(db, payload)
    log.info("Registered user %s", user.username)
    return JSONResponse(status_code=201, content={
        "success": True,
        "message": "User registered successfully",
        "data": {
            "user_id": user.id,
            "username": user.username,
            "email": user.email,
            "full_name": user.full_name,
            "created_at": iso(user.created_at),
        },
    })


@router.post("/login")
def login(payload: UserLogin, db: Session = Depends(get_db)):
    user = user_service.authenticate(db, payload.username, payload.password)
    token = create_access_token(user.id, user.username)
    return {
        "success": True,
        "message": "Login successful",
        "data": {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": settings.ACCESS_TOKEN_EXPIRE_SECONDS,
            "user": {
                "user_id": user.id,
                "username": user.username,
                "email": user.email,
                "full_name": user.full_name,
            },
        },
    }


@router.get("/{user_id}")
def get_user(user_id: int, db: Session = Depends(get_db), current: User = Depends(get_current_user)):
    user = _load_target(db, user_id, current)
    return {
        "success": True,
        "message": "User retrieved successfully",
        "data": {
            "user_id": user.id,
            "username": user.username,
            "email": user.email,
            "full_name": user.full_name,
            "created_at": iso(user.created_at),
            "updated_at": iso(user.updated_at),
        },
    }


@router.put("/{user_id}")
def update_user(user_id: int, payload: UserUpdate, db: Session = Depends(get_db),
                current: User = Depends(get_current_user)):
    user = _load_target(db, user_id, current)
    user = user_service.update(db, user, payload)
    return {
        "success": True,
        "message": "User updated successfully",
        "data": {
            "user_id": user.id,
            "username": user.username,
            "email": user.email,
            "full_name": user.full_name,
            "updated_at": iso(user.updated_at),
        },
    }


@router.delete("/{user_id}")
def delete_user(user_id: int, db: Session = Depends(get_db), current: User = Depends(get_current_user)):
    user = _load_target(db, user_id, current)
    user_service.delete(db, user)
    return {"success": True, "message": "User deleted successfully"}
