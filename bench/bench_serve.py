"""``inspector serve`` benchmark: time from ``serve`` start to first paint in a browser, and
the memory of each session's app process.

    python bench/bench_serve.py                       # bundled sample_runs, 5 rounds
    python bench/bench_serve.py --root /tmp/gi-corpus --rounds 3 --sessions 3

Each round starts a fresh ``inspector serve ROOT --port 0`` (a private cache folder, its
index built by an uncounted warm-up round), opens the printed URL in headless Chromium
(Debian's, through Playwright; every request not to the server is blocked) and stops the
clock when the runs table's first run id is in the terminal xterm.js draws — the first paint
a user can read. ``--sessions N`` then opens N-1 more tabs and reads each app process's
resident memory (VmRSS) once its runs table is painted, and again after the first tab opened
a sample. Medians and min/max are printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.chromium import MISSING, VIEWPORT, chromium_path, launch  # noqa: E402
from tests.browser.served import CAPTURE, press, serve, wait_for_text  # noqa: E402
from tests.procs import rss_mb  # noqa: E402


def _open(context, url: str):  # type: ignore[no-untyped-def]
    page = context.new_page()
    page.context.route("**/*", lambda r: r.continue_() if urlsplit(r.request.url).hostname
                       == "127.0.0.1" else r.abort())
    page.add_init_script(CAPTURE)
    page.goto(url)
    return page


def first_run_id(root: Path) -> str:
    from inspector.services.catalog.index import Catalog

    catalog = Catalog(root)
    catalog.refresh()
    return sorted(r.run_id for r in catalog.runs())[0]


def main() -> int:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=ROOT / "sample_runs")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sessions", type=int, default=3)
    args = ap.parse_args()
    cache = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    env = {"GENESIS_INSPECTOR_CACHE": str(cache), "GENESIS_INSPECTOR_CONFIG":
           str(cache / "config.toml")}
    import os

    os.environ.update(env)
    run_id = first_run_id(args.root)  # also warms the index
    paints: list[float] = []
    rss_first: list[float] = []
    rss_sample: list[float] = []
    with sync_playwright() as pw:
        browser = launch(pw, chromium_path() or sys.exit(MISSING))
        for rnd in range(args.rounds + 1):
            context = browser.new_context(viewport=VIEWPORT)
            with serve(args.root, "--max-sessions", str(args.sessions), env=env) as served:
                served.as_annotator(context)  # the name form is asked once per browser
                page = _open(context, served.url)
                wait_for_text(page, run_id, timeout=120)
                paint = time.monotonic() - served.started
                pages = [page] + [_open(context, served.url)
                                  for _ in range(args.sessions - 1)]
                for p in pages[1:]:
                    wait_for_text(p, run_id, timeout=120)
                time.sleep(1.0)
                sizes = [rss_mb(pid) for pid in served.sessions()]
                press(page, "2")
                wait_for_text(page, "samples ·")
                press(page, "Enter")
                wait_for_text(page, "README")
                time.sleep(1.0)
                opened = max(rss_mb(pid) for pid in served.sessions())
                context.close()
            if rnd == 0:
                continue  # warm-up: byte-code, the browser's first page
            paints.append(paint)
            rss_first.extend(sizes)
            rss_sample.append(opened)
            print(f"round {rnd}: first paint {paint:.2f} s after `serve` started; "
                  f"RSS per session {', '.join(f'{s:.0f}' for s in sizes)} MiB; "
                  f"after opening a sample {opened:.0f} MiB", flush=True)
        browser.close()

    def line(name: str, xs: list[float], unit: str) -> str:
        return (f"{name}: median {statistics.median(xs):.2f} {unit} (min {min(xs):.2f}, "
                f"max {max(xs):.2f}, n={len(xs)})")

    print(line("serve start -> first paint", paints, "s"))
    print(line("RSS per session (runs table)", rss_first, "MiB"))
    print(line("RSS of a session with a sample open", rss_sample, "MiB"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
