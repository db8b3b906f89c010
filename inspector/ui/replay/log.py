"""The replayed log: a `LogView` that owns the clock revealing its lines, the frame timer,
the filter its rows show and the thread workers that index, follow, filter and search it.

Workers post messages to the widget (handled on the event loop); the widget posts
`ReplayLog.Changed` (the chrome should show a new state), `ReplayLog.Ticked` (a frame moved
the clock), `ReplayLog.Busy` (a job started or ended) and `ReplayLog.Began` (the log's head is
read and the start options applied) to the screen.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from textual import on, work
from textual.message import Message
from textual.timer import Timer
from textual.worker import get_current_worker

from inspector.model.logs.replay_clock import ReplayClock
from inspector.model.results.outcomes import Phase
from inspector.services.logs.deployment_log import DeploymentLog
from inspector.services.logs.export import export_lines
from inspector.services.logs.filters import (
    LogFilter,
    Rows,
    failure_line,
    find,
    first_error,
)
from inspector.services.logs.filters import scan as scan_log
from inspector.services.logs.matches import Matches, count_matches
from inspector.ui.replay.demo import DemoMode
from inspector.ui.replay.header import HeaderInfo
from inspector.ui.replay.jobs import Throttle, event_severity, follow
from inspector.ui.replay.layout import PhaseLayout
from inspector.ui.replay.playback import Playback
from inspector.ui.replay.seek import hidden_by_filter, parse_seek, phase_target
from inspector.ui.widgets.log_view import LogView
from inspector.ui.widgets.timeline import TimelineState

FPS = 30
JOBS = ("scan", "export", "index")
"""Worker groups ``Esc`` cancels before it leaves the screen."""


def time_of(log: DeploymentLog, line: int) -> float | None:
    """The time of ``line`` (``None`` past the end): the replay clock's reading of the log."""
    try:
        return log.time_of(line)
    except IndexError:
        return None


def mb(n: int) -> str:
    """``n`` bytes in MB, as the header and status line say it."""
    return f"{n / (1 << 20):,.1f} MB"


@dataclass(frozen=True)
class Start:
    """Where the replay starts: at ``phase``'s first line, playing, following the log."""

    phase: Phase | None = None
    play: bool = False
    follow: bool = False


