"""Local-process backend: per-repo virtualenv, ``start.sh`` boxed (:mod:`.confine`), the golden
suite run from outside the repo's reach (:mod:`.golden_local`).

Runs untrusted generated code on this machine, so it refuses to work unless the user allowed
it explicitly (``--allow-local-exec`` or ``allow_local_exec = true`` in the config). As root
(or with user namespaces) the service gets its own mount and PID namespace and no
capabilities; the Docker sandbox backend is the fully isolated alternative.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from inspector.model import Phase, PhaseStatus
from inspector.model.repo.requirement_sources import plain_requirement_problem
from inspector.model.repo.tampering import TamperFinding
from inspector.model.results.sample import NotEvaluable
from inspector.services.deploy.backend import (
    HEALTH_PATHS,
    PhaseOutcome,
    SampleJob,
    TestRun,
    base_url_env,
    no_entry_point,
)
from inspector.services.deploy.golden_local import (
    CapturedRun,
    GoldenSuite,
    discarded,
    run_golden,
    stage,
)
from inspector.services.deploy.runner_env import KIND as RUNNER_CHANGED
from inspector.services.deploy.runner_env import RunnerEnvs
from inspector.services.host import bytecode, confine
from inspector.services.host.install_box import InstallBox
from inspector.services.host.ports import port_open, wait_port_closed
from inspector.services.host.proctree import group_alive as _group_alive  # noqa: F401 - kept for callers
from inspector.services.host.venvs import VenvCache
from inspector.services.logs.phase_log import PhaseLog, SectionLog, now_iso
from inspector.services.suite.golden import make_writable, tree_digest
from inspector.services.suite.reach import (
    BASE_DISTRIBUTIONS,
    ShadowGuard,
    classify,
    root_entries,
    runner_names,
    suite_imports,
    suite_own_names,
)

STOCK_BUNDLE = ["flask", "fastapi", "uvicorn", "django", "djangorestframework", "requests",
                "sqlalchemy", "pydantic"]
TEST_PACKAGES = list(BASE_DISTRIBUTIONS)  # pytest, requests, httpx
COPY_IGNORE = shutil.ignore_patterns(".git", "__pycache__", "*.pyc", ".DS_Store",
                                     "node_modules", ".venv", "venv")


class LocalExecNotAllowed(RuntimeError):
    """Raised when the local backend is used without the user's explicit permission."""


def find_start_command(repo: Path, port: int) -> tuple[list[str], str] | None:
    """The command the stock entrypoint would run, and a description of how it was found."""
    for rel in ("start.sh", "scripts/start.sh", "bin/start.sh"):
        if (repo / rel).is_file():
            return ["bash", rel], rel
    for path in sorted(repo.rglob("start.sh"), key=lambda p: (len(p.parts), str(p))):
        rel_path = path.relative_to(repo)
        if len(rel_path.parts) <= 3 and not any(p in ("venv", ".venv", "node_modules")
                                                for p in rel_path.parts):
            return ["bash", rel_path.as_posix()], rel_path.as_posix()
    for name in ("app.py", "main.py", "run.py"):
        if (repo / name).is_file():
            return ["python", name], f"no start.sh; fallback `python {name}`"
    if (repo / "manage.py").is_file():
        return (["python", "manage.py", "runserver", f"127.0.0.1:{port}"],
                "no start.sh; fallback Django runserver")
    if (repo / "server.py").is_file():
        return ["python", "server.py"], "no start.sh; fallback `python server.py`"
    return None


class LocalBackend:
    """Deploys generated repos as local processes.

    ``isolation``: ``uid``, ``userns`` or ``none`` (see :mod:`.confine`); None or ``auto``:
    ``$GENESIS_LOCAL_ISOLATION``, else the strongest this machine supports.
    """

    name = "local"

    def __init__(self, allow_exec: bool, cache: VenvCache | None = None,
                 work_root: Path | None = None, isolation: str | None = None) -> None:
        if not allow_exec:
            raise LocalExecNotAllowed(
                "the local backend runs untrusted generated code directly on this machine; "
                "pass --allow-local-exec (or set allow_local_exec = true in the config) to "
                "accept that, or use the Docker sandbox backend")
        try:
            self.isolation = confine.isolation(isolation)
        except ValueError as exc:
            raise LocalExecNotAllowed(str(exc)) from None
        self.cache = cache or VenvCache()
        self.runners = RunnerEnvs(self.cache)  # apart from the repos' venvs, sealed
        self.work_root = work_root

    def open(self, job: SampleJob) -> LocalSession:
        if job.task.language == "java":
            from inspector.services.deploy.java_local import JavaSession

            return JavaSession(self, job)
        return LocalSession(self, job)


