"""What a person sees in an 80x24 terminal and in the help: the runs' four figures without
scrolling, the sample's outcome, the screen's own keys first in the help, and a matrix whose
task column and run headers stay telling."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.widgets import DataTable

from inspector.ui.screens.help import HelpScreen
from inspector.ui.screens.sample import SampleScreen

from .conftest import open_sample, settle

SMALL = (80, 24)
FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAYS = ("repo_readme_1119_relay_open_coder-7b_Python",
          "repo_readme_1125_relay_open_coder-7b_Python")
TEXT_EDITING = {"Move cursor left", "Delete character left", "Scroll Up", "Cursor up"}


def screen_text(app) -> str:  # type: ignore[no-untyped-def]
    """The characters on screen, line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def _help_rows(app, pilot) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    await pilot.press("question_mark")
    await pilot.pause()
    assert isinstance(app.screen, HelpScreen)
    table = app.screen.query_one(DataTable)
    rows = [(str(table.get_row_at(i)[0]), str(table.get_row_at(i)[1]))
            for i in range(table.row_count)]
    await pilot.press("escape")
    await pilot.pause()
    return rows


def _check_order(rows: list[tuple[str, str]], own_first: list[str]) -> None:
    does = [d for _, d in rows]
    assert "this screen" in does[0], does[:5]
    first_keys = does[1:1 + len(own_first)]
    assert first_keys == own_first, first_keys
    editing = [i for i, d in enumerate(does) if d in TEXT_EDITING]
    app_wide = does.index("Quit")
    assert editing and min(editing) > app_wide > does.index(own_first[-1]), does


async def test_at_80x24_the_figures_the_outcome_and_each_screens_keys_come_first(
        make_app) -> None:
    """One app in an 80x24 terminal: the runs table, its help, a sample, the sample's help."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(app, pilot)
        table = app.main_screen.runs_pane.table
        assert table.scroll_x == 0
        header = table.render_line(0).text
        for name in ("pass@1", "test pass", "AC", "DSR"):
            assert name in header, header
        lines = [table.render_line(y).text for y in range(1, len(table.shown) + 1)]
        for run, line in zip(table.shown, lines, strict=True):  # every run in view
            m = run.metrics
            if run.run_id == FORGE:
                for v in (m["pass_at_1"], m["test_pass_ratio"], m["api_coverage"], m["dsr"]):
                    assert f"{v * 100:.1f}%" in line, line
            assert run.run_id[:12] in line and run.run_id[-6:] in line, line
        assert any("…" in line for line in lines)  # the longest ids elided in the middle
        assert "Sort" in screen_text(app).splitlines()[-1]  # the footer

        rows = await _help_rows(app, pilot)
        assert "Sort" in [d for _, d in rows[:8]]
        _check_order(rows, [d for _, d in rows[1:3]])  # whichever widget has the focus
        assert not {d for _, d in rows[:12]} & TEXT_EDITING

        await open_sample(app, pilot, f"{RELAYS[0]}/url-shortener/0")
        await pilot.press("t")
        await settle(app, pilot)
        text = screen_text(app)
        assert "no deploy: start" in text, text  # the outcome, beside the sample id
        assert "::test_redirect" in text and "::test_health" in text, text
        assert "Back" in text.splitlines()[-1]
        rows = await _help_rows(app, pilot)
        _check_order(rows, ["Back", "Files", "Tests", "Deploy"])
        assert isinstance(app.screen, SampleScreen)


def _two_runs_of_one_model(sample_runs: Path, root: Path) -> Path:
    for run in RELAYS:
        shutil.copytree(sample_runs / "runs" / run, root / "runs" / run)
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    return root


async def test_matrix_keeps_the_task_column_and_tells_two_runs_of_one_model_apart(
        make_app, sample_runs: Path, tmp_path: Path) -> None:
    app = make_app(_two_runs_of_one_model(sample_runs, tmp_path / "root"),
                   labels_dir=tmp_path / "labels")
    async with app.run_test(size=(50, 20)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        table = app.main_screen.matrix_pane.table
        headers = [str(c.label) for c in table.columns.values()][1:]
        assert len(headers) == 2 and headers[0] != headers[1], headers
        assert all("Relay·open_coder-7b" in h for h in headers), headers
        table.focus()
        for _ in range(3):
            await pilot.press("right")
        await settle(app, pilot)
        assert table.scroll_x > 0
        row = table.cursor_row
        line = table.render_line(row + 1).text
        assert table.tasks[row] in line, line
        assert "task" in table.render_line(0).text
