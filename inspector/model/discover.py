"""Finding every run under a path, in either format, tolerating bad files."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import repogenesis, runformat
from .errors import LoadError, LoadIssue
from .run import Run
from .task import Task
from .tasks import load_tasks

MAX_DEPTH = 5
_SKIP_DIRS = {".git", "__pycache__", "node_modules", ".venv", "venv", "predictions", "samples",
              "repo", "tasks", ".pytest_cache", "target"}


@dataclass
class Discovery:
    """Runs found under a path, plus the problems met on the way (never raised)."""

    root: Path
    runs: list[Run] = field(default_factory=list)
    issues: list[LoadIssue] = field(default_factory=list)
    tasks: dict[str, Task] = field(default_factory=dict)

    @property
    def errors(self) -> list[LoadIssue]:
        return [i for i in self.issues if i.severity == "error"]


def find_tasks_root(start: Path, stop: Path | None = None) -> Path | None:
    """A ``tasks/`` folder (RepoGenesis ``repo/`` layout) next to ``start`` or above it."""
    here = start if start.is_dir() else start.parent
    for anchor in (here, *here.parents):
        for candidate in (anchor / "tasks", anchor):
            if (candidate / "repo").is_dir() and any((candidate / "repo").glob("*/README.md")):
                return candidate
        if stop is not None and anchor == stop:
            break
    return None


def discover_runs(path: Path, tasks_root: Path | None = None) -> Discovery:
    """Every run under ``path`` (a run folder, a RepoGenesis output folder, a report file, or
    any folder containing those), sorted by run id."""
    path = path.expanduser()
    found = Discovery(root=path)
    if not path.exists():
        found.issues.append(LoadIssue(path, "", "does not exist"))
        return found
    root_for_tasks = tasks_root or find_tasks_root(path)
    if root_for_tasks is not None:
        found.tasks, task_issues = load_tasks(root_for_tasks)
        found.issues.extend(i for i in task_issues if i.severity == "error")

    if path.is_file() and path.name == runformat.RUN_FILE:
        path = path.parent
    if path.is_file():
        if repogenesis.REPORT_RE.match(path.name) or path.suffix == ".json":
            _add(found, lambda: _one(repogenesis.load_report(path, found.tasks)))
        else:
            found.issues.append(LoadIssue(path, "", "not a run folder or report file"))
        return found
    _walk(path, found, 0)
    found.runs.sort(key=lambda r: r.id)
    ids: dict[str, int] = {}
    for r in found.runs:
        ids[r.id] = ids.get(r.id, 0) + 1
    for run_id, n in ids.items():
        if n > 1:
            found.issues.append(LoadIssue(path, "", f"run id {run_id!r} found {n} times",
                                          "warning"))
    return found


def _one(result: tuple[Run, list[LoadIssue]]) -> tuple[list[Run], list[LoadIssue]]:
    return [result[0]], result[1]


def _add(found: Discovery, load) -> None:  # type: ignore[no-untyped-def]
    try:
        runs, issues = load()
    except LoadError as exc:
        found.issues.append(exc.issue)
        return
    except (OSError, RecursionError, MemoryError) as exc:  # pragma: no cover - defensive
        found.issues.append(LoadIssue(Path(found.root), "", f"cannot read: {exc}"))
        return
    found.runs.extend(runs)
    found.issues.extend(issues)


def _walk(folder: Path, found: Discovery, depth: int) -> None:
    if runformat.is_run_dir(folder):
        _add(found, lambda: _one(runformat.load_run(folder)))
        return
    if repogenesis.is_repogenesis_dir(folder):
        _add(found, lambda: repogenesis.load_output_dir(folder, found.tasks))
        return
    if depth >= MAX_DEPTH:
        return
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError as exc:
        found.issues.append(LoadIssue(folder, "", f"cannot list: {exc.strerror or exc}"))
        return
    for child in children:
        if child.name in _SKIP_DIRS or child.name.startswith("."):
            continue
        _walk(child, found, depth + 1)
