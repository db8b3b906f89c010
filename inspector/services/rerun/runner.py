"""Re-running tests of one generated repo against a fresh (or warm) deployment.

The new outcome of each test is set next to the recorded one: ``same`` (same outcome, same
error), ``now passes``, ``now fails``, ``different error``, or ``not recorded``. Running a
test N times gives its failure rate (flakiness).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from inspector.model import Outcome, TestCase
from inspector.model.repo.tampering import TamperFinding
from inspector.model.suite.testids import base_id, leaf_name, repo_relative_id
from inspector.services.deploy.warm import DeploymentPool, LiveDeployment, Target
from inspector.services.logs.phase_log import PhaseLog
from inspector.services.tamper import scan_repo
from inspector.services.tamper.findings import ordered

LineSink = Callable[[str, str], None]
"""``(stream, text)`` for each line of test output, as it arrives."""

EXIT_PASSED, EXIT_FAILED, EXIT_NOT_DEPLOYED = 0, 1, 2

_NOISE = (re.compile(r"0x[0-9a-f]{6,}"), re.compile(r"\bin \d+(\.\d+)?s\b"),
          re.compile(r"port=\d+"), re.compile(r"/tmp/[\w./-]+"))


class UnknownTest(ValueError):
    """The test id matches no recorded test of the sample."""


def normalise_error(text: str) -> str:
    """An error's first line without addresses, timings and temp paths (for comparison)."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    for pat in _NOISE:
        line = pat.sub("…", line)
    return line


def compare(recorded: TestCase | None, new: TestCase | None) -> str:
    """How a re-run outcome relates to the recorded one."""
    if new is None:
        return "not run"
    if recorded is None:
        return "not recorded"
    old_ok = recorded.outcome in (Outcome.PASSED, Outcome.SKIPPED)
    new_ok = new.outcome in (Outcome.PASSED, Outcome.SKIPPED)
    if old_ok and new_ok:
        return "same"
    if not old_ok and new_ok:
        return "now passes"
    if old_ok and not new_ok:
        return "now fails"
    if normalise_error(recorded.first_message_line) == normalise_error(new.first_message_line):
        return "same"
    return "different error"


@dataclass
class Attempt:
    """One run of the selected tests."""

    index: int
    seconds: float
    exit_code: int | None
    status: str
    cases: dict[str, TestCase]
    log: Path
    tampering: list[TamperFinding] = field(default_factory=list)  # seen during this run


@dataclass
class RerunReport:
    """Everything a re-run found; ``exit_code`` follows the CLI contract (0/1/2)."""

    target: str
    backend: str
    test_ids: list[str]
    recorded: dict[str, TestCase]
    reused: bool = False
    deploy_seconds: float = 0.0
    deployed: bool = False
    deploy_failure: str = ""
    deploy_phase: str = ""
    attempts: list[Attempt] = field(default_factory=list)
    seconds: float = 0.0
    workdir: Path | None = None
    cancelled: bool = False
    # what the repo holds (read before deploying) and what the runs saw it do; reported,
    # never part of any outcome
    tampering: list[TamperFinding] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if not self.deployed:
            return EXIT_NOT_DEPLOYED
        if not self.attempts or any(_failed(a) for a in self.attempts):
            return EXIT_FAILED
        return EXIT_PASSED

    def results(self) -> list[tuple[str, TestCase | None, TestCase | None, str]]:
        """``(test id, recorded, latest new, comparison)`` for every test touched."""
        last = self.attempts[-1].cases if self.attempts else {}
        ids = list(dict.fromkeys([*self._selected(), *last]))
        return [(i, self.recorded.get(i), last.get(i), compare(self.recorded.get(i),
                                                               last.get(i))) for i in ids]

    def _selected(self) -> list[str]:
        return [i for i in self.test_ids if i in self.recorded] or list(self.test_ids)

    def failure_counts(self) -> dict[str, tuple[int, int]]:
        """Per test: (times failed, times run) over all attempts."""
        out: dict[str, tuple[int, int]] = {}
        for a in self.attempts:
            for tid, case in a.cases.items():
                f, n = out.get(tid, (0, 0))
                bad = case.outcome in (Outcome.FAILED, Outcome.ERROR)
                out[tid] = (f + bad, n + 1)
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "sample": self.target, "backend": self.backend, "tests": self.test_ids,
            "deployed": self.deployed, "deploy_failure": self.deploy_failure or None,
            "deploy_phase": self.deploy_phase or None, "warm": self.reused,
            "deploy_seconds": round(self.deploy_seconds, 3), "seconds": round(self.seconds, 3),
            "exit_code": self.exit_code,
            "attempts": [{"index": a.index, "seconds": round(a.seconds, 3), "status": a.status,
                          "pytest_exit_code": a.exit_code,
                          "outcomes": {k: v.outcome.value for k, v in a.cases.items()}}
                         for a in self.attempts],
            "results": [{"test": t, "recorded": r.outcome.value if r else None,
                         "recorded_message": r.first_message_line if r else None,
                         "new": n.outcome.value if n else None,
                         "new_message": n.first_message_line if n else None,
                         "comparison": c} for t, r, n, c in self.results()],
            "flakiness": {k: {"failed": f, "runs": n}
                          for k, (f, n) in self.failure_counts().items()},
            "logs": str(self.workdir) if self.workdir else None,
            "tampering": [f.to_json() for f in self.all_tampering()],
        }

    def all_tampering(self) -> list[TamperFinding]:
        """The repo's findings and those observed in any attempt, deliberate first."""
        return list(ordered([*self.tampering, *(f for a in self.attempts for f in a.tampering)]))


