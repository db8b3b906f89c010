"""file:line references in tracebacks, resolved inside the generated repo or the task only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.services.repo.references import MAX_REFS, Ref, find_refs, resolve_path

FORGE = "repo_readme_1118_forge_m1-large_Python"


@pytest.fixture
def roots(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(repo, task, outside): a generated repo, a task with golden tests, and a folder
    outside both that must never be referenced."""
    repo, task, outside = tmp_path / "repo", tmp_path / "task", tmp_path / "outside"
    for path, text in {
        repo / "app" / "routes.py": "def create():\n    pass\n",
        repo / "app" / "__init__.py": "",
        repo / "main.py": "import app\n",
        repo / "src" / "main" / "java" / "com" / "shop" / "OrderService.java": "class O {}\n",
        task / "tests" / "test_x.py": "def test_y():\n    assert False\n",
        task / "tests" / "conftest.py": "",
        outside / "secret.py": "TOKEN = 'do not show'\n",
        outside / "Leak.java": "class Leak {}\n",
    }.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return repo, task, outside


def refs(text: str, roots: tuple[Path, Path, Path]) -> list[tuple[str, str, int]]:
    repo, task, _ = roots
    return [(r.root, r.rel, r.line) for r in find_refs(text, repo, task)]


# ----------------------------------------------------------------------------- formats

def test_python_traceback_frame_resolves_into_the_repo(roots):
    text = ('Traceback (most recent call last):\n'
            '  File "/tmp/xyz/work/app/routes.py", line 12, in create\n'
            '    raise KeyError("completed")\n'
            "KeyError: 'completed'\n")
    found = find_refs(text, roots[0], roots[1])
    assert found == [Ref("repo", "app/routes.py", 12,
                         'File "/tmp/xyz/work/app/routes.py", line 12')]
    assert found[0].label == "repo: app/routes.py:12"


def test_pytest_location_resolves_into_the_task(roots):
    text = "tests/test_x.py:30: in test_y\n    assert resp.status_code == 201\nE   assert 500"
    found = find_refs(text, roots[0], roots[1])
    assert [(r.root, r.rel, r.line) for r in found] == [("task", "tests/test_x.py", 30)]
    assert found[0].label == "task: tests/test_x.py:30"


def test_absolute_pytest_location_drops_the_temp_prefix(roots):
    text = "/tmp/pytest-of-ci/run3/tests/test_x.py:7: AssertionError"
    assert refs(text, roots) == [("task", "tests/test_x.py", 7)]


def test_compiler_style_location_with_column(roots):
    assert refs("app/routes.py:3:5: E999 SyntaxError", roots) == [("repo", "app/routes.py", 3)]


def test_windows_path_in_a_traceback(roots):
    text = 'File "C:\\Users\\ci\\work\\app\\routes.py", line 4, in create'
    assert refs(text, roots) == [("repo", "app/routes.py", 4)]


def test_java_stack_frame_resolves_by_file_name(roots):
    text = ("java.lang.IllegalStateException: stock\n"
            "\tat com.shop.OrderService.place(OrderService.java:42)\n"
            "\tat com.shop.Api.post(Api.java:10)\n")
    assert refs(text, roots) == [
        ("repo", "src/main/java/com/shop/OrderService.java", 42)]


def test_a_test_file_in_both_roots_is_the_golden_one(roots):
    # the harness replaces the repo's tests/ with the task's before running pytest, so a
    # traceback's tests/… path is the golden test file, not the agent's own copy
    repo, task, _ = roots
    (repo / "tests").mkdir()
    (repo / "tests" / "test_x.py").write_text("")
    (repo / "app.py").write_text("")
    (task / "app.py").write_text("")
    assert refs("tests/test_x.py:2: in test_y", roots) == [("task", "tests/test_x.py", 2)]
    # other files in both roots go to the repo first
    assert refs('File "/w/app.py", line 3', roots) == [("repo", "app.py", 3)]


def test_missing_roots_are_allowed(roots):
    repo, task, _ = roots
    text = 'File "/w/app/routes.py", line 1\ntests/test_x.py:2: in t\n(OrderService.java:3)'
    assert [(r.root, r.rel) for r in find_refs(text, None, task)] == \
        [("task", "tests/test_x.py")]
    assert [(r.root, r.rel) for r in find_refs(text, repo, None)] == \
        [("repo", "app/routes.py"), ("repo", "src/main/java/com/shop/OrderService.java")]
    assert find_refs(text, None, None) == []


# ----------------------------------------------------------------------------- safety

def test_a_path_outside_both_roots_is_dropped(roots):
    text = ('  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode\n'
            '  File "/tmp/other/outside/secret.py", line 1\n'
            "site-packages/flask/app.py:1498: in wsgi_app\n")
    assert refs(text, roots) == []


def test_dot_dot_components_are_refused(roots):
    repo, task, _ = roots
    text = ('File "/w/app/../app/routes.py", line 3\n'
            "tests/../../outside/secret.py:1: in x\n"
            "../outside/secret.py:2\n")
    assert refs(text, roots) == []
    assert resolve_path("../outside/secret.py", {"repo": repo}) is None
    assert resolve_path("app/../../outside/secret.py", {"repo": repo}) is None
    assert resolve_path("..\\outside\\secret.py", {"repo": repo}) is None


