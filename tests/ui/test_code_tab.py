"""The sample view's Code tab: the generated repo's code metrics, measured only when the tab is
shown, replaced when another sample is opened, and the task's reference beside them."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.widgets import DataTable, Static, TabbedContent

from inspector.ui.messages import OpenSample
from inspector.ui.sample.code import CodeTab

from .conftest import open_sample, settle

FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"


def _rows(table: DataTable) -> dict[str, list[str]]:
    return {str(table.get_row_at(i)[0]): [str(c) for c in table.get_row_at(i)[1:]]
            for i in range(table.row_count)}


def _text(tab: CodeTab, selector: str) -> str:
    return str(tab.query_one(selector, Static).render())


async def test_code_tab_shows_the_repos_figures_and_follows_the_sample(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{FORGE}/url-shortener/0")
        pane = screen.main_pane
        tab = pane.query_one(CodeTab)
        # opening the sample measured nothing: the tab is not shown yet
        assert not tab.measured and tab.query_one(".code-summary", DataTable).row_count == 0

        await pilot.press("m")
        await settle(app, pilot)
        assert pane.query_one(TabbedContent).active == tab.id
        summary = _rows(tab.query_one(".code-summary", DataTable))
        assert summary["files"] == ["3", "—"]
        assert summary["functions"] == ["10", "—"]
        assert summary["classes"] == ["1", "—"]
        assert summary["cyclomatic (sum)"] == ["19", "—"]
        assert summary["cyclomatic (max)"] == ["3", "—"]
        assert summary["cognitive"][0].isdigit()
        assert "no reference implementation" in _text(tab, ".code-status")
        files = tab.query_one(".code-files", DataTable)
        assert [str(files.get_row_at(i)[0]) for i in range(files.row_count)] == \
            ["app.py", "storage.py", "codes.py"]
        assert "No file skipped" in _text(tab, ".code-notes")

        # another sample on the same screen: the figures go at once, and come back its own
        entry = app.catalog.find_sample(f"{RELAY}/url-shortener/0")
        app.post_message(OpenSample(entry.key))
        await settle(app, pilot)
        assert app.screen is screen and screen.main_pane is pane
        assert pane.query_one(TabbedContent).active != tab.id  # it opens on its failure
        assert not tab.measured and tab.query_one(".code-summary", DataTable).row_count == 0
        await pilot.press("m")
        await settle(app, pilot)
        summary = _rows(tab.query_one(".code-summary", DataTable))
        assert summary["files"] == ["2", "—"] and summary["functions"] == ["6", "—"]


async def test_a_late_result_for_the_previous_sample_is_dropped(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{FORGE}/url-shortener/0")
        tab = screen.main_pane.query_one(CodeTab)
        screen.main_pane.show_tab("code")  # starts measuring forge's repo...
        assert "Measuring…" in _text(tab, ".code-status")
        old = tab.generation
        entry = app.catalog.find_sample(f"{RELAY}/url-shortener/0")
        app.post_message(OpenSample(entry.key))  # ...and moves on before it is shown
        await settle(app, pilot)
        assert tab.generation > old
        # forge's figures (10 functions) never show for relay's sample: the tab is empty, or
        # — when the Code tab stayed open across the switch — it shows relay's own (6)
        summary = tab.query_one(".code-summary", DataTable)
        if summary.row_count:
            assert _rows(summary)["functions"][0] == "6"
        else:
            assert "Measuring" not in _text(tab, ".code-status")


async def test_the_tasks_reference_implementation_stands_beside_the_repo(
        make_app, sample_runs: Path, tmp_path: Path) -> None:
    """A task with an ``oracle/`` folder (forge's repo plays the reference), and a file of
    the repo that does not parse."""
    root = tmp_path / "runs-root"
    for run in (FORGE, RELAY):
        shutil.copytree(sample_runs / "runs" / run, root / "runs" / run)
        shutil.copytree(sample_runs / "predictions" / run, root / "predictions" / run)
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    shutil.copytree(sample_runs / "predictions" / FORGE / "url-shortener",
                    root / "tasks" / "repo" / "url-shortener" / "oracle")
    (root / "predictions" / RELAY / "url-shortener" / "broken.py").write_text("def f(:\n")
    app = make_app(root)
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{RELAY}/url-shortener/0")
        await pilot.press("m")
        await settle(app, pilot)
        tab = screen.main_pane.query_one(CodeTab)
        summary = _rows(tab.query_one(".code-summary", DataTable))
        assert summary["files"] == ["3", "3"]  # relay's two files and broken.py
        assert summary["functions"] == ["6", "10"]
        assert summary["classes"] == ["0", "1"]
        assert summary["cyclomatic (sum)"] == ["15", "19"]
        assert "no reference implementation" not in _text(tab, ".code-status")
        notes = _text(tab, ".code-notes")
        assert "url-shortener/oracle" in notes and "RepoGenesis difficulty: Easy" in notes
        # a file that does not parse is listed with its reason, never a traceback
        assert "broken.py: syntax error at line 1: SLOC only" in notes
