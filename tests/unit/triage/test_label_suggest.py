"""The rule-based label suggestions: on the bundled runs (checked against the table in
sample_runs/README.md) and on synthetic samples built in tmp_path, one per rule."""

from __future__ import annotations

import re
import socket
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from inspector.model.labels.label_file import Anchor, Suggestion
from inspector.model.logs.phase_logs import LogLine, format_log_line
from inspector.model.results.outcomes import Outcome, Phase
from inspector.model.results.sample import Deployment, SampleResult, TestCase, TestSummary
from inspector.model.runs.discover import discover_runs
from inspector.model.runs.runformat import load_run
from inspector.services.triage import exception_rules as label_suggest
from inspector.services.triage.exception_rules import suggest

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "sample_runs"
FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"
TS = "2026-11-21T06:20:02.000000+00:00"


# ------------------------------------------------------------------------ the bundled runs

@pytest.fixture(scope="module")
def bundled() -> dict[tuple[str, str], SampleResult]:
    out: dict[tuple[str, str], SampleResult] = {}
    for agent, run_id in (("forge", FORGE), ("relay", RELAY)):
        run, issues = load_run(SAMPLES / "runs" / run_id)
        assert not [i for i in issues if i.severity == "error"]
        for s in run.samples:
            out[(agent, s.task)] = s
    return out


def readme(task: str) -> str:
    return (SAMPLES / "tasks" / "repo" / task / "README.md").read_text(encoding="utf-8")


def readme_table() -> dict[tuple[str, str], str | None]:
    """(agent, task) -> the category sample_runs/README.md's table of the synthetic tasks gives
    (None: the sample passes)."""
    text = (SAMPLES / "README.md").read_text(encoding="utf-8")
    section = text.split("## The synthetic tasks", 1)[1].split("\n## ", 1)[0]
    table: dict[tuple[str, str], str | None] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0] or cells[0].startswith(("task", "---")):
            continue
        task = cells[0].split()[0]
        for agent, cell in (("forge", cells[1]), ("relay", cells[2])):
            if "benchmark defect" in cell:
                table[(agent, task)] = "not-model"
            elif cell.startswith("passes"):
                table[(agent, task)] = None
            else:
                table[(agent, task)] = cell.split(":", 1)[0].strip()
    return table


TABLE = readme_table()


def test_the_readme_table_was_read() -> None:
    assert len(TABLE) == 12
    assert TABLE[("relay", "quote-board")] == "dependency"
    assert TABLE[("forge", "quote-board")] == "not-model"
    assert TABLE[("forge", "notes-api")] is None


@pytest.mark.parametrize("key", sorted(TABLE), ids=lambda k: f"{k[0]}-{k[1]}")
def test_bundled_samples_match_the_readme_table(bundled, key) -> None:
    sample = bundled[key]
    expected = TABLE[key]
    got = suggest(sample, task_readme=readme(key[1]))
    if expected is None:
        assert sample.passed
        assert got is None
    else:
        assert got is not None, f"no suggestion for {key}"
        assert got.category == expected, got.reason
        assert got.reason and got.rule and got.evidence


def _anchor_texts(s: Suggestion) -> list[str]:
    return [a.describe() for a in s.evidence]


def test_relay_quote_board_is_a_pip_failure(bundled) -> None:
    s = suggest(bundled[("relay", "quote-board")])
    assert s is not None
    assert (s.category, s.rule) == ("dependency", "pip-no-distribution")
    assert "No matching distribution found for flask-quotes-toolkit==1.2.0" in s.reason
    assert Anchor.file("requirements.txt", 2) in s.evidence
    log = next(a for a in s.evidence if a.kind == "log")
    install = SAMPLES / "runs" / RELAY / "samples" / "quote-board" / "0" / "logs" / "install.log"
    (pip_error,) = [n for n, line in enumerate(install.read_text().splitlines(), 1)
                    if "No matching distribution found for flask-quotes-toolkit" in line]
    assert (log.phase, log.line) == ("install", pip_error)  # pip's verdict, after uv's


def test_relay_url_shortener_is_a_werkzeug_version_mismatch(bundled) -> None:
    s = suggest(bundled[("relay", "url-shortener")])
    assert s is not None
    assert (s.category, s.rule) == ("dependency", "library-version-mismatch")
    assert "url_quote" in s.reason and "werkzeug" in s.reason
    # the installed version comes from pip's "Successfully installed" line; the bundled run
    # reused a cached virtualenv, so its install log names no version and none is claimed
    install = SAMPLES / "runs" / RELAY / "samples" / "url-shortener" / "0" / "logs" / "install.log"
    versions = re.findall(r"Successfully installed .*\bWerkzeug-(\S+)", install.read_text())
    if versions:
        assert f"the installed werkzeug {versions[0]} does not provide url_quote" in s.reason
    else:
        assert "the installed werkzeug does not provide url_quote" in s.reason
    assert "Flask==2.0.3" in s.reason
    assert any(a.kind == "log" and a.phase == "start" and a.line == 14 for a in s.evidence)
    assert Anchor.file("app.py", 1) in s.evidence


def test_relay_todo_service_is_cross_file_storage(bundled) -> None:
    s = suggest(bundled[("relay", "todo-service")])
    assert s is not None
    assert (s.category, s.rule) == ("cross-file", "repo-name-missing")
    assert "TodoRepository" in s.reason and "TodoStore" in s.reason
    assert Anchor.file("storage.py", 1) in s.evidence  # where TodoStore is defined
    assert Anchor.file("routes.py", 3) in s.evidence  # the failing import
    assert any(a.kind == "log" and a.phase == "start" and a.line == 8 for a in s.evidence)