def test_symlinked_file_pointing_outside_is_not_resolved(roots):
    repo, task, outside = roots
    (repo / "app" / "leak.py").symlink_to(outside / "secret.py")
    text = 'File "/w/app/leak.py", line 1, in <module>\napp/leak.py:1: in x'
    assert refs(text, roots) == []
    assert resolve_path("app/leak.py", {"repo": repo, "task": task}) is None


def test_symlinked_folder_pointing_outside_is_not_resolved(roots):
    repo, task, outside = roots
    (repo / "vendor").symlink_to(outside, target_is_directory=True)
    (task / "tests" / "data").symlink_to(outside, target_is_directory=True)
    text = 'File "/w/vendor/secret.py", line 1\ntests/data/secret.py:1: in x'
    assert refs(text, roots) == []


def test_symlinked_java_file_is_not_indexed(roots):
    repo, _, outside = roots
    (repo / "Leak.java").symlink_to(outside / "Leak.java")
    (repo / "linked").symlink_to(outside, target_is_directory=True)
    assert refs("\tat x.Leak.run(Leak.java:1)", roots) == []


def test_symlink_staying_inside_the_repo_is_resolved(roots):
    repo, _, _ = roots
    (repo / "alias.py").symlink_to(repo / "app" / "routes.py")
    assert refs('File "/w/alias.py", line 2', roots) == [("repo", "alias.py", 2)]


def test_folders_are_not_references(roots):
    assert refs("app.d:3", roots) == []
    repo, _, _ = roots
    (repo / "pkg.py").mkdir()
    assert refs('File "/w/pkg.py", line 1', roots) == []


def test_resolve_path_prefers_the_longest_existing_tail(roots):
    repo, task, _ = roots
    (repo / "routes.py").write_text("")
    assert resolve_path("/tmp/x/app/routes.py", {"repo": repo}) == ("repo", "app/routes.py")
    assert resolve_path("/tmp/x/other/routes.py", {"repo": repo}) == ("repo", "routes.py")
    assert resolve_path("./app/routes.py", {"repo": repo}) == ("repo", "app/routes.py")
    assert resolve_path("", {"repo": repo}) is None
    assert resolve_path("/", {"repo": repo}) is None
    assert resolve_path("app/routes.py", {"repo": None, "task": task}) is None


# ----------------------------------------------------------------------------- list shape

def test_duplicates_are_removed(roots):
    text = ('File "/a/app/routes.py", line 12\n'
            'File "/b/app/routes.py", line 12\n'
            "app/routes.py:12: in create\n"
            'File "/a/app/routes.py", line 13\n')
    assert refs(text, roots) == [("repo", "app/routes.py", 12), ("repo", "app/routes.py", 13)]


def test_order_of_appearance_is_kept_across_formats(roots):
    text = ("tests/test_x.py:30: in test_y\n"
            '  File "/w/app/routes.py", line 5, in create\n'
            "\tat com.shop.OrderService.place(OrderService.java:42)\n"
            '  File "/w/main.py", line 1, in <module>\n'
            "tests/conftest.py:9: in fixture\n")
    assert refs(text, roots) == [
        ("task", "tests/test_x.py", 30),
        ("repo", "app/routes.py", 5),
        ("repo", "src/main/java/com/shop/OrderService.java", 42),
        ("repo", "main.py", 1),
        ("task", "tests/conftest.py", 9),
    ]


def test_many_references_are_capped(roots):
    text = "\n".join(f'File "/w/app/routes.py", line {i}' for i in range(1, 80))
    found = refs(text, roots)
    assert len(found) == MAX_REFS
    assert found == [("repo", "app/routes.py", i) for i in range(1, MAX_REFS + 1)]


def test_cap_keeps_the_first_references_of_the_text(roots):
    head = "\n".join(f"tests/test_x.py:{i}: in test_y" for i in range(1, 6))
    frames = "\n".join(f'File "/w/app/routes.py", line {i}' for i in range(1, 80))
    found = refs(f"{head}\n{frames}", roots)
    assert len(found) <= MAX_REFS
    assert found[:5] == [("task", "tests/test_x.py", i) for i in range(1, 6)]


def test_text_without_references(roots):
    assert refs("", roots) == []
    assert refs("AssertionError: assert 500 == 201", roots) == []
    assert refs("listening on 127.0.0.1:18080", roots) == []


# ----------------------------------------------------------------------------- bundled data

def test_bundled_failing_test_traceback_points_into_the_task_tests(sample_runs: Path):
    sample = sample_runs / "runs" / FORGE / "samples" / "todo-service" / "0"
    result = json.loads((sample / "result.json").read_text())
    failing = [c for c in result["tests"]["cases"] if c["outcome"] in ("failed", "error")]
    assert failing
    repo = (sample / result["repo"]["path"]).resolve()
    task = sample_runs / "tasks" / "repo" / "todo-service"
    assert repo.is_dir()
    for case in failing:
        found = find_refs(f"{case['message']}\n{case['traceback']}", repo, task)
        assert found, case["id"]
        assert all(r.root == "task" and r.rel.startswith("tests/") for r in found), found
        assert all((task / r.rel).is_file() for r in found)
    first = failing[0]
    found = find_refs(f"{first['message']}\n{first['traceback']}", repo, task)
    assert (found[0].root, found[0].rel, found[0].line) == ("task", "tests/test_todos.py", 30)
