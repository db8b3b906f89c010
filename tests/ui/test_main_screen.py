"""The main screen driven with Pilot as a person would: runs overview, samples with filters,
the run x task matrix, benchmark health, help, palette and themes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from textual.widgets import DataTable, Input, Select, Static, TabbedContent

from inspector.config import load_settings
from inspector.model.results.verdict import Verdict
from inspector.ui.screens.help import HelpScreen
from inspector.ui.screens.sample import SampleScreen
from inspector.ui.widgets.matrix_table import MatrixTable
from inspector.ui.widgets.runs_table import RunsTable
from inspector.ui.widgets.samples_table import SamplesTable

from .conftest import settle

FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"
ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"


def _stock_id(sample_runs: Path, folder: str, run_id: str) -> str:
    """The id of a bundled stock copy: ``run@<stamp>`` from ``report_<stamp>.json``, or
    ``run@<folder>`` for a plain ``report.json``."""
    (report,) = (sample_runs / "repogenesis" / folder).glob("report*.json")
    return f"{run_id}@{report.stem.removeprefix('report_') if report.stem != 'report' else folder}"


def _row(table: DataTable, i: int) -> list[str]:
    return [str(c) for c in table.get_row_at(i)]


async def test_runs_overview_lists_every_run_with_its_metrics(make_app,
                                                              sample_runs: Path) -> None:
    app = make_app()
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        table = app.screen.query_one(RunsTable)
        assert table.row_count == 6
        rows = {r[0]: r for r in (_row(table, i) for i in range(6))}
        stock = {_stock_id(sample_runs, folder, run) for folder, run in
                 (("forge", FORGE), ("relay", RELAY), ("atlas", ATLAS), ("dash", DASH))}
        ours = {p.name for p in (sample_runs / "runs").iterdir() if (p / "run.json").is_file()}
        # the stock copies are the same evaluations: twins of four runs, not rows of their own
        assert set(rows) == ours and len(ours) == 6
        assert {r.run_id for r in app.catalog.twin_runs()} == stock
        assert {rows[r][4] for r in ours} == {"ours"}
        assert rows[f"{DASH[:-len('Python')]}Java"][1:4] == ["Dash", "m2-mini", "java"]
        forge = rows[FORGE]
        assert forge[1:5] == ["Forge", "m1-large", "python", "ours"]
        assert forge[6:10] == ["50.0%", "75.8%", "100.0%", "83.3%"]
        assert forge[-1] == "3"  # failing samples, none labelled yet
        detail = str(app.screen.query_one("#run-detail", Static).render())
        assert "pass@1 50.0%" in detail and "stock 92.5%" in detail
        # issue 28 item 9: each headline figure with its 95% interval
        assert ("pass@1 95% CI 18.8–81.2%, Wilson, n=6 tasks; test pass 95% CI 45.8–96.7%, "
                "bootstrap over tasks, n=6 tasks") in detail.replace("\n", " ")
        where = str(app.screen.query_one("#problems", Static).render()).splitlines()[0]
        assert where == (f"tasks: tasks (found via runs/{FORGE}/run.json tasks_root)")


async def test_runs_view_warns_when_a_report_summary_disagrees_with_its_results(
        make_app) -> None:
    edited = Path(__file__).parents[1] / "fixtures" / "repogenesis" / "summary_edited"
    app = make_app(edited)
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        detail = str(app.screen.query_one("#run-detail", Static).render())
        lines = detail.splitlines()
        figures = next(i for i, line in enumerate(lines) if line.startswith("pass@1"))
        assert "DSR 66.7%" in lines[figures]  # recomputed from the results
        assert "says deployment_success_rate 100.00%, but its results give 66.67%" in \
            lines[figures + 1] + lines[figures + 2]


async def test_runs_sort_and_filter(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        table = app.screen.query_one(RunsTable)
        table.focus()
        for _ in range(6):  # run, agent, model, lang, format, samples -> pass@1
            await pilot.press("s")
        rising = [0.0] * 2 + [0.375] * 2 + [0.5] * 2
        assert [r.metrics["pass_at_1"] for r in table.shown] == rising
        await pilot.press("S")
        assert [r.metrics["pass_at_1"] for r in table.shown] == rising[::-1]
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"relay")
        assert table.row_count == 2 and all(r.agent == "Relay" for r in table.shown)


async def test_enter_on_a_run_lists_its_samples_failures_first(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        table = app.screen.query_one(RunsTable)
        table.focus()
        table.select_key(next(r.key for r in table.shown if r.run_id == RELAY))
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen.query_one(TabbedContent).active == "samples-tab"
        samples = app.screen.query_one(SamplesTable)
        assert samples.row_count == 6
        assert {e.run_id for e in samples.shown} == {RELAY}
        verdicts = [e.verdict for e in samples.shown]
        assert verdicts == sorted(verdicts, key=[Verdict.NOT_DEPLOYED, Verdict.SUITE_NOT_RUN,
                                                 Verdict.TESTS_FAILED, Verdict.PASSED].index)
        count = str(app.screen.query_one("#samples-count", Static).render())
        assert count.startswith("6 of 39 samples in " + RELAY)
        await pilot.press("a")  # all runs
        assert samples.row_count == 39


async def test_sample_filters_outcome_phase_framework_and_text(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        screen = app.screen
        samples = screen.query_one(SamplesTable)
        assert samples.row_count == 39
        screen.query_one("#f-verdict", Select).value = Verdict.NOT_EVALUABLE.value
        await pilot.pause()
        # the Java samples: no Maven repository reachable, the machine's failure (issue 28)
        assert samples.row_count == 3
        assert {e.task for e in samples.shown} == {"javalin-task-manager",
                                                   "spark-dashboard-backend",
                                                   "springboot-chat-gateway"}
        screen.query_one("#f-verdict", Select).value = Verdict.NOT_DEPLOYED.value
        await pilot.pause()
        assert samples.row_count == 5
        assert all(e.verdict is Verdict.NOT_DEPLOYED for e in samples.shown)
        screen.query_one("#f-phase", Select).value = "start"
        await pilot.pause()
        assert {(e.task, e.run_id) for e in samples.shown} >= {("url-shortener", RELAY),
                                                              ("todo-service", RELAY)}
        assert all(e.failed_phase == "start" for e in samples.shown)
        await pilot.press("x")
        await pilot.pause()
        assert samples.row_count == 39
        screen.query_one("#f-framework", Select).value = "fastapi"
        await pilot.pause()
        assert {e.task for e in samples.shown} == {"notes-api", "inventory-api", "unit-converter",
                                                   "UserManagement_2"}
        await pilot.press("x")
        await pilot.press("slash", *"/500.==.200/ -unit", "enter")
        await pilot.pause()
        assert [e.sample_id for e in samples.shown] == [f"{RELAY}/inventory-api/0"]
        assert app.focused is samples
        await pilot.press("x")
        screen.query_one("#f-label", Select).value = "unlabelled"
        await pilot.pause()
        assert samples.row_count == 23  # every failure, none labelled yet (n/e: no failure)


async def test_matrix_shows_each_task_across_runs_and_opens_a_cell(make_app,
                                                                  sample_runs: Path) -> None:
    app = make_app()
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        matrix = app.screen.query_one(MatrixTable)
        evaluated = {p.name for p in (sample_runs / "runs").glob("*/samples/*")}
        assert matrix.tasks == sorted(evaluated) and len(evaluated) == 17
        assert {"quote-board", "todo-service", "WebPan", "javalin-task-manager"} <= evaluated
        assert len(matrix.runs) == 6  # the stock copies are twins, not more columns
        col = {r.run_id: i + 1 for i, r in enumerate(matrix.runs)}
        row = matrix.tasks.index("todo-service")
        assert str(matrix.get_cell_at((row, col[FORGE]))) == "✘ 9/12"
        assert str(matrix.get_cell_at((row, col[RELAY]))) == "⊘ start"
        assert str(matrix.get_cell_at((matrix.tasks.index("notes-api"), col[FORGE]))) == "✔ 10/10"
        # the benchmark defect is flagged on its task row
        for task in ("quote-board", "WebPan", "StructuredDataConvertor"):
            assert "⚠" in str(matrix.get_cell_at((matrix.tasks.index(task), 0)))
        assert "⚠" not in str(matrix.get_cell_at((matrix.tasks.index("notes-api"), 0)))
        matrix.move_cursor(row=row, column=col[FORGE])
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, SampleScreen)
        assert app.screen.entry.sample_id == f"{FORGE}/todo-service/0"


async def test_benchmark_health_reports_the_undocumented_module_with_evidence(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        await settle(app, pilot)
        table = app.screen.query_one("#health-table", DataTable)
        rows = [_row(table, i) for i in range(table.row_count)]
        # the real tasks' suite defects are listed too (pandas only in an uncopied root
        # requirements.txt; every WebPan test skipped behind an undocumented health URL)
        kinds = {(r[0], r[1]) for r in rows}
        assert {("collection error", "StructuredDataConvertor"),
                ("zero collected", "WebPan")} <= kinds
        table.move_cursor(row=[r[:2] for r in rows].index(["zero collected", "WebPan"]))
        await pilot.pause()
        detail = str(app.screen.query_one("#health-detail", Static).render())
        assert "/api/v1/health" in detail and "tests/conftest.py:16" in detail
        assert "common error" not in detail  # no message to show, no empty line for it
        (i,) = [i for i, r in enumerate(rows)
                if r[:3] == ["collection error", "quote-board", "tests/test_quote_model.py"]]
        assert "No module named 'app.models'" in rows[i][5]
        table.move_cursor(row=i)
        await pilot.pause()
        detail = str(app.screen.query_one("#health-detail", Static).render())
        assert "undocumented internal module" in detail and "tests/test_quote_model.py:5" in detail
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, SampleScreen)
        assert app.screen.entry.task == "quote-board"


async def test_help_lists_the_keys_of_the_screen_underneath(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one(DataTable)
        does = {_row(table, i)[1] for i in range(table.row_count)}
        assert {"Runs", "Samples", "Matrix", "Health", "Filter", "Sort", "Quit"} <= does
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_palette_finds_a_task_and_a_sample_by_name(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"task unit-conv")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.main_screen.query_one(TabbedContent).active == "matrix-tab"
        assert app.main_screen.query_one(MatrixTable).current_task() == "unit-converter"
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*f"sample {RELAY}/notes-api/0")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, SampleScreen)
        assert app.screen.entry.sample_id == f"{RELAY}/notes-api/0"


async def test_theme_switch_recolours_and_persists(make_app, isolated_user_dirs: Path) -> None:
    app = make_app()
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        assert app.theme == "genesis-dark"
        app.theme = "genesis-light"
        await settle(app, pilot)
        assert not app.current_theme.dark
    assert 'theme = "genesis-light"' in isolated_user_dirs.read_text()
    assert load_settings().theme == "genesis-light"
    again = make_app()
    async with again.run_test(size=(180, 45)) as pilot:
        assert again.theme == "genesis-light"
    chosen = make_app(theme="high-contrast")
    async with chosen.run_test(size=(180, 45)) as pilot:
        await settle(chosen, pilot)
        assert chosen.theme == "high-contrast"
        await pilot.press("ctrl+t")
        assert chosen.theme != "high-contrast"


async def test_unknown_theme_falls_back_with_a_notice(make_app) -> None:
    app = make_app(theme="no-such-theme")
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        assert app.theme == "genesis-dark"
        assert any("no-such-theme" in n.message for n in app._notifications)


async def test_a_run_appearing_on_disk_shows_up_without_a_restart(make_app, tmp_path: Path,
                                                                  sample_runs: Path) -> None:
    root = tmp_path / "live"
    root.mkdir()
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    shutil.copytree(sample_runs / "runs" / FORGE, root / "runs" / FORGE)
    app = make_app(root, watch=True)
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        table = app.screen.query_one(RunsTable)
        assert table.row_count == 1
        for _ in range(50):  # the watcher must be up before the copy
            if app.watcher is not None and app.watcher.mode != "stopped":
                break
            await pilot.pause(0.1)
        shutil.copytree(sample_runs / "runs" / RELAY, root / "runs" / RELAY)
        for _ in range(100):
            await pilot.pause(0.1)
            if table.row_count == 2:
                break
        assert table.row_count == 2
        assert {r.run_id for r in table.shown} == {FORGE, RELAY}
        # a sample of a run in progress changing on disk updates its row
        shutil.rmtree(root / "runs" / FORGE)
        for _ in range(100):
            await pilot.pause(0.1)
            if table.row_count == 1:
                break
        assert [r.run_id for r in table.shown] == [RELAY]


async def test_bad_files_are_reported_and_good_runs_still_show(make_app, tmp_path: Path,
                                                               sample_runs: Path) -> None:
    root = tmp_path / "mixed"
    shutil.copytree(sample_runs / "runs" / FORGE, root / "good")
    (root / "broken").mkdir()
    (root / "broken" / "run.json").write_text("{not json")
    app = make_app(root)
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        table = app.screen.query_one(RunsTable)
        # the broken run is listed as unreadable (issue 28), the good one with its figures
        assert sorted(r.run_id for r in table.shown) == ["broken", FORGE]
        broken = next(r for r in table.shown if r.run_id == "broken")
        assert broken.metrics["unreadable"] == 1 and broken.metrics["samples"] == 0
        problems = str(app.screen.query_one("#problems", Static).render())
        assert "broken/run.json" in problems


async def test_an_empty_folder_says_what_to_do(make_app, tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        assert app.screen.query_one(RunsTable).row_count == 0
        assert "No runs found" in str(app.screen.query_one("#run-detail", Static).render())


async def test_first_index_build_shows_progress_and_can_be_cancelled(make_app, tmp_path: Path,
                                                                    sample_runs: Path) -> None:
    root = tmp_path / "many"
    for i in range(6):
        shutil.copytree(sample_runs / "runs" / FORGE, root / f"copy{i}" / FORGE)
    app = make_app(root)
    seen: list[tuple[int, int]] = []
    async with app.run_test(size=(180, 45),
                            message_hook=lambda m: seen.append((m.done, m.total))
                            if type(m).__name__ == "CatalogProgress" else None) as pilot:
        await settle(app, pilot)
        assert seen[0] == (0, 6) and seen[-1] == (6, 6)
        assert app.screen.query_one(RunsTable).row_count == 6
        bar = app.screen.query_one("#index-bar")
        assert not bar.has_class("busy")  # hidden once done
        from inspector.ui.messages import CatalogProgress

        app.main_screen.post_message(CatalogProgress(2, 6, "x"))
        await pilot.pause()
        assert bar.has_class("busy")
        assert "Indexing runs 2/6" in str(app.screen.query_one("#index-label", Static).render())
    # cancelling between locations keeps what was indexed and says how to resume
    app = make_app(root, db_path=tmp_path / "other.sqlite3")
    app.catalog.refresh = _cancelling(app.catalog.refresh)  # type: ignore[method-assign]
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        assert 0 < app.screen.query_one(RunsTable).row_count < 6
        assert any("Indexing cancelled" in n.message for n in app._notifications)


def _cancelling(refresh):  # type: ignore[no-untyped-def]
    def run(progress=None, cancelled=None):  # type: ignore[no-untyped-def]
        calls = {"n": 0}

        def stop_after_two() -> bool:
            calls["n"] += 1
            return calls["n"] > 2

        return refresh(progress=progress, cancelled=stop_after_two)

    return run


async def test_matrix_shows_suites_that_did_not_run_or_hit_collection_errors(
        make_app, tmp_path: Path, sample_runs: Path) -> None:
    root = tmp_path / "sample_runs"
    shutil.copytree(sample_runs, root, symlinks=True)
    result = root / "runs" / FORGE / "samples" / "todo-service" / "0" / "result.json"
    doc = json.loads(result.read_text())
    doc["exit_code"] = 4
    doc["tests"].update(passed=0, failed=0, errors=0, skipped=0, total=0, score=0.0,
                        status="not_run", cases=[], collection_errors=0, cause={
                            "kind": "conftest_error",
                            "text": "ModuleNotFoundError: No module named 'pandas'",
                            "context": "ImportError while loading conftest tests/conftest.py",
                            "file": "tests/conftest.py", "line": 3})
    result.write_text(json.dumps(doc))
    app = make_app(root)
    async with app.run_test(size=(180, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        matrix = app.screen.query_one(MatrixTable)
        col = {r.run_id: i + 1 for i, r in enumerate(matrix.runs)}
        never = matrix.get_cell_at((matrix.tasks.index("todo-service"), col[FORGE]))
        assert str(never) == "∅ did not run"
        # 4 tests passed but a test file failed to collect: not "✘ 4/5"
        partial = matrix.get_cell_at((matrix.tasks.index("quote-board"), col[FORGE]))
        assert str(partial) == "⚠ collection error, 4/4"
        assert never.style == partial.style != \
            matrix.get_cell_at((matrix.tasks.index("inventory-api"), col[RELAY])).style
        await pilot.press("2")
        await settle(app, pilot)
        samples = app.screen.query_one(SamplesTable)
        (entry,) = [e for e in samples.shown if e.sample_id == f"{FORGE}/todo-service/0"]
        assert entry.message == "ModuleNotFoundError: No module named 'pandas' " \
            "(tests/conftest.py:3)"
