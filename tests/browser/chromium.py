"""Headless Chromium (Debian's package) through Playwright: launching it on this closed
machine, and opening a file with every other request refused. No pytest here: the benches
that time pages in a browser (``bench/bench_report.py``, ``bench/bench_serve.py``) use it too.

Playwright's own browser download cannot work here, so it launches ``/usr/bin/chromium``
(``GENESIS_CHROMIUM`` overrides).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

# the machine's network is closed: without these, Chromium keeps calling home and its
# connections are refused many at a time
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]
VIEWPORT = {"width": 1280, "height": 900}
MISSING = ("Chromium is not installed: run `bash scripts/browser-setup.sh` (as root: "
           "apt-get install -y chromium). The browser tests never skip.")

#: Navigation start to the load event, and to the first contentful paint (milliseconds);
#: ``paint`` is null when no paint came within WAIT_MS.
_TIMING = """() => new Promise(resolve => {
    const load = performance.getEntriesByType('navigation')[0].loadEventEnd;
    new PerformanceObserver(list => {
        const fcp = list.getEntries().find(e => e.name === 'first-contentful-paint');
        if (fcp) resolve({load, paint: fcp.startTime});
    }).observe({type: 'paint', buffered: true});
    setTimeout(() => resolve({load, paint: null}), WAIT_MS);
})"""


def chromium_path() -> str | None:
    """The Chromium to launch, or None when there is none."""
    return os.environ.get("GENESIS_CHROMIUM") or shutil.which("chromium") or \
        shutil.which("chromium-browser")


def launch(pw: Any, path: str) -> Any:
    """Chromium at ``path``, headless with :data:`FLAGS` (a ``playwright`` ``Browser``;
    ``pw`` is the running ``sync_playwright()``)."""
    return pw.chromium.launch(executable_path=path, headless=True, args=FLAGS)


def new_page(browser: Any) -> Any:
    """A page in a fresh context of :data:`VIEWPORT` size (close it with ``page.context``)."""
    return browser.new_context(viewport=VIEWPORT).new_page()


def open_offline(page: Any, path: Path) -> list[str]:
    """Open ``path`` with every request but the file itself aborted; the requests that
    were refused (a self-contained page makes none)."""
    url = path.as_uri()
    refused: list[str] = []

    def only_the_file(route: Any) -> None:
        if route.request.url.split("#")[0] == url:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", only_the_file)
    page.goto(url, wait_until="load")
    return refused


def paint_timing(page: Any, wait_ms: int) -> dict[str, float | None]:
    """The page's own Navigation and Paint Timing: ``load`` and ``paint`` (first contentful
    paint, None when none came within ``wait_ms``) in milliseconds from navigation start."""
    timing: dict[str, float | None] = page.evaluate(_TIMING.replace("WAIT_MS", str(wait_ms)))
    return timing
