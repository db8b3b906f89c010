"""The samples list (a Line-API widget) and the main screen's lazily built tabs, driven with
Pilot on the bundled runs as a person would: keys, mouse, preview, opening a sample."""

from __future__ import annotations

import dataclasses

from textual.css.query import NoMatches
from textual.widgets import Input, Static

from inspector.model.results.filters import SampleFilter
from inspector.ui.screens.sample import SampleScreen
from inspector.ui.widgets.samples_table import SamplesTable

from .conftest import settle

SIZE = (160, 42)


def _screen_text(app) -> str:  # type: ignore[no-untyped-def]
    return app.export_screenshot()


async def test_tabs_other_than_runs_are_built_when_first_shown(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        main = app.main_screen
        for selector in ("#sample-filter", "#matrix-table", "#health-table"):
            try:
                main.query_one(selector)
            except NoMatches:
                continue
            raise AssertionError(f"{selector} mounted before its tab was shown")
        await pilot.press("2")
        await settle(app, pilot)
        assert main.query_one("#sample-filter", Input) is not None
        assert main.query_one(SamplesTable).row_count == 39  # stock copies are twins (issue 28)
        await pilot.press("3")
        await settle(app, pilot)
        assert main.query_one("#matrix-table").row_count == 17  # type: ignore[attr-defined]
        await pilot.press("4")
        await settle(app, pilot)
        assert main.query_one("#health-table").row_count > 0  # type: ignore[attr-defined]


async def test_cursor_keys_move_the_highlight_and_the_preview_follows(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        table = app.main_screen.query_one(SamplesTable)
        preview = app.main_screen.query_one("#sample-preview", Static)
        assert app.focused is table and table.cursor_row == 0
        first = table.shown[0].sample_id
        assert str(preview.render()).startswith(first)
        await pilot.press("down", "down")
        await pilot.pause()
        assert table.cursor_row == 2
        assert str(preview.render()).startswith(table.shown[2].sample_id)
        height = table.scrollable_content_region.height - 1  # rows under the header
        await pilot.press("pagedown")
        await pilot.pause()
        assert table.cursor_row == 2 + height
        assert table.scroll_offset.y <= table.cursor_row < table.scroll_offset.y + height
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert table.cursor_row == 38
        assert table.scroll_offset.y == table.max_scroll_y  # the last row is on screen
        assert table.shown[38].sample_id.split("/")[-2] in _screen_text(app)
        height = table.scrollable_content_region.height - 1  # as laid out at the bottom
        await pilot.press("pageup")
        await pilot.pause()
        assert table.cursor_row == 38 - height
        await pilot.press("ctrl+home")
        await pilot.pause()
        assert table.cursor_row == 0 and table.scroll_offset.y == 0
        await pilot.press("up")  # stays on the first row
        assert table.cursor_row == 0
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, SampleScreen)
        assert app.screen.entry.sample_id == first


async def test_click_highlights_a_row_and_a_second_click_opens_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        table = app.main_screen.query_one(SamplesTable)
        await pilot.click(SamplesTable, offset=(40, 4))  # header is line 0: row 3
        await pilot.pause()
        assert table.cursor_row == 3
        target = table.shown[3].sample_id
        await pilot.click(SamplesTable, offset=(40, 4))
        await settle(app, pilot)
        assert isinstance(app.screen, SampleScreen)
        assert app.screen.entry.sample_id == target


async def test_refiltering_keeps_the_highlighted_sample(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        main = app.main_screen
        table = main.query_one(SamplesTable)
        await pilot.press(*["down"] * 5)
        chosen = table.current()
        assert chosen is not None
        main.set_filter(SampleFilter(run_key=chosen.run_key))
        await pilot.pause()
        assert table.row_count < 39 and table.current() == chosen
        main.set_filter(SampleFilter(text="no such sample anywhere"))
        await pilot.pause()
        assert table.row_count == 0 and table.current() is None
        preview = str(main.query_one("#sample-preview", Static).render())
        assert preview == "No sample matches the filter."


async def test_thousands_of_rows_scroll_and_measure_like_a_table(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        table = app.main_screen.query_one(SamplesTable)
        base = table.shown
        many = [dataclasses.replace(e, key=100_000 + i, sample=i,
                                    message=e.message + " x" * (i % 7))
                for i, e in enumerate(base * 60)]
        table.set_samples(many)
        await pilot.pause()
        assert table.row_count == len(many) == 2340
        assert table.virtual_size.height == len(many) + 1  # rows and the header
        widest = max(len(e.message[:120]) for e in many)
        assert table.widths[5] == widest  # the message column fits its widest cell
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert table.cursor_row == len(many) - 1
        line = table.render_line(table.scrollable_content_region.height - 1).text
        last = table.shown[-1]
        assert last.task in line and str(last.sample) in line


async def test_the_mouse_shows_a_hover_row_and_keys_hide_it(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        table = app.main_screen.query_one(SamplesTable)
        plain_row = table.render_line(6)
        await pilot.hover(SamplesTable, offset=(40, 6))  # row 5
        await pilot.pause()
        assert table.hover_row == 5
        hovered = table.render_line(6)
        assert hovered.text == plain_row.text and hovered != plain_row  # same text, shaded
        await pilot.press("down")
        await pilot.pause()
        assert table.render_line(6) == plain_row
