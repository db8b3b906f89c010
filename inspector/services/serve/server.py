"""The aiohttp application of ``inspector serve``.

Everything but the public assets lives under a random path of this server
(:attr:`InspectorServer.path`, ``/<random>/``), and its cookies are scoped to that path:
cookies do not isolate by port, so any other web service on the same host name would
otherwise receive this server's token.

``/`` redirects there (when allowed); ``PATH`` the page (token checked; the first time a
browser comes, a form asking its annotator name; a full server answers 503 with a page saying
so), ``PATH/name`` that form, ``PATH/ws[/TAB]`` one app process per websocket (token, Host and
Origin checked before anything starts; beyond the cap: 503; a tab that reconnects takes its
place back), ``PATH/status`` how many sessions are in use, ``/static`` textual-serve's page
script, stylesheet and fonts. Nothing is fetched from anywhere else: the page's
Content-Security-Policy allows this server only.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import secrets
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from string import Template

import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.download_manager import DownloadManager

from inspector.model.labels.label_file import valid_annotator
from inspector.services.serve.access import Access
from inspector.services.serve.command import AppCommand
from inspector.services.serve.sessions import TAB_ID, AppProcess, SessionLimit

log = logging.getLogger("inspector.serve")

STATIC = Path(textual_serve.__file__).resolve().parent / "static"
"""textual-serve's page script (xterm.js), its stylesheet and the Roboto Mono fonts."""
PAGE = Template((Path(__file__).parent / "page.html").read_text(encoding="utf-8"))
NAME_PAGE = Template((Path(__file__).parent / "name.html").read_text(encoding="utf-8"))
TOKEN_COOKIE = "inspector_token"
BROWSER_COOKIE = "inspector_browser"
"""A random id per browser: its reload at the cap gets the page (its tab's place is its own)."""
ANNOTATOR_COOKIE = "inspector_annotator"
YEAR = 365 * 24 * 3600
CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' "
       "'unsafe-inline'; font-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
