"""The log's phases and duration, recomputed only when the log changed (not every frame)."""

from __future__ import annotations

from inspector.services.logs.deployment_log import DeploymentLog, PhaseSpan


class PhaseLayout:
    """Caches ``(phases, duration)`` of a log, keyed by its line and segment counts."""

    def __init__(self, log: DeploymentLog) -> None:
        self.log = log
        self._key: tuple[int, int, bool] | None = None
        self._value: tuple[tuple[PhaseSpan, ...], float] = ((), 0.0)

    def get(self) -> tuple[tuple[PhaseSpan, ...], float]:
        """The phases (empty for an empty log) and the log's duration in seconds."""
        log = self.log
        key = (len(log), len(log.segments), log.interleaved)
        if self._key != key:
            self._key = key
            self._value = (tuple(log.phases()) if len(log) else (), log.duration)
        return self._value

    def current(self, position: int) -> PhaseSpan | None:
        """The phase holding the last revealed line of ``position``."""
        spans = self.get()[0]
        return next((s for s in reversed(spans) if s.first_line < max(1, position)), None)
