"""Replay a deployment log with its original timing, filter it, search it, follow it.

Indexing, filtering, searching, following and exporting run in thread workers; the log is
read lazily, so a 1 GB log opens at once. ``Esc`` cancels a running scan or index first and
leaves the screen second.

The screen keeps composition, key bindings and delegation: each region is a widget of
``inspector/ui/replay/`` that redraws only when its reactive fields change, and a playback frame
(1/30 s) updates only what the clock moves (header clock, playhead, demo clock).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer
from textual.worker import get_current_worker

from inspector.model.logs.levels import LEVEL_CHOICES, pytest_test_ref
from inspector.model.logs.replay_clock import ReplayClock
from inspector.model.results.outcomes import Phase
from inspector.services.logs.deployment_log import DeploymentLog
from inspector.services.logs.export import export_lines
from inspector.services.logs.filters import FilterError, LogFilter, Query, Rows, find, first_error
from inspector.services.logs.filters import scan as scan_log
from inspector.ui.app_access import label_session
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.focus import focus_key, skip_when_typing
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.replay.bars import FilterBar
from inspector.ui.replay.demo import DemoHeader, DemoMode, clock_text
from inspector.ui.replay.header import ClockReading, HeaderInfo, ReplayHeader
from inspector.ui.replay.jobs import Throttle, event_severity, follow
from inspector.ui.replay.layout import PhaseLayout
from inspector.ui.replay.playback import Playback
from inspector.ui.replay.seek import hidden_by_filter, parse_seek, phase_target
from inspector.ui.replay.status import NoticesLine, StatusLine, status_fields
from inspector.ui.widgets.log_view import LogView
from inspector.ui.widgets.timeline import Timeline, TimelineState

FPS = 30


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
        self.clock = ReplayClock(self._time_of, 0, speed=speed, idle_limit=idle_limit)
        self.filter = LogFilter()
        self.search: str = ""
        self.open_test = open_test
        self.failure_line: int | None = None
        self.following = False
        self.indexing = True
        self.busy: str | None = None
        self._timer: Timer | None = None
        self._start = (phase, play, demo, follow)
        self._started = False
        self.demo = DemoMode()
        self._first_paint = threading.Event()
        self.phases = PhaseLayout(log)
        self._playback: Playback | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield ReplayHeader("", id="replay-head")
        yield DemoHeader(id="demo-head")
        yield Timeline(id="timeline")
        yield NoticesLine("", id="replay-notices")
        yield LogView(self.deploy_log, id="log")
        yield FilterBar(id="bars")
        yield StatusLine("", id="replay-status")
        yield Footer()

    @property
    def view(self) -> LogView:
        return self.query_one("#log", LogView)

    @property
    def playback(self) -> Playback:
        """The clock and the log view, moved together."""
        if self._playback is None:
            self._playback = Playback(self.clock, self.view)
        return self._playback

    def on_mount(self) -> None:
        self.view.focus()
        self._refresh_chrome()
        self._index()

    def _time_of(self, line: int) -> float | None:
        try:
            return self.deploy_log.time_of(line)
        except IndexError:
            return None

    # ------------------------------------------------------------------ indexing

    @work(thread=True, exclusive=True, group="index")
    def _index(self) -> None:
        worker = get_current_worker()
        self.deploy_log.index_head()
        self.app.call_from_thread(self._grown, True)
        # let the first screen paint before the full index competes for the GIL
        self.app.call_from_thread(self._after_paint)
        self._first_paint.wait(2.0)
        progress = Throttle(lambda done, total: self.app.call_from_thread(
            self._index_progress, done, total), start=time.monotonic())
        finished = self.deploy_log.index(progress, lambda: worker.is_cancelled)
        self.app.call_from_thread(self._indexed, finished)

    def _after_paint(self) -> None:
        self.call_after_refresh(self._first_paint.set)

    def _index_progress(self, done: int, total: int) -> None:
        self.busy = f"indexing {done / max(1, total):.0%} of {_mb(total)} (Esc cancels)"
        self._grown(False)

    def _indexed(self, finished: bool) -> None:
        self.indexing = False
        self.busy = None
        if not finished:
            self.notify("Indexing cancelled: the part read so far is shown.", severity="warning")
        self._grown(False)
        self._find_failure()
        if not self.filter.empty:
            self._apply_filter()

    def _grown(self, first: bool) -> None:
        """The log has more lines (indexing or following)."""
        n = len(self.deploy_log)
        was_all = self.clock.position >= self.clock.line_count
        self.clock.set_line_count(n)
        view = self.view
        if not self.filter.empty and view.rows.filtered:
            view.rows.total = n
        else:
            view.rows = Rows(None, n)
        if first and not self._started:
            self._started = True
            self._begin()
        elif was_all and not self.clock.playing:
            self.clock.seek_line(n)
        view.set_revealed(self.clock.position)
        self._refresh_chrome()

    def _begin(self) -> None:
        phase, play, demo, follow = self._start
        n = len(self.deploy_log)
        self.clock.seek_line(n)
        self.view.attached = False
        self.view.cursor_row = 0
        if phase is not None:
            start = self.deploy_log.phase_start(phase)
            if start is None:
                self.notify(f"This log has no {phase.value} phase.", severity="warning")
            else:
                self.clock.seek_line(start)
                self.view.attached = True
        if demo:
            self.action_demo(restart=False)
        if play:
            if phase is None:
                self.clock.seek_line(0)
                self.view.attached = True
            self._play()
        if follow:
            self.action_follow()

    @work(thread=True, exclusive=True, group="failure")
    def _find_failure(self) -> None:
        log = self.deploy_log
        failed = [s for s in log.phases() if s.failed]
        if not failed and not (log.sample and not log.sample.passed):
            return
        span = failed[0] if failed else None
        line = first_error(log, phase=span.phase if span else None)
        if line is None and span is not None:
            line = span.first_line + max(0, span.line_count - 1)
        self.app.call_from_thread(self._set_failure, line)

    def _set_failure(self, line: int | None) -> None:
        self.failure_line = line
        self._refresh_chrome()

    # ------------------------------------------------------------------ playback

    def _play(self) -> None:
        self.playback.play()
        if self._timer is None:
            self._timer = self.set_interval(1 / FPS, self._tick)
        self._refresh_chrome()

    def _pause(self) -> None:
        self.playback.pause()
        self._refresh_chrome()

    def _tick(self) -> None:
        """One frame: only the clock's readers redraw (header clock, playhead, demo clock)."""
        if not self.clock.playing:
            return
        self.playback.tick()
        if self.clock.playing:
            self._show_clock()
        else:
            self._refresh_chrome()  # the end: "playing" became "paused"

    def _seek_line(self, position: int, *, center: int | None = None) -> None:
        self.playback.seek_line(position, center=center)
        self._refresh_chrome()

    def action_toggle_play(self) -> None:
        if self.following:
            self.notify("Following the live log: press f to stop following, then play.")
            return
        if self.clock.playing:
            self._pause()
        else:
            self._play()

    def action_step(self, delta: int) -> None:
        self.playback.step(delta)
        self._refresh_chrome()

    def action_phase(self, delta: int) -> None:
        spans = self.deploy_log.phases()
        if not spans:
            return
        target = phase_target(spans, self.clock.position, delta, len(self.deploy_log))
        self.clock.pause(time.monotonic())
        self._seek_line(target)

    def action_speed(self, delta: int) -> None:
        self.playback.speed(delta)
        self._refresh_chrome()

    def action_max_speed(self) -> None:
        self.playback.max_speed()
        self._refresh_chrome()

    def action_seek_edge(self, end: int) -> None:
        self._seek_line(len(self.deploy_log) if end else 0)
        if not end:
            self.view.cursor_row = 0

    def action_seek_prompt(self) -> None:
        def done(value: str | None) -> None:
            if not value:
                return
            target = parse_seek(value, self.phases.get()[1])
            if target is None:
                self.notify(f"Cannot seek to {value!r}: give seconds (90), m:ss (1:30), "
                            "a share (50%) or a phase (install, start, health, tests).",
                            severity="error")
            elif isinstance(target, Phase):
                start = self.deploy_log.phase_start(target)
                if start is None:
                    self.notify(f"This log has no {target.value} phase.", severity="warning")
                else:
                    self._seek_line(start)
            else:
                self.clock.seek_time(target)
                self._seek_line(self.clock.position)

        self.app.push_screen(PromptScreen("Seek to a time (90, 1:30, 50%) or a phase:",
                                          placeholder="1:30"), done)

    def action_first_error(self) -> None:
        if self.failure_line is not None:
            self._seek_line(self.failure_line + 1, center=self.failure_line)
            return
        self._first_error()

    @work(thread=True, exclusive=True, group="scan")
    def _first_error(self) -> None:
        worker = get_current_worker()
        self.app.call_from_thread(self._set_busy, "looking for the first error (Esc cancels)")
        line = first_error(self.deploy_log, cancelled=lambda: worker.is_cancelled)
        self.app.call_from_thread(self._set_busy, None)
        if line is None:
            self.app.call_from_thread(self.notify, "No error lines in this log.")
        else:
            self.app.call_from_thread(self._seek_line, line + 1, center=line)

    # ------------------------------------------------------------------ filter and search

    @property
    def bars(self) -> FilterBar:
        return self.query_one("#bars", FilterBar)

    def action_focus_filter(self) -> None:
        skip_when_typing(self)
        self.bars.focus_filter()

    def action_focus_search(self) -> None:
        skip_when_typing(self)
        self.bars.focus_search()

    @on(FilterBar.Filter)
    def _filter_submitted(self, event: FilterBar.Filter) -> None:
        self._set_filter(LogFilter(event.text, self.filter.levels, self.filter.hide_noise))
        self.view.focus()

    @on(FilterBar.Search)
    def _search_submitted(self, event: FilterBar.Search) -> None:
        self.search = event.text
        self.view.focus()
        if not self.search:
            self.view.search = None
            self.view.refresh()
            return
        try:
            self.view.search = Query(self.search).compile()
        except FilterError as exc:
            self.notify(str(exc), severity="error")
            return
        self.view.refresh()
        self.action_find(1)

    def action_level(self, name: str) -> None:
        self._set_filter(LogFilter(self.filter.query, self.filter.levels ^ LEVEL_CHOICES[name],
                                   self.filter.hide_noise))

    def action_clear_filter(self) -> None:
        self.bars.clear_filter()
        self._set_filter(LogFilter(hide_noise=self.filter.hide_noise))

    def _set_filter(self, flt: LogFilter) -> None:
        try:
            flt.check()
        except FilterError as exc:
            self.notify(str(exc), severity="error")
            return
        self.filter = flt
        self._apply_filter()

    def _apply_filter(self) -> None:
        if self.filter.empty:
            self.workers.cancel_group(self, "scan")
            self.view.set_rows(Rows(None, len(self.deploy_log)))
            self._set_busy(None)
            return
        self._scan(self.filter)

    @work(thread=True, exclusive=True, group="scan")
    def _scan(self, flt: LogFilter) -> None:
        worker = get_current_worker()
        progress = Throttle(lambda done, total: self.app.call_from_thread(
            self._set_busy, f"filtering {done / max(1, total):.0%} (Esc cancels)"))
        started = time.monotonic()
        lines = scan_log(self.deploy_log, flt, progress=progress,
                         cancelled=lambda: worker.is_cancelled)
        if lines is None or worker.is_cancelled:
            self.app.call_from_thread(self._set_busy, None)
            return
        elapsed = time.monotonic() - started
        self.app.call_from_thread(self._filtered, flt, Rows(lines, len(self.deploy_log)), elapsed)

    def _filtered(self, flt: LogFilter, rows: Rows, elapsed: float) -> None:
        if flt != self.filter:
            return
        self._set_busy(None)
        self.view.set_rows(rows)
        self._refresh_chrome()

    def action_find(self, direction: int) -> None:
        if not self.search:
            self.action_focus_search()
            return
        origin = self.view.cursor_line
        self._find(self.search, -1 if origin is None else origin, direction > 0)

    @work(thread=True, exclusive=True, group="scan")
    def _find(self, query: str, origin: int, forward: bool) -> None:
        worker = get_current_worker()
        self.app.call_from_thread(self._set_busy, f"searching {query!r} (Esc cancels)")
        line = find(self.deploy_log, query, origin, forward, cancelled=lambda: worker.is_cancelled)
        self.app.call_from_thread(self._found, query, line)

    def _found(self, query: str, line: int | None) -> None:
        self._set_busy(None)
        if line is None:
            self.notify(f"No match for {query!r}.", severity="warning")
            return
        if hidden_by_filter(self.view.rows, line):
            self.notify("The match is hidden by the filter; clear it (c) to see it.")
        self.playback.reveal_match(line)
        self._refresh_chrome()

    def _set_busy(self, text: str | None) -> None:
        self.busy = text
        self._refresh_chrome()

    # ------------------------------------------------------------------ follow

    def action_follow(self) -> None:
        if self.following:
            self.following = False
            self.workers.cancel_group(self, "follow")
            self.notify("Stopped following.")
        else:
            self.following = True
            self.playback.stop_at(len(self.deploy_log))
            self._follow()
        self._refresh_chrome()

    @work(thread=True, exclusive=True, group="follow")
    def _follow(self) -> None:
        worker = get_current_worker()
        follow(self.deploy_log, lambda events: self.app.call_from_thread(self._followed, events),
               lambda: worker.is_cancelled)

    def _followed(self, events: list[str]) -> None:
        for e in events:
            self.notify(e, severity=event_severity(e))
        n = len(self.deploy_log)
        self.clock.set_line_count(n)
        if self.following:
            self.clock.seek_line(n)
        if not self.filter.empty:
            self._apply_filter()
        else:
            self.view.rows = Rows(None, n)
        self.view.set_revealed(self.clock.position)
        self._refresh_chrome()

    # ------------------------------------------------------------------ demo

    def action_demo(self, restart: bool = True) -> None:
        """Presentation mode: big clock and phase, noise and chrome hidden, replay from the
        start of the phase under the cursor at the current speed."""
        on_ = not self.has_class("demo")
        self.set_class(on_, "demo")
        view = self.view
        view.show_gutter = view.show_stream = not on_
        if on_:
            self._set_filter(self.demo.enter(self.filter))
            if restart:
                self.clock.seek_line(self.demo.start_line(self.deploy_log, view.cursor_line))
                view.attached = True
                view.set_revealed(self.clock.position)
                self._play()
        else:
            self._set_filter(self.demo.leave())
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
        text = "\n".join(r.text for r in records)
        self.app.copy_to_clipboard(text)
        self.view.mark_row = None
        self.view.refresh()
        self.notify(f"Copied {len(records)} line{'s' if len(records) != 1 else ''} "
                    "to the clipboard.")

    @refused_when_read_only(Write.EXPORT)
    def action_export(self) -> None:
        default = _default_export_name(self.deploy_log)

        def done(value: str | None) -> None:
            if value:
                self._export(Path(value).expanduser(), self.view.rows)

        what = "the filtered view" if self.view.rows.filtered else "the whole log"
        self.app.push_screen(PromptScreen(f"Export {what} (raw lines, replayable) to:",
                                          value=default), done)

    @work(thread=True, exclusive=True, group="export")
    def _export(self, path: Path, rows: Rows) -> None:
        worker = get_current_worker()
        self.app.call_from_thread(self._set_busy, f"exporting to {path} (Esc cancels)")
        try:
            count = export_lines(self.deploy_log, rows.lines, path,
                                 cancelled=lambda: worker.is_cancelled)
        except OSError as exc:
            self.app.call_from_thread(self.notify, f"Cannot write {path}: {exc.strerror or exc}",
                                      severity="error")
            count = None
        self.app.call_from_thread(self._set_busy, None)
        if count is not None:
            self.app.call_from_thread(self.notify, f"Exported {count:,} lines to {path}.")

    @refused_when_read_only(Write.LABEL)
    def action_add_evidence(self) -> None:
        """Attach the log line under the cursor to the annotator's label of this sample."""
        from inspector.model.labels.label_file import Anchor, ItemRef
        from inspector.model.untrusted.errors import LoadError
        from inspector.ui.save_notice import announce_save

        session = label_session(self)
        if session is None or self.sample_id is None:
            self.notify("Open this log from a sample in the app to use its lines as evidence.",
                        severity="warning")
            return
        rec = self.view.cursor_record()
        if rec is None:
            return
        seg, local = self.deploy_log.locate(rec.line)
        phase = seg.phase.value if seg.phase is not None else seg.label
        anchor = Anchor.log(phase, local + 1, rec.text)
        try:
            state = session.add_evidence(ItemRef(self.sample_id), anchor, done=announce_save(
                self.app, f"Evidence added to your label: {anchor.describe()[:80]}"))
        except LoadError as exc:
            self.notify(f"Not saved: {exc}", severity="error", timeout=12)
            return
        if state != "saved":  # a save is announced once it is on disk
            self.notify({"pending": f"Evidence kept for your label: {anchor.describe()[:80]}",
                         "present": "Already evidence."}[state], timeout=3)

    def action_open_test(self) -> None:
        rec = self.view.cursor_record()
        ref = pytest_test_ref(rec.text) if rec is not None else None
        if ref is None:
            return
        if self.open_test is None:
            self.notify("Open this log from a sample (in the app) to jump to its tests.",
                        severity="warning")
            return
        if self.open_test(ref[0]):
            self.dismiss(None)
        else:
            self.notify(f"{ref[0]} is not among this sample's recorded tests.",
                        severity="warning")

    def action_back(self) -> None:
        busy = [w for w in self.workers if w.is_running and w.group in ("scan", "export", "index")]
        if busy:
            for w in busy:
                w.cancel()
            self._set_busy(None)
            return
        if self.view.mark_row is not None:
            self.view.toggle_selection()
            self._refresh_status()
            return
        if self.has_class("demo"):
            self.action_demo()
            return
        self.dismiss(None)

    def on_unmount(self) -> None:
        self.workers.cancel_all()
        self.deploy_log.close()

    @on(Timeline.Seek)
    def _timeline_seek(self, event: Timeline.Seek) -> None:
        spans = self.deploy_log.phases()
        if not 0 <= event.index < len(spans):
            return
        s = spans[event.index]
        if self.deploy_log.timed and s.start is not None and s.end is not None:
            self.clock.seek_time(s.start + event.fraction * (s.end - s.start))
            self._seek_line(self.clock.position)
        else:
            self._seek_line(s.first_line + int(event.fraction * s.line_count) + 1)

    @on(LogView.CursorMoved)
    def _cursor_moved(self) -> None:
        self._refresh_status()

    # ------------------------------------------------------------------ chrome

    def _refresh_chrome(self) -> None:
        """Push everything the chrome shows to its widgets; each redraws only if it changed."""
        if not self.is_mounted:
            return
        clock, log = self.clock, self.deploy_log
        state = "▶ playing" if clock.playing else ("● following" if self.following else
                                                  "⏸ paused")
        self.query_one(ReplayHeader).info = HeaderInfo(
            log.title, state, clock.speed_label(), len(log), self.phases.get()[1], log.timed,
            _mb(log.indexed_bytes) if self.indexing else None)
        self._show_clock()
        self._refresh_status()

    def _show_clock(self) -> None:
        """What moves with the clock: the header's clock, the playhead, the demo header; and
        the notices, which reading newly revealed lines may add (escapes, NUL bytes, …)."""
        clock, log = self.clock, self.deploy_log
        pos, t = clock.position, clock.elapsed
        spans = self.phases.get()[0]
        self.query_one(ReplayHeader).clock = ClockReading(t, pos)
        self.query_one(NoticesLine).notices = "  ·  ".join(f"⚠ {v}"
                                                          for v in log.notices.values())
        self.query_one(Timeline).update_state(TimelineState(
            spans, log.timed, max(0, pos - 1), t if log.timed else None, self.failure_line))
        if self.has_class("demo"):
            demo = self.query_one(DemoHeader)
            demo.phase = self.demo.phase(self.phases, pos, self.failure_line, log.title,
                                         clock.speed_label())
            demo.clock = clock_text(t)

    def _refresh_status(self) -> None:
        if self.is_mounted:
            self.query_one(StatusLine).fields = status_fields(
                self.view, self.filter, self.clock.position, busy=self.busy, search=self.search)


def _mb(n: int) -> str:
    return f"{n / (1 << 20):,.1f} MB"


def _default_export_name(log: DeploymentLog) -> str:
    s = log.sample
    stem = f"{s.task}-{s.sample}" if s is not None else Path(log.title).stem or "log"
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", stem)
    return str(Path.cwd() / f"{stem}-filtered.log")


__all__ = ["ReplayScreen", "parse_seek"]