HEADERS = {"Content-Security-Policy": CSP, "Referrer-Policy": "no-referrer",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
FORM_HEADERS = {**HEADERS, "Referrer-Policy": "same-origin",  # else the POST's Origin is null
                "Content-Security-Policy": CSP.replace("form-action 'none'", "form-action 'self'")}


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
        self.path = f"/{secrets.token_urlsafe(12)}/"
        """This server's own path (random): the page, its socket and its cookies live under it."""
        self.started = 0
        """App processes started since the server started (a refused request starts none)."""

    # ------------------------------------------------------------------ access

    def _presented(self, request: web.Request) -> str | None:
        return request.query.get("token") or request.cookies.get(TOKEN_COOKIE)

    def _allowed(self, request: web.Request) -> bool:
        access = self.config.access
        return access.host_ok(request.host) and access.token_ok(self._presented(request))

    def _forbidden(self) -> web.Response:
        return _message_page(403, "Not allowed", "This server needs its token: open the URL "
                             "that `inspector serve` printed (it ends with ?token=…).")

    def _cookie(self, response: web.StreamResponse, name: str, value: str,
                secret: bool = True) -> None:
        """An HttpOnly cookie for this server's path only (never another port's service); a
        secret one (the token) is SameSite=Strict and lasts as long as the browser session."""
        response.set_cookie(name, value, httponly=True, path=self.path,
                            max_age=None if secret else YEAR,
                            samesite="Strict" if secret else "Lax")

    @staticmethod
    def annotator(request: web.Request) -> str | None:
        """The browser's annotator name (its cookie), when valid."""
        name = request.cookies.get(ANNOTATOR_COOKIE)
        return name if name and valid_annotator(name) else None

    # ------------------------------------------------------------------ handlers

    async def root(self, request: web.Request) -> web.Response:
        """``/``: to this server's path (with the query), when allowed."""
        if not self._allowed(request):
            return self._forbidden()
        raise web.HTTPFound(self.path + (f"?{request.query_string}"
                                         if request.query_string else ""))

    async def index(self, request: web.Request) -> web.Response:
        if not self._allowed(request):
            return self._forbidden()
        browser = request.cookies.get(BROWSER_COOKIE)
        if self.sessions.full and not self.sessions.holds(browser):
            return self._full()
        if not self.config.command.read_only and self.annotator(request) is None:
            response = self._name_form(200, "", "")
        else:
            response = self._page(request)
        token = self.config.access.token
        if token is not None:
            self._cookie(response, TOKEN_COOKIE, token)
        if browser is None:
            self._cookie(response, BROWSER_COOKIE, secrets.token_hex(16), secret=False)
        return response

    def _page(self, request: web.Request) -> web.Response:
        title = self.config.title + (" (read-only)" if self.config.command.read_only else "")
        page = PAGE.substitute(
            title=html.escape(title), font_size=_clamp(request.query.get("fontsize"), 16, 6, 64),
            status_url=self.path + "status",
            websocket_url=html.escape(
                f"{'wss' if request.scheme == 'https' else 'ws'}://{request.host}"
                f"{self.path}ws", quote=True))
        return web.Response(text=page, content_type="text/html", headers=HEADERS)

    def _name_form(self, status: int, message: str, value: str) -> web.Response:
        page = NAME_PAGE.substitute(title=html.escape(self.config.title),
                                    action=html.escape(self.path + "name", quote=True),
                                    message=html.escape(message),
                                    value=html.escape(value, quote=True))
        return web.Response(status=status, text=page, content_type="text/html",
                            headers=FORM_HEADERS)

    async def name_form(self, request: web.Request) -> web.Response:
        """``PATH/name``: the form again (to change the name this browser labels with)."""
        if not self._allowed(request):
            return self._forbidden()
        return self._name_form(200, "", self.annotator(request) or "")

    async def set_name(self, request: web.Request) -> web.Response:
        """The form's answer: a valid annotator name goes into this browser's cookie."""
        if not self._allowed(request) or not Access.origin_ok(request.headers.get("Origin"),
                                                              request.host):
            return self._forbidden()
        form = await request.post()
        value = form.get("annotator")
        name = value.strip() if isinstance(value, str) else ""
        if not valid_annotator(name):
            shown = name if len(name) <= 80 else name[:80] + "…"
            return self._name_form(
                400, f"{shown!r} cannot be an annotator name: use letters, digits, '.', '_' "
                     "or '-' (up to 64, starting with a letter or digit).", name[:200])
        response = web.HTTPSeeOther(self.path)
        self._cookie(response, ANNOTATOR_COOKIE, name, secret=False)
        raise response

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
        tab = request.match_info.get("tab")
        slot = await self.sessions.acquire(tab if tab and TAB_ID.match(tab) else None,
                                           request.cookies.get(BROWSER_COOKIE))
        if slot is None:
            return web.Response(status=503, text=f"all {self.sessions.most} sessions in use")
        process: AppProcess | None = None
        try:
            ws = web.WebSocketResponse(heartbeat=15)
            await ws.prepare(request)
            slot.end = ws.close

            async def close() -> None:  # the app exited: end the socket (and the session)
                await ws.close()

            command = self.config.command
            process = AppProcess(command.argv(self.annotator(request)),
                                 write_bytes=ws.send_bytes, write_str=ws.send_str, close=close,
                                 download_manager=self.downloads, env=command.env())
            self.sessions.live.add(process)
            await process.start(_clamp(request.query.get("width"), 80, 10, 1000),
                                _clamp(request.query.get("height"), 24, 5, 500))
            self.started += 1
            log.info("session started (pid %s; %d of %d in use)", process.pid,
                     self.sessions.in_use, self.sessions.most)
            await self._relay(ws, process)
            return ws
        finally:
            self.sessions.give_back(slot)  # the socket closed: its place is free
            if process is not None:
                # shielded: a cancelled handler (server shutdown) still reaps its process
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.shield(process.end())
                self.sessions.live.discard(process)
                log.info("session ended (pid %s)", process.pid)

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
        own = self.path
        app.add_routes([web.get("/", self.root), web.get(own, self.index),
                        web.get(own + "name", self.name_form),
                        web.post(own + "name", self.set_name),
                        web.get(own + "ws", self.websocket),
                        web.get(own + "ws/{tab}", self.websocket),
                        web.get(own + "status", self.status),
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
