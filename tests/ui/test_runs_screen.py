"""The placeholder runs screen, driven with Pilot as a person would."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import DataTable, Static

from inspector.ui.app import InspectorApp


async def _loaded(app: InspectorApp, pilot) -> None:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_lists_every_bundled_run_and_the_samples_of_the_highlighted_one(
        sample_runs: Path) -> None:
    app = InspectorApp(sample_runs)
    async with app.run_test(size=(160, 40)) as pilot:
        await _loaded(app, pilot)
        runs = app.query_one("#runs", DataTable)
        assert runs.row_count == 4
        first = [str(c) for c in runs.get_row_at(0)]
        assert first[0] == "repo_readme_1118_forge_m1-large_Python" and first[7] == "50.0%"
        samples = app.query_one("#samples", DataTable)
        verdicts = {str(samples.get_row_at(i)[0]): str(samples.get_row_at(i)[2])
                    for i in range(samples.row_count)}
        assert verdicts["unit-converter"] == "did not deploy (health)"
        assert verdicts["notes-api"] == "passed"
        await pilot.press("down", "down")
        verdicts = {str(samples.get_row_at(i)[0]): str(samples.get_row_at(i)[2])
                    for i in range(samples.row_count)}
        assert verdicts["url-shortener"] == "did not deploy (start)"


async def test_bad_files_are_listed_and_good_runs_still_show(tmp_path: Path,
                                                             sample_runs: Path) -> None:
    import shutil

    shutil.copytree(sample_runs / "repogenesis" / "relay", tmp_path / "good")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "report.json").write_text(json.dumps({"results": "nope"}))
    app = InspectorApp(tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        await _loaded(app, pilot)
        assert app.query_one("#runs", DataTable).row_count == 1
        issues = str(app.query_one("#issues", Static).render())
        assert "bad/report.json" in issues and "results" in issues


async def test_reload_picks_up_a_run_that_appeared(tmp_path: Path, sample_runs: Path) -> None:
    import shutil

    app = InspectorApp(tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        await _loaded(app, pilot)
        assert app.query_one("#runs", DataTable).row_count == 0
        assert "No runs found" in str(app.query_one("#status", Static).render())
        shutil.copytree(sample_runs / "repogenesis" / "forge", tmp_path / "forge")
        await pilot.press("r")
        await _loaded(app, pilot)
        assert app.query_one("#runs", DataTable).row_count == 1
