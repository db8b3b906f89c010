"""Reading a runs folder into a :class:`~.data.ReportInput` (the report's only I/O).

Runs come from :func:`inspector.model.discover_runs` (metrics as ``inspector summary``
computes them, sample details); benchmark health and the run analysis (the plots, the
label tables) from the folder's index, as the app shows them; agreement from the labels
folder, as ``inspector labels agreement`` computes it.
"""

from __future__ import annotations

import tempfile
from collections import defaultdict
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.model import discover_runs
from inspector.model.labels.agreement import agreement
from inspector.model.labels.labelset import LabelSet
from inspector.model.labels.rollup import (
    DEFAULT_AGREEMENT_VIEW,
    DEFAULT_VIEW,
    labelled_samples,
    view_ratings,
)
from inspector.model.results.run import Run
from inspector.model.results.sample import SampleResult
from inspector.model.results.verdict import verdict_of
from inspector.model.untrusted.safe_text import sanitize
from inspector.model.untrusted.shown_paths import PathScope
from inspector.services.analysis.export_plots import figure_bytes, overview_plots
from inspector.services.analysis.overview_load import (
    labels_folder_for,
    overview_from_catalog,
    read_labels,
)
from inspector.services.analysis.source import refreshed
from inspector.services.figures.corrected import apply_errata
from inspector.services.figures.metrics import compute_run_metrics
from inspector.services.labels.errata import errata_from_labels
from inspector.services.report.caps import Caps
from inspector.services.report.data import (
    CellSample,
    Labels,
    Plot,
    ReportInput,
    RunColumn,
)
from inspector.services.report.details import order_failing, select_details
from inspector.services.report.svg import inline_svg

if TYPE_CHECKING:
    from inspector.services.analysis.overview import Overview
    from inspector.services.figures.health import HealthReport

Step = Callable[[str], None]


class ReportError(Exception):
    """The folder holds nothing to report on (the message names it)."""


def _cells(runs: list[Run]) -> tuple[list[str], dict[tuple[str, int], list[SampleResult]]]:
    cells: dict[tuple[str, int], list[SampleResult]] = defaultdict(list)
    for i, run in enumerate(runs):
        for s in run.samples:
            cells[(s.task, i)].append(s)
    for samples in cells.values():
        samples.sort(key=lambda s: s.sample)
    return sorted({t for t, _ in cells}), dict(cells)


def _plots(overview: Overview) -> list[Plot]:
    out = []
    for i, p in enumerate(overview_plots(overview)):
        if p.figure is None:
            out.append(Plot(p.name, p.description, skipped=p.skipped))
            continue
        svg = figure_bytes(p.figure, "svg").decode("utf-8")
        out.append(Plot(p.name, p.description, svg=inline_svg(svg, f"f{i}")))
    return out


def _shown_folder(folder: Path, root: Path) -> str:
    """``folder`` relative to the runs folder when inside it (no machine's paths in the page)."""
    try:
        return str(folder.resolve().relative_to(root.resolve()))
    except (ValueError, OSError):
        return str(folder)


def _run_folder(run: Run) -> Path:
    p = run.source.path
    return p.parent if p.suffix == ".json" or p.name == "intermediate" else p


def path_scope(runs: list[Run], root: Path | None = None) -> PathScope:
    """How the page shows paths: under ``root`` relative to it (behind its name), a run's
    folder (here, or as recorded where it was evaluated) from the folder's name, the rest
    of this machine's (home, temp, working folder) by their last components."""
    roots: list[tuple[str, str]] = []
    if root is not None:
        name = root.resolve().name or "."
        roots += [(str(root.resolve()), name), (str(root.absolute()), name)]
    folders = [_run_folder(r) for r in runs]
    for f in folders:
        roots += [(str(f.absolute()), f.name)]
    machine = [str(Path.home()), tempfile.gettempdir(), str(Path.cwd())]
    return PathScope.of(roots, {f.name for f in folders},
                        machine + [str(Path(m).resolve()) for m in machine])


