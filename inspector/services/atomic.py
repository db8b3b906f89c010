"""Atomic file writes: temp file in the same folder, fsync, rename, fsync the folder."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


@contextmanager
def atomic_writer(path: Path, mode: int | None = None) -> Iterator[IO[bytes]]:
    """A binary file that replaces ``path`` only when the block ends without an exception.

    Readers see the old or the new file, never a torn one; on error the temp file is removed.
    ``mode`` sets the new file's permissions (default: private, 0600).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def write_bytes_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` so readers see the old or the new file, never a torn one."""
    with atomic_writer(path, mode) as fh:
        fh.write(data)


def _fsync_dir(folder: Path) -> None:
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def write_json_atomic(path: Path, data: Any, sort_keys: bool = False) -> None:
    """JSON with 2-space indent and a trailing newline, written atomically."""
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=sort_keys) + "\n"
    write_bytes_atomic(path, text.encode("utf-8"))


def shared_file_mode(path: Path) -> int:
    """The mode for a file people share (e.g. in git): the existing file's, else 0666 less the
    umask."""
    try:
        return os.stat(path).st_mode & 0o777
    except OSError:
        pass
    try:  # read the umask without changing it (os.umask would, for every thread)
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o644
