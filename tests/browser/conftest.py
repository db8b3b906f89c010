"""Real headless Chromium (Debian's package) driven by Playwright (from PyPI).

Playwright's own browser download cannot work here, so it launches ``/usr/bin/chromium``
(``GENESIS_CHROMIUM`` overrides). A missing browser FAILS the tests, never skips them:
``scripts/browser-setup.sh`` (part of the README's test command) installs it. Screenshots go
to ``tests/browser/screenshots/`` (git-ignored) as evidence.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
# the machine's network is closed: without these, Chromium keeps calling home and its
# connections are refused many at a time
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


def chromium_path() -> str:
    found = os.environ.get("GENESIS_CHROMIUM") or shutil.which("chromium") or \
        shutil.which("chromium-browser")
    if not found:
        pytest.fail("Chromium is not installed: run `bash scripts/browser-setup.sh` (as root: "
                    "apt-get install -y chromium). The browser tests never skip.")
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium per test module (a ``playwright.sync_api.Browser``).

    Not per session: while Playwright's sync API is open it holds a running event loop on the
    main thread, and every later ``asyncio.run`` (the Pilot and async tests) would fail with
    "cannot be called from a running event loop". Closed at the end of the module, the loop is
    gone before the next module's tests run."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, headless=True, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, tmp_path: Path) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """A fresh browser context and page (1280x900); closed after the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    try:
        yield p
    finally:
        context.close()


@pytest.fixture
def screenshot(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """``screenshot(page, "name")`` saves ``tests/browser/screenshots/<test>-<name>.png``."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(page, name: str) -> Path:  # type: ignore[no-untyped-def]
        out = SCREENSHOTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(out), full_page=False)
        return out

    return take
