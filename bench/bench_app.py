"""App benchmark: index build, time to first usable screen, memory, and key-to-repaint latency.

    python bench/bench_app.py [ROOT]          # default: the bundled sample_runs
    python bench/bench_app.py /tmp/gi-corpus  # the synthetic 10,000-sample corpus

Each phase runs in a fresh Python process so start-up (interpreter, imports, index open)
counts, as it does for a user. The index goes to a private cache folder: the first process
builds it (the one-off build, shown with a progress bar in the app), the later ones reuse it.

Figures printed:
* index build: seconds and peak RSS of a cold ``Catalog.refresh()``;
* first usable screen: from process start to the runs table filled and painted, with a warm
  index (the normal case) — target 1 s bundled, 3 s on the large corpus;
* peak RSS after a session touching every screen (runs, 10,000-row samples list, matrix,
  health, a sample opened) — target under 500 MB;
* latency (median / p95 / max, ms) from a key press to the repainted screen, headless: moving
  through the runs and samples lists, switching tabs, opening a sample, typing in the filter
  — target under 100 ms for moving through lists.
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

HERE = Path(__file__).resolve().parent


def _rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def phase_index(root: str) -> dict:
    from inspector.services.catalog.index import Catalog

    t0 = time.perf_counter()
    catalog = Catalog(Path(root))
    report = catalog.refresh()
    runs, samples, tests = catalog.counts()
    return {"index_build_s": round(time.perf_counter() - t0, 2), "runs": runs,
            "samples": samples, "tests": tests, "reloaded": len(report.reloaded),
            "index_peak_rss_mb": round(_rss_mb(), 1),
            "index_db_mb": round(catalog.db_path.stat().st_size / 2**20, 1)}


async def _session(root: str, started: float) -> dict:
    from textual.widgets import DataTable

    from inspector.ui.app import InspectorApp
    from inspector.ui.screens.sample import SampleScreen
    from inspector.ui.widgets.runs_table import RunsTable
    from inspector.ui.widgets.samples_table import SamplesTable

    app = InspectorApp(Path(root), watch=False)
    out: dict = {}
    lat: dict[str, list[float]] = {}

    painted: list[float] = []
    original_display = app._display

    def display(screen, renderable):  # type: ignore[no-untyped-def]
        original_display(screen, renderable)
        painted.append(time.perf_counter())

    app._display = display  # type: ignore[method-assign]

    async def key(name: str) -> None:
        """Send one key as the terminal driver would, without Pilot's wait-for-idle."""
        app.simulate_key(name)

    async def until_painted(action, ready) -> float:  # type: ignore[no-untyped-def]
        """ms from ``action`` until ``ready()`` holds and the screen was repainted."""
        import asyncio

        t = time.perf_counter()
        await action()
        while not ready():
            await asyncio.sleep(0.001)
        mark = time.perf_counter()
        deadline = mark + 1.0
        while not any(x > mark for x in painted) and time.perf_counter() < deadline:
            await asyncio.sleep(0.001)
        later = [x for x in painted if x > mark]
        # painted before we looked (pilot.press waits for idle): the last paint since t
        end = later[0] if later else max([x for x in painted if x > t], default=mark)
        return round((end - t) * 1000, 1)

    async def timed(name: str, *keys: str) -> None:
        """Key press -> the first screen update written after it (what a person sees)."""
        t = time.perf_counter()
        await pilot.press(*keys)
        await pilot.pause()
        after = [x for x in painted if x > t]
        end = after[0] if after else time.perf_counter()
        lat.setdefault(name, []).append((end - t) * 1000)

    async with app.run_test(size=(160, 45)) as pilot:
        runs = app.main_screen.query_one(RunsTable)
        samples = app.main_screen.query_one(SamplesTable)
        matrix = app.main_screen.query_one("#matrix-table", DataTable)
        while runs.row_count == 0:
            await pilot.pause(0.005)
        await pilot.pause()  # painted
        out["first_screen_s"] = round(time.time() - started, 3)
        out["rss_first_screen_mb"] = round(_rss_mb(), 1)
        await app.workers.wait_for_complete()
        runs.focus()
        for _ in range(15):
            await timed("runs: down", "down")
        out["open_samples_tab_ms"] = await until_painted(
            lambda: key("2"), lambda: samples.row_count > 0)
        out["samples_rows"] = samples.row_count
        for _ in range(40):
            await timed("samples: down", "down")
        for _ in range(5):
            await timed("samples: page down", "pagedown")
        await timed("samples: end", "end")
        await timed("samples: home", "home")
        out["open_matrix_tab_ms"] = await until_painted(
            lambda: key("3"), lambda: matrix.row_count > 0)
        for _ in range(20):
            await timed("matrix: move", "right" if _ % 2 else "down")
        await pilot.press("2")
        await pilot.pause()
        for i in range(5):
            samples.focus()
            samples.move_cursor(row=i * 997 % max(1, samples.row_count))
            ms = await until_painted(
                lambda: key("enter"),
                lambda: isinstance(app.screen, SampleScreen) and app.screen.main_pane is not None)
            lat.setdefault("open a sample", []).append(ms)
            await pilot.pause()
            await app.workers.wait_for_complete()
            await timed("sample: tests tab", "t")
            await timed("sample: files tab", "f")
            await timed("back to list", "escape")
        await pilot.press("slash")
        for ch in "modulenotfound":
            await timed("filter: type a key", ch)
        await pilot.pause(0.3)
        await app.workers.wait_for_complete()
        await pilot.press("4")
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.main_screen.query_one("#health-table", DataTable)
        out["health_findings"] = table.row_count
    out["peak_rss_mb"] = round(_rss_mb(), 1)
    out["latency_ms"] = {
        k: {"median": round(statistics.median(v), 1),
            "p95": round(sorted(v)[max(0, int(len(v) * 0.95) - 1)], 1),
            "max": round(max(v), 1), "n": len(v)} for k, v in lat.items()}
    return out


