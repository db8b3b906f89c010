"""Replay a deployment log with its original timing, filter it, search it, follow it.

Indexing, filtering, searching, following and exporting run in thread workers; the log is
read lazily, so a 1 GB log opens at once. ``Esc`` cancels a running scan or index first and
leaves the screen second.

The screen keeps composition, key bindings and delegation: each region is a widget of
``inspector/ui/replay/`` that redraws only when its reactive fields change. The log region
(:class:`~inspector.ui.replay.log.ReplayLog`) owns the replay's state and workers and the filter
bar (:class:`~inspector.ui.replay.bars.FilterBar`) the filter and search; both post messages,
which the screen routes to the other regions. A playback frame (1/30 s) updates only what the
clock moves (header clock, playhead, demo clock).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer

from inspector.model.logs.levels import pytest_test_ref
from inspector.model.logs.replay_clock import ReplayClock
from inspector.model.results.outcomes import Phase
from inspector.services.logs.deployment_log import DeploymentLog
from inspector.services.logs.filters import LogFilter
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.focus import focus_key, skip_when_typing
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.replay.bars import FilterBar
from inspector.ui.replay.demo import DemoHeader, DemoMode
from inspector.ui.replay.export import default_export_name
from inspector.ui.replay.header import ClockReading, ReplayHeader
from inspector.ui.replay.log import ReplayLog, Start, time_of
from inspector.ui.replay.seek import parse_seek  # noqa: F401 - tests import it from here
from inspector.ui.replay.status import NoticesLine, StatusLine, status_fields
from inspector.ui.widgets.log_view import LogView
from inspector.ui.widgets.timeline import Timeline


class ReplayScreen(Screen[None]):
    """Timeline, replayed log, filter and search bars, status line."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("space", "toggle_play", "Play/pause"),
        Binding("right,l", "step(1)", "Step", show=False),
        Binding("left,h", "step(-1)", "Step back", show=False),
        Binding("right_square_bracket", "phase(1)", "Next phase"),
        Binding("left_square_bracket", "phase(-1)", "Prev phase", show=False),
        Binding("plus,equals_sign", "speed(1)", "Faster"),
        Binding("minus", "speed(-1)", "Slower", show=False),
        Binding("m", "max_speed", "Max speed", show=False),
        Binding("g", "seek_edge(0)", "Start", show=False),
        Binding("G", "seek_edge(1)", "End", show=False),
        Binding("e", "first_error", "First error"),
        Binding("t", "seek_prompt", "Seek"),
        focus_key("slash", "focus_filter", "Filter"),
        focus_key("s", "focus_search", "Search"),
        Binding("n", "find(1)", "Next match", show=False),
        Binding("N", "find(-1)", "Prev match", show=False),
        Binding("E", "level('errors')", "Errors only", show=False),
        Binding("W", "level('warnings')", "Warnings", show=False),
        Binding("B", "level('tracebacks')", "Tracebacks", show=False),
        Binding("I", "level('pip')", "pip lines", show=False),
        Binding("Y", "level('pytest')", "pytest lines", show=False),
        Binding("M", "level('meta')", "Harness notes", show=False),
        Binding("c", "clear_filter", "Clear filter", show=False),
        Binding("f", "follow", "Follow"),
        Binding("D", "demo", "Demo"),
        Binding("v", "select", "Select", show=False),
        Binding("y", "copy", "Copy"),
        Binding("x", "export", "Export"),
        Binding("enter", "open_test", "Open test", show=False),
        Binding("a", "add_evidence", "Add evidence", show=False),
    ]
    DEFAULT_CSS = """
    ReplayScreen #replay-head { height: 1; padding: 0 1; background: $panel; }
    ReplayScreen #replay-notices { height: auto; max-height: 3; padding: 0 1; color: $warning; }
    ReplayScreen #bars { height: auto; }
    ReplayScreen #bars Input { width: 1fr; }
    ReplayScreen #log { height: 1fr; }
    ReplayScreen #replay-status { height: 1; padding: 0 1; background: $panel; }
    ReplayScreen #demo-head { display: none; height: auto; }
    ReplayScreen #demo-phase { width: 1fr; content-align: left middle; padding: 1 2;
        text-style: bold; }
    ReplayScreen #demo-clock { width: auto; padding: 0 2; }
    ReplayScreen.demo #demo-head { display: block; }
    ReplayScreen.demo #replay-notices { display: none; }
    ReplayScreen.demo #bars { display: none; }
    ReplayScreen.demo Footer { display: none; }
    ReplayScreen.demo #log { padding: 0 2; }
    """

    def __init__(self, log: DeploymentLog, *, speed: float | None = 1.0,
                 phase: Phase | None = None, play: bool = False, demo: bool = False,
                 follow: bool = False, open_test: Callable[[str], bool] | None = None,
                 idle_limit: float | None = None, sample_id: str | None = None) -> None:
        super().__init__()
        self.deploy_log = log
        self.sample_id = sample_id
        """The sample this log belongs to, when opened from the app (``a`` adds evidence)."""
        self.clock = ReplayClock(partial(time_of, log), 0, speed=speed, idle_limit=idle_limit)
        self.open_test = open_test
        self.busy: str | None = None
        self._demo_at_start = demo
        self.demo = DemoMode()
        self.view = ReplayLog(log, self.clock, Start(phase, play, follow), id="log")
        self.bars = FilterBar(id="bars")

    def compose(self) -> ComposeResult:
        yield ReplayHeader("", id="replay-head")
        yield DemoHeader(id="demo-head")
        yield Timeline(id="timeline")
        yield NoticesLine("", id="replay-notices")
        yield self.view
        yield self.bars
        yield StatusLine("", id="replay-status")
        yield Footer()

    @property
    def filter(self) -> LogFilter:
        return self.bars.filter

    @property
    def indexing(self) -> bool:
        return self.view.indexing

    @property
    def following(self) -> bool:
        return self.view.following

    @property
    def failure_line(self) -> int | None:
        return self.view.failure_line

    def on_mount(self) -> None:
        self.view.focus()
        self._refresh_chrome()
        self.view.index()

    def on_unmount(self) -> None:
        self.workers.cancel_all()
        self.deploy_log.close()

    # ------------------------------------------------------------------ what the log posts

    @on(ReplayLog.Began)
    def _began(self) -> None:
        if self._demo_at_start:
            self.action_demo(restart=False)

    @on(ReplayLog.Busy)
    def _busy(self, event: ReplayLog.Busy) -> None:
        self.busy = event.text
        self._refresh_chrome()

    @on(ReplayLog.Changed)
    def _refresh_chrome(self) -> None:
        """Push everything the chrome shows to its widgets; each redraws only if it changed."""
        if self.is_mounted:
            self.query_one(ReplayHeader).info = self.view.header_info()
            self._show_clock()
            self._refresh_status()

    @on(ReplayLog.Ticked)
    def _show_clock(self) -> None:
        """What moves with the clock: the header's clock, the playhead, the demo header; and
        the notices, which reading newly revealed lines may add (escapes, NUL bytes, …)."""
        clock, log, view = self.clock, self.deploy_log, self.view
        self.query_one(ReplayHeader).clock = ClockReading(clock.elapsed, clock.position)
        self.query_one(NoticesLine).notices = "  ·  ".join(f"⚠ {v}"
                                                          for v in log.notices.values())
        self.query_one(Timeline).update_state(view.timeline_state())
        if self.has_class("demo"):
            self.query_one(DemoHeader).show(self.demo.phase(
                view.phases, clock.position, view.failure_line, log.title, clock.speed_label()),
                clock.elapsed)

    @on(LogView.CursorMoved)
    def _refresh_status(self) -> None:
        if self.is_mounted:
            self.query_one(StatusLine).fields = status_fields(
                self.view, self.filter, self.clock.position, busy=self.busy,
                search=self.bars.search, matches=self.view.matches)

    @on(Timeline.Seek)
    def _timeline_seek(self, event: Timeline.Seek) -> None:
        self.view.seek_in_phase(event.index, event.fraction)

    # ------------------------------------------------------------------ playback

    def action_toggle_play(self) -> None:
        self.view.toggle_play()

    def action_step(self, delta: int) -> None:
        self.view.step(delta)

    def action_phase(self, delta: int) -> None:
        self.view.jump_phase(delta)

    def action_speed(self, delta: int) -> None:
        self.view.speed(delta)

    def action_max_speed(self) -> None:
        self.view.speed(None)

    def action_seek_edge(self, end: int) -> None:
        self.view.seek_edge(bool(end))

    def action_first_error(self) -> None:
        self.view.first_error()

    def action_follow(self) -> None:
        self.view.toggle_follow()

    def action_seek_prompt(self) -> None:
        def done(value: str | None) -> None:
            if value:
                self.view.seek_to(value)

        self.app.push_screen(PromptScreen("Seek to a time (90, 1:30, 50%) or a phase:",
                                          placeholder="1:30"), done)

    # ------------------------------------------------------------------ filter and search

    def action_focus_filter(self) -> None:
        skip_when_typing(self)
        self.bars.focus_filter()

    def action_focus_search(self) -> None:
        skip_when_typing(self)
        self.bars.focus_search()

    def action_level(self, name: str) -> None:
        self.bars.toggle_level(name)

    def action_clear_filter(self) -> None:
        self.bars.clear_filter()

    @on(FilterBar.Changed)
    def _filter_changed(self, event: FilterBar.Changed) -> None:
        self.view.apply_filter(event.filter)

    @on(FilterBar.Searched)
    def _searched(self, event: FilterBar.Searched) -> None:
        self.view.search = event.pattern
        self.view.refresh()
        if event.query:
            self.action_find(1)

    @on(FilterBar.Left)
    def _left_bars(self) -> None:
        self.view.focus()

    def action_find(self, direction: int) -> None:
        if not self.bars.search:
            self.action_focus_search()
            return
        origin = self.view.cursor_line
        self.view.find(self.bars.search, -1 if origin is None else origin, direction > 0)

    # ------------------------------------------------------------------ demo

    def action_demo(self, restart: bool = True) -> None:
        """Presentation mode: big clock and phase, noise and chrome hidden, replay from the
        start of the phase under the cursor at the current speed."""
        on_ = not self.has_class("demo")
        self.set_class(on_, "demo")
        view = self.view
        view.show_gutter = view.show_stream = not on_
        if on_:
            self.bars.set_filter(self.demo.enter(self.filter))
            if restart:
                view.restart_phase()
        else:
            self.bars.set_filter(self.demo.leave())
        view.refresh()
        self._refresh_chrome()

    # ------------------------------------------------------------------ copy, export, link

    def action_select(self) -> None:
        self.view.toggle_selection()
        self._refresh_chrome()

    def action_copy(self) -> None:
        records = self.view.selected_records()
        if not records:
            return
        self.app.copy_to_clipboard("\n".join(r.text for r in records))
        self.view.mark_row = None
        self.view.refresh()
        self.notify(f"Copied {len(records)} line{'s' if len(records) != 1 else ''} "
                    "to the clipboard.")

    @refused_when_read_only(Write.EXPORT)
    def action_export(self) -> None:
        def done(value: str | None) -> None:
            if value:
                self.view.export(Path(value).expanduser(), self.view.rows)

        what = "the filtered view" if self.view.rows.filtered else "the whole log"
        self.app.push_screen(PromptScreen(f"Export {what} (raw lines, replayable) to:",
                                          value=default_export_name(self.deploy_log)), done)

    @refused_when_read_only(Write.LABEL)
    def action_add_evidence(self) -> None:
        """Attach the log line under the cursor to the annotator's label of this sample."""
        # the label model loads only when a line is kept (the replay starts without it)
        from inspector.ui.replay.evidence import add_line_evidence

        add_line_evidence(self, self.sample_id, self.deploy_log, self.view.cursor_record())

    def action_open_test(self) -> None:
        rec = self.view.cursor_record()
        ref = pytest_test_ref(rec.text) if rec is not None else None
        if ref is None:
            return
        if self.open_test is None:
            self.notify("Open this log from a sample (in the app) to jump to its tests.",
                        severity="warning")
        elif self.open_test(ref[0]):
            self.dismiss(None)
        else:
            self.notify(f"{ref[0]} is not among this sample's recorded tests.",
                        severity="warning")

    def action_back(self) -> None:
        if self.view.cancel_jobs():
            self.busy = None
            self._refresh_chrome()
        elif self.view.mark_row is not None:
            self.view.toggle_selection()
            self._refresh_status()
        elif self.has_class("demo"):
            self.action_demo()
        else:
            self.dismiss(None)


__all__ = ["ReplayScreen", "parse_seek"]
