"""Loading benchmark tasks from ``<root>/repo/<task>/`` (RepoGenesis layout)."""

from __future__ import annotations

import ast
from pathlib import Path

from inspector.model.benchmark.task import Task
from inspector.model.readme.reader import extract_endpoints, extract_framework, extract_port
from inspector.model.readme.spec_endpoints import extract_spec_endpoints
from inspector.model.suite.java_tests import java_test_notes, java_tests
from inspector.model.untrusted.errors import LoadError, LoadIssue
from inspector.model.untrusted.files import read_regular

MAX_README_BYTES = 2 * 1024 * 1024


def tasks_dir(root: Path) -> Path:
    """The folder holding one sub-folder per task: ``root/repo`` if present, else ``root``."""
    return root / "repo" if (root / "repo").is_dir() else root


def count_tests(tests_dir: Path) -> int | None:
    """Number of ``test_*`` functions/methods in a pytest suite (an AST count, like the paper)."""
    if not tests_dir.is_dir():
        return None
    count = 0
    for file in sorted(tests_dir.rglob("*.py")):
        if not (file.name.startswith("test_") or file.name.endswith("_test.py")):
            continue
        try:
            tree = ast.parse(file.read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, ValueError, OSError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                    node.name.startswith("test"):
                count += 1
    return count


def load_task(task_root: Path, issues: list[LoadIssue]) -> Task | None:
    """Load one task folder; returns None (with an issue) when it has no README."""
    readme_path = task_root / "README.md"
    try:
        raw = read_regular(readme_path, MAX_README_BYTES, missing_ok=True, truncate=True)
    except LoadError as exc:  # a FIFO, a device, unreadable: said, never waited on
        issues.append(exc.issue)
        return None
    if raw is None:
        issues.append(LoadIssue(task_root, "", "no README.md: not a task folder", "warning"))
        return None
    readme = raw.decode("utf-8", errors="replace")
    if (task_root / "pom.xml").is_file() or (task_root / "src" / "test").is_dir():
        language = "java"
        tests_path = task_root / "src" / "test" / "java"
        found = java_tests(tests_path, task_root) if tests_path.is_dir() else None
        expected = sum(t.count for t in found) if found is not None else None
        test_notes = tuple(java_test_notes(found or []))
    else:
        language = "python"
        tests_path = task_root / "tests"
        expected = count_tests(tests_path)
        test_notes = ()
    stock = extract_endpoints(readme)
    return Task(
        name=task_root.name,
        language=language,
        framework=_framework(readme, task_root),
        port=extract_port(readme),
        readme=readme,
        root=task_root,
        tests_dir=tests_path if tests_path.is_dir() else None,
        expected_tests=expected,
        endpoints=tuple(stock),
        test_notes=test_notes,
        spec_endpoints=tuple(extract_spec_endpoints(readme, stock)),
    )


_POM_FRAMEWORKS = (("spring-boot", "springboot"), ("io.javalin", "javalin"),
                   ("io.micronaut", "micronaut"), ("io.quarkus", "quarkus"),
                   ("com.sparkjava", "spark"))


def _framework(readme: str, task_root: Path) -> str:
    """The README's framework; for a Java task whose README names none, the golden pom's."""
    found = extract_framework(readme)
    pom = task_root / "pom.xml"
    if found == "any" and pom.is_file():
        text = pom.read_text(encoding="utf-8", errors="replace")
        return next((fw for marker, fw in _POM_FRAMEWORKS if marker in text), found)
    return found


def load_tasks(root: Path) -> tuple[dict[str, Task], list[LoadIssue]]:
    """All tasks under ``root`` (or ``root/repo``), keyed by name, plus any problems found."""
    issues: list[LoadIssue] = []
    tasks: dict[str, Task] = {}
    base = tasks_dir(root)
    if not base.is_dir():
        issues.append(LoadIssue(root, "", "tasks folder does not exist"))
        return tasks, issues
    for child in sorted(base.iterdir()):
        if child.is_dir() and not child.name.startswith("."):
            task = load_task(child, issues)
            if task is not None:
                tasks[task.name] = task
    return tasks, issues
