"""Light rows the app lists: one per run, sample and test, as kept in the catalog index.

They carry just what lists, filters, the matrix and benchmark-health need; the full
:class:`~inspector.model.results.sample.SampleResult` is loaded from disk when a sample is opened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.model.repo.tampering import TamperFinding
from inspector.model.results.sample import Generation
from inspector.model.results.verdict import Verdict


@dataclass(frozen=True, slots=True)
class RunEntry:
    """One run with its headline metrics (``metrics`` is ``RunMetrics`` as a dict)."""

    key: str  # unique within a catalog: "<location path>#<run id>"
    run_id: str
    agent: str
    model: str
    language: str
    format: str
    date: str | None
    source_path: Path
    harness: str
    location: Path
    metrics: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    status: str | None = None  # our format: running / complete / cancelled
    failures: int = 0  # failing samples
    # Stock twins (model/twins.py): the key of the run this one is in another format (a
    # twin, left out of lists and counts), how it was linked; and a run's own twins as
    # (key, source path)
    twin_of: str | None = None
    twin_how: str = ""
    twins: tuple[tuple[str, Path], ...] = ()

    @property
    def short_format(self) -> str:
        return "stock" if self.format == "repogenesis" else "ours"


@dataclass(frozen=True, slots=True)
class SampleEntry:
    """One sample (a generated repo's evaluation) as the lists show it."""

    key: int  # catalog row id
    run_key: str
    run_id: str
    agent: str
    model: str
    sample_id: str
    task: str
    sample: int
    language: str
    framework: str
    verdict: Verdict
    failed_phase: str  # install/start/health/tests, "" when nothing failed
    passed: int
    failed: int
    errors: int
    skipped: int
    total: int
    expected: int | None
    suite_status: str
    collection_errors: int
    ac_implemented: int | None
    ac_total: int | None
    message: str  # the most telling error line, already one line
    result_path: Path | None
    repo_path: Path | None
    elapsed: float | None
    has_cases: bool
    deployed: bool  # install, start and health check succeeded
    # tampering attempts (recorded, or found by scanning the repo when indexed)
    tampering: tuple[TamperFinding, ...] = ()
    generation: Generation | None = None  # generation time, tokens, cost when recorded

    @property
    def tampering_deliberate(self) -> bool:
        return any(f.deliberate for f in self.tampering)

    @property
    def tests_label(self) -> str:
        return f"{self.passed}/{self.total}" if self.total else "0"


@dataclass(frozen=True, slots=True)
class TestEntry:
    """One test case of one sample."""

    __test__ = False

    test_id: str
    outcome: str
    duration: float | None
    message: str
    file: str | None
    line: int | None
