"""Benchmark replaying a huge deployment log: the service layer and the real replay screen.

Usage::

    python bench/bench_log.py [--size-mb 1024] [--seed 0] [--keep] [--log PATH]

Makes a synthetic log in our run format with ``make_log.py`` (``--keep`` reuses
``$TMPDIR/gi-bench-log/``), then, each in a FRESH process (so peak memory is clean):

* ``service``: open the log, index the head and read the first 50 records (first lines);
  index the whole file; read the last 50 records (seek to the end); seek to a time by
  binary search; filter by a text, by a regex and by level (errors + tracebacks), with
  throughput in MB/s; peak RSS.
* ``app``: the replay app headless (``App.run_test``): time from start to the first lines
  painted, time for ``G`` (seek to the end) to repaint, peak RSS after the full index.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(HERE), str(ROOT)):
    if p not in sys.path:
        sys.path.insert(0, p)

TARGETS = {"first": 0.5, "seek": 0.2, "rss": 200.0}


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_service(path: Path) -> dict[str, Any]:
    from inspector.model.logs.levels import Level
    from inspector.services.logs.deployment_log import open_log_path
    from inspector.services.logs.filters import LogFilter, scan

    out: dict[str, Any] = {"size_mb": path.stat().st_size / (1 << 20)}
    t0 = time.perf_counter()
    log = open_log_path(path)
    log.index_head()
    first = log.records(0, 50)
    out["first_lines_s"] = time.perf_counter() - t0
    assert len(first) == 50
    t0 = time.perf_counter()
    log.index()
    out["index_s"] = time.perf_counter() - t0
    out["lines"] = len(log)
    t0 = time.perf_counter()
    last = log.records(len(log) - 50, 50)
    out["seek_end_s"] = time.perf_counter() - t0
    assert len(last) == 50
    duration = log.duration
    from inspector.model.logs.replay_clock import ReplayClock

    clock = ReplayClock(log.time_of, len(log))
    t0 = time.perf_counter()
    clock.seek_time(duration / 2)
    log.records(max(0, clock.position - 50), 50)
    out["seek_time_s"] = time.perf_counter() - t0
    mb = out["size_mb"]
    for name, flt in (("text", LogFilter("ModuleNotFoundError")),
                      ("regex", LogFilter("/status=5\\d\\d/")),
                      ("errors+tracebacks", LogFilter(levels=Level.ERROR | Level.TRACEBACK))):
        t0 = time.perf_counter()
        hits = scan(log, flt)
        dt = time.perf_counter() - t0
        out[f"filter_{name}"] = {"s": dt, "mb_s": mb / dt, "matches": len(hits or [])}
    out["peak_rss_mb"] = _rss_mb()
    return out


def measure_app(path: Path) -> dict[str, Any]:
    from inspector.services.logs.deployment_log import open_log_path
    from inspector.ui.replay_app import ReplayApp
    from inspector.ui.widgets.log_view import LogView

    out: dict[str, Any] = {}
    painted: list[float] = []
    original = LogView.render_line

    def render_line(self: LogView, y: int):  # type: ignore[no-untyped-def]
        strip = original(self, y)
        if not painted and self.row_count >= 40 and y == 20:
            painted.append(time.perf_counter())  # the 21st line of the log is on screen
        return strip

    LogView.render_line = render_line  # type: ignore[method-assign]

    async def run() -> None:
        t0 = time.perf_counter()
        app = ReplayApp(open_log_path(path))
        async with app.run_test(size=(160, 45)) as pilot:
            view = None
            while not painted:
                await pilot.pause(0.005)
            view = app.screen.query_one(LogView)
            out["first_lines_s"] = painted[0] - t0
            screen = app.screen
            while screen.indexing:  # type: ignore[attr-defined]
                await pilot.pause(0.05)
            out["indexed_s"] = time.perf_counter() - t0
            t1 = time.perf_counter()
            await pilot.press("G")
            await pilot.pause()
            out["seek_end_repaint_s"] = time.perf_counter() - t1
            assert view.cursor_line == len(view.deploy_log) - 1
            out["peak_rss_mb"] = _rss_mb()

    asyncio.run(run())
    return out


def _child(mode: str, path: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as cfg:
        env.setdefault("GENESIS_INSPECTOR_CONFIG", str(Path(cfg) / "config.toml"))
        proc = subprocess.run([sys.executable, __file__, "--measure", mode, "--log", str(path)],
                              capture_output=True, text=True, env=env, check=False)
    if proc.returncode:
        raise SystemExit(f"{mode} measurement failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=1024)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", action="store_true", help="keep and reuse the generated log")
    ap.add_argument("--log", type=Path, help="measure this log instead")
    ap.add_argument("--measure", choices=["service", "app"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.measure:
        fn = measure_service if args.measure == "service" else measure_app
        print(json.dumps(fn(args.log)))
        return 0
    tmp: tempfile.TemporaryDirectory[str] | None = None
    if args.log:
        path = args.log
    else:
        from make_log import make_log

        if args.keep:
            folder = Path(tempfile.gettempdir()) / "gi-bench-log"
            folder.mkdir(exist_ok=True)
        else:
            tmp = tempfile.TemporaryDirectory()
            folder = Path(tmp.name)
        path = folder / f"deploy-{args.size_mb:g}mb-{args.seed}.log"
        if not path.exists():
            t0 = time.perf_counter()
            lines = make_log(path, int(args.size_mb * (1 << 20)), args.seed)
            print(f"made {path} ({lines:,} lines) in {time.perf_counter() - t0:.1f}s")
    with path.open("rb") as fh:  # warm the page cache, as after the log was written
        while fh.read(16 << 20):
            pass
    try:
        svc = _child("service", path)
        app = _child("app", path)
    finally:
        if tmp is not None:
            tmp.cleanup()
    ok = lambda v, t: "ok" if v <= t else "MISSED"  # noqa: E731
    print(f"log: {svc['size_mb']:,.0f} MB, {svc['lines']:,} lines")
    print("service layer (fresh process)")
    print(f"  first 50 lines          {svc['first_lines_s'] * 1000:8.1f} ms   "
          f"target < 500 ms  {ok(svc['first_lines_s'], TARGETS['first'])}")
    print(f"  full index              {svc['index_s']:8.2f} s")
    print(f"  seek to end (50 lines)  {svc['seek_end_s'] * 1000:8.2f} ms   "
          f"target < 200 ms  {ok(svc['seek_end_s'], TARGETS['seek'])}")
    print(f"  seek to a time          {svc['seek_time_s'] * 1000:8.2f} ms   "
          f"target < 200 ms  {ok(svc['seek_time_s'], TARGETS['seek'])}")
    for name in ("text", "regex", "errors+tracebacks"):
        f = svc[f"filter_{name}"]
        print(f"  filter {name:<17} {f['s']:8.2f} s  {f['mb_s']:7.0f} MB/s  "
              f"{f['matches']:,} lines kept")
    print(f"  peak RSS                {svc['peak_rss_mb']:8.1f} MB   "
          f"target < 200 MB  {ok(svc['peak_rss_mb'], TARGETS['rss'])}")
    print("replay app (headless, fresh process)")
    print(f"  first lines painted     {app['first_lines_s'] * 1000:8.1f} ms   "
          f"(includes app start-up)  {ok(app['first_lines_s'], TARGETS['first'])}")
    print(f"  whole file indexed      {app['indexed_s']:8.2f} s (in a worker, UI live)")
    print(f"  G (end) to repaint      {app['seek_end_repaint_s'] * 1000:8.1f} ms   "
          f"target < 200 ms  {ok(app['seek_end_repaint_s'], TARGETS['seek'])}")
    print(f"  peak RSS                {app['peak_rss_mb']:8.1f} MB   "
          f"target < 200 MB  {ok(app['peak_rss_mb'], TARGETS['rss'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
