"""A loopback port that leads into a sandbox's own loopback, through ``docker exec``.

The service container has no network, so nothing can connect to it. ``PortForward`` listens on
``127.0.0.1:<ephemeral>``; for each connection it starts a tiny relay inside the container
(``python3``, stdlib only) that connects to ``127.0.0.1:<service port>`` there and copies
bytes both ways over the exec's stdin/stdout. httpx, curl or a browser on this machine can then
talk to the sandboxed service at ``http://127.0.0.1:<ephemeral>`` and no packet ever crosses a
network interface.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import TYPE_CHECKING

from inspector.services.sandbox.docker_api import api_of, exec_frames, raw_socket

if TYPE_CHECKING:
    from docker.models.containers import Container

_RELAY = r"""
import os, socket, sys, threading
try:
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
except OSError as e:
    sys.stderr.write(f"relay: cannot connect to 127.0.0.1:{sys.argv[1]}: {e}\n")
    sys.exit(3)
s.settimeout(None)
def up():
    while True:
        b = os.read(0, 65536)
        if not b:
            break
        s.sendall(b)
    try:
        s.shutdown(socket.SHUT_WR)
    except OSError:
        pass
threading.Thread(target=up, daemon=True).start()
while True:
    try:
        b = s.recv(65536)
    except OSError:
        break
    if not b:
        break
    v = memoryview(b)
    while v:
        n = os.write(1, v)
        v = v[n:]
"""


class PortForward:
    """``127.0.0.1:<port>`` on this machine → ``127.0.0.1:<target>`` inside ``container``."""

    def __init__(self, container: Container, target_port: int) -> None:
        self.container = container
        self.target_port = target_port
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(32)
        self.port: int = self._listener.getsockname()[1]
        self._closed = threading.Event()
        self._conns: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.errors: list[str] = []
        self._thread = threading.Thread(target=self._accept, daemon=True,
                                        name=f"forward-{self.port}")
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        api = api_of(self.container)
        try:
            exec_id = api.exec_create(self.container.id, ["/usr/bin/python3", "-I", "-c",
                                                          _RELAY, str(self.target_port)],
                                      stdin=True, stdout=True, stderr=True,
                                      user="1000:1000")["Id"]
            hijacked = api.exec_start(exec_id, socket=True)
        except Exception as exc:  # noqa: BLE001 - the sandbox is gone or out of processes
            self.errors.append(f"{type(exc).__name__}: {exc}")
            client.close()
            return
        raw = raw_socket(hijacked)
        with self._lock:
            self._conns.update((client, raw))

        def up() -> None:
            try:
                while True:
                    data = client.recv(65536)
                    if not data:
                        break
                    raw.sendall(data)
            except OSError:
                pass
            with contextlib.suppress(OSError):
                raw.shutdown(socket.SHUT_WR)

        threading.Thread(target=up, daemon=True).start()
        try:
            for stream, data in exec_frames(hijacked):
                if stream == 2:
                    self.errors.append(data.decode(errors="replace").strip())
                    continue
                client.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._conns.discard(client)
                self._conns.discard(raw)
            for s in (client, raw):
                with contextlib.suppress(OSError):
                    s.close()

    def close(self) -> None:
        """Stop listening and drop every open connection."""
        self._closed.set()
        with contextlib.suppress(OSError):
            self._listener.close()
        with self._lock:
            conns = list(self._conns)
        for s in conns:
            with contextlib.suppress(OSError):
                s.close()
