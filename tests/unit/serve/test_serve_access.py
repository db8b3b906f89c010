"""``inspector serve``'s rules: who gets in (token, Host, Origin), how many sessions, and the
app's command line; and the CLI's errors for bad options."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.services.serve.access import Access, is_loopback, page_url
from inspector.services.serve.command import AppCommand
from inspector.services.serve.sessions import SessionLimit


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_loopback_hosts(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.4", "example.org", "::", ""])
def test_other_hosts_are_not_loopback(host: str) -> None:
    assert not is_loopback(host)


def test_loopback_needs_no_token_but_honours_one_given() -> None:
    free = Access.for_host("127.0.0.1", None)
    assert free.token is None and free.token_ok(None) and free.token_ok("anything")
    given = Access.for_host("127.0.0.1", "s3cret")
    assert given.token_ok("s3cret")
    assert not given.token_ok(None) and not given.token_ok("") and not given.token_ok("s3cre")


def test_any_other_host_gets_a_random_token() -> None:
    a, b = Access.for_host("0.0.0.0", None), Access.for_host("0.0.0.0", None)
    assert a.token and b.token and a.token != b.token and len(a.token) >= 24
    assert not a.token_ok(None) and a.token_ok(a.token)
    assert Access.for_host("0.0.0.0", "mine").token == "mine"
    with pytest.raises(ValueError, match="empty"):
        Access.for_host("0.0.0.0", "  ")


def test_without_a_token_only_a_loopback_host_header_is_served() -> None:
    free = Access(None)
    assert free.host_ok("127.0.0.1:8000") and free.host_ok("localhost:8000")
    assert free.host_ok("[::1]:8000")
    assert not free.host_ok("evil.example:8000")  # a DNS-rebinding page
    assert not free.host_ok(None)
    assert Access("t").host_ok("inspector.lan:8000")  # the token guards it then


def test_a_websocket_origin_must_be_the_page_itself() -> None:
    assert Access.origin_ok("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert not Access.origin_ok("http://evil.example", "127.0.0.1:8000")
    assert not Access.origin_ok("http://127.0.0.1:9000", "127.0.0.1:8000")
    assert not Access.origin_ok("null", "127.0.0.1:8000")
    assert Access.origin_ok(None, "127.0.0.1:8000")  # not a browser


def test_the_printed_url_carries_the_token() -> None:
    assert page_url("127.0.0.1", 8000, None) == "http://127.0.0.1:8000/"
    assert page_url("0.0.0.0", 81, "a b&c") == "http://0.0.0.0:81/?token=a%20b%26c"
    assert page_url("::1", 8000, None) == "http://[::1]:8000/"
    assert page_url("127.0.0.1", 8000, "t", "/p-q/") == "http://127.0.0.1:8000/p-q/?token=t"


async def test_the_session_cap() -> None:
    limit = SessionLimit(2)
    first, second = await limit.acquire(), await limit.acquire()
    assert first and second
    assert limit.full and await limit.acquire(wait=0) is None and limit.in_use == 2
    limit.give_back(first)
    limit.give_back(first)  # once only
    assert limit.in_use == 1 and await limit.acquire(wait=0)
    with pytest.raises(ValueError):
        SessionLimit(0)


async def test_a_reconnecting_tab_takes_its_own_place_back() -> None:
    limit = SessionLimit(1)
    closed: list[str] = []

    async def close() -> None:
        closed.append("old socket")

    old = await limit.acquire("a" * 32, "browser-1")
    assert old is not None
    old.end = close
    assert limit.holds("browser-1") and not limit.holds("browser-2")
    assert await limit.acquire("b" * 32, wait=0) is None  # another tab: refused
    new = await limit.acquire("a" * 32, "browser-1", wait=0)  # the same tab, reloaded
    assert new is not None and limit.held == [new]
    await asyncio.sleep(0)
    assert closed == ["old socket"]
    limit.give_back(old)  # the old handler ends later: it frees nothing twice
    assert limit.in_use == 1


async def test_a_place_given_back_while_waiting_is_taken() -> None:
    limit = SessionLimit(1)
    held = await limit.acquire()
    assert held is not None
    asyncio.get_running_loop().call_later(0.05, limit.give_back, held)
    assert await limit.acquire(wait=2.0) is not None


def test_the_app_command_is_an_argument_vector(tmp_path: Path) -> None:
    odd = tmp_path / "runs; rm -rf ~ 'x'"
    argv = AppCommand(odd, read_only=True, theme="genesis-light").argv()
    assert argv[:4] == [sys.executable, "-m", "inspector", "app"]
    assert argv[4] == str(odd)  # one argument, never through a shell
    assert argv[5:] == ["--read-only", "--theme", "genesis-light"]
    assert AppCommand(odd).argv()[5:] == []
    assert AppCommand(odd).argv("ana.b")[5:] == ["--annotator", "ana.b"]
    assert AppCommand(odd).env() == {}
    assert AppCommand(odd, exposed=True).env() == {"GENESIS_INSPECTOR_EXPOSED": "1"}


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", "serve", *args],
                          capture_output=True, text=True, timeout=60)


def test_cli_errors_are_one_clear_line(tmp_path: Path) -> None:
    missing = _serve(str(tmp_path / "nope"))
    assert missing.returncode != 0 and "nope" in missing.stderr
    assert "Traceback" not in missing.stderr
    bad = _serve("--max-sessions", "0")
    assert bad.returncode != 0 and "--max-sessions 0" in bad.stderr
    port = _serve("--port", "70000")
    assert port.returncode != 0 and "--port 70000" in port.stderr
    empty = _serve("--token", " ")
    assert empty.returncode != 0 and "--token: empty" in empty.stderr


def test_a_port_in_use_is_a_clear_error() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        taken = busy.getsockname()[1]
        out = _serve("--port", str(taken))
    assert out.returncode != 0
    assert f"cannot listen on 127.0.0.1:{taken}" in out.stderr and "Traceback" not in out.stderr