def _failed(a: Attempt) -> bool:
    if a.exit_code != 0 or not a.cases:
        return True
    return any(c.outcome in (Outcome.FAILED, Outcome.ERROR) for c in a.cases.values())


def recorded_cases(target: Target) -> dict[str, TestCase]:
    """The recorded cases by id relative to the repo root (ids of runs recorded relative to
    ``tests/``, by a suite with its own ``tests/pytest.ini``, are repaired)."""
    if target.recorded is None:
        return {}
    task = target.task
    out = {}
    for c in target.recorded.tests.cases:
        tid = repo_relative_id(c.id, task.root, task.tests_dir)
        out[tid] = c if tid == c.id else replace(c, id=tid)
    return out


def resolve_tests(target: Target, wanted: list[str]) -> list[str]:
    """Full pytest node ids for ``wanted``: exact ids, unique suffixes (``test_x``), or the
    word ``failures`` for every recorded failing test."""
    recorded = recorded_cases(target)
    out: list[str] = []
    for w in wanted:
        if w == "failures":
            fails = [c.id for c in recorded.values()
                     if c.outcome in (Outcome.FAILED, Outcome.ERROR)]
            out += fails or ["tests"]
            continue
        if w in recorded or w.startswith("tests"):
            out.append(w)
            continue
        if "::" in w and w.partition("::")[0].endswith(".py"):
            # a full id, perhaps recorded relative to the tests folder
            out.append(repo_relative_id(w, target.task.root, target.task.tests_dir))
            continue
        hits = [i for i in recorded if i.endswith("::" + w) or leaf_name(i) == w
                or base_id(i).endswith("::" + w)]
        if len(hits) == 1:
            out.append(hits[0])
        elif not hits:
            known = ", ".join(sorted(leaf_name(i) for i in recorded)[:8])
            raise UnknownTest(f"{target.key}: no recorded test {w!r}"
                              + (f" (known: {known}…)" if known else ""))
        else:
            raise UnknownTest(f"{target.key}: {w!r} matches {len(hits)} tests: "
                              + ", ".join(hits[:5]))
    return list(dict.fromkeys(out))


def run_attempt(live: LiveDeployment, test_ids: list[str], index: int,
                on_line: LineSink | None = None) -> Attempt:
    """Run the tests once against a live deployment (serialised by its lock)."""
    with live.lock:
        log_path = live.workdir / "logs" / f"tests-{live.runs + 1}.log"
        log = PhaseLog(log_path, live.job.limits.log_cap, on_line=on_line)
        live.add_test_log(log_path)
        live.runs += 1
        live.touch()
        t0 = time.monotonic()
        try:
            run = live.session.run_tests(log, test_ids)
        finally:
            log.close()
            live.touch()
    cases: dict[str, TestCase] = {}
    try:
        parsed, _ = run.cases()
        cases = {c.id: c for c in parsed}
    except ValueError:
        cases = {}
    return Attempt(index, time.monotonic() - t0, run.exit_code, run.outcome.message, cases,
                   log_path, list(run.tampering))


def rerun(pool: DeploymentPool, target: Target, test_ids: list[str], backend: str, *,
          times: int = 1, on_line: LineSink | None = None, say: Callable[[str], None] =
          lambda m: None, cancel: threading.Event | None = None, fresh: bool = False
          ) -> RerunReport:
    """Deploy (or reuse) ``target`` and run ``test_ids`` ``times`` times."""
    cancel = cancel or threading.Event()
    t0 = time.monotonic()
    report = RerunReport(target.key, backend, test_ids, recorded_cases(target))
    report.tampering = list(ordered(scan_repo(target.repo, target.task.tests_dir)))
    live, reused = pool.acquire(target, backend, say=say, cancel=cancel, fresh=fresh)
    report.reused = reused
    report.workdir = live.workdir
    report.deploy_seconds = 0.0 if reused else live.deploy_seconds
    report.deployed = live.deployed
    if live.deployed:
        with live.lock:
            live.begin_rerun(pool.keep_reruns)
    else:
        failed = live.outcome.failed
        report.deploy_failure = failed.message if failed else "not deployed"
        report.deploy_phase = failed.phase.value if failed else ""
        report.seconds = time.monotonic() - t0
        return report
    for i in range(max(1, times)):
        if cancel.is_set():
            report.cancelled = True
            break
        say(f"running {len(test_ids)} test(s)" + (f", run {i + 1} of {times}" if times > 1
                                                  else ""))
        report.attempts.append(run_attempt(live, test_ids, i + 1, on_line))
    report.seconds = time.monotonic() - t0
    return report

