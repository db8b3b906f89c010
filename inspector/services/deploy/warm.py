"""Warm deployments: a generated repo deployed once, kept up between re-runs and requests.

A :class:`DeploymentPool` deploys a sample on first use (Docker sandbox or local process),
keeps it while it is used, and tears it down on request, after ``idle_timeout`` seconds
without use, or on :meth:`DeploymentPool.close` (the app and the CLI call it on exit).
A Docker sandbox in the pool also holds a lease its session renews for as long as it is kept
(:mod:`.sandbox.lease`): if this process is killed, nothing renews it and the sandbox ends by
itself within the lease time; a sandbox found gone is redeployed on the next use.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from inspector import paths
from inspector.model import Phase, SampleResult, Task
from inspector.services.deploy.backend import Backend, Limits, SampleJob, Session
from inspector.services.deploy.steps import DeployOutcome, deploy
from inspector.services.host.ports import PortLock
from inspector.services.logs.phase_log import PhaseLog
from inspector.services.logs.rerun_logs import (
    DEFAULT_KEEP_RERUNS,
    InUse,
    prune_attempt_logs,
    prune_deployments,
)

if TYPE_CHECKING:
    from inspector.services.sandbox.forward import PortForward

Say = Callable[[str], None]


@dataclass(frozen=True)
class Target:
    """A generated repo to deploy: which run, task and sample, and the recorded result."""

    run_id: str
    task: Task
    sample: int
    repo: Path
    recorded: SampleResult | None = None

    @property
    def key(self) -> str:
        return f"{self.run_id}/{self.task.name}/{self.sample}"

    @classmethod
    def from_result(cls, result: SampleResult, task: Task) -> Target:
        if result.repo_path is None:
            raise DeployError(f"{result.sample_id}: the run does not say where the generated "
                              "repo is (no repo path recorded)")
        if not result.repo_path.is_dir():
            raise DeployError(f"{result.sample_id}: generated repo {result.repo_path} is "
                              "missing")
        return cls(result.run_id, task, result.sample, result.repo_path, result)


class DeployError(RuntimeError):
    """The sample cannot be deployed at all (missing repo, backend unavailable)."""


def _slug(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", key)[:120]


@dataclass
class LiveDeployment:
    """One deployment in the pool. ``lock`` serialises test runs against it."""

    target: Target
    backend: str
    session: Session
    job: SampleJob
    workdir: Path
    outcome: DeployOutcome
    created: float
    deploy_seconds: float
    last_used: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    runs: int = 0
    port_lock: PortLock | None = None
    service_log: PhaseLog | None = None  # the service's output, written while it runs
    in_use: InUse | None = None  # keeps the folder from being pruned while it lives
    test_logs: list[list[Path]] = field(default_factory=list)  # per re-run, oldest first
    _forward: PortForward | None = None

    @property
    def key(self) -> str:
        return self.target.key

    @property
    def deployed(self) -> bool:
        return self.outcome.deployed

    @property
    def failure(self) -> str:
        return self.outcome.failed.message if self.outcome.failed else ""

    @property
    def container_id(self) -> str | None:
        c = getattr(self.session, "container", None)
        return getattr(c, "id", None)

    def base_url(self) -> str:
        """Where the inspector reaches the service: always a loopback address."""
        if self.backend == "local":
            return f"http://127.0.0.1:{self.job.port}"
        if self._forward is None:
            from inspector.services.sandbox.forward import PortForward

            container = getattr(self.session, "container", None)
            if container is None:
                raise DeployError("the sandbox is gone")
            self._forward = PortForward(container, self.job.port)
        return self._forward.base_url

    def touch(self) -> None:
        self.last_used = time.monotonic()

    def begin_rerun(self, keep: int) -> None:
        """A re-run starts: the test logs of re-runs before the newest ``keep - 1`` go."""
        prune_attempt_logs(self.test_logs, max(0, keep - 1))
        self.test_logs.append([])

    def add_test_log(self, path: Path) -> None:
        if not self.test_logs:
            self.test_logs.append([])
        self.test_logs[-1].append(path)

    def close(self) -> None:
        if self._forward is not None:
            with contextlib.suppress(Exception):
                self._forward.close()
            self._forward = None
        try:
            self.session.close()
        finally:
            if self.service_log is not None:
                self.service_log.close()
            if self.port_lock is not None:
                self.port_lock.__exit__(None, None, None)
                self.port_lock = None
            if self.in_use is not None:
                self.in_use.release()
                self.in_use = None


class DeploymentPool:
    """Deployments kept warm, keyed by (sample, backend).

    Each deployment's logs go to its own folder under ``work_root``; the newest
    ``keep_reruns`` re-runs of a sample are kept (see :mod:`.rerun_logs`).
    """

    def __init__(self, backends: Callable[[str], Backend], *, idle_timeout: float = 600.0,
                 limits: Limits | None = None, work_root: Path | None = None,
                 keep_reruns: int = DEFAULT_KEEP_RERUNS) -> None:
        if keep_reruns < 1:
            raise ValueError(f"keep_reruns must be at least 1, not {keep_reruns}")
        self._factory = backends
        self._backends: dict[str, Backend] = {}
        self.idle_timeout = idle_timeout
        self.limits = limits or Limits()
        self.work_root = work_root or paths.cache_root() / "reruns"
        self.keep_reruns = keep_reruns
        self._live: dict[tuple[str, str], LiveDeployment] = {}
        self._guard = threading.Lock()
        self._key_locks: dict[tuple[str, str], threading.Lock] = {}
        self._closed = threading.Event()
        self._reaper = threading.Thread(target=self._reap, daemon=True, name="deploy-reaper")
        self._reaper.start()

    def backend(self, name: str) -> Backend:
        with self._guard:
            if name not in self._backends:
                self._backends[name] = self._factory(name)
            return self._backends[name]

    def acquire(self, target: Target, backend: str, *, say: Say = lambda m: None,
                cancel: threading.Event | None = None, fresh: bool = False
                ) -> tuple[LiveDeployment, bool]:
        """A deployment of ``target`` and whether it was reused (warm).

        A failed deployment is returned too (``deployed`` is False) and not kept.
        """
        k = (target.key, backend)
        with self._guard:
            klock = self._key_locks.setdefault(k, threading.Lock())
        with klock:
            live = self._live.get(k)
            if live is not None and (fresh or not self._healthy(live)):
                say("restarting: " + ("fresh deployment asked for" if fresh
                                      else "the warm deployment is gone"))
                self.stop(target.key, backend)
                live = None
            if live is not None:
                live.touch()
                say(f"reusing the warm {backend} deployment "
                    f"(up {time.monotonic() - live.created:.0f}s)")
                return live, True
            live = self._deploy(target, backend, say, cancel or threading.Event())
            if live.deployed:
                with self._guard:
                    self._live[k] = live
            return live, False

    def _healthy(self, live: LiveDeployment) -> bool:
        container = getattr(live.session, "container", None)
        if container is not None:
            try:
                container.reload()
                status: object = container.status
                return status == "running"
            except Exception:  # noqa: BLE001 - removed behind our back
                return False
        from inspector.services.host.ports import port_open

        return port_open(live.job.port)

    def _deploy(self, target: Target, backend_name: str, say: Say,
                cancel: threading.Event) -> LiveDeployment:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
        sample_dir = self.work_root / _slug(target.key)
        prune_deployments(sample_dir, self.keep_reruns - 1)
        workdir = sample_dir / f"{stamp}-{backend_name}"
        workdir.mkdir(parents=True, exist_ok=True)
        in_use = InUse(workdir)
        try:
            return self._deploy_in(target, backend_name, say, cancel, workdir, in_use)
        except BaseException:
            in_use.release()
            raise

    def _deploy_in(self, target: Target, backend_name: str, say: Say,
                   cancel: threading.Event, workdir: Path, in_use: InUse) -> LiveDeployment:
        job = SampleJob(target.run_id, target.task, target.sample, target.repo, workdir,
                        limits=self.limits, cancel=cancel)
        backend = self.backend(backend_name)
        port_lock = None
        if backend_name == "local":
            say(f"waiting for port {job.port}")
            port_lock = PortLock(job.port).__enter__()
        t0 = time.monotonic()
        logs = {ph: PhaseLog(workdir / "logs" / f"{ph.value}.log", self.limits.log_cap)
                for ph in (Phase.INSTALL, Phase.START, Phase.HEALTH)}
        try:
            session = backend.open(job)
        except BaseException:
            for log in logs.values():
                log.close()
            if port_lock is not None:
                port_lock.__exit__(None, None, None)
            raise
        try:
            outcome = deploy(session, logs, say)
        except BaseException:
            session.close()
            logs[Phase.START].close()
            if port_lock is not None:
                port_lock.__exit__(None, None, None)
            raise
        finally:
            for log in (logs[Phase.INSTALL], logs[Phase.HEALTH]):
                log.close()
        live = LiveDeployment(target, backend_name, session, job, workdir, outcome,
                              time.monotonic(), time.monotonic() - t0, port_lock=port_lock,
                              service_log=logs[Phase.START], in_use=in_use)
        if not outcome.deployed:
            live.close()
        return live

    def list(self) -> list[LiveDeployment]:
        with self._guard:
            return sorted(self._live.values(), key=lambda d: d.created)

    def get(self, key: str, backend: str) -> LiveDeployment | None:
        with self._guard:
            return self._live.get((key, backend))

    def stop(self, key: str, backend: str | None = None) -> int:
        """Tear down the deployments of ``key`` (on one backend or all); how many stopped."""
        with self._guard:
            victims = [k for k in self._live if k[0] == key and backend in (None, k[1])]
            gone = [self._live.pop(k) for k in victims]
        for live in gone:
            with live.lock:
                live.close()
        return len(gone)

    def stop_all(self) -> int:
        with self._guard:
            gone = list(self._live.values())
            self._live.clear()
        for live in gone:
            with contextlib.suppress(Exception):
                live.close()
        return len(gone)

    def _reap(self) -> None:
        while not self._closed.wait(1.0):
            now = time.monotonic()
            with self._guard:
                idle = [k for k, d in self._live.items()
                        if now - d.last_used > self.idle_timeout and not d.lock.locked()]
            for key, backend in idle:
                self.stop(key, backend)

    def close(self) -> None:
        """Tear everything down (called on exit)."""
        self._closed.set()
        self.stop_all()
