"""Processes as ``/proc`` shows them (Linux): for tests that check no process outlives what
started it — a server's app sessions, a killed server's children."""

from __future__ import annotations

import os


def _stat_fields(pid: int | str) -> list[str]:
    """``/proc/PID/stat`` after the command name: state, parent pid, … (FileNotFoundError
    when the process is gone)."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone)."""
    try:
        return _stat_fields(pid)[0] != "Z"
    except FileNotFoundError:
        return False


def children(pid: int) -> list[int]:
    """Live processes whose parent is ``pid`` (e.g. the app processes of a server)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = _stat_fields(entry)
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(entry))
    return out


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0