class ReplayLog(LogView):
    """The log region of the replay screen and the replay's state."""

    class Changed(Message):
        """The play state, line counts or failure line changed: redraw the chrome."""

    class Ticked(Message):
        """A playback frame moved the clock."""

    class Busy(Message):
        """A job (indexing, filtering, searching, exporting) reports, or ended (``None``)."""

        def __init__(self, text: str | None) -> None:
            super().__init__()
            self.text = text

    class Began(Message):
        """The head of the log is read and the start options are applied."""

    class _Grew(Message, bubble=False):
        def __init__(self, first: bool) -> None:
            super().__init__()
            self.first = first

    class _Painted(Message, bubble=False):
        """Asks for the first paint to be awaited (the full index waits for it)."""

    class _Indexing(Message, bubble=False):
        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done, self.total = done, total

    class _Indexed(Message, bubble=False):
        def __init__(self, finished: bool) -> None:
            super().__init__()
            self.finished = finished

    class _Failure(Message, bubble=False):
        def __init__(self, line: int | None) -> None:
            super().__init__()
            self.line = line

    class _Followed(Message, bubble=False):
        def __init__(self, events: list[str]) -> None:
            super().__init__()
            self.events = events

    class _Filtered(Message, bubble=False):
        def __init__(self, flt: LogFilter, rows: Rows) -> None:
            super().__init__()
            self.filter, self.rows = flt, rows

    class _Found(Message, bubble=False):
        def __init__(self, query: str | None, line: int | None) -> None:
            super().__init__()
            self.query, self.line = query, line

    class _Counted(Message, bubble=False):
        def __init__(self, matches: Matches | None) -> None:
            super().__init__()
            self.matches = matches

    class _Notice(Message, bubble=False):
        def __init__(self, text: str, error: bool = False) -> None:
            super().__init__()
            self.text, self.error = text, error

    def __init__(self, log: DeploymentLog, clock: ReplayClock, start: Start, *,
                 id: str | None = None) -> None:  # noqa: A002 - Textual's Widget id=
        super().__init__(log, id=id)
        self.clock = clock
        self.playback = Playback(clock, self)
        self.phases = PhaseLayout(log)
        self.filter = LogFilter()
        """The filter the rows show (the screen applies the filter bar's)."""
        self.following = False
        self.indexing = True
        self.failure_line: int | None = None
        self.matches: Matches | None = None
        """Every match of the last search, once counted (the status line numbers them)."""
        self._start = start
        self._started = False
        self._timer: Timer | None = None
        self._first_paint = threading.Event()

    # ------------------------------------------------------------------ what the chrome shows

    def state(self) -> str:
        """The play state for the header."""
        return ("▶ playing" if self.clock.playing else
                "● following" if self.following else "⏸ paused")

    def header_info(self) -> HeaderInfo:
        clock, log = self.clock, self.deploy_log
        return HeaderInfo(log.title, self.state(), clock.speed_label(), len(log),
                          self.phases.get()[1], log.timed,
                          mb(log.indexed_bytes) if self.indexing else None)

    def timeline_state(self) -> TimelineState:
        log, pos = self.deploy_log, self.clock.position
        return TimelineState(self.phases.get()[0], log.timed, max(0, pos - 1),
                             self.clock.elapsed if log.timed else None, self.failure_line)

    # ------------------------------------------------------------------ indexing

    @work(thread=True, exclusive=True, group="index")
    def index(self) -> None:
        """Read the head of the log, let the screen paint, then index the rest."""
        worker = get_current_worker()
        self.deploy_log.index_head()
        self.post_message(self._Grew(True))
        # let the first screen paint before the full index competes for the GIL
        self.post_message(self._Painted())
        self._first_paint.wait(2.0)
        progress = Throttle(lambda done, total: self.post_message(self._Indexing(done, total)),
                            start=time.monotonic())
        finished = self.deploy_log.index(progress, lambda: worker.is_cancelled)
        self.post_message(self._Indexed(finished))

    @on(_Painted)
    def _painted(self) -> None:
        self.call_after_refresh(self._first_paint.set)

    @on(_Grew)
    def _grew(self, event: _Grew) -> None:
        self.grown(event.first)

    @on(_Indexing)
    def _indexing(self, event: _Indexing) -> None:
        self.post_message(self.Busy(f"indexing {event.done / max(1, event.total):.0%} of "
                                    f"{mb(event.total)} (Esc cancels)"))
        self.grown(False)

    @on(_Indexed)
    def _indexed(self, event: _Indexed) -> None:
        self.indexing = False
        self.post_message(self.Busy(None))
        if not event.finished:
            self.notify("Indexing cancelled: the part read so far is shown.", severity="warning")
        self.grown(False)
        self._find_failure()
        if not self.filter.empty:
            self.apply_filter(self.filter)

    def grown(self, first: bool) -> None:
        """The log has more lines (indexing or following)."""
        n = len(self.deploy_log)
        clock = self.clock
        was_all = clock.position >= clock.line_count
        clock.set_line_count(n)
        if not self.filter.empty and self.rows.filtered:
            self.rows.total = n
        else:
            self.rows = Rows(None, n)
        if first and not self._started:
            self._started = True
            self._begin()
        elif was_all and not clock.playing:
            clock.seek_line(n)
        self.set_revealed(clock.position)
        self.post_message(self.Changed())

    def _begin(self) -> None:
        start = self._start
        self.clock.seek_line(len(self.deploy_log))
        self.attached = False
        self.cursor_row = 0
        if start.phase is not None:
            line = self.deploy_log.phase_start(start.phase)
            if line is None:
                self.notify(f"This log has no {start.phase.value} phase.", severity="warning")
            else:
                self.clock.seek_line(line)
                self.attached = True
        self.post_message(self.Began())
        if start.play:
            if start.phase is None:
                self.clock.seek_line(0)
                self.attached = True
            self.play()
        if start.follow:
            self.toggle_follow()

    @work(thread=True, exclusive=True, group="failure")
    def _find_failure(self) -> None:
        log = self.deploy_log
        failed = [s for s in log.phases() if s.failed]
        if not failed and not (log.sample and not log.sample.passed):
            return
        self.post_message(self._Failure(failure_line(log)))

    @on(_Failure)
    def _failure(self, event: _Failure) -> None:
        self.failure_line = event.line
        self.post_message(self.Changed())

    # ------------------------------------------------------------------ playback

    def play(self) -> None:
        self.playback.play()
        if self._timer is None:
            self._timer = self.set_interval(1 / FPS, self._tick)
        self.post_message(self.Changed())

    def toggle_play(self) -> None:
        if self.following:
            self.notify("Following the live log: press f to stop following, then play.")
        elif self.clock.playing:
            self.playback.pause()
            self.post_message(self.Changed())
        else:
            self.play()

    def _tick(self) -> None:
        """One frame: only the clock's readers redraw (header clock, playhead, demo clock)."""
        if not self.clock.playing:
            return
        self.playback.tick()
        # at the end "playing" became "paused"
        self.post_message(self.Ticked() if self.clock.playing else self.Changed())

    def seek_line(self, position: int, *, center: int | None = None) -> None:
        self.playback.seek_line(position, center=center)
        self.post_message(self.Changed())

    def seek_time(self, t: float) -> None:
        self.clock.seek_time(t)
        self.seek_line(self.clock.position)

    def seek_edge(self, end: bool) -> None:
        self.seek_line(len(self.deploy_log) if end else 0)
        if not end:
            self.cursor_row = 0

    def seek_to(self, text: str) -> None:
        """``t``'s answer: a time (90, 1:30, 50%) or a phase; a bad one is said."""
        target = parse_seek(text, self.phases.get()[1])
        if target is None:
            self.notify(f"Cannot seek to {text!r}: give seconds (90), m:ss (1:30), "
                        "a share (50%) or a phase (install, start, health, tests).",
                        severity="error")
        elif isinstance(target, Phase):
            self.seek_phase(target)
        else:
            self.seek_time(target)

    def seek_phase(self, phase: Phase) -> None:
        start = self.deploy_log.phase_start(phase)
        if start is None:
            self.notify(f"This log has no {phase.value} phase.", severity="warning")
        else:
            self.seek_line(start)

    def seek_in_phase(self, index: int, fraction: float) -> None:
        """A click on the timeline: ``fraction`` of the way through phase ``index``."""
        spans = self.deploy_log.phases()
        if not 0 <= index < len(spans):
            return
        s = spans[index]
        if self.deploy_log.timed and s.start is not None and s.end is not None:
            self.seek_time(s.start + fraction * (s.end - s.start))
        else:
            self.seek_line(s.first_line + int(fraction * s.line_count) + 1)

    def jump_phase(self, delta: int) -> None:
        """``]`` and ``[``: the end of this phase, the start of the previous one."""
        spans = self.deploy_log.phases()
        if spans:
            target = phase_target(spans, self.clock.position, delta, len(self.deploy_log))
            self.clock.pause(time.monotonic())
            self.seek_line(target)

    def step(self, delta: int) -> None:
        self.playback.step(delta)
        self.post_message(self.Changed())

    def speed(self, delta: int | None) -> None:
        """Faster (``delta`` > 0), slower, or as fast as possible (``None``)."""
        if delta is None:
            self.playback.max_speed()
        else:
            self.playback.speed(delta)
        self.post_message(self.Changed())

    def restart_phase(self) -> None:
        """Play from the start of the phase under the cursor (demo mode)."""
        self.clock.seek_line(DemoMode.start_line(self.deploy_log, self.cursor_line))
        self.attached = True
        self.set_revealed(self.clock.position)
        self.play()

    # ------------------------------------------------------------------ follow

    def toggle_follow(self) -> None:
        if self.following:
            self.following = False
            self.workers.cancel_group(self, "follow")
            self.notify("Stopped following.")
        else:
            self.following = True
            self.playback.stop_at(len(self.deploy_log))
            self._follow()
        self.post_message(self.Changed())

    @work(thread=True, exclusive=True, group="follow")
    def _follow(self) -> None:
        worker = get_current_worker()
        follow(self.deploy_log, lambda events: self.post_message(self._Followed(events)),
               lambda: worker.is_cancelled)

    @on(_Followed)
    def _followed(self, event: _Followed) -> None:
        for e in event.events:
            self.notify(e, severity=event_severity(e))
        n = len(self.deploy_log)
        self.clock.set_line_count(n)
        if self.following:
            self.clock.seek_line(n)
        if not self.filter.empty:
            self.apply_filter(self.filter)
        else:
            self.rows = Rows(None, n)
        self.set_revealed(self.clock.position)
        self.post_message(self.Changed())

    # ------------------------------------------------------------------ filter and search

    def apply_filter(self, flt: LogFilter) -> None:
        """Show the lines ``flt`` keeps (all without a filter); a scan runs in a worker."""
        self.filter = flt
        if flt.empty:
            self.workers.cancel_group(self, "scan")
            self.set_rows(Rows(None, len(self.deploy_log)))
            self.post_message(self.Busy(None))
        else:
            self._scan(flt)

    @work(thread=True, exclusive=True, group="scan")
    def _scan(self, flt: LogFilter) -> None:
        worker = get_current_worker()
        progress = Throttle(lambda done, total: self.post_message(
            self.Busy(f"filtering {done / max(1, total):.0%} (Esc cancels)")))
        lines = scan_log(self.deploy_log, flt, progress=progress,
                         cancelled=lambda: worker.is_cancelled)
        if lines is None or worker.is_cancelled:
            self.post_message(self.Busy(None))
            return
        self.post_message(self._Filtered(flt, Rows(lines, len(self.deploy_log))))

    @on(_Filtered)
    def _filtered(self, event: _Filtered) -> None:
        if event.filter != self.filter:
            return
        self.post_message(self.Busy(None))
        self.set_rows(event.rows)
        self.post_message(self.Changed())

    def find(self, query: str, origin: int, forward: bool) -> None:
        """Go to the next (previous) line matching ``query`` from line ``origin`` on: at once
        when its matches are counted, else found (then counted) in a worker."""
        matches = self.matches
        if matches is not None and matches.covers(query, len(self.deploy_log)):
            self._show_found(query, matches.next(origin, forward))
        else:
            self._find(query, origin, forward)

    @work(thread=True, exclusive=True, group="scan")
    def _find(self, query: str, origin: int, forward: bool) -> None:
        worker = get_current_worker()
        self.post_message(self.Busy(f"searching {query!r} (Esc cancels)"))
        line = find(self.deploy_log, query, origin, forward, cancelled=lambda: worker.is_cancelled)
        self.post_message(self._Found(query, line))
        if line is None or worker.is_cancelled:
            return
        # then count them all, for "match 3 of 17" (the first match is shown meanwhile)
        progress = Throttle(lambda done, total: self.post_message(self.Busy(
            f"counting matches {done / max(1, total):.0%} (Esc cancels)")),
            start=time.monotonic())
        matches = count_matches(self.deploy_log, query, progress=progress,
                                cancelled=lambda: worker.is_cancelled)
        self.post_message(self._Counted(matches))

    def first_error(self) -> None:
        """Go to the failure's first error line; without one, look for any error line."""
        if self.failure_line is not None:
            self.seek_line(self.failure_line + 1, center=self.failure_line)
        else:
            self._first_error()

    @work(thread=True, exclusive=True, group="scan")
    def _first_error(self) -> None:
        worker = get_current_worker()
        self.post_message(self.Busy("looking for the first error (Esc cancels)"))
        line = first_error(self.deploy_log, cancelled=lambda: worker.is_cancelled)
        self.post_message(self._Found(None, line))

    @on(_Found)
    def _found(self, event: _Found) -> None:
        self.post_message(self.Busy(None))
        line = event.line
        if event.query is None:  # the first error
            if line is None:
                self.notify("No error lines in this log.")
            else:
                self.seek_line(line + 1, center=line)
            return
        self._show_found(event.query, line)

    def _show_found(self, query: str, line: int | None) -> None:
        if line is None:
            self.notify(f"No match for {query!r}.", severity="warning")
            return
        if hidden_by_filter(self.rows, line):
            self.notify("The match is hidden by the filter; clear it (c) to see it.")
        self.playback.reveal_match(line)
        self.post_message(self.Changed())

    @on(_Counted)
    def _counted(self, event: _Counted) -> None:
        self.post_message(self.Busy(None))
        if event.matches is not None:
            self.matches = event.matches
            self.post_message(self.Changed())

    # ------------------------------------------------------------------ export, jobs

    @work(thread=True, exclusive=True, group="export")
    def export(self, path: Path, rows: Rows) -> None:
        """Write the raw lines of ``rows`` to ``path``."""
        worker = get_current_worker()
        post: Callable[[Message], bool] = self.post_message
        post(self.Busy(f"exporting to {path} (Esc cancels)"))
        try:
            count = export_lines(self.deploy_log, rows.lines, path,
                                 cancelled=lambda: worker.is_cancelled)
        except OSError as exc:
            post(self._Notice(f"Cannot write {path}: {exc.strerror or exc}", error=True))
            count = None
        post(self.Busy(None))
        if count is not None:
            post(self._Notice(f"Exported {count:,} lines to {path}."))

    @on(_Notice)
    def _notice(self, event: _Notice) -> None:
        self.notify(event.text, severity="error" if event.error else "information")

    def cancel_jobs(self) -> bool:
        """Cancel a running index, scan or export; ``False`` when none runs."""
        busy = [w for w in self.workers if w.is_running and w.group in JOBS]
        for w in busy:
            w.cancel()
        return bool(busy)


__all__ = ["FPS", "ReplayLog", "Start", "mb", "time_of"]
