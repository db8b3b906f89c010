"""``inspector evaluate --executor ray``: every sample a Ray task on a node that can run it.

The driver stays the single writer of the run folder: a task evaluates its sample into a
scratch folder on its node and returns the result with that folder's files; the driver writes
them as each task finishes (``ray.wait``), so the run can be watched while it runs. A task
the infrastructure fails (a worker or node dying, a node without the inputs or an engine) is
retried, boundedly, and the attempts are recorded in the sample's notes; it is never written as
the model's failure. Ray is imported only here, and only when this executor runs.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from inspector.model import SampleResult, Task
from inspector.model.results.sample import NotEvaluable
from inspector.services.deploy.backend import Backend, Limits, SampleJob
from inspector.services.evaluate.progress_board import ProgressBoard
from inspector.services.evaluate.run import (
    DeliverFn,
    Delivery,
    EvaluationError,
    ProgressFn,
    evaluate_sample,
    infrastructure_failed,
    job_key,
)
from inspector.services.logs.phase_log import now_iso

NODE_ID_LABEL = "ray.io/node-id"
"""The label Ray gives every node (its id): a retry's soft anti-affinity uses it."""
DOCKER_RESOURCE = "docker"
"""The custom resource a node advertises when it has a Docker engine the sandbox can use:
``ray start --resources='{"docker": N}'`` (N: sandboxes it may run at once)."""


class InfrastructureFailure(RuntimeError):
    """Raised by a task whose sample the node's machine stopped (a port held, …)."""


@dataclass(frozen=True)
class RaySettings:
    """How to reach the cluster and what each sample asks of a node."""

    address: str | None = None  # None: a private single-node cluster on this machine
    backend: str = "docker"
    allow_local: bool = False
    any_source: bool = False
    cpus_per_sample: float = 1.0
    max_retries: int = 2  # infrastructure failures retried per sample, then left for resume


@dataclass(frozen=True)
class _Spec:
    """What a node needs to evaluate one sample (picklable: no events, no open handles)."""

    run_id: str
    task: Task
    sample: int
    repo: Path
    limits: Limits
    backend: str
    allow_local: bool
    any_source: bool


class StartNotices:
    """A Ray actor on the driver's node that tasks tell when they start (Ray itself says where
    a task runs only once it has finished); the driver drains it to show what runs where."""

    def __init__(self) -> None:
        self.notices: list[tuple[str, int, str, str]] = []

    def started(self, key: str, attempt: int, node: str, node_id: str) -> None:
        self.notices.append((key, attempt, node, node_id))

    def take(self) -> list[tuple[str, int, str, str]]:
        out, self.notices = self.notices, []
        return out


@dataclass(frozen=True)
class _NodeResult:
    result: SampleResult
    started_at: str
    finished_at: str
    scratch: Path
    files: dict[str, bytes]
    host: str


_BACKENDS: dict[tuple[str, bool, bool], Backend] = {}  # per worker process: caches stay warm


def _backend(spec: _Spec) -> Backend:
    key = (spec.backend, spec.allow_local, spec.any_source)
    if key not in _BACKENDS:
        from inspector.services.deploy.choose import backend_factory

        _BACKENDS[key] = backend_factory(spec.allow_local, any_source=spec.any_source)(
            spec.backend)
    return _BACKENDS[key]


def _node_id() -> str:
    """Ray's id of the node this runs on (``?`` outside a Ray task)."""
    try:
        import ray

        return str(ray.get_runtime_context().get_node_id())
    except Exception:
        return "?"


def _node_name() -> str:
    """This node as progress shows it: host name and the start of Ray's node id."""
    return f"{socket.gethostname()}/{_node_id()[:8]}"


def evaluate_on_node(spec: _Spec, notices: Any = None, attempt: int = 1) -> _NodeResult:
    """The body of a Ray task: evaluate one sample into a scratch folder on this node;
    ``notices`` (a :class:`StartNotices` actor) is told first."""
    host = _node_name()
    if notices is not None:
        import ray

        # waited for (a millisecond or two): a worker dying right after must not lose it
        with contextlib.suppress(Exception):  # progress only: never fail a sample for it
            ray.get(notices.started.remote(f"{spec.task.name}/{spec.sample}", attempt, host,
                                           _node_id()), timeout=10)
    for what, path in (("generated repo", spec.repo), ("task's tests", spec.task.tests_dir)):
        if path is not None and not path.is_dir():
            raise FileNotFoundError(
                f"{what} {path} is not visible on node {host}: every node needs the tasks and "
                "predictions folders at the same path (see docs/cluster.md)")
    backend = _backend(spec)
    scratch = Path(tempfile.mkdtemp(prefix="inspector-sample-"))
    try:
        job = SampleJob(spec.run_id, spec.task, spec.sample, spec.repo, scratch, spec.limits,
                        threading.Event())
        started = now_iso()
        result = evaluate_sample(backend, job)
        if infrastructure_failed(result):  # the driver retries it, elsewhere if it can
            raise InfrastructureFailure(f"{result.error} (on {host})")
        files = {p.relative_to(scratch).as_posix(): p.read_bytes()
                 for p in sorted(scratch.rglob("*")) if p.is_file()}
        return _NodeResult(result, started, now_iso(), scratch, files, host)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _relocate(nr: _NodeResult, folder: Path) -> SampleResult:
    """The result with the node's scratch paths pointing into the run's sample folder."""

    def move(p: Path) -> Path:
        try:
            return folder / p.relative_to(nr.scratch)
        except ValueError:
            return p

    return replace(nr.result, logs={ph: move(p) for ph, p in nr.result.logs.items()})