def test_relay_inventory_api_is_a_missing_yaml(bundled) -> None:
    s = suggest(bundled[("relay", "inventory-api")])
    assert s is not None
    assert (s.category, s.rule) == ("dependency", "missing-third-party-module")
    assert s.reason.startswith("ModuleNotFoundError: No module named 'yaml' — ")
    assert "requirements.txt does not provide it" in s.reason
    assert Anchor.file("policy.py", 8) in s.evidence
    # a failing test (HTTP 500) of that sample falls back on the sample's start log
    t = suggest(bundled[("relay", "inventory-api")],
                test_id="tests/test_inventory.py::test_reserve_increases_reserved")
    assert t is not None and t.rule == "missing-third-party-module"


def test_relay_unit_converter_is_flask_under_uvicorn(bundled) -> None:
    s = suggest(bundled[("relay", "unit-converter")])
    assert s is not None
    assert (s.category, s.rule) == ("architectural", "wsgi-app-on-asgi-server")
    assert "start_response" in s.reason and "uvicorn" in s.reason
    assert Anchor.file("start.sh", 4) in s.evidence


def test_forge_unit_converter_listens_on_8000(bundled) -> None:
    sample = bundled[("forge", "unit-converter")]
    s = suggest(sample, task_readme=readme("unit-converter"))
    assert s is not None
    assert (s.category, s.rule) == ("architectural", "wrong-port")
    assert "8000" in s.reason and "the README asks for 18083" in s.reason
    assert any(a.kind == "log" and a.phase == "start" and a.line == 6 for a in s.evidence)
    assert any(a.kind == "log" and a.phase == "health" and a.line == 2 for a in s.evidence)
    without = suggest(sample)
    assert without is not None and "the harness expects 18083" in without.reason


def test_forge_todo_service_is_cross_file(bundled) -> None:
    sample = bundled[("forge", "todo-service")]
    s = suggest(sample)
    assert s is not None and s.category == "cross-file"
    # the sample's strongest evidence: the server's AttributeError in routes.py (rule 4)
    assert s.rule == "repo-attribute-missing"
    assert "'completed'" in s.reason and "models.py" in s.reason and "done" in s.reason
    # the test itself: KeyError 'completed' on the response (rule 8)
    t = suggest(sample, test_id="tests/test_todos.py::test_create_defaults")
    assert t is not None
    assert (t.category, t.rule) == ("cross-file", "response-field-missing")
    assert t.reason.startswith("KeyError: 'completed' — ")
    assert Anchor.for_test("tests/test_todos.py::test_create_defaults") in t.evidence
    assert Anchor.log("tests", 26, "E   KeyError: 'completed'") in t.evidence
    assert any(a.kind == "file" and a.path == "routes.py" for a in t.evidence)
    # the other KeyError test is anchored in its own section of the tests log (line 36)
    t2 = suggest(sample, test_id="tests/test_todos.py::test_patch_completed")
    assert t2 is not None and Anchor.log("tests", 36, "E   KeyError: 'completed'") in t2.evidence


def test_forge_quote_board_is_a_benchmark_defect_given_the_readme(bundled) -> None:
    sample = bundled[("forge", "quote-board")]
    s = suggest(sample, task_readme=readme("quote-board"))
    assert s is not None
    assert (s.category, s.rule) == ("not-model", "golden-test-undocumented-import")
    assert "app.models" in s.reason and "README" in s.reason
    assert Anchor.for_test("tests/test_quote_model.py") in s.evidence
    assert any(a.kind == "log" and a.phase == "tests" and a.line == 23 for a in s.evidence)
    # without the README the engine cannot know whether app.models was asked for; an import
    # made by the golden suite is never the repo's cross-file error, so it says nothing
    assert suggest(sample) is None


def test_relay_quote_board_model_test_is_also_the_benchmarks_defect(bundled) -> None:
    # the golden test imports app.models; loading it fails on flask inside the repo's app.py
    sample = bundled[("relay", "quote-board")]
    s = suggest(sample, test_id="tests/test_quote_model.py", task_readme=readme("quote-board"))
    assert s is not None and s.category == "not-model"
    assert "app.models" in s.reason


def test_relay_notes_api_lost_state(bundled) -> None:
    """Five failures, all 'assert 404 == 2xx' or 'assert 1 in []', POSTs answered 201 in the
    start log and no server traceback at all: rule 9 fires (the README's category)."""
    sample = bundled[("relay", "notes-api")]
    s = suggest(sample)
    assert s is not None
    assert (s.category, s.rule) == ("architectural", "state-not-kept")
    assert s.reason.startswith("5 of 5 failing tests")
    assert any(a.kind == "log" and a.phase == "start" and a.line == 10 for a in s.evidence)
    t = suggest(sample, test_id="tests/test_notes.py::test_delete_note")
    assert t is not None and t.rule == "state-not-kept"


def test_passing_samples_and_passing_tests_get_nothing(bundled) -> None:
    assert suggest(bundled[("forge", "notes-api")]) is None
    sample = bundled[("forge", "todo-service")]
    assert suggest(sample, test_id="tests/test_todos.py::test_health") is None


