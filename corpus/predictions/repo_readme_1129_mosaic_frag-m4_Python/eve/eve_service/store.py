"""Thread-safe in-memory document store.

Documents are plain dicts. The store assigns each document a string ``_id``
and an ``_etag`` which changes on every modification. Deleted ids are
remembered so callers can distinguish "never existed" from "deleted".
All methods return copies, so callers can never mutate stored state.
"""

import copy
import hashlib
import json
import threading
import uuid
from datetime import datetime, timezone


def compute_etag(document, revision=0):
    """Compute an ETag for ``document`` (ignoring underscore-prefixed meta fields).

    ``revision`` is mixed in so that every write yields a fresh tag even if the
    content is unchanged.
    """
    content = {k: v for k, v in document.items() if not str(k).startswith("_")}
    payload = json.dumps(
        {"id": document.get("_id"), "rev": revision, "content": content},
        sort_keys=True,
        default=str,
        separators=(",", ":"),
    )
    return hashlib.sha1(payload.encode("utf-8")).hexdigest()


def _now():
    return datetime.now(timezone.utc).strftime("%a, %d %b %Y %H:%M:%S GMT")


class DocumentStore:
    """In-memory collection of documents keyed by generated string ids."""

    def __init__(self):
        self._lock = threading.RLock()
        self._docs = {}
        self._revisions = {}
        self._deleted = set()

    @staticmethod
    def _new_id():
        return uuid.uuid4().hex[:24]

    def _stamp(self, doc_id, doc):
        revision = self._revisions.get(doc_id, 0) + 1
        self._revisions[doc_id] = revision
        doc["_etag"] = compute_etag(doc, revision)
        return doc

    def create(self, data):
        """Insert a new document built from ``data``; returns the stored copy."""
        with self._lock:
            doc_id = self._new_id()
            while doc_id in self._docs or doc_id in self._deleted:
                doc_id = self._new_id()
            now = _now()
            doc = {k: copy.deepcopy(v) for k, v in data.items() if not str(k).startswith("_")}
            doc["_id"] = doc_id
            doc["_created"] = now
            doc["_updated"] = now
            self._stamp(doc_id, doc)
            self._docs[doc_id] = doc
            return copy.deepcopy(doc)

    def list(self):
        """Return copies of all documents in insertion order."""
        with self._lock:
            return [copy.deepcopy(doc) for doc in self._docs.values()]

    def get(self, doc_id):
        """Return a copy of the document or None if it does not exist."""
        with self._lock:
            doc = self._docs.get(str(doc_id))
            return copy.deepcopy(doc) if doc is not None else None

    def get_etag(self, doc_id):
        """Return the current ETag of a document, or None if it does not exist."""
        with self._lock:
            doc = self._docs.get(str(doc_id))
            return doc["_etag"] if doc is not None else None

    def update(self, doc_id, changes):
        """Merge ``changes`` into the document; returns the updated copy or None."""
        doc_id = str(doc_id)
        with self._lock:
            doc = self._docs.get(doc_id)
            if doc is None:
                return None
            for key, value in changes.items():
                if str(key).startswith("_"):
                    continue
                doc[key] = copy.deepcopy(value)
            doc["_updated"] = _now()
            self._stamp(doc_id, doc)
            return copy.deepcopy(doc)

    def delete(self, doc_id):
        """Remove the document. Returns True if it existed."""
        doc_id = str(doc_id)
        with self._lock:
            if doc_id not in self._docs:
                return False
            del self._docs[doc_id]
            self._revisions.pop(doc_id, None)
            self._deleted.add(doc_id)
            return True

    def was_deleted(self, doc_id):
        """True if a document with this id existed and was deleted."""
        with self._lock:
            return str(doc_id) in self._deleted

    def clear(self):
        """Remove every document (deletion history included)."""
        with self._lock:
            self._docs.clear()
            self._revisions.clear()
            self._deleted.clear()


store = DocumentStore()
