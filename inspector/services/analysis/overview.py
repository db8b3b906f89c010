"""The whole run analysis of a folder in one object: what the app's Analysis tab, ``inspector
analyze --runs`` and the exports show.

:func:`build_overview` combines the runs' outcomes (:mod:`.outcomes`), every task's spec
complexity and difficulty (:mod:`.tasks`), Pass@1 by framework, language and difficulty tier
(:mod:`.breakdown`), the failure categories of the labels, and generation cost vs pass
(:mod:`.cost`). A task's tier is its RepoGenesis difficulty when a reference implementation
exists (Easy/Medium/Hard), else its spec-complexity tier, named so ("spec low" …): the two
scales are never mixed up under one name.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.model.benchmark.task import Task
from inspector.model.labels.labelset import LabelSet
from inspector.model.labels.rollup import DEFAULT_VIEW, VIEW_TEXT, VIEW_UNIT
from inspector.model.labels.taxonomy import Taxonomy
from inspector.services.analysis.breakdown import (
    GroupPass,
    category_tables,
    label_rows,
    pass_at_1_tables,
)
from inspector.services.analysis.cost import CostSummary, cost_summary
from inspector.services.analysis.outcomes import RunOutcomes
from inspector.services.labels.export import Breakdown, breakdown_to_json

if TYPE_CHECKING:  # tasks loads the code-metrics libraries: only when tasks are scored
    from inspector.services.analysis.tasks import TaskAnalysis

Step = Callable[[str, int, int], None]
"""Progress: (what, done, total)."""

SPEC_PREFIX = "spec "
TIER_ORDER = ("Easy", "Medium", "Hard", "spec low", "spec medium", "spec high")


class Cancelled(Exception):
    """The caller asked the analysis to stop."""


def tier_sort_key(tier: str) -> tuple[int, str]:
    """Easy < Medium < Hard < spec low < spec medium < spec high < anything else."""
    return (TIER_ORDER.index(tier), "") if tier in TIER_ORDER else (len(TIER_ORDER), tier)


def tier_name(task: TaskAnalysis) -> str:
    """The task's difficulty label with a reference implementation, else ``spec <tier>``."""
    if task.difficulty.score is not None:
        return task.difficulty.label
    return SPEC_PREFIX + task.spec.tier


@dataclass(frozen=True, slots=True)
class LabelInput:
    """Labels to break failures down by: the set, its taxonomy and where it was read."""

    labels: LabelSet
    taxonomy: Taxonomy
    folder: Path


@dataclass(frozen=True, slots=True)
class CategoryTables:
    """Failure categories by agent, run, framework and tier, from the final labels rolled up
    in one view (:mod:`inspector.model.labels.rollup`)."""

    tables: dict[str, Breakdown]
    taxonomy: Taxonomy
    folder: Path
    labelled: int  # units of the view (samples, roots or tests) among the runs
    outside: int  # units of labelled samples elsewhere
    view: str = DEFAULT_VIEW  # what a unit is: inspector.model.labels.rollup.VIEWS

    @property
    def unit(self) -> str:
        """``samples``, ``root causes`` or ``tests``."""
        return VIEW_UNIT[self.view]

    @property
    def view_text(self) -> str:
        return VIEW_TEXT[self.view]

    def to_json(self) -> dict[str, Any]:
        return {"labels": str(self.folder), "view": self.view, "view_text": self.view_text,
                "labelled": self.labelled, "outside": self.outside,
                **{name: breakdown_to_json(t, self.taxonomy) for name, t in self.tables.items()}}


