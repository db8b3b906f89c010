"""The swappable deployment backend: what the harness asks of a local process or a sandbox."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from inspector.model import Phase, PhaseStatus, Task, TestCase

from .phase_log import PhaseLog

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
    """Time limits in seconds (defaults are the stock harness's Python values)."""

    install: float = 600.0
    startup: float = 15.0
    tests: float = 300.0


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


@dataclass
class TestRun:
    """What a test phase produced: the JUnit file (if any) and the runner's exit code;
    ``cases`` when the backend read per-test results itself (Maven's Surefire reports)."""

    __test__ = False

    outcome: PhaseOutcome
    junit: Path | None
    exit_code: int | None
    cases: list[TestCase] | None = None


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
    msg = {None: f"test run timed out after {limit:.0f}s", 0: "all passed",
           1: "some tests failed", 2: "interrupted (collection errors?)",
           3: "pytest internal error", 4: "pytest usage error",
           5: "no tests collected"}.get(code, f"pytest exit code {code}")
    return PhaseOutcome(Phase.TESTS, status, msg, code, False, started, duration)


def no_entry_point(log: PhaseLog, started: str) -> PhaseOutcome:
    """The start phase's outcome when neither start.sh nor a fallback entry point exists."""
    log.meta("no start.sh and no fallback entry point (app.py, main.py, run.py, manage.py, "
             "server.py)")
    return PhaseOutcome(Phase.START, PhaseStatus.FAILED, "No service entry point found", None,
                        False, started, 0.0, lenient_ok=False)
