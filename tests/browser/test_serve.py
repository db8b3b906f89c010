"""``inspector serve`` in real headless Chromium: the served app paints with no network but the
server, keys navigate to a failing sample (README and failing test on screen), read-only
refuses a re-run visibly, a wrong token gets 403 and starts nothing, the session cap answers
with a page, and a closed tab ends its app process. Screenshots in tests/browser/screenshots/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.procs import children, rss_mb

from .chromium import VIEWPORT
from .served import CAPTURE, press, screen_text, serve, until, wait_for_text

pytestmark = pytest.mark.slow

TOKEN = "br0wser-t0ken"
RUNS_TABLE = ("Genesis Inspector", "repo_readme_1118_forge_m1-large_Python", "pass@1")
FAILING = "tests/test_todos.py::test_create_defaults"


@pytest.fixture(scope="module")
def user_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The server's and its apps' own config and cache (the index is built once per module)."""
    base = tmp_path_factory.mktemp("serve-user")
    return {"GENESIS_INSPECTOR_CONFIG": str(base / "config.toml"),
            "GENESIS_INSPECTOR_CACHE": str(base / "cache")}


@pytest.fixture
def offline(page: Any) -> Iterator[list[str]]:
    """Every request not to 127.0.0.1 is blocked (and listed); the terminal is captured."""
    blocked: list[str] = []

    def route(r: Any) -> None:
        if urlsplit(r.request.url).hostname == "127.0.0.1":
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    page.context.route("**/*", route)
    page.add_init_script(CAPTURE)
    yield blocked


def filter_samples(page: Any, text: str, expect: tuple[str, ...]) -> str:
    """``/`` and ``text`` typed in one go (type-ahead: the keys behind ``/`` land in the
    filter field however busy the app is), until ``expect`` is on screen."""
    press(page, "/", f"type:{text}", pause=0.0)
    return wait_for_text(page, *expect)


def open_sample(page: Any) -> str:
    """Samples tab, filter to the forge todo-service sample, open it, show its tests."""
    press(page, "2")
    wait_for_text(page, "39 of 39 samples")
    filter_samples(page, "forge todo",
                   ('1 of 39 samples · "forge todo"', "todo-service  0  ✘ failed 9/12"))
    press(page, "Enter", pause=1.0)  # to the table, its first row
    press(page, "Enter")
    wait_for_text(page, "todo-service · Forge", "Todo Service")
    press(page, "t")
    return wait_for_text(page, FAILING, "KeyError: 'completed'")


def test_served_app_paints_offline_and_opens_a_failing_sample(
        page: Any, offline: list[str], screenshot: Any, sample_runs: Path,
        user_dirs: dict[str, str]) -> None:
    with serve(sample_runs, "--token", TOKEN, env=user_dirs) as served:
        assert served.url.endswith(f"/?token={TOKEN}")
        served.as_annotator(page.context)
        response = page.goto(served.url)
        assert response is not None and response.status == 200
        first = wait_for_text(page, *RUNS_TABLE)
        painted = page.evaluate("() => performance.now()")
        assert "read-only" not in first.splitlines()[0]
        assert page.evaluate("""() => document.fonts.check('16px "Roboto Mono"')""")
        assert screenshot(page, "runs").stat().st_size > 10_000
        (app,) = served.sessions()
        print(f"\nfirst paint {painted / 1000:.2f} s after the page was opened; "
              f"app process RSS {rss_mb(app):.0f} MiB")
        screen = open_sample(page)
        assert "Todo Service" in screen and "failed" in screen
        screenshot(page, "failing-sample")
        assert offline == []  # the page asked for nothing but the server
        assert "token" not in page.url  # kept in the cookie, out of the address bar
        page.reload()  # ... which the reloaded page sends
        wait_for_text(page, *RUNS_TABLE)
        page.context.close()  # the tab closes: its app process ends
        until(lambda: not served.sessions(), 30, "the app process to end with its tab")


