"""``inspector serve`` beyond loopback: writable only with ``--allow-writes`` (and then a loud
warning), and the URLs a colleague can open printed for ``0.0.0.0``."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import urllib.request

from inspector.services.serve.addresses import every_interface, reachable_hosts


def test_a_writable_server_beyond_loopback_is_refused_without_allow_writes() -> None:
    out = subprocess.run([sys.executable, "-m", "inspector", "serve", "--host", "0.0.0.0",
                          "--port", "0"], capture_output=True, text=True, timeout=30)
    assert out.returncode != 0
    assert out.stdout == ""  # nothing served
    (line,) = out.stderr.strip().splitlines()  # one clear line
    assert "--host 0.0.0.0 without --read-only" in line and "--allow-writes" in line


def test_allow_writes_warns_loudly_and_prints_urls_a_colleague_can_open() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "inspector", "serve", "--host", "0.0.0.0", "--allow-writes",
         "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        lines = []
        while not (line := proc.stdout.readline()).startswith("  at most"):
            assert line, f"serve stopped: {proc.stderr.read()}"
            lines.append(line.strip())
        warning = proc.stderr.readline()
        assert warning.startswith("WARNING: EXPOSED: anyone with the link can re-run "
                                  "generated code")
        served = lines[0].split(" at ", 1)[1]
        assert served.startswith("http://0.0.0.0:")
        others = [lines[1].removeprefix("from another machine: ")] + lines[2:]
        assert lines[1].startswith("from another machine: http://")
        assert len(others) == len(reachable_hosts("0.0.0.0"))
        assert others[0].startswith(f"http://{socket.gethostname()}:")  # the name first
        tail = served.split("/", 3)[3]  # the server's path and its token
        for url in others:
            assert "0.0.0.0" not in url and "127.0.0.1" not in url and url.endswith(tail)
        for url in others[1:] + (others[:1] if _resolves(socket.gethostname()) else []):
            with urllib.request.urlopen(url, timeout=10) as reply:  # it answers there
                assert reply.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


def test_only_every_interface_gets_other_names() -> None:
    assert every_interface("0.0.0.0") and every_interface("::") and every_interface("[::]")
    assert not every_interface("127.0.0.1") and not every_interface("example.org")
    assert reachable_hosts("127.0.0.1") == [] and reachable_hosts("192.0.2.7") == []
    names = reachable_hosts("0.0.0.0")
    assert names and "127.0.0.1" not in names and "0.0.0.0" not in names
    assert len(names) == len(set(names))


def _resolves(name: str) -> bool:
    try:
        return bool(socket.getaddrinfo(name, None))
    except OSError:
        return False
