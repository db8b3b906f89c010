"""User endpoints under /api/v1/users: register, login, get, update, delete."""

import logging

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from app import database
from app.schemas import UserLogin, UserRegister, UserUpdate
from app.security import (
    ACCESS_TOKEN_EXPIRE_SECONDS,
    create_access_token,
    get_current_user_id,
    hash_password,
    verify_password,
)

logger = logging.getLogger(__name__)

router = APIRouter(prefix="/api/v1/users", tags=["users"])


def success_response(message, data=None, status_code=200):
    body = {"success": True, "message": message}
    if data is not None:
        body["data"] = data
    return JSONResponse(status_code=status_code, content=body)


def error_response(status_code, message, error_code, details=None):
    body = {"success": False, "message": message, "error_code": error_code}
    if details is not None:
        body["details"] = details
    return JSONResponse(status_code=status_code, content=body)


def _user_not_found(user_id):
    return error_response(
        404,
        "User not found",
        "USER_NOT_FOUND",
        {"user_id": user_id},
    )


def _forbidden():
    return error_response(
        403,
        "You are not allowed to modify this user",
        "FORBIDDEN",
    )


@router.post("/register")
def register_user(payload: UserRegister):
    username = payload.username.strip()
    email = payload.email.strip().lower()

    if database.get_user_by_username(username) is not None:
        return error_response(
            409,
            "Username already exists",
            "USERNAME_EXISTS",
            {"field": "username"},
        )
    if database.get_user_by_email(email) is not None:
        return error_response(
            409,
            "Email already exists",
            "EMAIL_EXISTS",
            {"field": "email"},
        )

    user = database.create_user(
        username=username,
        email=email,
        password_hash=hash_password(payload.password),
        full_name=payload.full_name,
    )
    logger.info("Registered user %s (id=%s)", username, user["id"])

    return success_response(
        "User registered successfully",
        {
            "user_id": user["id"],
            "username": user["username"],
            "email": user["email"],
            "full_name": user["full_name"],
            "created_at": user["created_at"],
        },
        status_code=201,
    )


@router.post("/login")
def login_user(payload: UserLogin):
    user = database.get_user_by_username(payload.username)
    if user is None or not verify_password(payload.password, user["password_hash"]):
        logger.info("Failed login attempt for username %s", payload.username)
        return error_response(
            401,
            "Invalid username or password",
            "INVALID_CREDENTIALS",
        )

    token = create_access_token(user["id"])
    logger.info("User %s logged in", user["username"])

    return success_response(
        "Login successful",
        {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": ACCESS_TOKEN_EXPIRE_SECONDS,
            "user": {
                "user_id": user["id"],
                "username": user["username"],
                "email": user["email"],
                "full_name": user["full_name"],
            },
        },
    )


@router.get("/{user_id}")
def get_user(user_id: int, current_user_id: int = Depends(get_current_user_id)):
    user = database.get_user_by_id(user_id)
    if user is None:
        return _user_not_found(user_id)

    return success_response(
        "User retrieved successfully",
        {
            "user_id": user["id"],
            "username": user["username"],
            "email": user["email"],
            "full_name": user["full_name"],
            "created_at": user["created_at"],
            "updated_at": user["updated_at"],
        },
    )


@router.put("/{user_id}")
def update_user(
    user_id: int,
    payload: UserUpdate,
    current_user_id: int = Depends(get_current_user_id),
):
    user = database.get_user_by_id(user_id)
    if user is None:
        return _user_not_found(user_id)
    if int(current_user_id) != user_id:
        return _forbidden()

    email = payload.email.strip().lower() if payload.email is not None else None
    full_name = payload.full_name

    if email is not None and email != user["email"]:
        existing = database.get_user_by_email(email)
        if existing is not None and existing["id"] != user_id:
            return error_response(
                409,
                "Email already exists",
                "EMAIL_EXISTS",
                {"field": "email"},
            )

    database.update_user(user_id, email=email, full_name=full_name)
    updated = database.get_user_by_id(user_id)
    logger.info("Updated user id=%s", user_id)

    return success_response(
        "User updated successfully",
        {
            "user_id": updated["id"],
            "username": updated["username"],
            "email": updated["email"],
            "full_name": updated["full_name"],
            "updated_at": updated["updated_at"],
        },
    )


@router.delete("/{user_id}")
def delete_user(user_id: int, current_user_id: int = Depends(get_current_user_id)):
    user = database.get_user_by_id(user_id)
    if user is None:
        return _user_not_found(user_id)
    if int(current_user_id) != user_id:
        return _forbidden()

    database.delete_user(user_id)
    logger.info("Deleted user id=%s", user_id)

    return success_response("User deleted successfully")
