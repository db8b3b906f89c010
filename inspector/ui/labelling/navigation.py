"""Where the labelling queue goes next: the next unlabelled sample, the next unlabelled root,
the next failure item ``t`` steps to (no Textual: plain functions over queue rows and
callables asking the label session)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from inspector.model.labels.label_file import ItemRef, Label
from inspector.ui.labelling.item import roots
from inspector.ui.widgets.failure_queue import QueueRow

Mine = Callable[[ItemRef], Label | None]
"""The annotator's label of an item, or ``None``."""


def after(index: int, n: int) -> list[int]:
    """The queue positions after ``index``, wrapping round to ``index`` itself last."""
    return [(index + step) % n for step in range(1, n + 1)]


def next_unlabelled_sample(index: int, sample_ids: list[str],
                           unlabelled: Callable[[str], bool],
                           skip: str | None = None) -> int | None:
    """The first sample after ``index`` (wrapping) that is ``unlabelled``, other than
    ``skip``; ``None`` when there is none."""
    for i in after(index, len(sample_ids)):
        sid = sample_ids[i]
        if sid != skip and unlabelled(sid):
            return i
    return None


def first_unlabelled_root(rows: list[QueueRow], mine: Mine, after_row: QueueRow | None = None,
                          skip: ItemRef | None = None) -> QueueRow | None:
    """The first root among a sample's ``rows`` (after ``after_row``) with no label of the
    annotator's, other than ``skip``."""
    candidates = roots(rows)
    if after_row is not None and after_row in candidates:
        candidates = candidates[candidates.index(after_row) + 1:]
    return next((r for r in candidates if r.ref != skip and mine(r.ref) is None), None)


@dataclass(frozen=True, slots=True)
class Target:
    """Where to go after labelling a root: sample ``index``, at ``row`` (``None``: its sample
    row, descending to its first unlabelled root once it is triaged); ``here``: further on in
    the same sample (no jump to remember)."""

    index: int
    row: QueueRow | None
    here: bool = False


def next_unlabelled_root(index: int, done: QueueRow, n: int,
                         rows_of: Callable[[int], list[QueueRow] | None],
                         unlabelled: Callable[[int], bool], mine: Mine) -> Target | None:
    """After labelling the root ``done`` of sample ``index``: the next unlabelled root of that
    sample, else of the next sample with one; a sample not triaged yet (``rows_of`` gives
    ``None``) counts when it is ``unlabelled`` as a whole. ``None``: everything is labelled."""
    here = rows_of(index)
    found = first_unlabelled_root(here, mine, done, skip=done.ref) if here is not None else None
    if found is not None:
        return Target(index, found, here=True)
    for i in after(index, n):
        rows = rows_of(i)
        if rows is not None:
            found = first_unlabelled_root(rows, mine, skip=done.ref)
            if found is not None:
                return Target(i, found)
            continue
        if unlabelled(i):
            return Target(i, None)
    return None


def next_scope(row: QueueRow, sample_roots: list[QueueRow]) -> QueueRow | None:
    """The failure item ``t`` steps to from ``row``: the next root, after the last one the
    sample row (``None``); from a member, the root after its own."""
    options: list[QueueRow | None] = [None, *sample_roots]
    current = row if row.item is not None and not row.is_member else None
    if row.is_member:
        current = next((r for r in sample_roots if r.group == row.group), None)
    i = options.index(current) if current in options else 0
    return options[(i + 1) % len(options)]
