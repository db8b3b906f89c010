"""File storage: streaming uploads to disk, quota enforcement and file records."""
import hashlib
import mimetypes
import os
import sqlite3
import tempfile
import threading
import uuid
from pathlib import Path
from typing import Optional

from flask import current_app
from werkzeug.datastructures import FileStorage

from ..db import get_db, transaction
from ..errors import (ACCESS_DENIED, FILE_NOT_FOUND, FILE_TOO_LARGE, INVALID_FORMAT,
                      QUOTA_EXCEEDED, APIError)
from ..utils import clean_filename, utc_iso

CHUNK = 1024 * 1024
_quota_lock = threading.Lock()  # serialises "check quota + insert" within this process


def _cfg():
    return current_app.config["WEBPAN"]


def file_path(row: sqlite3.Row) -> Path:
    return _cfg().storage_dir / row["owner_id"] / row["stored_name"]


def used_space(owner_id: str) -> int:
    row = get_db().execute("SELECT COALESCE(SUM(size), 0) AS used FROM files WHERE owner_id = ?",
                           (owner_id,)).fetchone()
    return int(row["used"])


def _looks_executable(head: bytes, tmp_path: str) -> bool:
    """Detect Windows PE and ELF executables regardless of their extension."""
    if head.startswith(b"\x7fELF"):
        return True
    if head.startswith(b"MZ") and len(head) >= 0x40:
        offset = int.from_bytes(head[0x3C:0x40], "little")
        try:
            with open(tmp_path, "rb") as fh:
                fh.seek(offset)
                return fh.read(4) == b"PE\x00\x00"
        except OSError:
            return False
    return False


def _guess_mime(filename: str, client_type: Optional[str]) -> str:
    guessed, _ = mimetypes.guess_type(filename, strict=False)
    if guessed:
        return guessed
    if client_type and "/" in client_type and client_type != "application/octet-stream":
        return client_type.split(";")[0].strip()
    return "application/octet-stream"


def store_upload(user: sqlite3.Row, upload: FileStorage, folder_id: Optional[str],
                 description: Optional[str]) -> sqlite3.Row:
    """Validate and persist one uploaded file; returns the new file row."""
    cfg = _cfg()
    filename = clean_filename(upload.filename)

    tmp_dir = cfg.storage_dir / ".tmp"
    tmp_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp_path = tempfile.mkstemp(dir=tmp_dir)
    size = 0
    digest = hashlib.sha256()
    head = b""
    try:
        with os.fdopen(fd, "wb") as out:
            while True:
                chunk = upload.stream.read(CHUNK)
                if not chunk:
                    break
                if len(head) < 64:
                    head += chunk[: 64 - len(head)]
                size += len(chunk)
                if size > cfg.max_file_size:
                    raise APIError(413, FILE_TOO_LARGE,
                                   f"File exceeds the maximum size of {cfg.max_file_size} bytes")
                digest.update(chunk)
                out.write(chunk)
        if _looks_executable(head, tmp_path):
            raise APIError(400, INVALID_FORMAT, "Executable files are not allowed")

        file_id = uuid.uuid4().hex
        target_dir = cfg.storage_dir / user["id"]
        target_dir.mkdir(parents=True, exist_ok=True)
        with _quota_lock:
            used = used_space(user["id"])
            if used + size > user["quota_bytes"]:
                raise APIError(507, QUOTA_EXCEEDED, "Storage quota exceeded",
                               f"used={used} requested={size} quota={user['quota_bytes']}")
            os.replace(tmp_path, target_dir / file_id)
            tmp_path = None
            with transaction() as db:
                db.execute(
                    "INSERT INTO files (id, owner_id, filename, stored_name, size, mime_type, sha256,"
                    " folder_id, description, upload_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (file_id, user["id"], filename, file_id, size,
                     _guess_mime(filename, upload.mimetype), digest.hexdigest(),
                     folder_id, description, utc_iso()),
                )
    finally:
        if tmp_path and os.path.exists(tmp_path):
            os.unlink(tmp_path)
    return get_file(file_id)


def get_file(file_id: str) -> Optional[sqlite3.Row]:
    return get_db().execute("SELECT * FROM files WHERE id = ?", (file_id,)).fetchone()


def get_owned_file(file_id: str, user: sqlite3.Row) -> sqlite3.Row:
    row = get_file(file_id)
    if row is None:
        raise APIError(404, FILE_NOT_FOUND, "File not found")
    if row["owner_id"] != user["id"]:
        raise APIError(403, ACCESS_DENIED, "You do not have access to this file")
    return row


def delete_file(row: sqlite3.Row) -> None:
    with transaction() as db:
        db.execute("DELETE FROM shares WHERE file_id = ?", (row["id"],))
        db.execute("DELETE FROM files WHERE id = ?", (row["id"],))
    try:
        file_path(row).unlink()
    except FileNotFoundError:
        pass


def rename_file(row: sqlite3.Row, new_name: str) -> None:
    guessed, _ = mimetypes.guess_type(new_name, strict=False)
    get_db().execute("UPDATE files SET filename = ?, mime_type = ? WHERE id = ?",
                     (new_name, guessed or row["mime_type"], row["id"]))


def increment_downloads(file_id: str) -> None:
    get_db().execute("UPDATE files SET download_count = download_count + 1 WHERE id = ?", (file_id,))
