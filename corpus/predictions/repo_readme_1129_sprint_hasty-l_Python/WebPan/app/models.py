import uuid
from datetime import datetime, timezone

from sqlalchemy import BigInteger, Boolean, Column, DateTime, ForeignKey, Integer, String, Text

from app.core.config import settings
from app.db import Base


def _uuid() -> str:
    return uuid.uuid4().hex


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


class User(Base):
    __tablename__ = "users"
    id = Column(String(32), primary_key=True, default=_uuid)
    username = Column(String(64), unique=True, nullable=False, index=True)
    email = Column(String(255), unique=True, nullable=False)
    password_hash = Column(String(255), nullable=False)
    quota = Column(BigInteger, default=settings.DEFAULT_QUOTA, nullable=False)
    created_at = Column(DateTime, default=utcnow)


class StoredFile(Base):
    __tablename__ = "files"
    id = Column(String(32), primary_key=True, default=_uuid)
    owner_id = Column(String(32), ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False)
    filename = Column(String(255), nullable=False)
    storage_path = Column(String(1024), nullable=False)
    size = Column(BigInteger, nullable=False, default=0)
    mime_type = Column(String(255), nullable=False, default="application/octet-stream")
    folder_id = Column(String(255), nullable=True, index=True)
    description = Column(Text, nullable=True)
    download_count = Column(Integer, nullable=False, default=0)
    upload_time = Column(DateTime, default=utcnow)


class Share(Base):
    __tablename__ = "shares"
    id = Column(String(32), primary_key=True, default=_uuid)
    file_id = Column(String(32), ForeignKey("files.id", ondelete="CASCADE"), index=True, nullable=False)
    owner_id = Column(String(32), ForeignKey("users.id", ondelete="CASCADE"), nullable=False)
    is_public = Column(Boolean, default=True, nullable=False)
    password_hash = Column(String(255), nullable=True)
    expires_at = Column(DateTime, nullable=True)
    access_count = Column(Integer, default=0, nullable=False)
    created_at = Column(DateTime, default=utcnow)


class AccessLog(Base):
    __tablename__ = "access_logs"
    id = Column(Integer, primary_key=True, autoincrement=True)
    user_id = Column(String(32), nullable=True)
    file_id = Column(String(32), nullable=True)
    action = Column(String(64), nullable=False)
    detail = Column(Text, nullable=True)
    ip = Column(String(64), nullable=True)
    created_at = Column(DateTime, default=utcnow)
