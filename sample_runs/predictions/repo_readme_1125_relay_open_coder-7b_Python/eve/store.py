import threading
import uuid
from datetime import datetime

from utils import compute_etag


class PeopleStore:
    def __init__(self):
        self.items = {}
        self.lock = threading.Lock()

    def list(self, filters=None):
        with self.lock:
            result = list(self.items.values())
        if filters:
            for key, value in filters.items():
                result = [p for p in result if str(p.get(key)) == str(value)]
        return result

    def get(self, item_id):
        return self.items.get(item_id)

    def create(self, data):
        now = datetime.utcnow().strftime('%a, %d %b %Y %H:%M:%S GMT')
        item_id = uuid.uuid4().hex[:24]
        doc = {
            '_id': item_id,
            'firstname': data.get('firstname'),
            'lastname': data.get('lastname'),
            'role': data.get('role'),
            '_created': now,
            '_updated': now,
        }
        doc['_etag'] = compute_etag(doc)
        with self.lock:
            self.items[item_id] = doc
        return doc

    def update(self, item_id, data):
        with self.lock:
            doc = self.items.get(item_id)
            if doc is None:
                return None
            for field in ('firstname', 'lastname', 'role'):
                if field in data:
                    doc[field] = data[field]
            doc['_updated'] = datetime.utcnow().strftime('%a, %d %b %Y %H:%M:%S GMT')
            doc['_etag'] = compute_etag(doc)
            return doc

    def delete(self, item_id):
        with self.lock:
            return self.items.pop(item_id, None)


people_store = PeopleStore()
