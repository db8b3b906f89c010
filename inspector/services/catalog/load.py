"""Run locations turned into index rows, in worker processes when the build is large.

Reading ``result.json`` files, computing metrics and scanning repos for tampering is CPU-bound
and independent per location, so a large build (the 10,000-sample grid) spreads it over the
machine's cores. Workers are plain ``python -m inspector.services.catalog.worker`` processes
(never ``multiprocessing``: its ``spawn`` re-imports the caller's main module and its ``fork``
is unsafe beside the app's threads), each given every N-th location and answering one
pickled frame per location, in order. The catalog stays the single writer of the index and
stores the rows in the order the locations were found, so a parallel build writes the same
index as a serial one. Small builds stay in-process: starting workers would cost more than it
saves. ``GENESIS_INDEX_JOBS`` overrides the choice (``1``: never; ``N``: N workers). A worker
that dies or answers nonsense is not an error: what it had not delivered is loaded here.
"""

from __future__ import annotations

import os
import pickle
import queue
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from inspector.model.benchmark.task import Task
from inspector.model.runs.discover import RunLocation, load_location
from inspector.model.untrusted.errors import LoadIssue
from inspector.services.catalog.index import RunRows, run_rows

POOL_FROM_SAMPLES = 2000
"""A build this large (sample folders counted before loading) is spread over processes."""
MAX_JOBS = 4
_FRAME = struct.Struct("!Q")

Rows = tuple[list[RunRows], list[LoadIssue]]
Loaded = tuple[RunLocation, str, list[RunRows], list[LoadIssue]]


class WorkerLost(Exception):
    """A worker process exited or sent something unreadable."""


def load_rows(todo: list[tuple[RunLocation, str]], tasks: dict[str, Task], root: Path,
              cancelled: Callable[[], bool] | None = None) -> Iterator[Loaded]:
    """Each ``(location, signature)`` of ``todo`` loaded into rows, yielded in ``todo``'s
    order; stops early (yielding fewer) once ``cancelled()`` is true."""
    stop = cancelled or (lambda: False)
    jobs = jobs_for(todo)
    done = 0
    if jobs > 1:
        try:
            for item in _pooled(todo, tasks, root, jobs, stop):
                done += 1
                yield item
            return
        except WorkerLost:
            pass
    for loc, sig in todo[done:]:
        if stop():
            return
        yield (loc, sig, *load_one(loc, tasks, root))


def load_one(loc: RunLocation, tasks: dict[str, Task], root: Path) -> Rows:
    """The index rows of one location and the problems met loading it. A location that fails
    in a way the loaders did not foresee is one problem naming it, never the end of the
    build (the index must not stop at a run it cannot read)."""
    try:
        runs, issues = load_location(loc, tasks if loc.kind != "run" else None, root)
        return [run_rows(loc, run) for run in runs], issues
    except Exception as exc:  # noqa: BLE001 - reported, naming the location
        why = " ".join(str(exc).split())  # one line, whole: a reason is never cut
        return [], [LoadIssue(loc.path, "", f"not indexed: {type(exc).__name__}: {why}",
                              "error")]


def jobs_for(todo: list[tuple[RunLocation, str]]) -> int:
    """How many worker processes to load ``todo`` with (1: in this process)."""
    forced = os.environ.get("GENESIS_INDEX_JOBS", "").strip()
    if forced.isdigit() and int(forced) > 0:
        return min(int(forced), len(todo))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if (cores or 1) < 2 or len(todo) < 2:
        return 1
    if sum(_sample_folders(loc) for loc, _ in todo) < POOL_FROM_SAMPLES:
        return 1
    return min(cores or 1, MAX_JOBS, len(todo))


def _sample_folders(loc: RunLocation) -> int:
    """Sample folders of a run folder (``samples/<task>/<n>``), counted without reading."""
    if loc.kind != "run":
        return 0
    total = 0
    try:
        with os.scandir(loc.path / "samples") as tasks:
            for task in tasks:
                if task.is_dir(follow_symlinks=False):
                    with os.scandir(task.path) as samples:
                        total += sum(1 for _ in samples)
    except OSError:
        return total
    return total


def write_frame(stream: IO[bytes], value: object) -> None:
    """One length-prefixed pickle on ``stream``."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_FRAME.pack(len(data)) + data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> object:
    """The next frame of ``stream``; :class:`WorkerLost` at its end or on a short read."""
    head = stream.read(_FRAME.size)
    if len(head) < _FRAME.size:
        raise WorkerLost("worker output ended")
    (size,) = _FRAME.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        raise WorkerLost("worker output cut short")
    return pickle.loads(data)


def _pooled(todo: list[tuple[RunLocation, str]], tasks: dict[str, Task], root: Path,
            jobs: int, stop: Callable[[], bool]) -> Iterator[Loaded]:
    package_parent = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH"))
                                        if p)
    workers: list[subprocess.Popen[bytes]] = []
    answers: list[queue.Queue[object]] = [queue.Queue() for _ in range(jobs)]
    try:
        try:
            for _ in range(jobs):
                workers.append(subprocess.Popen(
                    [sys.executable, "-m", "inspector.services.catalog.worker"],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                    env=env))
        except OSError as exc:  # no interpreter to start, out of processes
            raise WorkerLost(str(exc)) from None
        for w, proc in enumerate(workers):
            assert proc.stdin is not None and proc.stdout is not None
            try:
                write_frame(proc.stdin, (tasks, root, [loc for loc, _ in todo[w::jobs]]))
                proc.stdin.close()
            except OSError as exc:  # the worker is gone already
                raise WorkerLost(str(exc)) from None
            threading.Thread(target=_drain, args=(proc.stdout, answers[w]),
                             daemon=True).start()
        for i, (loc, sig) in enumerate(todo):
            answer = _next(answers[i % jobs], stop)
            if answer is None:
                return
            if not (isinstance(answer, tuple) and len(answer) == 2):
                raise WorkerLost(f"unexpected answer for {loc.path}")
            rows, issues = answer
            yield loc, sig, rows, issues
    finally:
        for proc in workers:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def _drain(stream: IO[bytes], into: queue.Queue[object]) -> None:
    try:
        while True:
            into.put(read_frame(stream))
    except Exception as exc:  # the end of the stream, a dead worker, an unreadable frame
        into.put(WorkerLost(str(exc)))


def _next(answers: queue.Queue[object], stop: Callable[[], bool]) -> object | None:
    """The worker's next answer, or None once ``stop()`` (polled while waiting)."""
    while not stop():
        try:
            answer = answers.get(timeout=0.2)
        except queue.Empty:
            continue
        if isinstance(answer, WorkerLost):
            raise answer
        return answer
    return None
