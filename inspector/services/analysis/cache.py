"""A persistent cache of repository code metrics, keyed by a fingerprint of the repo's sources.

The key is a SHA-256 over the metric tools' versions, the language and, for every source file
the metrics read (and every one they skip), its relative path, size, inode, mtime and ctime:
any write to a file changes its ctime, which no user tool can set back, so an edited file is
never served stale. A content digest (:func:`inspector.services.repo.files.repo_digest`) would
read every byte of every repo (about 2 s for the 2,427 repos of the bench corpus); the
fingerprint only stats them. The cache is one JSON file written atomically; a broken or
foreign file is ignored (and replaced on the next save), never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from inspector import paths
from inspector.services.analysis.code_metrics import EXTENSIONS, CodeMetrics, tool_versions
from inspector.services.repo.files import iter_files
from inspector.services.storage.atomic import write_bytes_atomic

CACHE_VERSION = 1
CACHE_NAME = "code-metrics.json"


def fingerprint(repo: Path, language: str) -> str:
    """The cache key of ``repo``'s ``language`` sources (see the module docstring)."""
    h = hashlib.sha256(f"v{CACHE_VERSION}|{language}|{sorted(tool_versions().items())}"
                       .encode())

    def add(path: Path, what: str) -> None:
        try:
            st = os.lstat(path)
            stamp = f"{st.st_size}|{st.st_ino}|{st.st_mtime_ns}|{st.st_ctime_ns}"
        except OSError:
            stamp = "gone"
        h.update(f"{path.relative_to(repo).as_posix()}|{what}|{stamp}\0".encode())

    for path in iter_files(repo, EXTENSIONS[language],
                           on_skip=lambda p, reason: add(p, reason)):
        add(path, "")
    return h.hexdigest()


class MetricsCache:
    """``get``/``put`` by fingerprint; :meth:`save` writes what changed."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or paths.cache_root() / CACHE_NAME
        self._entries: dict[str, dict[str, object]] = {}
        self._dirty = False
        self._load()

    def _load(self) -> None:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(doc, dict) and doc.get("version") == CACHE_VERSION and \
                isinstance(doc.get("entries"), dict):
            self._entries = {k: v for k, v in doc["entries"].items() if isinstance(v, dict)}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: str) -> CodeMetrics | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        try:
            return CodeMetrics.from_json(entry)
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, key: str, metrics: CodeMetrics) -> None:
        self._entries[key] = metrics.to_json()
        self._dirty = True

    def save(self) -> None:
        """Write the cache when something was added (merging entries another process saved)."""
        if not self._dirty:
            return
        mine = self._entries
        self._entries = {}
        self._load()
        self._entries.update(mine)
        try:
            write_bytes_atomic(self.path, json.dumps(
                {"version": CACHE_VERSION, "entries": self._entries},
                separators=(",", ":")).encode("utf-8"))
        except OSError:
            return  # a cache that cannot be written only costs time
        self._dirty = False
