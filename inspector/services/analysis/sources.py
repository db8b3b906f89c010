"""Reading a repository's source files for metrics: the safe walker, bounded sizes, and a
named reason for every file left out (symlink, special file, too large, binary, unreadable)."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from inspector.services.repo.files import SKIP_DIRS, iter_files

MAX_SOURCE_BYTES = 1024 * 1024  # a larger "source file" is data or generated, not code
MAX_FILES = 3000  # per repository and language
_BINARY_PROBE = 8192


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file left out of the metrics, and why."""

    file: str  # relative to the repository
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Source:
    file: str  # relative to the repository (posix)
    text: str


def _rel(repo: Path, path: Path) -> str:
    try:
        return path.relative_to(repo).as_posix()
    except ValueError:
        return str(path)


def read_source(path: Path, limit: int = MAX_SOURCE_BYTES) -> tuple[str | None, str]:
    """(text, '') or (None, reason). Never follows a symlink, never blocks on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError as exc:
        return None, f"unreadable ({exc.strerror or exc})"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "not a regular file"
        if st.st_size > limit:
            return None, f"larger than {limit // 1024} KiB ({st.st_size:,} bytes)"
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        return None, f"unreadable ({exc.strerror or exc})"
    finally:
        os.close(fd)
    if len(data) > limit:
        return None, f"larger than {limit // 1024} KiB"
    if b"\0" in data[:_BINARY_PROBE]:
        return None, "binary file (NUL bytes)"
    return data.decode("utf-8", errors="replace"), ""


def collect_sources(repo: Path, extensions: tuple[str, ...],
                    skip_dirs: frozenset[str] = SKIP_DIRS,
                    limit: int = MAX_SOURCE_BYTES, max_files: int = MAX_FILES
                    ) -> tuple[list[Source], list[Skipped]]:
    """The readable source files of ``repo`` with ``extensions`` and the ones skipped."""
    skipped: list[Skipped] = []
    sources: list[Source] = []

    def on_skip(path: Path, reason: str) -> None:
        skipped.append(Skipped(_rel(repo, path), reason))

    for path in iter_files(repo, extensions, skip_dirs, on_skip):
        if len(sources) >= max_files:
            skipped.append(Skipped(_rel(repo, path), f"over {max_files} source files: "
                                                      "the rest is not counted"))
            break
        text, reason = read_source(path, limit)
        if text is None:
            skipped.append(Skipped(_rel(repo, path), reason))
        else:
            sources.append(Source(_rel(repo, path), text))
    return sources, skipped