def phase_session(root: str, started: float) -> dict:
    import asyncio

    return asyncio.run(_session(root, started))


def _child(phase: str, root: str, cache: str) -> dict:
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": cache,
           "GENESIS_INSPECTOR_CONFIG": str(Path(cache) / "config.toml")}
    started = time.time()
    proc = subprocess.run([sys.executable, __file__, "--phase", phase, "--started",
                           repr(started), root], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{phase} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("root", nargs="?")
    p.add_argument("--phase", choices=["index", "session"])
    p.add_argument("--started", type=float)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args()
    if args.phase:
        result = (phase_index(args.root) if args.phase == "index"
                  else phase_session(args.root, args.started))
        print(json.dumps(result))
        return
    if args.root is None:
        from inspector import paths

        args.root = str(paths.sample_runs())
    with tempfile.TemporaryDirectory(prefix="gi-bench-") as cache:
        figures = {"root": args.root, **_child("index", args.root, cache)}
        warm = [_child("session", args.root, cache) for _ in range(2)]
        best = min(warm, key=lambda r: r["first_screen_s"])
        figures.update(best)
        figures["first_screen_s_runs"] = [r["first_screen_s"] for r in warm]
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"corpus: {figures['root']}")
    print(f"  runs {figures['runs']}, samples {figures['samples']}, tests {figures['tests']}")
    print(f"index build (one-off): {figures['index_build_s']} s, peak RSS "
          f"{figures['index_peak_rss_mb']} MB, index {figures['index_db_mb']} MB on disk")
    print(f"first usable screen (warm index, from process start): "
          f"{figures['first_screen_s']} s (runs: {figures['first_screen_s_runs']})")
    print(f"RSS at first screen: {figures['rss_first_screen_mb']} MB; peak after touching "
          f"every screen: {figures['peak_rss_mb']} MB")
    print(f"samples tab ({figures['samples_rows']} rows) opened in "
          f"{figures['open_samples_tab_ms']} ms; matrix in {figures['open_matrix_tab_ms']} ms; "
          f"health findings: {figures['health_findings']}")
    print("key -> repaint latency, ms (median / p95 / max, n):")
    for name, v in figures["latency_ms"].items():
        print(f"  {name:<22} {v['median']:>7} {v['p95']:>7} {v['max']:>7}  ({v['n']})")


if __name__ == "__main__":
    main()
