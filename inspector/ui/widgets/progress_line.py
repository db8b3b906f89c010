"""One status line for long work: spinner, elapsed time and the latest message."""

from __future__ import annotations

import time

from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

from inspector.ui.safe import plain, sanitize

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class ProgressLine(Static):
    """One status line: spinner, elapsed time and the latest progress message."""

    DEFAULT_CSS = """
    ProgressLine { height: 1; padding: 0 1; background: $panel; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.message = ""
        self.hint = "Esc cancels"
        self.started: float | None = None
        self._frame = 0
        self._ticker: Timer | None = None

    def start(self, message: str, hint: str = "Esc cancels") -> None:
        """Show ``message`` with a spinner and a running clock."""
        self.message, self.hint = message, hint
        self.started = time.monotonic()
        if self._ticker is None:
            self._ticker = self.set_interval(0.1, self._tick)
        self._tick()

    def say(self, message: str) -> None:
        """Replace the progress message (the clock keeps running)."""
        self.message = message
        self._tick()

    def stop(self, final: Text | str) -> None:
        """Stop the spinner and show ``final`` (a ``str`` is shown as plain text)."""
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        self.started = None
        self.update(plain(final) if isinstance(final, str) else final)

    @property
    def running(self) -> bool:
        return self.started is not None

    def _tick(self) -> None:
        if self.started is None:
            return
        self._frame = (self._frame + 1) % len(SPINNER)
        t = Text()
        t.append(SPINNER[self._frame] + " ", style="bold")
        t.append(f"{time.monotonic() - self.started:5.1f}s  ", style="dim")
        t.append(sanitize(self.message))
        if self.hint:
            t.append(f"  ({self.hint})", style="dim")
        self.update(t)
