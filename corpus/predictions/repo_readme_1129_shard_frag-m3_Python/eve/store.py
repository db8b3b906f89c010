"""Thread-safe in-memory document store for the ``people`` resource.

Documents look like Eve documents::

    {
        "_id": "5f1c0e6a9b7d4c3e8a2b1f00",   # generated, 24 hex characters
        "firstname": "John",
        "lastname": "Doe",
        "role": "admin",
        "_created": "2024-01-01T12:00:00.000000+00:00",
        "_updated": "2024-01-01T12:00:00.000000+00:00",
        "_etag": "3b1f...",                  # sha1 of the other fields
    }

The ETag is always ``compute_etag(document)`` (a hash of every field except
``_etag``); because ``_updated`` changes on every write, every successful
update yields a new ETag.

Use the shared instance (``from store import store``) or the module-level
helpers (``import store; store.create_person(...)``).  All methods return
copies, so callers can never mutate stored state by accident.
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
import uuid
from collections import OrderedDict
from datetime import datetime, timezone
from typing import Any, Dict, List, Mapping, Optional

PEOPLE_FIELDS = ("firstname", "lastname", "role")
ID_FIELD = "_id"
ETAG_FIELD = "_etag"
META_FIELDS = (ID_FIELD, ETAG_FIELD, "_created", "_updated")


class StoreError(Exception):
    """Base class for store errors."""


class DocumentNotFound(StoreError, KeyError):
    """The requested document does not exist."""


class PreconditionFailed(StoreError):
    """The supplied ETag does not match the document's current ETag."""


# Alternative names.
NotFoundError = DocumentNotFound
PreconditionFailedError = PreconditionFailed
ETagMismatch = PreconditionFailed


# ---------------------------------------------------------------------------
# ETag helpers
# ---------------------------------------------------------------------------

def generate_id() -> str:
    """A new unique identifier (24 hex chars, like a MongoDB ObjectId)."""
    return uuid.uuid4().hex[:24]


def compute_etag(document: Mapping[str, Any]) -> str:
    """SHA-1 hex digest of the document content, ignoring ``_etag`` itself."""
    content = {k: v for k, v in document.items() if k != ETAG_FIELD}
    encoded = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha1(encoded.encode("utf-8")).hexdigest()


def normalize_etag(value: Optional[str]) -> Optional[str]:
    """Strip whitespace, a weak ``W/`` prefix and surrounding quotes."""
    if value is None:
        return None
    value = value.strip()
    if value.startswith("W/"):
        value = value[2:].strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return value


def etag_matches(current_etag: Optional[str], header_value: Optional[str]) -> bool:
    """True when an ``If-Match`` header value matches ``current_etag``.

    Handles quoted / weak tags, comma separated lists and ``*``.
    """
    if current_etag is None or header_value is None:
        return False
    header_value = header_value.strip()
    if header_value == "*":
        return True
    current = normalize_etag(current_etag)
    return any(normalize_etag(part) == current for part in header_value.split(",") if part.strip())


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


# ---------------------------------------------------------------------------
# Store
# ---------------------------------------------------------------------------

