"""pytest node ids: split them safely and make them relative to the repo root.

Recorded ids are relative to the generated repo's root (``tests/test_x.py::TestC::test_y``),
whatever rootdir pytest chose, so they can be passed back to pytest run from the repo root.
Runs recorded before that rule have ids relative to pytest's rootdir (``test_x.py::test_y`` for
a suite with its own ``tests/pytest.ini``); :func:`repo_relative_id` repairs them.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path


def split_node_id(test_id: str) -> tuple[str, tuple[str, ...], str]:
    """``(file, names, params)`` of a node id: ``tests/t.py::C::test_p[a::b]`` gives
    ``("tests/t.py", ("C", "test_p"), "[a::b]")``. A parametrize id may contain ``::``, ``/``
    or brackets; only the part before its first ``[`` is split on ``::``."""
    file, _, rest = test_id.partition("::")
    cut = rest.find("[")
    params = rest[cut:] if cut >= 0 else ""
    names = rest[:cut] if cut >= 0 else rest
    return file, tuple(n for n in names.split("::") if n), params


def leaf_name(test_id: str) -> str:
    """The function name with its parameters (``test_p[a::b]``), or the file for a module."""
    file, names, params = split_node_id(test_id)
    return (names[-1] + params) if names else file


def base_id(test_id: str) -> str:
    """The node id without parametrize ids (``tests/t.py::C::test_p``)."""
    file, names, _ = split_node_id(test_id)
    return "::".join((file, *names))


def rootdir_relative_to_repo(file: str, rootdir: str | None, cwd: str | None) -> str:
    """A path pytest reported relative to ``rootdir``, made relative to ``cwd`` (the repo root
    pytest ran in). Both are absolute paths on the machine that ran pytest; unchanged when
    either is unknown or the result would leave ``cwd``."""
    if not rootdir or not cwd or not file:
        return file
    full = posixpath.normpath(posixpath.join(rootdir, file))
    rel = posixpath.relpath(full, posixpath.normpath(cwd))
    return file if rel == ".." or rel.startswith("../") else rel


def relocate_id(test_id: str, rootdir: str | None, cwd: str | None) -> str:
    """A node id relative to ``rootdir`` made relative to ``cwd`` (see above)."""
    file, sep, rest = test_id.partition("::")
    return rootdir_relative_to_repo(file, rootdir, cwd) + sep + rest


@lru_cache(maxsize=256)
def _tests_prefix(task_root: Path | None, tests_dir: Path) -> str | None:
    """The tests folder relative to the task root (``tests``), None when it is outside it
    (lexical, so computed once per task rather than once per test id)."""
    try:
        return tests_dir.relative_to(task_root).as_posix() if task_root else tests_dir.name
    except ValueError:
        return None


def _repair_prefix(file: str, task_root: Path | None, tests_dir: Path) -> str | None:
    """The folder to put before an id of ``file`` (see :func:`repo_relative_id`), or None."""
    if not file.endswith(".py") or file.startswith(("/", "../")):
        return None
    prefix = _tests_prefix(task_root, tests_dir)
    if prefix is None:
        return None
    try:
        if file.startswith(prefix + "/"):
            return None
        if (task_root is not None and (task_root / file).is_file()) or \
                not (tests_dir / file).is_file():
            return None
    except (OSError, ValueError):
        return None
    return prefix


def repo_relative_id(test_id: str, task_root: Path | None, tests_dir: Path | None) -> str:
    """Repair an id recorded relative to the task's tests folder (``test_x.py::test_y``) into
    ``tests/test_x.py::test_y``: only when its file is not at the repo root but is in the
    task's tests folder. Anything else is returned unchanged."""
    if tests_dir is None or not test_id:
        return test_id
    prefix = _repair_prefix(test_id.partition("::")[0], task_root, tests_dir)
    return test_id if prefix is None else f"{prefix}/{test_id}"


def id_repairer(task_root: Path | None, tests_dir: Path | None) -> Callable[[str], str]:
    """:func:`repo_relative_id` for the ids of one task's run, deciding once per file (the
    ids of a sample's tests share a handful of files)."""
    if tests_dir is None:
        return lambda test_id: test_id
    decided: dict[str, str | None] = {}

    def repair(test_id: str) -> str:
        if not test_id:
            return test_id
        file = test_id.partition("::")[0]
        if file in decided:
            prefix = decided[file]
        else:
            prefix = decided[file] = _repair_prefix(file, task_root, tests_dir)
        return test_id if prefix is None else f"{prefix}/{test_id}"

    return repair
