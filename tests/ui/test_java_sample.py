"""A Java sample in the sample view: Surefire results listed like pytest ones, and the
failing line of the golden JUnit test opens in the task's src/test/java."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.widgets import DataTable, OptionList, Static, TabbedContent

from inspector.model import Deployment, Phase, PhaseResult, PhaseStatus, SampleResult, TestSummary
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.suite.java_tests import java_tests
from inspector.services.evaluate.run_writer import write_run_json, write_sample
from inspector.services.suite.surefire import SourceIndex, parse_surefire_reports
from inspector.ui.messages import OpenSample
from inspector.ui.screens.sample import SampleScreen
from inspector.ui.widgets.code_view import CodeView

from .conftest import settle

ROOT = Path(__file__).resolve().parents[2]


def _java_run(tmp: Path) -> Path:
    tasks_root = tmp / "tasks"
    shutil.copytree(ROOT / "sample_runs" / "tasks" / "repo" / "javalin-task-manager",
                    tasks_root / "repo" / "javalin-task-manager")
    task = load_tasks(tasks_root)[0]["javalin-task-manager"]
    assert task.root is not None
    preds = tmp / "repo_readme_1201_forge_m1_Java"
    shutil.copytree(ROOT / "tests" / "fixtures" / "java_repos" / "javalin-task-manager",
                    preds / "javalin-task-manager")
    index = SourceIndex(java_tests(task.root / "src" / "test" / "java", task.root))
    cases, _ = parse_surefire_reports(ROOT / "tests" / "fixtures" / "maven" /
                                      "surefire-2.22-reports", index)
    counts = {o: sum(c.outcome.value == o for c in cases)
              for o in ("passed", "failed", "error", "skipped")}
    result = SampleResult(
        run_id="java-ui", task=task.name, sample=0, language="java",
        deployment=Deployment(True, "Service started successfully", Phase.TESTS, tuple(
            PhaseResult(p, PhaseStatus.OK) for p in Phase)),
        tests=TestSummary(counts["passed"], counts["failed"], counts["error"],
                          counts["skipped"], task.expected_tests, tuple(cases), True),
        framework=task.framework, port=task.port, repo_path=preds / task.name)
    out = tmp / "runs" / "java-ui"
    write_sample(out, result, None, None)
    write_run_json(out, run_id="java-ui", agent="Forge", model="m1", language="java",
                   generation_date=None, created_at="2026-11-25T00:00:00+00:00",
                   finished_at="2026-11-25T00:01:00+00:00", status="complete",
                   predictions=[preds], tasks_root=tasks_root, tasks=[task],
                   samples=[(task.name, 0)], backend="local", settings={},
                   elapsed_seconds=60.0)
    return out


async def test_java_failures_link_to_the_golden_test_line(make_app, tmp_path: Path) -> None:
    app = make_app(_java_run(tmp_path), labels_dir=tmp_path / "labels")
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        entry = app.catalog.find_sample("java-ui/javalin-task-manager/0")
        assert entry is not None
        app.post_message(OpenSample(entry.key))
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, SampleScreen)
        pane = screen.main_pane
        assert pane is not None
        table = pane.query_one(".tests-table", DataTable)
        ids = {str(table.get_row_at(i)[1]) for i in range(table.row_count)}
        assert "tests.ApiTest::testCreateProject" in ids and len(ids) == 6
        assert pane.select_test("tests.ApiTest::testCreateProject")
        detail = str(pane.query_one(".test-detail", Static).render())
        assert "expected: <201> but was: <404>" in detail
        assert "defined at src/test/java/ApiTest.java:87" in detail
        refs = pane.query_one(".refs", OptionList)
        assert "task: src/test/java/ApiTest.java:87" in str(refs.get_option_at_index(0).prompt)
        await pilot.press("o")
        await settle(app, pilot)
        tabs = pane.query_one(TabbedContent)
        assert tabs.active == pane.query_one(".files-tab").id
        code = pane.query_one(CodeView)
        assert code.target_line == 86  # 0-based, as the Python test's
        assert "testCreateProject" in "\n".join(code.lines[74:90])
