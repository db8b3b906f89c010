"""HTML report benchmark: size and generation time of ``inspector report``, and the time
Chromium takes to render the page (issue 18; targets: <= 5 MB, <= 2 s to render).

    python bench/bench_report.py                          # the bundled sample_runs
    python bench/bench_report.py /tmp/gi-corpus --rounds 3

Each round runs the real command in a fresh process (``--quiet``), the first with a cold
index in a private cache folder (uncounted unless it is the only round), then opens the page
from ``file://`` in headless Chromium (Debian's, via Playwright) with every other request
aborted, and reads the page's own Navigation and Paint Timing: navigation start to the load
event, and to the first contentful paint. Medians are printed; the page is checked to be
byte-identical between rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def generate(root: Path, out: Path, cache: Path) -> float:
    env = dict(os.environ, GENESIS_INSPECTOR_CACHE=str(cache))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "inspector", "report", str(root), "--html", str(out),
                    "--quiet"], check=True, env=env)
    return time.perf_counter() - started


def render(pages: list[Path]) -> list[tuple[float, float]]:
    from playwright.sync_api import sync_playwright

    from tests.browser.chromium import (
        MISSING,
        chromium_path,
        launch,
        new_page,
        open_offline,
        paint_timing,
    )

    out = []
    with sync_playwright() as pw:
        browser = launch(pw, chromium_path() or sys.exit(MISSING))
        for page_file in pages:
            page = new_page(browser)
            open_offline(page, page_file)
            t = paint_timing(page, wait_ms=10000)
            out.append((t["load"] or float("nan"), t["paint"] or float("nan")))
            page.context.close()
        browser.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", nargs="?", default=str(ROOT / "sample_runs"))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache, pages, gen = Path(tmp) / "cache", [], []
        for i in range(args.rounds + 1):
            page = Path(tmp) / f"report{i}.html"
            seconds = generate(Path(args.root), page, cache)
            print(f"round {i}: {seconds:.2f} s{' (cold index, not counted)' if i == 0 else ''}")
            pages.append(page)
            if i:
                gen.append(seconds)
        same = len({p.read_bytes() for p in pages}) == 1
        timings = render(pages[1:])
        size = pages[0].stat().st_size
        print(f"{args.root}: {size / 1e6:.2f} MB ({size:,} bytes), byte-identical: {same}")
        print(f"generation (warm index), median of {len(gen)}: {statistics.median(gen):.2f} s")
        print(f"Chromium, navigation to load: median "
              f"{statistics.median(t[0] for t in timings):.0f} ms; to first contentful paint: "
              f"{statistics.median(t[1] for t in timings):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
