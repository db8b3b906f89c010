"""Where the run analyses read runs from: the catalog index of a folder, and naming runs.

The catalog (:mod:`inspector.services.catalog.index`) is refreshed first — a one-off build for a
new folder, then only the run locations whose files changed — so analysing a 10,000-sample
corpus reads a few columns of one SQLite table instead of every ``result.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from inspector.model.benchmark.task import Task
from inspector.model.results.entries import RunEntry
from inspector.model.runs.ids import select_by_id
from inspector.model.untrusted.errors import LoadIssue
from inspector.services.analysis.outcomes import RunOutcomes, from_outcome_rows
from inspector.services.catalog.index import Catalog, Progress

DbPathFor = Callable[[Path], Path | None]
"""Where the index of a folder lives (None: the cache folder's default)."""


def _default_db(root: Path) -> Path | None:
    return None


class RunNotFound(LookupError):
    """A run the user named is not there, or the name fits several runs."""


@dataclass
class Loaded:
    """Every run under a folder as outcomes, and the problems found while indexing."""

    root: Path
    runs: list[RunOutcomes]
    issues: list[LoadIssue]


@contextmanager
def refreshed(root: Path, progress: Progress | None = None,
              db_path: Path | None = None) -> Iterator[Catalog]:
    """The catalog of ``root``, brought up to date; closed on exit."""
    catalog = Catalog(root.resolve(), db_path)  # location paths are keyed as given
    try:
        catalog.refresh(progress)
        yield catalog
    finally:
        catalog.close()


def outcomes_of(catalog: Catalog, runs: list[RunEntry]) -> list[RunOutcomes]:
    """The outcomes of ``runs`` (entries of ``catalog``)."""
    return from_outcome_rows(runs, catalog.outcome_rows([r.key for r in runs]))


def load_outcomes(root: Path, progress: Progress | None = None,
                  db_path: Path | None = None) -> Loaded:
    """Refresh the catalog of ``root`` and read every run's outcomes from it."""
    with refreshed(root, progress, db_path) as catalog:
        runs = catalog.runs()
        return Loaded(root, from_outcome_rows(runs, catalog.outcome_rows()), catalog.issues())


def _looks_like_path(spec: str) -> bool:
    return "/" in spec or spec.startswith((".", "~"))


def _by_id(spec: str, root: Path, runs: list[RunEntry],
           twins: Sequence[RunEntry] = ()) -> RunEntry:
    """The run ``spec`` names among ``runs`` and their stock ``twins``: its exact id (a
    twin's too), else the one run whose id contains it (a run standing for its twin)."""
    near = select_by_id(spec, [*runs, *twins], lambda r: r.run_id)
    picked = {r.key for r in near}
    near = [r for r in near if r.twin_of is None or r.twin_of not in picked]
    if len(near) == 1:
        return near[0]
    if not near:
        raise RunNotFound(f"{spec}: no run with that id under {root} "
                          f"({len(runs)} runs there; `inspector summary {root}` lists them)")
    ids = ", ".join(sorted(r.run_id for r in near)[:8])
    raise RunNotFound(f"{spec}: fits {len(near)} runs under {root} ({ids}); give more of "
                      "the id")


@dataclass
class Resolved:
    """The runs named, in order, and the tasks beside them: the tasks folder of the first
    folder named (else of ``root``), as that folder's catalog has it (:meth:`Catalog.tasks`)."""

    runs: list[RunOutcomes]
    tasks: dict[str, Task]


def resolve_runs(specs: list[str], root: Path, progress: Progress | None = None,
                 db_path_for: DbPathFor = _default_db) -> list[RunOutcomes]:
    """The runs ``specs`` name, in order: each a run folder (or a RepoGenesis output holding
    one run), else a run id under ``root`` — exact, or the one run whose id contains it. Each
    folder's catalog is refreshed once, and only the named runs' samples are read.

    Raises :class:`FileNotFoundError` for a path that does not exist and :class:`RunNotFound`
    when nothing (or more than one run) fits."""
    return resolve_with_tasks(specs, root, progress, db_path_for).runs


def resolve_with_tasks(specs: list[str], root: Path, progress: Progress | None = None,
                       db_path_for: DbPathFor = _default_db) -> Resolved:
    """:func:`resolve_runs`, with the tasks of the folder the runs were named in (read once
    by that folder's catalog, not loaded again)."""
    folders: dict[Path, list[tuple[int, str]]] = {}
    for i, spec in enumerate(specs):
        path = Path(spec).expanduser()
        if path.exists():
            folders.setdefault(path.resolve(), []).append((i, ""))
        elif _looks_like_path(spec):
            raise FileNotFoundError(f"{spec}: no such file or folder")
        else:
            if not root.exists():
                raise FileNotFoundError(f"{root}: no such file or folder")
            folders.setdefault(root.resolve(), []).append((i, spec))
    chosen: list[tuple[int, str, RunEntry]] = []
    out: dict[int, RunOutcomes] = {}
    named = [f for f, wanted in folders.items() if any(not run_id for _, run_id in wanted)]
    tasks_folder = named[0] if named else root.resolve()
    tasks: dict[str, Task] = {}
    for folder, wanted in folders.items():
        with refreshed(folder, progress, db_path_for(folder)) as catalog:
            runs = catalog.runs()
            chosen = []
            for i, run_id in wanted:
                if run_id:
                    chosen.append((i, run_id, _by_id(run_id, root, runs,
                                                     catalog.twin_runs())))
                    continue
                spec = specs[i]
                if not runs:
                    raise RunNotFound(f"{spec}: no run found there (expected a run folder "
                                      "with run.json, or a RepoGenesis output folder)")
                if len(runs) > 1:
                    ids = ", ".join(r.run_id for r in runs[:8])
                    raise RunNotFound(f"{spec}: holds {len(runs)} runs ({ids}); name one by "
                                      f"its id with --root {spec}")
                chosen.append((i, spec, runs[0]))
            entries = list({e.key: e for _, _, e in chosen}.values())
            found = {r.key: r for r in outcomes_of(catalog, entries)}
            for i, _, entry in chosen:
                out[i] = found[entry.key]
            if folder == tasks_folder:
                tasks = catalog.tasks()
    return Resolved([out[i] for i in range(len(specs))], tasks)
