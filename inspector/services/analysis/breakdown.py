"""Pass@1 and failure categories broken down by any key: framework, language, difficulty tier.

* :func:`pass_at_1_by` — per run and group: strict Pass@1 (per task the share of its samples
  that passed strictly, averaged over the group's tasks —
  :mod:`inspector.services.figures.metrics`'s
  rule) and the stock figure (mean test pass ratio over samples whose suite counted tests —
  the stock ``avg_pass_at_1`` rule). Keys: :func:`framework_key`, :func:`language_key`,
  :func:`tier_key` (``tier_of(task) -> tier``, e.g. the difficulty scorer's).
* :func:`category_tables` — the labelled failure categories (final labels rolled up as
  ``inspector labels export`` does: per sample, per root cause or per test) by agent, by run,
  by framework and, with ``tier_of``, by tier.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from inspector.model.labels.labelset import LabelSet
from inspector.model.labels.rollup import DEFAULT_VIEW
from inspector.model.labels.taxonomy import Taxonomy
from inspector.services.analysis.cost import strict_pass_at_1
from inspector.services.analysis.outcomes import RunOutcomes, SampleOutcome
from inspector.services.labels.export import (
    Breakdown,
    ExportRow,
    agent_table,
    breakdown,
    run_table,
)
from inspector.services.labels.views import SampleWhere, view_rows

Key = Callable[[SampleOutcome], str]
UNKNOWN = "unknown"


def framework_key(s: SampleOutcome) -> str:
    return s.framework or UNKNOWN


def language_key(s: SampleOutcome) -> str:
    return s.language or UNKNOWN


def tier_key(tier_of: Callable[[str], str]) -> Key:
    """Group by the task's difficulty tier as ``tier_of(task name)`` gives it."""
    return lambda s: tier_of(s.task) or UNKNOWN


@dataclass(frozen=True, slots=True)
class GroupPass:
    """Pass@1 of one run's samples in one group."""

    run_key: str
    run_id: str
    group: str
    tasks: int
    samples: int
    strict: float
    stock: float | None  # None: no sample of the group counted a test
    counted: int  # samples whose suite counted tests (the stock average's denominator)

    def to_json(self) -> dict[str, Any]:
        return {"run_key": self.run_key, "run_id": self.run_id, "group": self.group,
                "tasks": self.tasks, "samples": self.samples,
                "pass_at_1": round(self.strict, 4),
                "stock_pass_at_1": None if self.stock is None else round(self.stock, 4),
                "samples_with_tests": self.counted}


def pass_at_1_by(runs: Iterable[RunOutcomes], key: Key) -> list[GroupPass]:
    """Strict and stock Pass@1 per run and per ``key`` group, in run order then group name."""
    out = []
    for run in runs:
        groups: dict[str, dict[str, list[SampleOutcome]]] = defaultdict(lambda: defaultdict(list))
        for s in run.samples:
            groups[key(s)][s.task].append(s)
        for name in sorted(groups):
            tasks = groups[name]
            samples = [s for ss in tasks.values() for s in ss]
            counted = [s.test_ratio for s in samples if s.total > 0]
            out.append(GroupPass(run.key, run.run_id, name, len(tasks), len(samples),
                                 strict_pass_at_1(tasks.values()),
                                 sum(counted) / len(counted) if counted else None,
                                 len(counted)))
    return out


def pass_at_1_tables(runs: list[RunOutcomes], tier_of: Callable[[str], str] | None = None
                     ) -> dict[str, list[GroupPass]]:
    """Pass@1 per run by framework, by language and, with ``tier_of``, by difficulty tier."""
    tables = {"by_framework": pass_at_1_by(runs, framework_key),
              "by_language": pass_at_1_by(runs, language_key)}
    if tier_of is not None:
        tables["by_tier"] = pass_at_1_by(runs, tier_key(tier_of))
    return tables


def label_rows(labels: LabelSet, runs: Iterable[RunOutcomes], view: str = DEFAULT_VIEW,
               order: Sequence[str] = ()) -> tuple[list[ExportRow], int]:
    """The rows ``view``'s tables count (:func:`inspector.services.labels.views.view_rows`:
    per sample, per root cause or per test) for the samples among ``runs``, and how many
    units belong to samples elsewhere. ``order``: the taxonomy's ids."""
    where = {s.sample_id: SampleWhere(run.run_id, run.agent, run.model, s.language, s.task)
             for run in runs for s in run.samples}
    found = view_rows(labels, view, order, where)
    return found.rows, found.outside


def category_tables(rows: list[ExportRow], taxonomy: Taxonomy, runs: Iterable[RunOutcomes],
                    tier_of: Callable[[str], str] | None = None, view: str = ""
                    ) -> dict[str, Breakdown]:
    """Failure categories by agent, by run, by framework (and by tier with ``tier_of``);
    ``rows`` are the units of ``view`` (:func:`label_rows`), which each title says."""
    framework = {s.sample_id: s.framework for run in runs for s in run.samples}
    tables = {
        "by_agent": agent_table(rows, taxonomy, view),
        "by_run": run_table(rows, taxonomy, view),
        "by_framework": breakdown(rows, taxonomy, lambda r: framework.get(r.sample, ""),
                                  "Failure categories by framework", view=view),
    }
    if tier_of is not None:
        tables["by_tier"] = breakdown(rows, taxonomy, lambda r: tier_of(r.task),
                                      "Failure categories by difficulty tier", view=view)
    return tables
