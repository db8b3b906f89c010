from fastapi import APIRouter, Depends
from sqlalchemy.orm import Session

from auth import APIError, ACCESS_TOKEN_EXPIRE_SECONDS, create_access_token, get_current_user, hash_password, verify_password
from database import get_db
from models import User
from schemas import UserLogin, UserRegister, UserUpdate

router = APIRouter(prefix="/api/v1/users")


def iso(dt):
    return dt.isoformat() + "Z" if dt else None


@router.post("/register", status_code=201)
def register(data: UserRegister, db: Session = Depends(get_db)):
    if db.query(User).filter(User.username == data.username).first():
        raise APIError(409, "Username already exists", "USERNAME_EXISTS")
    if db.query(User).filter(User.email == data.email).first():
        raise APIError(409, "Email already exists", "EMAIL_EXISTS")
    user = User(
        username=data.username,
        email=data.email,
        full_name=data.full_name,
        hashed_password=hash_password(data.password),
    )
    db.add(user)
    db.commit()
    db.refresh(user)
    return {
        "success": True,
        "message": "User registered successfully",
        "data": {
            "user_id": user.id,
            "username": user.username,
            "email": user.email,
            "full_name": user.full_name,
            "created_at": iso(user.created_at),
        },
    }


@router.post("/login")
def login(data: UserLogin, db: Session = Depends(get_db)):
    user = db.query(User).filter(User.username == data.username).first()
    if not user or not verify_password(data.password, user.hashed_password):
        raise APIError(401, "Invalid username or password", "INVALID_CREDENTIALS")
    token = create_access_token(user.id)
    return {
        "success": True,
        "message": "Login successful",
        "data": {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": ACCESS_TOKEN_EXPIRE_SECONDS,
            "user": {
                "user_id": user.id,
                "username": user.username,
                "email": user.email,
                "full_name": user.full_name,
            },
        },
    }


def get_user_or_404(db, user_id):
    user = db.query(User).filter(User.id == user_id).first()
    if not user:
        raise APIError(404, "User not found", "USER_NOT_FOUND")
    return user


@router.get("/{user_id}")
def get_user(user_id: int, current_user: User = Depends(get_current_user), db: Session = Depends(get_db)):
    user = get_user_or_404(db, user_id)
    if current_user.id != user.id:
        raise APIError(403, "Permission denied", "FORBIDDEN")
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
def update_user(user_id: int, data: UserUpdate, current_user: User = Depends(get_current_user), db: Session = Depends(get_db)):
    user = get_user_or_404(db, user_id)
    if current_user.id != user.id:
        raise APIError(403, "Permission denied", "FORBIDDEN")
    if data.email is not None and data.email != user.email:
        if db.query(User).filter(User.email == data.email).first():
            raise APIError(409, "Email already exists", "EMAIL_EXISTS")
        user.email = data.email
    if data.full_name is not None:
        user.full_name = data.full_name
    db.commit()
    db.refresh(user)
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
def delete_user(user_id: int, current_user: User = Depends(get_current_user), db: Session = Depends(get_db)):
    user = get_user_or_404(db, user_id)
    if current_user.id != user.id:
        raise APIError(403, "Permission denied", "FORBIDDEN")
    db.delete(user)
    db.commit()
    return {"success": True, "message": "User deleted successfully"}
