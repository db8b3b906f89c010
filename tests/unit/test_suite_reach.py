"""Suite reach (issue 27): what of the repo a golden suite may import, decided from its imports,
and which repo-root modules would shadow the test runner (real task suites, real scans)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.model.tasks import load_tasks
from inspector.services.harness.suite_reach import (
    BLACK_BOX,
    LIBRARIES,
    LIST_ROOT,
    WHITE_BOX,
    RunnerNames,
    classify,
    module_names,
    root_entries,
    scan_command,
    shadowing,
    suite_imports,
    suite_own_names,
)

ROOT = Path(__file__).resolve().parents[2]
RUNNER = RunnerNames(frozenset({"pytest", "_pytest", "requests", "urllib3", "httpx", "jwt",
                                "jsonschema"}),
                     frozenset({"chardet", "brotli", "simplejson", "numpy", "requests"}))


@pytest.fixture(scope="module")
def tasks():  # type: ignore[no-untyped-def]
    found, _ = load_tasks(ROOT / "sample_runs" / "tasks")
    return found


def _reach(task, root: list[str], runner: RunnerNames = RUNNER):  # type: ignore[no-untyped-def]
    return classify(suite_imports(task.tests_dir), suite_own_names(task.tests_dir), runner,
                    root)


@pytest.mark.parametrize("name", ["eve", "synapse", "todo-service", "UserManagement_2",
                                  "WebPan", "Multilingual", "django-rest-framework-crud"])
def test_http_only_suites_of_the_real_tasks_are_black_box(tasks, name: str) -> None:  # type: ignore[no-untyped-def]
    # a generated repo with the usual root modules changes nothing
    reach = _reach(tasks[name], ["app.py", "models.py", "requirements.txt", "start.sh"])
    assert reach.kind == BLACK_BOX, reach
    assert not reach.root and not reach.site_packages


def test_a_suite_building_its_own_flask_app_needs_only_the_repos_libraries(tasks) -> None:  # type: ignore[no-untyped-def]
    reach = _reach(tasks["flask"], ["app.py", "flask.py", "start.sh"])
    # even with a flask.py at the root: flask is a library, never taken from the root
    assert reach.kind == LIBRARIES and reach.libraries == ("flask",)
    assert not reach.root and reach.site_packages
    assert reach.plan()["lib_only"] == ["flask"]


def test_a_suite_importing_the_services_model_is_white_box(tasks) -> None:  # type: ignore[no-untyped-def]
    reach = _reach(tasks["quote-board"], ["app", "start.sh", "requirements.txt"])
    assert reach.kind == WHITE_BOX and reach.white_box == ("app",)
    assert "requests" in reach.preload


def test_shadowing_is_only_refused_where_the_root_is_reachable(tasks) -> None:  # type: ignore[no-untyped-def]
    root = ["app", "chardet.py", "brotli.cpython-311-x86_64-linux-gnu.so", "requests",
            "json.py", "tests", "README.md"]
    white = _reach(tasks["quote-board"], root)
    # chardet (the runner imports it), brotli (an extension module), requests (provided);
    # never a standard-library name (those resolve first) nor the golden tests' copy
    assert shadowing(white, root) == ["brotli", "chardet", "requests"]
    assert shadowing(_reach(tasks["eve"], root), root) == []


def test_module_names_of_a_folder() -> None:
    assert module_names(["a.py", "b", "c.pyc", "d.cpython-311-x86_64-linux-gnu.so", "e.pth",
                         "README.md", "f.txt", "__pycache__", "1x.py", ".hidden.py"]) == \
        {"a", "b", "c", "d", "e"}


def test_the_scan_finds_optional_and_dynamic_imports(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    pkg = site / "lib_a"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        "import os\nfrom lib_b import x\n"
        "try:\n    import chardet\nexcept ImportError:\n    chardet = None\n")
    (pkg / "lazy.py").write_text(
        "def f():\n    import importlib\n    return importlib.import_module('zstandard.sub')\n")
    (site / "single.py").write_text("'''\nfrom the docs\n'''\n")
    (site / "lib_a-1.0.dist-info").mkdir()
    out = subprocess.run(scan_command(sys.executable, [str(site)]), capture_output=True,
                         text=True, check=True).stdout
    names = RunnerNames.from_json(out)
    assert {"lib_a", "single"} <= names.provides
    assert {"os", "lib_b", "chardet", "zstandard", "importlib"} <= names.imports
    assert "os" not in names.guarded and {"chardet", "lib_a"} <= names.guarded


def test_only_folders_with_python_code_count_as_root_modules(tmp_path: Path) -> None:
    """A folder of static assets named like a module the runner imports (``js``: urllib3 asks
    for it under Pyodide) is no module of the repo's; one with code, at any of two levels, is.
    The sandbox's listing script says the same as the host's."""
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "app.js").write_text("")
    (tmp_path / "chardet" / "sub").mkdir(parents=True)
    (tmp_path / "chardet" / "sub" / "x.py").write_text("")
    (tmp_path / "app.py").write_text("")
    (tmp_path / "README.md").write_text("")
    assert root_entries(tmp_path) == ["README.md", "app.py", "chardet"]
    out = subprocess.run([sys.executable, "-I", "-S", "-c", LIST_ROOT, str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == root_entries(tmp_path)
