"""``inspector evaluate`` through Ray vs local threads, and Ray's per-sample overhead.

    python bench/bench_cluster.py [--repeat 2] [--task NAME ...]

Runs the CLI on the bundled forge agent's fast Python samples (local backend, warm venv cache
after a first untimed run): ``--jobs 1``, ``--jobs 2`` and ``--executor ray`` (a private
cluster on this machine, so its start-up counts), and prints samples per minute for each.
Then times Ray's scheduling overhead per task on a private cluster: a task that returns at once
with a payload the size of a sample's files (logs + JUnit, ~64 KB), submitted one at a time
(latency) and all at once (throughput), side by side with the same task sending the start
notice the progress display needs. Needs the ``cluster`` extra.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRED = ROOT / "sample_runs" / "predictions" / "repo_readme_1118_forge_m1-large_Python"
FAST = ["notes-api", "quote-board", "url-shortener", "inventory-api", "todo-service"]


def run_cli(out: Path, extra: list[str], tasks: list[str], env: dict[str, str]) -> float:
    args = [sys.executable, "-m", "inspector", "evaluate", "--tasks",
            str(ROOT / "sample_runs" / "tasks"), "--predictions", str(PRED), "--out", str(out),
            "--backend", "local", "--allow-local-exec", "--quiet", "--overwrite", *extra]
    for t in tasks:
        args += ["--task", t]
    t0 = time.monotonic()
    subprocess.run(args, check=True, env=env, capture_output=True)
    return time.monotonic() - t0


def payload_task(n: int) -> bytes:
    return b"x" * n


def noticed_payload_task(notices: object, n: int, i: int = 0) -> bytes:
    import ray

    ray.get(notices.started.remote(f"t/{i}", 1, "node", "id"))  # type: ignore[attr-defined]
    return b"x" * n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--task", action="append")
    a = ap.parse_args()
    tasks = a.task or FAST
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        run_cli(out, [], tasks, env)  # warm the venv cache
        configs = {"local --jobs 1": ["--jobs", "1"], "local --jobs 2": ["--jobs", "2"],
                   "ray (private cluster)": ["--executor", "ray"]}
        times: dict[str, list[float]] = {k: [] for k in configs}
        for _ in range(a.repeat):
            for name, extra in configs.items():
                times[name].append(run_cli(out, extra, tasks, env))
    print(f"{len(tasks)} samples, {a.repeat} repeats, {os.cpu_count()} CPUs")
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"  {name:24s} {m:6.1f} s  {60 * len(tasks) / m:5.1f} samples/min")

    import ray

    ray.init(address="local", include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
    f = ray.remote(num_cpus=1, max_retries=0)(payload_task)
    ray.get(f.remote(10))  # a worker up
    lat = []
    for _ in range(50):
        t0 = time.perf_counter()
        ray.get(f.remote(64 * 1024))
        lat.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    ray.get([f.remote(64 * 1024) for _ in range(200)])
    per = (time.perf_counter() - t0) / 200
    print(f"  ray task round trip (64 KB back): median {1000 * statistics.median(lat):.1f} ms, "
          f"p90 {1000 * sorted(lat)[44]:.1f} ms; 200 at once: {1000 * per:.1f} ms per task")

    # the same task telling the driver's start-notice actor it started (what progress costs)
    from inspector.services.evaluate.ray_executor import StartNotices

    notices = ray.remote(num_cpus=0)(StartNotices).remote()
    g = ray.remote(num_cpus=1, max_retries=0)(noticed_payload_task)
    ray.get(g.remote(notices, 10))
    lat_n = []
    for n in range(50):
        t0 = time.perf_counter()
        ray.get(g.remote(notices, 64 * 1024, n))
        lat_n.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    ray.get([g.remote(notices, 64 * 1024, n) for n in range(200)])
    per_n = (time.perf_counter() - t0) / 200
    print(f"  same, with its start notice (progress): median "
          f"{1000 * statistics.median(lat_n):.1f} ms, p90 {1000 * sorted(lat_n)[44]:.1f} ms; "
          f"200 at once: {1000 * per_n:.1f} ms per task")


if __name__ == "__main__":
    main()
