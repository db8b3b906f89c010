"""The app on a copy of the bundled runs: a stock-layout twin is the same run in another format
(six runs, not ten; ``f`` shows the twin), and a generated repo changed after indexing is read
again on Ctrl+R, giving the CLI's counts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from textual.widgets import Static

from inspector.cli import main
from inspector.ui.widgets.runs_table import RunsTable

from .conftest import settle

ATLAS = "repo_readme_1125_atlas_m2-large_Python"
FORGE = "repo_readme_1118_forge_m1-large_Python"
FORGED = Path(__file__).parents[1] / "fixtures" / "hostile" / "tamper" / "forged_conftest"


def _rendered(widget: Static) -> str:
    return str(widget.render())


async def test_twins_count_once_and_a_changed_repo_shows_after_reload(
        make_app, sample_runs: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "runs-copy"
    for part in ("runs", "repogenesis", "tasks", "predictions"):
        shutil.copytree(sample_runs / part, root / part, symlinks=True)
    app = make_app(root)
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        table = app.screen.query_one(RunsTable)
        assert table.row_count == 6
        assert "6 runs, 39 samples" in app.screen.sub_title
        table.move_cursor(row=[str(table.get_row_at(i)[0]) for i in range(6)].index(ATLAS))
        await pilot.pause()
        detail = app.screen.query_one("#run-detail", Static)
        assert "stock twin: also in the stock layout at " in _rendered(detail)
        await pilot.press("f")
        await pilot.pause()
        assert f"stock twin: {ATLAS} in the stock layout" in _rendered(detail)
        assert _rendered(detail).startswith(f"{ATLAS}@2026-11-25_18-41-39")
        await pilot.press("f")
        await pilot.pause()
        assert _rendered(detail).startswith(f"{ATLAS}\n")

        shutil.copy(FORGED / "conftest.py", root / "predictions" / FORGE / "notes-api")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        await pilot.press("4")
        await settle(app, pilot)
        summary = _rendered(app.screen.query_one("#health-summary", Static))
        assert "1 sample with tampering attempts, 1 deliberate" in summary
        app_counts = (len(app.screen.runs), len(app.screen.samples),
                      sorted(e.sample_id for e in app.screen.samples if e.tampering))
    capsys.readouterr()
    assert main(["summary", str(root), "--json"]) == 0
    docs = json.loads(capsys.readouterr().out)
    # every sample read (samples_total): "samples" are the 36 the figures are over
    cli_counts = (len(docs), sum(d["samples_total"] for d in docs),
                  sorted(a["sample"] for d in docs for a in d["tampering"]["attempts"]))
    assert app_counts == cli_counts == (6, 39, [f"{FORGE}/notes-api/0"])
