"""The replay at a small size on real sample logs longer than the screen: jumps made while
paused bring their line into view, search numbers its matches, an untimed transcript says that
its timing is inferred."""

from __future__ import annotations

from pathlib import Path

from inspector.services.logs.deployment_log import DeploymentLog, locate_sample_log
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.replay_app import ReplayApp
from inspector.ui.screens.replay import ReplayScreen
from inspector.ui.widgets.log_view import LogView

from .test_replay_screen import ready, wait_for

SIZE = (100, 30)
TIMED = ("runs", "repo_readme_1119_relay_open_coder-7b_Python", "inventory-api")
"""318 timestamped lines; the first error (tests phase) is line 97."""
UNTIMED = ("repogenesis", "relay", "todo-service")
"""The stock harness's container transcript: 767 lines, no timestamps."""


def _log(sample_runs: Path, where: tuple[str, str, str]) -> DeploymentLog:
    return locate_sample_log(sample_runs / where[0] / where[1], where[2])


def _status(screen: ReplayScreen) -> str:
    return str(screen.query_one("#replay-status").render())


def _assert_cursor_in_view(view: LogView, what: str) -> None:
    """The cursor's line is on screen: by the scroll offset and in the rendered lines."""
    top, height = view.scroll_offset.y, view.scrollable_content_region.height
    assert height > 5, height
    assert view.row_count > height, f"{what}: the log should need scrolling"
    assert top <= view.cursor_row < top + height, (what, top, height, view.cursor_row)
    rec = view.cursor_record()
    assert rec is not None
    shown = [view.render_line(y).text for y in range(height)]
    assert rec.text[:40] in shown[view.cursor_row - top], (what, rec.text, shown)


async def test_jumps_while_paused_show_their_line(sample_runs: Path) -> None:
    app = ReplayApp(_log(sample_runs, TIMED))
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        view = screen.query_one(LogView)
        assert "timing inferred" not in _status(screen)  # it has timestamps
        assert view.render_line(0).text.lstrip().startswith("+0:00.000")
        await wait_for(pilot, lambda: screen.failure_line is not None)
        failure = screen.failure_line
        assert failure is not None and failure > 60
        # first error, from the start (nothing revealed)
        await pilot.press("g", "e")
        await wait_for(pilot, lambda: view.cursor_line == failure)
        await pilot.pause()
        assert not screen.clock.playing
        _assert_cursor_in_view(view, "first error")
        # a time jump: `t 90%` reveals nine tenths of the run, its newest line in view
        await pilot.press("g", "t")
        await wait_for(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press(*"90%", "enter")
        await wait_for(pilot, lambda: app.screen is screen and screen.clock.position > 100)
        await pilot.pause()
        assert view.cursor_line == screen.clock.position - 1
        _assert_cursor_in_view(view, "t 90%")
        # phase jumps: the end of each phase, up to the long tests phase
        await pilot.press("g", *["right_square_bracket"] * 4)
        await pilot.pause()
        assert screen.clock.position == len(screen.deploy_log)
        _assert_cursor_in_view(view, "] to the end of the tests phase")


async def test_untimed_transcript_search_numbers_its_matches(sample_runs: Path) -> None:
    """The stock transcript says its timing is inferred; search says "match 3 of 17"."""
    log = _log(sample_runs, UNTIMED)
    app = ReplayApp(log)
    async with app.run_test(size=SIZE) as pilot:
        screen = await ready(app, pilot)
        view = screen.query_one(LogView)
        assert "timing inferred: this transcript has no timestamps" in _status(screen)
        # and each line's time says it is a pace, not when the line was written
        assert view.render_line(0).text.lstrip().startswith("~0:00.000")
        hits = [i for i in range(len(log)) if "failed" in log.record(i).text.lower()]
        assert len(hits) > 3
        await pilot.press("s", *"failed", "enter")
        await wait_for(pilot, lambda: f"match 1 of {len(hits)} " in _status(screen))
        assert view.cursor_line == hits[0]
        await pilot.press("n", "n")
        await wait_for(pilot, lambda: f"match 3 of {len(hits)} " in _status(screen))
        assert view.cursor_line == hits[2]
        _assert_cursor_in_view(view, "third match")
        await pilot.press("N")
        await wait_for(pilot, lambda: f"match 2 of {len(hits)} " in _status(screen))
        await pilot.press("N", "N")  # wraps around to the last match
        await wait_for(pilot, lambda: f"match {len(hits)} of {len(hits)} " in _status(screen))
        assert view.cursor_line == hits[-1]
        # off a match the total stays said
        await pilot.press("g")
        assert f"{len(hits)} matches" in _status(screen)
