"""Pydantic request/response models."""
from typing import List, Optional

from pydantic import BaseModel, Field


class NoteCreate(BaseModel):
    title: str = Field(..., min_length=1, max_length=200)
    body: str = ""
    tags: List[str] = Field(default_factory=list)


class NoteUpdate(BaseModel):
    # Every field is optional: PUT performs a partial update.
    title: Optional[str] = Field(None, min_length=1, max_length=200)
    body: Optional[str] = None
    tags: Optional[List[str]] = None


class Note(BaseModel):
    id: int
    title: str
    body: str
    tags: List[str]
    created_at: str
