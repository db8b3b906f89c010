"""Suite reach (issue 27): what of the repo a golden suite may import, decided from its imports,
and which repo-root modules would shadow the test runner (real task suites, real scans)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.model.benchmark.tasks import load_tasks
from inspector.services.suite.reach import (
    BLACK_BOX,
    LIBRARIES,
    WHITE_BOX,
    RunnerNames,
    classify,
    list_root_script,
    module_names,
    root_entries,
    scan_command,
    shadowing,
    suite_imports,
    suite_own_names,
)

ROOT = Path(__file__).resolve().parents[2]
BASE = frozenset({"pytest", "_pytest", "requests", "urllib3", "httpx"})
RUNNER = RunnerNames(BASE | {"jwt", "jsonschema"}, BASE,
                     frozenset({"chardet", "brotli", "simplejson", "requests"}))


@pytest.fixture(scope="module")
def tasks():  # type: ignore[no-untyped-def]
    found, _ = load_tasks(ROOT / "sample_runs" / "tasks")
    return found


def _reach(task, root: list[str], runner: RunnerNames = RUNNER):  # type: ignore[no-untyped-def]
    return classify(suite_imports(task.tests_dir), suite_own_names(task.tests_dir), runner,
                    root)


@pytest.mark.parametrize("name", ["eve", "todo-service", "WebPan", "Multilingual",
                                  "django-rest-framework-crud"])
def test_http_only_suites_of_the_real_tasks_are_black_box(tasks, name: str) -> None:  # type: ignore[no-untyped-def]
    # a generated repo with the usual root modules changes nothing
    reach = _reach(tasks[name], ["app.py", "models.py", "requirements.txt", "start.sh"])
    assert reach.kind == BLACK_BOX, reach
    assert not reach.root and not reach.site_packages


@pytest.mark.parametrize(("name", "libraries"), [("UserManagement_2", ("jwt",)),
                                                 ("synapse", ("jsonschema",)),
                                                 ("StructuredDataConvertor", ("pandas",))])
def test_a_suite_using_other_libraries_has_the_repos_environment_behind_them(
        tasks, name: str, libraries: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    """A task's test requirement (the runner's own) or a library nothing declares: as in the
    stock single image, the repo's environment stands behind it (pandas finds the repo's
    openpyxl), never the repo root."""
    reach = _reach(tasks[name], ["app.py", "pandas.py", "start.sh"])
    assert reach.kind == LIBRARIES and reach.libraries == libraries, reach
    assert not reach.root and reach.site_packages
    assert "requests" in reach.preload


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


def _dist(site: Path, name: str, files: dict[str, str], requires: tuple[str, ...] = ()) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n"
    meta += "".join(f"Requires-Dist: {r}\n" for r in requires)
    (info / "METADATA").write_text(meta)
    for rel, text in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    (info / "RECORD").write_text("".join(f"{rel},,\n" for rel in files)
                                 + f"{info.name}/METADATA,,\n")


def test_the_scan_follows_the_base_and_finds_its_optional_imports(tmp_path: Path) -> None:
    """A real (empty) venv with hand-made distributions: the base (``client``) and what it
    requires (``helperlib``) are scanned, including imports in try blocks and by name; a
    task's extra library (``extra``) is provided but not base, and its imports do not count."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    [site] = venv.glob("lib/python*/site-packages")
    _dist(site, "client", {
        "client/__init__.py": "import os\nfrom helperlib import x\n"
                              "try:\n    import chardet\nexcept ImportError:\n    pass\n",
        "client/lazy.py": "def f():\n    import importlib\n"
                          "    return importlib.import_module('zstandard.sub')\n"},
          requires=("helperlib>=1", "docs-only; extra == 'docs'"))
    _dist(site, "helperlib", {"helperlib.py": "x = 1\nimport brotli\n"})
    _dist(site, "extra", {"extra.py": "import openpyxl\n"})
    out = subprocess.run(scan_command(str(venv / "bin" / "python"), [str(site)],
                                      base=("client",)),
                         capture_output=True, text=True, check=True).stdout
    names = RunnerNames.from_json(out)
    assert {"client", "helperlib", "extra"} <= names.provides
    assert names.base == {"client", "helperlib"}
    assert {"os", "helperlib", "chardet", "zstandard", "brotli"} <= names.imports
    assert "openpyxl" not in names.imports
    assert "os" not in names.guarded and {"chardet", "client", "brotli"} <= names.guarded
    assert "extra" not in names.guarded


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
    out = subprocess.run([sys.executable, "-I", "-S", "-c", list_root_script(), str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == root_entries(tmp_path)