def test_stock_format_results_do_not_crash() -> None:
    found = discover_runs(SAMPLES / "repogenesis")
    assert found.runs
    for run in found.runs:
        for sample in run.samples:
            assert not sample.logs and not sample.tests.cases
            # only counts and a one-line message: no rule has evidence
            assert suggest(sample) is None


def test_no_network_no_subprocess(bundled, monkeypatch) -> None:
    def refuse(*a, **k):
        raise AssertionError("the engine must not do this")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(subprocess, "Popen", refuse)
    for sample in bundled.values():
        suggest(sample, task_readme=readme(sample.task))
        for case in sample.failing_tests:
            suggest(sample, test_id=case.id)


# ------------------------------------------------------------------------ synthetic samples

def write_log(path: Path, lines: list[str | tuple[str, str]]) -> Path:
    """A phase log in the run format; a bare string is an ``err`` line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    out = []
    for item in lines:
        stream, text = ("err", item) if isinstance(item, str) else item
        out.append(format_log_line(LogLine(TS, stream, text)))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def write_repo(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    root.mkdir(parents=True, exist_ok=True)
    return root


def case(test_id: str, message: str = "", traceback: str = "",
         outcome: Outcome = Outcome.FAILED) -> TestCase:
    return TestCase(test_id, outcome, message=message, traceback=traceback,
                    file=test_id.split("::")[0])


def sample(tmp_path: Path, *, logs: dict[Phase, list] | None = None,
           repo: dict[str, str] | None = None, cases: tuple[TestCase, ...] = (),
           success: bool = True, failed_phase: Phase | None = None, message: str = "",
           port: int | None = 18080, error: str | None = None,
           build_error: str | None = None) -> SampleResult:
    log_paths = {ph: write_log(tmp_path / "logs" / f"{ph.value}.log", lines)
                 for ph, lines in (logs or {}).items()}
    repo_path = write_repo(tmp_path / "repo", repo) if repo is not None else None
    passed = sum(1 for c in cases if c.outcome is Outcome.PASSED)
    failed = sum(1 for c in cases if c.outcome is Outcome.FAILED)
    errors = sum(1 for c in cases if c.outcome is Outcome.ERROR)
    if not cases and not success:
        failed = 1
    return SampleResult(
        run_id="run", task="task", sample=0, language="python",
        deployment=Deployment(success=success, message=message or (
            "Service started successfully" if success else "failed"),
            failed_phase=failed_phase if not success else (Phase.TESTS if failed else None)),
        tests=TestSummary(passed=passed, failed=failed, errors=errors, cases=cases,
                          has_cases=bool(cases)),
        port=port, logs=log_paths, repo_path=repo_path, error=error, build_error=build_error)


REPO_PREFIX = "/tmp/gi-task-abc123/repo"
LIB = "/tmp/gi-cold/venvs/0123/lib/python3.11/site-packages"


def start_failure(tmp_path: Path, tb: list[str], repo: dict[str, str], **kw) -> SampleResult:
    start = [("meta", "entry point: start.sh"),
             ("meta", "$ bash start.sh   (cwd: repo root, PORT=18080)"), *tb]
    return sample(tmp_path, logs={Phase.START: start,
                                  Phase.HEALTH: [("meta", "process exited with code 1 after "
                                                  "0.3s")]},
                  repo=repo, success=False, failed_phase=Phase.START,
                  message="process exited with code 1 after 0.3s", **kw)


# --- rule 1: install

def test_rule1_no_matching_distribution(tmp_path) -> None:
    s = sample(tmp_path, repo={"requirements.txt": "flask==3.0.3\nfastjsonx==9.9\n"},
               logs={Phase.INSTALL: [
                   ("meta", "$ /v/bin/python -m pip install --no-input -r /r/requirements.txt"),
                   ("out", "Collecting flask==3.0.3"),
                   "ERROR: Could not find a version that satisfies the requirement fastjsonx==9.9",
                   "ERROR: No matching distribution found for fastjsonx==9.9"]},
               success=False, failed_phase=Phase.INSTALL)
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "pip-no-distribution")
    assert got.reason.startswith("ERROR: No matching distribution found for fastjsonx==9.9 — ")
    assert Anchor.log("install", 4, "ERROR: No matching distribution found for fastjsonx==9.9") \
        in got.evidence
    assert Anchor.file("requirements.txt", 2) in got.evidence


def test_rule1_uv_first_then_pip_judges(tmp_path) -> None:
    """The harness installs with uv; when it fails pip retries, and pip's error is the cause."""
    s = sample(tmp_path, repo={"requirements.txt": "flask==3.0.3\nfastjsonx==9.9\n"},
               logs={Phase.INSTALL: [
                   ("meta", "$ /e/bin/uv venv --quiet --seed --python /usr/bin/python3 /c/v1"),
                   ("meta", "$ /e/bin/uv pip install --python /c/v1/bin/python -r "
                            "/tmp/gi-x/repo/requirements.txt"),
                   ("err", "  × No solution found when resolving dependencies:"),
                   ("err", "  ╰─▶ Because fastjsonx was not found in the package registry and "
                           "you require fastjsonx==9.9, we can conclude that your requirements "
                           "are unsatisfiable."),
                   ("meta", "uv could not install these requirements; retrying with pip, whose "
                            "verdict counts (the stock harness installs with pip)"),
                   ("meta", "$ /c/v1/bin/python -m pip install --disable-pip-version-check "
                            "--no-input -r /tmp/gi-x/repo/requirements.txt"),
                   "ERROR: No matching distribution found for fastjsonx==9.9",
                   ("meta", "$ /e/bin/uv pip install --python /c/v2/bin/python pytest "
                            "requests httpx")]},
               success=False, failed_phase=Phase.INSTALL)
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "pip-no-distribution")
    assert Anchor.log("install", 7, "ERROR: No matching distribution found for fastjsonx==9.9") \
        in got.evidence


