"""The aiohttp application of ``inspector serve``.

``/`` the page (token checked; a full server answers 503 with a page saying so), ``/ws`` one
app process per websocket (token, Host and Origin checked before anything starts; beyond the
cap: 503), ``/status`` how many sessions are in use, ``/static`` textual-serve's page script,
stylesheet and fonts. Nothing is fetched from anywhere else: the page's Content-Security-Policy
allows this server only.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from string import Template

import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.download_manager import DownloadManager

from inspector.services.serve.access import Access
from inspector.services.serve.command import AppCommand
from inspector.services.serve.sessions import AppProcess, SessionLimit

log = logging.getLogger("inspector.serve")

STATIC = Path(textual_serve.__file__).resolve().parent / "static"
"""textual-serve's page script (xterm.js), its stylesheet and the Roboto Mono fonts."""
PAGE = Template((Path(__file__).parent / "page.html").read_text(encoding="utf-8"))
CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' "
       "'unsafe-inline'; font-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
HEADERS = {"Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}


@dataclass(frozen=True)
class ServeConfig:
    """What ``inspector serve`` serves and to whom."""

    command: AppCommand
    access: Access
    max_sessions: int = 4
    title: str = "Genesis Inspector"


def _clamp(value: str | None, default: int, low: int, high: int) -> int:
    try:
        return max(low, min(high, int(value or default)))
    except ValueError:
        return default


def _message_page(status: int, title: str, text: str) -> web.Response:
    body = (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>"
            f"{html.escape(title)}</title></head><body style='background:#0c181f;color:#eee;"
            f"font-family:monospace;padding:2em'><h1>{html.escape(title)}</h1><p id='message'>"
            f"{html.escape(text)}</p></body></html>")
    return web.Response(status=status, text=body, content_type="text/html", headers=HEADERS)


class InspectorServer:
    """The server; :meth:`application` builds the aiohttp app, :meth:`start` binds it."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.sessions = SessionLimit(config.max_sessions)
        self.downloads = DownloadManager()
        self.port = 0
        self.started = 0
        """App processes started since the server started (a refused request starts none)."""

    @property
    def cookie(self) -> str:
        """The token cookie's name: one per port, so two servers on a host never mix."""
        return f"inspector_serve_{self.port}"

    # ------------------------------------------------------------------ access

    def _presented(self, request: web.Request) -> str | None:
        return request.query.get("token") or request.cookies.get(self.cookie)

    def _allowed(self, request: web.Request) -> bool:
        access = self.config.access
        return access.host_ok(request.host) and access.token_ok(self._presented(request))

    def _forbidden(self) -> web.Response:
        return _message_page(403, "Not allowed", "This server needs its token: open the URL "
                             "that `inspector serve` printed (it ends with ?token=…).")

    # ------------------------------------------------------------------ handlers

    async def index(self, request: web.Request) -> web.Response:
        if not self._allowed(request):
            return self._forbidden()
        if self.sessions.full:
            return self._full()
        title = self.config.title + (" (read-only)" if self.config.command.read_only else "")
        page = PAGE.substitute(
            title=html.escape(title), font_size=_clamp(request.query.get("fontsize"), 16, 6, 64),
            websocket_url=html.escape(
                f"{'wss' if request.scheme == 'https' else 'ws'}://{request.host}/ws",
                quote=True))
        response = web.Response(text=page, content_type="text/html", headers=HEADERS)
        token = self.config.access.token
        if token is not None:
            response.set_cookie(self.cookie, token, httponly=True, samesite="Strict", path="/")
        return response

    def _full(self) -> web.Response:
        n = self.sessions.most
        which = "This server's one session is" if n == 1 else \
            f"All {n} sessions of this server are"
        return _message_page(503, "All sessions in use",
                             f"{which} in use (each browser tab runs its own app process). "
                             "Close another tab and reload this page, or restart the server "
                             "with a larger --max-sessions.")

    async def no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204, headers=HEADERS)

    async def status(self, request: web.Request) -> web.Response:
        if not self._allowed(request):
            return web.json_response({"error": "token needed"}, status=403, headers=HEADERS)
        return web.json_response({"sessions": self.sessions.in_use,
                                  "max": self.sessions.most,
                                  "read_only": self.config.command.read_only}, headers=HEADERS)

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if not self._allowed(request) or not Access.origin_ok(request.headers.get("Origin"),
                                                              request.host):
            return web.Response(status=403, text="not allowed: token, host or origin")
        if not self.sessions.take():
            return web.Response(status=503, text=f"all {self.sessions.most} sessions in use")
        process: AppProcess | None = None
        try:
            ws = web.WebSocketResponse(heartbeat=15)
            await ws.prepare(request)

            async def close() -> None:  # the app exited: end the socket (and the session)
                await ws.close()

            process = AppProcess(self.config.command.argv(), write_bytes=ws.send_bytes,
                                 write_str=ws.send_str, close=close,
                                 download_manager=self.downloads)
            self.sessions.live.add(process)
            await process.start(_clamp(request.query.get("width"), 80, 10, 1000),
                                _clamp(request.query.get("height"), 24, 5, 500))
            self.started += 1
            log.info("session started (pid %s; %d of %d in use)", process.pid,
                     self.sessions.in_use, self.sessions.most)
            await self._relay(ws, process)
            return ws
        finally:
            if process is not None:
                # shielded: a cancelled handler (server shutdown) still reaps its process
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.shield(process.end())
                self.sessions.live.discard(process)
                log.info("session ended (pid %s)", process.pid)
            self.sessions.give_back()

    @staticmethod
    async def _relay(ws: web.WebSocketResponse, process: AppProcess) -> None:
        """The browser's keys, resizes and focus changes, to the app (bad frames ignored)."""
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
                kind = envelope[0]
            except (ValueError, TypeError, IndexError, KeyError):
                continue
            if kind == "stdin" and len(envelope) > 1 and isinstance(envelope[1], str):
                await process.send_bytes(envelope[1].encode("utf-8"))
            elif kind == "resize" and len(envelope) > 1 and isinstance(envelope[1], dict):
                size = envelope[1]
                await process.set_terminal_size(_clamp(str(size.get("width")), 80, 10, 1000),
                                                _clamp(str(size.get("height")), 24, 5, 500))
            elif kind == "ping" and len(envelope) > 1:
                await ws.send_json(["pong", envelope[1]])
            elif kind == "blur":
                await process.blur()
            elif kind == "focus":
                await process.focus()

    # ------------------------------------------------------------------ app

    def application(self) -> web.Application:
        app = web.Application()
        app.add_routes([web.get("/", self.index), web.get("/ws", self.websocket),
                        web.get("/status", self.status),
                        web.get("/favicon.ico", self.no_icon),
                        web.static("/static", STATIC, show_index=False)])
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def _on_shutdown(self, app: web.Application) -> None:
        await self.sessions.end_all()

    async def start(self, host: str, port: int) -> web.AppRunner:
        """Bind ``host:port`` (``0``: a free port, then in :attr:`port`); OSError when taken."""
        runner = web.AppRunner(self.application(), handle_signals=False, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self.port = int(runner.addresses[0][1]) if runner.addresses else port
        return runner


def serve_forever(config: ServeConfig, host: str, port: int,
                  announce: Callable[[InspectorServer], None]) -> None:
    """Serve until SIGINT/SIGTERM; ``announce(server)`` once bound. Every session's process is
    ended before this returns. OSError when ``host:port`` cannot be bound."""
    asyncio.run(_serve(config, host, port, announce))


async def _serve(config: ServeConfig, host: str, port: int,
                 announce: Callable[[InspectorServer], None]) -> None:
    server = InspectorServer(config)
    runner = await server.start(host, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        announce(server)
        await stop.wait()
    finally:
        await runner.cleanup()  # on_shutdown ends every session first
