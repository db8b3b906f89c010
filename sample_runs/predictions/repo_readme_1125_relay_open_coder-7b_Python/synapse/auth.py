import hashlib
import secrets
import time
from typing import Optional

from fastapi import Header, HTTPException

import storage

TOKEN_TTL = 3600


def hash_password(password: str, salt: Optional[str] = None) -> str:
    if salt is None:
        salt = secrets.token_hex(8)
    digest = hashlib.sha256((salt + password).encode("utf-8")).hexdigest()
    return salt + "$" + digest


def verify_password(password: str, hashed: str) -> bool:
    salt, _ = hashed.split("$", 1)
    return secrets.compare_digest(hash_password(password, salt), hashed)


def create_token(user_id: str) -> str:
    token = "syt_" + secrets.token_urlsafe(32)
    storage.tokens[token] = {"user_id": user_id, "expires_at": time.time() + TOKEN_TTL}
    return token


def get_current_user(authorization: Optional[str] = Header(None)) -> str:
    if not authorization or not authorization.startswith("Bearer "):
        raise HTTPException(status_code=401, detail="Missing or invalid Authorization header")
    token = authorization[len("Bearer "):].strip()
    info = storage.tokens.get(token)
    if info is None:
        raise HTTPException(status_code=401, detail="Invalid access token")
    if info["expires_at"] < time.time():
        storage.tokens.pop(token, None)
        raise HTTPException(status_code=401, detail="Access token expired")
    return info["user_id"]
