"""Run analyses on a corpus: ``inspector analyze PATH --runs`` and ``inspector compare``.

    python bench/bench_analysis.py /tmp/gi-corpus
    python bench/bench_analysis.py /tmp/gi-corpus --repeat 5 --runs RUN_A RUN_B

Every step runs in a fresh Python process (so its peak memory is its own) with a private
cache folder (``GENESIS_INSPECTOR_CACHE``), in this order:

1. ``index`` — the one-off catalog build for the corpus (what the app does on first open);
2. ``analyze`` — the whole ``analyze --runs --json`` work with the index built: catalog
   refresh (a stat of every run file), reading the outcomes, Pass@1 by framework and by
   language, categories from labels, cost vs pass, the JSON;
3. ``compare`` — ``compare RUN_A RUN_B --json`` (10,000 bootstrap resamples);
4. ``cli analyze`` / ``cli compare`` — the same as a user runs them (interpreter start-up and
   imports included), wall clock from outside;
5. ``whole analysis`` — what the app's Analysis tab computes in its worker
   (``overview_from_catalog``: outcomes from the index, every used task's README scored, Pass@1
   by tier/framework/language, categories, cost), side by side with its baseline in the same
   round: ``from disk`` — the same overview from every run loaded from its files
   (``discover_runs``), as one would without the index; and once more with the README
   spec-score cache removed (every task scored again);
6. ``app tab`` — headless app (160x50) on the corpus: from pressing 5 until the plots, the
   tasks table and the default comparison are shown.

Printed per step: median seconds over ``--repeat`` rounds and the largest peak RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TREE = Path(__file__).resolve().parent.parent

CHILD = r"""
import contextlib, io, json, resource, sys, time
from pathlib import Path
from inspector.cli import main

step, root, a, b = sys.argv[1:5]
t0 = time.perf_counter()
out = io.StringIO()
with contextlib.redirect_stdout(out):
    if step == "index":
        from inspector.services.analysis.source import load_outcomes
        loaded = load_outcomes(Path(root))
        code = 0 if loaded.runs else 1
    elif step == "analyze":
        code = main(["analyze", root, "--runs", "--json"])
    elif step == "whole":
        from inspector.services.analysis.source import refreshed
        from inspector.services.analysis.overview_load import overview_from_catalog
        with refreshed(Path(root)) as catalog:  # refreshed, as the app's is when the tab opens
            t0 = time.perf_counter()
            ov = overview_from_catalog(catalog, Path(root))
        code = 0 if ov.samples else 1
    elif step == "fromdisk":
        from inspector.model.runs.discover import discover_runs
        from inspector.services.analysis.outcomes import from_run
        from inspector.services.analysis.overview import analyze_used_tasks, build_overview
        found = discover_runs(Path(root))
        runs = [from_run(r) for r in found.runs]
        tasks = analyze_used_tasks(runs, found.tasks)
        ov = build_overview(Path(root), runs, tasks)
        code = 0 if ov.samples else 1
    elif step == "app":
        import asyncio
        from inspector.config import load_settings
        from inspector.ui.app import InspectorApp
        from inspector.ui.panes.analysis import AnalysisPane

        async def drive():
            app = InspectorApp(Path(root), settings=load_settings(), watch=False)
            async with app.run_test(size=(160, 50)) as pilot:
                while app.screen.query_one("#runs-table").row_count == 0:
                    await pilot.pause(0.05)
                for _ in range(3):  # the index refresh and health analysis, started in turn
                    await app.workers.wait_for_complete()
                    await pilot.pause(0.3)
                pane = app.screen.query_one(AnalysisPane)
                start = time.perf_counter()
                await pilot.press("5")
                while pane.comparison is None:
                    await pilot.pause(0.01)
                await pilot.pause()
                return time.perf_counter() - start

        elapsed = asyncio.run(drive())  # the app's start and exit are not counted
        t0 = time.perf_counter() - elapsed
        code = 0
    else:
        code = main(["compare", a, b, "--root", root, "--json"])
seconds = time.perf_counter() - t0
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"code": code, "seconds": seconds, "peak_mb": peak_mb,
                  "bytes": len(out.getvalue())}))
"""


def child(step: str, root: Path, a: str, b: str, env: dict[str, str]) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", CHILD, step, str(root), a, b],
                          capture_output=True, text=True, env=env, cwd=TREE, check=False)
    if proc.returncode != 0:
        sys.exit(f"{step} failed:\n{proc.stderr}")
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    if result["code"] != 0:
        sys.exit(f"{step} exited {result['code']}:\n{proc.stderr}")
    return result


def cli(args: list[str], env: dict[str, str]) -> dict[str, float]:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, env=env, cwd=TREE, check=False)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"inspector {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}")
    return {"seconds": seconds, "peak_mb": float("nan")}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("root", type=Path)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--runs", nargs=2, metavar=("RUN_A", "RUN_B"),
                   help="the two runs to compare (default: the first two Python runs)")
    args = p.parse_args()
    root = args.root.resolve()
    if args.runs:
        a, b = args.runs
    else:
        python = sorted(d.name for d in (root / "runs").iterdir() if d.name.endswith("_Python"))
        a, b = python[:2]
    with tempfile.TemporaryDirectory(prefix="gi-bench-analysis-") as cache:
        env = {**os.environ, "GENESIS_INSPECTOR_CACHE": cache,
               "GENESIS_INSPECTOR_CONFIG": str(Path(cache) / "config.toml"),
               "PYTHONPATH": str(TREE) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        index = child("index", root, a, b, env)
        print(f"index (one-off build): {index['seconds']:.2f} s, peak {index['peak_mb']:.0f} MB")
        rows: dict[str, list[dict[str, float]]] = {
            "analyze --runs": [], "compare": [], "cli analyze --runs": [], "cli compare": [],
            "whole analysis (index)": [], "whole analysis from disk (baseline)": [],
            "app tab: 5 -> shown": [], "whole analysis, README scores not cached": []}
        for _ in range(args.repeat):
            rows["analyze --runs"].append(child("analyze", root, a, b, env))
            rows["compare"].append(child("compare", root, a, b, env))
            rows["cli analyze --runs"].append(
                cli(["analyze", str(root), "--runs", "--json"], env))
            rows["cli compare"].append(cli(["compare", a, b, "--root", str(root), "--json"],
                                           env))
            rows["whole analysis (index)"].append(child("whole", root, a, b, env))
            rows["whole analysis from disk (baseline)"].append(
                child("fromdisk", root, a, b, env))
            rows["app tab: 5 -> shown"].append(child("app", root, a, b, env))
            (Path(cache) / "spec-complexity.pickle").unlink(missing_ok=True)
            rows["whole analysis, README scores not cached"].append(
                child("whole", root, a, b, env))
    print(f"compare: {a} vs {b}; {args.repeat} rounds")
    for name, results in rows.items():
        med = statistics.median(r["seconds"] for r in results)
        peaks = [r["peak_mb"] for r in results if r["peak_mb"] == r["peak_mb"]]
        peak = f", peak {max(peaks):.0f} MB" if peaks else ""
        print(f"  {name:<37} median {med:.2f} s{peak}")


if __name__ == "__main__":
    main()
