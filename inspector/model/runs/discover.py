"""Finding every run under a path, in either format, tolerating bad files."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model.benchmark.task import Task
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.readme.reader import extract_endpoints, extract_port
from inspector.model.repo.generated_repo import SKIP_DIRS
from inspector.model.results.run import Run
from inspector.model.runs import repogenesis, runformat, twins
from inspector.model.runs.ids import select_by_id
from inspector.model.runs.unreadable_run import unreadable_run
from inspector.model.untrusted.errors import LoadError, LoadIssue
from inspector.model.untrusted.files import read_regular
from inspector.model.untrusted.jsonfields import read_json

MAX_DEPTH = 5
_SKIP_DIRS = SKIP_DIRS | {"predictions", "samples", "repo", "tasks"}
"""Folders never searched for runs: a generated repo's non-code folders, and the parts of a
run or task tree that hold repositories and tasks rather than runs."""


@dataclass
class Discovery:
    """Runs found under a path, plus the problems met on the way (never raised)."""

    root: Path
    runs: list[Run] = field(default_factory=list)
    issues: list[LoadIssue] = field(default_factory=list)
    tasks: dict[str, Task] = field(default_factory=dict)
    tasks_found: TasksFound | None = None
    # stock-layout copies of runs in ``runs`` (model/twins.py): the same evaluations, kept
    # out of ``runs`` so nothing counts them twice
    twins: list[Twin] = field(default_factory=list)

    @property
    def errors(self) -> list[LoadIssue]:
        return [i for i in self.issues if i.severity == "error"]

    @property
    def all_runs(self) -> list[Run]:
        """``runs`` and their stock twins: what a run id or sample id may name."""
        return sorted([*self.runs, *(t.run for t in self.twins)], key=lambda r: r.id)

    def named(self, spec: str | None) -> list[Run]:
        """The runs ``spec`` names (:func:`~inspector.model.runs.ids.select_by_id`; None: every
        run of ``runs``). A stock twin is named by its own id; when a part of an id fits a
        run and its twin, the run stands for both."""
        if spec is None:
            return list(self.runs)
        picked = select_by_id(spec, self.all_runs, lambda r: r.id)
        chosen = {id(r) for r in picked}
        return [r for r in picked
                if not any(t.run is r and id(t.of) in chosen for t in self.twins)]

    def twins_of(self, run: Run) -> list[Twin]:
        """The stock-layout copies of ``run``."""
        return [t for t in self.twins if t.of is run]


@dataclass(frozen=True, slots=True)
class Twin:
    """``run`` (stock layout) is run ``of`` in another format; ``how`` it was linked:
    ``recorded`` (run.json names it) or ``content`` (see :mod:`inspector.model.runs.twins`)."""

    run: Run
    of: Run
    how: str


MAX_UP = 3
"""How many folders above the opened one discovery looks for a tasks folder."""
_LOOSE_ENDPOINT = re.compile(r"\b(?:GET|POST|PUT|DELETE|PATCH)\b\W{0,6}/\w", re.I)
_MAX_README = 512 * 1024


def is_task_dir(folder: Path) -> bool:
    """Positive evidence that ``folder`` is a benchmark task: a README giving a port and
    endpoints, and a test suite (``tests/``) or a Maven project (``pom.xml``)."""
    try:
        if not ((folder / "tests").is_dir() or (folder / "pom.xml").is_file()):
            return False
        raw = read_regular(folder / "README.md", _MAX_README, truncate=True)
    except (OSError, LoadError):
        return False
    readme = (raw or b"").decode("utf-8", errors="replace")
    return extract_port(readme) is not None and (
        _LOOSE_ENDPOINT.search(readme) is not None or bool(extract_endpoints(readme)))


def is_tasks_root(candidate: Path) -> bool:
    """Whether ``candidate/repo/`` holds benchmark tasks: at least one task folder, and task
    folders are at least half of its sub-folders that have a README."""
    repo = candidate / "repo"
    try:
        folders = [p for p in repo.iterdir() if p.is_dir() and (p / "README.md").is_file()]
    except OSError:
        return False
    tasks = sum(is_task_dir(p) for p in folders)
    return tasks > 0 and 2 * tasks >= len(folders)


def is_repository_root(folder: Path) -> bool:
    """A repository boundary: the folder holds ``.git`` (a folder, or a file for worktrees).
    A folder that cannot be looked into counts as one (nothing is looked for above it)."""
    try:
        return (folder / ".git").exists()
    except OSError:
        return True


@dataclass(frozen=True, slots=True)
class TasksFound:
    """Where the tasks were found and how (shown to the user): ``how`` is ``given``,
    ``run.json`` (a run of ours recorded it; ``via`` is that run.json) or ``walked up``
    (``via`` is where the search started)."""

    path: Path
    how: str
    via: Path | None = None

    def describe(self, show: Callable[[Path], str] = str) -> str:
        """``tasks: <path> (found via <run.json> tasks_root | walked up from <path>)``."""
        if self.how == "run.json" and self.via is not None:
            why = f"found via {show(self.via)} tasks_root"
        elif self.how == "walked up" and self.via is not None:
            why = f"walked up from {show(self.via)}"
        else:
            why = self.how
        return f"tasks: {show(self.path)} ({why})"


def search_tasks_root(start: Path, stop: Path | None = None, max_up: int = MAX_UP
                      ) -> TasksFound | None:
    """A ``tasks/`` folder (RepoGenesis ``repo/`` layout) at ``start`` or up to ``max_up``
    folders above it, never above ``stop`` or a repository boundary (a folder holding
    ``.git``: its own tasks are looked at, not its parent's)."""
    here = start if start.is_dir() else start.parent
    for level, anchor in enumerate((here, *here.parents)):
        for candidate in (anchor / "tasks", anchor):
            if is_tasks_root(candidate):
                return TasksFound(candidate, "walked up", start)
        if anchor == stop or is_repository_root(anchor) or level >= max_up:
            break
    return None


def find_tasks_root(start: Path, stop: Path | None = None) -> Path | None:
    """The path of :func:`search_tasks_root`, or None."""
    found = search_tasks_root(start, stop)
    return found.path if found else None


def _recorded_tasks_root(locations: list[RunLocation]) -> TasksFound | None:
    """The tasks folder a run of ours recorded (``run.json`` ``source.tasks_root``), when it
    still holds tasks."""
    for loc in locations:
        if loc.kind != "run":
            continue
        try:
            source = read_json(loc.path / runformat.RUN_FILE).get("source") or {}
        except (LoadError, AttributeError):
            continue
        raw = source.get("tasks_root") if isinstance(source, dict) else None
        if not isinstance(raw, str) or not raw:
            continue
        path = (loc.path / raw).resolve() if not Path(raw).is_absolute() else Path(raw)
        if is_tasks_root(path):
            return TasksFound(path, "run.json", loc.path / runformat.RUN_FILE)
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
    tasks_found: TasksFound | None = None


def locate_runs(path: Path, tasks_root: Path | None = None) -> Located:
    """Every run location under ``path`` without loading any run (cheap: one directory walk
    that never enters sample, repo or predictions folders), and the tasks folder: the one
    given, else the one a run of ours recorded, else one found at or above ``path`` (see
    :func:`search_tasks_root`)."""
    path = path.expanduser()
    found = Located(root=path)
    if not path.exists():
        found.issues.append(LoadIssue(path, "", "does not exist"))
        return found
    start = path
    if path.is_file() and path.name == runformat.RUN_FILE:
        path = path.parent
    if not path.is_dir():  # a file: a FIFO or device named like a report is refused unread
        if repogenesis.REPORT_RE.match(path.name) or path.suffix == ".json":
            found.locations.append(RunLocation("report", path))
        else:
            found.issues.append(LoadIssue(path, "", "not a run folder or report file"))
    else:
        _walk(path, found, 0)
    if tasks_root is not None:
        found.tasks_found = TasksFound(tasks_root, "given")
    else:
        found.tasks_found = _recorded_tasks_root(found.locations) or search_tasks_root(start)
    found.tasks_root = found.tasks_found.path if found.tasks_found else None
    return found


def load_location(loc: RunLocation, tasks: dict[str, Task] | None = None,
                  opened: Path | None = None) -> tuple[list[Run], list[LoadIssue]]:
    """Load the runs at one location; a fatal problem comes back as an issue, never raised.
    ``opened`` is the folder the user opened (repo paths may point inside it)."""
    load: Callable[[], tuple[list[Run], list[LoadIssue]]]
    if loc.kind == "run":
        load = lambda: _one(runformat.load_run(loc.path, opened))  # noqa: E731
    elif loc.kind == "repogenesis":
        load = lambda: repogenesis.load_output_dir(loc.path, tasks, opened)  # noqa: E731
    else:
        load = lambda: _one(repogenesis.load_report(loc.path, tasks, opened))  # noqa: E731
    try:
        return load()
    except LoadError as exc:  # the run's own file: listed as an unreadable run, not left out
        return [_unreadable_run(loc, exc.issue)], [exc.issue]
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
    found = Discovery(root=located.root, issues=list(located.issues),
                      tasks_found=located.tasks_found)
    if located.tasks_root is not None:
        found.tasks, task_issues = load_tasks(located.tasks_root)
        found.issues.extend(i for i in task_issues if i.severity == "error")
    for loc in located.locations:
        runs, issues = load_location(loc, found.tasks, located.root)
        found.runs.extend(runs)
        found.issues.extend(issues)
    found.runs.sort(key=lambda r: r.id)
    found.issues.extend(duplicate_id_issues(located.root, (r.id for r in found.runs)))
    _split_twins(found)
    return found


def _unreadable_run(loc: RunLocation, issue: LoadIssue) -> Run:
    if loc.kind == "run":
        return unreadable_run(issue, loc.path, "genesis-inspector")
    if loc.kind == "repogenesis":
        return unreadable_run(issue, loc.path, repogenesis.FORMAT)
    m = repogenesis.REPORT_RE.match(loc.path.name)
    return unreadable_run(issue, loc.path.parent, repogenesis.FORMAT, m.group(1) if m else None)


def _split_twins(found: Discovery) -> None:
    """Move the stock-layout twins of runs of ours from ``runs`` to ``twins``."""
    if not any(r.source.format == twins.STOCK for r in found.runs):
        return
    by_key = {str(i): r for i, r in enumerate(found.runs)}
    links, mismatches = twins.pair(
        twins.Candidate(k, r.source.format == twins.STOCK, twins.content_key(r),
                        r.source.path, () if r.source.format == twins.STOCK
                        else twins.recorded_twins(r.source.path), r.id)
        for k, r in by_key.items())
    for link in links:
        found.twins.append(Twin(by_key[link.twin], by_key[link.of], link.how))
    gone = {id(t.run) for t in found.twins}
    found.runs = [r for r in found.runs if id(r) not in gone]
    for m in mismatches:
        found.issues.append(LoadIssue(
            by_key[m.of].source.path, twins.TWINS_FIELD,
            f"records {m.path} as its stock-layout copy, but that report's results differ; "
            "shown as a run of its own", "warning"))


def _one(result: tuple[Run, list[LoadIssue]]) -> tuple[list[Run], list[LoadIssue]]:
    return [result[0]], result[1]


def _unreadable(folder: Path, exc: OSError) -> LoadIssue:
    reason = (exc.strerror or str(exc)).lower()
    return LoadIssue(folder, "", f"cannot read this folder ({reason}); skipped")


def _walk(folder: Path, found: Located, depth: int) -> None:
    try:
        if runformat.is_run_dir(folder):
            found.locations.append(RunLocation("run", folder))
            return
        if repogenesis.is_repogenesis_dir(folder):
            found.locations.append(RunLocation("repogenesis", folder))
            return
        if depth >= MAX_DEPTH:
            return
        children = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError as exc:
        found.issues.append(_unreadable(folder, exc))
        return
    for child in children:
        if child.name in _SKIP_DIRS or child.name.startswith(".") \
                or child.name.endswith(".egg-info"):
            continue
        _walk(child, found, depth + 1)
