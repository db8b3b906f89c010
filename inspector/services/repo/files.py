"""Walking a generated repository safely: skip vendored folders, never follow symlinks out."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

SKIP_DIRS = {".git", "__pycache__", "node_modules", "venv", ".venv", "target", "build",
             ".pytest_cache", "dist", ".idea", ".vscode", ".mypy_cache"}
MAX_FILE_BYTES = 2 * 1024 * 1024


def iter_files(repo: Path, extensions: tuple[str, ...] | None = None,
               skip_dirs: set[str] | frozenset[str] = frozenset(SKIP_DIRS),
               on_skip: Callable[[Path, str], None] | None = None) -> Iterator[Path]:
    """Regular files under ``repo`` in sorted order; symlinks are not followed.
    ``on_skip(path, reason)`` hears of symlinks and special files (FIFOs, devices) among
    the files ``extensions`` selects."""
    for dirpath, dirnames, filenames in os.walk(repo, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in skip_dirs and not d.endswith(".egg-info"))
        if on_skip is not None:
            for d in dirnames:
                if (Path(dirpath) / d).is_symlink():
                    on_skip(Path(dirpath) / d, "symlinked folder (not followed)")
        for name in sorted(filenames):
            path = Path(dirpath) / name
            wanted = extensions is None or path.suffix in extensions
            if path.is_symlink() or not path.is_file():
                if wanted and on_skip is not None:
                    on_skip(path, "symlink (not followed)" if path.is_symlink()
                            else "not a regular file")
                continue
            if wanted:
                yield path


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    try:
        with path.open("rb") as fh:
            return fh.read(limit).decode("utf-8", errors="replace")
    except OSError:
        return ""


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
