"""``inspector evaluate``: deploy every generated repo of a run and test it, keeping it all.

Jobs run on a thread pool; a scheduler hands a worker only a sample whose port is free, and a
machine-wide port lock keeps other inspector processes off that port too.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Protocol

from inspector.model import (
    Deployment,
    Phase,
    PhaseResult,
    PhaseStatus,
    Run,
    SampleResult,
    SuiteCause,
    Task,
    TestCase,
    TestSummary,
)
from inspector.model.benchmark.predictions import parse_predictions_name
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.results.not_evaluable import INFRA_ERROR_PREFIX
from inspector.model.results.sample import NotEvaluable
from inspector.model.runs.ids import id_problem
from inspector.model.runs.runformat import INFRA_FILE, load_run, rel
from inspector.model.suite.pytest_output import exit_meaning, find_cause
from inspector.model.untrusted.errors import LoadError
from inspector.services.deploy.backend import Backend, Limits, PhaseOutcome, SampleJob, TestRun
from inspector.services.deploy.steps import deploy
from inspector.services.evaluate.progress_board import ProgressBoard
from inspector.services.evaluate.run_writer import (
    record_twins,
    sample_dir,
    stock_report,
    write_repogenesis_output,
    write_run_json,
    write_sample,
)
from inspector.services.host.ports import PortLock
from inspector.services.logs.phase_log import PhaseLog, now_iso, read_output
from inspector.services.repo.coverage import compute_coverage
from inspector.services.repo.files import repo_digest
from inspector.services.storage.atomic import write_json_atomic
from inspector.services.suite.cause import locator, needs_cause
from inspector.services.suite.maven_log import parse_maven_output
from inspector.services.tamper import scan_repo
from inspector.services.tamper.findings import ordered

ProgressFn = Callable[[str, str], None]
"""``(sample_id, message)``, called from worker threads."""


@dataclass
class Delivery:
    """One evaluated sample handed back to the run's writer. ``files``: the sample folder's
    files by relative path when they were made elsewhere (a cluster node), written by the
    driver; ``None`` when the sample was evaluated into its folder here."""

    result: SampleResult | None  # None: the infrastructure failed it (``infra_failure``)
    started_at: str | None
    finished_at: str | None
    files: dict[str, bytes] | None = None
    task: str = ""
    sample: int = 0
    infra_failure: str | None = None
    node: str | None = None  # where it ran, when the executor knows (a cluster node)
    # why the infrastructure failed it, when the executor knows (``result`` is None)
    not_evaluable: NotEvaluable | None = None


DeliverFn = Callable[[Delivery], None]


class SampleExecutor(Protocol):
    """Runs sample jobs somewhere and delivers each result, on any thread, as it finishes."""

    name: str  # recorded in run.json's settings
    backend_name: str

    def execute(self, jobs: list[SampleJob], deliver: DeliverFn,
                board: ProgressBoard) -> None: ...




def job_key(job: SampleJob) -> str:
    """How progress names a sample: ``TASK/N``."""
    return f"{job.task.name}/{job.sample}"


INFRA_PREFIX = INFRA_ERROR_PREFIX
"""How a :class:`SampleResult`'s ``error`` starts when the machine, not the repo, stopped the
sample (see :func:`infrastructure_failed`)."""


def infrastructure_failed(result: SampleResult) -> bool:
    """Whether the machine stopped this sample (a port held by another process, …): never
    a verdict on the repo; executors leave it for a retry or a resume."""
    return bool(result.error and result.error.startswith(INFRA_PREFIX))


class EvaluationError(Exception):
    """A problem with the evaluation's inputs; the message is one clear line."""


@dataclass
class EvaluationPlan:
    tasks_root: Path
    predictions: list[Path]  # one folder per sample index (pass@k)
    out: Path
    jobs: int = 1
    limits: Limits = field(default_factory=Limits)
    run_id: str | None = None
    agent: str | None = None
    model: str | None = None
    only_tasks: list[str] | None = None
    overwrite: bool = False
    repogenesis_out: Path | None = None
    repogenesis_layout: str = "current"


def _to_phase_result(o: PhaseOutcome) -> PhaseResult:
    return PhaseResult(o.phase, o.status, o.started_at,
                       round(o.duration_seconds, 3) if o.duration_seconds is not None else None,
                       o.exit_code, o.message, o.cached)


