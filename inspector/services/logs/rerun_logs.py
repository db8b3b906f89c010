"""Re-run logs on disk, bounded: the newest few re-runs of each sample are kept.

Each deployment made for a re-run gets its own folder, ``<work root>/<sample>/<stamp>-<backend>``
(``logs/install.log``, ``start.log``, ``health.log`` and one ``tests-K.log`` per test run).
When a new deployment starts, the sample's older folders beyond the newest
:data:`DEFAULT_KEEP_RERUNS` are removed, except a folder still in use (a live deployment, in
this process or another, holds a lock on its ``.in-use`` file). In a warm deployment, the test
logs of re-runs older than the newest ``keep`` are removed when a re-run starts.

Only folders named like a deployment (``20260101-120000-123456-docker``) directly under the
sample's folder are ever removed: a run's own evaluation logs live in the run folder, never
here, and nothing else is touched.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import shutil
from pathlib import Path

from inspector.services.logs.caps import DEFAULT_KEEP_RERUNS

__all__ = ["DEFAULT_KEEP_RERUNS", "IN_USE", "InUse", "in_use", "prune_attempt_logs",
           "prune_deployments"]

IN_USE = ".in-use"
_FOLDER = re.compile(r"\d{8}-\d{6}-\d{6}-[a-z]+\Z")


class InUse:
    """An exclusive lock on ``folder/.in-use`` while a deployment lives there."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._fd: int | None = os.open(folder / IN_USE, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC,
                                       0o600)
        fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the descriptor drops the lock


def in_use(folder: Path) -> bool:
    """Whether a live deployment holds ``folder`` (its ``.in-use`` lock is taken)."""
    try:
        fd = os.open(folder / IN_USE, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except FileNotFoundError:
        return False
    except OSError:
        return True  # cannot tell: keep it
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        return exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES)
    finally:
        os.close(fd)
    return False


def deployment_folders(sample_dir: Path) -> list[Path]:
    """The sample's deployment folders, oldest first (the names start with their stamp)."""
    try:
        entries = list(sample_dir.iterdir())
    except OSError:
        return []
    return sorted((p for p in entries if _FOLDER.match(p.name) and not p.is_symlink()
                   and p.is_dir()), key=lambda p: p.name)


def prune_deployments(sample_dir: Path, keep: int) -> list[Path]:
    """Remove the sample's deployment folders beyond the newest ``keep`` (``keep`` may be 0:
    a new deployment is about to be added); folders in use are kept. Returns those removed."""
    folders = deployment_folders(sample_dir)
    old = folders[:max(0, len(folders) - max(0, keep))]
    removed = []
    for folder in old:
        if in_use(folder):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            removed.append(folder)
    return removed


def prune_attempt_logs(groups: list[list[Path]], keep: int) -> list[Path]:
    """Remove the test logs of all but the newest ``keep`` re-runs (``groups``: one list of
    logs per re-run, oldest first; emptied of what was removed). Returns the files removed."""
    removed: list[Path] = []
    while len(groups) > max(0, keep):
        for path in groups.pop(0):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed.append(path)
    return removed
