"""SQLite engine/session setup and ORM models for users, stored files and share links."""

import os
import uuid
from datetime import datetime

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
)
from sqlalchemy.orm import declarative_base, relationship, sessionmaker

from config import DATABASE_PATH


def generate_id():
    """Return a new random string identifier."""
    return uuid.uuid4().hex


_db_dir = os.path.dirname(os.path.abspath(DATABASE_PATH))
if _db_dir:
    os.makedirs(_db_dir, exist_ok=True)

DATABASE_URL = "sqlite:///{}".format(DATABASE_PATH)

engine = create_engine(
    DATABASE_URL,
    connect_args={"check_same_thread": False, "timeout": 30},
)

SessionLocal = sessionmaker(autocommit=False, autoflush=False, bind=engine)

Base = declarative_base()


class User(Base):
    """A registered user account."""

    __tablename__ = "users"

    id = Column(String(32), primary_key=True, default=generate_id)
    username = Column(String(150), unique=True, index=True, nullable=False)
    email = Column(String(255), nullable=True)
    password_hash = Column(String(255), nullable=False)
    created_at = Column(DateTime, default=datetime.utcnow, nullable=False)

    files = relationship(
        "StoredFile", back_populates="owner", cascade="all, delete-orphan"
    )


class StoredFile(Base):
    """Metadata of an uploaded file; the content lives in the storage directory."""

    __tablename__ = "files"

    id = Column(String(32), primary_key=True, default=generate_id)
    owner_id = Column(
        String(32), ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False
    )
    filename = Column(String(255), nullable=False)
    stored_name = Column(String(255), nullable=False)
    size = Column(Integer, default=0, nullable=False)
    mime_type = Column(String(255), default="application/octet-stream", nullable=False)
    description = Column(Text, nullable=True)
    folder_id = Column(String(255), nullable=True, index=True)
    upload_time = Column(DateTime, default=datetime.utcnow, nullable=False)
    download_count = Column(Integer, default=0, nullable=False)

    owner = relationship("User", back_populates="files")
    shares = relationship(
        "ShareLink", back_populates="file", cascade="all, delete-orphan"
    )


class ShareLink(Base):
    """A share link giving access to a stored file."""

    __tablename__ = "shares"

    id = Column(String(32), primary_key=True, default=generate_id)
    file_id = Column(
        String(32), ForeignKey("files.id", ondelete="CASCADE"), index=True, nullable=False
    )
    owner_id = Column(
        String(32), ForeignKey("users.id", ondelete="CASCADE"), index=True, nullable=False
    )
    is_public = Column(Boolean, default=True, nullable=False)
    password_hash = Column(String(255), nullable=True)
    expires_at = Column(DateTime, nullable=True)
    access_count = Column(Integer, default=0, nullable=False)
    created_at = Column(DateTime, default=datetime.utcnow, nullable=False)

    file = relationship("StoredFile", back_populates="shares")


def init_db():
    """Create all tables if they do not exist."""
    Base.metadata.create_all(bind=engine)


def get_db():
    """FastAPI dependency yielding a session that is closed afterwards."""
    db = SessionLocal()
    try:
        yield db
    finally:
        db.close()


init_db()
