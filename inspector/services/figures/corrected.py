"""Corrected figures: pass@1 and test pass with the errata's tests left out, beside the
official figures (:mod:`inspector.services.figures.metrics`), never instead of them.

The rules (``docs/errata.md``):

* a test named by an entry of the errata (or inside a file, class or function an entry names:
  :func:`inspector.model.labels.errata.covers`) is left out of **every** sample of its task, in
  every run, whether it passed or failed there: a defect of the task's test is the task's, so all
  runs are judged on the same tests;
* a task is **dropped** (out of every denominator) when every test of its suite is left out;
  its suite is every test id with a pass/fail/error outcome in any sample of the task in the
  runs given, plus the ids the errata recorded for it;
* a sample passes when the tests left to it all pass (at least one: a sample left with none
  counts as failed, as a suite that ran no test does officially) — pass@1 is the mean over
  kept tasks of the share of passing samples; test pass is the mean of passed/total over
  samples left with a test;
* a sample no entry touches keeps its official counts exactly, so with an empty errata the
  corrected figures equal the official ones;
* a run that kept only counts (a stock report) has no corrected figures when an entry touches
  one of its tests' tasks (the tests cannot be found in its results).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from inspector.model import Run, SampleResult, SuiteStatus
from inspector.model.labels.errata import Errata, covers
from inspector.model.results.outcomes import Outcome

COUNTED = (Outcome.PASSED, Outcome.FAILED, Outcome.ERROR)


@dataclass
class CorrectedMetrics:
    """One run's corrected figures (``None`` when they cannot be computed: ``note`` says
    why) and what was left out of them."""

    run_id: str
    pass_at_1: float | None
    test_pass_ratio: float | None
    tasks: int
    samples: int
    samples_passed: int = 0
    tasks_dropped: list[str] = field(default_factory=list)
    tests_left_out: int = 0
    """Distinct test ids of this run's results left out."""
    results_left_out: int = 0
    """Test results (passed, failed or error) left out, over every sample."""
    failures_left_out: int = 0
    """Of those, the failed or error ones."""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Corrections:
    """The corrected figures of every run, and what of the errata did not fit the runs."""

    runs: list[CorrectedMetrics]
    entries: int
    dropped_tasks: list[str]
    tasks_not_in_runs: list[str]
    """Tasks of entries that no run holds."""
    tests_not_seen: list[str]
    """``task::test`` of entries whose task is in the runs but no result of it holds the
    test (among runs with per-test results)."""
    disputed: int
    """Entries whose test some sample's final label calls a model failure."""

    def by_run(self) -> dict[str, CorrectedMetrics]:
        return {m.run_id: m for m in self.runs}

    def to_json(self) -> dict[str, Any]:
        return {"entries": self.entries, "dropped_tasks": self.dropped_tasks,
                "tasks_not_in_runs": self.tasks_not_in_runs,
                "tests_not_seen": self.tests_not_seen, "disputed": self.disputed}


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def observed_suites(runs: list[Run], *, counted: bool = True) -> dict[str, set[str]]:
    """task -> every test id with a pass/fail/error outcome in any sample of it (with
    ``counted=False``: any outcome, skipped too)."""
    out: dict[str, set[str]] = defaultdict(set)
    for run in runs:
        for s in run.samples:
            out[s.task].update(c.id for c in s.tests.cases
                               if not counted or c.outcome in COUNTED)
    return dict(out)


def _covered(excluded: list[str], test_id: str) -> bool:
    return any(covers(x, test_id) for x in excluded)


def dropped_tasks(errata: Errata, suites: dict[str, set[str]]) -> list[str]:
    """Tasks whose whole (non-empty) suite the errata leaves out."""
    excluded = errata.excluded()
    return sorted(t for t, ids in suites.items()
                  if ids and t in excluded and all(_covered(excluded[t], i) for i in ids))


@dataclass
class _Sample:
    passed: bool
    score: float | None  # None: no test left (not in the test pass mean)
    left_out: set[str] = field(default_factory=set)
    results: int = 0
    failures: int = 0


def _sample(s: SampleResult, excluded: list[str]) -> _Sample | None:
    """``s`` with ``excluded`` left out; None when it only kept counts and loses tests."""
    official = _Sample(s.tests.all_passed and s.tests.status is not SuiteStatus.NOT_RUN,
                       s.tests.score if s.tests.total > 0 else None)
    if not excluded:
        return official
    gone = [c for c in s.tests.cases if c.outcome in COUNTED and _covered(excluded, c.id)]
    if not gone:
        return official if s.tests.has_cases or s.tests.total == 0 else None
    passed = s.tests.passed - sum(c.outcome is Outcome.PASSED for c in gone)
    total = s.tests.total - len(gone)
    return _Sample(total > 0 and passed == total, round(passed / total, 4) if total > 0
                   else None, {c.id for c in gone}, len(gone),
                   sum(c.outcome is not Outcome.PASSED for c in gone))


def corrected_run(run: Run, errata: Errata, dropped: list[str]) -> CorrectedMetrics:
    """One run's corrected figures (see the module docstring)."""
    excluded = errata.excluded()
    by_task: dict[str, list[_Sample]] = defaultdict(list)
    # the official figures' samples: not-evaluable ones are in neither (services/metrics.py)
    evaluable = [s for s in run.samples if s.not_evaluable is None]
    run_dropped = sorted({s.task for s in evaluable} & set(dropped))
    blocked = []
    for s in evaluable:
        if s.task in dropped:
            continue
        one = _sample(s, excluded.get(s.task, []))
        if one is None:
            blocked.append(s.task)
            continue
        by_task[s.task].append(one)
    samples = [x for xs in by_task.values() for x in xs]
    m = CorrectedMetrics(
        run.id, None, None, tasks=len(set(by_task) | set(blocked)),
        samples=len(samples) + len(blocked),
        samples_passed=sum(x.passed for x in samples), tasks_dropped=run_dropped,
        tests_left_out=len(set().union(*(x.left_out for x in samples))),
        results_left_out=sum(x.results for x in samples),
        failures_left_out=sum(x.failures for x in samples))
    if blocked:
        m.note = ("counts only (no per-test results): the left-out tests of "
                  f"{', '.join(sorted(set(blocked)))} cannot be found in its results")
        return m
    if not samples:
        m.note = "no evaluable sample: no figure"
        return m
    m.pass_at_1 = _mean([sum(x.passed for x in xs) / len(xs) for xs in by_task.values()])
    m.test_pass_ratio = _mean([x.score for x in samples if x.score is not None])
    return m


def apply_errata(runs: list[Run], errata: Errata) -> Corrections:
    """The corrected figures of ``runs`` under ``errata``, and which entries fit no run."""
    seen = observed_suites(runs)
    suites = {t: set(ids) for t, ids in seen.items()}
    for task, ids in errata.suites().items():
        suites.setdefault(task, set()).update(ids)
    dropped = dropped_tasks(errata, suites)
    tasks_in_runs = {s.task for r in runs for s in r.samples}
    with_cases = {s.task for r in runs for s in r.samples if s.tests.has_cases}
    recorded = observed_suites(runs, counted=False)
    absent = sorted({e.task for e in errata.entries} - tasks_in_runs)
    unseen = sorted(f"{e.task}::{e.test}" for e in errata.entries
                    if e.task in with_cases and not any(covers(e.test, i)
                                                        for i in recorded.get(e.task, ())))
    return Corrections([corrected_run(r, errata, dropped) for r in runs], len(errata.entries),
                       dropped, absent, unseen, sum(e.disputed for e in errata.entries))