def load_report(root: Path, path: str, *, labels_dir: Path | None = None,
                caps: Caps | None = None, step: Step | None = None,
                db_path: Path | None = None, view: str = DEFAULT_VIEW) -> ReportInput:
    """Everything the report of ``root`` shows. ``path`` is the folder as the user named it
    (it goes into the commands the page suggests); the label tables count ``view``
    (:mod:`inspector.model.labels.rollup`), agreement is per root cause. Raises
    :class:`ReportError` when there are no runs,
    :class:`~inspector.model.untrusted.errors.LoadError`
    for an invalid taxonomy."""
    say = step or (lambda _what: None)
    say("reading runs")
    found = discover_runs(root)
    if not found.runs:
        raise ReportError(f"{root}: no runs found (expected a run folder with run.json, or a "
                          "RepoGenesis output folder with report*.json or intermediate/)")
    runs = found.runs
    notes = [sanitize(str(i)) for i in found.issues if i.severity == "error"]

    say("reading labels")
    folder = labels_folder_for(root, labels_dir)
    read = read_labels(folder)
    label_input = read.input
    labelled = (labelled_samples(label_input.labels) if label_input is not None else set())

    say("indexing runs, benchmark health and run analysis")
    with refreshed(root, None, db_path) as catalog:
        health = catalog.health()
        overview = overview_from_catalog(catalog, root, label_input, view=view)
    say("drawing plots")
    plots = _plots(overview)

    labels = None
    if label_input is not None or read.problems:
        report = None
        if label_input is not None and label_input.labels.files:
            ids = list(label_input.taxonomy.ids)
            report = agreement(view_ratings(label_input.labels, DEFAULT_AGREEMENT_VIEW, ids),
                               ids)
        labels = Labels(sanitize(_shown_folder(folder, root)),
                        label_input.taxonomy if label_input else None, overview.categories,
                        report,
                        tuple(sanitize(p) for p in read.problems))
    say("collecting failing samples")
    data = assemble(root.resolve().name or str(root), path, runs, caps=caps, health=health,
                    labels=labels, labelled=labelled, plots=plots, notes=notes,
                    tier_source=overview.tier_source, paths=path_scope(runs, root),
                    label_set=label_input.labels if label_input is not None else None)
    if label_input is not None:
        data.corrected = apply_errata(runs, errata_from_labels(label_input.labels, runs,
                                                               created=""))
    return data


def assemble(title: str, path: str, runs: list[Run], *, caps: Caps | None = None,
             health: HealthReport | None = None, labels: Labels | None = None,
             labelled: Collection[str] = (), plots: list[Plot] | None = None,
             notes: list[str] | None = None, tier_source: str = "",
             paths: PathScope | None = None, label_set: LabelSet | None = None
             ) -> ReportInput:
    """The report of ``runs`` with what was read beside them: metrics, the matrix and the
    failing samples' sections (their logs' excerpts are read here). ``labelled``: the sample
    ids with a label; ``paths``: how absolute paths are shown (default: relative to the
    runs' folders); ``label_set``: the labels each section lists."""
    caps = caps or Caps()
    labelled = set(labelled)
    columns = []
    for run in runs:
        failing = [s for s in run.samples if not s.passed and s.not_evaluable is None]
        columns.append(RunColumn(compute_run_metrics(run), len(failing),
                                 sum(s.sample_id in labelled for s in failing)))

    tasks, cells = _cells(runs)
    firsts, rest = order_failing(cells[(t, i)] for t in tasks for i in range(len(runs))
                                 if (t, i) in cells)
    caps = caps.fit(len(firsts))
    chosen = select_details(firsts + rest, path, caps, label_set)
    anchors = {id(s): d.anchor for s, d in chosen}
    run_order = {run.id: i for i, run in enumerate(runs)}
    details = [d for _s, d in sorted(chosen, key=lambda p: (p[0].task,
                                                            run_order.get(p[0].run_id, 0),
                                                            p[0].sample, p[1].anchor))]
    cell_samples = {key: [CellSample(s.sample_id, s.sample, verdict_of(s), s.tests.passed,
                                     s.tests.total, s.deployment.failed_phase.value
                                     if s.deployment.failed_phase else "",
                                     s.tests.collection_errors, anchors.get(id(s), ""))
                          for s in samples] for key, samples in cells.items()}

    return ReportInput(
        title=sanitize(title), path=path, runs=columns, tasks=tasks, cells=cell_samples,
        health=health, labels=labels, plots=plots or [], details=details,
        failing_samples=len(firsts) + len(rest), caps=caps, notes=notes or [],
        tier_source=tier_source, paths=paths or path_scope(runs))
