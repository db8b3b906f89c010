"""Thread-safe in-memory note storage."""
import threading
from datetime import datetime, timezone
from typing import Dict, List, Optional


class NoteStore:
    def __init__(self) -> None:
        self._notes: Dict[int, dict] = {}
        self._next_id = 1
        self._lock = threading.Lock()

    def create(self, title: str, body: str, tags: List[str]) -> dict:
        with self._lock:
            note = {
                "id": self._next_id,
                "title": title,
                "body": body,
                "tags": list(tags),
                "created_at": datetime.now(timezone.utc).isoformat(),
            }
            self._notes[note["id"]] = note
            self._next_id += 1
            return note

    def list(self, tag: Optional[str] = None) -> List[dict]:
        notes = list(self._notes.values())
        if tag is not None:
            notes = [n for n in notes if tag in n["tags"]]
        return notes

    def get(self, note_id: int) -> Optional[dict]:
        return self._notes.get(note_id)

    def update(self, note_id: int, changes: dict) -> Optional[dict]:
        with self._lock:
            note = self._notes.get(note_id)
            if note is None:
                return None
            note.update(changes)
            return note

    def delete(self, note_id: int) -> bool:
        with self._lock:
            return self._notes.pop(note_id, None) is not None


# Single process-wide store shared by all requests.
store = NoteStore()
