"""Port locks: two services wanting the same port never run at once, in this process or in
another inspector process on the same machine (an ``fcntl`` lock file per port)."""

from __future__ import annotations

import fcntl
import os
import socket
import tempfile
import threading
import time
from pathlib import Path

_thread_locks: dict[int, threading.Lock] = {}
_guard = threading.Lock()


def _lock_dir() -> Path:
    d = Path(os.environ.get("GENESIS_INSPECTOR_LOCK_DIR", Path(tempfile.gettempdir()) /
                            "genesis-inspector-ports"))
    d.mkdir(parents=True, exist_ok=True)
    return d


class PortLock:
    """Context manager holding the exclusive right to use ``port`` on this machine."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._fd: int | None = None
        with _guard:
            self._tlock = _thread_locks.setdefault(port, threading.Lock())
        self.waited = 0.0

    def __enter__(self) -> PortLock:
        t0 = time.monotonic()
        self._tlock.acquire()
        try:
            self._fd = os.open(_lock_dir() / f"{self.port}.lock", os.O_CREAT | os.O_RDWR, 0o644)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        except BaseException:
            self._tlock.release()
            raise
        self.waited = time.monotonic() - t0
        return self

    def try_enter(self, stop: threading.Event, timeout: float) -> bool:
        """Like entering the context, but give up when ``stop`` is set or after ``timeout``
        seconds (False: not held, nothing to release)."""
        t0 = time.monotonic()
        deadline = t0 + max(0.0, timeout)
        while not self._tlock.acquire(timeout=0.2):
            if stop.is_set() or time.monotonic() > deadline:
                return False
        fd: int | None = None
        try:
            fd = os.open(_lock_dir() / f"{self.port}.lock", os.O_CREAT | os.O_RDWR, 0o644)
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if stop.wait(0.2) or time.monotonic() > deadline:
                        raise TimeoutError from None
        except BaseException as exc:
            if fd is not None:
                os.close(fd)
            self._tlock.release()
            if isinstance(exc, TimeoutError):
                return False
            raise
        self._fd = fd
        self.waited = time.monotonic() - t0
        return True

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
        self._tlock.release()


def port_open(port: int, host: str = "127.0.0.1", timeout: float = 0.3) -> bool:
    """True when something accepts TCP connections on ``host:port`` (loopback only)."""
    if host not in ("127.0.0.1", "::1", "localhost"):
        raise ValueError("only loopback addresses are probed")
    family = socket.AF_INET6 if host == "::1" else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        try:
            return s.connect_ex((host, port)) == 0
        except OSError:
            return False


def wait_port_closed(port: int, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not port_open(port):
            return True
        time.sleep(0.1)
    return not port_open(port)
