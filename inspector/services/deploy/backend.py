"""The swappable deployment backend: what the harness asks of a local process or a sandbox."""

from __future__ import annotations

import posixpath
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from inspector.model import Phase, PhaseStatus, Task, TestCase
from inspector.model.repo.tampering import TamperFinding
from inspector.model.results.sample import NotEvaluable
from inspector.model.suite.pytest_output import EXIT_MEANINGS, rootdir_of
from inspector.services.logs.caps import DEFAULT_LOG_CAP_MB
from inspector.services.logs.phase_log import PhaseLog, read_output
from inspector.services.suite.junit import parse_junit

HEALTH_PATHS = ("/", "/health", "/api/health", "/api/v1/health", "/actuator/health")
BASE_URL_VARS = ("API_BASE_URL", "SERVICE_BASE_URL", "BASE_URL", "APP_BASE_URL",
                 "SYNAPSE_BASE_URL")


_ENV_DEFAULT = re.compile(
    r"(?:os\.environ\.get|os\.getenv|environ\.get)\(\s*['\"](\w+)['\"]\s*,\s*"
    r"['\"](https?://[^'\"]+)['\"]")


def base_url_env(task: Task, port: int, host: str = "127.0.0.1") -> dict[str, str]:
    """Base-URL variables for the test run.

    Every common variable points at ``http://host:port``. When the task's tests read a variable
    with a default such as ``http://localhost:8083/api/v1``, that variable keeps the default's
    path (``/api/v1``) so suites that expect a prefix still work.
    """
    base = f"http://{host}:{port}"
    env = {var: base for var in BASE_URL_VARS}
    if task.tests_dir is None:
        return env
    for file in sorted(task.tests_dir.rglob("*.py")):
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for var, default in _ENV_DEFAULT.findall(text):
            if "URL" not in var.upper() and "HOST" not in var.upper():
                continue
            path = re.sub(r"^https?://[^/]+", "", default).rstrip("/")
            env[var] = base + path
    return env


@dataclass
class Limits:
    """Time limits in seconds (defaults are the stock harness's Python values), and the cap
    on each phase log in MB (its head and tail are kept, see :mod:`.phase_log`)."""

    install: float = 600.0
    startup: float = 15.0
    tests: float = 300.0
    log_cap_mb: float = DEFAULT_LOG_CAP_MB

    @property
    def log_cap(self) -> int:
        """The phase-log cap in bytes."""
        return int(self.log_cap_mb * 2**20)


@dataclass
class SampleJob:
    """One generated repo to deploy and test."""

    run_id: str
    task: Task
    sample: int
    repo: Path
    out_dir: Path  # the sample folder in the run (logs/, junit.xml, result.json)
    limits: Limits = field(default_factory=Limits)
    cancel: threading.Event = field(default_factory=threading.Event)
    # extra packages for the golden test runner's environment only, never the repo's (a
    # causal re-run's remedy: plain names from the configured index); none in an evaluation
    test_packages: tuple[str, ...] = ()

    @property
    def port(self) -> int:
        return self.task.port or 8080


@dataclass
class PhaseOutcome:
    phase: Phase
    status: PhaseStatus
    message: str = ""
    exit_code: int | None = None
    cached: bool = False
    started_at: str | None = None
    duration_seconds: float | None = None
    lenient_ok: bool | None = None  # health only: what the stock harness would conclude
    infrastructure: bool = False  # the machine stopped it for now: retried, or left to resume
    # why the machine, not the repo, stopped it, where the backend knows (the sample gets no
    # verdict and is counted apart; see model.results.NotEvaluable)
    not_evaluable: NotEvaluable | None = None


@dataclass
class TestRun:
    """What a test phase produced: the JUnit file (if any), pytest's exit code, and where it
    ran: ``cwd`` (the repo root) and the ``rootdir`` pytest chose, both absolute paths on the
    machine that ran pytest (``rootdir`` None when pytest did not print it)."""

    __test__ = False

    outcome: PhaseOutcome
    junit: Path | None
    exit_code: int | None
    cwd: str | None = None
    rootdir: str | None = None
    surefire_cases: list[TestCase] | None = None  # Maven: read from Surefire reports
    # what the repo was seen doing to its own test run (golden tests or report touched)
    tampering: list[TamperFinding] = field(default_factory=list)

    def cases(self) -> tuple[list[TestCase], int]:
        """The JUnit report's test cases with ids relative to the repo root, and the number
        of collection errors (Maven: the Surefire cases); raises ``ValueError`` for an
        unusable report."""
        if self.surefire_cases is not None:
            return list(self.surefire_cases), 0
        if self.junit is None:
            return [], 0
        return parse_junit(self.junit, self.rootdir, self.cwd)

    @property
    def rootdir_in_repo(self) -> str | None:
        """pytest's rootdir relative to the repo root (``.``, ``tests``), None if unknown."""
        if not self.rootdir or not self.cwd:
            return None
        rel = posixpath.relpath(posixpath.normpath(self.rootdir), posixpath.normpath(self.cwd))
        return rel


class Session(Protocol):
    """One deployment of one generated repo; phases are called in order, ``close`` always."""

    def install(self, log: PhaseLog) -> PhaseOutcome: ...
    def start(self, log: PhaseLog) -> PhaseOutcome: ...
    def wait_ready(self, log: PhaseLog) -> PhaseOutcome: ...
    def run_tests(self, log: PhaseLog, test_ids: list[str] | None = None) -> TestRun: ...
    def close(self) -> None: ...


class Backend(Protocol):
    """Creates sessions. ``name`` is recorded in run.json (``local``, ``docker``)."""

    name: str

    def open(self, job: SampleJob) -> Session: ...



def pytest_args(test_ids: list[str] | None, junit: str) -> list[str]:
    """pytest's arguments (after ``python -m pytest``) for a run that writes a JUnit report."""
    return [*(test_ids or ["tests"]), "-v", "--tb=short", "-p", "no:cacheprovider",
            "--continue-on-collection-errors", "-o", "junit_family=xunit1",
            f"--junitxml={junit}"]


def tests_outcome(code: int | None, cancelled: bool, limit: float, started: str,
                  duration: float) -> PhaseOutcome:
    """The test phase's outcome from pytest's exit code (None: timed out or cancelled)."""
    if code is None and cancelled:
        return PhaseOutcome(Phase.TESTS, PhaseStatus.FAILED, "cancelled", None, False, started,
                            duration)
    status = PhaseStatus.TIMEOUT if code is None else (
        PhaseStatus.OK if code == 0 else PhaseStatus.FAILED)
    msg = (f"test run timed out after {limit:.0f}s" if code is None else
           EXIT_MEANINGS.get(code, f"pytest exit code {code}"))
    return PhaseOutcome(Phase.TESTS, status, msg, code, False, started, duration)


def no_entry_point(log: PhaseLog, started: str) -> PhaseOutcome:
    """The start phase's outcome when neither start.sh nor a fallback entry point exists."""
    log.meta("no start.sh and no fallback entry point (app.py, main.py, run.py, manage.py, "
             "server.py)")
    return PhaseOutcome(Phase.START, PhaseStatus.FAILED, "No service entry point found", None,
                        False, started, 0.0, lenient_ok=False)


def pytest_rootdir(log: PhaseLog) -> str | None:
    """The rootdir pytest printed into ``log`` (its header line), None if it printed none."""
    return rootdir_of(read_output(log.path))
