"""In-memory link storage with hit counters."""
import threading

from codes import generate_code


class LinkStore:
    def __init__(self):
        self._links = {}  # code -> {"url": str, "hits": int}
        self._lock = threading.Lock()

    def add(self, url: str) -> str:
        with self._lock:
            code = generate_code()
            while code in self._links:  # extremely unlikely collision
                code = generate_code()
            self._links[code] = {"url": url, "hits": 0}
            return code

    def get(self, code: str):
        return self._links.get(code)

    def hit(self, code: str):
        with self._lock:
            link = self._links.get(code)
            if link is not None:
                link["hits"] += 1
            return link
