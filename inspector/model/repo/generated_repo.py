"""A generated repository, read-only: its root, the one list of folders that are not its own
code, a walk that never follows a symlink, whether a path is inside it, traceback paths made
relative to it, bounded reads and the Python modules it defines.

Everything is looked at lazily and cached on the instance; nothing is ever written. A repo
that does not exist (or ``None``) gives an object that knows nothing (``available`` False).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from inspector.model.failures.text import LIBRARY_PATH

SKIP_DIRS = frozenset({
    ".git", "__pycache__", "node_modules", "venv", ".venv", "env", "site-packages", "target",
    "build", "dist", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".idea", ".vscode"})
"""Folders that are not the repository's own code: VCS data, virtualenvs and vendored
packages, build output, tool caches and editor settings (plus any ``*.egg-info``)."""

MAX_FILE_BYTES = 2 * 1024 * 1024
"""What :func:`read_text` reads of a file by default."""


def is_skipped_dir(name: str, hidden: bool = True) -> bool:
    """Whether a folder named ``name`` is left out of walks (``hidden=False``: every
    dot-folder too)."""
    return name in SKIP_DIRS or name.endswith(".egg-info") or (
        not hidden and name.startswith("."))


def walk_files(root: Path, extensions: tuple[str, ...] | None = None,
               skip_dirs: frozenset[str] = SKIP_DIRS, hidden: bool = True,
               on_skip: Callable[[Path, str], None] | None = None) -> Iterator[Path]:
    """Regular files under ``root``, top-down: each folder's files by name, then its
    sub-folders by name. Symlinks (to files or folders) are never followed or listed;
    folders in ``skip_dirs`` or named ``*.egg-info`` (and dot-folders unless ``hidden``) are
    not entered; unreadable folders are passed over. ``on_skip(path, reason)`` hears of
    symlinks and special files (FIFOs, devices) among those ``extensions`` selects, and of
    symlinked folders."""
    stack: list[str] = [str(root)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            continue
        files: list[str] = []
        dirs: list[str] = []
        for e in entries:
            try:
                if e.is_file(follow_symlinks=False):
                    files.append(e.name)
                elif e.is_dir(follow_symlinks=False):
                    if e.name not in skip_dirs and not e.name.endswith(".egg-info") \
                            and (hidden or not e.name.startswith(".")):
                        dirs.append(e.name)
                elif on_skip is not None:
                    _skipped(e, extensions, on_skip)
            except OSError:
                continue
        for name in sorted(files):
            if extensions is None or os.path.splitext(name)[1] in extensions:
                yield Path(folder, name)
        stack.extend(os.path.join(folder, d) for d in sorted(dirs, reverse=True))


def _skipped(e: os.DirEntry[str], extensions: tuple[str, ...] | None,
             on_skip: Callable[[Path, str], None]) -> None:
    """Tell ``on_skip`` why a symlink or special file ``e`` is left out."""
    if e.is_symlink():
        if e.is_dir():  # follows the link only to say what it points at
            on_skip(Path(e.path), "symlinked folder (not followed)")
            return
        reason = "symlink (not followed)"
    else:
        reason = "not a regular file"
    if extensions is None or os.path.splitext(e.name)[1] in extensions:
        on_skip(Path(e.path), reason)


def within(real: str, root: str) -> bool:
    """Whether resolved path ``real`` is resolved folder ``root`` or inside it."""
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """The first ``limit`` bytes of ``path`` as text (undecodable bytes replaced); ``""``
    when it cannot be read."""
    try:
        with path.open("rb") as fh:
            return fh.read(limit).decode("utf-8", errors="replace")
    except OSError:
        return ""


class GeneratedRepo:
    """Read-only facts about one generated repository, looked up lazily and cached."""

    def __init__(self, path: Path | None) -> None:
        self.root: Path | None = None
        self._resolved: Path | None = None
        if path is not None:
            try:
                if path.is_dir():
                    self.root = path
                    self._resolved = path.resolve()
            except OSError:
                self.root = None
                self._resolved = None
        self._is_file: dict[str, bool] = {}
        self._py: dict[int, list[str]] = {}
        self._tops: set[str] | None = None

    @property
    def available(self) -> bool:
        """Whether the repository exists (a folder)."""
        return self.root is not None

    # ---- where things are
    def contains(self, path: Path | str) -> bool:
        """Whether ``path`` (absolute, or relative to the root) resolves inside the repo."""
        if self.root is None or self._resolved is None:
            return False
        try:
            return (self.root / path).resolve().is_relative_to(self._resolved)
        except (OSError, ValueError, RuntimeError):
            return False

    def is_file(self, rel: str) -> bool:
        """Whether ``rel`` is a file of the repo: it exists and resolves inside (a symlink
        pointing out is not one)."""
        if self.root is None or not rel:
            return False
        found = self._is_file.get(rel)
        if found is None:
            try:
                target = self.root / rel
                found = target.is_file() and self._resolved is not None and \
                    target.resolve().is_relative_to(self._resolved)
            except (OSError, ValueError, RuntimeError):
                found = False
            self._is_file[rel] = found
        return found

    def is_package_dir(self, rel: str) -> bool:
        """Whether ``rel`` is a folder holding Python code."""
        if self.root is None:
            return False
        try:
            d = self.root / rel
            return d.is_dir() and any(p.suffix == ".py" for p in d.iterdir())
        except OSError:
            return False

    def relative(self, raw: str | Path) -> str | None:
        """The repo-relative path a traceback path names (its longest trailing part that is a
        file of the repo), or None for library files, files outside the repo and golden
        tests beside it (a ``tests/x.py`` frame naming the repo's namesake)."""
        if self.root is None or not raw:
            return None
        p = str(raw).strip().replace("\\", "/")
        if LIBRARY_PATH.search(p):
            return None
        parts = [x for x in p.split("/") if x not in ("", ".")]
        if not parts or ".." in parts:
            return None
        for k in range(len(parts)):
            rel = "/".join(parts[k:])
            if self.is_file(rel):
                if k > 0 and parts[k - 1] in ("tests", "test"):
                    return None
                return rel
        return None

    # ---- files
    def files(self, extensions: tuple[str, ...] | None = None,
              skip_dirs: frozenset[str] = SKIP_DIRS, hidden: bool = True) -> Iterator[Path]:
        """The repo's regular files (see :func:`walk_files`); nothing without a repo."""
        if self.root is None:
            return iter(())
        return walk_files(self.root, extensions, skip_dirs, hidden)

    def py_files(self, limit: int) -> list[str]:
        """Repo-relative paths of the first ``limit`` Python files outside dot-folders."""
        if limit not in self._py:
            found: list[str] = []
            if self.root is not None:
                root = str(self.root)
                for path in self.files((".py",), hidden=False):
                    if len(found) >= limit:
                        break
                    found.append(os.path.relpath(path, root).replace(os.sep, "/"))
            self._py[limit] = found
        return self._py[limit]

    def read_text(self, rel: str, limit: int = MAX_FILE_BYTES) -> str | None:
        """The first ``limit`` bytes of file ``rel`` as text, or None when it is not a file
        of the repo or cannot be read."""
        if not self.is_file(rel) or self.root is None:
            return None
        try:
            with (self.root / rel).open("rb") as fh:
                return fh.read(limit).decode("utf-8", errors="replace")
        except OSError:
            return None

    # ---- Python modules
    def top_modules(self) -> set[str]:
        """Names importable from the repo root or ``src/`` (``X.py`` or a ``X/`` with code)."""
        if self._tops is None:
            tops: set[str] = set()
            if self.root is not None:
                for base in (self.root, self.root / "src"):
                    try:
                        entries = list(os.scandir(base))
                    except OSError:
                        continue
                    for e in entries:
                        if e.name.startswith(".") or e.name in SKIP_DIRS:
                            continue
                        try:
                            if e.is_file() and e.name.endswith(".py"):
                                tops.add(e.name[:-3])
                            elif e.is_dir() and self.is_package_dir(
                                    os.path.relpath(e.path, self.root)):
                                tops.add(e.name)
                        except OSError:
                            continue
            self._tops = tops
        return self._tops

    def module_file(self, dotted: str) -> str | None:
        """The file defining module ``dotted`` (``a/b.py`` or ``a/b/__init__.py``, at the
        root or under ``src/``)."""
        rel = dotted.replace(".", "/")
        for base in ("", "src/"):
            for cand in (f"{base}{rel}.py", f"{base}{rel}/__init__.py"):
                if self.is_file(cand):
                    return cand
        return None

    def module_exists(self, dotted: str) -> bool:
        """Whether module ``dotted`` is a file or a folder with code of the repo."""
        rel = dotted.replace(".", "/")
        return self.module_file(dotted) is not None or any(
            self.is_package_dir(f"{base}{rel}") for base in ("", "src/"))
