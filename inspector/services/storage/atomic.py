"""Atomic file writes: temp file in the same folder, fsync, rename, fsync the folder.

A writer holds an ``flock`` on its temp file from creation until the rename, so a temp file
nobody holds is an orphan of a killed writer: :func:`sweep_stale_temps` removes those.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

TEMP_SUFFIX = ".tmp"
STALE_TEMP_SECONDS = 600.0
"""A temp file untouched this long, and held by no writer, is an orphan."""
_TEMP_NAME = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")  # mkstemp's 8 random characters


@contextmanager
def atomic_writer(path: Path, mode: int | None = None) -> Iterator[IO[bytes]]:
    """A binary file that replaces ``path`` only when the block ends without an exception.

    Readers see the old or the new file, never a torn one; on error the temp file is removed.
    ``mode`` sets the new file's permissions (default: private, 0600). The temp file
    (``.<name>.XXXXXXXX.tmp``) stays locked until it is renamed, marking it live.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb", closefd=False) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)  # releases the lock, after the rename
    _fsync_dir(path.parent)


def sweep_stale_temps(folder: Path, older_than: float = STALE_TEMP_SECONDS) -> list[Path]:
    """Remove the temp files killed writers left in ``folder``; returns what was removed.

    Only files named like :func:`atomic_writer`'s temp files, not modified for ``older_than``
    seconds and not locked: a live writer holds its temp file's lock until the rename, so it
    is never removed, however slow. Problems (a vanished file, no permission) are skipped.
    """
    removed: list[Path] = []
    try:
        with os.scandir(folder) as it:
            names = [e.name for e in it if _TEMP_NAME.match(e.name)]
    except OSError:
        return removed
    now = time.time()
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
    for name in names:
        temp = folder / name
        try:
            fd = os.open(temp, flags)
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < older_than:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a live writer holds it
            now_there = os.lstat(temp)
            if (now_there.st_dev, now_there.st_ino) == (st.st_dev, st.st_ino):
                os.unlink(temp)
                removed.append(temp)
        except OSError:
            continue
        finally:
            with suppress(OSError):
                os.close(fd)
    return removed


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
