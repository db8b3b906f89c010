"""The rows a category table counts, in one view of the label roll-up
(:mod:`inspector.model.labels.rollup`): per sample, per root cause or per test.

Every table of labels — ``labels export``, ``analyze --runs``, the Analysis tab, the HTML
report — counts the rows :func:`view_rows` gives; the listing of every label stays one row per
labelled item (:func:`inspector.services.labels.report.export_rows`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from inspector.model.labels.label_file import ItemRef
from inspector.model.labels.labelset import LabelSet
from inspector.model.labels.rollup import (
    VIEW_TEXT,
    SampleRollup,
    root_labels,
    sample_rollups,
    test_labels,
    view_problem,
)
from inspector.services.labels.export import ExportRow


@dataclass(frozen=True, slots=True)
class SampleWhere:
    """What a table row needs to know about the sample it counts."""

    run_id: str
    agent: str
    model: str
    language: str
    task: str


@dataclass
class ViewRows:
    """The rows of one view for the samples in ``where``; ``outside``: units (samples, roots
    or tests) of labelled samples elsewhere; ``rollups``: the per-sample roll-up of every
    labelled sample (whatever the view), for listings."""

    view: str
    rows: list[ExportRow]
    outside: int
    rollups: dict[str, SampleRollup] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return VIEW_TEXT[self.view]

    def sample_details(self) -> dict[str, dict[str, Any]]:
        """Per counted sample: its categories and roots (the json export's extra fields)."""
        return {r.sample: {"categories": list(r.categories), "roots": len(r.roots),
                           "unresolved_roots": r.unresolved_roots}
                for r in self.rollups.values() if any(x.sample == r.sample for x in self.rows)}


def view_rows(labels: LabelSet, view: str, order: Sequence[str],
              where: Mapping[str, SampleWhere]) -> ViewRows:
    """The rows counted in ``view``'s tables (``order``: the taxonomy's ids, for the primary
    category). Raises :class:`ValueError` for an unknown view."""
    problem = view_problem(view)
    if problem is not None:
        raise ValueError(problem)
    rollups = sample_rollups(labels, order)
    units: list[tuple[str, str | None, str | None, str, dict[str, str]]]
    if view == "sample":
        units = [(r.sample, None, r.primary, r.status,
                  r.roots[0].ratings if len(r.roots) == 1 else {}) for r in rollups.values()]
    elif view == "root":
        units = [(r.item.sample, r.item.test, r.category, r.status, r.ratings)
                 for r in root_labels(labels)]
    else:
        units = [(t.item.sample, t.item.test, t.category, t.status, t.ratings)
                 for t in test_labels(labels)]
    rows: list[ExportRow] = []
    outside = 0
    for sample, test, category, status, ratings in units:
        w = where.get(sample)
        if w is None:
            outside += 1
            continue
        rows.append(ExportRow(sample, test, category, status, dict(ratings), w.run_id,
                              w.agent, w.model, w.language, w.task,
                              labels.confirmation(ItemRef(sample, test))
                              if view != "sample" else ""))
    return ViewRows(view, rows, outside, rollups)
