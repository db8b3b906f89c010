"""Thread-safe SQLite persistence for ``people`` documents.

Each stored document gets a server-generated ``_id`` and an ``_etag`` that
changes every time the document is created or updated.
"""

import hashlib
import json
import os
import sqlite3
import threading
import uuid
from datetime import datetime, timezone
from email.utils import format_datetime

from config import DATABASE_PATH

_lock = threading.RLock()
_connection = None


def _now():
    """Current time as an RFC 1123 string (Eve style)."""
    return format_datetime(datetime.now(timezone.utc), usegmt=True)


def _get_connection():
    """Return the shared SQLite connection, creating the schema on first use."""
    global _connection
    if _connection is None:
        if DATABASE_PATH != ":memory:":
            directory = os.path.dirname(os.path.abspath(DATABASE_PATH))
            if directory:
                os.makedirs(directory, exist_ok=True)
        conn = sqlite3.connect(DATABASE_PATH, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute(
            """
            CREATE TABLE IF NOT EXISTS people (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT UNIQUE NOT NULL,
                data TEXT NOT NULL,
                etag TEXT NOT NULL,
                created TEXT NOT NULL,
                updated TEXT NOT NULL
            )
            """
        )
        conn.commit()
        _connection = conn
    return _connection


def init_db():
    """Ensure the database and table exist."""
    with _lock:
        _get_connection()


def compute_etag(person_id, data):
    """Compute a fresh ETag for a document's content.

    A random nonce is mixed in so every write produces a new ETag, even if
    the content did not change.
    """
    payload = json.dumps(
        {"_id": person_id, "data": data, "nonce": uuid.uuid4().hex},
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha1(payload.encode("utf-8")).hexdigest()


def _row_to_document(row):
    document = {"_id": row["id"]}
    document.update(json.loads(row["data"]))
    document["_etag"] = row["etag"]
    document["_created"] = row["created"]
    document["_updated"] = row["updated"]
    return document


def _strip_meta(data):
    """Remove meta fields (starting with '_') and 'id' from a payload."""
    return {k: v for k, v in (data or {}).items() if not k.startswith("_") and k != "id"}


def create_person(data):
    """Store a new person document and return it with ``_id`` and ``_etag``."""
    content = _strip_meta(data)
    person_id = uuid.uuid4().hex
    etag = compute_etag(person_id, content)
    now = _now()
    with _lock:
        conn = _get_connection()
        conn.execute(
            "INSERT INTO people (id, data, etag, created, updated) VALUES (?, ?, ?, ?, ?)",
            (person_id, json.dumps(content), etag, now, now),
        )
        conn.commit()
        row = conn.execute("SELECT * FROM people WHERE id = ?", (person_id,)).fetchone()
        return _row_to_document(row)


def get_person(person_id):
    """Return the document with the given id, or None if absent."""
    with _lock:
        conn = _get_connection()
        row = conn.execute("SELECT * FROM people WHERE id = ?", (str(person_id),)).fetchone()
        return _row_to_document(row) if row is not None else None


def list_people(filters=None):
    """Return all documents in insertion order, optionally filtered by exact field values."""
    with _lock:
        conn = _get_connection()
        rows = conn.execute("SELECT * FROM people ORDER BY seq ASC").fetchall()
        documents = [_row_to_document(row) for row in rows]
    if filters:
        documents = [
            doc for doc in documents
            if all(doc.get(key) == value for key, value in filters.items())
        ]
    return documents


def update_person(person_id, data):
    """Merge ``data`` into an existing document; return the updated document or None."""
    changes = _strip_meta(data)
    with _lock:
        conn = _get_connection()
        row = conn.execute("SELECT * FROM people WHERE id = ?", (str(person_id),)).fetchone()
        if row is None:
            return None
        content = json.loads(row["data"])
        content.update(changes)
        etag = compute_etag(row["id"], content)
        conn.execute(
            "UPDATE people SET data = ?, etag = ?, updated = ? WHERE id = ?",
            (json.dumps(content), etag, _now(), row["id"]),
        )
        conn.commit()
        row = conn.execute("SELECT * FROM people WHERE id = ?", (row["id"],)).fetchone()
        return _row_to_document(row)


def delete_person(person_id):
    """Delete a document; return True if it existed."""
    with _lock:
        conn = _get_connection()
        cursor = conn.execute("DELETE FROM people WHERE id = ?", (str(person_id),))
        conn.commit()
        return cursor.rowcount > 0
