"""What a category key writes: the label of the row's item, and for a root its group's
members following it (no Textual: the plan the screen hands the label session)."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.model.failures.triage import Confirmation, TestSuggestion
from inspector.model.labels.label_file import ItemRef, Suggestion
from inspector.ui.widgets.failure_queue import QueueRow

SUPPORTS_TEXT = {True: "supports", False: "refutes", None: "inconclusive"}
"""How a label keeps whether a causal re-run supported its suggestion's cause."""


def suggestion_json(s: TestSuggestion, confirmation: Confirmation | None = None
                    ) -> dict[str, str]:
    """What a label keeps of the per-test suggestion it was made with (strings only, so
    every release reads it), with the causal re-run that decided it, when there was one."""
    out = {"rule": s.rule, "reason": s.reason, "confidence": f"{s.confidence:.2f}"}
    if s.category is not None:
        out = {"category": s.category, **out}
    if s.remedy is not None:
        out["remedy"] = s.remedy.describe()
    c = s.confirmation or confirmation
    if c is not None:
        out["confirmation"] = SUPPORTS_TEXT[c.supports]
        out["confirmation_outcome"] = c.outcome
        out["confirmation_remedy"] = c.remedy
        out["confirmation_counts"] = f"{c.passed} passed, {c.failed} failed, " \
                                     f"{c.collected} collected"
        if c.backend:
            out["confirmation_backend"] = c.backend
        if c.log:
            out["confirmation_log"] = c.log
    return out


@dataclass(frozen=True, slots=True)
class SavePlan:
    """One category key's write: ``item``'s label, and ``members`` following it when the row
    is a group's root (``group`` true); ``saved`` is what is announced once on disk."""

    item: ItemRef
    category: str
    suggestion: Suggestion | dict[str, str] | None
    confidence: str | None  # None: keep the existing label's
    saved: str
    group: bool = False
    members: list[ItemRef] = field(default_factory=list)
    is_member: bool = False


def plan_save(row: QueueRow, category: str, category_name: str, *,
              per_test: TestSuggestion | None, sample_suggestion: Suggestion | None,
              confidence: str | None, confirmation: Confirmation | None = None) -> SavePlan:
    """The write a key does on ``row``: a root labels its group (the sample row labels the
    sample alone), keeping the suggestion it was made with and the re-run that confirmed
    or refuted it (``confirmation``); ``confidence`` only for a new label."""
    item = row.ref
    suggestion: Suggestion | dict[str, str] | None = (
        suggestion_json(per_test, confirmation) if per_test is not None else
        sample_suggestion if row.item is None else None)
    group = row.group is not None and not row.is_member
    members = [m.ref for m in row.group.members] if row.group is not None and group else []
    saved = f"{item.key.split('/', 1)[-1]} → {category_name}"
    if members:
        saved += f" (+{len(members)} following)"
    return SavePlan(item, category, suggestion, confidence, saved, group, members,
                    row.is_member)
