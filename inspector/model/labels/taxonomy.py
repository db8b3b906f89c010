"""The failure taxonomy: the categories annotators sort failures into.

A taxonomy is a data file (``taxonomy.json``, schema ``inspector/schemas/taxonomy.schema.json``)::

    {"format": "genesis-inspector.taxonomy", "version": 1, "id": "repogenesis",
     "name": "...", "categories": [{"id": "dependency", "name": "Dependency management",
     "description": "...", "key": "2", "colour": "#e0a030"}, ...]}

The default one ships as ``inspector/data/taxonomy.json``; a project supplies its own as
``labels/taxonomy.json`` next to its label files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.model.untrusted.errors import LoadError
from inspector.model.untrusted.jsonfields import read_json

TAXONOMY_FORMAT = "genesis-inspector.taxonomy"
TAXONOMY_VERSION = 1

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
RESERVED_KEYS = frozenset("abcegjknostxqD?")
"""Keys the labelling screen uses itself; a category key may not be one of them."""


@dataclass(frozen=True, slots=True)
class Category:
    """One failure category: a stable ``id`` stored in label files, a display ``name``,
    a ``description`` shown to annotators, the one-character ``key`` that applies it and a
    ``colour`` (``#rrggbb``)."""

    id: str
    name: str
    description: str
    key: str
    colour: str


@dataclass(frozen=True, slots=True)
class Taxonomy:
    """An ordered set of categories; ``source`` is the file it came from."""

    id: str
    name: str
    categories: tuple[Category, ...]
    source: Path | None = None

    def get(self, category_id: str) -> Category | None:
        return next((c for c in self.categories if c.id == category_id), None)

    def by_key(self, key: str) -> Category | None:
        return next((c for c in self.categories if c.key == key), None)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.categories)

    def name_of(self, category_id: str) -> str:
        """The display name, or the raw id for a category this taxonomy does not know."""
        cat = self.get(category_id)
        return cat.name if cat else category_id


def parse_taxonomy(data: Any, path: Path) -> Taxonomy:
    """Validate a taxonomy document; :class:`LoadError` names the file and the field."""
    if not isinstance(data, dict):
        raise LoadError(path, "a taxonomy must be a JSON object")
    if data.get("format") != TAXONOMY_FORMAT:
        raise LoadError(path, f"not a taxonomy file (format must be {TAXONOMY_FORMAT!r})",
                        "format")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LoadError(path, f"invalid version {version!r}", "version")
    if version > TAXONOMY_VERSION:
        raise LoadError(path, f"written for a newer inspector (version {version}, this one "
                              f"reads {TAXONOMY_VERSION})", "version")
    for key in ("id", "name"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise LoadError(path, "must be a non-empty string", key)
    raw = data.get("categories")
    if not isinstance(raw, list) or not raw:
        raise LoadError(path, "must be a non-empty list", "categories")
    cats: list[Category] = []
    seen_ids: set[str] = set()
    seen_keys: set[str] = set()
    for i, item in enumerate(raw):
        where = f"categories[{i}]"
        if not isinstance(item, dict):
            raise LoadError(path, "must be an object", where)
        for key in ("id", "name", "description", "key", "colour"):
            if not isinstance(item.get(key), str):
                raise LoadError(path, "must be a string", f"{where}.{key}")
        cid, key = item["id"], item["key"]
        if not _ID.match(cid):
            raise LoadError(path, f"{cid!r} is not a valid id (lower-case letters, digits, "
                                  "'-' and '_', up to 40)", f"{where}.id")
        if cid in seen_ids:
            raise LoadError(path, f"duplicate category id {cid!r}", f"{where}.id")
        if len(key) != 1 or not key.isprintable() or key.isspace():
            raise LoadError(path, f"key must be one printable character, not {key!r}",
                            f"{where}.key")
        if key in RESERVED_KEYS:
            raise LoadError(path, f"key {key!r} is used by the labelling screen itself "
                                  f"(reserved: {' '.join(sorted(RESERVED_KEYS))})",
                            f"{where}.key")
        if key in seen_keys:
            raise LoadError(path, f"key {key!r} is used by two categories", f"{where}.key")
        if not _COLOUR.match(item["colour"]):
            raise LoadError(path, f"colour must look like #1f77b4, not {item['colour']!r}",
                            f"{where}.colour")
        if not item["name"].strip():
            raise LoadError(path, "must not be empty", f"{where}.name")
        seen_ids.add(cid)
        seen_keys.add(key)
        cats.append(Category(cid, item["name"].strip(), item["description"].strip(), key,
                             item["colour"].lower()))
    return Taxonomy(data["id"], data["name"], tuple(cats), path)


def load_taxonomy(path: Path) -> Taxonomy:
    """Read and validate a taxonomy file; :class:`LoadError` on any problem."""
    return parse_taxonomy(read_json(path, max_bytes=4 * 1024 * 1024), path)


def taxonomy_to_json(tax: Taxonomy) -> dict[str, Any]:
    """The document :func:`parse_taxonomy` reads."""
    return {"format": TAXONOMY_FORMAT, "version": TAXONOMY_VERSION, "id": tax.id,
            "name": tax.name,
            "categories": [{"id": c.id, "name": c.name, "description": c.description,
                            "key": c.key, "colour": c.colour} for c in tax.categories]}
