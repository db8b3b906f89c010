"""Every failing test or failed deployment across runs: the scripting view of failures."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from inspector.model import Run, SampleResult, SuiteStatus, Task
from inspector.model.repo.tampering import TamperFinding
from inspector.model.suite.pytest_output import exit_meaning
from inspector.services.suite.cause import cause_of
from inspector.services.tamper.findings import finding_line, sample_tampering


@dataclass(frozen=True)
class FailureRow:
    run_id: str
    task: str
    sample: int | None  # None only on an unreadable row whose file did not say
    sample_id: str
    test_id: str | None
    # failed | error | deploy_failed | suite_not_run | suite_incomplete | counts |
    # tampering_attempt (findings reported on the sample; never part of its verdict) |
    # not_evaluable (the infrastructure left it without a verdict: no failure of the model)
    # unreadable (its file could not be read: ``file`` and the whole reason; no verdict)
    outcome: str
    message: str
    phase: str | None = None
    file: str | None = None
    line: int | None = None
    cause: str | None = None  # suite rows: kind of SuiteCause (conftest_error, …)
    context: str | None = None  # suite rows: where the cause happened
    exit_code: int | None = None  # suite rows: pytest's exit code
    tampering: tuple[TamperFinding, ...] = ()  # tampering rows: every finding

    @property
    def deliberate(self) -> bool:
        return any(f.deliberate for f in self.tampering)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["tampering"]
        if self.tampering:
            out["deliberate"] = self.deliberate
            out["tampering"] = [f.to_json() for f in self.tampering]
        return out


def _first_line(text: str, limit: int = 300) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()[:limit]
    return ""


def sample_failures(s: SampleResult, task: Task | None = None) -> list[FailureRow]:
    """Failure rows of one sample; ``task`` locates files a suite's cause points at."""
    rows: list[FailureRow] = []

    def row(test_id: str | None, outcome: str, message: str, **kw: Any) -> None:
        rows.append(FailureRow(s.run_id, s.task, s.sample, s.sample_id, test_id, outcome,
                               _first_line(message), **kw))

    dep = s.deployment
    if not dep.success:
        row(None, "deploy_failed", dep.message or s.build_error or s.error or "did not deploy",
            phase=dep.failed_phase.value if dep.failed_phase else None)
    status = s.tests.status
    if s.tests.has_cases:
        for c in s.tests.cases:
            if c.outcome.is_failure:
                row(c.id, c.outcome.value, c.first_message_line or c.outcome.value,
                    phase="tests", file=c.file, line=c.line)
    elif s.tests.failed or s.tests.errors:
        row(None, "counts", f"{s.tests.failed} failed, {s.tests.errors} errors of "
            f"{s.tests.total} (the report keeps counts only, no test ids)", phase="tests")
    cause = cause_of(s, task)
    extra: dict[str, Any] = {}
    if cause is not None:
        extra = {"file": cause.file, "line": cause.line, "cause": cause.kind,
                 "context": cause.context, "exit_code": s.exit_code}
    if dep.success and status is SuiteStatus.NOT_RUN:
        why = cause.text if cause else (
            f"no test was collected or counted (pytest exit {s.exit_code}: "
            f"{exit_meaning(s.exit_code)})" if s.tests.has_cases else
            "no test was collected or counted")
        row(None, "suite_not_run", why, phase="tests", **extra)
    elif status is SuiteStatus.INCOMPLETE:
        exp = s.tests.expected
        why = (f"{s.tests.collection_errors} test file(s) failed to collect"
               if s.tests.collection_errors else
               f"only {s.tests.total} of about {exp} tests counted")
        if cause is not None:
            why += f": {cause.text}"
        row(None, "suite_incomplete", why, phase="tests", **extra)
    found = sample_tampering(s, task)
    if found:
        more = f" (+{len(found) - 1} more)" if len(found) > 1 else ""
        rows.append(FailureRow(s.run_id, s.task, s.sample, s.sample_id, None,
                               "tampering_attempt",
                               _first_line(finding_line(found[0]), 300 - len(more)) + more,
                               file=found[0].path or None, tampering=found))
    return rows


def list_failures(runs: list[Run]) -> list[FailureRow]:
    out: list[FailureRow] = []
    for run in runs:
        for s in sorted(run.samples, key=lambda s: (s.task, s.sample)):
            ne = s.not_evaluable
            if ne is not None:  # no verdict: nothing here is the model's failure
                out.append(FailureRow(
                    s.run_id, s.task, s.sample, s.sample_id, None, "not_evaluable",
                    _first_line(f"{ne.kind}{' (inferred)' if ne.inferred else ''}: "
                                f"{ne.reason}"), cause=ne.kind))
                continue
            out.extend(sample_failures(s, run.tasks.get(s.task)))
        out.extend(unreadable_rows(run))
    return out


def unreadable_rows(run: Run) -> list[FailureRow]:
    """One ``unreadable`` row per sample (or run file) of ``run`` that could not be read:
    the file (relative to the run's folder) and the whole reason, never cut."""
    base = run.source.path.parent
    rows = []
    for u in run.unreadable:
        sample_id = "/".join(str(p) for p in (run.id, u.task, u.sample) if p not in ("", None))
        rows.append(FailureRow(run.id, u.task, u.sample, sample_id, None, "unreadable",
                               u.reason, file=u.shown_file(base)))
    return rows
