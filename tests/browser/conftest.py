"""Real headless Chromium (Debian's package) driven by Playwright (from PyPI), launched as
:mod:`.chromium` says. A missing browser FAILS the tests, never skips them:
``scripts/browser-setup.sh`` (part of the README's test command) installs it. Screenshots go
to ``tests/browser/screenshots/`` (git-ignored) as evidence.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .chromium import MISSING, chromium_path, launch, new_page

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One headless Chromium per test module (a ``playwright.sync_api.Browser``).

    Not per session: while Playwright's sync API is open it holds a running event loop on the
    main thread, and every later ``asyncio.run`` (the Pilot and async tests) would fail with
    "cannot be called from a running event loop". Closed at the end of the module, the loop is
    gone before the next module's tests run."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if not path:
        pytest.fail(MISSING)
    with sync_playwright() as pw:
        b = launch(pw, path)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, tmp_path: Path) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """A fresh browser context and page (1280x900); closed after the test."""
    p = new_page(browser)
    try:
        yield p
    finally:
        p.context.close()


@pytest.fixture
def screenshot(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """``screenshot(page, "name")`` saves ``tests/browser/screenshots/<test>-<name>.png``."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(page, name: str) -> Path:  # type: ignore[no-untyped-def]
        out = SCREENSHOTS / f"{request.node.name}-{name}.png"
        page.screenshot(path=str(out), full_page=False)
        return out

    return take