def test_rule1_conflict(tmp_path) -> None:
    s = sample(tmp_path, repo={"requirements.txt": "a==1\nb==2\n"}, logs={Phase.INSTALL: [
        ("meta", "$ /v/bin/python -m pip install -r /r/requirements.txt"),
        "ERROR: Cannot install a==1 and b==2 because these package versions have conflicting "
        "dependencies.",
        "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io"]},
        success=False, failed_phase=Phase.INSTALL)
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("dependency", "pip-conflict")
    assert got.evidence[0].line == 2


def test_rule1_from_the_deployment_message_only(tmp_path) -> None:
    s = sample(tmp_path, success=False, failed_phase=Phase.INSTALL,
               message="pip install failed (exit 1): ERROR: No matching distribution found for "
                       "nopkg==1.0")
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("dependency", "pip-no-distribution")
    assert got.evidence == ()


def test_rule1_network_failure_is_not_the_model(tmp_path) -> None:
    s = sample(tmp_path, logs={Phase.INSTALL: [
        ("meta", "$ /v/bin/python -m pip install -r /r/requirements.txt"),
        "WARNING: Retrying (Retry(total=4)) after connection broken by 'NewConnectionError("
        "'Failed to establish a new connection: [Errno -3] Temporary failure in name "
        "resolution')': /simple/flask/",
        "ERROR: No matching distribution found for flask==3.0.3"]},
        success=False, failed_phase=Phase.INSTALL)
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("not-model", "install-network-failure")


def test_rule1_ignores_the_test_runners_install(tmp_path) -> None:
    s = sample(tmp_path, logs={Phase.INSTALL: [
        ("meta", "reusing cached virtualenv /v (requirements hash 1)"),
        ("meta", "$ /t/bin/python -m pip install pytest requests -r /r/tests/requirements.txt"),
        "ERROR: No matching distribution found for pytest-magic==0.1"]},
        success=False, failed_phase=Phase.INSTALL,
        message="could not install the test runner (harness problem)")
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("not-model", "test-runner-install-failed")


# --- rule 2: No module named

def test_rule2_third_party_module_missing(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/app.py", line 2, in <module>',
        "    import requests_toolbelt",
        "ModuleNotFoundError: No module named 'requests_toolbelt'"],
        repo={"app.py": "import os\nimport requests_toolbelt\n",
              "requirements.txt": "flask\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "missing-third-party-module")
    assert got.reason == ("ModuleNotFoundError: No module named 'requests_toolbelt' — "
                          "'requests_toolbelt' is not a module of the repo and requirements.txt "
                          "does not provide it")
    assert Anchor.log("start", 6, "ModuleNotFoundError: No module named 'requests_toolbelt'") \
        in got.evidence
    assert Anchor.file("app.py", 2) in got.evidence


def test_rule2_listed_requirement_is_said(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        '  File "/repo/app.py", line 1, in <module>',
        "ModuleNotFoundError: No module named 'yaml'"],
        repo={"app.py": "import yaml\n", "requirements.txt": "# deps\nPyYAML==6.0.1\n"})
    got = suggest(s)
    assert got is not None and got.category == "dependency"
    assert "requirements.txt lists PyYAML==6.0.1 (line 2)" in got.reason
    assert Anchor.file("requirements.txt", 2) in got.evidence


def test_rule2_repo_package_lacks_the_submodule(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/main.py", line 3, in <module>',
        "    from app.services import billing",
        "ModuleNotFoundError: No module named 'app.services'"],
        repo={"main.py": "import app\n\nfrom app.services import billing\n",
              "app/__init__.py": "", "app/models.py": "class Invoice: ...\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("cross-file", "repo-submodule-missing")
    assert "'app' is the repo's own package" in got.reason
    assert Anchor.file("main.py", 3) in got.evidence


def test_rule2_src_layout_counts_as_the_repo(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        '  File "/repo/src/shop/api.py", line 1, in <module>',
        "ModuleNotFoundError: No module named 'shop.db'"],
        repo={"src/shop/__init__.py": "", "src/shop/api.py": "from shop.db import x\n"})
    got = suggest(s)
    assert got is not None and got.category == "cross-file"
    assert Anchor.file("src/shop/api.py", 1) in got.evidence


GOLDEN_TB = """ImportError while importing test module '/tmp/gi-x/repo/tests/test_model.py'.
Traceback:
/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_model.py:3: in <module>
    from app.models import Widget
E   ModuleNotFoundError: No module named 'app.models'"""


