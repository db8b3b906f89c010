"""Open-a-sample latency: Enter on a samples row -> sample screen painted, first tab filled.

    python bench/bench_open_sample.py                 # baseline f7145ee vs this checkout
    python bench/bench_open_sample.py --ref HEAD~3 --rounds 4 --samples 8

The baseline is checked out in a temporary ``git worktree`` and both versions run headless
(Textual Pilot, 160x45) in child processes, alternately (old, new, old, new, ...), so machine
noise hits both alike. Each child opens ``--samples`` bundled samples one after the other
(Enter on the row, wait, Escape back) and reports, per open, the ms from the key press until

* the screen on top is a sample screen showing that sample,
* the README is filled and the first shown tab of the sample pane is filled (its focused
  widget: the tests table or the deploy phases have rows, the file tree has nodes),
* and a frame was written to the terminal after that (what the user sees).

Printed: the median (and p90) per version over all opens, and their ratio. Target: new ≤ 250 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _filled(widget: object) -> bool:
    """The focused widget of the sample pane shows its data."""
    from textual.widgets import DataTable, Tree

    if isinstance(widget, DataTable):
        return widget.row_count > 0
    if isinstance(widget, Tree):
        return bool(widget.root.children)
    return widget is not None


def _ready(app: object, key: int) -> bool:
    from textual.widgets import Static

    screen = app.screen  # type: ignore[attr-defined]
    if type(screen).__name__ != "SampleScreen" or screen.entry.key != key:
        return False
    pane = screen.main_pane
    if pane is None or not pane.is_mounted:
        return False
    readme = screen.query("#readme")
    if not readme or not str(readme.first(Static).render()).strip():
        return False
    focused = app.focused  # type: ignore[attr-defined]
    if focused is None or pane not in focused.ancestors:
        return False
    return _filled(focused)


async def _session(root: str, n_samples: int) -> dict:
    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets.samples_table import SamplesTable

    app = InspectorApp(Path(root), watch=False)
    painted: list[float] = []
    original_display = app._display

    def display(screen, renderable):  # type: ignore[no-untyped-def]
        original_display(screen, renderable)
        painted.append(time.perf_counter())

    app._display = display  # type: ignore[method-assign]
    times: list[float] = []
    async with app.run_test(size=(160, 45)) as pilot:
        samples = app.main_screen.query_one(SamplesTable)
        await app.workers.wait_for_complete()
        await pilot.press("2")
        while samples.row_count == 0:
            await pilot.pause(0.005)
        await pilot.pause()
        rows = list(range(samples.row_count))
        step = max(1, len(rows) // max(1, n_samples))
        for i in rows[::step][:n_samples]:
            samples.focus()
            samples.move_cursor(row=i)
            await pilot.pause()
            key = samples.shown[i].key
            t = time.perf_counter()
            app.simulate_key("enter")
            deadline = t + 20
            while not _ready(app, key) and time.perf_counter() < deadline:
                await asyncio.sleep(0.001)
            if time.perf_counter() >= deadline:
                raise SystemExit(f"sample row {i} did not open within 20 s")
            mark = time.perf_counter()
            while not any(x > mark for x in painted) and time.perf_counter() < mark + 1:
                await asyncio.sleep(0.001)
            end = min([x for x in painted if x > mark], default=mark)
            times.append(round((end - t) * 1000, 1))
            await app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
    import inspector

    return {"times_ms": times, "inspector": inspector.__file__}


def _child(src: Path, root: str, cache: str, n_samples: int) -> dict:
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": cache,
           "GENESIS_INSPECTOR_CONFIG": str(Path(cache) / "config.toml"),
           "PYTHONPATH": str(src)}
    proc = subprocess.run([sys.executable, __file__, "--child", "--samples", str(n_samples),
                           root], env=env, capture_output=True, text=True, cwd=src)
    if proc.returncode != 0:
        sys.exit(f"child ({src}) failed:\n{proc.stderr[-3000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if not out["inspector"].startswith(str(src)):
        sys.exit(f"child imported {out['inspector']}, not the code under {src}")
    return out


def _summary(v: list[float]) -> str:
    p90 = sorted(v)[max(0, int(len(v) * 0.9) - 1)]
    return f"median {statistics.median(v):7.1f} ms   p90 {p90:7.1f} ms   (n={len(v)})"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("root", nargs="?", help="runs folder (default: the bundled sample_runs)")
    p.add_argument("--ref", default="f7145ee", help="baseline git ref (default f7145ee)")
    p.add_argument("--rounds", type=int, default=3, help="child processes per version")
    p.add_argument("--samples", type=int, default=8, help="samples opened per child")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.root is None:
        from inspector import paths

        args.root = str(paths.sample_runs())
    if args.child:
        print(json.dumps(asyncio.run(_session(args.root, args.samples))))
        return
    with tempfile.TemporaryDirectory(prefix="gi-bench-open-") as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(base),
                        args.ref], check=True, capture_output=True)
        try:
            cache = str(Path(tmp) / "cache")
            _child(REPO, args.root, cache, 1)  # builds the index once, not timed
            old: list[float] = []
            new: list[float] = []
            for r in range(args.rounds):
                old += _child(base, args.root, cache, args.samples)["times_ms"]
                new += _child(REPO, args.root, cache, args.samples)["times_ms"]
                print(f"round {r + 1}/{args.rounds}: old {statistics.median(old):.0f} ms, "
                      f"new {statistics.median(new):.0f} ms", file=sys.stderr)
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force",
                            str(base)], capture_output=True)
    print(f"open a sample (Enter -> painted, first tab filled), {args.root}")
    print(f"  old ({args.ref}): {_summary(old)}")
    print(f"  new (this tree): {_summary(new)}")
    print(f"  speed-up: {statistics.median(old) / statistics.median(new):.1f}x")


if __name__ == "__main__":
    main()
