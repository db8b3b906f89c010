"""A deployment's processes found in ``/proc`` when no PID namespace holds them: its process
group and session, every process carrying its token in the environment, and the owner of the
port it listens on; and killing all of them, daemons that double-forked included."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

PROC = Path("/proc")


def _stat(pid: int | str) -> list[bytes] | None:
    """``state ppid pgrp session ...`` (the fields after ``comm``), None if gone."""
    try:
        raw = (PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    # pid (comm) state ppid pgrp session ...: comm may hold spaces and parentheses
    return raw[raw.rfind(b")") + 2:].split()


def _pids() -> list[int]:
    try:
        return [int(e.name) for e in PROC.iterdir() if e.name.isdigit()]
    except OSError:
        return []


def group_alive(pgid: int) -> bool:
    """True while a process of the group still runs.

    Zombies do not count: a service orphaned by its ``start.sh`` is reaped by init, which on
    some machines takes a second or more, although it already exited and closed its port.
    """
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    if not (PROC / "self" / "stat").is_file():
        return True
    for pid in _pids():
        fields = _stat(pid)
        if fields and len(fields) > 2 and int(fields[2]) == pgid and fields[0] != b"Z":
            return True
    return False


def alive_pids(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (not zombies)."""
    out = set()
    for pid in pids:
        fields = _stat(pid)
        if fields and fields[0] != b"Z":
            out.add(pid)
    return out


def boot_ticks() -> int:
    """Now, in the clock ticks since boot that ``/proc/PID/stat`` gives start times in."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))


def tracked_pids(leader: int, token: str, port: int | None, since: int) -> set[int]:
    """The deployment's processes: in the leader's group or session, or carrying ``token`` in
    their environment, or (started at or after ``since``, by this user) listening on ``port``."""
    needle = token.encode()
    out: set[int] = set()
    for pid in _pids():
        fields = _stat(pid)
        if not fields or len(fields) < 4:
            continue
        if int(fields[2]) == leader or int(fields[3]) == leader:
            out.add(pid)
            continue
        with contextlib.suppress(OSError):
            if needle in (PROC / str(pid) / "environ").read_bytes():
                out.add(pid)
    if port:
        for pid in port_owners(port):
            fields = _stat(pid)
            if fields and len(fields) > 19 and int(fields[19]) >= since and \
                    _owner(pid) == os.geteuid():
                out.add(pid)
    return out - _ours()


def _owner(pid: int) -> int | None:
    try:
        return (PROC / str(pid)).stat().st_uid
    except OSError:
        return None


def _ours() -> set[int]:
    """This process and its ancestors: never killed."""
    mine, pid = set(), os.getpid()
    while pid > 1 and pid not in mine:
        mine.add(pid)
        fields = _stat(pid)
        pid = int(fields[1]) if fields else 0
    return mine


def port_owners(port: int) -> set[int]:
    """Processes holding a listening TCP socket on ``port`` (IPv4 or IPv6)."""
    inodes: set[str] = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = (PROC / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if len(cols) > 9 and cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(cols[9])
    if not inodes:
        return set()
    wanted = {f"socket:[{i}]" for i in inodes}
    owners = set()
    for pid in _pids():
        try:
            fds = list((PROC / str(pid) / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            with contextlib.suppress(OSError):
                if os.readlink(fd) in wanted:
                    owners.add(pid)
                    break
    return owners


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
