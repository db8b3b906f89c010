"""Sharing ``inspector serve`` (issue 32), in real headless Chromium: the token cookie never
reaches another service on the same host (another port); each browser gives its annotator
name once (an invalid one refused) and labels under it, a reload at the session cap gets its
app back while a second tab is still refused, and an exposed writable server says so in the
app's header. Screenshots in tests/browser/screenshots/.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from .chromium import VIEWPORT
from .served import CAPTURE, press, serve, until, wait_for_text

pytestmark = pytest.mark.slow

TOKEN = "shar1ng-t0ken"
RUNS_TABLE = ("Genesis Inspector", "repo_readme_1118_forge_m1-large_Python", "pass@1")
EXPOSED = "EXPOSED: anyone with the link can re-run generated code"


@pytest.fixture(scope="module")
def user_dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The server's and its apps' own config and cache (the index is built once per module)."""
    base = tmp_path_factory.mktemp("serve-sharing-user")
    return {"GENESIS_INSPECTOR_CONFIG": str(base / "config.toml"),
            "GENESIS_INSPECTOR_CACHE": str(base / "cache")}


@pytest.fixture(scope="module")
def runs(sample_runs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the bundled runs with no label files (labels are written here), shared by
    the module's servers (its index is built once)."""
    root = tmp_path_factory.mktemp("serve-sharing") / "runs"
    shutil.copytree(sample_runs, root, ignore=shutil.ignore_patterns("labels-real"))
    shutil.rmtree(root / "labels" / "annotators")
    return root


@contextmanager
def recording_server() -> Iterator[tuple[int, list[tuple[str, str]]]]:
    """Another web service on this host (another port): the Cookie header of every request."""
    seen: list[tuple[str, str]] = []

    class Record(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            seen.append((self.path, self.headers.get("Cookie") or ""))
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"another service")

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Record)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1], seen
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_token_cookie_is_not_sent_to_another_port(page: Any, screenshot: Any,
                                                      sample_runs: Path,
                                                      user_dirs: dict[str, str]) -> None:
    with serve(sample_runs, "--token", TOKEN, env=user_dirs) as served, \
            recording_server() as (port, seen):
        response = page.goto(served.url)
        assert response is not None and response.status == 200
        stored = [c for c in page.context.cookies() if c["value"] == TOKEN]
        assert stored, "the page keeps its token in a cookie"
        # the cookie does its job on its own server: /status answers without ?token=
        status = page.evaluate("(url) => fetch(url).then((r) => r.status)",
                               served.path + "status")
        assert status == 200
        for path in ("/", "/ws", "/status", "/static/js/textual.js"):
            reply = page.goto(f"http://127.0.0.1:{port}{path}")
            assert reply is not None and reply.status == 200
        screenshot(page, "other-service")
        assert {p for p, _ in seen} >= {"/", "/ws", "/status", "/static/js/textual.js"}
        leaked = [(p, cookie) for p, cookie in seen if TOKEN in cookie]
        assert leaked == [], f"the other service got the token: {leaked}"


def _labels(root: Path, name: str) -> dict[str, Any]:
    path = root / "labels" / "annotators" / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else {}


def _label_one(page: Any, name: str) -> None:
    """The review queue (it names the annotator), then one category key."""
    press(page, "2")
    wait_for_text(page, "39 of 39 samples")
    press(page, "L")
    wait_for_text(page, f"0 of 23 failing samples labelled by {name}", "Suggested")
    press(page, "3")
    wait_for_text(page, f"1 of 23 failing samples labelled by {name}")


def test_each_browser_names_itself_once_gets_its_session_back_on_reload_and_labels_as_itself(
        browser: Any, screenshot: Any, runs: Path, user_dirs: dict[str, str]) -> None:
    """Items 1, 3 and 4 in one server (one app start fewer): ``--max-sessions 1``, exposed."""
    with serve(runs, "--host", "0.0.0.0", "--allow-writes", "--token", TOKEN,
               "--max-sessions", "1", env=user_dirs) as served:
        url = served.url.replace("0.0.0.0", "127.0.0.1")
        contexts = [browser.new_context(viewport=VIEWPORT) for _ in range(2)]
        try:
            ana, bo = (c.new_page() for c in contexts)
            # asked once, before any app starts; a name the label files refuse is refused
            ana.add_init_script(CAPTURE)
            ana.goto(url)
            ana.fill("#annotator", "ana smith/..")
            with ana.expect_navigation() as refused:
                ana.click("#go")
            assert refused.value.status == 400
            assert "cannot be an annotator name" in (ana.text_content("#message") or "")
            screenshot(ana, "invalid-name")
            assert served.sessions() == []
            ana.fill("#annotator", "ana")
            ana.click("#go")
            first = wait_for_text(ana, *RUNS_TABLE)
            assert EXPOSED in first.splitlines()[0]  # the header says the server is exposed
            screenshot(ana, "exposed-header")
            # F5 at the cap: the old socket still holds the one place; the tab gets it back
            (before,) = served.sessions()
            response = ana.reload()
            assert response is not None and response.status == 200
            assert ana.locator("#annotator").count() == 0  # the name is kept: no form
            wait_for_text(ana, *RUNS_TABLE)
            screenshot(ana, "reloaded")
            until(lambda: len(served.sessions()) == 1 and before not in served.sessions(), 30,
                  "the reloaded tab's new app process, the old one ended")
            # a second tab of the same browser is a tab of its own: refused, and says why
            other = ana.context.new_page()
            other.goto(url)
            other.wait_for_selector("body.-closed", timeout=10_000)
            message = other.locator("#closed-message")
            until(lambda: "one session is in use" in (message.text_content() or ""), 10,
                  "the second tab to say why")
            screenshot(other, "second-tab-refused")
            other.close()
            (ana_app,) = served.sessions()
            assert _argv(ana_app)[-2:] == ["--annotator", "ana"]
            _label_one(ana, "ana")  # the reloaded tab kept its app: it labels
            screenshot(ana, "labelled-by-ana")
            until(lambda: _labels(runs, "ana").get("labels"), 30, "ana's label on disk")
            doc = _labels(runs, "ana")
            assert doc["annotator"] == "ana"
            assert {h["by"] for lb in doc["labels"] for h in lb["history"]} == {"ana"}
            # another browser, another name: its tab's app labels as bo
            contexts[0].close()  # the one place is free again
            bo.goto(url)
            bo.fill("#annotator", "bo")
            bo.click("#go")
            until(lambda: [p for p in served.sessions() if p != ana_app], 60, "bo's app")
            (bo_app,) = [p for p in served.sessions() if p != ana_app]
            assert _argv(bo_app)[-2:] == ["--annotator", "bo"]
        finally:
            for c in contexts:
                c.close()


def _argv(pid: int) -> list[str]:
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        return [a.decode() for a in fh.read().split(b"\0") if a]
