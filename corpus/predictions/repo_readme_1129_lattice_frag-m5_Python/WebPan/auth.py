"""Authentication: password hashing, tokens, bearer dependency and auth routes."""
import base64
import hashlib
import hmac
import logging
import os
import re
from datetime import datetime, timedelta, timezone
from typing import Optional

import jwt
from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

import config
from database import User, get_db

logger = logging.getLogger("webpan.auth")

router = APIRouter()

bearer_scheme = HTTPBearer(auto_error=False)

JWT_ALGORITHM = "HS256"
PBKDF2_ITERATIONS = 100_000
EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9_.\-]{3,50}$")
MIN_PASSWORD_LENGTH = 6


# --------------------------------------------------------------------------- #
# Errors
# --------------------------------------------------------------------------- #
def error_response(status_code: int, error: str, error_code: str, details: Optional[str] = None) -> JSONResponse:
    body = {"success": False, "error": error, "error_code": error_code}
    if details is not None:
        body["details"] = details
    return JSONResponse(status_code=status_code, content=body)


def auth_exception(error: str, error_code: str, status_code: int = 401) -> HTTPException:
    return HTTPException(
        status_code=status_code,
        detail={"success": False, "error": error, "error_code": error_code},
        headers={"WWW-Authenticate": "Bearer"},
    )


# --------------------------------------------------------------------------- #
# Passwords
# --------------------------------------------------------------------------- #
def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, PBKDF2_ITERATIONS)
    return "pbkdf2_sha256${}${}${}".format(
        PBKDF2_ITERATIONS,
        base64.b64encode(salt).decode("ascii"),
        base64.b64encode(digest).decode("ascii"),
    )


def verify_password(password: str, password_hash: str) -> bool:
    try:
        algorithm, iterations, salt_b64, digest_b64 = password_hash.split("$")
        if algorithm != "pbkdf2_sha256":
            return False
        salt = base64.b64decode(salt_b64)
        expected = base64.b64decode(digest_b64)
        actual = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, int(iterations))
        return hmac.compare_digest(actual, expected)
    except (ValueError, TypeError, AttributeError):
        return False


# --------------------------------------------------------------------------- #
# Tokens
# --------------------------------------------------------------------------- #
def create_access_token(user_id: str) -> str:
    now = datetime.now(timezone.utc)
    payload = {
        "sub": str(user_id),
        "iat": int(now.timestamp()),
        "exp": int((now + timedelta(seconds=config.TOKEN_EXPIRE_SECONDS)).timestamp()),
        "type": "access",
    }
    return jwt.encode(payload, config.SECRET_KEY, algorithm=JWT_ALGORITHM)


def decode_access_token(token: str) -> Optional[str]:
    """Return the user id stored in ``token`` or None if it is invalid/expired."""
    if not token:
        return None
    try:
        payload = jwt.decode(token, config.SECRET_KEY, algorithms=[JWT_ALGORITHM])
    except jwt.PyJWTError:
        return None
    if payload.get("type") != "access":
        return None
    sub = payload.get("sub")
    return str(sub) if sub is not None else None


def _load_user(db: Session, user_id: str) -> Optional[User]:
    user = db.query(User).filter(User.id == user_id).first()
    if user is None and user_id.isdigit():
        user = db.query(User).filter(User.id == int(user_id)).first()
    return user


def get_current_user(
    credentials: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme),
    db: Session = Depends(get_db),
) -> User:
    """Dependency: require a valid bearer token and return the user."""
    if credentials is None or not credentials.credentials:
        raise auth_exception("Authentication required", "AUTH_REQUIRED")
    if credentials.scheme.lower() != "bearer":
        raise auth_exception("Invalid authentication scheme", "AUTH_INVALID")
    user_id = decode_access_token(credentials.credentials)
    if user_id is None:
        raise auth_exception("Invalid or expired token", "AUTH_INVALID")
    user = _load_user(db, user_id)
    if user is None:
        raise auth_exception("User not found for token", "AUTH_INVALID")
    return user


def get_optional_user(
    credentials: Optional[HTTPAuthorizationCredentials] = Depends(bearer_scheme),
    db: Session = Depends(get_db),
) -> Optional[User]:
    """Dependency: return the user for a valid bearer token, else None."""
    if credentials is None or not credentials.credentials:
        return None
    user_id = decode_access_token(credentials.credentials)
    if user_id is None:
        return None
    return _load_user(db, user_id)


# --------------------------------------------------------------------------- #
# Routes
# --------------------------------------------------------------------------- #
async def _read_json(request: Request):
    try:
        body = await request.json()
    except Exception:  # noqa: BLE001 - malformed or missing JSON body
        return None
    return body if isinstance(body, dict) else None


@router.post("/auth/register", status_code=201)
async def register(request: Request, db: Session = Depends(get_db)):
    body = await _read_json(request)
    if body is None:
        return error_response(400, "Request body must be a JSON object", "INVALID_FORMAT")

    username = body.get("username")
    password = body.get("password")
    email = body.get("email")

    if not isinstance(username, str) or not username.strip():
        return error_response(400, "Username is required", "INVALID_FORMAT")
    username = username.strip()
    if not USERNAME_PATTERN.match(username):
        return error_response(
            400,
            "Username must be 3-50 characters (letters, digits, '_', '.', '-')",
            "INVALID_FORMAT",
        )
    if not isinstance(password, str) or not password:
        return error_response(400, "Password is required", "INVALID_FORMAT")
    if len(password) < MIN_PASSWORD_LENGTH:
        return error_response(
            400, f"Password must be at least {MIN_PASSWORD_LENGTH} characters", "INVALID_FORMAT"
        )
    if email is not None:
        if not isinstance(email, str) or not EMAIL_PATTERN.match(email.strip()):
            return error_response(400, "Invalid email format", "INVALID_FORMAT")
        email = email.strip()

    if db.query(User).filter(User.username == username).first() is not None:
        return error_response(409, "Username already exists", "USER_EXISTS")
    if email and db.query(User).filter(User.email == email).first() is not None:
        return error_response(409, "Email already registered", "USER_EXISTS")

    user = User(username=username, email=email, password_hash=hash_password(password))
    db.add(user)
    try:
        db.commit()
    except Exception:  # noqa: BLE001 - e.g. race on unique constraint
        db.rollback()
        return error_response(409, "Username already exists", "USER_EXISTS")
    db.refresh(user)
    logger.info("Registered user %s (%s)", username, user.id)
    return JSONResponse(
        status_code=201,
        content={
            "success": True,
            "message": "User registered successfully",
            "user_id": str(user.id),
        },
    )


@router.post("/auth/login")
async def login(request: Request, db: Session = Depends(get_db)):
    body = await _read_json(request)
    if body is None:
        return error_response(400, "Request body must be a JSON object", "INVALID_FORMAT")

    username = body.get("username")
    password = body.get("password")
    if not isinstance(username, str) or not username.strip() or not isinstance(password, str) or not password:
        return error_response(400, "Username and password are required", "INVALID_FORMAT")

    user = db.query(User).filter(User.username == username.strip()).first()
    if user is None or not verify_password(password, user.password_hash):
        logger.info("Failed login for %s", username)
        return error_response(401, "Invalid username or password", "AUTH_INVALID")

    token = create_access_token(str(user.id))
    logger.info("User %s logged in", user.username)
    return {
        "success": True,
        "token": token,
        "user_id": str(user.id),
        "expires_in": int(config.TOKEN_EXPIRE_SECONDS),
    }
