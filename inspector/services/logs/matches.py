"""Every match of a search in a log, counted once: "match 3 of 17" and moving between them."""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from inspector.services.logs.deployment_log import DeploymentLog
from inspector.services.logs.filters import LogFilter, Progress, scan


@dataclass(frozen=True)
class Matches:
    """The sorted lines whose text matches ``query`` among the first ``total`` lines."""

    query: str
    total: int
    lines: array[int]

    def __len__(self) -> int:
        return len(self.lines)

    def covers(self, query: str, total: int) -> bool:
        """Whether these are the matches of ``query`` in a log of ``total`` lines."""
        return self.query == query and self.total == total

    def number(self, line: int | None) -> int | None:
        """1-based rank of ``line`` among the matches, or None when it is no match."""
        if line is None:
            return None
        i = bisect_left(self.lines, line)
        return i + 1 if i < len(self.lines) and self.lines[i] == line else None

    def next(self, origin: int, forward: bool = True) -> int | None:
        """The match after (before) line ``origin``, wrapping around once (as ``find``)."""
        lines = self.lines
        if not lines:
            return None
        if forward:
            i = bisect_right(lines, origin)
            return lines[i] if i < len(lines) else lines[0]
        i = bisect_left(lines, origin)
        return lines[i - 1] if i > 0 else lines[-1]


def count_matches(log: DeploymentLog, query: str, *, progress: Progress | None = None,
                  cancelled: Callable[[], bool] | None = None) -> Matches | None:
    """All lines of ``log`` matching ``query`` (what ``find`` steps through); None if
    cancelled."""
    total = len(log)
    lines = scan(log, LogFilter(query=query), end=total, progress=progress, cancelled=cancelled)
    return None if lines is None else Matches(query, total, lines)
