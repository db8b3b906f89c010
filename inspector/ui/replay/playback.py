"""Playback: the replay clock and the log view moved together (no timer, no widgets built)."""

from __future__ import annotations

import time

from inspector.model.logs.replay_clock import ReplayClock
from inspector.ui.replay.seek import filtered_step
from inspector.ui.widgets.log_view import LogView


class Playback:
    """Plays, pauses, seeks and steps `clock`, revealing the same lines in `view`.

    Wall-clock readings come from ``time.monotonic``; the screen owns the frame timer and
    redraws its chrome after each call."""

    def __init__(self, clock: ReplayClock, view: LogView) -> None:
        self.clock = clock
        self.view = view

    def play(self) -> None:
        self.clock.play(time.monotonic())
        view = self.view
        if self.clock.position == 0 or view.cursor_row >= view.row_count - 1:
            view.attached = True

    def pause(self) -> None:
        self.clock.pause(time.monotonic())
        self.view.set_revealed(self.clock.position)

    def tick(self) -> None:
        """One frame: reveal the lines whose time has come."""
        if self.clock.tick(time.monotonic()):
            self.view.set_revealed(self.clock.position)

    def seek_line(self, position: int, *, center: int | None = None) -> None:
        """Reveal ``[0, position)``; the cursor goes to ``center`` or the newest line."""
        self.clock.seek_line(position)
        view = self.view
        view.set_revealed(self.clock.position)
        if center is not None:
            view.go_to_line(center)
        else:
            view.attached = True
            view.cursor_row = max(0, view.row_count - 1)

    def stop_at(self, position: int) -> None:
        """Pause and reveal ``[0, position)``, keeping the newest line in view."""
        self.clock.pause(time.monotonic())
        self.clock.seek_line(position)
        self.view.attached = True
        self.view.set_revealed(self.clock.position)

    def step(self, delta: int) -> None:
        """Pause and reveal ``delta`` lines more or fewer (of the filtered lines, if any)."""
        self.clock.pause(time.monotonic())
        rows = self.view.rows
        if rows.filtered and rows.lines is not None:
            self.clock.seek_line(filtered_step(rows, self.clock.position, delta))
        else:
            self.clock.step(delta)
        self.view.attached = True
        self.view.set_revealed(self.clock.position)

    def speed(self, delta: int) -> None:
        now = time.monotonic()
        if delta > 0:
            self.clock.faster(now)
        else:
            self.clock.slower(now)

    def max_speed(self) -> None:
        self.clock.set_speed(None, time.monotonic())

    def reveal_match(self, line: int) -> None:
        """A search hit: reveal up to ``line`` if it is not shown yet, then centre it."""
        if line >= self.clock.position:
            self.clock.pause(time.monotonic())
            self.clock.seek_line(line + 1)
            self.view.set_revealed(self.clock.position)
        self.view.go_to_line(line)
