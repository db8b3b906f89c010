"""Tampering attempts in the app: the sample view warns (deliberate ones in the error colour,
repo text shown as text), and Benchmark health lists the samples, deliberate first."""

from __future__ import annotations

from pathlib import Path

import pytest
import tamper_runs
from textual.widgets import DataTable, Static

from inspector.ui.screens.sample import SampleScreen

from .conftest import open_sample, settle

OURS = tamper_runs.RUN_ID
STOCK = tamper_runs.STOCK_ID


@pytest.fixture
def root(tmp_path: Path, sample_runs: Path) -> Path:
    return tamper_runs.build(tmp_path / "hostile", sample_runs / "tasks")


def _rendered(widget: Static) -> str:
    return str(widget.render())


@pytest.mark.parametrize("run_id", [OURS, STOCK])
async def test_the_sample_view_warns_of_a_deliberate_tampering_attempt(
        make_app, root: Path, run_id: str) -> None:  # type: ignore[no-untyped-def]
    app = make_app(root)
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{run_id}/notes-api/0")
        pane = screen.main_pane
        assert pane is not None
        title = _rendered(pane.query_one(".pane-title", Static))
        assert "⚠ deliberate tampering attempt" in title
        warning = pane.query_one(".tamper-warning", Static)
        assert warning.region.height > 0  # on screen, not just in the tree
        text = _rendered(warning)
        assert text.startswith("⚠ Tampering attempt: 2 findings, 1 deliberate — kept out of "
                               "the golden test run; the verdict stands.")
        assert ("deliberate root conftest.py: conftest.py:10: pytest_runtest_makereport sets "
                "report.outcome") in text
        assert "could influence pytest configuration: pyproject.toml:5:" in text
        # the verdict shown is the measured one
        assert "failed 0/10" in title


async def test_a_sample_without_findings_shows_no_warning(make_app, root: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(root)
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{OURS}/url-shortener/0")
        pane = screen.main_pane
        assert pane is not None
        assert not pane.query(".tamper-warning")
        assert "tampering" not in _rendered(pane.query_one(".pane-title", Static))


async def test_health_lists_samples_with_tampering_attempts_deliberate_first(
        make_app, root: Path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(root)
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        await settle(app, pilot)
        summary = _rendered(app.screen.query_one("#health-summary", Static))
        assert "⚠ 3 samples with tampering attempts, 2 deliberate" in summary
        table = app.screen.query_one("#health-table", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        tamper = [r for r in rows if r[0].startswith("tampering")]
        assert [(r[0], r[2]) for r in tamper] == [
            ("tampering (deliberate)", f"{OURS}/inventory-api/0"),
            ("tampering (deliberate)", f"{OURS}/notes-api/0"),
            ("tampering", f"{OURS}/todo-service/0")]
        assert rows[-3:] == tamper  # after the benchmark defects
        table.move_cursor(row=rows.index(tamper[1]))
        await pilot.pause()
        detail = _rendered(app.screen.query_one("#health-detail", Static))
        assert f"{OURS}/notes-api/0: tampering attempt (deliberate)" in detail
        assert "conftest.py:10: pytest_runtest_makereport sets report.outcome" in detail
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, SampleScreen)
        assert app.screen.entry.sample_id == f"{OURS}/notes-api/0"


async def test_repo_text_in_findings_is_shown_as_text_never_markup_or_escapes(
        make_app, root: Path) -> None:  # type: ignore[no-untyped-def]
    repo = root / "predictions" / OURS / "todo-service"  # an older run: scanned when indexed
    hostile = repo / "a[" / "b]"
    hostile.mkdir(parents=True)
    (hostile / "conftest.py").write_text("import pytest\n")
    (repo / "evil\x1b]0;pwned\x07[b].pth").write_text("import os\n")
    app = make_app(root)
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{OURS}/todo-service/0")
        pane = screen.main_pane
        assert pane is not None
        text = _rendered(pane.query_one(".tamper-warning", Static))
        assert "conftest.py: a[/b]/conftest.py: a conftest.py" in text
        assert "evil<ESC>]0;pwned<BEL>[b].pth" in text and "\x1b" not in text
        await pilot.press("4")
        await settle(app, pilot)
