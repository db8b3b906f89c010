"""Per-sample history of requests sent from the composer, kept in one JSON file.

The file is ``{"schema": 1, "entries": [...]}``, newest entry last. Appends re-read the file
under an ``fcntl`` lock (``<file>.lock``) and replace it atomically, so two inspector processes
appending at once lose nothing. A file that cannot be read (corrupt, or written by a newer
inspector) raises :class:`HistoryError` and is never overwritten.
"""

from __future__ import annotations

import fcntl
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.model.request.http_request import RequestSpec, ResponseRecord
from inspector.model.untrusted.errors import LoadError
from inspector.model.untrusted.jsonfields import parse_json_bytes
from inspector.services.storage.atomic import write_json_atomic

SCHEMA = 1


class HistoryError(LoadError):
    """The history file cannot be used; ``str()`` names the file. It is left untouched."""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One request sent: what, to where (``base_url``), through which ``backend``, and the
    response (or the error) that came back."""

    spec: RequestSpec
    response: ResponseRecord
    base_url: str
    backend: str = "local"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back."""
        return {"spec": self.spec.to_dict(), "response": self.response.to_dict(),
                "base_url": self.base_url, "backend": self.backend}

    @classmethod
    def from_dict(cls, data: Any) -> HistoryEntry:
        """Read :meth:`to_dict` output; ``ValueError`` names the bad field."""
        if not isinstance(data, dict):
            raise ValueError(f"entry must be an object, not {type(data).__name__}")
        for key in ("base_url", "backend"):
            if not isinstance(data.get(key), str):
                raise ValueError(f"{key!r} must be a string")
        return cls(RequestSpec.from_dict(data.get("spec")),
                   ResponseRecord.from_dict(data.get("response")),
                   data["base_url"], data["backend"])


def history_path(cache_root: Path, sample_key: str) -> Path:
    """The history file of a sample: a readable slug of the key plus a short sha256.

    Keys may hold ``/``, ``@``, ``:``; the name is always one safe path component.
    """
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", sample_key).strip("-.")[:60].rstrip("-.")
    digest = hashlib.sha256(sample_key.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return cache_root / "request-history" / f"{slug or 'sample'}-{digest}.json"


def _read(path: Path) -> list[HistoryEntry]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise HistoryError(path, f"cannot read request history: {exc.strerror or exc}") from None
    try:
        data = parse_json_bytes(path, raw)
    except LoadError as exc:
        raise HistoryError(path, f"request history is corrupt ({exc.issue.message}); left as "
                                 "is, move it away to start a new one") from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise HistoryError(path, "request history is corrupt (expected an object with an "
                                 "'entries' list); left as is")
    schema = data.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise HistoryError(path, f"request history has an invalid schema {schema!r}; left as is",
                           "schema")
    if schema > SCHEMA:
        raise HistoryError(path, f"request history was written by a newer inspector (schema "
                                 f"{schema}, this version reads {SCHEMA}); left as is", "schema")
    entries: list[HistoryEntry] = []
    for i, item in enumerate(data["entries"]):
        try:
            entries.append(HistoryEntry.from_dict(item))
        except ValueError as exc:
            raise HistoryError(path, f"request history is corrupt: {exc}; left as is",
                               f"entries[{i}]") from None
    return entries


class RequestHistory:
    """The request history of one sample, stored at ``path`` and trimmed to ``limit``."""

    def __init__(self, path: Path, limit: int = 200) -> None:
        if limit < 1:
            raise ValueError(f"history limit must be at least 1, not {limit}")
        self.path = path
        self.limit = limit
        self._entries: list[HistoryEntry] | None = None

    @property
    def lock_path(self) -> Path:
        """The lock file serialising appends across processes."""
        return self.path.with_name(self.path.name + ".lock")

    def load(self) -> list[HistoryEntry]:
        """Read the file (an absent file is an empty history); raises :class:`HistoryError`."""
        self._entries = _read(self.path)
        return list(self._entries)

    def entries(self) -> list[HistoryEntry]:
        """The entries, oldest first, as last loaded or written (loads on first use)."""
        if self._entries is None:
            return self.load()
        return list(self._entries)

    def append(self, entry: HistoryEntry) -> list[HistoryEntry]:
        """Add ``entry`` as the newest, keeping the last ``limit``; returns the entries written.

        Re-reads the file under the lock so entries other processes appended are kept; raises
        :class:`HistoryError` (writing nothing) when the file on disk cannot be read.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.lock_path, "a") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            try:
                entries = _read(self.path)
                entries.append(entry)
                entries = entries[-self.limit:]
                write_json_atomic(self.path, {"schema": SCHEMA,
                                              "entries": [e.to_dict() for e in entries]})
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
        self._entries = entries
        return list(entries)
