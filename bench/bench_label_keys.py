"""Labelling key → label on disk, through the app, this tree side by side with a baseline.

    python bench/bench_label_keys.py [--keys 20] [--runs 3] [--baseline main]

Each run opens the review queue of ``sample_runs/`` (the real app under Textual's Pilot,
labels in a temporary folder) and presses category keys, one per failing sample; a key
labels the sample and moves on. Timed: from the key press until the annotator's label file
has been rewritten (its mtime changes; under Pilot the press returns once the screen is idle,
by which time the write has landed). The baseline is the same script run on
``git archive <baseline>`` of this repository, in the same interpreter; runs alternate
between the two trees. Prints medians over all keys of all runs.
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


async def _measure(root: Path, keys: int) -> list[float]:
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
        out: list[float] = []
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
                while not file.exists() or file.stat().st_mtime_ns == before:
                    await asyncio.sleep(0.0005)
                    if time.perf_counter() - t0 > 10:
                        raise SystemExit(f"key {n + 1}: no label written within 10 s")
                out.append(time.perf_counter() - t0)
                await settle()  # the next sample's evidence is loaded before the next key
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run(tree: Path, keys: int) -> list[float]:
    """One run on ``tree``, in a fresh interpreter importing that tree's code."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                           str(tree), "--keys", str(keys)],
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
        print(json.dumps(asyncio.run(_measure(args.child, args.keys))))
        return
    with tempfile.TemporaryDirectory(prefix="bench-keys-base-") as base:
        archive = subprocess.run(["git", "-C", str(HERE), "archive", args.baseline],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", base], input=archive, check=True)
        trees = {args.baseline: Path(base), "this tree": HERE}
        figures: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(args.runs):
            for name, tree in trees.items():
                figures[name].extend(_run(tree, args.keys))
    print(f"key → label on disk, {args.keys} keys x {args.runs} runs (ms)")
    print(f"{'':>12} {'median':>8} {'p90':>8}")
    for name, f in figures.items():
        f.sort()
        print(f"{name:>12} {statistics.median(f) * 1000:>8.1f} "
              f"{f[int(len(f) * 0.9) - 1] * 1000:>8.1f}")


if __name__ == "__main__":
    main()