def test_read_only_refuses_a_rerun_visibly(page: Any, offline: list[str], screenshot: Any,
                                           sample_runs: Path,
                                           user_dirs: dict[str, str]) -> None:
    with serve(sample_runs, "--read-only", env=user_dirs) as served:
        page.goto(served.url)
        first = wait_for_text(page, *RUNS_TABLE)
        assert "read-only" in first.splitlines()[0]  # the header says so
        assert page.title().endswith("(read-only)")
        open_sample(page)
        press(page, "R")
        wait_for_text(page, "Read-only session: re-runs are off.")
        screenshot(page, "rerun-refused")
        assert "todo-service · Forge" in screen_text(page)  # still the sample, no re-run
        (app,) = served.sessions()
        assert children(app) == []  # nothing deployed
        # themes and the log replay's demo mode work in the browser too
        press(page, "Control+t")
        wait_for_text(page, "Theme: ")
        press(page, "l")
        wait_for_text(page, "install/build", "paused")
        press(page, "D")
        wait_for_text(page, "▶ playing")
        screenshot(page, "demo-mode")
        assert offline == []


def test_a_wrong_token_is_refused_and_starts_no_app(page: Any, screenshot: Any,
                                                   sample_runs: Path,
                                                   user_dirs: dict[str, str]) -> None:
    with serve(sample_runs, "--token", TOKEN, env=user_dirs) as served:
        for url in (f"{served.base}/?token=wrong", f"{served.base}/"):
            response = page.goto(url)
            assert response is not None and response.status == 403
            assert "needs its token" in page.text_content("#message")
        screenshot(page, "forbidden")
        # the websocket checks it too: from the refused page's origin, without the token
        status = page.evaluate("""(url) => new Promise((done) => {
            const ws = new WebSocket(url);
            ws.onopen = () => done('open');
            ws.onerror = () => done('refused');
        })""", served.base.replace("http", "ws") + "/ws")
        assert status == "refused"
        assert served.sessions() == []


def test_the_session_cap_answers_with_a_page_and_frees_with_a_tab(
        browser: Any, page: Any, screenshot: Any, sample_runs: Path,
        user_dirs: dict[str, str]) -> None:
    with serve(sample_runs, "--max-sessions", "1", env=user_dirs) as served:
        page.add_init_script(CAPTURE)
        served.as_annotator(page.context)
        page.goto(served.url)
        wait_for_text(page, *RUNS_TABLE)
        (app,) = served.sessions()
        other = browser.new_context(viewport=VIEWPORT)
        try:
            second = other.new_page()
            second.add_init_script(CAPTURE)
            served.as_annotator(other)
            response = second.goto(served.url)
            assert response is not None and response.status == 503
            assert "This server's one session is in use" in second.text_content("#message")
            screenshot(second, "cap-reached")
            assert served.sessions() == [app]  # no second process
            page.context.close()
            until(lambda: not served.sessions(), 30, "the first tab's process to end")
            second.goto(served.url)
            wait_for_text(second, *RUNS_TABLE)
            assert len(served.sessions()) == 1
        finally:
            other.close()


def test_a_tab_refused_at_the_socket_says_why(browser: Any, page: Any, screenshot: Any,
                                              sample_runs: Path,
                                              user_dirs: dict[str, str]) -> None:
    """The race the page check cannot see: a page loaded while a place was free, whose
    socket comes after another tab took it. It is refused at once and says why."""
    with serve(sample_runs, "--max-sessions", "1", env=user_dirs) as served:
        late = browser.new_context(viewport=VIEWPORT)
        try:
            served.as_annotator(late)
            served.as_annotator(page.context)
            waiting = late.new_page()
            waiting.add_init_script(CAPTURE)
            waiting.goto(served.url + "?delay=1")  # the page, no socket yet (a Start button)
            assert waiting.is_visible("#start")
            page.add_init_script(CAPTURE)
            page.goto(served.url)
            wait_for_text(page, *RUNS_TABLE)
            waiting.evaluate("() => window.__sessions[0].connect()")
            waiting.wait_for_selector("body.-closed", timeout=10_000)
            message = waiting.locator("#closed-message")
            until(lambda: "one session is in use" in (message.text_content() or ""), 10,
                  "the refused tab to say why")
            screenshot(waiting, "refused-at-socket")
            assert len(served.sessions()) == 1
        finally:
            late.close()
