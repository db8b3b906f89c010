"""Run the label-suggestion engine over the bundled runs and time it.

Usage::

    python bench/bench_suggest.py [--tests] [--no-readme] [--repeat N] [PATH ...]

Loads every run under each PATH (default: ``sample_runs/runs`` and ``sample_runs/repogenesis``)
with :func:`inspector.model.discover_runs`, and prints, for each failing sample, the sample id,
the suggested category, the rule that fired and its reason (``-`` when no rule fired), then the
time per sample. ``--tests`` also prints a suggestion per failing test; ``--no-readme`` does not
pass the task README (as when the tasks folder is not found); ``--repeat`` runs the engine N
times per sample and reports the median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from inspector.model.runs.discover import discover_runs  # noqa: E402
from inspector.services.triage.exception_rules import suggest  # noqa: E402

DEFAULT_PATHS = (ROOT / "sample_runs" / "runs", ROOT / "sample_runs" / "repogenesis")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path, help="run folders (default: bundled runs)")
    ap.add_argument("--tests", action="store_true", help="also suggest per failing test")
    ap.add_argument("--no-readme", action="store_true", help="do not pass the task README")
    ap.add_argument("--repeat", type=int, default=1, help="timing repetitions per sample")
    args = ap.parse_args(argv)

    times_ms: list[float] = []
    counts: dict[str, int] = {}
    failing = 0
    for path in args.paths or list(DEFAULT_PATHS):
        found = discover_runs(path)
        for issue in found.errors:
            print(f"! {issue}", file=sys.stderr)
        for run in found.runs:
            for sample in sorted(run.samples, key=lambda s: (s.task, s.sample)):
                if sample.passed:
                    continue
                failing += 1
                task = found.tasks.get(sample.task) or run.tasks.get(sample.task)
                readme = None if args.no_readme or task is None else task.readme
                runs_ms = []
                result = None
                for _ in range(max(1, args.repeat)):
                    t0 = time.perf_counter()
                    result = suggest(sample, task_readme=readme)
                    runs_ms.append((time.perf_counter() - t0) * 1000)
                ms = statistics.median(runs_ms)
                times_ms.append(ms)
                category = result.category if result else "-"
                counts[category] = counts.get(category, 0) + 1
                print(f"{sample.sample_id}")
                print(f"    {category:<14} {result.rule if result else '-':<32} {ms:7.2f} ms")
                if result is not None:
                    print(f"    {result.reason}")
                    for anchor in result.evidence:
                        print(f"      · {anchor.describe()[:140]}")
                if args.tests:
                    for case in sample.failing_tests:
                        t = suggest(sample, test_id=case.id, task_readme=readme)
                        print(f"      test {case.id}: "
                              f"{(t.category + ' / ' + t.rule) if t else '-'}")
    if not times_ms:
        print("no failing samples found")
        return 0
    print()
    print(f"{failing} failing samples; " + ", ".join(
        f"{k}: {v}" for k, v in sorted(counts.items())))
    print(f"time per sample: median {statistics.median(times_ms):.2f} ms, "
          f"mean {statistics.fmean(times_ms):.2f} ms, max {max(times_ms):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
