"""HTTP routes for the Notes API."""
from typing import List, Optional

from fastapi import FastAPI, HTTPException, Response

from .schemas import Note, NoteCreate, NoteUpdate
from .store import store

app = FastAPI(title="Notes API", version="1.0.0")


def _get_or_404(note_id: int) -> dict:
    note = store.get(note_id)
    if note is None:
        raise HTTPException(status_code=404, detail="Note not found")
    return note


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/api/v1/notes", response_model=Note, status_code=201)
def create_note(payload: NoteCreate):
    return store.create(payload.title, payload.body, payload.tags)


@app.get("/api/v1/notes", response_model=List[Note])
def list_notes(tag: Optional[str] = None):
    return store.list(tag)


@app.get("/api/v1/notes/{note_id}", response_model=Note)
def get_note(note_id: int):
    return _get_or_404(note_id)


@app.put("/api/v1/notes/{note_id}", response_model=Note)
def update_note(note_id: int, payload: NoteUpdate):
    _get_or_404(note_id)
    changes = payload.model_dump(exclude_unset=True, exclude_none=True)
    return store.update(note_id, changes)


@app.delete("/api/v1/notes/{note_id}", status_code=204)
def delete_note(note_id: int):
    if not store.delete(note_id):
        raise HTTPException(status_code=404, detail="Note not found")
    return Response(status_code=204)
