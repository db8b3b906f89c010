"""All label files of a project read together: who said what about each item, and the
final category of each item (adjudicated, agreed, majority, single, or unresolved)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from inspector.model.labels.label_file import ItemRef, Label, LabelFile

FINAL_STATUSES = ("adjudicated", "agreed", "majority", "single", "unresolved")


@dataclass(frozen=True, slots=True)
class FinalLabel:
    """The category an item ends up with and why: ``status`` is one of
    :data:`FINAL_STATUSES`; ``category`` is ``None`` only when ``unresolved``."""

    item: ItemRef
    category: str | None
    status: str
    ratings: dict[str, str]


@dataclass(frozen=True, slots=True)
class LabelSet:
    """Every annotator's file (``files``: name -> file) and the adjudication file."""

    files: dict[str, LabelFile] = field(default_factory=dict)
    adjudication: LabelFile | None = None

    @property
    def annotators(self) -> list[str]:
        return sorted(self.files)

    def labels_for(self, item: ItemRef) -> dict[str, Label]:
        """Active labels of ``item`` by annotator (sorted by name)."""
        out: dict[str, Label] = {}
        for name in self.annotators:
            label = self.files[name].get(item)
            if label is not None and label.active:
                out[name] = label
        return out

    def confirmation(self, item: ItemRef) -> str:
        """The causal re-run kept with ``item``'s labels ("supports: <outcome>"; the
        adjudicator's first, then the annotators' by name), "" when none was kept."""
        adjudicated = self.adjudicated(item)
        found = [adjudicated] if adjudicated is not None else []
        for label in [*found, *self.labels_for(item).values()]:
            kept = label.suggestion or {}
            if "confirmation" in kept:
                outcome = kept.get("confirmation_outcome", "")
                return f"{kept['confirmation']}: {outcome}" if outcome else kept["confirmation"]
        return ""

    def adjudicated(self, item: ItemRef) -> Label | None:
        if self.adjudication is None:
            return None
        label = self.adjudication.get(item)
        return label if label is not None and label.active else None

    def items(self) -> list[ItemRef]:
        """Every item anyone labelled (active labels), sorted."""
        seen: set[ItemRef] = set()
        for f in self.files.values():
            seen.update(lb.item for lb in f.labels if lb.active)
        if self.adjudication is not None:
            seen.update(lb.item for lb in self.adjudication.labels if lb.active)
        return sorted(seen, key=ItemRef.sort_key)

    def ratings(self) -> dict[str, dict[str, str]]:
        """``item key -> {annotator: category}`` for agreement figures."""
        out: dict[str, dict[str, str]] = {}
        for item in self.items():
            r = {name: lb.category for name, lb in self.labels_for(item).items()}
            if r:
                out[item.key] = r
        return out

    def final(self, item: ItemRef) -> FinalLabel:
        """Adjudicated beats everything; else all agree, a strict majority, a lone label."""
        ratings = {name: lb.category for name, lb in self.labels_for(item).items()}
        adj = self.adjudicated(item)
        if adj is not None:
            return FinalLabel(item, adj.category, "adjudicated", ratings)
        if not ratings:
            return FinalLabel(item, None, "unresolved", ratings)
        counts = Counter(ratings.values()).most_common()
        if len(ratings) == 1:
            return FinalLabel(item, counts[0][0], "single", ratings)
        if len(counts) == 1:
            return FinalLabel(item, counts[0][0], "agreed", ratings)
        if counts[0][1] > len(ratings) / 2:
            return FinalLabel(item, counts[0][0], "majority", ratings)
        return FinalLabel(item, None, "unresolved", ratings)

    def disagreements(self) -> list[ItemRef]:
        """Items two or more annotators labelled differently (adjudicated ones included)."""
        return [item for item in self.items()
                if len(set(lb.category for lb in self.labels_for(item).values())) > 1]

    def labelled_by(self, annotator: str) -> set[ItemRef]:
        f = self.files.get(annotator)
        return {lb.item for lb in f.labels if lb.active} if f else set()

    def sample_labelled_by(self, annotator: str) -> set[str]:
        """Sample ids ``annotator`` labelled (the sample itself or one of its tests)."""
        return {item.sample for item in self.labelled_by(annotator)}