@dataclass
class Overview:
    """Every run's outcomes and the breakdowns of them."""

    root: Path
    runs: list[RunOutcomes]
    tasks: dict[str, TaskAnalysis]
    tiers: dict[str, str]  # task -> tier name (see :func:`tier_name`)
    passes: dict[str, list[GroupPass]]  # by_framework, by_language, by_tier
    costs: list[CostSummary]
    categories: CategoryTables | None
    seconds: float = 0.0
    issues: list[str] = field(default_factory=list)

    def tier_of(self, task: str) -> str:
        return self.tiers.get(task, "unknown")

    @property
    def samples(self) -> int:
        """Evaluable samples: what every figure is over."""
        return sum(len(r.samples) for r in self.runs)

    @property
    def not_evaluable(self) -> int:
        """Samples the infrastructure left without a verdict, left out of every figure."""
        return sum(len(r.not_evaluable) for r in self.runs)

    def not_evaluable_note(self) -> str:
        """"3 of 67 samples not evaluable (left out of every figure)", or ''."""
        n = self.not_evaluable
        if not n:
            return ""
        return (f"{n} of {self.samples + n} samples not evaluable (the infrastructure, not the "
                "model; left out of every figure: `inspector summary` lists why)")

    @property
    def tier_source(self) -> str:
        """Where the tiers come from, in words."""
        used = {t for t in {s.task for r in self.runs for s in r.samples}}
        ref = sum(1 for t in used if t in self.tasks
                  and self.tasks[t].difficulty.score is not None)
        spec = sum(1 for t in used if t in self.tasks) - ref
        parts = []
        if ref:
            parts.append(f"{ref} task(s) by RepoGenesis difficulty from a reference "
                         "implementation")
        if spec:
            parts.append(f"{spec} task(s) by spec complexity, having no reference "
                         "implementation")
        missing = len(used) - ref - spec
        if missing:
            parts.append(f"{missing} task(s) without a README: unknown")
        return "; ".join(parts) or "no tasks"

    def tier_names(self) -> list[str]:
        """The tiers that occur, easiest first."""
        return sorted({g.group for g in self.passes.get("by_tier", [])}, key=tier_sort_key)

    def pairable(self) -> list[tuple[RunOutcomes, RunOutcomes, int]]:
        """Pairs of runs with tasks in common (a, b, common): pairs of different agents or
        models first (a run and its re-run are the least informative pair), then the ones
        with the most tasks in common."""
        tasks = [set(r.by_task()) for r in self.runs]
        out = []
        for i, a in enumerate(self.runs):
            for j in range(i + 1, len(self.runs)):
                common = len(tasks[i] & tasks[j])
                if common:
                    out.append((a, self.runs[j], common))
        out.sort(key=lambda p: (p[0].label == p[1].label, -p[2]))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "root": str(self.root),
            "runs": [{"key": r.key, "run_id": r.run_id, "agent": r.agent, "model": r.model,
                      "language": r.language, "format": r.format,
                      "tasks": len(r.by_task()), "samples": len(r.samples),
                      "not_evaluable": list(r.not_evaluable),
                      "unreadable": len(r.unreadable),
                      "unreadable_samples": list(r.unreadable)} for r in self.runs],
            "not_evaluable": self.not_evaluable,
            "tiers": dict(sorted(self.tiers.items())),
            "tier_source": self.tier_source,
            "pass_at_1": {name: [g.to_json() for g in groups]
                          for name, groups in self.passes.items()},
            "categories": None if self.categories is None else self.categories.to_json(),
            "cost": [c.to_json() for c in self.costs],
        }


def _tick(step: Step | None, cancelled: Callable[[], bool] | None, what: str, done: int,
          total: int) -> None:
    if cancelled is not None and cancelled():
        raise Cancelled(what)
    if step is not None:
        step(what, done, total)


def analyze_used_tasks(runs: Iterable[RunOutcomes], tasks: Mapping[str, Task],
                       oracle_dir: Path | None = None, step: Step | None = None,
                       cancelled: Callable[[], bool] | None = None
                       ) -> dict[str, TaskAnalysis]:
    """The spec complexity and difficulty of every task the runs used (and that has a README
    in ``tasks``); spec scores come from the cache (:mod:`.spec_cache`) when the README and
    the code that reads it are unchanged."""
    from inspector.services.analysis.spec_cache import SpecCache
    from inspector.services.analysis.tasks import analyze_task

    used = sorted({s.task for r in runs for s in r.samples} & set(tasks))
    specs = SpecCache()
    out: dict[str, TaskAnalysis] = {}
    try:
        for i, name in enumerate(used):
            _tick(step, cancelled, "scoring task READMEs", i, len(used))
            task = tasks[name]
            out[name] = analyze_task(task, oracle_dir, specs.score(task.name, task.readme))
    finally:
        specs.save()  # what was scored before a cancel is kept
    return out


def build_overview(root: Path, runs: list[RunOutcomes], tasks: Mapping[str, TaskAnalysis],
                   labels: LabelInput | None = None, *, step: Step | None = None,
                   cancelled: Callable[[], bool] | None = None,
                   issues: Iterable[str] = (), view: str = DEFAULT_VIEW) -> Overview:
    """The breakdowns of ``runs`` with the tiers of ``tasks`` and the categories of
    ``labels`` counted in ``view``. Raises :class:`Cancelled` when ``cancelled()`` turns
    true."""
    started = time.perf_counter()
    tiers = {name: tier_name(t) for name, t in tasks.items()}

    def tier_of(task: str) -> str:
        return tiers.get(task, "unknown")

    _tick(step, cancelled, "Pass@1 by framework, language and tier", 0, 3)
    passes = pass_at_1_tables(runs, tier_of)
    _tick(step, cancelled, "generation cost", 1, 3)
    costs = [cost_summary(r) for r in runs]
    categories = None
    if labels is not None and (labels.labels.files or labels.labels.adjudication is not None):
        _tick(step, cancelled, "failure categories", 2, 3)
        rows, outside = label_rows(labels.labels, runs, view, list(labels.taxonomy.ids))
        categories = CategoryTables(category_tables(rows, labels.taxonomy, runs, tier_of, view),
                                    labels.taxonomy, labels.folder, len(rows), outside, view)
    _tick(step, cancelled, "done", 3, 3)
    return Overview(root, runs, dict(tasks), tiers, passes, costs, categories,
                    time.perf_counter() - started, list(issues))
