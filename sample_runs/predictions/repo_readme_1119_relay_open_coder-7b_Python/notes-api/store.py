from datetime import datetime


class NoteStore:
    """Stores notes in a dictionary."""

    def __init__(self):
        self.notes = {}
        self.counter = 0

    def add(self, title, body, tags):
        self.counter += 1
        note = {
            "id": self.counter,
            "title": title,
            "body": body,
            "tags": tags,
            "created_at": datetime.now().isoformat(),
        }
        self.notes[self.counter] = note
        return note

    def all(self, tag=None):
        if tag:
            return [n for n in self.notes.values() if tag in n["tags"]]
        return list(self.notes.values())

    def get(self, note_id):
        return self.notes.get(note_id)

    def update(self, note_id, data):
        note = self.notes.get(note_id)
        if note:
            for key, value in data.items():
                if value is not None:
                    note[key] = value
        return note

    def delete(self, note_id):
        return self.notes.pop(note_id, None)
