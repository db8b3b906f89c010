"""Generated-code metrics for every repo of a corpus: cold, and warm from the cache.

    python bench/bench_code_metrics.py [PREDICTIONS] [--jobs N] [--repeat R]

PREDICTIONS defaults to ``/tmp/gi-corpus/predictions`` (2,427 repos; see bench/README.md).
Each measurement runs ``inspector.services.analysis.samples.analyze_code`` in a fresh Python
process with its own cache file: "cold" with an empty cache (every repo read and measured by
radon + complexipy / lizard, ``--jobs`` worker processes), "warm" with the cache the cold run
left (every repo only stat'ed for its fingerprint). Printed per run: seconds (the median of
``--repeat`` rounds), repos and samples, and peak RSS of the main process and of the largest
worker (``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TREE = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from inspector.services.analysis.samples import analyze_code

path, cache, jobs = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
t0 = time.perf_counter()
report = analyze_code(path, jobs=jobs, cache_path=cache)
seconds = time.perf_counter() - t0
errors = sum(1 for s in report.samples if s.error)
skipped = sum(len(s.metrics.skipped) for s in report.samples if s.metrics)
sloc = sum(s.metrics.sloc for s in report.samples if s.metrics)
print(json.dumps({
    "seconds": seconds, "repos": report.repos, "samples": len(report.samples),
    "cached": report.cached, "errors": errors, "skipped_files": skipped, "sloc": sloc,
    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "worker_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def _run(path: Path, cache: Path, jobs: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(TREE))
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path), str(cache), str(jobs)],
                          capture_output=True, text=True, env=env, check=True)
    return json.loads(proc.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("path", nargs="?", type=Path, default=Path("/tmp/gi-corpus/predictions"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if not args.path.is_dir():
        sys.exit(f"{args.path}: no such folder (make one with bench/make_corpus.py)")
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):
            cache = Path(tmp) / f"cache{i}.json"
            cold.append(_run(args.path, cache, args.jobs))
            warm.append(_run(args.path, cache, args.jobs))
        size = cache.stat().st_size
    for name, rows in (("cold", cold), ("warm", warm)):
        secs = [r["seconds"] for r in rows]
        last = rows[-1]
        print(f"{name}: {statistics.median(secs):.2f} s median of {[round(s, 2) for s in secs]}"
              f"; {last['repos']:.0f} repos, {last['samples']:.0f} samples, "
              f"{last['cached']:.0f} from cache, {last['errors']:.0f} errors, "
              f"{last['skipped_files']:.0f} skipped files, {last['sloc']:.0f} SLOC; peak RSS "
              f"{last['rss_mb']:.0f} MB main, {last['worker_rss_mb']:.0f} MB largest worker")
    print(f"jobs {args.jobs}; cache file {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
