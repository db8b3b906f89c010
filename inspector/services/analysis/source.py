"""Where the run analyses read runs from: the catalog index of a folder, and naming one run.

The catalog (:mod:`inspector.services.catalog`) is refreshed first — a one-off build for a
new folder, then only the run locations whose files changed — so analysing a 10,000-sample
corpus reads one SQLite table instead of every ``result.json``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from inspector.model.errors import LoadIssue
from inspector.services.analysis.outcomes import RunOutcomes, catalog_outcomes
from inspector.services.catalog import Catalog, Progress


class RunNotFound(LookupError):
    """A run the user named is not there, or the name fits several runs."""


@dataclass
class Loaded:
    """Every run under a folder as outcomes, and the problems found while indexing."""

    root: Path
    runs: list[RunOutcomes]
    issues: list[LoadIssue]


def load_outcomes(root: Path, progress: Progress | None = None,
                  db_path: Path | None = None) -> Loaded:
    """Refresh the catalog of ``root`` and read every run's outcomes from it."""
    catalog = Catalog(root.resolve(), db_path)  # location paths are keyed as given
    try:
        catalog.refresh(progress)
        runs = catalog_outcomes(catalog.runs(), catalog.samples())
        issues = catalog.issues()
    finally:
        catalog.close()
    return Loaded(root, runs, issues)


def _looks_like_path(spec: str) -> bool:
    return "/" in spec or spec.startswith((".", "~"))


def resolve_run(spec: str, root: Path,
                load: Callable[[Path], Loaded] = load_outcomes) -> RunOutcomes:
    """The run ``spec`` names: a run folder (or a RepoGenesis output holding one run), else a
    run id under ``root`` — exact, or the one run whose id contains ``spec``.

    Raises :class:`FileNotFoundError` for a path that does not exist and :class:`RunNotFound`
    when nothing (or more than one run) fits."""
    path = Path(spec).expanduser()
    if path.exists():
        found = load(path)
        if len(found.runs) == 1:
            return found.runs[0]
        if not found.runs:
            raise RunNotFound(f"{spec}: no run found there (expected a run folder with "
                              "run.json, or a RepoGenesis output folder)")
        ids = ", ".join(r.run_id for r in found.runs[:8])
        raise RunNotFound(f"{spec}: holds {len(found.runs)} runs ({ids}); name one by its "
                          f"id with --root {spec}")
    if _looks_like_path(spec):
        raise FileNotFoundError(f"{spec}: no such file or folder")
    if not root.exists():
        raise FileNotFoundError(f"{root}: no such file or folder")
    runs = load(root).runs
    exact = [r for r in runs if r.run_id == spec]
    if len(exact) == 1:
        return exact[0]
    near = exact or [r for r in runs if spec in r.run_id]
    if len(near) == 1:
        return near[0]
    if not near:
        raise RunNotFound(f"{spec}: no run with that id under {root} "
                          f"({len(runs)} runs there; `inspector summary {root}` lists them)")
    ids = ", ".join(sorted(r.run_id for r in near)[:8])
    raise RunNotFound(f"{spec}: fits {len(near)} runs under {root} ({ids}); give more of "
                      "the id")
