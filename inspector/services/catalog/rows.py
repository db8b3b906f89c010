"""A run's index rows: what the catalog stores of a run, its samples and their tests.

Computed in the app's process or in a catalog worker (:mod:`.load`), stored by
:class:`~inspector.services.catalog.index.Catalog`.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from inspector.model.results.sample import Generation
from inspector.model.results.verdict import verdict_of

if TYPE_CHECKING:
    from inspector.model.benchmark.task import Task
    from inspector.model.results.run import Run
    from inspector.model.results.sample import SampleResult
    from inspector.model.runs.discover import RunLocation

MESSAGE_CHARS = 300
_Row = tuple[Any, ...]  # one sqlite row: sqlite3 types its values as Any


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:MESSAGE_CHARS]
    return ""


def sample_message(s: SampleResult, task: Task | None = None) -> str:
    """The most telling one-line reason a sample failed ("" when it passed): for a suite that
    did not run (fully), the first cause line pytest printed and the file:line it points at."""
    # start-up: this module loads with the first screen, services.suite.cause need not
    from inspector.services.suite.cause import cause_of

    if s.passed:
        return ""
    if s.not_evaluable is not None:
        return _first_line(f"not evaluable: {s.not_evaluable.reason}")
    if not s.deployment.success:
        return _first_line(s.deployment.message or s.build_error or s.error or "")
    cause = cause_of(s, task)
    if cause is not None:
        where = f" ({cause.location})" if cause.location else ""
        return _first_line(f"{cause.text}{where}")
    for c in s.tests.cases:
        if c.outcome.is_failure:
            return f"{c.id}: {c.first_message_line}"[:MESSAGE_CHARS]
    if s.error:
        return _first_line(s.error)
    t = s.tests
    if t.total == 0:
        return "no test was collected or counted"
    bad = t.failed + t.errors
    return (f"{bad} of {t.total} tests failed (this format kept only counts)"
            if not t.has_cases else f"{bad} of {t.total} tests failed")


RunRows = tuple["_Row", list[tuple["_Row", list["_Row"]]]]
"""One run's index rows: the run row, and each sample row with its test rows."""


def run_rows(loc: RunLocation, run: Run) -> RunRows:
    """The index rows of ``run`` (metrics, verdicts, tampering scan included)."""
    # start-up: this module loads with the first screen, model.twins need not
    from inspector.model.runs.twins import STOCK, content_key, recorded_twins
    from inspector.services.figures.metrics import compute_run_metrics
    from inspector.services.tamper.findings import sample_tampering

    metrics = compute_run_metrics(run)
    key = f"{loc.path}#{run.id}"
    samples = []
    failures = 0
    for s in run.samples:
        v = verdict_of(s)
        failures += v.is_failure
        ac = s.api_coverage
        phase = s.deployment.failed_phase.value if s.deployment.failed_phase else ""
        if not s.deployment.success and not phase:
            phase = "deploy"
        sample_row = (
            key, run.id, run.agent, run.model, s.sample_id, s.task, s.sample, s.language,
            s.framework, v.value, phase, s.tests.passed, s.tests.failed, s.tests.errors,
            s.tests.skipped, s.tests.total, s.tests.expected, s.tests.status.value,
            s.tests.collection_errors, ac.implemented_apis if ac else None,
            ac.required_apis if ac else None, sample_message(s, run.tasks.get(s.task)),
            str(s.source_file) if s.source_file else None,
            str(s.repo_path) if s.repo_path else None, s.elapsed_seconds, int(s.tests.has_cases),
            int(s.deployment.success),
            json.dumps([f.to_json() for f in sample_tampering(s, run.tasks.get(s.task))]),
            *_generation_row(s.generation),
        )
        tests = [(i, c.id, c.outcome.value, c.duration_seconds,
                  c.first_message_line[:MESSAGE_CHARS] if c.outcome.is_failure else "",
                  c.file, c.line) for i, c in enumerate(s.tests.cases)]
        samples.append((sample_row, tests))
    run_row = (key, str(loc.path), run.id, run.agent, run.model, run.language,
               run.source.format, run.date, str(run.source.path), run.source.harness,
               json.dumps(asdict(metrics)), json.dumps(list(run.notes)), run.status, failures,
               content_key(run), json.dumps([str(p) for p in (
                   () if run.source.format == STOCK else recorded_twins(run.source.path))]),
               None, None)
    return run_row, samples


def _generation_row(g: Generation | None) -> tuple[float | None, int | None, int | None,
                                                   float | None]:
    if g is None:
        return None, None, None, None
    return g.seconds, g.input_tokens, g.output_tokens, g.cost_usd
