"""What keeping a grid-scale evaluation's live progress costs the driver.

    python bench/bench_progress.py [--samples 15000] [--nodes 25] [--running 100]

A RepoGenesis grid is ~15,000 samples; on a cluster ~100 run at once. The driver's progress
writer snapshots the board and rewrites ``progress.json`` at most twice a second; every
executor thread (or the Ray driver loop) reports each start and finish. Printed side by side,
in one run: the writer's snapshot + atomic write, one start+finish report, and the baseline
the driver already pays per sample — rewriting ``run.json`` with every finished sample listed
(``write_run_json``), at the same scale.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from inspector.model import Task
from inspector.services.evaluate.progress_board import ProgressBoard
from inspector.services.evaluate.run_writer import write_run_json


def timed(fn: object, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=15000)
    ap.add_argument("--nodes", type=int, default=25)
    ap.add_argument("--running", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=50)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        board = ProgressBoard("grid", "ray", a.samples, out=out)
        keys = [f"task{n % 100}/{n // 100}" for n in range(a.samples)]
        for k in keys:
            board.queued(k)
        half = a.samples // 2
        for i, k in enumerate(keys[:half]):  # half done, spread over the nodes
            board.started(k, f"node{i % a.nodes}")
            board.finished(k, i % 3 == 0)
        for i, k in enumerate(keys[half:half + a.running]):
            board.started(k, f"node{i % a.nodes}")
        write = timed(board.write, a.repeat)
        size = (out / "progress.json").stat().st_size
        spare = keys[half + a.running:half + a.running + a.repeat * 20]
        events = []
        for i in range(0, len(spare), 20):
            chunk = spare[i:i + 20]
            t0 = time.perf_counter()
            for k in chunk:
                board.started(k, "node0")
                board.finished(k, True)
            events.append((time.perf_counter() - t0) / len(chunk))
        task = Task(name="t", language="python", framework="flask", port=8000, readme="",
                    root=out)
        samples = [(f"task{n % 100}", n // 100) for n in range(half)]

        def run_json() -> None:
            write_run_json(out, run_id="grid", agent="a", model="m", language="python",
                           generation_date=None, created_at="2026-11-26T00:00:00+00:00",
                           finished_at=None, status="running", predictions=[out],
                           tasks_root=out, tasks=[task], samples=samples, backend="docker",
                           settings={}, elapsed_seconds=1.0)

        baseline = timed(run_json, max(5, a.repeat // 5))
        run_size = (out / "run.json").stat().st_size
    ms = 1000
    print(f"board: {a.samples} samples, {half} done, {a.running} running on {a.nodes} nodes")
    print(f"{'what':58} {'median':>9} {'p90':>9}")
    for name, xs in (
            ("progress.json snapshot + atomic write (writer, <=2/s)", write),
            ("one start + finish report (per sample, any thread)", events),
            ("baseline: run.json rewrite per finished sample (today)", baseline)):
        xs = sorted(xs)
        print(f"{name:58} {statistics.median(xs) * ms:8.3f}ms "
              f"{xs[int(len(xs) * 0.9) - 1] * ms:8.3f}ms")
    print(f"file sizes: progress.json {size / 1024:.1f} KB, run.json {run_size / 1024:.1f} KB")


if __name__ == "__main__":
    main()
