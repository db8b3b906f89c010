"""Run ids, task names and sample ids: checked once, when a run is loaded.

They name folders (re-run work areas, ``samples/<task>/<n>``, ``<task>.log``), appear in
sample ids (``<run id>/<task>/<n>``) and in label files, so an id read from a file must be one
path component: no ``/``, no ``..``, no NUL or other control character, no leading ``.``.
An invalid one makes the run or sample a load problem; the rest of the code may rely on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from inspector.model.untrusted.errors import LoadError, LoadIssue
from inspector.model.untrusted.safe_text import sanitize_field

T = TypeVar("T")


def id_problem(value: str) -> str | None:
    """Why ``value`` cannot be a run id or task name, or None when it can."""
    if not value.strip():
        return "is empty"
    if "/" in value or "\\" in value:
        return "contains a path separator"
    if ".." in value:
        return "contains '..'"
    if value.startswith("."):
        return "starts with '.'"
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        return "contains a control character"
    return None


def check_id(value: str, path: Path, field: str, what: str) -> str:
    """``value`` when it is a valid id; else :class:`LoadError` naming the file and field."""
    problem = id_problem(value)
    if problem is not None:
        shown = value if len(value) <= 80 else value[:77] + "…"
        raise LoadError(path, f"not a valid {what}: {shown!r} {problem}", field)
    return value


def checked_name(value: str, path: Path, field: str, issues: list[LoadIssue]) -> str:
    """An agent or model name: ``value``, or, when it holds NUL (which no file name, process
    argument or C string can carry), a warning naming the file and field, and the value with
    each NUL shown as ``<NUL>``. Other control characters stay: they are data, shown as text."""
    if "\0" not in value:
        return value
    shown = value.replace("\0", "<NUL>")
    issues.append(LoadIssue(path, field, "holds a NUL character; shown as "
                            f"{sanitize_field(shown, 200)!r}", "warning"))
    return shown


def select_by_id(spec: str, items: Iterable[T], id_of: Callable[[T], str]) -> list[T]:
    """The items run id ``spec`` names: every item whose id is exactly ``spec`` when there is
    one, else every item whose id contains it. The one rule of every command taking a run id
    (``rerun``/``request``/``replay``/``sandbox`` ``--run``, ``compare``, ``analyze
    --compare``): an exact id always selects its run, even where another id starts with it."""
    pool = list(items)
    exact = [x for x in pool if id_of(x) == spec]
    return exact or [x for x in pool if spec in id_of(x)]
