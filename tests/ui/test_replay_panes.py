"""The replay screen's parts: playback frames redraw only what moved; the seeking helpers."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest
from textual.widget import Widget

from inspector.services.logs.deployment_log import open_log_path
from inspector.services.logs.filters import Rows
from inspector.ui.replay.demo import clock_text
from inspector.ui.replay.header import ReplayHeader
from inspector.ui.replay.layout import PhaseLayout
from inspector.ui.replay.seek import filtered_step, parse_seek, phase_target
from inspector.ui.replay.status import NoticesLine, StatusLine
from inspector.ui.replay_app import ReplayApp
from inspector.ui.widgets.timeline import Timeline, TimelineState

from .test_replay_screen import SIZE, _ts, ready, wait_for, write_log


def plain_log(path: Path, n: int, step: float) -> Path:
    """``n`` ordinary lines ``step`` seconds apart (no test lines, no levels)."""
    path.write_text("".join(f"{_ts(i * step)}\tout\tstep {i} done\n" for i in range(n)))
    return path


class Renders:
    """Counts how often widgets of some classes draw their content."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *classes: type[Widget]) -> None:
        self.counts = {c.__name__: 0 for c in classes}
        for cls in classes:
            original = cls.render

            def counted(widget, _original=original, _name=cls.__name__):  # type: ignore[no-untyped-def]
                self.counts[_name] += 1
                return _original(widget)

            monkeypatch.setattr(cls, "render", counted)

    def reset(self) -> None:
        self.counts = dict.fromkeys(self.counts, 0)


async def test_playback_frames_redraw_the_clock_only(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    renders = Renders(monkeypatch, ReplayHeader, StatusLine, NoticesLine)
    app = ReplayApp(open_log_path(plain_log(tmp_path / "a.log", 400, 0.05)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        head = screen.query_one(ReplayHeader)
        await pilot.press("g", "space")
        await pilot.pause(0.2)
        before = str(head.render())
        renders.reset()
        await pilot.pause(0.6)
        after = str(head.render())
        assert screen.clock.playing and screen.clock.position > 10
        # the clock moved on screen, many frames were drawn …
        assert before != after and "▶ playing" in after
        assert renders.counts["ReplayHeader"] >= 5, renders.counts
        # … while the status and notices lines, whose content did not change, stayed as drawn
        assert renders.counts["StatusLine"] == 0, renders.counts
        assert renders.counts["NoticesLine"] == 0, renders.counts
        await pilot.press("m", "space")
        await wait_for(pilot, lambda: screen.clock.finished, 3.0)
        await pilot.pause(0.1)
        # the end of the log shows as paused without a key press
        assert "⏸ paused" in str(head.render())
        assert "line 400 / 400" in str(head.render())


async def test_timeline_redraws_only_when_the_playhead_changes_column(
        tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    renders = Renders(monkeypatch, Timeline)
    app = ReplayApp(open_log_path(write_log(tmp_path / "a.log", 100, 0.05)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        timeline = screen.query_one(Timeline)
        state = timeline.state
        assert state is not None and state.spans
        await pilot.pause()
        renders.reset()
        # the same column: nothing to draw
        same = TimelineState(state.spans, state.timed, state.playhead_line,
                             state.playhead_time, state.failure_line)
        timeline.update_state(same)
        await pilot.pause(0.1)
        assert renders.counts["Timeline"] == 0
        # the playhead at the start: it moves on screen
        timeline.update_state(TimelineState(state.spans, state.timed, 0, 0.0,
                                            state.failure_line))
        await pilot.pause(0.1)
        assert renders.counts["Timeline"] >= 1
        marks = str(timeline.render()).splitlines()[1]
        assert marks.index("▲") == 0


def test_seeking_helpers(tmp_path: Path) -> None:
    log = open_log_path(write_log(tmp_path / "a.log", 100, 0.05))
    log.index_head()
    log.index(lambda done, total: None, lambda: False)
    layout = PhaseLayout(log)
    spans, duration = layout.get()
    assert layout.get()[0] is spans  # unchanged log: the cached phases
    assert abs(duration - 4.95) < 1e-6
    n = len(log)
    end_first = spans[0].first_line + spans[0].line_count
    assert phase_target(spans, 0, 1, n) == end_first
    assert phase_target(spans, n, 1, n) == n
    assert phase_target(spans, 0, -1, n) == 0
    # the lines a filter keeps: 4, 14, 24 → stepping reveals them one by one
    rows = Rows(array("Q", [4, 14, 24]), n)
    assert filtered_step(rows, 0, 1) == 5
    assert filtered_step(rows, 5, 1) == 15
    assert filtered_step(rows, 15, -1) == 5
    assert filtered_step(rows, 5, -1) == 0
    assert filtered_step(rows, 25, 1) == 25
    assert parse_seek("1:02:03.5", 0) == 3723.5 and parse_seek("x:1", 0) is None


async def test_demo_header_shows_the_phase_and_a_moving_clock(sample_runs: Path) -> None:
    from textual.widgets import Digits, Static

    from inspector.services.logs.deployment_log import locate_sample_log

    log = locate_sample_log(
        sample_runs / "runs" / "repo_readme_1118_forge_m1-large_Python", "todo-service")
    app = ReplayApp(log, speed=1.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        await pilot.press("g", "D")  # demo from the start of the first phase
        assert screen.has_class("demo") and screen.clock.playing
        await wait_for(pilot, lambda: screen.clock.finished, 5.0)
        await pilot.pause(0.1)
        phase = str(screen.query_one("#demo-phase", Static).render())
        assert phase.startswith("TESTS") and "✖ failed here" in phase
        assert "todo-service" in phase and "1x" in phase
        clock = screen.query_one("#demo-clock", Digits).value
        # the big clock stopped where the replay ended: the log's 1.41 s (plus a frame at most)
        assert clock in ("0:01.4", "0:01.5"), clock
        assert clock == clock_text(screen.clock.elapsed)
        await pilot.press("escape")
        assert not screen.has_class("demo")


def test_progress_is_reported_at_most_ten_times_a_second() -> None:
    import time

    from inspector.ui.replay.jobs import Throttle

    seen: list[tuple[int, int]] = []
    progress = Throttle(lambda done, total: seen.append((done, total)))
    for i in range(1000):
        progress(i, 1000)
    assert seen == [(0, 1000)]  # the first call reports at once, the rest fall in 0.1 s
    time.sleep(0.12)
    progress(999, 1000)
    assert seen == [(0, 1000), (999, 1000)]
    quiet = Throttle(lambda done, total: seen.append((done, total)), start=time.monotonic())
    quiet(1, 2)
    assert len(seen) == 2  # started now: nothing before 0.1 s have passed
