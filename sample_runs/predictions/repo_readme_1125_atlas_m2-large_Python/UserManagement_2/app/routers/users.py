"""/api/v1/users endpoints."""
import logging

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from .. import repository
from ..config import settings
from ..dependencies import get_current_user
from ..errors import APIError
from ..repository import User
from ..schemas import LoginRequest, RegisterRequest, UpdateUserRequest
from ..security import create_access_token, hash_password, verify_password

logger = logging.getLogger(__name__)
router = APIRouter(prefix="/users", tags=["users"])


def _public(user: User, *fields: str) -> dict:
    data = {
        "user_id": user.id,
        "username": user.username,
        "email": user.email,
        "full_name": user.full_name or "",
    }
    for name in fields:
        data[name] = getattr(user, name)
    return data


def _load_target(user_id: int, current: User) -> User:
    """Return the requested user, enforcing that users only access their own account."""
    target = repository.get_by_id(user_id)
    if target is None:
        raise APIError(404, "USER_NOT_FOUND", f"User {user_id} not found")
    if target.id != current.id:
        raise APIError(403, "FORBIDDEN", "You can only access your own account")
    return target


@router.post("/register", status_code=201)
def register(body: RegisterRequest):
    user = repository.create_user(
        username=body.username,
        email=body.email,
        password_hash=hash_password(body.password),
        full_name=body.full_name,
    )
    logger.info("Registered user id=%s username=%s", user.id, user.username)
    return JSONResponse(status_code=201, content={
        "success": True,
        "message": "User registered successfully",
        "data": _public(user, "created_at"),
    })


@router.post("/login")
def login(body: LoginRequest):
    user = repository.get_by_login(body.username)
    if user is None or not verify_password(body.password, user.password_hash):
        logger.info("Failed login for %r", body.username)
        raise APIError(401, "INVALID_CREDENTIALS", "Invalid username or password")
    token = create_access_token(user.id, user.username)
    logger.info("User id=%s logged in", user.id)
    return {
        "success": True,
        "message": "Login successful",
        "data": {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": settings.jwt_expires_in,
            "user": _public(user),
        },
    }


@router.get("/{user_id}")
def get_user(user_id: int, current: User = Depends(get_current_user)):
    user = _load_target(user_id, current)
    return {
        "success": True,
        "message": "User retrieved successfully",
        "data": _public(user, "created_at", "updated_at"),
    }


@router.put("/{user_id}")
def update_user(user_id: int, body: UpdateUserRequest, current: User = Depends(get_current_user)):
    _load_target(user_id, current)
    fields = {k: v for k, v in body.model_dump(include={"email", "full_name"}).items()
              if v is not None}
    if not fields:
        raise APIError(400, "VALIDATION_ERROR",
                       "At least one of 'email' or 'full_name' must be provided",
                       {"body": "No updatable fields provided"})
    user = repository.update_user(user_id, fields)
    if user is None:
        raise APIError(404, "USER_NOT_FOUND", f"User {user_id} not found")
    logger.info("Updated user id=%s fields=%s", user_id, sorted(fields))
    return {
        "success": True,
        "message": "User updated successfully",
        "data": _public(user, "updated_at"),
    }


@router.delete("/{user_id}")
def delete_user(user_id: int, current: User = Depends(get_current_user)):
    _load_target(user_id, current)
    if not repository.delete_user(user_id):
        raise APIError(404, "USER_NOT_FOUND", f"User {user_id} not found")
    logger.info("Deleted user id=%s", user_id)
    return {"success": True, "message": "User deleted successfully"}