def evaluate_sample(backend: Backend, job: SampleJob, progress: ProgressFn | None = None
                    ) -> SampleResult:
    """Deploy and test one generated repo; never raises for the repo's own failures."""
    task = job.task
    sid = f"{job.run_id}/{task.name}/{job.sample}"

    def say(msg: str) -> None:
        if progress:
            progress(sid, msg)

    t0 = time.monotonic()
    logs_dir = job.out_dir / "logs"
    if logs_dir.exists():
        for old in logs_dir.glob("*.log"):
            old.unlink()
    logs = {ph: PhaseLog(logs_dir / f"{ph.value}.log", job.limits.log_cap) for ph in Phase}
    coverage = compute_coverage(job.repo, task.endpoints, task.spec_endpoints)
    digest = repo_digest(job.repo)
    # read before anything of the repo runs; reported, never part of the verdict
    found_in_repo = scan_repo(job.repo, task.tests_dir)
    phases: list[PhaseOutcome] = []
    not_evaluable: NotEvaluable | None = None  # set where the harness knows the cause
    failed: PhaseOutcome | None = None
    lenient = False
    tests_run = None
    error = None
    try:
        say(f"waiting for port {job.port}")
        lock = PortLock(job.port) if backend.name == "local" else None
        with lock or contextlib.nullcontext():
            if lock is not None and lock.waited > 0.5:
                logs[Phase.INSTALL].meta(f"waited {lock.waited:.1f}s for port {job.port}")
            session = backend.open(job)
            try:
                dep = deploy(session, logs, say)
                phases.extend(dep.phases)
                failed, lenient = dep.failed, dep.lenient
                if failed is not None and failed.infrastructure:
                    # e.g. another process holds the port: tests would reach *its* service
                    error = INFRA_PREFIX + failed.message
                    logs[Phase.TESTS].meta("not run: the deployment was stopped for an "
                                           "infrastructure reason, not the repo's")
                elif failed is not None and failed.not_evaluable is not None:
                    # the machine cannot deploy it (an unreachable dependency repository…):
                    # the suite would fail for the same reason; no verdict either way
                    logs[Phase.TESTS].meta(f"not run: not evaluable here "
                                           f"({failed.not_evaluable.kind}), not the repo's "
                                           "failure")
                elif not job.cancel.is_set():
                    say("running tests")
                    tests_run = session.run_tests(logs[Phase.TESTS])
                    phases.append(tests_run.outcome)
            finally:
                say("cleaning up")
                session.close()
    except Exception as exc:  # a harness problem, not the repo's
        error = f"{type(exc).__name__}: {exc}"
        logs[Phase.TESTS].meta("harness exception:\n" + traceback.format_exc())
        not_evaluable = NotEvaluable("harness_exception", error)
    finally:
        for log in logs.values():
            log.close()
    if not_evaluable is None:  # the first phase the machine, not the repo, stopped
        not_evaluable = next((p.not_evaluable for p in phases if p.not_evaluable), None)

    cases, collection_errors = [], 0
    notes: list[str] = []
    if tests_run and tests_run.surefire_cases is not None:
        cases = list(tests_run.surefire_cases)
        if not cases:
            notes.append("Maven wrote no Surefire report: no per-test results")
    elif tests_run and tests_run.junit:
        try:
            cases, collection_errors = tests_run.cases()
        except ValueError as exc:
            notes.append(str(exc))
    elif tests_run is not None and any(f.kind == "golden_modified"
                                       for f in tests_run.tampering):
        notes.append(tests_run.outcome.message)
    elif tests_run is not None and tests_run.exit_code is None:
        notes.append("pytest wrote no JUnit report (it timed out or was cancelled): no "
                     "per-test results")
    elif tests_run is not None:
        notes.append(f"pytest wrote no JUnit report (exit {tests_run.exit_code}: "
                     f"{exit_meaning(tests_run.exit_code)}): no per-test results")
    counts = {o: 0 for o in ("passed", "failed", "error", "skipped")}
    for c in cases:
        counts[c.outcome.value] += 1
    deployed = failed is None and any(p.phase is Phase.HEALTH and p.status is PhaseStatus.OK
                                      for p in phases)
    tests = TestSummary(passed=counts["passed"], failed=counts["failed"],
                        errors=counts["error"], skipped=counts["skipped"],
                        expected=task.expected_tests, cases=tuple(cases), has_cases=True,
                        collection_errors=collection_errors,
                        rootdir=tests_run.rootdir_in_repo if tests_run else None)
    if tests_run is not None and needs_cause(tests.status, collection_errors,
                                             tests_run.exit_code, True):
        tests = replace(tests, cause=_suite_cause(task, tests_run, cases, logs[Phase.TESTS],
                                                  job.repo))
    if error and failed is None and not deployed:
        message = "harness exception"
    elif failed is not None:
        message = failed.message
    else:
        message = "Service started successfully"
    if tests_run and tests_run.outcome.status is not PhaseStatus.OK and deployed:
        failed_phase: Phase | None = Phase.TESTS
    else:
        failed_phase = failed.phase if failed else None
    if error and failed_phase is None:
        failed_phase = Phase.TESTS if deployed else Phase.INSTALL
    present = {p.phase for p in phases}
    all_phases = [_to_phase_result(p) for p in phases] + [
        PhaseResult(ph, PhaseStatus.SKIPPED) for ph in Phase if ph not in present]
    return SampleResult(
        run_id=job.run_id, task=task.name, sample=job.sample, language=task.language,
        deployment=Deployment(success=deployed, message=message, failed_phase=failed_phase,
                              phases=tuple(all_phases), lenient_success=lenient),
        tests=tests, framework=task.framework, port=task.port, api_coverage=coverage,
        elapsed_seconds=round(time.monotonic() - t0, 3),
        exit_code=tests_run.exit_code if tests_run else None,
        logs={ph: log.path for ph, log in logs.items()},
        repo_path=job.repo.resolve(), repo_digest=digest, error=error, notes=tuple(notes),
        tampering=ordered([*found_in_repo, *(tests_run.tampering if tests_run else ())]),
        not_evaluable=not_evaluable,
    )


