"""The browser the other browser tests use really runs: a page served on loopback renders and
a click changes it (Debian's Chromium through Playwright, no download)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = b"""<!doctype html><title>probe</title>
<button id=b onclick="document.getElementById('out').textContent='clicked'">go</button>
<p id=out>waiting</p>"""


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args: object) -> None:
        pass


def test_chromium_renders_a_loopback_page_and_clicks(page, screenshot) -> None:  # type: ignore[no-untyped-def]
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page.goto(f"http://127.0.0.1:{server.server_port}/")
        assert page.text_content("#out") == "waiting"
        page.click("#b")
        assert page.text_content("#out") == "clicked"
        assert screenshot(page, "clicked").stat().st_size > 1000
    finally:
        server.shutdown()
