"""Per task: spec complexity from the README and, with a reference implementation, the
RepoGenesis difficulty (:mod:`inspector.model.benchmark.difficulty`).

A task's reference implementation is ``ORACLE_DIR/<task>/`` when ``oracle_dir`` is given,
else an ``oracle/`` folder inside the task's own folder, when present.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inspector.model.benchmark.difficulty import Difficulty, classify, unclassified
from inspector.model.benchmark.task import Task
from inspector.model.readme.spec_complexity import SpecComplexity, spec_complexity
from inspector.services.analysis.oracle import oracle_metrics_for

ORACLE_SUBFOLDER = "oracle"


@dataclass(frozen=True, slots=True)
class TaskAnalysis:
    name: str
    language: str
    framework: str
    spec: SpecComplexity
    difficulty: Difficulty
    oracle: Path | None = None

    @property
    def tier(self) -> str:
        """The paper's label when there is an oracle, else the spec tier."""
        return self.difficulty.label if self.difficulty.score is not None else self.spec.tier

    def to_json(self) -> dict[str, object]:
        return {"task": self.name, "language": self.language, "framework": self.framework,
                "spec": self.spec.to_json(), "difficulty": self.difficulty.to_json(),
                "oracle": str(self.oracle) if self.oracle else None}


@dataclass(frozen=True, slots=True)
class TasksReport:
    tasks: tuple[TaskAnalysis, ...]
    issues: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"tasks": [t.to_json() for t in self.tasks], "issues": list(self.issues)}


def oracle_folder(task: Task, oracle_dir: Path | None) -> Path | None:
    """The reference implementation folder of ``task``, or None."""
    candidates = [oracle_dir / task.name] if oracle_dir is not None else []
    if task.root is not None:
        candidates.append(task.root / ORACLE_SUBFOLDER)
    return next((c for c in candidates if c.is_dir() and not c.is_symlink()), None)


def analyze_task(task: Task, oracle_dir: Path | None = None,
                 spec: SpecComplexity | None = None) -> TaskAnalysis:
    """``task``'s spec complexity (``spec`` when already scored) and difficulty."""
    spec = spec if spec is not None else spec_complexity(task.readme, task.name)
    folder = oracle_folder(task, oracle_dir)
    if folder is None:
        where = f" in {oracle_dir}" if oracle_dir is not None else ""
        difficulty = unclassified(f"no reference implementation{where}: the spec score "
                                  "is used")
    else:
        difficulty = classify(oracle_metrics_for(folder, task.language, task.readme))
    return TaskAnalysis(task.name, task.language, task.framework, spec, difficulty, folder)


def tasks_root_for(path: Path) -> Path:
    """The tasks folder ``path`` means: itself when it holds ``<task>/README.md`` (or
    ``repo/<task>/README.md``), its ``tasks/``, else the one its runs name (``run.json``'s
    ``tasks_root``, or a ``tasks/`` folder up the tree)."""
    from inspector.model.benchmark.tasks import tasks_dir
    from inspector.model.runs.discover import locate_runs

    if (path / "tasks").is_dir():
        return path / "tasks"
    base = tasks_dir(path)
    try:
        if any((d / "README.md").is_file() for d in base.iterdir() if d.is_dir()):
            return path
    except OSError:
        return path
    return locate_runs(path).tasks_root or path


def analyze_tasks(tasks_root: Path, oracle_dir: Path | None = None) -> TasksReport:
    """Every task under ``tasks_root`` (a RepoGenesis ``repo/`` folder or its parent)."""
    from inspector.model.benchmark.tasks import load_tasks

    tasks, issues = load_tasks(tasks_root)
    return TasksReport(tuple(analyze_task(t, oracle_dir) for t in tasks.values()),
                       tuple(str(i) for i in issues if i.severity == "error"))