class PeopleStore:
    """In-memory, insertion-ordered, thread-safe collection of documents."""

    def __init__(self, fields=PEOPLE_FIELDS) -> None:
        self._fields = tuple(fields)
        self._docs: "OrderedDict[str, Dict[str, Any]]" = OrderedDict()
        self._lock = threading.RLock()

    # -- internal helpers -------------------------------------------------
    def _clean(self, data: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
        """Keep only user-settable fields (never meta fields)."""
        if not data:
            return {}
        return {k: v for k, v in data.items() if k not in META_FIELDS and
                (not self._fields or k in self._fields)}

    @staticmethod
    def _key(doc_id: Any) -> str:
        return str(doc_id)

    def _check_etag(self, doc: Dict[str, Any], expected_etag: Optional[str]) -> None:
        if expected_etag is not None and not etag_matches(doc[ETAG_FIELD], expected_etag):
            raise PreconditionFailed("ETag mismatch")

    # -- CRUD -------------------------------------------------------------
    def create(self, data: Optional[Mapping[str, Any]] = None, **fields: Any) -> Dict[str, Any]:
        """Insert a new document and return it (with ``_id`` and ``_etag``)."""
        content = self._clean(dict(data or {}, **fields))
        with self._lock:
            doc_id = generate_id()
            while doc_id in self._docs:
                doc_id = generate_id()
            now = _now()
            doc: Dict[str, Any] = {ID_FIELD: doc_id}
            doc.update(copy.deepcopy(content))
            doc["_created"] = now
            doc["_updated"] = now
            doc[ETAG_FIELD] = compute_etag(doc)
            self._docs[doc_id] = doc
            return copy.deepcopy(doc)

    def get(self, doc_id: Any) -> Optional[Dict[str, Any]]:
        """Return the document or None."""
        with self._lock:
            doc = self._docs.get(self._key(doc_id))
            return copy.deepcopy(doc) if doc is not None else None

    def exists(self, doc_id: Any) -> bool:
        with self._lock:
            return self._key(doc_id) in self._docs

    def get_etag(self, doc_id: Any) -> Optional[str]:
        with self._lock:
            doc = self._docs.get(self._key(doc_id))
            return doc[ETAG_FIELD] if doc is not None else None

    def list(self, filters: Optional[Mapping[str, Any]] = None) -> List[Dict[str, Any]]:
        """All documents in insertion order, optionally filtered by equality
        on known fields (``firstname``, ``lastname``, ``role``, ``_id``).
        A ``where`` entry may hold a JSON object of such conditions."""
        conditions: Dict[str, Any] = {}
        if filters:
            where = filters.get("where") if hasattr(filters, "get") else None
            if isinstance(where, str) and where.strip():
                try:
                    parsed = json.loads(where)
                    if isinstance(parsed, dict):
                        conditions.update(parsed)
                except ValueError:
                    pass
            elif isinstance(where, Mapping):
                conditions.update(where)
            for key in list(self._fields) + [ID_FIELD]:
                if key in filters:
                    conditions[key] = filters[key]
            conditions = {k: v for k, v in conditions.items()
                          if k in self._fields or k == ID_FIELD}
        with self._lock:
            docs = [copy.deepcopy(d) for d in self._docs.values()
                    if all(str(d.get(k)) == str(v) for k, v in conditions.items())]
        return docs

    def update(self, doc_id: Any, changes: Optional[Mapping[str, Any]] = None,
               expected_etag: Optional[str] = None, replace: bool = False,
               **fields: Any) -> Optional[Dict[str, Any]]:
        """Merge ``changes`` into the document (or replace its fields when
        ``replace`` is True) and return the updated document.

        Returns None when the document does not exist.  When
        ``expected_etag`` is given the check-and-write is atomic and
        PreconditionFailed is raised on mismatch.
        """
        content = self._clean(dict(changes or {}, **fields))
        with self._lock:
            doc = self._docs.get(self._key(doc_id))
            if doc is None:
                return None
            self._check_etag(doc, expected_etag)
            new_doc: Dict[str, Any] = {ID_FIELD: doc[ID_FIELD]}
            if not replace:
                new_doc.update({k: v for k, v in doc.items() if k not in META_FIELDS})
            new_doc.update(copy.deepcopy(content))
            new_doc["_created"] = doc.get("_created", _now())
            new_doc["_updated"] = _now()
            new_doc[ETAG_FIELD] = compute_etag(new_doc)
            if new_doc[ETAG_FIELD] == doc[ETAG_FIELD]:
                # Extremely unlikely (same timestamp); force a distinct tag.
                new_doc["_updated"] = _now() + "~"
                new_doc[ETAG_FIELD] = compute_etag(new_doc)
            self._docs[new_doc[ID_FIELD]] = new_doc
            return copy.deepcopy(new_doc)

    def replace(self, doc_id: Any, data: Optional[Mapping[str, Any]] = None,
                expected_etag: Optional[str] = None) -> Optional[Dict[str, Any]]:
        """Replace all user fields of the document."""
        return self.update(doc_id, data, expected_etag=expected_etag, replace=True)

    def delete(self, doc_id: Any, expected_etag: Optional[str] = None) -> bool:
        """Remove the document; False when it did not exist.  Raises
        PreconditionFailed when ``expected_etag`` is given and does not match."""
        with self._lock:
            key = self._key(doc_id)
            doc = self._docs.get(key)
            if doc is None:
                return False
            self._check_etag(doc, expected_etag)
            del self._docs[key]
            return True

    def clear(self) -> None:
        with self._lock:
            self._docs.clear()

    def count(self) -> int:
        with self._lock:
            return len(self._docs)

    def __len__(self) -> int:
        return self.count()

    def __contains__(self, doc_id: Any) -> bool:
        return self.exists(doc_id)

    # Alternative method names.
    insert = create
    add = create
    create_person = create
    get_person = get
    find_one = get
    all = list
    find = list
    list_people = list
    update_person = update
    patch = update
    replace_person = replace
    remove = delete
    delete_person = delete


# Alternative class names.
DocumentStore = PeopleStore
InMemoryStore = PeopleStore
Store = PeopleStore

# Shared instance used by the application.
store = PeopleStore()
people_store = store


# Module-level helpers bound to the shared instance.
def create_person(data: Optional[Mapping[str, Any]] = None, **fields: Any) -> Dict[str, Any]:
    return store.create(data, **fields)


def get_person(doc_id: Any) -> Optional[Dict[str, Any]]:
    return store.get(doc_id)


def list_people(filters: Optional[Mapping[str, Any]] = None) -> List[Dict[str, Any]]:
    return store.list(filters)


def update_person(doc_id: Any, changes: Optional[Mapping[str, Any]] = None,
                  expected_etag: Optional[str] = None) -> Optional[Dict[str, Any]]:
    return store.update(doc_id, changes, expected_etag=expected_etag)


def replace_person(doc_id: Any, data: Optional[Mapping[str, Any]] = None,
                   expected_etag: Optional[str] = None) -> Optional[Dict[str, Any]]:
    return store.replace(doc_id, data, expected_etag=expected_etag)


def delete_person(doc_id: Any, expected_etag: Optional[str] = None) -> bool:
    return store.delete(doc_id, expected_etag=expected_etag)


def clear() -> None:
    store.clear()
