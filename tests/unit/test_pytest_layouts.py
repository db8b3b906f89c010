"""Test ids and suite causes from real pytest runs on small suites of every layout.

Each suite is written to a temp folder and run with pytest exactly as the harness runs it
(``python -m pytest tests <pytest_args>`` from the repo root); the JUnit XML and the console
output it really wrote are parsed. Ids must be relative to the repo root whatever rootdir
pytest chose, so passing them back to pytest from the repo root runs the same tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.model import Endpoint, Outcome, PhaseStatus, Task
from inspector.model.suite.pytest_output import find_cause, rootdir_of
from inspector.model.suite.testids import base_id, leaf_name, repo_relative_id, split_node_id
from inspector.services.deploy import backend
from inspector.services.deploy.backend import PhaseOutcome, TestRun, pytest_args
from inspector.services.suite import endpoint_tests
from inspector.services.suite.cause import locator

ITEM = Endpoint("GET", "/items/{id}")
ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "sample_runs" / "tasks" / "repo"

CLASS_TESTS = '''\
import pytest
import requests

BASE = "http://127.0.0.1:1"


class TestItems:
    def test_ok(self, answer):
        assert answer == 42

    def test_bad(self):
        assert 1 == 2

    class TestNested:
        def test_deep(self):
            assert True


@pytest.mark.parametrize("p", ["a::b", "c/d", "e[f]"])
def test_param(p):
    assert p == "c/d"


def fetch_item():
    return requests.get(BASE + "/items/1", timeout=0.01)
'''


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def run_pytest(repo: Path, ids: list[str] | None = None) -> tuple[TestRun, list[str]]:
    """pytest as the harness runs it; the TestRun it yields and its console lines."""
    junit = repo.parent / f"{repo.name}-junit.xml"
    junit.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHONPATH"))}
    # like the harness's test runner venv (pytest, requests, httpx): no third-party plugins
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    proc = subprocess.run([sys.executable, "-m", "pytest", *pytest_args(ids, str(junit))],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=120)
    lines = (proc.stdout + proc.stderr).splitlines()
    outcome = backend.tests_outcome(proc.returncode, False, 120, "", 0.0)
    run = TestRun(outcome, junit if junit.is_file() else None, proc.returncode,
                  str(repo.resolve()), rootdir_of(lines))
    return run, lines


def outcomes(run: TestRun) -> dict[str, Outcome]:
    cases, _ = run.cases()
    return {c.id: c.outcome for c in cases}


LAYOUTS = {
    # the suite's own tests/pytest.ini: pytest's rootdir becomes tests/ (UserManagement_2, WebPan)
    "tests_pytest_ini": {
        "tests/pytest.ini": "[pytest]\nmarkers =\n    smoke: smoke tests\n",
        "tests/conftest.py": "import pytest\n\n@pytest.fixture\ndef answer():\n    return 42\n",
        "tests/test_items.py": CLASS_TESTS,
    },
    # a root pytest.ini that puts tests/ on the path (tests import from conftest)
    "root_pytest_ini": {
        "pytest.ini": "[pytest]\npythonpath = tests\n",
        "tests/conftest.py": "import pytest\nANSWER = 42\n\n@pytest.fixture\ndef answer():\n"
                             "    return ANSWER\n",
        "tests/test_items.py": "from conftest import ANSWER\n" + CLASS_TESTS,
    },
    # no ini file at all, a conftest in tests/
    "conftest_in_tests": {
        "tests/conftest.py": "import pytest\n\n@pytest.fixture\ndef answer():\n    return 42\n",
        "tests/test_items.py": CLASS_TESTS,
    },
}
EXPECTED_IDS = {
    "tests/test_items.py::TestItems::test_ok": Outcome.PASSED,
    "tests/test_items.py::TestItems::test_bad": Outcome.FAILED,
    "tests/test_items.py::TestItems::TestNested::test_deep": Outcome.PASSED,
    "tests/test_items.py::test_param[a::b]": Outcome.FAILED,
    "tests/test_items.py::test_param[c/d]": Outcome.PASSED,
    "tests/test_items.py::test_param[e[f]]": Outcome.FAILED,
}
ROOTDIR = {"tests_pytest_ini": "tests", "root_pytest_ini": ".", "conftest_in_tests": "."}


@pytest.fixture(scope="module")
def layouts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, TestRun]]:
    out = {}
    for name, files in LAYOUTS.items():
        repo = write(tmp_path_factory.mktemp(name) / "repo", files)
        out[name] = (repo, run_pytest(repo)[0])
    return out


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_ids_are_relative_to_the_repo_root_whatever_the_rootdir(layouts, name):
    repo, run = layouts[name]
    assert run.rootdir_in_repo == ROOTDIR[name]
    assert outcomes(run) == EXPECTED_IDS
    cases, errors = run.cases()
    assert errors == 0
    for c in cases:
        assert c.file == "tests/test_items.py" and (repo / c.file).is_file()
        assert c.line is not None and c.line >= 1


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_recorded_ids_rerun_from_the_repo_root(layouts, name):
    repo, run = layouts[name]
    failing = [i for i, o in outcomes(run).items() if o is Outcome.FAILED]
    assert len(failing) == 3
    again, lines = run_pytest(repo, failing)
    assert outcomes(again) == {i: Outcome.FAILED for i in failing}, "\n".join(lines[-20:])
    # the suite's own ini file is still the one that applies
    assert again.rootdir_in_repo == ROOTDIR[name]


def test_the_endpoint_map_names_recorded_tests(layouts):
    repo, run = layouts["tests_pytest_ini"]
    refs = endpoint_tests.tests_for_endpoints(repo / "tests", [ITEM])
    assert refs[ITEM.key] == []  # fetch_item is a helper no test calls
    write(repo, {"tests/test_calls.py": CLASS_TESTS.replace(
        "class TestItems:", "class TestItems:\n    def test_get(self):\n"
        "        fetch_item()\n")})
    refs = endpoint_tests.tests_for_endpoints(repo / "tests", [ITEM])
    mapped = [r.test_id for r in refs[ITEM.key]]
    assert mapped == ["tests/test_calls.py::TestItems::test_get"]
    recorded = outcomes(run_pytest(repo, ["tests/test_calls.py"])[0])
    assert mapped[0] in {base_id(i) for i in recorded}


def test_node_id_splitting_keeps_parametrize_ids_whole():
    assert split_node_id("tests/t.py::C::test_p[a::b]") == ("tests/t.py", ("C", "test_p"),
                                                             "[a::b]")
    assert split_node_id("tests/t.py::test_p[e[f]]") == ("tests/t.py", ("test_p",), "[e[f]]")
    assert split_node_id("tests/t.py") == ("tests/t.py", (), "")
    assert leaf_name("tests/t.py::C::test_p[c/d]") == "test_p[c/d]"
    assert base_id("tests/t.py::C::test_p[a::b]") == "tests/t.py::C::test_p"


def test_old_ids_relative_to_the_tests_folder_are_repaired_for_real_tasks():
    for task in ("UserManagement_2", "WebPan"):
        root = BUNDLED / task
        assert (root / "tests" / "pytest.ini").is_file()
        test_file = sorted((root / "tests").glob("test_*.py"))[0].name
        old = f"{test_file}::TestX::test_y"
        assert repo_relative_id(old, root, root / "tests") == f"tests/{old}"
        assert repo_relative_id(f"tests/{old}", root, root / "tests") == f"tests/{old}"
        assert repo_relative_id("nope.py::test", root, root / "tests") == "nope.py::test"


# ------------------------------------------------------------------- suites that fail early

FAILING = {
    "conftest_import_error": ({
        "tests/conftest.py": "import os\nimport pandas_not_installed_xyz\n",
        "tests/test_a.py": "def test_a():\n    pass\n",
    }, 4, ("conftest_error", "ModuleNotFoundError: No module named 'pandas_not_installed_xyz'",
           "ImportError while loading conftest tests/conftest.py", "tests/conftest.py", 2)),
    "module_imports_missing_package": ({
        "tests/pytest.ini": "[pytest]\n",
        "tests/test_ok.py": "def test_ok():\n    pass\n",
        "tests/test_needs.py": "\nimport yaml_not_installed_xyz\n\ndef test_b():\n    pass\n",
    }, 1, ("collection_error", "ModuleNotFoundError: No module named 'yaml_not_installed_xyz'",
           "ERROR collecting tests/test_needs.py", "tests/test_needs.py", 2)),
    "script_style_main": ({
        "tests/test_script.py": "def main():\n    print('checking')\n\n"
                                "if __name__ == '__main__':\n    main()\n",
    }, 5, ("no_tests", "collected 0 items", "pytest collected no tests (exit 5)", None, None)),
    "class_with_init": ({
        "tests/test_k.py": "class TestThing:\n    def __init__(self, x=1):\n"
                           "        self.x = x\n\n    def test_a(self):\n        assert self.x\n",
    }, 5, ("not_collectable", "cannot collect test class 'TestThing' because it has a __init__ "
           "constructor (from: tests/test_k.py)", "pytest could not collect a test class",
           "tests/test_k.py", 1)),
    "usage_error_from_ini": ({
        "pytest.ini": "[pytest]\naddopts = --cov-not-a-real-option=src\n",
        "tests/test_a.py": "def test_a():\n    pass\n",
    }, 4, ("usage_error", "unrecognized arguments: --cov-not-a-real-option=src",
           "pytest usage error", "pytest.ini", None)),
    "pytest_exit_in_a_test": ({
        "tests/test_a.py": "import pytest\n\ndef test_a():\n    pytest.exit('service down')\n",
    }, 2, ("interrupted", "_pytest.outcomes.Exit: service down", "pytest was interrupted",
           None, None)),
    "fixture_skips_every_test": ({  # as WebPan's suite does when /api/v1/health is missing
        "tests/conftest.py": "import pytest\n\n\n@pytest.fixture(autouse=True)\n"
                             "def gate():\n    pytest.skip('Test server is not available')\n",
        "tests/test_a.py": "class TestA:\n    def test_a(self):\n        pass\n\n"
                           "    def test_b(self):\n        pass\n",
    }, 0, ("all_skipped", "all 2 tests skipped: Test server is not available",
           "pytest skipped every test (the stock harness counts none of them)",
           "tests/test_a.py", 2)),
    "internal_error_in_a_hook": ({
        "tests/conftest.py": "def pytest_collection_modifyitems(items):\n"
                             "    raise RuntimeError('hook broke')\n",
        "tests/test_a.py": "def test_a():\n    pass\n",
    }, 3, ("internal_error", "RuntimeError: hook broke", "pytest internal error",
           "tests/conftest.py", 2)),
}


@pytest.mark.parametrize("name", list(FAILING))
def test_the_first_real_cause_of_a_suite_that_did_not_run(tmp_path, name):
    files, code, expected = FAILING[name]
    repo = write(tmp_path / "repo", files)
    run, lines = run_pytest(repo)
    assert run.exit_code == code, "\n".join(lines)
    cases: list = []
    if run.junit is not None:
        cases, _ = run.cases()
    task = Task("t", "python", "any", None, "", root=repo, tests_dir=repo / "tests")
    cause = find_cause(lines, run.exit_code, cases, locator(run.cwd, task, repo),
                       run.outcome.message)
    assert cause is not None
    assert (cause.kind, cause.text, cause.context, cause.file, cause.line) == expected


def test_ids_of_a_collection_error_under_tests_pytest_ini_are_repo_relative(tmp_path):
    repo = write(tmp_path / "repo", FAILING["module_imports_missing_package"][0])
    run, _ = run_pytest(repo)
    assert run.rootdir_in_repo == "tests"
    assert outcomes(run) == {"tests/test_needs.py": Outcome.ERROR,
                             "tests/test_ok.py::test_ok": Outcome.PASSED}


def test_exit_code_meanings_are_pytests():
    msg = {code: backend.tests_outcome(code, False, 300, "", 0.0).message for code in range(6)}
    assert "interrupted" in msg[2] and "internal error" in msg[3]
    assert "usage error" in msg[4] and "conftest" in msg[4]
    assert msg[5] == "no tests collected"
    timed_out = backend.tests_outcome(None, False, 300, "", 0.0)
    assert isinstance(timed_out, PhaseOutcome) and timed_out.status is PhaseStatus.TIMEOUT


def test_a_crash_is_explained_by_its_last_printed_line_not_a_colour_code():
    # what dash's Java repos printed (a Maven build that could not resolve its dependencies):
    # the console's last lines are lone colour resets
    lines = ["[ERROR] Failed to execute goal on project app: Could not resolve dependencies",
             "\x1b[0m\x1b[0m", "\x1b[0m", ""]
    cause = find_cause(lines, 1)
    assert cause is not None and cause.kind == "crashed"
    assert cause.text == lines[0]
    assert find_cause(["\x1b[0m"], 1).text == "pytest exited with code 1 and printed nothing"
