"""The replay screen driven like a person would: keys, real log files, real time."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from inspector.services.logs.deployment_log import open_log_path
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.replay_app import ReplayApp
from inspector.ui.screens.replay import ReplayScreen, parse_seek
from inspector.ui.screens.sample import SampleScreen
from inspector.ui.widgets.log_view import LogView
from inspector.ui.widgets.timeline import Timeline
from tests.settle import until

from .conftest import settle

SIZE = (140, 40)


def _ts(t: float) -> str:
    m, s = divmod(t, 60)
    return f"2026-11-21T06:{int(m):02d}:{s:09.6f}+00:00"


def write_log(path: Path, n: int = 100, step: float = 0.05, start: float = 0.0) -> Path:
    """``n`` lines ``step`` seconds apart: pip, a traceback, pytest results, warnings."""
    lines = []
    for i in range(n):
        t = start + i * step
        if i % 25 == 0 and i:
            text, stream = "Traceback (most recent call last):", "err"
        elif i % 25 == 1 and i > 1:
            text, stream = '  File "app.py", line 3, in <module>', "err"
        elif i % 25 == 2 and i > 2:
            text, stream = "ModuleNotFoundError: No module named 'jwt'", "err"
        elif i % 10 == 4:
            text, stream = f"tests/test_a.py::test_{i} FAILED   [ {i}%]", "out"
        elif i % 10 == 8:
            text, stream = f"WARNING: line {i} is odd", "err"
        else:
            text, stream = f"Collecting package{i}", "out"
        lines.append(f"{_ts(t)}\t{stream}\t{text}\n")
    path.write_text("".join(lines))
    return path


async def wait_for(pilot, cond, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    await until(pilot, cond, "the replay", timeout, step=0.02, drain=True)


async def ready(app: ReplayApp, pilot) -> ReplayScreen:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen)
                   and not app.screen.indexing)
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


async def test_play_pause_and_speed(tmp_path: Path) -> None:
    app = ReplayApp(open_log_path(write_log(tmp_path / "a.log", 200, 0.05)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        view = screen.query_one(LogView)
        # opens showing the whole log from the top, paused
        assert screen.clock.position == 200 and view.cursor_row == 0
        assert not screen.clock.playing
        await pilot.press("g")
        assert screen.clock.position == 0 and view.row_count == 0
        started = time.monotonic()
        await pilot.press("space")
        assert screen.clock.playing
        await pilot.pause(0.5)
        await pilot.press("space")
        wall = time.monotonic() - started
        shown = screen.clock.position
        # 1x: lines 0.05 s apart appear 20 per second of wall time
        assert 0.5 * 20 * wall - 3 <= shown <= 20 * wall + 2, (shown, wall)
        assert view.row_count == shown and view.cursor_row == shown - 1
        await pilot.pause(0.3)
        assert screen.clock.position == shown  # paused stays put
        await pilot.press("plus", "plus", "plus")  # 1x -> 2x -> 5x -> 10x
        assert screen.clock.speed_label() == "10x"
        await pilot.press("minus")
        assert screen.clock.speed_label() == "5x"
        await pilot.press("m", "space")
        await wait_for(pilot, lambda: screen.clock.finished, 3.0)
        assert view.row_count == 200
        assert "max" in str(screen.query_one("#replay-head").render())


async def test_step_lines_and_phases(sample_runs: Path, make_app) -> None:  # type: ignore[no-untyped-def]
    from inspector.ui.messages import OpenSample

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        key = next(e.key for e in app.catalog.samples(None)
                   if e.task == "todo-service" and "relay" in e.run_id
                   and "@" not in e.run_id)
        app.post_message(OpenSample(key))
        await settle(app, pilot)
        assert isinstance(app.screen, SampleScreen)
        await pilot.press("l")
        screen = await ready(app, pilot)
        spans = screen.deploy_log.phases()
        assert [s.label for s in spans][:2] == ["install/build", "start"]
        await pilot.press("g", "right", "right", "right")
        assert screen.clock.position == 3 and not screen.clock.playing
        await pilot.press("left")
        assert screen.clock.position == 2
        await pilot.press("g", "right_square_bracket")
        assert screen.clock.position == spans[0].first_line + spans[0].line_count
        await pilot.press("right_square_bracket")
        assert screen.clock.position == spans[1].first_line + spans[1].line_count
        # the failed phase is marked on the timeline, with the failure point
        assert any(s.failed for s in spans)
        await wait_for(pilot, lambda: screen.failure_line is not None)
        timeline = screen.query_one(Timeline)
        assert "✖" in str(timeline.render())
        await pilot.press("e")
        rec = screen.query_one(LogView).cursor_record()
        assert rec is not None and rec.text.startswith("Traceback")


async def test_seek_to_time_and_phase(tmp_path: Path) -> None:
    app = ReplayApp(open_log_path(write_log(tmp_path / "a.log", 100, 0.05)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press(*"2.5", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert screen.clock.position == 51  # lines at 0.00 … 2.50 s
        assert abs(screen.clock.elapsed - 2.5) < 1e-6
        await pilot.press("t", *"oops", "enter")
        await pilot.pause()
        assert screen.clock.position == 51  # a bad time changes nothing
    assert parse_seek("1:30", 100) == 90 and parse_seek("50%", 10) == 5
    assert parse_seek("tests", 1).value == "tests"  # type: ignore[union-attr]


async def test_filter_text_regex_level_and_hidden_count(tmp_path: Path) -> None:
    app = ReplayApp(open_log_path(write_log(tmp_path / "a.log", 100, 0.05)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        view = screen.query_one(LogView)
        await pilot.press("slash", *"FAILED", "enter")
        await wait_for(pilot, lambda: view.rows.filtered)
        assert view.row_count == 10
        status = str(screen.query_one("#replay-status").render())
        assert "10 shown, 90 hidden" in status
        await pilot.press("c")
        await wait_for(pilot, lambda: not view.rows.filtered)
        assert view.row_count == 100
        await pilot.press("B")  # tracebacks only
        await wait_for(pilot, lambda: view.rows.filtered)
        assert view.row_count == 9  # 3 tracebacks of 3 lines
        assert all("Traceback" in r.text or "File" in r.text or "Error" in r.text
                   for r in view.selected_records() + [view.cursor_record()] if r)
        await pilot.press("B", "W")
        await wait_for(pilot, lambda: view.row_count == 10)
        await pilot.press("c", "slash")
        await pilot.press(*"/test_(4|14)\\b/", "enter")
        await wait_for(pilot, lambda: view.rows.filtered and view.row_count == 2)
        # a bad regex: an error, the previous filter stays
        await pilot.press("slash", "ctrl+a", *"/(/", "enter")
        await pilot.pause()
        assert view.row_count == 2
        # stepping with a filter moves from one kept line to the next
        await pilot.press("g", "right")
        assert screen.clock.position == 5 and view.row_count == 1
        await pilot.press("right")
        assert screen.clock.position == 15 and view.row_count == 2
        await pilot.press("left")
        assert screen.clock.position == 5 and view.row_count == 1


async def test_search_next_previous(tmp_path: Path) -> None:
    app = ReplayApp(open_log_path(write_log(tmp_path / "a.log", 100, 0.05)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        view = screen.query_one(LogView)
        await pilot.press("s", *"ModuleNotFound", "enter")
        await wait_for(pilot, lambda: view.cursor_line == 27)
        await pilot.press("n")
        await wait_for(pilot, lambda: view.cursor_line == 52)
        await pilot.press("N")
        await wait_for(pilot, lambda: view.cursor_line == 27)
        assert view.search is not None


async def test_follow_a_growing_log(tmp_path: Path) -> None:
    path = write_log(tmp_path / "live.log", 10, 0.05)
    app = ReplayApp(open_log_path(path))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        view = screen.query_one(LogView)
        await pilot.press("f")
        assert screen.following
        with path.open("a") as fh:
            for i in range(5):
                fh.write(f"{_ts(1 + i)}\tout\tnew line {i}\n")
        await wait_for(pilot, lambda: view.row_count == 15, 5.0)
        assert view.cursor_line == 14 and view.cursor_record().text == "new line 4"
        # the log is rotated: read again from the start of the new file
        path.unlink()
        await wait_for(pilot, lambda: "deleted" in screen.deploy_log.notices, 5.0)
        assert view.row_count == 15  # what was read stays
        path.write_text(f"{_ts(9)}\tout\tafter rotation\n")
        await wait_for(pilot, lambda: view.row_count == 1, 5.0)
        assert view.cursor_record().text == "after rotation"
        await pilot.press("f")
        assert not screen.following


async def test_pytest_line_opens_the_test(sample_runs: Path, make_app) -> None:  # type: ignore[no-untyped-def]
    from inspector.ui.messages import OpenSample

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        key = next(e.key for e in app.catalog.samples(None)
                   if e.task == "todo-service" and "forge" in e.run_id
                   and "@" not in e.run_id)
        app.post_message(OpenSample(key))
        await settle(app, pilot)
        await pilot.press("l")
        screen = await ready(app, pilot)
        await pilot.press("s", *"test_create_defaults FAILED", "enter")
        view = screen.query_one(LogView)
        await wait_for(pilot, lambda: view.cursor_record() is not None
                       and "test_create_defaults FAILED" in view.cursor_record().text)
        assert "opens tests/test_todos.py::test_create_defaults" in str(
            screen.query_one("#replay-status").render())
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SampleScreen))
        pane = app.screen.main_pane
        detail = str(pane.query_one(".test-detail").render())
        assert "test_create_defaults" in detail


async def test_demo_copy_and_export(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    app = ReplayApp(open_log_path(write_log(tmp_path / "a.log", 60, 0.05)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        view = screen.query_one(LogView)
        await pilot.press("down", "v", "down", "down", "y")
        assert app.clipboard.splitlines() == ["Collecting package1", "Collecting package2",
                                              "Collecting package3"]
        await pilot.press("W", "x")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("enter")
        out = tmp_path / "a-filtered.log"
        await wait_for(pilot, lambda: out.exists())
        assert [ln.split("\t")[2] for ln in out.read_text().splitlines()] == [
            "WARNING: line 8 is odd", "WARNING: line 18 is odd", "WARNING: line 28 is odd",
            "WARNING: line 38 is odd", "WARNING: line 48 is odd", "WARNING: line 58 is odd"]
        await pilot.press("W")
        await wait_for(pilot, lambda: not view.rows.filtered)
        await pilot.press("D")
        assert screen.has_class("demo") and not view.show_gutter
        assert screen.clock.playing and screen.filter.hide_noise
        await pilot.press("escape")
        assert not screen.has_class("demo") and view.show_gutter
        assert not screen.filter.hide_noise


async def test_untimed_log_replays_line_by_line(sample_runs: Path) -> None:
    from inspector.services.logs.deployment_log import locate_sample_log

    log = locate_sample_log(sample_runs / "repogenesis" / "relay", "todo-service")
    app = ReplayApp(log, play=True, speed=10.0)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        notices = str(screen.query_one("#replay-notices").render())
        assert "no timestamps" in notices
        await pilot.pause(0.3)
        # 200 lines/s at 10x: some lines shown, not all
        assert 0 < screen.clock.position < len(log)
        assert "line" in str(screen.query_one("#replay-head").render())
        await asyncio.sleep(0)
