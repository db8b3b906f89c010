"""A persistent cache of README spec-complexity scores
(:mod:`inspector.model.readme.spec_complexity`).

Scoring a README parses it whole (contract, schemas, endpoints, mentions): about 6–12 ms a
task, a second for a hundred tasks, on every analysis. The score depends only on the task's
name and README text, and on the code that reads READMEs, so the key is a SHA-256 over those:
the README parser's own source files are part of it, and an edited parser never serves a stale
score. One pickle file of our own dataclasses in the cache folder, written atomically; a
broken, foreign or older file is ignored (and replaced on the next save), never an error.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
from functools import cache
from pathlib import Path

from inspector import paths
from inspector.model.readme.spec_complexity import SpecComplexity, spec_complexity
from inspector.services.storage.atomic import write_bytes_atomic

CACHE_NAME = "spec-complexity.pickle"
FORMAT = 1
_MODEL = Path(__file__).resolve().parents[2] / "model"
# the modules a score depends on: the scorer and the README readers it calls
_SOURCES = ("spec_complexity.py", "spec_endpoints.py", "contract_types.py", "task.py",
            "readme*.py")
_lock = threading.Lock()


@cache
def code_version() -> str:
    """A digest of the README-reading code (every file the score depends on)."""
    h = hashlib.sha256(f"format {FORMAT}".encode())
    for pattern in _SOURCES:
        for path in sorted(_MODEL.glob(pattern)):
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def spec_key(name: str, readme: str) -> str:
    return hashlib.sha256(f"{code_version()}|{name}\0{readme}".encode(
        "utf-8", errors="surrogatepass")).hexdigest()


class SpecCache:
    """Scores by :func:`spec_key`; :meth:`score` computes and keeps what is missing."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.cache_root() / CACHE_NAME
        self._entries: dict[str, SpecComplexity] = {}
        self._added = False
        self.hits = 0
        self._load()

    def _load(self) -> None:
        try:
            data = pickle.loads(self.path.read_bytes())  # noqa: S301 - our own cache file
        except FileNotFoundError:
            return
        except Exception:  # noqa: BLE001 - a broken cache only costs time
            return
        if isinstance(data, dict) and data.get("version") == code_version() and \
                isinstance(data.get("entries"), dict):
            self._entries = {k: v for k, v in data["entries"].items()
                             if isinstance(v, SpecComplexity)}

    def score(self, name: str, readme: str) -> SpecComplexity:
        key = spec_key(name, readme)
        found = self._entries.get(key)
        if found is not None:
            self.hits += 1
            return found
        spec = spec_complexity(readme, name)
        self._entries[key] = spec
        self._added = True
        return spec

    def save(self) -> None:
        """Write the cache when a score was added (keeping what another process saved)."""
        if not self._added:
            return
        with _lock:
            mine = self._entries
            self._entries = {}
            self._load()
            self._entries.update(mine)
            try:
                write_bytes_atomic(self.path, pickle.dumps(
                    {"version": code_version(), "entries": self._entries},
                    protocol=pickle.HIGHEST_PROTOCOL))
            except OSError:
                return  # a cache that cannot be written only costs time
            self._added = False
