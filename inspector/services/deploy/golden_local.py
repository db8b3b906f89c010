"""The local backend's golden test run: staged suite, private report, digests around the run.

The suite is staged read-only in the session's temp folder, outside the repo copy (and hidden
from the service, see :mod:`.confine`); pytest runs from there through
:func:`.golden.runner_command`; the JUnit report goes to a private folder and is read the
moment pytest exits, so nothing the service does afterwards can change the results. A suite
whose digest changed before or after the run has its results discarded.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from inspector.model import Phase, PhaseStatus, TestCase
from inspector.model.repo.tampering import TamperFinding
from inspector.services.deploy.backend import PhaseOutcome, TestRun, pytest_rootdir, tests_outcome
from inspector.services.host.venvs import run_logged
from inspector.services.logs.phase_log import PhaseLog, now_iso
from inspector.services.suite.golden import (
    RUNNER,
    digest_finding,
    repo_data_files,
    runner_command,
    stage_golden,
    task_config,
    tree_digest,
)
from inspector.services.suite.junit import parse_junit
from inspector.services.suite.reach import ShadowGuard


@dataclass
class GoldenSuite:
    """A staged suite: ``folder`` (holding ``tests/``), its digest and config, and the private
    ``reports`` folder."""

    folder: Path
    digest: str
    config: Path | None
    reports: Path
    runs: int = 0


def stage(tests_dir: Path | None, session: Path, repo: Path | None = None) -> GoldenSuite:
    """Stage the task's tests in ``session/golden`` (with ``repo``'s data files linked beside
    them, see :func:`.golden.repo_data_files`) and make ``session/report`` (0700)."""
    folder = session / "golden"
    if tests_dir is not None:
        links = {n: str(repo / n) for n in repo_data_files(repo)} if repo is not None else None
        digest = stage_golden(tests_dir, folder, links)
    else:
        folder.mkdir(mode=0o555)
        digest = tree_digest(folder)
    reports = session / "report"
    reports.mkdir(mode=0o700)
    return GoldenSuite(folder, digest, task_config(folder), reports)


@dataclass
class CapturedRun(TestRun):
    """A test run whose report was parsed the moment pytest exited (``junit`` is the copy
    kept in the run folder, for the record)."""

    __test__ = False

    parsed: tuple[list[TestCase], int] | None = None
    parse_error: str | None = None
    written: bytes | None = field(default=None, repr=False)

    def cases(self) -> tuple[list[TestCase], int]:
        if self.parse_error is not None:
            raise ValueError(self.parse_error)
        if self.parsed is None:
            return [], 0
        cases, errors = self.parsed
        return list(cases), errors


def _digest(suite: GoldenSuite) -> str | None:
    try:
        return tree_digest(suite.folder)
    except OSError:
        return None


def run_golden(suite: GoldenSuite, python: str, workdir: Path, test_ids: list[str] | None,
               env: dict[str, str], log: PhaseLog, timeout: float,
               cancelled: Callable[[], bool], record: Path, guard: ShadowGuard | None = None,
               site_packages: list[str] | None = None) -> CapturedRun:
    """Run the staged suite against the deployment; ``record`` receives a copy of the report
    (the run folder's ``junit.xml``). ``guard``'s reach (:mod:`.suite_reach`) says what of the
    repo (``workdir``, ``site_packages``) the runner may import: nothing when None."""
    started, t0 = now_iso(), time.monotonic()
    before = digest_finding(suite.digest, _digest(suite), "before")
    if before is not None:
        return discarded(before, log, started, t0)
    suite.runs += 1
    junit = suite.reports / f"junit-{suite.runs}.xml"
    record.unlink(missing_ok=True)
    reach = (guard or ShadowGuard()).runner_args(str(workdir), site_packages or [])
    cmd = runner_command(python, str(suite.folder), str(workdir), test_ids, str(junit),
                         str(suite.config) if suite.config else None, *reach)
    code = run_logged(cmd, _Echo(log), suite.folder, env, timeout, cancelled)
    data = junit.read_bytes() if junit.is_file() else None
    after = digest_finding(suite.digest, _digest(suite), "after")
    if after is not None:
        return discarded(after, log, started, t0)
    outcome = tests_outcome(code, cancelled(), timeout, started, time.monotonic() - t0)
    rootdir = pytest_rootdir(log)
    run = CapturedRun(outcome, None, code, str(suite.folder), rootdir)
    if data is None:
        return run
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_bytes(data)
    run.junit, run.written = record, data
    try:
        run.parsed = parse_junit(junit, rootdir, str(suite.folder))
    except ValueError as exc:
        run.parse_error = str(exc).replace(str(junit), str(record))
    log.meta(f"JUnit report read from the private report folder (sha256 "
             f"{hashlib.sha256(data).hexdigest()[:16]}), copied to {record.name}")
    return run


class _Echo:
    """The phase log, with the runner's inline script shown by name in the command line."""

    def __init__(self, log: PhaseLog) -> None:
        self._log = log

    def meta(self, text: str) -> None:
        self._log.meta(text.replace(RUNNER, "<golden runner (golden.RUNNER)>"))

    def pump(self, stream: IO[bytes], name: str) -> threading.Thread:
        return self._log.pump(stream, name)

    def __getattr__(self, name: str) -> object:
        return getattr(self._log, name)


def discarded(finding: TamperFinding, log: PhaseLog, started: str | None = None,
              t0: float | None = None) -> CapturedRun:
    """A test run refused or thrown away for ``finding``: failed, no results."""
    started = started or now_iso()
    t0 = time.monotonic() if t0 is None else t0
    log.meta(finding.detail)
    outcome = PhaseOutcome(Phase.TESTS, PhaseStatus.FAILED, finding.detail, None, False,
                           started, time.monotonic() - t0)
    return CapturedRun(outcome, None, None, tampering=[finding])
