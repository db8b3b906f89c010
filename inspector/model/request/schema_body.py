"""An example request body built from the fields a README documents for an endpoint.

The README's request fields (JSON schema blocks with type names and notes, JSON Schema, field
lists, field tables and example bodies, as :class:`~inspector.model.readme.contract.
ReadmeContract` reads them) are merged by path; each kept field gets a typed example value:
the README's own (a fixed value, the first of an enumeration, an example, a default), else one
by type and name (``"user@example.com"`` for an email, ``1`` for an integer, ``true`` for a
boolean, nested objects and one-item arrays of objects). Fields the README marks optional are
left out and named, so the composer can say so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from inspector.model.readme.contract import ReadmeContract
from inspector.model.readme.contract_types import (
    DEFAULT,
    ENUM,
    EXAMPLE,
    FIXED,
    LITERAL,
    REQUEST,
    EndpointContract,
    FieldSpec,
)

_RANK = (FIXED, ENUM, EXAMPLE, LITERAL, DEFAULT)
_UNUSABLE = re.compile(r"^(<.*>|\.\.\.|…|)$|^(string|integer|number|boolean)$", re.I)
_MIN_LEN = re.compile(r"(?i)(\d+)\s*(?:-|–|to)\s*\d+\s*char|min(?:imum|Length)?\s*:?\s*(\d+)"
                      r"|at least\s*(\d+)")
_MINIMUM = re.compile(r"(?i)\bminimum\s+(-?\d+)\b(?!\s*char)|\bmin(?:imum)?\s*[:=]\s*(-?\d+)")


@dataclass
class _Field:
    """The README's statements about one request field, merged."""

    path: str
    type: str = ""
    required: bool | None = None
    values: tuple[str, ...] = ()
    kind: str = ""
    constraints: list[str] = field(default_factory=list)

    def merge(self, spec: FieldSpec) -> None:
        self.type = self.type or spec.type
        if self.required is None:
            self.required = spec.required
        if spec.constraints:
            self.constraints.append(spec.constraints)
        usable = tuple(v for v in spec.values if not _UNUSABLE.match(v.strip()))
        if usable and spec.value_kind in _RANK and (
                not self.values or _RANK.index(spec.value_kind) < _RANK.index(self.kind)):
            self.values, self.kind = usable, spec.value_kind


@dataclass(frozen=True)
class SchemaBody:
    """The example body (an object) and the optional fields left out of it (dotted paths)."""

    body: dict[str, Any]
    optional: tuple[str, ...] = ()
    files: tuple[str, ...] = ()  # file fields: sent as multipart, not in a JSON body
    all_optional: bool = False  # every field is optional: they are filled all the same

    @property
    def note(self) -> str:
        """What the body leaves out, in a few words ('' when nothing)."""
        parts = []
        if self.all_optional:
            parts.append("every field is optional: " + ", ".join(self.optional))
        elif self.optional:
            parts.append("optional, left out: " + ", ".join(self.optional))
        if self.files:
            parts.append("file fields (multipart upload), left out: " + ", ".join(self.files))
        return "; ".join(parts)


@lru_cache(maxsize=32)
def contract_of(readme: str) -> ReadmeContract:
    """The README's contract (parsed once per README text)."""
    return ReadmeContract.parse(readme)


def _fields(contract: ReadmeContract, ep: EndpointContract) -> list[_Field]:
    merged: dict[str, _Field] = {}
    for spec in contract.fields:
        if spec.role == REQUEST and ep.key in spec.endpoints and spec.path.strip():
            merged.setdefault(spec.path, _Field(spec.path)).merge(spec)
    return list(merged.values())


def _collection_post(contract: ReadmeContract, ep: EndpointContract) -> EndpointContract | None:
    """``POST /things`` for ``PUT /things/{id}`` (a replace documented as "same as create")."""
    parent = re.sub(r"/(\{[^}/]+\}|:\w+)/?$", "", ep.path)
    if parent == ep.path:
        return None
    return next((e for e in contract.endpoints if e.method == "POST"
                 and e.path.rstrip("/") == parent.rstrip("/")), None)


def schema_body(readme: str, method: str, path: str) -> SchemaBody | None:
    """The example body for ``method path`` from ``readme``; None when it documents no request
    field for that endpoint (nor, for ``PUT``/``PATCH``, for its collection's ``POST``)."""
    contract = contract_of(readme)
    ep = contract.endpoint_for(method.upper(), path)
    if ep is None or ep.method != method.upper():
        return None
    fields = _fields(contract, ep)
    if not fields and ep.method in ("PUT", "PATCH"):
        post = _collection_post(contract, ep)
        fields = _fields(contract, post) if post is not None else []
    if not fields:
        return None
    return _build(fields)