def _suite_cause(task: Task, run: TestRun, cases: list[TestCase], log: PhaseLog,
                 repo: Path) -> SuiteCause | None:
    """Why the suite did not run (fully): pytest's first cause line, or for a Maven suite the
    line saying why the build stopped (pytest's exit codes mean nothing there)."""
    lines = read_output(log.path)
    if task.language == "java":
        problem = parse_maven_output("\n".join(lines)).problem()
        return SuiteCause("crashed", problem, f"mvn test exit {run.exit_code}") if problem \
            else None
    return find_cause(lines, run.exit_code, cases, locator(run.cwd, task, repo),
                      run.outcome.message)


class Evaluator:
    """Evaluates one run: every (task, sample) of the given predictions folders."""

    def __init__(self, plan: EvaluationPlan, backend: Backend | None,
                 progress: ProgressFn | None = None,
                 cancel: threading.Event | None = None,
                 on_board: Callable[[ProgressBoard], object] | None = None) -> None:
        plan.out = plan.out.resolve()
        self.plan = plan
        self.backend = backend
        self.progress = progress
        self.on_board = on_board  # told the run's progress board before samples start
        self.board: ProgressBoard | None = None
        self.cancel = cancel or threading.Event()
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._busy_ports: set[int] = set()
        self.resumed = 0  # samples a resumed run already had
        self.infra_failures = 0  # samples the infrastructure failed for good this time

    # -- inputs ----------------------------------------------------------------------------
    def _prepare(self) -> tuple[dict[str, Task], list[SampleJob], str, str, str, str,
                                str | None]:
        plan = self.plan
        tasks, issues = load_tasks(plan.tasks_root)
        if not tasks:
            why = f" ({issues[0]})" if issues else ""
            raise EvaluationError(f"{plan.tasks_root}: no tasks found (expected "
                                  f"<root>/repo/<task>/README.md){why}")
        if not plan.predictions:
            raise EvaluationError("no predictions folder given")
        for p in plan.predictions:
            if not p.is_dir():
                raise EvaluationError(f"{p}: predictions folder does not exist")
        if plan.only_tasks:
            unknown = sorted(set(plan.only_tasks) - set(tasks))
            if unknown:
                raise EvaluationError(f"unknown task(s): {', '.join(unknown)}")
        parsed = parse_predictions_name(plan.predictions[0].resolve().name)
        run_id = plan.run_id or plan.predictions[0].resolve().name
        problem = id_problem(run_id)
        if problem is not None:
            raise EvaluationError(f"run id {run_id!r} is not usable: it {problem} (a run id "
                                  "names a folder: one path component, no control characters)")
        agent = plan.agent or parsed.agent or "unknown"
        model = plan.model or parsed.model or "unknown"
        jobs = []
        for n, pred in enumerate(plan.predictions):
            for name in sorted(tasks):
                if plan.only_tasks and name not in plan.only_tasks:
                    continue
                repo = pred / name
                if not repo.is_dir():
                    continue
                jobs.append(SampleJob(run_id, tasks[name], n, repo.resolve(),
                                      sample_dir(plan.out, name, n), plan.limits, self.cancel))
        if not jobs:
            raise EvaluationError(
                f"{plan.predictions[0]}: no sub-folder is named like a task of "
                f"{plan.tasks_root} ({', '.join(sorted(tasks))})")
        langs = {j.task.language for j in jobs}
        language = parsed.language or (langs.pop() if len(langs) == 1 else "mixed")
        return tasks, jobs, run_id, agent, model, language, parsed.date

    def _check_out(self, run_id: str) -> list[SampleResult]:
        """Make ``out`` ready; returns the finished samples of a run being resumed there."""
        out = self.plan.out
        if out.exists() and not out.is_dir():
            raise EvaluationError(f"{out}: exists and is not a folder")
        if not (out.is_dir() and any(out.iterdir())):
            return []
        if not (out / "run.json").is_file():
            raise EvaluationError(f"{out}: folder is not empty and is not a run; "
                                  "choose another --out")
        if self.plan.overwrite:
            shutil.rmtree(out / "samples", ignore_errors=True)
            for name in ("run.json", "report.json"):
                (out / name).unlink(missing_ok=True)
            return []
        try:
            previous, _ = load_run(out)
        except LoadError as exc:
            raise EvaluationError(f"{out / 'run.json'}: cannot resume this run ({exc}); pass "
                                  "--overwrite to replace it") from None
        if previous.id != run_id:
            raise EvaluationError(f"{out}: holds run {previous.id!r}, not {run_id!r}; pass "
                                  "--overwrite to replace it or choose another --out")
        # a sample the infrastructure left without a verdict (a harness exception, an
        # unreachable dependency repository, …; recorded or inferred) is evaluated again
        return [s for s in previous.samples if not s.error and s.not_evaluable is None]

    # -- scheduling ------------------------------------------------------------------------
    def _take(self, pending: list[SampleJob]) -> SampleJob | None:
        with self._cond:
            while True:
                if self.cancel.is_set() or not pending:
                    return None
                # sandboxes have their own ports
                shared_ports = self.backend is None or self.backend.name == "local"
                for i, job in enumerate(pending):
                    if not shared_ports or job.port not in self._busy_ports:
                        self._busy_ports.add(job.port)
                        return pending.pop(i)
                self._cond.wait(timeout=0.5)

    def _release(self, job: SampleJob) -> None:
        with self._cond:
            self._busy_ports.discard(job.port)
            self._cond.notify_all()

    def execute(self, jobs: list[SampleJob], deliver: DeliverFn,
                board: ProgressBoard) -> None:
        """The local executor: ``plan.jobs`` threads on this machine."""
        backend = self.backend
        if backend is None:
            raise EvaluationError("no deployment backend for the local executor")
        pending = list(jobs)

        def worker() -> None:
            while True:
                job = self._take(pending)
                if job is None:
                    return
                try:
                    started = now_iso()
                    board.started(job_key(job), board.host)
                    result = evaluate_sample(backend, job, self.progress)
                    if self.cancel.is_set():
                        # cut short by Ctrl-C: not a result; its logs stay, unlisted, and a
                        # resumed run evaluates it again
                        continue
                    if infrastructure_failed(result):
                        why = (f"attempt 1 failed on {board.host} for an infrastructure "
                               f"reason ({result.error})")
                        deliver(Delivery(None, None, None, task=job.task.name,
                                         sample=job.sample, infra_failure=why,
                                         not_evaluable=NotEvaluable(
                                             result.not_evaluable.kind
                                             if result.not_evaluable else "harness_exception",
                                             why)))
                        continue
                    deliver(Delivery(result, started, now_iso()))
                finally:
                    self._release(job)

        n = max(1, self.plan.jobs)
        with ThreadPoolExecutor(max_workers=n) as pool:
            futures = [pool.submit(worker) for _ in range(n)]
            for f in futures:
                f.result()

    def run(self, executor: SampleExecutor | None = None) -> Run:
        """Evaluate everything not yet evaluated and write the run folder; returns the loaded
        run. ``executor``: where samples run (default: this evaluator's threads). A run folder
        that already holds this run is resumed: only missing samples, and those the
        infrastructure failed or left not evaluable, are evaluated."""
        tasks, jobs, run_id, agent, model, language, generation_date = self._prepare()
        kept = self._check_out(run_id)
        plan = self.plan
        plan.out.mkdir(parents=True, exist_ok=True)
        created = now_iso()
        t0 = time.monotonic()
        used_tasks = [tasks[n] for n in sorted({j.task.name for j in jobs})]
        if executor is None and self.backend is None:
            raise EvaluationError("no deployment backend for the local executor")
        backend_name = executor.backend_name if executor is not None else \
            self.backend.name if self.backend is not None else "?"
        settings: dict[str, object] = {
            "jobs": plan.jobs, "install_timeout": plan.limits.install,
            "startup_timeout": plan.limits.startup, "test_timeout": plan.limits.tests,
            "log_cap_mb": plan.limits.log_cap_mb,
            "executor": "local" if executor is None else executor.name}
        wanted = {(j.task.name, j.sample) for j in jobs}
        done: list[SampleResult] = [s for s in kept if (s.task, s.sample) in wanted]
        finished = {(s.task, s.sample) for s in done}
        todo = [j for j in jobs if (j.task.name, j.sample) not in finished]
        self.resumed = len(done)
        if done and self.progress:
            self.progress(run_id, f"resuming: {len(done)} sample(s) already evaluated, "
                                  f"{len(todo)} to go")

        given_up: dict[tuple[str, int], NotEvaluable] = {}  # failed for good by the machine

        def save_run(status: str) -> None:
            write_run_json(
                plan.out, run_id=run_id, agent=agent, model=model, language=language,
                generation_date=generation_date, created_at=created,
                finished_at=None if status == "running" else now_iso(), status=status,
                predictions=[p.resolve() for p in plan.predictions],
                tasks_root=plan.tasks_root.resolve(), tasks=used_tasks,
                samples=[(s.task, s.sample) for s in done], backend=backend_name,
                settings=settings, elapsed_seconds=round(time.monotonic() - t0, 2),
                given_up=[(t, n, ne) for (t, n), ne in given_up.items()])

        for job in todo:  # what a previous attempt left of these samples is stale
            if job.out_dir.exists():
                shutil.rmtree(job.out_dir, ignore_errors=True)
        save_run("running")

        board = ProgressBoard(run_id, str(settings["executor"]), len(todo), resumed=len(done),
                              out=plan.out)
        for job in todo:
            board.queued(job_key(job))
        self.board = board
        if self.on_board is not None:
            self.on_board(board)
        board.start()

        def deliver(d: Delivery) -> None:
            result = d.result
            if result is None:  # never a result: the sample stays to be evaluated on resume
                folder = sample_dir(plan.out, d.task, d.sample)
                with self._lock:
                    folder.mkdir(parents=True, exist_ok=True)
                    (folder / INFRA_FILE).write_text((d.infra_failure or "") + "\n",
                                                     encoding="utf-8")
                    self.infra_failures += 1
                    given_up[(d.task, d.sample)] = d.not_evaluable or NotEvaluable(
                        "harness_exception", d.infra_failure or "the infrastructure failed it")
                    save_run("running")
                board.gave_up(f"{d.task}/{d.sample}")
                return
            folder = sample_dir(plan.out, result.task, result.sample)
            with self._lock:
                if d.files is not None:
                    for rel_name, data in d.files.items():
                        target = folder / rel_name
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(data)
                write_sample(plan.out, result, d.started_at, d.finished_at)
                (folder / INFRA_FILE).unlink(missing_ok=True)
                given_up.pop((result.task, result.sample), None)
                done.append(result)
                save_run("running")
            if self.progress:
                verdict = ("PASS" if result.passed else
                           f"FAIL ({result.deployment.failed_phase or 'tests'})")
                self.progress(result.sample_id, f"done: {verdict} {result.tests.passed}/"
                                                f"{result.tests.total} tests")
            board.finished(f"{result.task}/{result.sample}", result.passed, d.node)

        try:
            (executor or self).execute(todo, deliver, board)
        finally:
            missing = len(wanted) - len(done)
            status = ("cancelled" if self.cancel.is_set() else
                      "incomplete" if missing else "complete")
            board.close(status)
        save_run(status)
        elapsed = time.monotonic() - t0
        stamp = datetime.now().astimezone()
        ordered = sorted(done, key=lambda s: (s.task, s.sample))
        first = [s for s in ordered if s.sample == 0]
        predictions = plan.predictions[0].resolve()
        write_json_atomic(plan.out / "report.json", stock_report(
            first, rel(predictions, plan.out), elapsed, stamp, agent, model,
            plan.limits.startup, backend_name))
        if plan.repogenesis_out is not None:
            stock = write_repogenesis_output(
                plan.repogenesis_out.resolve(), first, predictions, elapsed, stamp,
                plan.repogenesis_layout, agent, model, plan.limits.startup, backend_name)
            record_twins(plan.out, [stock])  # one evaluation, two layouts: model/twins.py
        run, _ = load_run(plan.out)
        return run
