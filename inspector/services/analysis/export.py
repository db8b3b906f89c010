"""Write the run analysis (and a paired comparison) as files to drop into a paper.

:func:`export_analysis` writes into ``OUT_DIR``::

    index.md                     every file written, one line each (and figures not drawn)
    tables/<name>.md|.csv|.json|.tex   each table (:mod:`.export_tables`) in four formats
    figures/<name>.svg|.png      each figure (:mod:`.export_plots`)

Each file is written atomically (temp file + rename); files already in ``OUT_DIR`` that the
export does not write are left alone. The same input gives byte-identical files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from inspector.model.benchmark.task import Task
from inspector.model.untrusted.safe_text import sanitize
from inspector.services.analysis.compare import RunComparison
from inspector.services.analysis.export_plots import (
    FORMATS as FIGURE_FORMATS,
)
from inspector.services.analysis.export_plots import (
    Plot,
    difference_plot,
    figure_bytes,
    overview_plots,
)
from inspector.services.analysis.export_tables import (
    RENDERERS,
    Table,
    comparison_tables,
    overview_tables,
)
from inspector.services.analysis.outcomes import RunOutcomes
from inspector.services.analysis.overview import (
    LabelInput,
    Overview,
    analyze_used_tasks,
    build_overview,
)
from inspector.services.storage.atomic import shared_file_mode, write_bytes_atomic

TABLES, FIGURES, INDEX = "tables", "figures", "index.md"
FORMAT_NAMES = {"md": "Markdown", "csv": "CSV", "json": "JSON", "tex": "LaTeX (booktabs)",
                "svg": "SVG", "png": "PNG"}


class ExportError(Exception):
    """The export cannot be written (the message names the path and the problem)."""


@dataclass(frozen=True, slots=True)
class Written:
    """One file of the export: its path relative to the folder and one line about it."""

    relative: str
    what: str


def _folder(path: Path) -> None:
    """Make ``path`` a folder, or say clearly why it cannot be one."""
    if path.exists() and not path.is_dir():
        raise ExportError(f"{path}: exists and is a file, not a folder; choose another "
                          "export folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"{path}: cannot create the export folder: "
                          f"{exc.strerror or exc}") from None


def _write(out_dir: Path, relative: str, data: bytes) -> Path:
    path = out_dir / relative
    if path.is_dir():
        raise ExportError(f"{path}: is a folder; the export needs to write a file there")
    try:
        write_bytes_atomic(path, data, shared_file_mode(path))
    except OSError as exc:
        raise ExportError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return path


File = tuple[str, str, Callable[[], bytes]]
"""A file to write: path relative to the export folder, one line about it, its content."""


def _table_bytes(table: Table, suffix: str) -> bytes:
    return RENDERERS[suffix](table).encode("utf-8")


def _tables_files(tables: list[Table]) -> list[File]:
    return [(f"{TABLES}/{t.name}.{suffix}", f"{t.caption.rstrip('.')} ({FORMAT_NAMES[suffix]})",
             partial(_table_bytes, t, suffix)) for t in tables for suffix in RENDERERS]


def _figure_files(plots: list[Plot]) -> list[File]:
    return [(f"{FIGURES}/{p.name}.{fmt}", f"{p.description} ({FORMAT_NAMES[fmt]})",
             partial(figure_bytes, p.figure, fmt))
            for p in plots if p.figure is not None for fmt in FIGURE_FORMATS]


def _shown(text: str) -> str:
    """Untrusted text on one line, controls made visible, no backtick to end a code span."""
    return " ".join(sanitize(text).split()).replace("`", "'")


def _index(overview: Overview | None, comparison: RunComparison | None,
           written: list[Written], skipped: list[Plot]) -> str:
    out = ["# Analysis export", ""]
    if overview is not None:
        out.append(f"Runs under `{_shown(str(overview.root))}`: {len(overview.runs)} runs, "
                   f"{overview.samples} samples. Tiers: {overview.tier_source}.")
        if overview.not_evaluable:
            out.append(f"{overview.not_evaluable_note()}.")
    if comparison is not None:
        out.append(f"Paired comparison: A = `{_shown(comparison.a.run_id)}`, "
                   f"B = `{_shown(comparison.b.run_id)}`, {len(comparison.pairs)} common "
                   "tasks.")
    out += ["", "## Files", ""]
    out += [f"- [`{w.relative}`]({w.relative}) — {w.what}" for w in written]
    if skipped:
        out += ["", "## Figures not drawn", ""]
        out += [f"- `{p.name}` — {p.description}: not drawn, {p.skipped}." for p in skipped]
    return "\n".join(out) + "\n"


def export_analysis(overview: Overview | None, out_dir: Path,
                    comparison: RunComparison | None = None) -> list[Path]:
    """Write the tables and figures of ``overview`` (and of ``comparison``) into ``out_dir``
    with an ``index.md``; returns the files written, the index last. Raises
    :class:`ExportError` when ``out_dir`` (or a file in it) cannot be written."""
    if overview is None and comparison is None:
        raise ValueError("nothing to export: give an overview or a comparison")
    _folder(out_dir)
    tables: list[Table] = []
    plots: list[Plot] = []
    if overview is not None:
        tables += overview_tables(overview)
        plots += overview_plots(overview)
    if comparison is not None:
        tables += comparison_tables(comparison)
        plots.append(difference_plot(comparison))
    files = _tables_files(tables) + _figure_files(plots)
    for sub in ((TABLES,) if tables else ()) + ((FIGURES,) if any(
            p.figure is not None for p in plots) else ()):
        _folder(out_dir / sub)
    paths, written = [], []
    try:
        for relative, what, data in files:
            paths.append(_write(out_dir, relative, data()))
            written.append(Written(relative, what))
    finally:
        for p in plots:
            if p.figure is not None:
                p.figure.clear()
    skipped = [p for p in plots if p.figure is None]
    index = _index(overview, comparison, written, skipped)
    paths.append(_write(out_dir, INDEX, index.encode("utf-8")))
    return paths


def overview_of_runs(root: Path, runs: list[RunOutcomes], tasks: Mapping[str, Task],
                     labels: LabelInput | None = None, oracle_dir: Path | None = None
                     ) -> Overview:
    """The overview of just ``runs`` (e.g. the two of a comparison): their tasks' tiers from
    ``tasks`` (a catalog's :meth:`~inspector.services.catalog.index.Catalog.tasks`; "unknown" for
    a task not there), failure categories from ``labels``."""
    return build_overview(root, runs, analyze_used_tasks(runs, tasks, oracle_dir), labels)
