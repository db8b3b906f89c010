"""Reading files that may not be what they claim: regular files only, size-capped, and never
blocking (a FIFO, a device such as ``/dev/zero`` or a symlink to one is refused unread).

Run files, label files and taxonomies travel through git and archives, which carry symlinks
and (via a checkout or an unpacked tarball) FIFOs; every JSON the inspector loads goes
through :func:`read_regular`.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from inspector.model.untrusted.errors import LoadError

_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _not_regular(path: Path, mode: int) -> LoadError:
    if stat.S_ISDIR(mode):
        return LoadError(path, "cannot read: a folder, not a file")
    via = ""
    try:
        if path.is_symlink():
            via = f", via a symlink to {os.readlink(path)}"
    except OSError:
        pass
    return LoadError(path, f"not a regular file ({_kind(mode)}{via}); not read")


def _too_big(path: Path, size: int | str, max_bytes: int) -> LoadError:
    return LoadError(path, f"file is {size} bytes, larger than the {max_bytes} byte limit; "
                           "not read")


def read_regular(path: Path, max_bytes: int, *, missing_ok: bool = False,
                 truncate: bool = False) -> bytes | None:
    """The bytes of ``path`` (symlinks followed) when it is a regular file of at most
    ``max_bytes`` (with ``truncate``: its first ``max_bytes``, whatever its size); ``None`` for
    a missing file when ``missing_ok``.

    Anything else raises :class:`LoadError` naming the file: not a regular file (the target is
    checked before opening, and the opened file again, so a swap cannot slip a FIFO or a
    device in), larger than the cap (checked on the size and while reading, so a file that
    grows is cut off), or unreadable (permission denied, …).
    """
    try:
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            raise _not_regular(path, before.st_mode)
        if before.st_size > max_bytes and not truncate:
            raise _too_big(path, before.st_size, max_bytes)
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        if missing_ok:
            return None
        raise LoadError(path, "cannot read: no such file") from None
    except OSError as exc:
        reason = "symlink loop" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
        raise LoadError(path, f"cannot read: {reason}") from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise _not_regular(path, opened.st_mode)
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise LoadError(path, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if left <= 0:
        if truncate:
            return data[:max_bytes]
        raise _too_big(path, f"more than {max_bytes}", max_bytes)
    return data
