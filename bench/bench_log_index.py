"""Benchmark :class:`inspector.services.logs.index.LineIndex` on a huge deployment log.

Usage::

    python bench/bench_log_index.py [--size-mb 1024] [--seed 0] [--keep] [--log PATH]

Writes a synthetic log with ``make_log.py`` into a temporary folder (``--keep``: into
``$TMPDIR/gi-bench-log/`` and left there, reused by later ``--keep`` runs of the same size and
seed; ``--log``: measure an existing file instead), reads it once so it is in the page cache,
then measures in a *fresh* subprocess, so peak RSS is that of the index alone:

* open + ``index_more()`` (the first 8 MiB) + read the first 50 lines;
* the full index build;
* reading the last 50 lines after the build, and the last line alone;
* reading 50 lines at 100 random positions (median, max);
* scanning the whole file with ``iter_blocks`` and ``rb"Traceback|ERROR"`` (MB/s, matches);
* peak RSS (``ru_maxrss``) and the index's own memory estimate.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
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

TARGET_FIRST_S = 0.5
TARGET_SEEK_S = 0.2
TARGET_RSS_MB = 200
PATTERN = rb"Traceback|ERROR"


def _rss_mb() -> float:
    """Peak RSS in MB per ``ru_maxrss`` (KiB on Linux; carried over from the parent on exec)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _hwm_mb() -> float | None:
    """Peak RSS of this process image per ``VmHWM`` (Linux only; reset by exec)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def measure(path: Path) -> dict[str, Any]:
    """Measure one log (run this in a fresh process); returns the figures."""
    from inspector.services.logs.index import LineIndex

    res: dict[str, Any] = {"rss_start_mb": _rss_mb()}
    t0 = time.perf_counter()
    idx = LineIndex(path)
    idx.index_more()
    first = idx.read_range(0, 50)
    res["first_s"] = time.perf_counter() - t0
    res["first_lines"] = len(first)
    res["first_memory_bytes"] = idx.memory_bytes()

    t0 = time.perf_counter()
    assert idx.build()
    res["build_s"] = time.perf_counter() - t0
    res["size"] = idx.file_size
    res["lines"] = len(idx)
    res["index_memory_bytes"] = idx.memory_bytes()

    t0 = time.perf_counter()
    last = idx.read_range(len(idx) - 50, 50)
    res["last50_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    last_line = idx.read(len(idx) - 1)
    res["last1_s"] = time.perf_counter() - t0
    assert len(last) == 50 and last[-1] == last_line
    res["last_line"] = last_line.text[:100]

    rnd = random.Random(1)
    times, cut = [], 0
    for _ in range(100):
        at = rnd.randrange(len(idx))
        t0 = time.perf_counter()
        got = idx.read_range(at, 50)
        times.append(time.perf_counter() - t0)
        cut += sum(r.cut_bytes > 0 for r in got)
    res["random50_median_s"] = statistics.median(times)
    res["random50_max_s"] = max(times)
    res["random_capped_lines"] = cut

    t0 = time.perf_counter()
    raw = sum(len(b) for _, b in idx.iter_blocks())
    res["iter_s"] = time.perf_counter() - t0
    assert raw == idx.file_size
    rx = re.compile(PATTERN)
    t0 = time.perf_counter()
    matches = 0
    first_match_line = None
    for line_no, block in idx.iter_blocks():
        found = rx.findall(block)
        if found and first_match_line is None:
            m = rx.search(block)
            assert m is not None
            start = idx.span(line_no)[0]
            first_match_line = idx.line_of_offset(start + m.start())
        matches += len(found)
    res["scan_s"] = time.perf_counter() - t0
    res["matches"] = matches
    res["first_match_line"] = first_match_line
    res["peak_rss_mb"] = _rss_mb()
    res["vm_hwm_mb"] = _hwm_mb()
    idx.close()
    return res


def report(res: dict[str, Any]) -> None:
    """Print the figures next to their targets."""
    mb = res["size"] / 1e6
    mib = res["size"] / (1 << 20)

    def ok(good: bool) -> str:
        return "ok" if good else "MISSED"

    rows = [
        ("log", f"{mib:,.0f} MiB, {res['lines']:,} lines", ""),
        ("open + first chunk + 50 lines", f"{res['first_s'] * 1000:.1f} ms",
         f"< {TARGET_FIRST_S} s  {ok(res['first_s'] < TARGET_FIRST_S)}"),
        ("full index build", f"{res['build_s']:.2f} s ({mb / res['build_s']:,.0f} MB/s)",
         "~1 s/GB"),
        ("last 50 lines after build", f"{res['last50_s'] * 1000:.2f} ms",
         f"< {TARGET_SEEK_S} s  {ok(res['last50_s'] < TARGET_SEEK_S)}"),
        ("last line alone", f"{res['last1_s'] * 1000:.2f} ms", ""),
        ("50 lines at 100 random positions",
         f"median {res['random50_median_s'] * 1000:.2f} ms, "
         f"max {res['random50_max_s'] * 1000:.2f} ms",
         f"< {TARGET_SEEK_S} s  {ok(res['random50_max_s'] < TARGET_SEEK_S)}"),
        ("iter_blocks alone", f"{res['iter_s']:.2f} s ({mb / res['iter_s']:,.0f} MB/s)", ""),
        (f"iter_blocks + re {PATTERN!r}",
         f"{res['scan_s']:.2f} s ({mb / res['scan_s']:,.0f} MB/s), {res['matches']:,} matches",
         ""),
        ("index memory (estimate)",
         f"{res['index_memory_bytes'] / 1024:,.0f} KiB after build "
         f"({res['first_memory_bytes'] / 1024:,.0f} KiB while indexing, with its read buffer)", ""),
        ("peak RSS (ru_maxrss)", f"{res['peak_rss_mb']:.1f} MB "
         f"(VmHWM {res['vm_hwm_mb'] or 0:.1f} MB; at start {res['rss_start_mb']:.1f} MB)",
         f"< {TARGET_RSS_MB} MB  {ok(res['peak_rss_mb'] < TARGET_RSS_MB)}"),
    ]
    width = max(len(r[0]) for r in rows)
    for name, value, target in rows:
        print(f"  {name:<{width}}  {value:<68} {target}")


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size-mb", type=float, default=1024, help="log size in MiB (default 1024)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", action="store_true",
                    help="keep the log in $TMPDIR/gi-bench-log/ and reuse it next time")
    ap.add_argument("--log", type=Path, help="measure this existing log instead")
    ap.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the child process
    args = ap.parse_args(argv)

    if args.measure:
        print(json.dumps(measure(args.measure)))
        return 0

    # The parent stays small: ru_maxrss survives exec, so the child would inherit our peak.
    tmp: Path | None = None
    if args.log:
        path = args.log
    else:
        size = int(args.size_mb * (1 << 20))
        if args.keep:
            folder = Path(tempfile.gettempdir()) / "gi-bench-log"
            folder.mkdir(exist_ok=True)
        else:
            folder = tmp = Path(tempfile.mkdtemp(prefix="gi-bench-log-"))
        path = folder / f"deploy-{args.size_mb:g}MiB-seed{args.seed}.log"
        free = shutil.disk_usage(folder).free
        if not path.exists() and free < size * 1.2:
            print(f"not enough disk space in {folder}: {free >> 20} MiB free", file=sys.stderr)
            return 1
        if path.exists():
            print(f"reusing {path}")
        else:
            t0 = time.perf_counter()
            subprocess.run([sys.executable, str(HERE / "make_log.py"), str(path),
                            "--size-mb", str(args.size_mb), "--seed", str(args.seed)], check=True)
            print(f"  (make_log: {time.perf_counter() - t0:.1f} s)")
    try:
        t0 = time.perf_counter()
        with open(path, "rb", buffering=0) as fh:  # into the page cache (the bench is warm)
            while fh.read(1 << 20):
                pass
        print(f"warm-up read: {time.perf_counter() - t0:.2f} s")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
        print(f"parent peak RSS before measuring: {_rss_mb():.1f} MB")
        proc = subprocess.run([sys.executable, __file__, "--measure", str(path)],
                              capture_output=True, text=True, env=env, check=False)
        if proc.returncode:
            print(proc.stdout, proc.stderr, file=sys.stderr)
            return proc.returncode
        res = json.loads(proc.stdout)
        print(f"LineIndex on {path} (fresh process, warm page cache):")
        report(res)
        print(f"  last line: {res['last_line']!r}")
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
