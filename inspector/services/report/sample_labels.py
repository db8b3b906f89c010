"""A failing sample's labels as its report section shows them: who said what, why, and the
suggestion each label was made with."""

from __future__ import annotations

from collections import defaultdict

from inspector.model.labels.label_file import ItemRef, Label
from inspector.model.labels.labelset import LabelSet
from inspector.model.untrusted.safe_text import sanitize
from inspector.services.report.caps import head
from inspector.services.report.data import SampleLabel

REASON_CHARS = 400


def labelled_items(labels: LabelSet | None) -> dict[str, list[ItemRef]]:
    """Sample id -> its labelled items (the sample first, then its tests)."""
    out: dict[str, list[ItemRef]] = defaultdict(list)
    for item in labels.items() if labels is not None else ():
        out[item.sample].append(item)
    return dict(out)


def _reason(label: Label) -> str:
    if label.note:
        return label.note
    return next((e.reason for e in reversed(label.history) if e.reason), "")


def _shown(item: ItemRef, who: str, label: Label, final: tuple[str | None, str] | None
           ) -> SampleLabel:
    kept = label.suggestion or {}
    confirmation = kept.get("confirmation", "")
    if confirmation and kept.get("confirmation_outcome"):
        confirmation += f": {kept['confirmation_outcome']}"
    suggestion = None
    if kept.get("category") or kept.get("reason"):
        suggestion = (sanitize(kept.get("category", "unsure")),
                      sanitize(kept.get("confidence", "")),
                      head(sanitize(kept.get("reason", "")), REASON_CHARS).text)
    return SampleLabel(test=sanitize(item.test or ""), who=sanitize(who),
                       category=sanitize(label.category), confidence=sanitize(label.confidence),
                       reason=head(sanitize(_reason(label)), REASON_CHARS).text,
                       confirmation=sanitize(confirmation), suggestion=suggestion,
                       final=final)


def sample_labels(labels: LabelSet | None, items: list[ItemRef]) -> tuple[SampleLabel, ...]:
    """Every active label of ``items``: the adjudication first, then each annotator's."""
    if labels is None:
        return ()
    out: list[SampleLabel] = []
    for item in items:
        f = labels.final(item)
        final = (sanitize(f.category) if f.category else None, f.status)
        adj = labels.adjudicated(item)
        found = ([(f"adjudication (by {adj.updated.by or adj.created.by})", adj)]
                 if adj is not None else [])
        found += list(labels.labels_for(item).items())
        for n, (who, label) in enumerate(found):
            out.append(_shown(item, who, label, final if n == 0 else None))
    return tuple(out)