def _build(fields: list[_Field], keep_optional: bool = False) -> SchemaBody:
    by_path = {f.path: f for f in fields}
    optional: list[str] = []
    files: list[str] = []
    body: dict[str, Any] = {}
    for f in fields:
        parent, _, _ = f.path.rpartition(".")
        if parent and parent in by_path:
            continue  # filled with its parent
        if f.type == "file":
            files.append(f.path)
            continue
        if f.required is False:
            optional.append(f.path)
            if not keep_optional:
                continue
        _put(body, f.path, _value(f, by_path, optional))
    if not body and optional and not files and not keep_optional:
        return _build(fields, keep_optional=True)  # an update of optional fields only
    return SchemaBody(body, tuple(optional), tuple(files), keep_optional)


def _put(body: dict[str, Any], path: str, value: Any) -> None:
    """Set ``a.b.c`` (parents documented nowhere become objects)."""
    *parents, leaf = path.split(".")
    node = body
    for p in parents:
        nxt = node.setdefault(p, {})
        if not isinstance(nxt, dict):
            return
        node = nxt
    node[leaf] = value


def _children(f: _Field, by_path: dict[str, _Field], optional: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    prefix = f.path + "."
    for child in by_path.values():
        if not child.path.startswith(prefix) or "." in child.path[len(prefix):]:
            continue
        if child.required is False:
            optional.append(child.path)
        elif child.type != "file":
            out[child.path[len(prefix):]] = _value(child, by_path, optional)
    return out


def _value(f: _Field, by_path: dict[str, _Field], optional: list[str]) -> Any:
    """A typed example value for ``f`` (its children for objects and arrays of objects)."""
    kind = f.type.split("|")[0].strip().lower()
    name = f.path.rsplit(".", 1)[-1]
    has_children = any(p.startswith(f.path + ".") for p in by_path)
    if kind.startswith("array"):
        if has_children:
            return [_children(f, by_path, optional)]
        inner = kind[6:-1] if kind.startswith("array<") else ""
        if f.values:
            return [_typed(v, inner, name, f.constraints) for v in f.values[:2]]
        return [_typed("", inner or "string", name, f.constraints)] if inner else []
    if kind == "object" or (has_children and not kind):
        return _children(f, by_path, optional)
    if not kind and f.values:
        kind = _guess(f.values[0])
    return _typed(f.values[0] if f.values else "", kind or "string", name, f.constraints)


def _guess(value: str) -> str:
    if value.lower() in ("true", "false"):
        return "boolean"
    if re.fullmatch(r"-?\d+", value):
        return "integer"
    if re.fullmatch(r"-?\d+\.\d+", value):
        return "number"
    return "string"


def _typed(value: str, kind: str, name: str, constraints: list[str]) -> Any:
    """``value`` (the README's, may be '') as ``kind``; an example by type and name if none."""
    notes = " ".join(constraints)
    if kind == "boolean":
        return value.lower() != "false" if value.lower() in ("true", "false") else True
    if kind in ("integer", "number"):
        try:
            return int(value) if kind == "integer" else float(value)
        except ValueError:
            m = _MINIMUM.search(notes)
            low = int(next(g for g in m.groups() if g is not None)) if m else 1
            return max(low, 1) if kind == "integer" else float(max(low, 1))
    if kind == "null":
        return None
    return value if value else _example_string(name, notes)


def _example_string(name: str, notes: str) -> str:
    low = name.lower()
    text = f"{low} {notes.lower()}"
    if "email" in text or "e-mail" in text:
        return "user@example.com"
    if "url" in low or "uri" in low or "link" in low or "http" in notes.lower():
        return "https://example.com"
    if "uuid" in text:
        return "123e4567-e89b-12d3-a456-426614174000"
    if re.search(r"datetime|timestamp|_at$|iso 8601|iso8601", text) or re.search(r"[a-z]At$",
                                                                                   name):
        return "2024-01-01T12:00:00Z"
    if "date" in low:
        return "2024-01-01"
    if "password" in low or "secret" in low:
        value = "Secret123!"
    elif low.endswith("id"):
        value = "1"
    else:
        value = "example"
    m = _MIN_LEN.search(notes)
    need = int(next(g for g in m.groups() if g is not None)) if m else 0
    return value + "x" * max(0, need - len(value))