def infra_kind(exc: BaseException) -> str:
    """A short name for an infrastructure failure (the Ray error, or what a task raised)."""
    cause = getattr(exc, "cause", None)
    if cause is not None and cause is not exc:
        return f"{type(exc).__name__}: {type(cause).__name__}: {cause}".splitlines()[0][:300]
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:300]


class RayExecutor:
    """Runs an evaluation's samples as Ray tasks; see the module's docstring."""

    name = "ray"

    def __init__(self, settings: RaySettings, out: Path, progress: ProgressFn | None = None,
                 cancel: threading.Event | None = None) -> None:
        if settings.backend == "local" and not settings.allow_local:
            raise EvaluationError("the local backend runs untrusted generated code as plain "
                                  "processes on the cluster's nodes; pass --allow-local-exec "
                                  "to allow it")
        if settings.backend not in ("local", "docker"):
            raise EvaluationError(f"unknown backend {settings.backend!r} (docker or local)")
        self.settings = settings
        self.out = out
        self.progress = progress
        self.cancel = cancel or threading.Event()
        self.backend_name = settings.backend
        self.attempts: dict[tuple[str, int], int] = {}  # what ran, for tests and figures
        self.hosts: dict[tuple[str, int], str] = {}
        self._on_node: dict[str, tuple[str, str]] = {}  # sample -> the node its attempt runs on
        self._avoid: dict[str, set[str]] = {}  # sample -> ids of nodes that failed it

    def _say(self, sid: str, msg: str) -> None:
        if self.progress:
            self.progress(sid, msg)

    def _connect(self) -> Any:
        try:
            import ray
        except ImportError:
            raise EvaluationError("the ray executor needs Ray: pip install "
                                  "'genesis-inspector[cluster]'") from None
        s = self.settings
        if not ray.is_initialized():
            try:
                if s.address:
                    ray.init(address=s.address, log_to_driver=False,
                             logging_level=logging.ERROR)
                else:
                    extra = {}
                    if s.backend == "docker":
                        from inspector.services.sandbox.engine import engine_reachable

                        if engine_reachable():
                            extra = {DOCKER_RESOURCE: 1024.0}
                    ray.init(address="local", resources=extra, include_dashboard=False,
                             log_to_driver=False, logging_level=logging.ERROR)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise EvaluationError(f"cannot reach the Ray cluster at "
                                      f"{s.address or 'a new local cluster'}: "
                                      f"{str(exc).splitlines()[0]}") from None
        if s.backend == "docker" and not ray.cluster_resources(  # type: ignore[no-untyped-call]
        ).get(DOCKER_RESOURCE):
            raise EvaluationError(
                f"no node of the Ray cluster advertises the {DOCKER_RESOURCE!r} resource, so "
                "no node can run a sandbox: start nodes that have a Docker engine with "
                "ray start ... --resources='{\"docker\": N}' (see docs/cluster.md)")
        return ray

    def execute(self, jobs: list[SampleJob], deliver: DeliverFn,
                board: ProgressBoard) -> None:
        """Submit every job, deliver each result as it arrives; retries infrastructure
        failures; on cancel, cancels every task still queued or running, cluster-wide."""
        if not jobs:
            return
        ray = self._connect()
        s = self.settings
        resources = {DOCKER_RESOURCE: 1.0} if s.backend == "docker" else {}
        remote = ray.remote(num_cpus=s.cpus_per_sample, resources=resources,
                            max_retries=0)(evaluate_on_node)
        notices = self._notices(ray)
        pending: dict[Any, tuple[SampleJob, int, list[str], float]] = {}
        attempt_of: dict[str, int] = {}

        def submit(job: SampleJob, attempt: int, notes: list[str]) -> None:
            spec = _Spec(job.run_id, job.task, job.sample, job.repo, job.limits, s.backend,
                         s.allow_local, s.any_source)
            key = job_key(job)
            attempt_of[key] = attempt
            task = remote
            avoid = self._avoid.get(key)
            if avoid:  # a retry prefers a node other than those that failed it
                from ray.util.scheduling_strategies import NodeLabelSchedulingStrategy, NotIn

                task = remote.options(scheduling_strategy=NodeLabelSchedulingStrategy(
                    hard={}, soft={NODE_ID_LABEL: NotIn(*sorted(avoid))}))  # type: ignore[no-untyped-call]
            pending[task.remote(spec, notices, attempt)] = (job, attempt, notes,
                                                            time.monotonic())

        for job in jobs:
            submit(job, 1, [])
            self._say(f"{job.run_id}/{job.task.name}/{job.sample}", "queued on the cluster")
        try:
            while pending:
                if self.cancel.is_set():
                    self._cancel_all(ray, pending)
                    return
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                self._drain(ray, notices, attempt_of, board)
                for ref in ready:
                    job, attempt, notes, _t = pending.pop(ref)
                    self._collect(ray, ref, job, attempt, notes, deliver, submit, board)
        except KeyboardInterrupt:
            self._cancel_all(ray, pending)
            raise
        finally:
            if notices is not None:
                with contextlib.suppress(Exception):
                    ray.kill(notices)

    def _notices(self, ray: Any) -> Any:
        """The start-notice actor, pinned to the driver's node (a worker node dying must not
        take it along); ``None`` when it cannot be made (progress then shows no node until a
        sample finishes)."""
        try:
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            here = ray.get_runtime_context().get_node_id()
            actor = ray.remote(num_cpus=0, max_restarts=0)(StartNotices).options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=here, soft=True))
            return actor.remote()
        except Exception:
            return None

    def _drain(self, ray: Any, notices: Any, attempt_of: dict[str, int],
               board: ProgressBoard) -> None:
        """Move the samples that started since the last look to "running" on their node."""
        if notices is None:
            return
        try:
            started = ray.get(notices.take.remote(), timeout=5)
        except Exception:
            return
        for key, attempt, node, node_id in started:
            if attempt_of.get(key) == attempt:  # a late notice of an earlier attempt: stale
                board.started(key, node)
                self._on_node[key] = (node, node_id)

    def _collect(self, ray: Any, ref: Any, job: SampleJob, attempt: int, notes: list[str],
                 deliver: DeliverFn, submit: Any, board: ProgressBoard) -> None:
        key = (job.task.name, job.sample)
        sid = f"{job.run_id}/{job.task.name}/{job.sample}"
        try:
            nr: _NodeResult = ray.get(ref)
        except ray.exceptions.TaskCancelledError:
            return
        except ray.exceptions.RayError as exc:  # the infrastructure's failure, never the repo's
            kind = infra_kind(exc)
            if self.cancel.is_set():
                return
            node, node_id = self._on_node.pop(job_key(job), ("", ""))
            where = f" on {node}" if node else ""
            if node_id:
                self._avoid.setdefault(job_key(job), set()).add(node_id)
            if attempt <= self.settings.max_retries:
                notes.append(f"attempt {attempt} failed{where} for an infrastructure reason "
                             f"({kind}); retried")
                self._say(sid, f"infrastructure failure, retrying: {kind}")
                board.retry(job_key(job))
                submit(job, attempt + 1, notes)
                return
            notes.append(f"attempt {attempt} failed{where} for an infrastructure reason "
                         f"({kind})")
            self.attempts[key] = attempt
            self._say(sid, f"infrastructure failure, giving up after {attempt} attempts "
                           "(re-run the same command to resume)")
            deliver(Delivery(None, None, None, task=job.task.name, sample=job.sample,
                             infra_failure="\n".join(notes),
                             not_evaluable=NotEvaluable("worker_lost", "; ".join(notes))))
            return
        self.attempts[key] = attempt
        self.hosts[key] = nr.host
        folder = job.out_dir
        result = _relocate(nr, folder)
        if notes:
            result = replace(result, notes=(*result.notes, *notes,
                                            f"attempt {attempt} completed on {nr.host}"))
        self._say(sid, f"finished on {nr.host}" + (f" (attempt {attempt})" if notes else ""))
        deliver(Delivery(result, nr.started_at, nr.finished_at, nr.files,
                         task=job.task.name, sample=job.sample, node=nr.host))

    def _cancel_all(self, ray: Any, pending: dict[Any, Any]) -> None:
        """Cancel every queued or running task; wait (briefly) for them to clean up."""
        for ref in pending:
            ray.cancel(ref, force=False)
        deadline = time.monotonic() + 30
        refs = list(pending)
        while refs and time.monotonic() < deadline:
            _, refs = ray.wait(refs, num_returns=len(refs), timeout=1.0)
        pending.clear()