class LocalSession:
    """One local deployment. ``close()`` kills everything the service started and removes the
    session's temp folder (repo copy, staged golden suite, private reports)."""

    def __init__(self, backend: LocalBackend, job: SampleJob) -> None:
        self.backend = backend
        self.job = job
        self.tmp = Path(tempfile.mkdtemp(prefix=f"gi-{job.task.name}-", dir=backend.work_root))
        self.workdir = self.tmp / "repo"
        self.pycache = self.tmp / "pycache"
        self.venv: Path | None = None
        self.test_venv: Path | None = None
        self._runner_spec: tuple[str, list[str]] | None = None
        self._runner_found: list[TamperFinding] = []  # for the next test run's record
        self.service: confine.Service | None = None
        self.started_mono = 0.0
        self.service_log: PhaseLog | None = None
        self.golden: GoldenSuite | None = None
        self.repo_tests: str | None = None  # digest of the copy of the golden tests in the repo
        self.last_run: CapturedRun | None = None
        self.guard = ShadowGuard()  # what of the repo the golden runner may import, refusals
        self._observed: set[str] = set()

    # -- helpers -------------------------------------------------------------------------
    def _cancelled(self) -> bool:
        return self.job.cancel.is_set()

    def _env(self, venv: Path | None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("VIRTUAL_ENV", "PYTHONHOME", "PYTHONPATH"))}
        if venv is not None:
            env["VIRTUAL_ENV"] = str(venv)
            env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["PYTHONUNBUFFERED"] = "1"
        # Bytecode is written: uv installs without compiling it, so the first service or test
        # run from a cached venv compiles what it imports, once, instead of every run (about a
        # second per pytest start; a boxed service's, see bytecode.adopt). The repo copy is
        # temporary.
        return env

    # -- phases --------------------------------------------------------------------------
    def install(self, log: PhaseLog) -> PhaseOutcome:
        t0 = time.monotonic()
        started = now_iso()
        if self.job.task.language != "python":
            msg = (f"{self.job.task.language} tasks are not supported by the local backend "
                   "(it installs Python requirements only)")
            log.meta(msg)
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED, msg, None, False, started,
                                0.0)
        shutil.copytree(self.job.repo, self.workdir, symlinks=True, ignore=COPY_IGNORE)
        task_tests = self.job.task.tests_dir
        # the golden run uses a staged copy out of the service's reach; the copy in the repo
        # is kept as in the stock harness (apps may read it) but is not what runs
        self.golden = stage(task_tests, self.tmp, self.workdir)
        if task_tests is not None:
            dest = self.workdir / "tests"
            if dest.exists() or dest.is_symlink():
                log.meta("replacing the generated repo's tests/ with the task's golden tests")
                if dest.is_dir() and not dest.is_symlink():
                    shutil.rmtree(dest)
                else:
                    dest.unlink()
            shutil.copytree(task_tests, dest)
            self.repo_tests = tree_digest(dest)
        else:
            log.meta("the task has no tests/ folder: there is no golden suite to run")
        req = self.workdir / "requirements.txt"
        if req.is_file():
            text = req.read_text(encoding="utf-8", errors="replace")
            args = ["-r", str(req)]
            label = ""
        else:
            log.meta("no requirements.txt at the repo root; installing the stock harness's "
                     "default bundle: " + " ".join(STOCK_BUNDLE))
            text = "\n".join(STOCK_BUNDLE)
            args = STOCK_BUNDLE
            label = "(default bundle) "
        # The test runner's venv depends only on the task: build it at the same time, its
        # output held back and appended after the repo's install (each command's output stays
        # one contiguous section of the log).
        section = SectionLog(log.path, log.cap)
        runner: list[bool] = []
        thread = threading.Thread(target=lambda: runner.append(self._test_env(section)),
                                  name=f"test-env-{self.job.task.name}", daemon=True)
        thread.start()
        try:
            # a requirement's build is repo code: boxed like the service (mode none: unboxed)
            mode = self.backend.isolation
            box = InstallBox(mode, [self.workdir]) if mode != "none" else None
            # the repo copy is the service's anyway: its requirement files readable in the box
            confine.give_to_service(self.workdir, mode, confine.Box())
            result = self.backend.cache.get(text, args, log, self.job.limits.install,
                                            self._cancelled, label, box=box)
        finally:
            thread.join()
            section.flush_to(log)
        tests_ok = bool(runner and runner[0])
        dur = time.monotonic() - t0
        if not result.ok:
            timed_out = result.exit_code is None and not self._cancelled()
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.TIMEOUT if timed_out
                                else PhaseStatus.FAILED, result.message, result.exit_code,
                                False, started, dur)
        self.venv = result.path
        if not tests_ok:
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED,
                                "could not install the test runner (harness problem)", None,
                                result.cached, started, dur)
        try:
            self._decide_reach(log)
        except (OSError, ValueError, subprocess.SubprocessError) as exc:
            msg = f"could not read the test runner's environment (harness problem): {exc}"
            log.meta(msg)
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED, msg, None, result.cached,
                                started, time.monotonic() - t0)
        return PhaseOutcome(Phase.INSTALL, PhaseStatus.OK, result.message, 0, result.cached,
                            started, dur)

    def _decide_reach(self, log: PhaseLog) -> None:
        """What of the repo the golden runner may import, from the suite's own imports and the
        runner environment's names (:mod:`.suite_reach`)."""
        assert self.test_venv is not None
        tests_dir = self.job.task.tests_dir
        names = runner_names(self.test_venv)
        reach = classify(suite_imports(tests_dir), suite_own_names(tests_dir), names,
                         root_entries(self.workdir))
        self.guard.reach = reach
        log.meta(reach.describe())
        staged = self.guard.check(root_entries(self.workdir), "as generated")
        if staged is not None:
            log.meta(staged.detail)

    def _test_env(self, log: PhaseLog) -> bool:
        """A separate venv with pytest and the task's test requirements (cached per task,
        apart from the repos' venvs and checked before each use: :mod:`.runner_env`)."""
        reqs = list(TEST_PACKAGES)
        treq = self.job.task.tests_dir / "requirements.txt" if self.job.task.tests_dir \
            else None
        text = "\n".join(reqs)
        args = list(reqs)
        if treq is not None and treq.is_file():
            extra = treq.read_text(encoding="utf-8", errors="replace")
            text += "\n" + extra
            args += ["-r", str(treq)]
        if self.job.test_packages:  # a remedy's: the runner's venv only, plain names
            bad = plain_requirement_problem(self.job.test_packages)
            if bad:
                log.meta("refused: " + bad)
                return False
            text += "\n" + "\n".join(self.job.test_packages)
            args += list(self.job.test_packages)
        self._runner_spec = (text, args)
        result, found = self.backend.runners.get(text, args, log, self.job.limits.install,
                                                 self._cancelled)
        self._runner_found += found
        self.test_venv = result.path if result.ok else None
        return result.ok

    def _runner_unchanged(self, log: PhaseLog) -> bool:
        """Before a test run: the runner's venv as it was built, else rebuilt (a finding)."""
        assert self.test_venv is not None and self._runner_spec is not None
        changed = self.backend.runners.changed(self.test_venv)
        if not changed:
            return True
        self._runner_changed(log, "the test-runner environment changed while this repo was "
                             f"installed or deployed ({changed}); it was rebuilt before the "
                             "tests ran")
        result, _ = self.backend.runners.get(*self._runner_spec, log, self.job.limits.install,
                                             self._cancelled)
        self.test_venv = result.path if result.ok else None
        return result.ok

    def _box(self) -> confine.Box:
        """What the service sees: its repo copy (writable), its venv and that venv's
        interpreter (read-only); not the staged golden suite nor the private reports."""
        readable: list[Path] = []
        if self.venv is not None:
            readable += [self.venv, *confine.interpreter_home(self.venv)]
        hidden = [self.golden.folder, self.golden.reports] if self.golden else []
        return confine.Box(writable=[self.workdir, self.pycache], readable=readable,
                           hidden=hidden)

    def start(self, log: PhaseLog) -> PhaseOutcome:
        started = now_iso()
        t0 = time.monotonic()
        port = self.job.port
        if port_open(port):
            msg = (f"port {port} is already in use by another process on this machine; "
                   "not started (infrastructure problem, not the agent's)")
            log.meta(msg)
            return PhaseOutcome(Phase.START, PhaseStatus.FAILED, msg, None, False, started, 0.0,
                                lenient_ok=False, infrastructure=True,
                                not_evaluable=NotEvaluable("port_held", msg))
        found = self._start_command(port)
        if found is None:
            return no_entry_point(log, started)
        cmd, how = found
        log.meta(f"entry point: {how}")
        env = self._env(self.venv)
        env.update({"PORT": str(port), "HOST": "127.0.0.1", "SERVICE_PORT": str(port)})
        mode = self.backend.isolation
        if mode != "none":
            # the venv is read-only in the box: bytecode goes here (see bytecode.adopt)
            self.pycache.mkdir(exist_ok=True)
            env["PYTHONPYCACHEPREFIX"] = str(self.pycache)
        box = self._box()
        log.meta(confine.describe(mode, box.keep_uid))
        log.meta("$ " + " ".join(cmd) + f"   (cwd: repo root, PORT={port})")
        self.service_log = log
        try:
            for folder in box.writable:
                confine.give_to_service(folder, mode, box)
            self.service = confine.Service(cmd, self.workdir, env, box, mode, log.meta)
        except OSError as exc:
            return PhaseOutcome(Phase.START, PhaseStatus.FAILED, f"could not start: {exc}",
                                None, False, started, time.monotonic() - t0, lenient_ok=False)
        self.service.watch_port(port)
        proc = self.service.proc
        assert proc.stdout and proc.stderr
        log.pump(proc.stdout, "out")
        log.pump(proc.stderr, "err")
        self.started_mono = time.monotonic()
        return PhaseOutcome(Phase.START, PhaseStatus.OK, f"started ({how}), pid {proc.pid}",
                            None, False, started, time.monotonic() - t0)

    def _start_command(self, port: int) -> tuple[list[str], str] | None:
        return find_start_command(self.workdir, port)

    def wait_ready(self, log: PhaseLog) -> PhaseOutcome:
        """Wait until the port accepts connections; a process that exits is a failure."""
        started = now_iso()
        t0 = time.monotonic()
        port = self.job.port
        limit = self.job.limits.startup
        service = self.service
        assert service is not None
        log.meta(f"waiting up to {limit:.0f}s for 127.0.0.1:{port} to accept connections")
        while True:
            elapsed = time.monotonic() - self.started_mono
            code = service.exited()
            alive = code is None
            if port_open(port):
                probe = self._probe_http(port)
                msg = f"port {port} open after {elapsed:.1f}s" + (f"; {probe}" if probe else "")
                if not alive:
                    msg += (f"; start command exited ({code}) and left the "
                            "service running in the background (the stock harness would call "
                            "this a failed start)")
                log.meta(msg)
                return PhaseOutcome(Phase.HEALTH, PhaseStatus.OK, msg, None, False, started,
                                    time.monotonic() - t0, lenient_ok=alive)
            if not alive and not service.alive() and service.setup_error:
                msg = (f"{service.setup_error}; not started (infrastructure problem, not the "
                       "agent's)")
                log.meta(msg)
                return PhaseOutcome(Phase.START, PhaseStatus.FAILED, msg, None, False, started,
                                    time.monotonic() - t0, lenient_ok=False,
                                    not_evaluable=NotEvaluable("isolation_unavailable", msg))
            if not alive and not service.alive():
                msg = f"process exited with code {code} after {elapsed:.1f}s"
                log.meta(msg)
                return PhaseOutcome(Phase.START, PhaseStatus.FAILED, msg, code, False, started,
                                    time.monotonic() - t0, lenient_ok=False)
            if self._cancelled():
                return PhaseOutcome(Phase.HEALTH, PhaseStatus.FAILED, "cancelled", None, False,
                                    started, time.monotonic() - t0, lenient_ok=False)
            if elapsed > limit:
                msg = (f"process still running but port {port} not open after {limit:.0f}s")
                if alive:
                    msg += " (the stock harness counts this as deployed)"
                log.meta(msg)
                return PhaseOutcome(Phase.HEALTH, PhaseStatus.TIMEOUT, msg, None, False,
                                    started, time.monotonic() - t0, lenient_ok=alive)
            time.sleep(0.05)

    def _probe_http(self, port: int) -> str:
        """The first health path answering below 400 (plain ``http.client``: a new httpx
        client per probe costs about 40 ms, mostly loading a CA bundle for plain HTTP)."""
        import http.client

        for path in HEALTH_PATHS:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1.0)
            try:
                conn.request("GET", path)
                status = conn.getresponse().status
            except (OSError, http.client.HTTPException):
                continue
            finally:
                conn.close()
            if status < 400:
                return f"GET {path} -> {status}"
        return ""

    def run_tests(self, log: PhaseLog, test_ids: list[str] | None = None) -> TestRun:
        """The staged golden suite against the deployment (see :mod:`.golden_local`); what the
        service was seen doing to its tests meanwhile goes into ``tampering``."""
        started = now_iso()
        if self.test_venv is None or self.golden is None or not self._runner_unchanged(log):
            return TestRun(PhaseOutcome(Phase.TESTS, PhaseStatus.SKIPPED,
                                        "no test runner environment", None, False, started, 0.0),
                           None, None, tampering=self._take_runner_found())
        assert self.test_venv is not None
        env = self._env(self.test_venv)
        env.update(base_url_env(self.job.task, self.job.port))
        # checked at staging and again now: start.sh may have written such a module
        refusals = self.guard.refusals
        self.guard.check(root_entries(self.workdir), "written after start.sh ran")
        if refusals:
            run = discarded(refusals[-1], log)
            run.tampering.extend(refusals[:-1])
            run.tampering.extend(self._observe(report=False))
            self.last_run = run
            return run
        # Like the stock harness's single image, a suite that imports the repo (white-box) or
        # its libraries finds them, after the runner's own paths (see suite_reach)
        sites = [str(p) for p in sorted((self.venv / "lib").glob("python*/site-packages"))] \
            if self.venv is not None else []
        run = run_golden(self.golden, str(self.test_venv / "bin" / "python"), self.workdir,
                         test_ids, env, log, self.job.limits.tests, self._cancelled,
                         self.job.out_dir / "junit.xml", self.guard, sites)
        changed = self.backend.runners.changed(self.test_venv)
        if changed:
            self._runner_changed(log, "the test-runner environment changed during the test "
                                 f"run ({changed}); it will be rebuilt before its next use")
        run.tampering.extend(self._take_runner_found())
        run.tampering.extend(self._observe(report=False))
        self.last_run = run
        return run

    def _runner_changed(self, log: PhaseLog, detail: str) -> None:
        """The runner's venv is not as it was built: a deliberate finding, and it is dropped
        from the cache (rebuilt when next needed)."""
        assert self.test_venv is not None
        log.meta(detail)
        self._runner_found.append(TamperFinding(RUNNER_CHANGED, "", detail, True))
        self.backend.runners.discard(self.test_venv)

    def _take_runner_found(self) -> list[TamperFinding]:
        found, self._runner_found = self._runner_found, []
        return found

    def _observe(self, report: bool = True) -> list[TamperFinding]:
        """What the service did to its copy of the golden tests or (``report``) to the last
        recorded report since it was written; each finding once per session."""
        found = []
        if self.repo_tests is not None and "tests_rewritten" not in self._observed:
            try:
                now: str | None = tree_digest(self.workdir / "tests")
            except OSError:
                now = None
            if now != self.repo_tests:
                found.append(TamperFinding(
                    "tests_rewritten", "", "the service changed the copy of the golden tests "
                    "in its repo (tests/) while it ran; the golden run does not use that "
                    "copy, so the results stand", True))
        run = self.last_run
        if report and run is not None and run.written is not None and \
                run.junit is not None and "report_replaced" not in self._observed:
            try:
                same = run.junit.read_bytes() == run.written
            except OSError:
                same = False
            if not same:
                found.append(TamperFinding(
                    "report_replaced", "", "the recorded JUnit report was replaced after the "
                    "test run; the results were read before that and stand (the report was "
                    "restored)", True))
                run.junit.write_bytes(run.written)
        self._observed.update(f.kind for f in found)
        return found

    def close(self) -> None:
        if self.service is not None:
            self.service.stop()
            if self.venv is not None and self.pycache.is_dir():
                bytecode.adopt(self.pycache, self.venv)
        if self.last_run is not None:
            self.last_run.tampering.extend(self._observe())
        if self.job.task.port:
            wait_port_closed(self.job.task.port, 5.0)
        if self.golden is not None:
            make_writable(self.golden.folder)
        shutil.rmtree(self.tmp, ignore_errors=True)

