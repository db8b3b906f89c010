"""The replay's top line: what is replayed, play state, speed, clock and line counts."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from inspector.ui.read_only import MARKER, is_read_only
from inspector.ui.safe import sanitize
from inspector.ui.widgets.log_view import format_time


@dataclass(frozen=True)
class HeaderInfo:
    """What changes rarely: on a key press, while indexing, when the log grows."""

    title: str = ""
    state: str = ""
    speed: str = ""
    total: int = 0
    duration: float = 0.0
    timed: bool = False
    indexing: str | None = None
    """``"12.0 MB"`` read so far while the log is being indexed, else None."""


@dataclass(frozen=True)
class ClockReading:
    """What changes on every playback frame."""

    elapsed: float = 0.0
    position: int = 0


class ReplayHeader(Static):
    """One line; a frame that moves neither the clock nor the line count redraws nothing."""

    info: reactive[HeaderInfo] = reactive(HeaderInfo, layout=False)
    clock: reactive[ClockReading] = reactive(ClockReading, layout=False)

    def render(self) -> Text:
        info, clock = self.info, self.clock
        pos, n = clock.position, info.total
        head = Text()
        head.append(sanitize(info.title), style="bold")
        head.append(f"   {info.state}", style="bold")
        head.append(f"  {info.speed}")
        if info.timed:
            head.append(f"   {format_time(clock.elapsed)[1:]} / {format_time(info.duration)[1:]}")
            head.append(f"   line {pos:,} / {n:,}", style="dim")
        else:
            head.append(f"   line {pos:,} / {n:,}")
        if info.indexing is not None:
            head.append(f"   indexing… {info.indexing}", style="dim")
        if is_read_only(self):
            head.append("   ")
            head.append(f" {MARKER} ", style="reverse bold")
        return head
