"""Demo mode: its big header (the phase being played, a large clock) and its state."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Digits, Static

from inspector.services.logs.deployment_log import DeploymentLog
from inspector.services.logs.filters import LogFilter
from inspector.ui.replay.layout import PhaseLayout
from inspector.ui.safe import sanitize


@dataclass(frozen=True)
class DemoPhase:
    """The phase label, whether the replay is past its failure, the log's title and speed."""

    label: str | None = None
    failed_here: bool = False
    title: str = ""
    speed: str = ""


def clock_text(elapsed: float) -> str:
    """``m:ss.s`` for the big clock."""
    minutes, seconds = divmod(max(0.0, elapsed), 60)
    return f"{minutes:.0f}:{seconds:04.1f}"


class DemoHeader(Horizontal):
    """Shown only in demo mode (the screen's CSS); redraws a part only when it changes."""

    phase: reactive[DemoPhase | None] = reactive(None, layout=False, init=False)
    clock: reactive[str] = reactive("0:00.0", layout=False, init=False)

    def compose(self) -> ComposeResult:
        yield Static("", id="demo-phase")
        yield Digits("0:00.0", id="demo-clock")

    def show(self, phase: DemoPhase, elapsed: float) -> None:
        """The phase being played and the clock at ``elapsed`` seconds."""
        self.phase = phase
        self.clock = clock_text(elapsed)

    def watch_phase(self, phase: DemoPhase | None) -> None:
        if phase is None:
            return
        label = Text()
        if phase.label is not None:
            label.append(sanitize(phase.label.upper()), style="bold")
            if phase.failed_here:
                label.append("  ✖ failed here", style="bold red")
        label.append(f"\n{sanitize(phase.title)}   {phase.speed}", style="dim")
        self.query_one("#demo-phase", Static).update(label)

    def watch_clock(self, text: str) -> None:
        self.query_one("#demo-clock", Digits).update(text)


class DemoMode:
    """Demo mode's state: the filter to restore when it ends, and where its replay starts."""

    def __init__(self) -> None:
        self.saved: LogFilter | None = None

    def enter(self, current: LogFilter) -> LogFilter:
        """The filter demo mode shows: ``current`` with the noise hidden."""
        self.saved = current
        return LogFilter(current.query, current.levels, True)

    def leave(self) -> LogFilter:
        """The filter from before demo mode."""
        return self.saved or LogFilter()

    @staticmethod
    def start_line(log: DeploymentLog, line: int | None) -> int:
        """The first line of the phase holding ``line`` (0 when it has none)."""
        rec = log.record(line or 0) if len(log) else None
        start = log.phase_start(rec.phase) if rec and rec.phase else 0
        return start or 0

    @staticmethod
    def phase(layout: PhaseLayout, position: int, failure_line: int | None, title: str,
              speed: str) -> DemoPhase:
        """What the big header shows at ``position``."""
        current = layout.current(position)
        if current is None:
            return DemoPhase(None, False, title, speed)
        return DemoPhase(current.label, current.failed and failure_line is not None
                         and position > failure_line, title, speed)
