"""The task/sample view: README and endpoints beside the generated repo, its tests and its
deployment; jumps to handlers, tests and file:line references; comparing two runs; and
hostile repository content shown safely."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from textual.widgets import DataTable, OptionList, Static, TabbedContent, Tree

from inspector.ui.dialogs.pick import PickScreen
from inspector.ui.sample.pane import SamplePane
from inspector.ui.screens.sample import SampleScreen
from inspector.ui.widgets.code_view import CodeView

from .conftest import open_sample, settle

FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"


def _code_text(view: CodeView) -> str:
    return "\n".join(view.lines)


async def test_failing_sample_opens_on_its_failures_with_traceback_and_ref(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{FORGE}/todo-service/0")
        pane = screen.main_pane
        assert pane is not None
        tabs = pane.query_one(TabbedContent)
        assert tabs.active == pane.query_one(".tests-tab").id
        table = pane.query_one(".tests-table", DataTable)
        outcomes = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        assert outcomes[:3] == ["failed"] * 3 and set(outcomes[3:]) == {"passed"}
        detail = str(pane.query_one(".test-detail", Static).render())
        assert "tests/test_todos.py::test_create_defaults" in detail
        assert "KeyError: 'completed'" in detail
        refs = pane.query_one(".refs", OptionList)
        first_ref = str(refs.get_option_at_index(0).prompt)
        assert refs.display and "task: tests/test_todos.py:30" in first_ref
        await pilot.press("o")  # open the first reference at its line
        await settle(app, pilot)
        code = pane.query_one(CodeView)
        assert tabs.active == pane.query_one(".files-tab").id
        assert code.target_line == 29
        assert 'assert todo["completed"] is False' in code.lines[29]
        label = str(pane.query_one(".file-label", Static).render())
        assert label.startswith("task: tests/test_todos.py:30")


async def test_readme_is_rendered_and_endpoints_jump_to_handler_and_tests(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{FORGE}/todo-service/0")
        assert screen.readme_source.startswith("# Todo Service")
        readme = screen.query_one("#readme", Static)
        assert readme.region.height > 20  # rendered, tables included
        await pilot.press("e")
        await settle(app, pilot)
        table = screen.query_one("#endpoints", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        patch = next(i for i, r in enumerate(rows) if r[0] == "PATCH")
        assert rows[patch][1] == "/todos/{id}" and rows[patch][2] == "✔ yes"
        assert rows[patch][3] == "routes.py:48" and rows[patch][4] != "—"
        table.move_cursor(row=patch)
        await pilot.press("enter")
        await settle(app, pilot)
        pane = screen.main_pane
        code = pane.query_one(CodeView)
        assert pane.current_file == ("repo", "routes.py")
        assert code.target_line == 47 and "@bp.patch" in code.lines[47]
        # syntax highlighting happened (in a worker)
        assert code.highlighted
        table.focus()
        await pilot.press("T")
        await settle(app, pilot)
        assert isinstance(app.screen, PickScreen)
        options = app.screen.query_one(OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("test_patch_completed" in p for p in prompts)
        index = next(i for i, p in enumerate(prompts) if "test_patch_completed" in p)
        options.highlighted = index
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is screen
        assert pane.query_one(TabbedContent).active == pane.query_one(".tests-tab").id
        table = pane.query_one(".tests-table", DataTable)
        assert pane.cases[table.cursor_row].id == "tests/test_todos.py::test_patch_completed"


async def test_deploy_tab_shows_each_phase_and_where_it_failed(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{RELAY}/url-shortener/0")
        pane = screen.main_pane
        assert pane.query_one(TabbedContent).active == pane.query_one(".deploy-tab").id
        phases = pane.query_one(".phases", DataTable)
        rows = [[str(c) for c in phases.get_row_at(i)] for i in range(phases.row_count)]
        assert [r[0].strip(" ▶") for r in rows] == ["install", "start", "health", "tests"]
        assert rows[0][1] == "ok" and rows[1][1] == "failed" and rows[1][0].startswith("▶")
        assert rows[1][3] == "1"  # exit code
        detail = str(pane.query_one(".deploy-detail", Static).render())
        assert "Failed in start" in detail
        await pilot.press("f")
        assert pane.query_one(TabbedContent).active == pane.query_one(".files-tab").id


async def test_compare_toggle_puts_another_runs_sample_alongside(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(200, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{FORGE}/notes-api/0")
        screen.main_pane.open_file("repo", "app/main.py" if (
            screen.main_pane.repo / "app" / "main.py").is_file() else "start.sh", None)
        await settle(app, pilot)
        # relay is the one other run with notes-api (the stock copies are twins of these
        # two, not other runs): compared at once, no choice to make
        await pilot.press("c")
        await settle(app, pilot)
        assert not isinstance(app.screen, PickScreen)
        compare = screen.query_one("#compare-pane", SamplePane)
        assert compare.entry.sample_id == f"{RELAY}/notes-api/0"
        assert not screen.query_one("#left-tabs").display
        # the compared repo follows the file open on the main side when it has it
        assert compare.current_file is not None
        await pilot.press("c")
        await settle(app, pilot)
        assert not screen.query("#compare-pane")
        assert screen.query_one("#left-tabs").display


async def test_next_and_previous_sample_follow_the_samples_list(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        first = app.screen.entry.sample_id
        await pilot.press("n")
        await settle(app, pilot)
        second = app.screen.entry.sample_id
        assert second != first
        await pilot.press("p")
        await settle(app, pilot)
        assert app.screen.entry.sample_id == first
        await pilot.press("escape")
        assert not isinstance(app.screen, SampleScreen)


async def test_one_screen_serves_every_sample_and_nothing_of_the_last_one_stays(
        make_app) -> None:
    """Opening another sample switches the same screen: title, README, endpoints, tests,
    files and the compared run are all the new sample's (or gone), and Escape still leads
    back to the list."""
    app = make_app()
    async with app.run_test(size=(200, 50)) as pilot:
        first = await open_sample(app, pilot, f"{FORGE}/todo-service/0")
        depth = len(app.screen_stack)
        old_tests = {c.id for c in first.main_pane.cases}
        first.main_pane.open_file("repo", "routes.py", 48)
        await pilot.press("e")
        await settle(app, pilot)
        await pilot.press("c")  # the todo-service of another run, alongside
        await settle(app, pilot)
        if isinstance(app.screen, PickScreen):
            await pilot.press("enter")
            await settle(app, pilot)
        assert first.query("#compare-pane")
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, SampleScreen)

        second = await open_sample(app, pilot, f"{RELAY}/url-shortener/0")
        assert second is first and len(app.screen_stack) == depth
        assert second.sub_title == f"{RELAY}/url-shortener/0"
        assert not second.query("#compare-pane") and second.query_one("#left-tabs").display
        assert second.query_one("#left-tabs", TabbedContent).active == "readme-tab"
        assert "Todo" not in second.readme_source
        readme = str(second.query_one("#readme", Static).render())
        assert "Todo Service" not in readme
        pane = second.main_pane
        assert pane.entry.sample_id == f"{RELAY}/url-shortener/0"
        title = str(pane.query_one(".pane-title", Static).render())
        assert "url-shortener" in title and "todo-service" not in title
        table = pane.query_one(".tests-table", DataTable)
        shown = {str(table.get_row_at(i)[1]) for i in range(table.row_count)}
        assert not shown & old_tests
        assert pane.query_one(TabbedContent).active == pane.query_one(".deploy-tab").id
        assert pane.query_one(Tree).root.label.plain == pane.repo.name
        label = str(pane.query_one(".file-label", Static).render())
        assert "routes.py:48" not in label
        await pilot.press("e")
        await settle(app, pilot)
        endpoints = second.query_one("#endpoints", DataTable)
        paths = {str(endpoints.get_row_at(i)[1]) for i in range(endpoints.row_count)}
        assert "/todos/{id}" not in paths and paths
        await pilot.press("escape")
        assert not isinstance(app.screen, SampleScreen)


async def test_hostile_repository_content_is_shown_safely(make_app, tmp_path: Path,
                                                          sample_runs: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(sample_runs, root, symlinks=True)
    repo = root / "predictions" / FORGE / "notes-api"
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    (repo / "evil_link.txt").symlink_to(secret)
    (repo / "blob.bin").write_bytes(bytes(range(256)) * 64)
    (repo / "latin1.py").write_bytes(b"name = '\xe9t\xe9'\nprint(name)\n")
    (repo / "escapes.py").write_text("x = 1  # \x1b[2J\x1b]0;pwned\x07 \x1b[31mred\n")
    with open(repo / "huge.log", "wb") as f:
        f.write(b"line of a chatty build log\n" * 200_000)  # 5.4 MB
    app = make_app(root)
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"{FORGE}/notes-api/0")
        pane = screen.main_pane
        tree = pane.query_one(".repo-tree", Tree)
        labels = []
        stack = [tree.root]
        while stack:
            node = stack.pop()
            labels.append(str(node.label))
            stack.extend(node.children)
        assert any("evil_link.txt" in x and "outside the repo" in x for x in labels)
        code = pane.query_one(CodeView)
        notice = pane.query_one(".file-notice", Static)

        pane.open_file("repo", "evil_link.txt", None)
        await settle(app, pilot)
        assert "TOP-SECRET" not in _code_text(code)
        assert "outside" in str(notice.render())

        pane.open_file("repo", "blob.bin", None)
        await settle(app, pilot)
        assert "binary" in str(notice.render())

        pane.open_file("repo", "latin1.py", None)
        await settle(app, pilot)
        assert "UTF-8" in str(notice.render()) and "print(name)" in _code_text(code)

        pane.open_file("repo", "escapes.py", None)
        await settle(app, pilot)
        text = _code_text(code)
        assert "\x1b" not in text and "\x07" not in text and "<ESC>" in text
        rendered = "".join(seg.text for y in range(3) for seg in code.render_line(y))
        assert "\x1b" not in rendered

        pane.open_file("repo", "huge.log", None)
        await settle(app, pilot)
        assert "showing the first" in str(notice.render())
        assert len(code.lines) <= 20_000
        await pilot.press("end")
        await pilot.pause()
        assert code.cursor_line == len(code.lines) - 1

        # a path escaping the repo is refused, not read
        pane.open_file("repo", "../../../secret.txt", None)
        await settle(app, pilot)
        assert "TOP-SECRET" not in _code_text(code)
    assert os.path.exists(secret)


async def test_endpoints_tab_shows_where_the_readme_requires_each_endpoint(
        make_app, sample_runs, tmp_path) -> None:
    """A run over a real task whose README the stock extraction finds no endpoint in: the
    Endpoints tab lists the required ones with their README line and says the stock AC
    misses them."""
    import json

    from inspector.model import Deployment, SampleResult, TestSummary
    from inspector.model.benchmark.tasks import load_tasks
    from inspector.model.runs.runformat import sample_to_json
    from inspector.services.evaluate.run_writer import write_run_json
    from inspector.services.repo.coverage import compute_coverage

    tasks, _ = load_tasks(sample_runs / "tasks")
    task = tasks["StructuredDataConvertor"]
    repo = Path(__file__).resolve().parents[1] / "fixtures" / "spec" / "convertor" / "repo"
    run_dir = tmp_path / "runs" / "spec-run"
    sample_dir = run_dir / "samples" / task.name / "0"
    sample_dir.mkdir(parents=True)
    sample = SampleResult(run_id="spec-run", task=task.name, sample=0, language="python",
                          deployment=Deployment(True), tests=TestSummary(), repo_path=repo,
                          api_coverage=compute_coverage(repo, task.endpoints,
                                                        task.spec_endpoints))
    (sample_dir / "result.json").write_text(json.dumps(sample_to_json(sample, sample_dir)))
    write_run_json(run_dir, run_id="spec-run", agent="A", model="M", language="python",
                   generation_date=None, created_at="2026-01-01T00:00:00Z", finished_at=None,
                   status="finished", predictions=[], tasks_root=sample_runs / "tasks",
                   tasks=[task], samples=[(task.name, 0)], backend="local", settings={},
                   elapsed_seconds=None)
    app = make_app(tmp_path / "runs", labels_dir=tmp_path / "labels")
    async with app.run_test(size=(180, 50)) as pilot:
        screen = await open_sample(app, pilot, f"spec-run/{task.name}/0")
        await pilot.press("e")
        await settle(app, pilot)
        table = screen.query_one("#endpoints", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert [r[:3] for r in rows] == [["GET", "/api/v1/health", "✔ yes"],
                                         ["POST", "/api/v1/convert", "✔ yes"],
                                         ["POST", "/api/v1/convert/batch", "✘ no"]]
        table.move_cursor(row=1)
        await settle(app, pilot)
        detail = str(screen.query_one("#endpoint-detail", Static).render())
        assert "README line 44 · the stock extraction misses it" in detail
        assert "base path '/api/v1' from README line 25" in detail
