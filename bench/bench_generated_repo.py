"""Time the readers of a generated repository before and after issue 16's GeneratedRepo and
shared failure-text patterns, side by side in one run.

    python bench/bench_generated_repo.py [--before REV] [--rounds N] [--repeat N]

"before" is this repository at git revision REV (default ``f7145ee``, the services
reorganisation), checked out in a temporary worktree that is removed at the end; "after" is
this checkout. Each round runs every workload once in a fresh interpreter for each side,
alternating which side goes first, so both see the same machine load; a workload's figure is
the median over rounds of the median of ``--repeat`` timings inside the interpreter. Timings
are the interpreter's CPU time (``time.process_time``): on a shared machine, wall-clock time
mostly measures the other jobs (none of these workloads waits on I/O or starts processes),
while the project's own two scripts keep their wall-clock figures.

Workloads (inputs are this checkout's files for both sides, so both read the same bytes):

* ``suggest``: the label rules on every failing sample of ``sample_runs`` and on each of its
  failing tests (as ``bench/bench_suggest.py --tests`` does), no context shared;
* ``suggest+ctx``: the same calls sharing one ``SampleContext`` per sample (after only);
* ``triage``: ``triage_all`` over ``sample_runs`` (what ``inspector labels suggest --score``
  computes), a fresh triage context each time;
* ``coverage``: ``compute_coverage`` of this project's ``inspector/`` folder against a
  bundled task README (as ``bench/bench_coverage.py``);
* ``refs``: ``find_refs`` on every failing test's message and traceback, with its repo;
* ``tree``: ``list_repo_tree`` of this checkout; ``discover``: ``discover_runs(sample_runs)``;
* ``bench_suggest``: ``bench/bench_suggest.py --repeat 3``'s median time per sample, and
  ``bench_coverage``: ``bench/bench_coverage.py inspector/ --repeat 5``'s time, each script
  run from that side's checkout (its own code) on this checkout's inputs.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "f7145ee"

WORKER = r'''
import json, statistics, sys, time
from pathlib import Path
code, data, repeat = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, str(code))
from inspector.model.runs.discover import discover_runs
from inspector.model.readme.reader import extract_endpoints
from inspector.services.triage import exception_rules as ls
from inspector.services.repo.coverage import compute_coverage
from inspector.services.repo.preview import list_repo_tree
from inspector.services.repo.references import find_refs
from inspector.services.triage.engine import TriageContext, triage_all
assert Path(ls.__file__).is_relative_to(code), ls.__file__

found = discover_runs(data / "sample_runs")
runs = found.runs
work = []
for run in runs:
    for s in run.samples:
        if s.passed and s.deployment.success:
            continue
        task = found.tasks.get(s.task) or run.tasks.get(s.task)
        work.append((s, task.readme if task else None))
eps = extract_endpoints((data / "sample_runs/tasks/repo/UserManagement_2/README.md").read_text())

def suggest_all():
    return [ls.suggest(s, t, task_readme=r) for s, r in work
            for t in (None, *(c.id for c in s.failing_tests))]

def suggest_ctx():
    out = []
    for s, r in work:
        ctx = ls.SampleContext(s, r)
        out.extend(ls.suggest(s, t, task_readme=r, context=ctx)
                   for t in (None, *(c.id for c in s.failing_tests)))
    return out

def refs():
    task_root = data / "sample_runs" / "tasks"
    return [find_refs(f"{c.message}\n{c.traceback}", s.repo_path, task_root)
            for s, _ in work for c in s.failing_tests]

loads = {
    "suggest": suggest_all,
    "triage": lambda: triage_all(TriageContext.of_runs(runs)),
    "coverage": lambda: compute_coverage(data / "inspector", eps),
    "refs": refs,
    "tree": lambda: list_repo_tree(data),
    "discover": lambda: discover_runs(data / "sample_runs"),
}
if hasattr(ls, "SampleContext"):
    loads["suggest+ctx"] = suggest_ctx
out = {}
for name, fn in loads.items():
    fn()  # warm the caches every run has (imports, compiled patterns)
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append((time.process_time() - t) * 1000)
    out[name] = statistics.median(times)
print(json.dumps(out))
'''


def _run(code: Path, repeat: int) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", WORKER, str(code), str(ROOT), str(repeat)],
                          capture_output=True, text=True, check=False, cwd=str(code))
    if proc.returncode != 0:
        raise SystemExit(f"worker for {code} failed:\n{proc.stderr[-3000:]}")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _scripts(code: Path) -> dict[str, float]:
    """The figures of the project's own bench scripts, run from ``code``."""
    out: dict[str, float] = {}
    sug = subprocess.run([sys.executable, "bench/bench_suggest.py", "--repeat", "3",
                          str(ROOT / "sample_runs" / "runs"),
                          str(ROOT / "sample_runs" / "repogenesis")],
                         capture_output=True, text=True, check=True, cwd=str(code)).stdout
    times = [float(t) for t in re.findall(r"^    \S+\s+\S+\s+([\d.]+) ms$", sug, re.M)]
    if times:
        out["bench_suggest"] = sum(times)  # every failing sample, each a median of 3
    cov = subprocess.run([sys.executable, "bench/bench_coverage.py", str(ROOT / "inspector"),
                          "--before", "no-such-revision", "--repeat", "5"],
                         capture_output=True, text=True, check=True, cwd=str(code)).stdout
    m = re.search(r"^after \(route resolver\)\s+([\d.]+)", cov, re.M)
    if m:
        out["bench_coverage"] = float(m.group(1)) * 1000
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default=BEFORE, help="git revision of the baseline")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-gr-") as tmp:
        old = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(old),
                        args.before], check=True)
        try:
            before: dict[str, list[float]] = {}
            after: dict[str, list[float]] = {}
            for n in range(args.rounds):
                order = [(old, before), (ROOT, after)]
                for code, into in order if n % 2 == 0 else reversed(order):
                    for name, ms in {**_run(code, args.repeat), **_scripts(code)}.items():
                        into.setdefault(name, []).append(ms)
                print(f"round {n + 1}/{args.rounds} done", file=sys.stderr)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False)
    print(f"median CPU ms over {args.rounds} rounds (each a median of {args.repeat}); "
          f"before = {args.before}, after = this checkout")
    print("paired = median over rounds of after/before within a round (the two sides ran "
          "back to back, so machine load cancels out best there)")
    print(f"{'workload':<14} {'before':>9} {'after':>9} {'after/before':>13} {'paired':>8}")
    for name in after:
        a = statistics.median(after[name])
        if name not in before:
            ratios = [x / y for x, y in zip(after[name], after["suggest"], strict=True)]
            print(f"{name:<14} {'-':>9} {a:9.1f} {'-':>13} {statistics.median(ratios):7.2f}x"
                  " (of after's suggest)")
            continue
        b = statistics.median(before[name])
        ratios = [x / y for x, y in zip(after[name], before[name], strict=True)]
        print(f"{name:<14} {b:9.1f} {a:9.1f} {a / b:12.2f}x {statistics.median(ratios):7.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
