"""Finding runs of both formats under a folder; bad files become issues, never exceptions."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from inspector.model import Outcome, Phase, SuiteStatus, discover_runs
from inspector.model.runs.discover import MAX_DEPTH, find_tasks_root

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_RUNS = ROOT / "sample_runs"
FIXTURES = ROOT / "tests" / "fixtures"
FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"
ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
DASH_JAVA = "repo_readme_1125_dash_m2-mini_Java"
RELAY_REAL = "repo_readme_1125_relay_open_coder-7b_Python"
SYNTHETIC = ["inventory-api", "notes-api", "quote-board", "todo-service", "unit-converter",
             "url-shortener"]
REAL_PYTHON = ["Multilingual", "StructuredDataConvertor", "UserManagement_2", "WebPan",
               "django-rest-framework-crud", "eve", "flask", "synapse"]


def stock_stamp(folder: str) -> str:
    """The stamp of the one ``report_<stamp>.json`` in a bundled stock copy (it changes at
    every regeneration)."""
    (report_file,) = (SAMPLE_RUNS / "repogenesis" / folder).glob("report_*.json")
    return report_file.stem.removeprefix("report_")


FORGE_STOCK = f"{FORGE}@{stock_stamp('forge')}"
ATLAS_STOCK = f"{ATLAS}@{stock_stamp('atlas')}"


def report(folder: Path, names: list[str], file: str = "report.json") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    results = [{"repo_name": n, "lang": "python", "exit_code": 0,
                "dsr": {"success": True, "message": "ok"},
                "pass_at_1": {"passed": 1, "failed": 0, "errors": 0, "skipped": 0, "total": 1,
                              "score": 1.0}} for n in names]
    path = folder / file
    path.write_text(json.dumps({"metadata": {"harness_version": "1.0.0"}, "results": results}))
    return path


# ----------------------------------------------------------------------------- bundled data

class TestBundledSampleRuns:
    @pytest.fixture(scope="class")
    def found(self):
        return discover_runs(SAMPLE_RUNS)

    def test_six_runs_of_ours_and_four_stock_copies(self, found):
        # stock copies: a stamped report (report_<stamp>.json + intermediate/<stamp>/) keeps
        # its stamp in the id, a plain report.json its folder's name; each is the same
        # evaluation as a run of ours, so a twin of it, not a run of its own
        assert [(t.run.id, t.of.id, t.how) for t in found.twins] == [
            (FORGE_STOCK, FORGE, "content"), (f"{RELAY}@relay", RELAY, "content"),
            (ATLAS_STOCK, ATLAS, "content"), (f"{DASH}@dash", DASH, "content")]
        assert [r.id for r in found.runs] == [FORGE, RELAY, ATLAS, DASH_JAVA, DASH, RELAY_REAL]
        assert [(r.id, r.source.format) for r in found.all_runs] == [
            (FORGE, "genesis-inspector"),
            (FORGE_STOCK, "repogenesis"),
            (RELAY, "genesis-inspector"),
            (f"{RELAY}@relay", "repogenesis"),
            (ATLAS, "genesis-inspector"),
            (ATLAS_STOCK, "repogenesis"),
            (DASH_JAVA, "genesis-inspector"),
            (DASH, "genesis-inspector"),
            (f"{DASH}@dash", "repogenesis"),
            (RELAY_REAL, "genesis-inspector"),
        ]
        assert found.errors == []
        assert found.issues == []

    def test_identities(self, found):
        runs = {r.id: r for r in found.all_runs}
        assert (runs[FORGE].agent, runs[FORGE].model, runs[FORGE].language) == \
            ("Forge", "m1-large", "python")
        assert (runs[f"{RELAY}@relay"].agent, runs[f"{RELAY}@relay"].model) == \
            ("Relay", "open_coder-7b")
        assert (runs[DASH_JAVA].agent, runs[DASH_JAVA].model, runs[DASH_JAVA].language) == \
            ("Dash", "m2-mini", "java")
        assert (runs[ATLAS_STOCK].agent, runs[ATLAS_STOCK].model) == ("Atlas", "m2-large")
        # one sample per task; the synthetic runs did the six synthetic tasks, the real-task
        # runs the eight Python (or three Java) real ones
        tasks = {run_id: SYNTHETIC for run_id in (FORGE, FORGE_STOCK, RELAY, f"{RELAY}@relay")}
        tasks |= {run_id: REAL_PYTHON
                  for run_id in (ATLAS, ATLAS_STOCK, DASH, f"{DASH}@dash", RELAY_REAL)}
        tasks[DASH_JAVA] = ["javalin-task-manager", "spark-dashboard-backend",
                            "springboot-chat-gateway"]
        assert {r.id: r.task_names for r in found.all_runs} == tasks
        assert all(len(r.samples) == len(r.task_names) for r in found.all_runs)

    def test_tasks_found_next_to_the_runs(self, found):
        # the real tasks' ports, test counts and stock endpoint counts are the stock harness's
        # (constants.py, the golden suites, the committed report)
        assert {n: (t.port, t.framework, t.expected_tests, len(t.endpoints))
                for n, t in found.tasks.items()} == {
            "Multilingual": (5000, "flask", 33, 0),
            "StructuredDataConvertor": (8000, "any", 38, 0),
            "UserManagement_2": (8080, "fastapi", 31, 5),
            "WebPan": (8080, "any", 22, 4),
            "django-rest-framework-crud": (8000, "django", 2, 8),
            "eve": (5001, "eve", 2, 1),
            "flask": (5000, "flask", 7, 3),
            "inventory-api": (18080, "fastapi", 10, 6),
            "javalin-online-judge": (7000, "javalin", 22, 18),
            "javalin-task-manager": (7000, "javalin", 15, 15),
            "javalin-user-auth-platform": (7070, "javalin", 46, 8),
            "micronaut-ci-status": (8080, "micronaut", 25, 0),
            "notes-api": (18081, "fastapi", 10, 6),
            "quarkus-blog-cms": (8080, "quarkus", 15, 15),
            "quote-board": (18084, "flask", 8, 5),
            "spark-dashboard-backend": (4567, "spark", 15, 15),
            "spring-boot-course-scheduling": (8080, "springboot", 19, 33),
            "springboot-chat-gateway": (8080, "springboot", 12, 12),
            "synapse": (8080, "any", 5, 7),
            "todo-service": (18080, "flask", 12, 6),
            "unit-converter": (18083, "fastapi", 8, 5),
            "url-shortener": (18082, "flask", 8, 4),
        }

    def test_our_runs_have_per_test_cases(self, found):
        runs = {r.id: r for r in found.runs}
        todo = runs[FORGE].samples_for("todo-service")[0]
        assert todo.tests.has_cases and len(todo.tests.cases) == 12
        assert [c.id for c in todo.failing_tests] == [
            "tests/test_todos.py::test_create_defaults",
            "tests/test_todos.py::test_list_filter_completed",
            "tests/test_todos.py::test_patch_completed",
        ]
        assert todo.failing_tests[0].message == "KeyError: 'completed'"
        assert todo.failing_tests[0].outcome is Outcome.FAILED
        assert (todo.tests.passed, todo.tests.failed, todo.tests.total) == (9, 3, 12)
        assert todo.tests.score == 0.75
        assert set(todo.logs) == {Phase.INSTALL, Phase.START, Phase.HEALTH, Phase.TESTS}
        assert all(p.is_file() for p in todo.logs.values())
        assert todo.repo_path == SAMPLE_RUNS / "predictions" / FORGE / "todo-service"
        assert todo.repo_path.is_dir()

    def test_our_runs_flag_incomplete_suites(self, found):
        runs = {r.id: r for r in found.runs}
        quote = runs[FORGE].samples_for("quote-board")[0]
        assert quote.tests.collection_errors == 1
        assert quote.tests.status is SuiteStatus.INCOMPLETE  # 5 collected of 8 expected
        assert not quote.passed
        unit = runs[FORGE].samples_for("unit-converter")[0]
        assert unit.deployment.success is False and unit.deployment.lenient_success is True
        assert unit.deployment.failed_phase is Phase.HEALTH

    def test_repogenesis_runs_keep_counts_only(self, found):
        runs = {r.id: r for r in found.all_runs}
        stock = runs[FORGE_STOCK]
        assert not stock.has_test_cases
        todo = stock.samples_for("todo-service")[0]
        assert (todo.tests.passed, todo.tests.total, todo.tests.cases) == (9, 12, ())
        assert todo.logs == {}
        assert todo.repo_path == SAMPLE_RUNS / "predictions" / FORGE / "todo-service"

    def test_discovering_one_run_folder(self):
        found = discover_runs(SAMPLE_RUNS / "runs" / FORGE)
        assert [r.id for r in found.runs] == [FORGE]
        assert found.issues == []

    def test_discovering_one_report_file(self):
        found = discover_runs(SAMPLE_RUNS / "repogenesis" / "relay" / "report.json")
        assert [r.id for r in found.runs] == [f"{RELAY}@relay"]
        assert len(found.tasks) == 22  # 6 synthetic + 16 real RepoGenesis tasks


# ----------------------------------------------------------------------------- fixtures

class TestFixtures:
    @pytest.fixture(scope="class")
    def found(self):
        """The loader fixtures (the hostile ones have tests of their own)."""
        found = discover_runs(FIXTURES)
        hostile = FIXTURES / "hostile"
        found.runs = [r for r in found.runs if hostile not in r.source.path.parents]
        found.issues = [i for i in found.issues if hostile not in i.path.parents]
        if found.tasks_found is not None and hostile in found.tasks_found.path.parents:
            found.tasks, found.tasks_found = {}, None
        return found

    def test_good_runs_of_both_formats_load(self, found):
        assert [r.id for r in found.runs if not r.file_unreadable] == [
            "ours_duplicate",
            "ours_missing_result",
            "ours_outside",
            "repo_readme_0219_codex_gpt5.3_Python@2026-02-26_15-39-29",
            "repo_readme_1204_msagent_gpt-5-mini_Python@summary_edited",
            "repo_readme_1204_msagent_gpt-5-mini_Python@summary_rules",
            "repo_readme_1204_qwen_qwen3_coder_30b_Python@malformed",
            "repo_readme_1212_deepcode_gpt-5-mini_Java",
            "stamped@2026-02-27_09-00-00",
        ]
        # the runs whose own file cannot be read are listed as unreadable, never left out
        assert [r.id for r in found.runs if r.file_unreadable] == [
            "invalid_json", "ours_v2", "results_not_list"]
        assert found.tasks == {}

    def test_bad_files_are_errors_naming_file_and_field(self, found):
        errors = {(i.path.name, i.path.parent.name, i.field) for i in found.errors}
        assert errors == {
            ("report.json", "invalid_json", ""),
            ("report.json", "results_not_list", "results"),
            ("report.json", "malformed", "results[3].repo_name"),
            ("report.json", "malformed", "results[5]"),
            ("report.json", "malformed", "results[9].repo_name"),
            ("result.json", "0-copy", "sample"),
            ("result.json", "0", ""),  # ours_missing_result/samples/beta/0
            ("run.json", "ours_outside", "samples[0].path"),
            ("run.json", "ours_v2", "format_version"),
        }
        for issue in found.issues:
            text = str(issue)
            assert text.startswith(f"{issue.path}")
            if issue.field:
                assert f"field '{issue.field}'" in text


# ----------------------------------------------------------------------------- walking

class TestWalk:
    def test_missing_path(self, tmp_path):
        found = discover_runs(tmp_path / "nope")
        assert found.runs == []
        assert [str(i) for i in found.issues] == [f"{tmp_path / 'nope'}: does not exist"]

    def test_empty_folder(self, tmp_path):
        found = discover_runs(tmp_path)
        assert (found.runs, found.issues) == ([], [])

    def test_non_json_file(self, tmp_path):
        (tmp_path / "notes.txt").write_text("hi")
        found = discover_runs(tmp_path / "notes.txt")
        assert found.runs == []
        assert [str(i) for i in found.issues] == [
            f"{tmp_path / 'notes.txt'}: not a run folder or report file"]

    def test_any_json_file_is_read_as_a_report(self, tmp_path):
        path = report(tmp_path, ["a"], file="custom_name.json")
        found = discover_runs(path)
        assert [s.task for r in found.runs for s in r.samples] == ["a"]

    def test_runs_sorted_and_duplicate_ids_warned(self, tmp_path):
        report(tmp_path / "x" / "out", ["a"])
        report(tmp_path / "y" / "out", ["b"])
        report(tmp_path / "a-first", ["c"])
        found = discover_runs(tmp_path)
        assert [r.id for r in found.runs] == ["a-first", "out", "out"]
        assert [(i.severity, i.message) for i in found.issues] == [
            ("warning", "run id 'out' found 2 times")]

    def test_depth_limit(self, tmp_path):
        deep = tmp_path
        for i in range(MAX_DEPTH):
            deep = deep / f"d{i}"
        report(deep, ["at-limit"])
        report(deep / "deeper", ["too-deep"])
        found = discover_runs(tmp_path)
        assert [s.task for r in found.runs for s in r.samples] == ["at-limit"]

    @pytest.mark.parametrize("skipped", [".hidden", "predictions", "node_modules", ".venv",
                                         "__pycache__", "samples", "target"])
    def test_skipped_folders(self, tmp_path, skipped):
        report(tmp_path / skipped / "out", ["a"])
        report(tmp_path / "visible", ["b"])
        found = discover_runs(tmp_path)
        assert [r.id for r in found.runs] == ["visible"]

    def test_symlinked_folders_not_followed(self, tmp_path):
        report(tmp_path / "real", ["a"])
        (tmp_path / "scan").mkdir()
        os.symlink(tmp_path / "real", tmp_path / "scan" / "link")
        assert discover_runs(tmp_path / "scan").runs == []

    def test_run_folder_wins_over_its_report_json(self, tmp_path):
        # our run folders hold a RepoGenesis-compatible report.json too: one run, not two
        run_dir = tmp_path / "ours"
        run_dir.mkdir()
        report(run_dir, ["a"])
        (run_dir / "run.json").write_text(json.dumps({
            "format": "genesis-inspector-run", "format_version": 1, "run_id": "ours",
            "samples": []}))
        found = discover_runs(tmp_path)
        assert [(r.id, r.source.format) for r in found.runs] == [("ours", "genesis-inspector")]

    def test_bad_run_next_to_good_ones(self, tmp_path):
        report(tmp_path / "good", ["a"])
        (tmp_path / "bad").mkdir()
        (tmp_path / "bad" / "run.json").write_bytes(b"\xff\xfe")
        (tmp_path / "worse").mkdir()
        (tmp_path / "worse" / "report_2026-01-01_00-00-00.json").write_text("")
        found = discover_runs(tmp_path)
        assert [(r.id, r.file_unreadable) for r in found.runs] == [
            ("bad", True), ("good", False), ("worse@2026-01-01_00-00-00", True)]
        assert sorted(str(i) for i in found.errors) == [
            f"{tmp_path / 'bad' / 'run.json'}: not UTF-8 (byte 0)",
            f"{tmp_path / 'worse' / 'report_2026-01-01_00-00-00.json'}: file is empty",
        ]


class TestTasks:
    def make_tasks(self, root: Path) -> None:
        t = root / "repo" / "todo"
        (t / "tests").mkdir(parents=True)
        (t / "README.md").write_text("# Todo\nFramework: Flask\nPort: 5001\n"
                                     "| GET | /todos | List |\n")
        (t / "tests" / "test_todo.py").write_text(
            "def test_a():\n    pass\n\nclass TestB:\n    def test_c(self):\n        pass\n"
            "    async def test_d(self):\n        pass\n\ndef helper():\n    pass\n")
        (root / "repo" / "no-readme").mkdir()

    def test_tasks_folder_next_to_runs(self, tmp_path):
        self.make_tasks(tmp_path / "tasks")
        report(tmp_path / "runs" / "out", ["todo"])
        found = discover_runs(tmp_path / "runs")
        assert find_tasks_root(tmp_path / "runs") == tmp_path / "tasks"
        todo = found.tasks["todo"]
        assert (todo.port, todo.framework, todo.expected_tests) == (5001, "flask", 3)
        assert [str(e) for e in todo.endpoints] == ["GET /todos"]
        # task warnings (the folder without README) are not reported, and the sample gets
        # the expected count
        assert found.issues == []
        s = found.runs[0].samples[0]
        assert s.tests.expected == 3
        assert s.tests.status is SuiteStatus.INCOMPLETE  # 1 counted of 3 expected
        assert set(found.runs[0].tasks) == {"todo"}

    def test_explicit_tasks_root(self, tmp_path):
        self.make_tasks(tmp_path / "elsewhere")
        report(tmp_path / "runs" / "out", ["todo"])
        found = discover_runs(tmp_path / "runs", tasks_root=tmp_path / "elsewhere")
        assert set(found.tasks) == {"todo"}

    def test_missing_explicit_tasks_root_is_an_error(self, tmp_path):
        report(tmp_path / "out", ["a"])
        found = discover_runs(tmp_path, tasks_root=tmp_path / "missing")
        assert [r.id for r in found.runs] == ["out"]
        assert [str(i) for i in found.errors] == [
            f"{tmp_path / 'missing'}: tasks folder does not exist"]


# ------------------------------------------------------- guessing the tasks folder (walking up)

def fake_clone(where: Path, *, git: bool = True) -> Path:
    """This project cloned into a folder named ``repo``: its test fixtures, and top-level
    folders with a README (as ``bench/`` and ``sample_runs/`` have)."""
    clone = where / "repo"
    shutil.copytree(FIXTURES, clone / "tests" / "fixtures",
                    ignore=lambda d, names: ["hostile"] if Path(d) == FIXTURES else [])
    for folder in ("bench", "sample_runs", "docs"):
        (clone / folder).mkdir(parents=True)
        src = ROOT / folder / "README.md"
        (clone / folder / "README.md").write_text(
            src.read_text(encoding="utf-8") if src.is_file() else "# docs\n\nport 8080\n")
    if git:
        (clone / ".git").write_text("gitdir: /elsewhere/.git/worktrees/repo\n")
    return clone


class TestTasksRootGuess:
    @pytest.mark.parametrize("git", [True, False])
    def test_a_clone_named_repo_is_never_taken_for_a_tasks_folder(self, tmp_path, git):
        clone = fake_clone(tmp_path / "work", git=git)
        found = discover_runs(clone / "tests" / "fixtures")
        assert found.tasks == {} and found.tasks_found is None
        assert "repo_readme_1204_msagent_gpt-5-mini_Python@summary_rules" in \
            [r.id for r in found.runs]
        assert find_tasks_root(clone / "tests" / "fixtures") is None

    def test_a_real_tasks_folder_next_to_the_runs_is_found(self, tmp_path):
        project = tmp_path / "experiment"
        (project / ".git").mkdir(parents=True)  # also at a repository boundary
        shutil.copytree(SAMPLE_RUNS / "tasks" / "repo" / "eve", project / "tasks" / "repo" / "eve")
        report(project / "outputs" / "run1", ["eve"])
        found = discover_runs(project / "outputs" / "run1")
        assert list(found.tasks) == ["eve"]
        assert found.tasks_found is not None
        assert found.tasks_found.path == project / "tasks"
        assert found.tasks_found.describe() == (
            f"tasks: {project / 'tasks'} (walked up from {project / 'outputs' / 'run1'})")
        # the walk stops at the repository boundary: a tasks folder above it is not adopted
        outer = tmp_path / "outer"
        shutil.copytree(project / "tasks", outer / "tasks")
        inner = outer / "clone"
        (inner / ".git").mkdir(parents=True)
        report(inner / "out", ["eve"])
        assert discover_runs(inner / "out").tasks == {}

    def test_our_run_says_where_its_recorded_tasks_are(self):
        found = discover_runs(SAMPLE_RUNS / "runs" / FORGE)
        assert found.tasks_found is not None and found.tasks_found.how == "run.json"
        assert found.tasks_found.path == (SAMPLE_RUNS / "tasks").resolve()
        assert found.tasks_found.describe().endswith(f"{FORGE}/run.json tasks_root)")

    def test_a_readme_without_a_test_suite_is_not_a_task(self, tmp_path):
        task = tmp_path / "tasks" / "repo" / "svc"
        task.mkdir(parents=True)
        (task / "README.md").write_text("# Svc\n\nPort: 8000\n\n- `GET /items` - list\n")
        report(tmp_path / "out", ["svc"])
        assert discover_runs(tmp_path / "out").tasks == {}
        (task / "tests").mkdir()
        (task / "tests" / "test_items.py").write_text("def test_x():\n    pass\n")
        assert list(discover_runs(tmp_path / "out").tasks) == ["svc"]


class TestLabelsFolderGuess:
    def test_a_labels_folder_above_a_repository_boundary_is_not_adopted(self, tmp_path):
        from inspector.services.labels.store import find_labels_dir

        (tmp_path / "labels" / "annotators").mkdir(parents=True)
        (tmp_path / "labels" / "annotators" / "ana.json").write_text("{}")
        runs = tmp_path / "clone" / "runs"
        runs.mkdir(parents=True)
        assert find_labels_dir(runs) == tmp_path / "labels"  # no boundary: found above
        (tmp_path / "clone" / ".git").mkdir()
        assert find_labels_dir(runs) == runs / "labels"

    def test_an_empty_annotators_folder_is_no_evidence(self, tmp_path):
        from inspector.services.labels.store import find_labels_dir

        (tmp_path / "labels" / "annotators").mkdir(parents=True)
        runs = tmp_path / "runs"
        runs.mkdir()
        assert find_labels_dir(runs) == runs / "labels"
