"""Resolving a run file's relative path below a folder already resolved, cheaply.

``(base / raw).resolve()`` makes ``os.path.realpath`` ``lstat`` every component of the whole
path from ``/``, then ``stat`` it twice: about a dozen system calls per log path, tens of
thousands of times per run. When ``base`` is already a real path (symlinks resolved, every
component an existing folder), only the components of ``raw`` need looking at.

:func:`resolve_below` walks ``raw`` from such a base exactly as ``os.path.realpath`` does
(``.`` and empty names skipped, ``..`` the parent folder) and gives up (returns ``None``) on
anything that is not plain: an absolute ``raw``, a symlink, a component that cannot be
``lstat``-ed (missing, permission denied, a name the OS rejects). The caller then takes the
full, slow path, so symlinks, loops and odd names are always handled by the standard library.
"""

from __future__ import annotations

import os
import stat


def real_folder(path: os.PathLike[str] | str) -> str | None:
    """``os.path.realpath`` of ``path`` when that is an existing folder, fully resolved (then
    ``Path(path).resolve()`` gives the same); else None (missing, not a folder, a symlink
    loop left unresolved, a name the OS rejects)."""
    try:
        real = os.path.realpath(path)
        return real if stat.S_ISDIR(os.lstat(real).st_mode) else None
    except (OSError, ValueError):
        return None


def resolve_below(base_real: str, raw: str) -> str | None:
    """``realpath(base_real / raw)`` when ``base_real`` is :func:`real_folder`'s answer and
    walking ``raw``
    meets only existing non-symlink components; None when the caller must resolve the slow
    way (see the module docstring)."""
    if not raw or raw.startswith("/") or "\0" in raw:
        return None
    path = base_real
    for name in raw.split("/"):
        if not name or name == ".":
            continue
        if name == "..":
            path = os.path.dirname(path)
            continue
        path = path + name if path.endswith("/") else path + "/" + name
        try:
            if stat.S_ISLNK(os.lstat(path).st_mode):
                return None
        except (OSError, ValueError):
            return None
    return path


def within(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or below it (both absolute and normalised, as
    ``realpath`` gives them): the string form of ``Path(path).relative_to(folder)``."""
    if path == folder:
        return True
    prefix = folder if folder.endswith("/") else folder + "/"
    return path.startswith(prefix)
