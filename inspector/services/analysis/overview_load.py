"""Building an :class:`~.overview.Overview` from a folder (the CLI, the exports) or from the
app's catalog: runs from the index, tasks from the tasks folder (or as a run recorded them),
labels from the labels folder."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model.benchmark.task import Task
from inspector.model.labels.rollup import DEFAULT_VIEW
from inspector.services.analysis.outcomes import RunOutcomes
from inspector.services.analysis.overview import (
    LabelInput,
    Overview,
    Step,
    analyze_used_tasks,
    build_overview,
)
from inspector.services.analysis.source import outcomes_of
from inspector.services.catalog.index import Catalog


@dataclass
class LabelsRead:
    """What was found in a labels folder: the input (None: no label file) and the problems
    of unreadable files."""

    input: LabelInput | None
    problems: list[str] = field(default_factory=list)


def read_labels(folder: Path) -> LabelsRead:
    """The labels of ``folder`` (``labels/`` with ``annotators/*.json``). Raises
    :class:`~inspector.model.untrusted.errors.LoadError` naming the taxonomy file when it is
    invalid."""
    from inspector.services.labels.store import LabelStore

    store = LabelStore(folder)
    taxonomy = store.taxonomy()
    loaded = store.load()
    problems = [str(p) for p in loaded.problems]
    if not loaded.labels.files and loaded.labels.adjudication is None:
        return LabelsRead(None, problems)
    return LabelsRead(LabelInput(loaded.labels, taxonomy, folder), problems)


def labels_folder_for(root: Path, explicit: Path | None = None) -> Path:
    """``explicit``, else the labels folder of ``root`` (``find_labels_dir``)."""
    from inspector.services.labels.store import find_labels_dir

    return explicit if explicit is not None else find_labels_dir(root)


def _tasks_for(catalog: Catalog, runs: list[RunOutcomes]) -> dict[str, Task]:
    """The tasks folder's tasks, plus any task a run recorded that the folder lacks."""
    tasks = catalog.tasks()
    missing = {s.task for r in runs for s in r.samples} - set(tasks)
    if missing:
        entries = {r.key: r for r in catalog.runs()}
        for run in runs:
            for name in sorted(missing & {s.task for s in run.samples}):
                task = catalog.task(name, entries.get(run.key))
                if task is not None and task.readme:
                    tasks[name] = task
                    missing.discard(name)
    return tasks


def overview_from_catalog(catalog: Catalog, root: Path, labels: LabelInput | None = None,
                          oracle_dir: Path | None = None, *, step: Step | None = None,
                          cancelled: Callable[[], bool] | None = None,
                          view: str = DEFAULT_VIEW) -> Overview:
    """The overview of every run in ``catalog`` (which the caller has refreshed); label
    tables counted in ``view`` (:mod:`inspector.model.labels.rollup`)."""
    started = time.perf_counter()
    if step is not None:
        step("reading outcomes", 0, 1)
    entries = catalog.runs()
    runs = outcomes_of(catalog, entries)
    tasks = analyze_used_tasks(runs, _tasks_for(catalog, runs), oracle_dir, step, cancelled)
    issues = [str(i) for i in catalog.issues() if i.severity == "error"]
    overview = build_overview(root, runs, tasks, labels, step=step, cancelled=cancelled,
                              issues=issues, view=view)
    overview.seconds = time.perf_counter() - started  # the whole analysis, not its last part
    return overview


def overview_of_folder(root: Path, labels: LabelInput | None = None,
                       oracle_dir: Path | None = None, *, step: Step | None = None,
                       cancelled: Callable[[], bool] | None = None,
                       db_path: Path | None = None, view: str = DEFAULT_VIEW) -> Overview:
    """Refresh the index of ``root`` and build its overview."""
    from inspector.services.analysis.source import refreshed

    def indexing(done: int, total: int, what: str) -> None:
        if step is not None:
            step("indexing runs", done, total)

    with refreshed(root, indexing, db_path) as catalog:
        return overview_from_catalog(catalog, root, labels, oracle_dir, step=step,
                                     cancelled=cancelled, view=view)
