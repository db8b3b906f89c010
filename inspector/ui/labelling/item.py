"""What the queue's current row stands for: its group, its per-test suggestion and the
evidence an annotator can attach to its label (no Textual: plain functions of the row and
the loaded sample)."""

from __future__ import annotations

from inspector.model.failures.triage import RootGroup, TestSuggestion
from inspector.model.labels.label_file import Anchor, ItemRef
from inspector.services.labels.queue import QueueSample
from inspector.ui.widgets.failure_queue import QueueRow


def group_of(row: QueueRow, loaded: QueueSample | None) -> RootGroup | None:
    """The group ``row`` labels: its own, or for the sample row the sample-level root group
    (whose root is the sample itself)."""
    if row.group is not None:
        return row.group
    if loaded is None or loaded.triage is None:
        return None
    return next((g for g in loaded.triage.groups if g.root.ref == row.ref), None)


def suggestion_for(row: QueueRow, loaded: QueueSample | None) -> TestSuggestion | None:
    """The per-test suggestion of ``row``'s item (``None`` until the sample is triaged)."""
    if loaded is None or loaded.triage is None:
        return None
    return loaded.triage.for_item(row.ref.key)


def scope(row: QueueRow) -> str | None:
    """The failing test ``row`` labels (``None``: the sample or a sample-level item)."""
    return row.item.test_id if row.item is not None else None


def candidates(row: QueueRow, loaded: QueueSample | None) -> list[Anchor]:
    """Evidence to offer on ``row``: the sample's for the sample row; else the suggestion's
    anchors (and its competing readings'), the failing test and the telling log lines."""
    if loaded is None:
        return []
    if row.item is None:
        return list(loaded.candidates)
    out: list[Anchor] = []
    s = suggestion_for(row, loaded)
    if s is not None:
        out.extend(s.anchors)
        for r in s.competing:
            out.extend(r.anchors)
    test = scope(row)
    if test is not None:
        out.append(Anchor.for_test(test))
    out.extend(loaded.logs)
    return list(dict.fromkeys(out))


def roots(rows: list[QueueRow]) -> list[QueueRow]:
    """The root rows among a sample's ``rows`` (what ``t`` steps through)."""
    return [r for r in rows if r.item is not None and not r.is_member]


def sample_refs(loaded: list[QueueSample]) -> list[ItemRef]:
    """Every failure item of the triaged samples among ``loaded``."""
    return [i.ref for lo in loaded if lo.triage is not None
            for g in lo.triage.groups for i in g.items]