def test_rule2_golden_test_importing_an_undocumented_module(tmp_path) -> None:
    c = case("tests/test_model.py", "collection failure", GOLDEN_TB, Outcome.ERROR)
    s = sample(tmp_path, repo={"app/__init__.py": "", "app/routes.py": ""}, cases=(c,))
    got = suggest(s, task_readme="# Widgets\n\nPort: 18080\n")
    assert got is not None
    assert (got.category, got.rule) == ("not-model", "golden-test-undocumented-import")
    assert Anchor.for_test("tests/test_model.py") in got.evidence
    # the README asks for it: the repo does not follow the README's layout (not cross-file:
    # the repo's own modules do not disagree)
    asked = suggest(s, task_readme="Put the Widget model in `app/models.py`.")
    assert asked is not None and (asked.category, asked.rule) == ("other",
                                                                  "readme-module-missing")
    # no README given: the engine cannot tell, and says nothing
    assert suggest(s) is None


CONFTEST_TB = """ImportError while importing test module '/tmp/gi-x/repo/tests/test_users.py'.
Traceback:
/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_users.py:1: in <module>
    from conftest import BASE_URL, make_user
E   ModuleNotFoundError: No module named 'conftest'"""


def test_rule2_golden_test_importing_its_own_conftest_is_a_harness_convention(tmp_path
                                                                               ) -> None:
    from inspector.model.benchmark.tasks import load_task
    from inspector.services.suite.audit import audit_task

    task = load_task(ROOT / "tests" / "fixtures" / "suite_audit" / "conftest_pythonpath", [])
    assert task is not None
    c = case("tests/test_users.py", "collection failure", CONFTEST_TB, Outcome.ERROR)
    s = sample(tmp_path, repo={"app/__init__.py": ""}, cases=(c,))
    got = suggest(s, task_readme=task.readme, audit=audit_task(task))
    assert got is not None
    assert (got.category, got.rule) == ("not-model", "golden-suite-harness-convention")
    assert "pytest.ini" in got.reason and "README" not in got.reason
    assert Anchor.file("tests/test_users.py", 1) in got.evidence
    # without the task's files the README is still not blamed
    bare = suggest(s, task_readme=task.readme)
    assert bare is not None and bare.rule == "golden-suite-harness-convention"


