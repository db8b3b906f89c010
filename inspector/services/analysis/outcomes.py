"""One light record per sample — what the run analyses need — from a loaded run or the catalog.

The analyses (:mod:`.compare`, :mod:`.breakdown`, :mod:`.cost`) work on these records, so they
run the same on a :class:`~inspector.model.results.run.Run` loaded from disk and on the catalog's
index (:class:`~inspector.model.results.entries.SampleEntry`), which answers for a 10,000-sample
corpus in a fraction of a second where loading every ``result.json`` takes many seconds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from inspector.model.results.entries import RunEntry, SampleEntry
from inspector.model.results.run import Run
from inspector.model.results.sample import Generation
from inspector.services.figures.metrics import strict_passed


@dataclass(frozen=True, slots=True)
class SampleOutcome:
    """A sample's verdict, test counts, task attributes and generation record."""

    run_key: str  # unique among the runs analysed (catalog key, or the run id)
    run_id: str
    agent: str
    model: str
    task: str
    sample: int
    language: str
    framework: str
    strict_pass: bool  # every test passed and the suite ran (the paper's Pass@1 verdict)
    passed: int
    total: int  # counted tests, the stock rule (passed + failed + errors)
    generation: Generation | None = None

    @property
    def sample_id(self) -> str:
        return f"{self.run_id}/{self.task}/{self.sample}"

    @property
    def test_ratio(self) -> float:
        """Share of counted tests that passed; 0 when no test was counted."""
        return self.passed / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class RunOutcomes:
    """One run's identity and its samples' outcomes."""

    key: str
    run_id: str
    agent: str
    model: str
    language: str
    format: str
    samples: tuple[SampleOutcome, ...]  # the evaluable samples: the figures are over these
    # ids of the samples the infrastructure left without a verdict: left out of every figure
    not_evaluable: tuple[str, ...] = ()
    # files of the run that could not be read (RunMetrics.unreadable_samples): not in samples
    unreadable: tuple[dict[str, Any], ...] = ()

    @property
    def label(self) -> str:
        return f"{self.agent} ({self.model})" if self.model else self.agent

    def by_task(self) -> dict[str, list[SampleOutcome]]:
        """Samples per task, each list sorted by sample number."""
        out: dict[str, list[SampleOutcome]] = defaultdict(list)
        for s in sorted(self.samples, key=lambda s: (s.task, s.sample)):
            out[s.task].append(s)
        return dict(out)


def from_run(run: Run, key: str | None = None) -> RunOutcomes:
    """The outcomes of a loaded run (framework from the sample, else from its task)."""
    key = key or run.id
    samples = []
    for s in run.samples:
        if s.not_evaluable is not None:
            continue
        task = run.tasks.get(s.task)
        framework = s.framework or (task.framework if task is not None else "")
        samples.append(SampleOutcome(
            run_key=key, run_id=run.id, agent=run.agent, model=run.model, task=s.task,
            sample=s.sample, language=s.language or run.language, framework=framework,
            strict_pass=strict_passed(s), passed=s.tests.passed, total=s.tests.total,
            generation=s.generation))
    return RunOutcomes(key, run.id, run.agent, run.model, run.language, run.source.format,
                       tuple(samples), tuple(s.sample_id for s in run.samples
                                             if s.not_evaluable is not None),
                       tuple(u.to_json(run.source.path.parent) for u in run.unreadable))


def not_evaluable_ids(run: RunEntry) -> tuple[str, ...]:
    """The sample ids an indexed run's metrics list as not evaluable."""
    rows = run.metrics.get("not_evaluable_samples") or ()
    return tuple(str(r["sample_id"]) for r in rows if isinstance(r, dict) and "sample_id" in r)


def entry_passed(e: SampleEntry) -> bool:
    """:func:`~inspector.services.figures.metrics.strict_passed` from the index's counts."""
    return e.total > 0 and e.passed == e.total and not e.collection_errors


def from_entries(run: RunEntry, samples: Iterable[SampleEntry]) -> RunOutcomes:
    """The outcomes of a run from the catalog's sample entries."""
    skip = not_evaluable_ids(run)
    out = tuple(SampleOutcome(
        run_key=run.key, run_id=e.run_id, agent=e.agent, model=e.model, task=e.task,
        sample=e.sample, language=e.language or run.language, framework=e.framework,
        strict_pass=entry_passed(e), passed=e.passed, total=e.total, generation=e.generation)
        for e in samples if e.run_key == run.key and e.sample_id not in skip)
    return RunOutcomes(run.key, run.run_id, run.agent, run.model, run.language, run.format, out,
                       skip, tuple(run.metrics.get("unreadable_samples") or ()))


def from_outcome_rows(runs: list[RunEntry], rows: Iterable[tuple[Any, ...]]
                      ) -> list[RunOutcomes]:
    """Every run's outcomes from :meth:`~inspector.services.catalog.index.Catalog.outcome_rows`
    (columns as :data:`~inspector.services.catalog.index.OUTCOME_COLUMNS`)."""
    info = {r.key: r for r in runs}
    skip = {r.key: set(not_evaluable_ids(r)) for r in runs}
    per_run: dict[str, list[SampleOutcome]] = defaultdict(list)
    for (key, task, sample, language, framework, passed, total, coll,
         g_sec, g_in, g_out, g_cost) in rows:
        run = info.get(key)
        if run is None or f"{run.run_id}/{task}/{sample}" in skip[key]:
            continue
        gen = None
        if g_sec is not None or g_in is not None or g_out is not None or g_cost is not None:
            gen = Generation(g_sec, g_in, g_out, g_cost)
        per_run[key].append(SampleOutcome(
            run_key=key, run_id=run.run_id, agent=run.agent, model=run.model, task=task,
            sample=sample, language=language or run.language, framework=framework or "",
            strict_pass=total > 0 and passed == total and not coll, passed=passed,
            total=total, generation=gen))
    return [RunOutcomes(r.key, r.run_id, r.agent, r.model, r.language, r.format,
                        tuple(per_run.get(r.key, ())), not_evaluable_ids(r),
                        tuple(r.metrics.get("unreadable_samples") or ())) for r in runs]
