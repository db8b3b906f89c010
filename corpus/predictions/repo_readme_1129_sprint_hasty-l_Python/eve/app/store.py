"""Thread-safe in-memory document store with ETag support."""
import copy
import hashlib
import json
import os
import threading
import time
from datetime import datetime, timezone
from typing import Dict, List, Optional


def _object_id() -> str:
    # 24-hex identifier in the spirit of a Mongo ObjectId
    ts = int(time.time()).to_bytes(4, "big")
    return (ts + os.urandom(8)).hex()


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%a, %d %b %Y %H:%M:%S GMT")


def compute_etag(doc: dict) -> str:
    payload = {k: v for k, v in doc.items() if k not in ("_etag", "_links")}
    return hashlib.sha1(json.dumps(payload, sort_keys=True, default=str).encode("utf-8")).hexdigest()


class DocumentStore:
    def __init__(self):
        self._lock = threading.RLock()
        self._collections: Dict[str, Dict[str, dict]] = {}

    def _col(self, name: str) -> Dict[str, dict]:
        return self._collections.setdefault(name, {})

    def insert(self, collection: str, fields: dict) -> dict:
        with self._lock:
            now = _now()
            doc = {"_id": _object_id(), **fields, "_created": now, "_updated": now}
            doc["_etag"] = compute_etag(doc)
            self._col(collection)[doc["_id"]] = doc
            return copy.deepcopy(doc)

    def find(self, collection: str, filters: Optional[dict] = None) -> List[dict]:
        with self._lock:
            docs = list(self._col(collection).values())
        if filters:
            docs = [d for d in docs if all(d.get(k) == v for k, v in filters.items())]
        return copy.deepcopy(docs)

    def get(self, collection: str, doc_id: str) -> Optional[dict]:
        with self._lock:
            doc = self._col(collection).get(str(doc_id))
            return copy.deepcopy(doc) if doc else None

    def update(self, collection: str, doc_id: str, fields: dict, replace: bool = False) -> Optional[dict]:
        with self._lock:
            col = self._col(collection)
            doc = col.get(str(doc_id))
            if doc is None:
                return None
            if replace:
                new = {"_id": doc["_id"], "_created": doc["_created"], **fields}
            else:
                new = {**doc, **fields}
            new["_updated"] = _now()
            new["_etag"] = compute_etag(new)
            col[doc["_id"]] = new
            return copy.deepcopy(new)

    def delete(self, collection: str, doc_id: str) -> bool:
        with self._lock:
            return self._col(collection).pop(str(doc_id), None) is not None


store = DocumentStore()