def test_rule2_server_pointed_at_a_missing_module(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{LIB}/gunicorn/util.py", line 371, in import_app',
        "    mod = importlib.import_module(module)",
        '  File "/usr/lib/python3.11/importlib/__init__.py", line 126, in import_module',
        "ModuleNotFoundError: No module named 'server'"],
        repo={"app.py": "app = None\n", "start.sh": "exec gunicorn server:app\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("architectural", "entry-module-missing")
    assert Anchor.file("start.sh", 1) in got.evidence


# --- rule 3: cannot import name

def test_rule3_repo_module_lacks_the_name(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/api.py", line 4, in <module>',
        "    from services import OrderService",
        f"ImportError: cannot import name 'OrderService' from 'services' "
        f"({REPO_PREFIX}/services.py)"],
        repo={"api.py": "import os\n\n\nfrom services import OrderService\n",
              "services.py": "import os\n\n\nclass OrdersService:\n    pass\n\n"
                             "def helper():\n    pass\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("cross-file", "repo-name-missing")
    assert "(services.py defines OrdersService)" in got.reason
    assert "(/tmp" not in got.reason  # the path is left to the anchor
    assert Anchor.file("services.py", 4) in got.evidence
    assert Anchor.file("api.py", 4) in got.evidence


def test_rule3_circular_import(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        '  File "/repo/a.py", line 1, in <module>',
        "ImportError: cannot import name 'B' from partially initialized module 'b' (most "
        "likely due to a circular import) (/repo/b.py)"],
        repo={"a.py": "from b import B\n", "b.py": "from a import A\nclass B: ...\n"})
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("cross-file", "repo-circular-import")


def test_rule3_third_party_version_mismatch(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/app.py", line 1, in <module>',
        "    from pydantic import BaseSettings",
        f"ImportError: cannot import name 'BaseSettings' from 'pydantic' "
        f"({LIB}/pydantic/__init__.py)"],
        repo={"app.py": "from pydantic import BaseSettings\n",
              "requirements.txt": "fastapi\npydantic>=2\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "library-version-mismatch")
    assert "requirements.txt has pydantic>=2" in got.reason
    assert "(imported by app.py)" in got.reason
    assert Anchor.file("requirements.txt", 2) in got.evidence


def test_rule3_version_mismatch_names_the_installed_version(tmp_path) -> None:
    install = [("meta", "$ /v/bin/python -m pip install --no-input -r /r/requirements.txt"),
               ("out", "Collecting Flask==2.0.3"),
               ("out", "Successfully installed Flask-2.0.3 Jinja2-3.1.6 Werkzeug-3.1.9 "
                       "click-8.5.1")]
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/app.py", line 1, in <module>',
        "    from flask import Flask",
        f'  File "{LIB}/flask/helpers.py", line 16, in <module>',
        "    from werkzeug.urls import url_quote",
        f"ImportError: cannot import name 'url_quote' from 'werkzeug.urls' "
        f"({LIB}/werkzeug/urls.py)"],
        repo={"app.py": "from flask import Flask\n", "requirements.txt": "Flask==2.0.3\n"})
    write_log(s.logs[Phase.START].parent / "install.log", install)
    s = replace(s, logs={**s.logs, Phase.INSTALL: s.logs[Phase.START].parent / "install.log"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("dependency", "library-version-mismatch")
    assert "the installed werkzeug 3.1.9 does not provide url_quote (imported by flask)" in \
        got.reason
    assert "requirements.txt does not pin werkzeug (it lists Flask==2.0.3)" in got.reason
    assert any(a.kind == "log" and a.phase == "install" and a.line == 3 for a in got.evidence)


# --- rule 4: NameError / AttributeError across modules

def test_rule4_module_attribute_missing(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        f'  File "{REPO_PREFIX}/routes.py", line 2, in <module>',
        "    STORE = models.make_store()",
        "AttributeError: module 'models' has no attribute 'make_store'"],
        repo={"routes.py": "import models\nSTORE = models.make_store()\n",
              "models.py": "def make_stores():\n    return {}\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("cross-file", "repo-attribute-missing")
    assert "routes.py uses models.make_store" in got.reason and "make_stores" in got.reason
    assert Anchor.file("models.py") in got.evidence


def test_rule4_name_defined_in_another_module(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        '  File "/repo/app.py", line 3, in <module>',
        "NameError: name 'create_router' is not defined"],
        repo={"app.py": "x = 1\n\nr = create_router()\n",
              "routing.py": "\ndef create_router():\n    return 1\n"})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("cross-file", "repo-name-not-imported")
    assert Anchor.file("routing.py", 2) in got.evidence


def test_rule4_and_rule7_builtin_attribute_errors_get_nothing(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        '  File "/repo/app.py", line 3, in <module>',
        "AttributeError: 'NoneType' object has no attribute 'get'"],
        repo={"app.py": "x = None\n\nx.get('a')\n"})
    assert suggest(s) is None
    s2 = start_failure(tmp_path / "b", [
        "Traceback (most recent call last):",
        '  File "/repo/app.py", line 1, in <module>',
        "ZeroDivisionError: division by zero"], repo={"app.py": "1 / 0\n"})
    assert suggest(s2) is None  # rule 7: a traceback in repo code explains nothing by itself


# --- rule 5: framework wiring

def test_rule5_wsgi_app_on_asgi_server(tmp_path) -> None:
    s = sample(tmp_path, repo={"app.py": "", "start.sh": "#!/bin/sh\nexec uvicorn app:app\n"},
               logs={Phase.START: [
                   "INFO:     Uvicorn running on http://127.0.0.1:18080",
                   "ERROR:    Exception in ASGI application",
                   "TypeError: Flask.__call__() missing 1 required positional argument: "
                   "'start_response'"]},
               cases=(case("tests/test_a.py::test_health", "assert 500 == 200"),))
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("architectural", "wsgi-app-on-asgi-server")
    assert got.evidence[0] == Anchor.log("start", 3, "TypeError: Flask.__call__() missing 1 "
                                         "required positional argument: 'start_response'")
    assert Anchor.file("start.sh", 2) in got.evidence


def test_rule5_asgi_app_not_loadable(tmp_path) -> None:
    s = start_failure(tmp_path, ['ERROR:    Error loading ASGI app. Could not import module '
                                 '"main".'],
                      repo={"server.py": "", "start.sh": "uvicorn main:app --port $PORT\n"})
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("architectural", "app-not-loadable")


def test_rule5_entry_file_missing(tmp_path) -> None:
    s = start_failure(tmp_path, ["python: can't open file '/tmp/gi-x/repo/main.py': [Errno 2] "
                                 "No such file or directory"],
                      repo={"app.py": "", "start.sh": "python main.py\n"})
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("architectural", "entry-file-missing")


# --- rule 6: port / nothing started

def test_rule6_flask_on_the_default_port(tmp_path) -> None:
    s = sample(tmp_path, repo={"app.py": "", "start.sh": "python app.py\n"},
               logs={Phase.START: [("meta", "$ bash start.sh"),
                                   " * Running on http://127.0.0.1:5000"],
                     Phase.HEALTH: [("meta", "waiting up to 15s for 127.0.0.1:18081 to accept "
                                     "connections"),
                                    ("meta", "process still running but port 18081 not open "
                                     "after 15s")]},
               success=False, failed_phase=Phase.HEALTH, port=None)
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("architectural", "wrong-port")
    assert "on 5000, the harness expects 18081" in got.reason
    assert Anchor.log("start", 2, "* Running on http://127.0.0.1:5000") in got.evidence
    assert Anchor.file("start.sh", 1) in got.evidence


def test_rule6_no_entry_point(tmp_path) -> None:
    s = sample(tmp_path, repo={"README.md": "hi"}, success=False, failed_phase=Phase.START,
               logs={Phase.START: [("meta", "no start.sh and no fallback entry point (app.py, "
                                    "main.py, run.py, manage.py, server.py)")]},
               message="No service entry point found")
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("architectural", "no-entry-point")
    assert got.evidence[0].line == 1


def test_rule6_start_sh_returns_at_once(tmp_path) -> None:
    s = sample(tmp_path, repo={"start.sh": "pip install -r requirements.txt\n"},
               logs={Phase.START: [("meta", "$ bash start.sh"), ("out", "Requirement already "
                                                                "satisfied: flask")],
                     Phase.HEALTH: [("meta", "process exited with code 0 after 0.8s")]},
               success=False, failed_phase=Phase.START,
               message="process exited with code 0 after 0.8s")
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("architectural", "start-launches-nothing")


# --- rule 8: KeyError on a response field

KEYERROR_TB = """tests/test_items.py:30: in test_create
    assert item["in_stock"] is True
           ^^^^^^^^^^^^^^^^
E   KeyError: 'in_stock'"""


def test_rule8_field_used_by_the_repo(tmp_path) -> None:
    c = case("tests/test_items.py::test_create", "KeyError: 'in_stock'", KEYERROR_TB)
    s = sample(tmp_path, repo={"routes.py": "from models import Item\nif item.in_stock:\n"
                                            "    pass\n",
                               "models.py": "class Item:\n    name: str\n    available: bool\n"},
               cases=(c,), logs={Phase.TESTS: [("out", "_____ test_create _____"),
                                               ("out", "tests/test_items.py:30: in test_create"),
                                               ("out", "E   KeyError: 'in_stock'")]})
    got = suggest(s)
    assert got is not None
    assert (got.category, got.rule) == ("cross-file", "response-field-missing")
    assert "class Item in models.py has no such field (its fields: name, available)" \
        in got.reason
    assert Anchor.file("routes.py", 2) in got.evidence
    assert Anchor.file("models.py", 1) in got.evidence
    assert Anchor.log("tests", 3, "E   KeyError: 'in_stock'") in got.evidence


@pytest.mark.parametrize("repo", [
    {"routes.py": "x = 1\n", "models.py": "class Item:\n    name: str\n    n: int\n"},
    # the models have the field: the response was probably an error body
    {"routes.py": "if item.in_stock:\n    pass\n",
     "models.py": "class Item:\n    name: str\n    in_stock: bool\n"},
    # a handler builds it as a dict key: some code path does return it
    {"routes.py": "def f(i):\n    return {'in_stock': i.available}\n",
     "models.py": "class Item:\n    name: str\n    available: bool\n"},
    # no model classes at all: nothing to compare with
    {"routes.py": "if item.in_stock:\n    pass\n"},
], ids=["unused", "model-has-it", "dict-key", "no-models"])
def test_rule8_is_conservative(tmp_path, repo) -> None:
    c = case("tests/test_items.py::test_create", "KeyError: 'in_stock'", KEYERROR_TB)
    assert suggest(sample(tmp_path, repo=repo, cases=(c,))) is None


# --- rule 9: state not kept

def state_sample(tmp_path: Path, n: int, server_error: bool = False) -> SampleResult:
    start = ['INFO:     127.0.0.1:1 - "POST /items HTTP/1.1" 201 Created',
             'INFO:     127.0.0.1:2 - "GET /items/1 HTTP/1.1" 404 Not Found']
    if server_error:
        start.append("Traceback (most recent call last):")
    cases = tuple(case(f"tests/test_x.py::test_{i}",
                       "assert 404 == 200" if i % 2 else "assert 1 in []") for i in range(n))
    passing = (case("tests/test_x.py::test_ok", outcome=Outcome.PASSED),)
    return sample(tmp_path, repo={"main.py": ""}, logs={Phase.START: start},
                  cases=cases + passing)


def test_rule9_state_not_kept(tmp_path) -> None:
    got = suggest(state_sample(tmp_path, 3))
    assert got is not None
    assert (got.category, got.rule) == ("architectural", "state-not-kept")
    assert got.reason.startswith("3 of 3 failing tests")
    assert Anchor.log("start", 1, 'INFO:     127.0.0.1:1 - "POST /items HTTP/1.1" 201 Created') \
        in got.evidence


def test_rule9_is_conservative(tmp_path) -> None:
    assert suggest(state_sample(tmp_path / "a", 2)) is None  # not several
    assert suggest(state_sample(tmp_path / "b", 4, server_error=True)) is None
    no_log = state_sample(tmp_path / "c", 4)
    no_log = replace(no_log, logs={})
    assert suggest(no_log) is None  # no evidence that the POSTs succeeded


# --- rule 10: harness

def test_rule10_harness_error(tmp_path) -> None:
    s = sample(tmp_path, repo={"app.py": ""}, success=False, failed_phase=Phase.TESTS,
               error="OSError: [Errno 28] No space left on device",
               logs={Phase.TESTS: [("meta", "harness exception:\nTraceback (most recent call "
                                    "last):\nOSError: [Errno 28] No space left on device")]})
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("not-model", "harness-error")
    assert got.evidence == (Anchor.log("tests", 1, "harness exception:"),)


def test_rule10_port_taken_by_another_process(tmp_path) -> None:
    s = sample(tmp_path, success=False, failed_phase=Phase.START,
               message="port 18080 is already in use by another process on this machine; not "
                       "started (infrastructure problem, not the agent's)")
    got = suggest(s)
    assert got is not None and (got.category, got.rule) == ("not-model", "harness-problem")


def test_rule10_golden_fixture_missing(tmp_path) -> None:
    tb = "file tests/test_a.py, line 3\n  def test_a(api_client):\nE       fixture 'api_client' " \
         "not found"
    c = case("tests/test_a.py::test_a", "fixture 'api_client' not found", tb, Outcome.ERROR)
    s = sample(tmp_path, repo={"app.py": ""}, cases=(c,))
    got = suggest(s, test_id="tests/test_a.py::test_a")
    assert got is not None and (got.category, got.rule) == ("not-model", "golden-fixture-missing")


# --- robustness

def test_missing_logs_and_repo_give_none(tmp_path) -> None:
    s = SampleResult(
        run_id="r", task="t", sample=0, language="python",
        deployment=Deployment(success=False, message="process exited with code 1",
                              failed_phase=Phase.START),
        tests=TestSummary(failed=3),
        logs={ph: tmp_path / "nope" / f"{ph.value}.log" for ph in Phase},
        repo_path=tmp_path / "no-repo")
    assert suggest(s) is None
    assert suggest(s, test_id="tests/test_x.py::test_y") is None


def test_a_log_that_is_a_directory_is_skipped(tmp_path) -> None:
    (tmp_path / "dir.log").mkdir()
    s = SampleResult(run_id="r", task="t", sample=0, language="python",
                     deployment=Deployment(success=False, failed_phase=Phase.START),
                     tests=TestSummary(failed=1), logs={Phase.START: tmp_path / "dir.log"})
    assert suggest(s) is None


def test_repo_file_with_bad_syntax_or_bytes(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        '  File "/repo/routes.py", line 1, in <module>',
        "ImportError: cannot import name 'Store' from 'storage' (/repo/storage.py)"],
        repo={"routes.py": "from storage import Store\n", "storage.py": "class Stor(:\n"})
    (tmp_path / "repo" / "broken.py").write_bytes(b"\xff\xfe\x00bad")
    got = suggest(s)
    assert got is not None and got.category == "cross-file"
    assert "storage.py defines Stor" in got.reason  # the regex fallback still finds it


