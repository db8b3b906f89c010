"""Walking a generated repository safely and its content digest (the walk itself and the
skip list are :mod:`inspector.model.repo.generated_repo`'s)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path

from inspector.model.repo.generated_repo import MAX_FILE_BYTES, SKIP_DIRS, read_text, walk_files

__all__ = ["MAX_FILE_BYTES", "SKIP_DIRS", "iter_files", "read_text", "repo_digest"]


def iter_files(repo: Path, extensions: tuple[str, ...] | None = None,
               skip_dirs: frozenset[str] = SKIP_DIRS,
               on_skip: Callable[[Path, str], None] | None = None) -> Iterator[Path]:
    """Regular files under ``repo`` in sorted order; symlinks are not followed
    (``on_skip(path, reason)`` hears of those and of special files)."""
    return walk_files(repo, extensions, skip_dirs, on_skip=on_skip)


def repo_digest(repo: Path) -> str:
    """Content digest of a generated repo (paths + bytes), stable across machines."""
    h = hashlib.sha256()
    for path in iter_files(repo):
        h.update(path.relative_to(repo).as_posix().encode())
        h.update(b"\0")
        try:
            h.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            h.update(b"<unreadable>")
    return "sha256:" + h.hexdigest()
