"""Local-process backend: per-repo virtualenv, ``start.sh`` in its own process group.

Runs untrusted generated code directly on this machine, so it refuses to work unless the user
allowed it explicitly (``--allow-local-exec`` or ``allow_local_exec = true`` in the config).
The Docker sandbox backend is the isolated alternative.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from inspector.model import Phase, PhaseStatus

from .backend import (
    HEALTH_PATHS,
    PhaseOutcome,
    SampleJob,
    TestRun,
    base_url_env,
    no_entry_point,
    pytest_args,
    pytest_rootdir,
    tests_outcome,
)
from .phase_log import PhaseLog, SectionLog, now_iso
from .ports import port_open, wait_port_closed
from .venvs import VenvCache, run_logged

STOCK_BUNDLE = ["flask", "fastapi", "uvicorn", "django", "djangorestframework", "requests",
                "sqlalchemy", "pydantic"]
TEST_PACKAGES = ["pytest", "requests", "httpx"]
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
    """Deploys generated repos as local processes."""

    name = "local"

    def __init__(self, allow_exec: bool, cache: VenvCache | None = None,
                 work_root: Path | None = None) -> None:
        if not allow_exec:
            raise LocalExecNotAllowed(
                "the local backend runs untrusted generated code directly on this machine; "
                "pass --allow-local-exec (or set allow_local_exec = true in the config) to "
                "accept that, or use the Docker sandbox backend")
        self.cache = cache or VenvCache()
        self.work_root = work_root

    def open(self, job: SampleJob) -> LocalSession:
        if job.task.language == "java":
            from .java_local import JavaSession

            return JavaSession(self, job)
        return LocalSession(self, job)


class LocalSession:
    """One local deployment. ``close()`` kills the whole process group and removes the copy."""

    def __init__(self, backend: LocalBackend, job: SampleJob) -> None:
        self.backend = backend
        self.job = job
        self.tmp = Path(tempfile.mkdtemp(prefix=f"gi-{job.task.name}-", dir=backend.work_root))
        self.workdir = self.tmp / "repo"
        self.venv: Path | None = None
        self.test_venv: Path | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.started_mono = 0.0
        self.service_log: PhaseLog | None = None

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
        # second per pytest start). The repo copy is temporary.
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
        if task_tests is not None:
            dest = self.workdir / "tests"
            if dest.exists() or dest.is_symlink():
                log.meta("replacing the generated repo's tests/ with the task's golden tests")
                if dest.is_dir() and not dest.is_symlink():
                    shutil.rmtree(dest)
                else:
                    dest.unlink()
            shutil.copytree(task_tests, dest)
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
        section = SectionLog(log.path)
        runner: list[bool] = []
        thread = threading.Thread(target=lambda: runner.append(self._test_env(section)),
                                  name=f"test-env-{self.job.task.name}", daemon=True)
        thread.start()
        try:
            result = self.backend.cache.get(text, args, log, self.job.limits.install,
                                            self._cancelled, label)
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
        return PhaseOutcome(Phase.INSTALL, PhaseStatus.OK, result.message, 0, result.cached,
                            started, dur)

    def _test_env(self, log: PhaseLog) -> bool:
        """A separate venv with pytest and the task's test requirements (cached per task)."""
        reqs = list(TEST_PACKAGES)
        treq = self.workdir / "tests" / "requirements.txt"
        text = "\n".join(reqs)
        args = list(reqs)
        if treq.is_file():
            extra = treq.read_text(encoding="utf-8", errors="replace")
            text += "\n" + extra
            args += ["-r", str(treq)]
        result = self.backend.cache.get(text, args, log, self.job.limits.install,
                                        self._cancelled, "(test runner) ", ("tests",))
        self.test_venv = result.path if result.ok else None
        return result.ok

    def start(self, log: PhaseLog) -> PhaseOutcome:
        started = now_iso()
        t0 = time.monotonic()
        port = self.job.port
        if port_open(port):
            msg = (f"port {port} is already in use by another process on this machine; "
                   "not started (infrastructure problem, not the agent's)")
            log.meta(msg)
            return PhaseOutcome(Phase.START, PhaseStatus.FAILED, msg, None, False, started, 0.0,
                                lenient_ok=False)
        found = self._start_command(port)
        if found is None:
            return no_entry_point(log, started)
        cmd, how = found
        log.meta(f"entry point: {how}")
        env = self._env(self.venv)
        env.update({"PORT": str(port), "HOST": "127.0.0.1", "SERVICE_PORT": str(port)})
        log.meta("$ " + " ".join(cmd) + f"   (cwd: repo root, PORT={port})")
        self.service_log = log
        try:
            self.proc = subprocess.Popen(cmd, cwd=self.workdir, env=env, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                         start_new_session=True)
        except OSError as exc:
            return PhaseOutcome(Phase.START, PhaseStatus.FAILED, f"could not start: {exc}",
                                None, False, started, time.monotonic() - t0, lenient_ok=False)
        assert self.proc.stdout and self.proc.stderr
        log.pump(self.proc.stdout, "out")
        log.pump(self.proc.stderr, "err")
        self.started_mono = time.monotonic()
        return PhaseOutcome(Phase.START, PhaseStatus.OK, f"started ({how}), pid {self.proc.pid}",
                            None, False, started, time.monotonic() - t0)

    def _start_command(self, port: int) -> tuple[list[str], str] | None:
        return find_start_command(self.workdir, port)

    def wait_ready(self, log: PhaseLog) -> PhaseOutcome:
        """Wait until the port accepts connections; a process that exits is a failure."""
        started = now_iso()
        t0 = time.monotonic()
        port = self.job.port
        limit = self.job.limits.startup
        assert self.proc is not None
        log.meta(f"waiting up to {limit:.0f}s for 127.0.0.1:{port} to accept connections")
        while True:
            elapsed = time.monotonic() - self.started_mono
            alive = self.proc.poll() is None
            if port_open(port):
                probe = self._probe_http(port)
                msg = f"port {port} open after {elapsed:.1f}s" + (f"; {probe}" if probe else "")
                if not alive:
                    msg += (f"; start command exited ({self.proc.returncode}) and left the "
                            "service running in the background (the stock harness would call "
                            "this a failed start)")
                log.meta(msg)
                return PhaseOutcome(Phase.HEALTH, PhaseStatus.OK, msg, None, False, started,
                                    time.monotonic() - t0, lenient_ok=alive)
            if not alive and not _group_alive(self.proc.pid):
                code = self.proc.returncode
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
        started = now_iso()
        t0 = time.monotonic()
        if self.test_venv is None:
            return TestRun(PhaseOutcome(Phase.TESTS, PhaseStatus.SKIPPED,
                                        "no test runner environment", None, False, started, 0.0),
                           None, None)
        junit = self.job.out_dir / "junit.xml"
        junit.unlink(missing_ok=True)
        env = self._env(self.test_venv)
        env.update(base_url_env(self.job.task, self.job.port))
        if self.venv is not None:
            # Like the stock harness's single image, tests can import what the repo installed
            # (white-box suites import the app); the runner's own packages stay in its venv.
            site = sorted((self.venv / "lib").glob("python*/site-packages"))
            if site:
                env["PYTHONPATH"] = str(site[0])
        cmd = [str(self.test_venv / "bin" / "python"), "-m", "pytest",
               *pytest_args(test_ids, str(junit))]
        code = run_logged(cmd, log, self.workdir, env, self.job.limits.tests, self._cancelled)
        outcome = tests_outcome(code, self._cancelled(), self.job.limits.tests, started,
                                time.monotonic() - t0)
        return TestRun(outcome, junit if junit.is_file() else None, code,
                       str(self.workdir.resolve()), pytest_rootdir(log))

    def close(self) -> None:
        if self.proc is not None:
            _stop_group(self.proc)
        if self.job.task.port:
            wait_port_closed(self.job.task.port, 5.0)
        shutil.rmtree(self.tmp, ignore_errors=True)


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group, then SIGKILL whatever is left after 3 s."""
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 2.0)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            break
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if proc.poll() is not None and not _group_alive(proc.pid):
                return
            time.sleep(0.05)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=1)


def _group_alive(pgid: int) -> bool:
    """True while a process of the group still runs.

    Zombies do not count: a service orphaned by its ``start.sh`` is reaped by init, which on
    some machines takes a second or more, although it already exited and closed its port.
    """
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    members = _group_states(pgid)
    return members is None or any(state != "Z" for state in members)


def _group_states(pgid: int) -> list[str] | None:
    """The states (``R``, ``S``, ``Z``, ...) of the group's processes; None without /proc."""
    proc = Path("/proc")
    if not (proc / "self" / "stat").is_file():
        return None
    states = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_bytes()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 2 and int(fields[2]) == pgid:
            states.append(fields[0].decode())
    return states


