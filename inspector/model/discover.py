"""Finding every run under a path, in either format, tolerating bad files."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
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


@dataclass(frozen=True, slots=True)
class RunLocation:
    """Where one or more runs live on disk: ``kind`` is ``run`` (our run folder),
    ``repogenesis`` (a RepoGenesis output folder) or ``report`` (a single report file)."""

    kind: str
    path: Path


@dataclass
class Located:
    """Run locations under a path, the tasks found next to them, and problems met."""

    root: Path
    locations: list[RunLocation] = field(default_factory=list)
    issues: list[LoadIssue] = field(default_factory=list)
    tasks_root: Path | None = None


def locate_runs(path: Path, tasks_root: Path | None = None) -> Located:
    """Every run location under ``path`` without loading any run (cheap: one directory walk
    that never enters sample, repo or predictions folders)."""
    path = path.expanduser()
    found = Located(root=path)
    if not path.exists():
        found.issues.append(LoadIssue(path, "", "does not exist"))
        return found
    found.tasks_root = tasks_root or find_tasks_root(path)
    if path.is_file() and path.name == runformat.RUN_FILE:
        path = path.parent
    if path.is_file():
        if repogenesis.REPORT_RE.match(path.name) or path.suffix == ".json":
            found.locations.append(RunLocation("report", path))
        else:
            found.issues.append(LoadIssue(path, "", "not a run folder or report file"))
        return found
    _walk(path, found, 0)
    return found


def load_location(loc: RunLocation, tasks: dict[str, Task] | None = None
                  ) -> tuple[list[Run], list[LoadIssue]]:
    """Load the runs at one location; a fatal problem comes back as an issue, never raised."""
    if loc.kind == "run":
        load = lambda: _one(runformat.load_run(loc.path))  # noqa: E731
    elif loc.kind == "repogenesis":
        load = lambda: repogenesis.load_output_dir(loc.path, tasks)  # noqa: E731
    else:
        load = lambda: _one(repogenesis.load_report(loc.path, tasks))  # noqa: E731
    try:
        return load()
    except LoadError as exc:
        return [], [exc.issue]
    except (OSError, RecursionError, MemoryError) as exc:  # pragma: no cover - defensive
        return [], [LoadIssue(loc.path, "", f"cannot read: {exc}")]


def duplicate_id_issues(root: Path, run_ids: Iterable[str]) -> list[LoadIssue]:
    """A warning for every run id found more than once."""
    counts = Counter(run_ids)
    return [LoadIssue(root, "", f"run id {run_id!r} found {n} times", "warning")
            for run_id, n in counts.items() if n > 1]


def discover_runs(path: Path, tasks_root: Path | None = None) -> Discovery:
    """Every run under ``path`` (a run folder, a RepoGenesis output folder, a report file, or
    any folder containing those), sorted by run id."""
    located = locate_runs(path, tasks_root)
    found = Discovery(root=located.root, issues=list(located.issues))
    if located.tasks_root is not None:
        found.tasks, task_issues = load_tasks(located.tasks_root)
        found.issues.extend(i for i in task_issues if i.severity == "error")
    for loc in located.locations:
        runs, issues = load_location(loc, found.tasks)
        found.runs.extend(runs)
        found.issues.extend(issues)
    found.runs.sort(key=lambda r: r.id)
    found.issues.extend(duplicate_id_issues(located.root, (r.id for r in found.runs)))
    return found


def _one(result: tuple[Run, list[LoadIssue]]) -> tuple[list[Run], list[LoadIssue]]:
    return [result[0]], result[1]


def _walk(folder: Path, found: Located, depth: int) -> None:
    if runformat.is_run_dir(folder):
        found.locations.append(RunLocation("run", folder))
        return
    if repogenesis.is_repogenesis_dir(folder):
        found.locations.append(RunLocation("repogenesis", folder))
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
