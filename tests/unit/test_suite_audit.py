"""The static audit of golden suites: one fixture task per cause (tests/fixtures/suite_audit),
the bundled real tasks, the claims checked against real pytest runs laid out the way the stock
harness runs them, and the causes the health analysis and the suggestions then give."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.model.benchmark.tasks import load_task, load_tasks
from inspector.services.figures.health import SuiteRecord, TestRecord, analyse_health
from inspector.services.suite.audit import (
    HARNESS_CONVENTION,
    MISSING_DEPENDENCY,
    NON_COLLECTABLE,
    SELF_CONTAINED,
    UNDOCUMENTED_MODULE,
    UNREACHABLE_URL,
    SuiteAudit,
    audit_task,
)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "suite_audit"
BUNDLED = ROOT / "sample_runs" / "tasks"
QUIET = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}  # only pytest itself


def audit(name: str) -> SuiteAudit:
    task = load_task(FIXTURES / name, [])
    assert task is not None
    return audit_task(task)


def evidence(a: SuiteAudit) -> list[str]:
    return [str(e) for i in a.issues for e in i.evidence]


def harness_pytest(task_dir: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """pytest the way the stock harness runs it: only tests/ copied into an otherwise empty
    repo, ``python -m pytest tests/`` from the repo root."""
    repo = tmp_path / "repo"
    shutil.copytree(task_dir / "tests", repo / "tests")
    return subprocess.run([sys.executable, "-m", "pytest", "tests/", "-q", "-p",
                           "no:cacheprovider"], cwd=repo, capture_output=True, text=True,
                          timeout=120, env=QUIET)


# ------------------------------------------------------------------------ one per cause


def test_from_conftest_import_with_a_root_pytest_ini_is_a_harness_convention() -> None:
    a = audit("conftest_pythonpath")
    issue = a.suspected
    assert issue is not None and issue.cause == HARNESS_CONVENTION
    assert issue.modules == ("conftest",)
    assert "pytest.ini:2: pythonpath = tests" in evidence(a)
    assert "tests/test_users.py:1: from conftest import BASE_URL, make_user" in evidence(a)
    assert "only the task's root pytest.ini puts on sys.path" in issue.summary
    # never blamed on the README
    assert not [i for i in a.issues if i.cause == UNDOCUMENTED_MODULE]


def test_the_harness_convention_claim_matches_real_pytest(tmp_path: Path) -> None:
    task = FIXTURES / "conftest_pythonpath"
    harness = harness_pytest(task, tmp_path)
    assert harness.returncode != 0
    assert "No module named 'conftest'" in harness.stdout
    # with the task's root pytest.ini (run from the task folder) the same tests pass
    own = tmp_path / "own"
    shutil.copytree(task, own)
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                         cwd=own, capture_output=True, text=True, timeout=120, env=QUIET)
    assert ran.returncode == 0, ran.stdout


def test_from_conftest_import_is_fine_when_pytest_puts_tests_on_sys_path(tmp_path: Path
                                                                          ) -> None:
    assert audit("conftest_on_path").issues == ()
    ran = harness_pytest(FIXTURES / "conftest_on_path", tmp_path)
    assert ran.returncode == 0, ran.stdout


def test_an_undeclared_test_import_is_a_missing_test_dependency() -> None:
    a = audit("missing_dependency")
    assert [(i.cause, i.modules) for i in a.issues] == [(MISSING_DEPENDENCY, ("yaml",))]
    assert "tests/test_schema.py:5: import yaml" in evidence(a)
    assert "tests/requirements.txt: does not list yaml" in evidence(a)
    assert "install pyyaml" in a.issues[0].summary


def test_a_test_import_listed_only_in_the_root_requirements_names_that_file() -> None:
    tasks, _ = load_tasks(BUNDLED)
    a = audit_task(tasks["StructuredDataConvertor"])
    issue = a.suspected
    assert issue is not None and issue.cause == HARNESS_CONVENTION
    assert issue.modules == ("pandas",)
    assert "requirements.txt:1: pandas>=1.5.0" in evidence(a)
    assert "tests/test_convert.py:5: import pandas as pd" in evidence(a)


def test_a_white_box_import_the_readme_never_describes() -> None:
    a = audit("undocumented_module")
    assert [(i.cause, i.modules) for i in a.issues] == [(UNDOCUMENTED_MODULE,
                                                         ("app.core.security",))]
    assert "tests/test_security.py:1: from app.core.security import hash_password" in \
        evidence(a)
    # app.models is described by the README (app/models.py): not suspected
    assert "app.models" not in a.issues[0].summary


def test_suites_pytest_cannot_collect(tmp_path: Path) -> None:
    a = audit("non_collectable")
    assert {i.cause for i in a.issues} == {NON_COLLECTABLE}
    ev = evidence(a)
    assert "tests/test_users.py:5: def __init__(self):" in ev
    assert 'tests/test_script.py:15: if __name__ == "__main__":' in ev
    assert "tests/users_checks.py:1: def test_one_user():" in ev
    # real pytest agrees: of the four test definitions only test_ok's is collected
    ran = harness_pytest(FIXTURES / "non_collectable", tmp_path)
    assert "1 passed" in ran.stdout and "cannot collect test class 'TestUsers'" in ran.stdout


def test_a_pytest_ini_section_pytest_ignores(tmp_path: Path) -> None:
    a = audit("ignored_header")
    assert len(a.issues) == 1
    issue = a.issues[0]
    assert issue.cause == NON_COLLECTABLE and issue.blocking
    assert "tests/pytest.ini:1: [tool:pytest]" in evidence(a)
    assert "2 tests it means to run (python_files = *_spec.py)" in issue.summary
    ran = harness_pytest(FIXTURES / "ignored_header", tmp_path)
    assert ran.returncode == 5  # pytest: no tests collected


def test_hard_coded_urls_the_service_cannot_answer() -> None:
    a = audit("unreachable_url")
    assert {i.cause for i in a.issues} == {UNREACHABLE_URL}
    summaries = " | ".join(i.summary for i in a.issues)
    assert "api.example.com:9000" in summaries and "127.0.0.1:5000" in summaries
    gate = next(i for i in a.issues if "/status" in i.summary)
    assert gate.blocking and "service_up calls pytest.skip" in gate.summary
    assert "tests/conftest.py:10" in " ".join(str(e) for e in gate.evidence)
    # a test asking for an unknown path on purpose (a 404 test) is not suspected
    assert "no-such-thing" not in summaries


def test_a_sound_suite_has_no_issue() -> None:
    assert audit("clean").issues == ()


# --------------------------------------------------------------------- the bundled tasks


@pytest.fixture(scope="module")
def bundled() -> dict[str, SuiteAudit]:
    tasks, _ = load_tasks(BUNDLED)
    return {name: audit_task(t) for name, t in tasks.items()}


@pytest.mark.parametrize(("task", "cause", "needle"), [
    ("Multilingual", None, ""),
    ("StructuredDataConvertor", HARNESS_CONVENTION, "pandas"),
    ("UserManagement_2", UNREACHABLE_URL, "/health"),
    ("WebPan", UNREACHABLE_URL, "/api/v1/health"),
    ("django-rest-framework-crud", None, ""),
    ("eve", None, ""),
    ("flask", MISSING_DEPENDENCY, "'flask'"),
    ("synapse", HARNESS_CONVENTION, "README.md"),
    ("quote-board", UNDOCUMENTED_MODULE, "app.models"),
])
def test_bundled_tasks(bundled: dict[str, SuiteAudit], task: str, cause: str | None,
                       needle: str) -> None:
    issue = bundled[task].suspected
    if cause is None:
        assert issue is None, issue
        return
    assert issue is not None and issue.cause == cause and needle in issue.summary


def test_a_suite_that_tests_an_app_of_its_own(bundled: dict[str, SuiteAudit],
                                             tmp_path: Path) -> None:
    """flask's golden suite builds a Flask app in the test file and calls its test client:
    it passes whatever the agent generated."""
    issue = next(i for i in bundled["flask"].issues if i.cause == SELF_CONTAINED)
    assert issue.blocking and issue.files == ("tests/test_api_blackbox.py",)
    assert "Flask(" in issue.evidence[0].text
    # a white-box suite testing the generated repo's own app is not flagged
    root = tmp_path / "repo" / "whitebox"
    (root / "tests").mkdir(parents=True)
    (root / "README.md").write_text("# W\n\nPort: 8000\n\n- `GET /items` - list\n")
    (root / "tests" / "test_app.py").write_text(
        "from fastapi.testclient import TestClient\nfrom app.main import app\n\n\n"
        "def test_items():\n    assert TestClient(app).get('/items').status_code == 200\n")
    task = load_task(root, [])
    assert task is not None
    assert not [i for i in audit_task(task).issues if i.cause == SELF_CONTAINED]


def test_an_ignored_section_that_changes_nothing_is_only_a_note(
        bundled: dict[str, SuiteAudit]) -> None:
    notes = [i for i in bundled["WebPan"].issues if not i.blocking]
    assert [i.cause for i in notes] == [NON_COLLECTABLE]
    assert "collects the same tests" in notes[0].summary


# ---------------------------------------------------------------- health and suggestions


def test_health_names_the_file_the_harness_does_not_copy_not_the_readme() -> None:
    task = load_task(FIXTURES / "conftest_pythonpath", [])
    assert task is not None
    msg = "tests/test_users.py: ModuleNotFoundError: No module named 'conftest'"
    suites = [SuiteRecord(task.name, f"r{i}", f"r{i}/{task.name}/0", True, "not_run", 0, 2, 1,
                          (msg,)) for i in range(2)]
    report = analyse_health(suites, [], min_samples=1, readmes={task.name: task.readme},
                            audits={task.name: audit_task(task)})
    found = report.by_kind("collection_error")
    assert len(found) == 1
    assert found[0].suspected_cause == HARNESS_CONVENTION
    assert "pytest.ini:2: pythonpath = tests" in found[0].detail
    assert "README" not in found[0].detail
    # the audit issue is the finding's cause: no second, static finding repeats it
    assert report.by_kind("suite_defect") == []
    # without the task's files the message alone still does not blame the README
    bare = analyse_health(suites, [], min_samples=1, readmes={task.name: task.readme})
    assert bare.by_kind("collection_error")[0].suspected_cause == HARNESS_CONVENTION


def test_health_explains_a_suite_that_skipped_everything_by_its_gating_url() -> None:
    task = load_task(FIXTURES / "unreachable_url", [])
    assert task is not None
    suites = [SuiteRecord(task.name, "r", f"r/{task.name}/0", True, "not_run", 0, 3)]
    tests = [TestRecord(task.name, "r", f"r/{task.name}/0", f"tests/test_remote.py::t{i}",
                        "skipped") for i in range(3)]
    report = analyse_health(suites, tests, min_samples=1, audits={task.name: audit_task(task)})
    zero = report.by_kind("zero_collected")[0]
    assert zero.suspected_cause == UNREACHABLE_URL
    # the other URL problems are listed as static findings of the task
    static = report.by_kind("suite_defect")
    assert len(static) == 2 and all(f.suspected_cause == UNREACHABLE_URL for f in static)
    assert all("Found by reading the golden suite" in f.detail for f in static)
