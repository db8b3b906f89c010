"""User business logic."""
from typing import Optional

from sqlalchemy.orm import Session

from app.core.errors import APIException
from app.core.security import hash_password, verify_password
from app.models import User, utcnow
from app.schemas import UserRegister, UserUpdate


def get_by_id(db: Session, user_id: int) -> Optional[User]:
    return db.get(User, user_id)


def get_by_username(db: Session, username: str) -> Optional[User]:
    return db.query(User).filter(User.username == username).first()


def get_by_email(db: Session, email: str) -> Optional[User]:
    return db.query(User).filter(User.email == email.lower()).first()


def register(db: Session, data: UserRegister) -> User:
    if get_by_username(db, data.username):
        raise APIException(409, "Username already exists", "USERNAME_EXISTS")
    if get_by_email(db, data.email):
        raise APIException(409, "Email already exists", "EMAIL_EXISTS")
    user = User(
        username=data.username,
        email=data.email.lower(),
        full_name=data.full_name,
        password_hash=hash_password(data.password),
    )
    db.add(user)
    db.commit()
    db.refresh(user)
    return user


def authenticate(db: Session, username: str, password: str) -> User:
    user = get_by_username(db, username)
    if not user or not verify_password(password, user.password_hash):
        raise APIException(401, "Invalid username or password", "INVALID_CREDENTIALS")
    return user


def update(db: Session, user: User, data: UserUpdate) -> User:
    fields = data.model_dump(exclude_unset=True)
    if "email" in fields and fields["email"] is not None:
        new_email = fields["email"].lower()
        existing = get_by_email(db, new_email)
        if existing and existing.id != user.id:
            raise APIException(409, "Email already exists", "EMAIL_EXISTS")
        user.email = new_email
    if "full_name" in fields:
        user.full_name = fields["full_name"]
    user.updated_at = utcnow()
    db.commit()
    db.refresh(user)
    return user


def delete(db: Session, user: User) -> None:
    db.delete(user)
    db.commit()
