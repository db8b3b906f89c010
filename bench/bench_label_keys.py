"""Labelling key → label on disk, through the app, this tree side by side with a baseline.

    python bench/bench_label_keys.py [--keys 20] [--runs 3] [--baseline main]

Each run opens the review queue of ``sample_runs/`` (the real app under Textual's Pilot,
labels in a temporary folder) and presses category keys, one per failing sample; a key
labels the sample and moves on. Timed: from the key press until the annotator's label file
has been rewritten (its mtime changes), and the press alone (the screen's work before the
next key is read). The baseline is the same script run on ``git archive <baseline>`` of
this repository, in the same interpreter. Prints medians over all keys of all runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
KEYS = "12345"


async def _measure(root: Path, keys: int) -> dict[str, list[float]]:
    from textual.worker import WorkerCancelled

    from inspector.config import load_settings
    from inspector.ui.app import InspectorApp

    tmp = Path(tempfile.mkdtemp(prefix="bench-keys-"))
    try:
        os.environ["GENESIS_INSPECTOR_CONFIG"] = str(tmp / "config.toml")
        os.environ["GENESIS_INSPECTOR_CACHE"] = str(tmp / "cache")
        labels = tmp / "labels"
        shutil.copytree(root / "sample_runs" / "labels", labels)
        app = InspectorApp(root / "sample_runs", settings=load_settings(), watch=False,
                           labels_dir=labels, annotator="bench")
        file = labels / "annotators" / "bench.json"
        out: dict[str, list[float]] = {"write": [], "press": []}
        async with app.run_test(size=(160, 45)) as pilot:
            async def settle() -> None:
                for _ in range(5):
                    try:
                        await app.workers.wait_for_complete()
                        return
                    except WorkerCancelled:
                        await pilot.pause(0.05)

            await settle()
            await pilot.press("2", "L")
            await settle()
            for n in range(keys):
                before = file.stat().st_mtime_ns if file.exists() else 0
                t0 = time.perf_counter()
                await pilot.press(KEYS[n % len(KEYS)])
                out["press"].append(time.perf_counter() - t0)
                while not file.exists() or file.stat().st_mtime_ns == before:
                    await asyncio.sleep(0.0005)
                    if time.perf_counter() - t0 > 10:
                        raise SystemExit(f"key {n + 1}: no label written within 10 s")
                out["write"].append(time.perf_counter() - t0)
                await settle()  # the next sample's evidence is loaded before the next key
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _child(root: Path, keys: int, runs: int) -> None:
    total: dict[str, list[float]] = {"write": [], "press": []}
    for _ in range(runs):
        got = asyncio.run(_measure(root, keys))
        for k, v in got.items():
            total[k].extend(v)
    print(json.dumps(total))


def _run(tree: Path, keys: int, runs: int) -> dict[str, list[float]]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                           str(tree), "--keys", str(keys), "--runs", str(runs)],
                          env=env, cwd=tree, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark on {tree} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--keys", type=int, default=20)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--baseline", default="main", help="git revision to compare with")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        _child(args.child, args.keys, args.runs)
        return
    with tempfile.TemporaryDirectory(prefix="bench-keys-base-") as base:
        archive = subprocess.run(["git", "-C", str(HERE), "archive", args.baseline],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", base], input=archive, check=True)
        figures = {args.baseline: _run(Path(base), args.keys, args.runs),
                   "this tree": _run(HERE, args.keys, args.runs)}
    print(f"{args.keys} keys x {args.runs} runs, medians (ms)")
    print(f"{'':>12} {'key→on disk':>12} {'press':>8}")
    for name, f in figures.items():
        print(f"{name:>12} {statistics.median(f['write']) * 1000:>12.1f} "
              f"{statistics.median(f['press']) * 1000:>8.1f}")


if __name__ == "__main__":
    main()
