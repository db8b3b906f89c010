"""The evaluation's live progress: which samples are queued, running (on which node) and done,
the throughput and the ETA; kept by the driver and written to ``progress.json`` in the run
folder (see :mod:`inspector.model.runs.progress`) for the app and anyone watching.

Executors report what happens (:meth:`ProgressBoard.started`, :meth:`ProgressBoard.finished`,
…) from any thread; a background thread writes the file at most every ``min_interval``
seconds when something changed and every ``heartbeat`` seconds regardless, so a reader can
tell a quiet evaluation from a dead one.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from inspector.model.runs.progress import (
    IN_FLIGHT_CAP,
    PROGRESS_FILE,
    InFlight,
    NodeProgress,
    RunProgress,
)
from inspector.services.logs.phase_log import now_iso
from inspector.services.storage.atomic import write_json_atomic

RATE_WINDOW_SECONDS = 600.0
"""Throughput counts the samples settled in the last ten minutes (from the first sample's
start, so connecting to a cluster is not counted): a cold start (images, virtualenvs) weighs
less as the run goes on, and a slowdown shows within minutes."""


@dataclass
class _Node:
    running: int = 0
    done: int = 0
    passed: int = 0
    infra_failures: int = 0


def format_duration(seconds: float | None) -> str:
    """``45s``, ``3m 20s``, ``2h 05m``; ``?`` when unknown."""
    if seconds is None:
        return "?"
    s = int(round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m {s % 60:02d}s"
    return f"{s // 3600}h {s % 3600 // 60:02d}m"


def summary_line(p: RunProgress) -> str:
    """One line: done of total, running, queued, throughput, ETA, done per node."""
    parts = [f"{p.done + p.infra_failed}/{p.total} done ({p.passed} passed)",
             f"{p.running} running", f"{p.queued} queued"]
    if p.retried:
        parts.append(f"{p.retried} retried")
    if p.infra_failed:
        parts.append(f"{p.infra_failed} infrastructure-failed")
    if p.rate_per_min is not None:
        parts.append(f"{p.rate_per_min:.1f} samples/min")
    if p.eta_seconds is not None and not p.finished:
        parts.append(f"ETA {format_duration(p.eta_seconds)}")
    line = "progress: " + ", ".join(parts)
    nodes = [n for n in p.nodes if n.done or n.running]
    if len(nodes) > 1 or p.executor != "local":
        line += "; by node (running/done): " + ", ".join(
            f"{n.node} {n.running}/{n.done}" for n in nodes)
    return line


class ProgressBoard:
    """Thread-safe progress of one evaluation; see the module's docstring.

    ``out``: the run folder (``None``: keep it in memory only). ``total``: samples this
    evaluation sets out to do; ``resumed``: those a previous one finished."""

    def __init__(self, run_id: str, executor: str, total: int, resumed: int = 0,
                 out: Path | None = None, *, min_interval: float = 0.5,
                 heartbeat: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.run_id = run_id
        self.executor = executor
        self.total = total
        self.resumed = resumed
        self.path = out / PROGRESS_FILE if out is not None else None
        self.min_interval = min_interval
        self.heartbeat = heartbeat
        self.clock = clock
        self.host = socket.gethostname()
        self.started_at = now_iso()
        self.status = "running"
        self.write_error: str | None = None  # the last failed write, said once by the CLI
        self._first_start: float | None = None  # the rate counts from here (not set-up)
        self._lock = threading.Lock()
        self._queued: set[str] = set()
        self._running: dict[str, tuple[str, str]] = {}  # sample -> (node, since)
        self._nodes: dict[str, _Node] = {}
        self._settled: deque[float] = deque()  # clock() of each settled sample, in the window
        self._done = self._passed = self._retried = self._infra_failed = 0
        self._dirty = threading.Event()
        self._stop = threading.Event()
        self._writer: threading.Thread | None = None
        self._on_settled: list[Callable[[RunProgress], object]] = []

    def on_settled(self, fn: Callable[[RunProgress], object]) -> None:
        """Call ``fn(snapshot)`` (on the reporting thread) each time a sample settles."""
        self._on_settled.append(fn)

    def _settled_now(self) -> None:
        self._dirty.set()
        if self._on_settled:
            snap = self.snapshot()
            for fn in self._on_settled:
                fn(snap)

    # -- events (any thread) -----------------------------------------------------------------
    def queued(self, sample: str) -> None:
        """``sample`` (``TASK/N``) waits for a node."""
        with self._lock:
            self._queued.add(sample)
        self._dirty.set()

    def started(self, sample: str, node: str) -> None:
        """``sample`` started on ``node``; a late notice for a settled sample is ignored."""
        with self._lock:
            if sample not in self._queued:
                return
            self._queued.discard(sample)
            self._running[sample] = (node, now_iso())
            self._node(node).running += 1
            if self._first_start is None:
                self._first_start = self.clock()
        self._dirty.set()

    def finished(self, sample: str, passed: bool, node: str | None = None) -> None:
        """``sample`` has a result (``node``: where it ran, if the executor knows best)."""
        with self._lock:
            where = self._leave(sample, node)
            n = self._node(where)
            n.done += 1
            n.passed += passed
            self._done += 1
            self._passed += passed
            self._settled.append(self.clock())
        self._settled_now()

    def retry(self, sample: str) -> None:
        """``sample``'s attempt failed for an infrastructure reason; it is queued again."""
        with self._lock:
            where = self._leave(sample, None)
            self._node(where).infra_failures += 1
            self._retried += 1
            self._queued.add(sample)
        self._dirty.set()

    def gave_up(self, sample: str) -> None:
        """``sample``'s last attempt failed for an infrastructure reason: left for a resume."""
        with self._lock:
            where = self._leave(sample, None)
            self._node(where).infra_failures += 1
            self._infra_failed += 1
            self._settled.append(self.clock())
        self._settled_now()

    def _leave(self, sample: str, node: str | None) -> str:
        self._queued.discard(sample)
        was = self._running.pop(sample, None)
        if was is not None:
            self._node(was[0]).running -= 1
        return node or (was[0] if was else self.host)

    def _node(self, name: str) -> _Node:
        return self._nodes.setdefault(name, _Node())

    # -- reading -----------------------------------------------------------------------------
    def snapshot(self) -> RunProgress:
        """The progress now."""
        with self._lock:
            now = self.clock()
            while self._settled and now - self._settled[0] > RATE_WINDOW_SECONDS:
                self._settled.popleft()
            since = self._first_start if self._first_start is not None else now
            span = min(max(now - since, 1e-6), RATE_WINDOW_SECONDS)
            settled = self._done + self._infra_failed
            rate = len(self._settled) / span * 60 if self._settled else None
            left = max(0, self.total - settled)
            eta = left / rate * 60 if rate else None
            running = sorted(self._running.items(), key=lambda kv: (kv[1][1], kv[0]))
            return RunProgress(
                run_id=self.run_id, executor=self.executor, driver_host=self.host,
                driver_pid=os.getpid(), started_at=self.started_at, updated_at=now_iso(),
                status=self.status, total=self.total, resumed=self.resumed, done=self._done,
                passed=self._passed, running=len(self._running), queued=len(self._queued),
                retried=self._retried, infra_failed=self._infra_failed,
                rate_per_min=round(rate, 2) if rate is not None else None,
                eta_seconds=round(eta, 1) if eta is not None else None,
                nodes=tuple(NodeProgress(k, v.running, v.done, v.passed, v.infra_failures)
                            for k, v in sorted(self._nodes.items())),
                in_flight=tuple(InFlight(s, node, since)
                                for s, (node, since) in running[:IN_FLIGHT_CAP]))

    # -- the file ----------------------------------------------------------------------------
    def start(self) -> None:
        """Write the file now and keep it up to date from a background thread."""
        self.write()
        if self.path is not None and self._writer is None:
            self._writer = threading.Thread(target=self._keep_written, daemon=True,
                                            name="progress-writer")
            self._writer.start()

    def _keep_written(self) -> None:
        last = self.clock()
        while not self._stop.wait(self.min_interval):
            if self._dirty.is_set() or self.clock() - last >= self.heartbeat:
                self.write()
                last = self.clock()

    def write(self) -> None:
        """Write ``progress.json`` atomically (a failure is remembered, never raised: the
        progress file must not stop an evaluation)."""
        self._dirty.clear()
        if self.path is None:
            return
        try:
            write_json_atomic(self.path, self.snapshot().to_json())
        except OSError as exc:
            self.write_error = f"{self.path}: cannot write progress: {exc}"

    def close(self, status: str) -> None:
        """The evaluation ended with ``status``: nothing runs or waits any more."""
        with self._lock:
            self.status = status
            for sample in list(self._running):
                self._leave(sample, None)
            self._queued.clear()
        self._stop.set()
        if self._writer is not None:
            self._writer.join(timeout=5)
            self._writer = None
        self.write()
