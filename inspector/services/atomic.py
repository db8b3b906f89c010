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
def atomic_writer(path: Path) -> Iterator[IO[bytes]]:
    """A binary file that replaces ``path`` only when the block ends without an exception.

    Readers see the old or the new file, never a torn one; on error the temp file is removed.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so readers see the old or the new file, never a torn one."""
    with atomic_writer(path) as fh:
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
