"""Plain helpers for the replay's thread workers: throttled progress and following a log."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.notifications import SeverityLevel

from inspector.services.logs.deployment_log import DeploymentLog


class Throttle:
    """Passes ``progress(done, total)`` on to ``report`` at most once per ``interval`` s."""

    def __init__(self, report: Callable[[int, int], object], interval: float = 0.1, *,
                 start: float = 0.0) -> None:
        self.report = report
        self.interval = interval
        self._last = start

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._last > self.interval:
            self._last = now
            self.report(done, total)


def follow(log: DeploymentLog, changed: Callable[[list[str]], object],
           cancelled: Callable[[], bool], interval: float = 0.25) -> None:
    """Poll ``log`` until ``cancelled()``; ``changed(events)`` when it grew or was rotated,
    truncated or deleted (``events`` say which)."""
    while not cancelled():
        before = len(log)
        events = log.poll()
        if events or len(log) != before:
            changed(events)
        time.sleep(interval)


def event_severity(event: str) -> SeverityLevel:
    """How to notify a follow event: a warning when the file went away or shrank."""
    return "warning" if "deleted" in event or "rotated" in event or "truncated" in event \
        else "information"
