"""Per-sample results: deployment phases, test cases, API coverage with evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from inspector.model.repo.tampering import TamperFinding
from inspector.model.results.outcomes import (
    INCOMPLETE_RATIO,
    Outcome,
    Phase,
    PhaseStatus,
    SuiteStatus,
)


@dataclass(frozen=True, slots=True)
class PhaseResult:
    """One deployment phase: when it ran, how it ended."""

    phase: Phase
    status: PhaseStatus
    started_at: str | None = None  # ISO-8601 with timezone
    duration_seconds: float | None = None
    exit_code: int | None = None
    message: str = ""
    cached: bool = False


@dataclass(frozen=True, slots=True)
class Deployment:
    """Deployment outcome of one sample.

    ``success`` is our strict figure (the port really accepted connections). ``lenient_success``
    is what the stock RepoGenesis harness would have reported (a process still alive at the
    start-up timeout counts as deployed); ``None`` when unknown.
    """

    success: bool
    message: str = ""
    failed_phase: Phase | None = None
    phases: tuple[PhaseResult, ...] = ()
    lenient_success: bool | None = None

    def phase(self, phase: Phase) -> PhaseResult | None:
        return next((p for p in self.phases if p.phase == phase), None)


@dataclass(frozen=True, slots=True)
class TestCase:
    """One test case with its outcome and, for failures, message and traceback."""

    __test__ = False  # keep pytest from collecting this class

    id: str
    outcome: Outcome
    duration_seconds: float | None = None
    message: str = ""
    traceback: str = ""
    file: str | None = None
    line: int | None = None

    @property
    def first_message_line(self) -> str:
        """One line saying why: the message, or for pytest's generic "collection failure" the
        last ``E   …`` line of the traceback (e.g. the ImportError)."""
        if self.message.strip() and self.message.strip() != "collection failure":
            return next(line.strip() for line in self.message.splitlines() if line.strip())
        e_lines = [line[1:].strip() for line in self.traceback.splitlines()
                   if line.startswith("E ") and line[1:].strip()]
        if e_lines:
            return e_lines[-1]
        for text in (self.message, self.traceback):
            for line in text.splitlines():
                if line.strip():
                    return line.strip()
        return ""


CAUSE_KINDS = ("conftest_error", "collection_error", "usage_error", "interrupted",
               "internal_error", "not_collectable", "all_skipped", "no_tests", "timeout",
               "crashed")
"""Kinds of :class:`SuiteCause`, roughly in the order pytest meets them."""


@dataclass(frozen=True, slots=True)
class SuiteCause:
    """Why a suite did not run (or not fully): the first real cause line pytest printed.

    ``text`` is that line (``ModuleNotFoundError: No module named 'pandas'``); ``context`` says
    where it happened (``ImportError while loading conftest tests/conftest.py``); ``file`` and
    ``line`` locate it, ``file`` relative to the repo root (golden tests are under ``tests/``).
    """

    kind: str
    text: str
    context: str = ""
    file: str | None = None
    line: int | None = None

    @property
    def location(self) -> str:
        if not self.file:
            return ""
        return f"{self.file}:{self.line}" if self.line else self.file

    def __str__(self) -> str:
        where = f" ({self.location})" if self.location else ""
        head = f"{self.context}: " if self.context else ""
        return f"{head}{self.text}{where}"


@dataclass(frozen=True, slots=True)
class TestSummary:
    """Counts of a suite run, plus the individual cases when the format keeps them.

    ``total`` follows the stock harness: passed + failed + errors (skips excluded).
    ``has_cases`` is False for formats that only kept counts (RepoGenesis reports).
    """

    __test__ = False

    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    expected: int | None = None
    cases: tuple[TestCase, ...] = ()
    has_cases: bool = False
    collection_errors: int = 0
    reported_total: int | None = None  # as written by the stock harness (Java counts skips)
    reported_score: float | None = None
    cause: SuiteCause | None = None  # why the suite did not run fully (our format only)
    rootdir: str | None = None  # pytest's rootdir relative to the repo root ("." or "tests")

    @property
    def total(self) -> int:
        if self.reported_total is not None:
            return self.reported_total
        return self.passed + self.failed + self.errors

    @property
    def score(self) -> float:
        """Share of counted tests that passed (the stock harness's per-repo Pass@1)."""
        if self.reported_score is not None:
            return self.reported_score
        return round(self.passed / self.total, 4) if self.total else 0.0

    @property
    def all_passed(self) -> bool:
        return self.total > 0 and self.passed == self.total and not self.collection_errors

    @property
    def status(self) -> SuiteStatus:
        if self.total == 0:
            return SuiteStatus.NOT_RUN
        if self.collection_errors:
            return SuiteStatus.INCOMPLETE
        if self.expected and self.total < self.expected * INCOMPLETE_RATIO:
            return SuiteStatus.INCOMPLETE
        return SuiteStatus.RAN

    def failures(self) -> list[TestCase]:
        return [c for c in self.cases if c.outcome.is_failure]


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where in the generated repo an endpoint is implemented."""

    file: str  # relative to the repo root, '/' separated
    line: int
    text: str = ""
    note: str = ""  # where the route's prefixes come from, e.g. "prefix '/api' via app.py:9"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class EndpointCoverage:
    """One README endpoint. ``unresolved`` is non-empty when the only routes that could serve
    it have a path part static analysis cannot know (then ``implemented`` is False, the
    ``evidence`` lists those routes, and the endpoint is left out of the strict figure)."""

    method: str
    path: str
    implemented: bool
    description: str = ""
    evidence: tuple[Evidence, ...] = ()
    unresolved: str = ""
    # Where the README requires it: line (0 unknown), "stock" when the stock extraction sees
    # it too, "spec" when only the spec extraction does ('' in older files), and how the
    # endpoint was read (base path applied, corroborating example, stock's cut path).
    readme_line: int = 0
    source: str = ""
    readme_note: str = ""


@dataclass(frozen=True, slots=True)
class ApiCoverage:
    """API coverage of one sample; ``endpoints`` is None when only the counts were kept."""

    total_apis: int
    implemented_apis: int
    endpoints: tuple[EndpointCoverage, ...] | None = None
    lenient_implemented_apis: int | None = None
    reported_score: float | None = None
    unresolved_apis: int = 0
    # Strict AC is over the spec endpoints (what the README really requires); ``total_apis``
    # stays the stock extraction's count. None (older files, stock reports): same as total.
    spec_apis: int | None = None
    # Stock endpoints the spec list does not count ("METHOD path"): examples, FEATURE items.
    stock_only: tuple[str, ...] = ()

    @property
    def required_apis(self) -> int:
        """Endpoints the strict figure is over (the spec list's length)."""
        return self.total_apis if self.spec_apis is None else self.spec_apis

    @property
    def spec_only_apis(self) -> int:
        """Endpoints strict AC counts that the stock extraction does not see."""
        return sum(e.source == "spec" for e in self.endpoints or ())

    @property
    def verifiable_apis(self) -> int:
        """README endpoints the strict check could decide (unresolved ones left out)."""
        return max(self.required_apis - self.unresolved_apis, 0)

    @property
    def score(self) -> float:
        """Strict coverage: implemented / endpoints that could be decided statically."""
        if self.reported_score is not None:
            return self.reported_score
        n = self.verifiable_apis
        return round(self.implemented_apis / n, 4) if n else 0.0

    @property
    def lenient_score(self) -> float | None:
        if self.lenient_implemented_apis is None:
            return None
        if not self.total_apis:
            return 0.0
        return round(self.lenient_implemented_apis / self.total_apis, 4)


@dataclass(frozen=True, slots=True)
class Generation:
    """What generating the repo took, as the generating agent recorded it (all optional).

    Not the evaluation: ``SampleResult.elapsed_seconds`` is the harness's own time. The stock
    RepoGenesis output records none of these (its ``elapsed_seconds`` is evaluation time too).
    """

    seconds: float | None = None  # wall-clock generation time
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None

    @property
    def is_empty(self) -> bool:
        return (self.seconds is None and self.input_tokens is None
                and self.output_tokens is None and self.cost_usd is None)


NOT_EVALUABLE_KINDS = ("dependency_repository_unreachable", "sandbox_image_missing",
                       "sandbox_unavailable", "isolation_unavailable", "toolchain_missing",
                       "backend_unsupported", "port_held", "worker_lost", "harness_exception")
"""Kinds of :class:`NotEvaluable`: why the machine, not the repo, left a sample without a
verdict (see ``docs/run-format.md``, "Not evaluable")."""


@dataclass(frozen=True, slots=True)
class NotEvaluable:
    """Why a sample has no verdict: the infrastructure stopped it, not the generated repo.

    ``kind`` is one of :data:`NOT_EVALUABLE_KINDS` (readers show unknown kinds as they are);
    ``reason`` the one-line account; ``inferred`` is True when the result did not record it
    and a reader concluded it from the result's messages (older files)."""

    kind: str
    reason: str
    inferred: bool = False


@dataclass(frozen=True, slots=True)
class SampleResult:
    """Everything known about one generated repository's evaluation."""

    run_id: str
    task: str
    sample: int
    language: str
    deployment: Deployment
    tests: TestSummary
    framework: str = ""
    port: int | None = None
    api_coverage: ApiCoverage | None = None
    elapsed_seconds: float | None = None
    exit_code: int | None = None
    logs: dict[Phase, Path] = field(default_factory=dict)
    repo_path: Path | None = None
    repo_digest: str | None = None
    source_file: Path | None = None
    build_error: str | None = None
    error: str | None = None
    notes: tuple[str, ...] = ()
    # What the repo did or holds to reach into its own test run; never part of the verdict.
    # None: not recorded (stock reports, older runs): found by scanning the repo when needed.
    tampering: tuple[TamperFinding, ...] | None = None
    # generation time, tokens and cost when the run records them (optional; None: not recorded)
    generation: Generation | None = None
    # set when the infrastructure, not the repo, left it without a verdict: no figure counts it
    not_evaluable: NotEvaluable | None = None

    @property
    def sample_id(self) -> str:
        """Stable id: survives moving the runs folder."""
        return f"{self.run_id}/{self.task}/{self.sample}"

    @property
    def passed(self) -> bool:
        """Strict Pass@1 verdict: a sample passes only if every one of its tests passed."""
        return self.tests.all_passed

    @property
    def failing_tests(self) -> list[TestCase]:
        return self.tests.failures()
