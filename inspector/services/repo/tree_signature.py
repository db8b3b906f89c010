"""What an indexed sample was built from besides its JSON files: its generated repo's tree.

A sample's index row carries what was found by scanning its repo (tampering attempts: a
``conftest.py`` that forges results, ...), so a repo changed after indexing must make its run
location reload, in the app and in every command reading the index alike. The signature is
the size, mtime and ctime of every file and folder of each repo (never following a symlink;
the folders of :data:`~inspector.model.repo.generated_repo.SKIP_DIRS` count by their own entry,
not walked): any write to a file changes its ctime, which no user tool can set back. Stat
only, no byte read; a repo past :data:`MAX_ENTRIES` entries counts its first ones and its
size.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from inspector.model.repo.generated_repo import SKIP_DIRS

MAX_ENTRIES = 50_000
"""Entries of one repo stat-ed for its signature."""


def repo_tree_signature(repos: Iterable[str]) -> str:
    """A digest of the trees of ``repos`` (paths; missing ones count as missing)."""
    h = hashlib.sha1()
    for repo in sorted(set(repos)):
        h.update(f"repo\0{repo}\n".encode("utf-8", "surrogateescape"))
        _walk(Path(repo), h.update)
    return h.hexdigest()


def _walk(repo: Path, add: Callable[[bytes], object]) -> None:
    todo = [repo]
    seen = 0
    while todo:
        folder = todo.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            add(f"{folder}\0unreadable {exc.errno}\n".encode("utf-8", "surrogateescape"))
            continue
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES:
                add(b"...\n")
                return
            try:
                st = entry.stat(follow_symlinks=False)
                stamp = f"{st.st_mode}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}"
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                stamp, is_dir = "gone", False
            add(f"{entry.path}\0{stamp}\n".encode("utf-8", "surrogateescape"))
            if is_dir and entry.name not in SKIP_DIRS and not entry.name.endswith(".egg-info"):
                todo.append(Path(entry.path))
