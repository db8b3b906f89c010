"""Type-ahead: keys read in one go, as a busy app or a laggy ``inspector serve`` connection
delivers them. What is typed right behind "/" (or the replay's "s") lands in the field that
key opens, never in the table the focus is leaving; inside a field, "/" and "s" are text."""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.widgets import Input

from inspector.services.logs.deployment_log import open_log_path
from inspector.ui.replay_app import ReplayApp
from inspector.ui.widgets.log_view import LogView
from tests.settle import until

from .conftest import settle
from .test_replay_screen import ready, wait_for, write_log

SIZE = (160, 45)
NAMES = {"/": "slash", " ": "space", "\r": "enter"}


def burst(app: object, text: str) -> None:
    """Queue every key of ``text`` before the app handles the first."""
    for ch in text:
        app.post_message(events.Key(NAMES.get(ch, ch), None if ch == "\r" else ch))  # type: ignore[attr-defined]


async def test_keys_right_behind_slash_filter_the_samples(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "2/forge todo")  # the samples tab, its filter, the words, in one go
        await pilot.pause(0.5)
        main = app.screen
        field = main.query_one("#sample-filter", Input)
        assert field.value == "forge todo"
        assert main.focused is field
        # the filter is debounced: wait for it (a loaded CI machine is slow), then check it
        # one: forge's stock-layout copy is the same run (issue 28)
        await until(pilot, lambda: len(main.samples_pane.table.shown) == 1,
                    "the typed filter to apply", drain=True)
        assert {e.task for e in main.samples_pane.table.shown} == {"todo-service"}
        # inside the field "/" is text: a regex typed after it, in one go, too
        field.value = ""
        burst(app, "/todo-serv/")
        await pilot.pause(0.5)
        assert field.value == "/todo-serv/"
        assert main.focused is field


async def test_keys_right_behind_slash_filter_the_runs(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        burst(app, "/forge")
        await pilot.pause(0.5)
        field = app.screen.query_one("#runs-filter", Input)
        assert field.value == "forge" and app.screen.focused is field


async def test_replay_search_and_filter_take_type_ahead(tmp_path: Path) -> None:
    app = ReplayApp(open_log_path(write_log(tmp_path / "a.log", 100, 0.05)))
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await ready(app, pilot)
        view = screen.query_one(LogView)
        burst(app, "sModuleNotFound\r")
        await wait_for(pilot, lambda: view.cursor_line == 27)
        assert screen.query_one("#log-search", Input).value == "ModuleNotFound"
        # "s" in the filter field is a letter, not the search key
        burst(app, "/tests\r")
        await wait_for(pilot, lambda: view.rows.filtered)
        assert screen.query_one("#log-filter", Input).value == "tests"
        assert screen.query_one("#log-search", Input).value == "ModuleNotFound"
