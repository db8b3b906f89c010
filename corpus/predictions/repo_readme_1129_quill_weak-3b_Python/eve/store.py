import hashlib
import json
import threading
import uuid
from datetime import datetime


class DocumentStore:
    def __init__(self):
        self.docs = {}
        self.lock = threading.Lock()

    def _etag(self, doc):
        data = {k: v for k, v in doc.items() if k != "_etag"}
        raw = json.dumps(data, sort_keys=True, default=str)
        return hashlib.sha1(raw.encode("utf-8")).hexdigest()

    def _now(self):
        return datetime.utcnow().strftime("%a, %d %b %Y %H:%M:%S GMT")

    def list(self, filters=None):
        with self.lock:
            items = list(self.docs.values())
        if filters:
            items = [d for d in items if all(str(d.get(k)) == str(v) for k, v in filters.items())]
        return items

    def get(self, doc_id):
        return self.docs.get(doc_id)

    def create(self, data):
        with self.lock:
            doc_id = uuid.uuid4().hex[:24]
            now = self._now()
            doc = dict(data)
            doc["_id"] = doc_id
            doc["_created"] = now
            doc["_updated"] = now
            doc["_etag"] = self._etag(doc)
            self.docs[doc_id] = doc
            return doc

    def update(self, doc_id, data):
        with self.lock:
            doc = self.docs[doc_id]
            doc.update(data)
            doc["_updated"] = self._now()
            doc["_etag"] = self._etag(doc)
            return doc

    def delete(self, doc_id):
        with self.lock:
            self.docs.pop(doc_id, None)


people = DocumentStore()