def test_non_utf8_log_and_line_numbers(tmp_path) -> None:
    """Anchors count every line of the file: escaped multi-line records, foreign lines,
    blank lines and undecodable bytes included."""
    logs = tmp_path / "logs"
    logs.mkdir()
    path = logs / "start.log"
    lines = [
        format_log_line(LogLine(TS, "meta", "entry point: start.sh")),
        format_log_line(LogLine(TS, "err", "first\nsecond line of the same record")),
        "not a log line at all",
        "",
        format_log_line(LogLine(TS, "err", "caf\udcff")).encode("utf-8", "surrogateescape")
        .decode("latin-1"),
        format_log_line(LogLine(TS, "err", "Traceback (most recent call last):")),
        format_log_line(LogLine(TS, "err", '  File "/repo/app.py", line 1, in <module>')),
        format_log_line(LogLine(TS, "err", "ModuleNotFoundError: No module named 'orjson'")),
    ]
    data = "\n".join(lines).encode("latin-1") + b"\n"
    path.write_bytes(data)
    repo = write_repo(tmp_path / "repo", {"app.py": "import orjson\n"})
    s = SampleResult(run_id="r", task="t", sample=0, language="python",
                     deployment=Deployment(success=False, failed_phase=Phase.START),
                     tests=TestSummary(failed=1), logs={Phase.START: path}, repo_path=repo)
    got = suggest(s)
    assert got is not None and got.rule == "missing-third-party-module"
    log_anchor = got.evidence[0]
    assert (log_anchor.phase, log_anchor.line) == ("start", 8)
    raw = path.read_bytes().split(b"\n")[log_anchor.line - 1].decode("utf-8", "replace")
    assert raw.endswith("ModuleNotFoundError: No module named 'orjson'")


