from typing import List, Optional

from fastapi import Depends, FastAPI, HTTPException, Response

from models import NoteIn, NoteOut, NoteUpdate
from store import NoteStore

app = FastAPI()


# Dependency that provides the note store to the endpoints
def get_store():
    return NoteStore()


@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/api/v1/notes", response_model=NoteOut, status_code=201)
def create_note(note: NoteIn, store: NoteStore = Depends(get_store)):
    return store.add(note.title, note.body, note.tags)


@app.get("/api/v1/notes", response_model=List[NoteOut])
def list_notes(tag: Optional[str] = None, store: NoteStore = Depends(get_store)):
    return store.all(tag)


@app.get("/api/v1/notes/{note_id}", response_model=NoteOut)
def get_note(note_id: int, store: NoteStore = Depends(get_store)):
    note = store.get(note_id)
    if not note:
        raise HTTPException(status_code=404, detail="Note not found")
    return note


@app.put("/api/v1/notes/{note_id}", response_model=NoteOut)
def update_note(note_id: int, data: NoteUpdate, store: NoteStore = Depends(get_store)):
    note = store.update(note_id, data.model_dump())
    if not note:
        raise HTTPException(status_code=404, detail="Note not found")
    return note


@app.delete("/api/v1/notes/{note_id}", status_code=204)
def delete_note(note_id: int, store: NoteStore = Depends(get_store)):
    if not store.delete(note_id):
        raise HTTPException(status_code=404, detail="Note not found")
    return Response(status_code=204)
