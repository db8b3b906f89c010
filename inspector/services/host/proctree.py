"""A deployment's processes found through psutil when no PID namespace holds them: its process
group and session, every process carrying its token in the environment, and the owner of the
port it listens on; and killing all of them, daemons that double-forked included."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable

import psutil

#: What a process that is gone, not ours to read, or a zombie raises.
_GONE = (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess, OSError)


def _alive(p: psutil.Process) -> bool:
    """Running (zombies awaiting reaping do not count)."""
    with contextlib.suppress(*_GONE):
        return p.status() != psutil.STATUS_ZOMBIE
    return False


def group_alive(pgid: int) -> bool:
    """True while a process of the group still runs.

    Zombies do not count: a service orphaned by its ``start.sh`` is reaped by init, which on
    some machines takes a second or more, although it already exited and closed its port.
    """
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    for p in psutil.process_iter():
        with contextlib.suppress(*_GONE):
            if os.getpgid(p.pid) == pgid and _alive(p):
                return True
    return False


def alive_pids(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (not zombies)."""
    out = set()
    for pid in pids:
        with contextlib.suppress(*_GONE):
            if _alive(psutil.Process(pid)):
                out.add(pid)
    return out


def boot_ticks() -> int:
    """Now, in the clock ticks since boot that process start times are compared in."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))


def _start_ticks(p: psutil.Process) -> int:
    """When ``p`` started, in clock ticks since boot (as :func:`boot_ticks`)."""
    return round((p.create_time() - psutil.boot_time()) * os.sysconf("SC_CLK_TCK"))


def tracked_pids(leader: int, token: str, port: int | None, since: int) -> set[int]:
    """The deployment's processes: in the leader's group or session, or carrying ``token`` in
    their environment, or (started at or after ``since``, by this user) listening on ``port``."""
    out: set[int] = set()
    for p in psutil.process_iter():
        with contextlib.suppress(*_GONE):
            if leader in (os.getpgid(p.pid), os.getsid(p.pid)):
                out.add(p.pid)
                continue
        with contextlib.suppress(*_GONE):
            if any(token in f"{k}={v}" for k, v in p.environ().items()):
                out.add(p.pid)
    if port:
        for pid in port_owners(port):
            with contextlib.suppress(*_GONE):
                p = psutil.Process(pid)
                if _start_ticks(p) >= since and p.uids().effective == os.geteuid():
                    out.add(pid)
    return out - _ours()


def _ours() -> set[int]:
    """This process and its ancestors: never killed."""
    me = psutil.Process()
    return {me.pid, *(p.pid for p in me.parents())}


def port_owners(port: int) -> set[int]:
    """Processes holding a listening TCP socket on ``port`` (IPv4 or IPv6)."""
    with contextlib.suppress(*_GONE):
        return {c.pid for c in psutil.net_connections(kind="tcp")
                if c.pid is not None and c.status == psutil.CONN_LISTEN and c.laddr
                and c.laddr.port == port}
    return set()


def kill_all(collect: Callable[[], set[int]], leader: int, grace: float) -> None:
    """SIGTERM everything ``collect`` finds, then freeze (SIGSTOP) and SIGKILL what is left
    after ``grace`` seconds, collecting again each round (a process may fork meanwhile)."""
    _signal(collect() | {leader}, signal.SIGTERM, leader)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and alive_pids(collect()):
        time.sleep(0.05)
    for _ in range(20):
        left = alive_pids(collect())
        if not left:
            return
        _signal(left, signal.SIGSTOP, None)
        _signal(left | alive_pids(collect()), signal.SIGKILL, None)
        time.sleep(0.05)


def _signal(pids: set[int], sig: int, leader: int | None) -> None:
    if leader is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(leader, sig)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)