def test_huge_logs_are_read_only_in_part(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(label_suggest, "MAX_LOG_BYTES", 64 * 1024)
    filler = [("out", f"line {i} " + "x" * 80) for i in range(2000)]  # ~190 kB
    tb = ["Traceback (most recent call last):", '  File "/repo/app.py", line 1, in <module>',
          "ModuleNotFoundError: No module named 'orjson'"]
    late = start_failure(tmp_path / "late", [*filler, *tb], repo={"app.py": "import orjson\n"})
    assert suggest(late) is None  # beyond the read limit
    early = start_failure(tmp_path / "early", [*tb, *filler], repo={"app.py": "import orjson\n"})
    got = suggest(early)
    assert got is not None and got.evidence[0].line == 5


def test_line_limit(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(label_suggest, "MAX_LOG_LINES", 50)
    tb = ["Traceback (most recent call last):", '  File "/repo/app.py", line 1, in <module>',
          "ModuleNotFoundError: No module named 'orjson'"]
    s = start_failure(tmp_path, [*(["noise"] * 60), *tb], repo={"app.py": "import orjson\n"})
    assert suggest(s) is None


def test_unknown_test_id_uses_the_deployment_evidence(tmp_path) -> None:
    s = start_failure(tmp_path, [
        "Traceback (most recent call last):",
        '  File "/repo/app.py", line 1, in <module>',
        "ModuleNotFoundError: No module named 'orjson'"], repo={"app.py": "import orjson\n"})
    got = suggest(s, test_id="tests/test_api.py::test_whatever")
    assert got is not None and got.rule == "missing-third-party-module"


def test_golden_test_file_named_like_a_repo_file_is_not_mapped_into_the_repo(tmp_path) -> None:
    c = case("tests/conftest.py", "collection failure",
             "tests/conftest.py:2: in <module>\n    import yaml\n"
             "E   ModuleNotFoundError: No module named 'yaml'", Outcome.ERROR)
    s = sample(tmp_path, repo={"conftest.py": "", "app.py": ""}, cases=(c,))
    got = suggest(s)
    assert got is not None and got.category == "dependency"
    assert not any(a.kind == "file" and a.path == "conftest.py" for a in got.evidence)


def test_reasons_are_one_line(bundled) -> None:
    for sample_ in bundled.values():
        s = suggest(sample_, task_readme=readme(sample_.task))
        if s is not None:
            assert "\n" not in s.reason and len(s.reason) < 700
            assert re.search(r" — ", s.reason)
