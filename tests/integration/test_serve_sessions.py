"""``inspector serve`` over real HTTP on loopback, with real app processes (one per websocket):
a refused request starts nothing, a session's process ends with its socket, the cap answers at
once, a stopped or killed server leaves no process behind."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import aiohttp
import pytest

from inspector.services.serve.access import Access
from inspector.services.serve.command import AppCommand
from inspector.services.serve.server import InspectorServer, ServeConfig
from tests.procs import alive, children

pytestmark = pytest.mark.slow

TOKEN = "t0ken"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app processes inherit these: their own config and cache."""
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))


async def until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s: {what}")
        await asyncio.sleep(0.1)


@pytest.fixture
async def served(sample_runs: Path) -> AsyncIterator[tuple[InspectorServer, str]]:
    """A server on a free loopback port (token required, at most 2 sessions)."""
    server = InspectorServer(ServeConfig(AppCommand(sample_runs), Access(TOKEN),
                                         max_sessions=2))
    runner = await server.start("127.0.0.1", 0)
    try:
        yield server, f"http://127.0.0.1:{server.port}{server.path}".rstrip("/")
    finally:
        await runner.cleanup()
    assert not [p for p in server.sessions.live if p.pid and alive(p.pid)]


async def first_screen(ws: aiohttp.ClientWebSocketResponse, timeout: float = 60) -> bytes:
    """What the app drew until its title showed (bytes as the browser's xterm gets them)."""
    seen = b""
    deadline = time.monotonic() + timeout
    while b"Genesis Inspector" not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no first screen; got {seen[-300:]!r}"
        msg = await ws.receive(timeout=left)
        assert msg.type == aiohttp.WSMsgType.BINARY, msg
        seen += msg.data
    return seen


async def test_wrong_or_missing_token_is_403_and_starts_no_process(served) -> None:  # type: ignore[no-untyped-def]
    server, base = served
    before = children(os.getpid())
    async with aiohttp.ClientSession() as http:
        for query in ("", "?token=wrong", f"?token={TOKEN}x"):
            async with http.get(f"{base}/{query}") as r:
                assert r.status == 403
                assert "needs its token" in await r.text()
            async with http.get(f"{base}/ws{query}") as r:  # also without an upgrade
                assert r.status == 403
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{base}/ws{query}")
            assert refused.value.status == 403
        async with http.get(f"{base}/status") as r:
            assert r.status == 403
    assert server.started == 0 and not server.sessions.live
    assert children(os.getpid()) == before


async def test_a_session_runs_the_app_and_its_process_ends_with_the_socket(served) -> None:  # type: ignore[no-untyped-def]
    server, base = served
    jar = aiohttp.CookieJar(unsafe=True)  # cookies for an IP address
    async with aiohttp.ClientSession(cookie_jar=jar) as http:
        async with http.get(f"{base}/?token={TOKEN}") as r:
            assert r.status == 200
            page = await r.text()
        assert "googleapis" not in page and "https://" not in page
        assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")
        static = f"http://127.0.0.1:{server.port}/static"  # public assets: not under the path
        async with http.get(f"{static}/fonts/RobotoMono-VariableFont_wght.ttf") as font:
            assert font.status == 200 and len(await font.read()) > 50_000
        # the cookie the page set lets the websocket in (the browser's way)
        ws = await http.ws_connect(f"{base}/ws?width=120&height=40",
                                   headers={"Origin": base})
        drawn = await first_screen(ws)
        assert b"Runs" in drawn
        (process,) = server.sessions.live
        pid = process.pid
        assert pid is not None and alive(pid)
        async with http.get(f"{base}/status") as r:
            assert (await r.json())["sessions"] == 1
        await ws.close()
        await until(lambda: not alive(pid), 30, "the app process to end with its socket")
        await until(lambda: server.sessions.in_use == 0, 5, "the session to be given back")


async def test_a_foreign_origin_cannot_open_a_session(served) -> None:  # type: ignore[no-untyped-def]
    server, base = served
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"{base}/ws?token={TOKEN}",
                                  headers={"Origin": "http://evil.example"})
        assert refused.value.status == 403
    assert server.started == 0


async def test_beyond_the_cap_the_answer_is_immediate_and_clear(served) -> None:  # type: ignore[no-untyped-def]
    server, base = served
    async with aiohttp.ClientSession() as http:
        first = await http.ws_connect(f"{base}/ws?token={TOKEN}")
        second = await http.ws_connect(f"{base}/ws?token={TOKEN}")
        await first_screen(first)
        async with http.get(f"{base}/?token={TOKEN}") as r:
            assert r.status == 503
            assert "All 2 sessions of this server are in use" in await r.text()
        t0 = time.monotonic()
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"{base}/ws?token={TOKEN}")
        assert refused.value.status == 503 and time.monotonic() - t0 < 2
        assert len(server.sessions.live) == 2
        await second.close()
        await until(lambda: not server.sessions.full, 30, "a place to free up")
        async with http.get(f"{base}/?token={TOKEN}") as r:
            assert r.status == 200
        await first.close()


async def test_stopping_the_server_ends_every_session(sample_runs: Path) -> None:
    server = InspectorServer(ServeConfig(AppCommand(sample_runs), Access(None)))
    runner = await server.start("127.0.0.1", 0)
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{server.port}{server.path}ws")
        await first_screen(ws)
        (process,) = server.sessions.live
        pid = process.pid
        assert pid is not None
        await runner.cleanup()
        assert not alive(pid)


def test_a_killed_server_leaves_no_app_process(sample_runs: Path) -> None:
    """SIGKILL gives the server no chance to clean up: the app dies with it anyway."""
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "serve", str(sample_runs),
                             "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        url = line.split(" at ", 1)[1].strip()
        base = url.rstrip("/")

        async def open_session() -> int:
            async with aiohttp.ClientSession() as http:
                ws = await http.ws_connect(f"{base}/ws")
                await first_screen(ws)
                (pid,) = children(proc.pid)
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
                return pid

        app_pid = asyncio.run(open_session())
        deadline = time.monotonic() + 15
        while alive(app_pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(app_pid), "the app process outlived its killed server"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_quitting_the_app_ends_its_session(served) -> None:  # type: ignore[no-untyped-def]
    server, base = served
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"{base}/ws?token={TOKEN}")
        await first_screen(ws)
        (process,) = server.sessions.live
        pid = process.pid
        assert pid is not None
        await ws.send_json(["stdin", "q"])  # the app's own quit key
        while (await ws.receive(timeout=30)).type not in (aiohttp.WSMsgType.CLOSE,
                                                          aiohttp.WSMsgType.CLOSED,
                                                          aiohttp.WSMsgType.CLOSING):
            pass
        await until(lambda: not alive(pid), 30, "the app process to end after quitting")
        await until(lambda: server.sessions.in_use == 0, 5, "the session to be given back")
