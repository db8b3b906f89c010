"""``inspector compare RUN_A RUN_B`` and ``inspector analyze PATH --runs``: thin over
:mod:`inspector.services.analysis`.

``analyze_arguments`` gives the ``analyze`` command PATH, ``--json`` and the ``--runs``
options; other analyses (``--tasks``, ``--code``) add theirs to the same parser.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector import paths
from inspector.cli.args import non_negative, positive
from inspector.cli.errors import CliError
from inspector.cli.output import print_json
from inspector.cli.tables import text_table
from inspector.model.figures.percent import pct

if TYPE_CHECKING:
    from inspector.model.benchmark.task import Task
    from inspector.services.analysis.breakdown import GroupPass
    from inspector.services.analysis.compare import RunComparison
    from inspector.services.analysis.overview import LabelInput, Overview
    from inspector.services.analysis.source import Loaded
    from inspector.services.catalog.index import Progress


def _progress(root: Path) -> Progress:
    """Says on stderr when a folder's index is built (once)."""
    def progress(done: int, total: int, what: str) -> None:
        if done == 0 and total > 1:
            print(f"inspector: indexing {total} run locations under {root} (once; later "
                  "runs reuse the index)", file=sys.stderr, flush=True)

    return progress


def _load(root: Path) -> Loaded:
    """The catalog's outcomes for ``root``."""
    from inspector.services.analysis.source import load_outcomes

    try:
        return load_outcomes(root, _progress(root))
    except (OSError, sqlite3.Error) as exc:
        raise CliError(_index_problem(exc)) from None


def _index_problem(exc: BaseException) -> str:
    from inspector.paths import cache_root

    return f"cannot use the run index in {cache_root()}: {exc}"


# ----------------------------------------------------------------------------- compare

def cmd_compare(args: argparse.Namespace) -> int:
    from inspector.services.analysis.compare import compare_runs, task_tiers
    from inspector.services.analysis.comparison_wording import compare_text
    from inspector.services.analysis.source import RunNotFound, resolve_with_tasks

    root = Path(args.root) if args.root else paths.sample_runs()
    try:
        resolved = resolve_with_tasks([args.run_a, args.run_b], root, _progress(root))
    except FileNotFoundError as exc:
        if exc.filename is None:  # a run the user named; not a file of the index
            raise CliError.of(exc) from None
        raise CliError(_index_problem(exc)) from None
    except (OSError, sqlite3.Error) as exc:
        raise CliError(_index_problem(exc)) from None
    except RunNotFound as exc:
        raise CliError(str(exc)) from None
    a, b = resolved.runs
    if a.key == b.key:
        raise CliError(f"{args.run_a} and {args.run_b} name the same run ({a.run_id})")
    tiers = task_tiers([a, b], resolved.tasks)
    result = compare_runs(a, b, seed=args.seed, resamples=args.resamples,
                          tier_of=lambda task: tiers.get(task, "unknown"))
    if args.export:
        _export_comparison(args, root, result, resolved.tasks)
    if args.json:
        print_json(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        print(compare_text(result, text_table))
    return 0


def _export_comparison(args: argparse.Namespace, root: Path, c: RunComparison,
                       tasks: Mapping[str, Task]) -> None:
    """``compare --export DIR``: the two runs' tables and figures and the comparison's."""
    from inspector.services.analysis.export import overview_of_runs

    given = next((Path(s) for s in (args.run_a, args.run_b) if Path(s).exists()), root)
    labels = _labels(given, None)
    overview = overview_of_runs(root, [c.a, c.b], tasks, labels)
    _export(overview, Path(args.export), c)


def _export(overview: Overview | None, out_dir: Path, c: RunComparison | None = None) -> None:
    """Write the export; one line on stderr says where it went."""
    import time

    from inspector.services.analysis.export import ExportError, export_analysis

    started = time.perf_counter()
    try:
        paths = export_analysis(overview, out_dir, c)
    except ExportError as exc:
        raise CliError(str(exc)) from None
    print(f"inspector: wrote {len(paths)} files to {out_dir} (index: {paths[-1]}) in "
          f"{time.perf_counter() - started:.1f}s", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- analyze --runs

def _labels(root: Path, labels: str | None) -> LabelInput | None:
    """The labels to break failures down by, or None when the folder holds no label file."""
    from inspector.model.untrusted.errors import LoadError
    from inspector.services.analysis.overview_load import labels_folder_for, read_labels

    folder = labels_folder_for(root, Path(labels) if labels else None)
    if labels and not folder.exists():
        raise CliError.missing(folder)
    try:
        found = read_labels(folder)
    except LoadError as exc:
        raise CliError.of(exc) from None
    for problem in found.problems:
        print(f"inspector: error: {problem}", file=sys.stderr)
    return found.input


def analysis_of(root: Path, labels: str | None, oracle: Path | None = None,
                view: str | None = None) -> Overview:
    """The whole run analysis of ``root`` (index refreshed first), label tables counted in
    ``view`` (default per sample), or a :class:`CliError`."""
    from inspector.model.labels.rollup import DEFAULT_VIEW
    from inspector.services.analysis.overview_load import overview_of_folder

    if not root.exists():
        raise CliError.missing(root)
    label_input = _labels(root, labels)
    progress = _progress(root)

    def step(what: str, done: int, total: int) -> None:
        if what == "indexing runs":
            progress(done, total, what)

    try:
        overview = overview_of_folder(root, label_input, oracle, step=step,
                                      view=view or DEFAULT_VIEW)
    except (OSError, sqlite3.Error) as exc:
        raise CliError(_index_problem(exc)) from None
    for issue in overview.issues[:15]:
        print(f"inspector: warning: {issue}", file=sys.stderr)
    if not overview.runs:
        raise CliError(f"{root}: no runs found (expected a run folder with run.json, or a "
                       "RepoGenesis output folder with report*.json or intermediate/)")
    return overview


def cmd_analyze_runs(args: argparse.Namespace) -> int:
    root = Path(args.path) if args.path else paths.sample_runs()
    if args.compare and not args.export:
        raise CliError("analyze --runs: --compare goes with --export DIR (`inspector compare "
                       "RUN_A RUN_B` prints a comparison)")
    overview = analysis_of(root, args.labels, Path(args.oracle) if args.oracle else None,
                           getattr(args, "view", None))
    comparison = None
    if args.compare:
        comparison = _pair_in(overview, args.compare, args)
    if args.export:
        _export(overview, Path(args.export), comparison)
    if args.json:
        print_json(json.dumps(overview.to_json(), indent=2, ensure_ascii=False))
        return 0
    print(runs_text(overview))
    return 0


def _pair_in(overview: Overview, names: list[str], args: argparse.Namespace
             ) -> RunComparison:
    """``--compare RUN_A RUN_B`` among the overview's runs (ids, or a unique part of one)."""
    from inspector.model.runs.ids import select_by_id
    from inspector.services.analysis.compare import compare_runs

    picked = []
    for name in names:
        near = select_by_id(name, overview.runs, lambda r: r.run_id)
        if len(near) != 1:
            found = "no run" if not near else \
                f"{len(near)} runs ({', '.join(r.run_id for r in near[:8])})"
            raise CliError(f"--compare {name}: fits {found} under {overview.root}"
                           + ("; give more of the id" if near else ""))
        picked.append(near[0])
    if picked[0].key == picked[1].key:
        raise CliError(f"--compare: {names[0]} and {names[1]} name the same run "
                       f"({picked[0].run_id})")
    return compare_runs(picked[0], picked[1], seed=args.seed, resamples=args.resamples)


def runs_text(overview: Overview) -> str:
    """``analyze --runs`` as text: Pass@1 by tier, framework and language, categories, cost."""
    from inspector.services.analysis.comparison_wording import cost_text

    passes, cats = overview.passes, overview.categories
    from inspector.model.results.unreadable import unreadable_line

    note = overview.not_evaluable_note()
    out = [f"{len(overview.runs)} runs under {overview.root}", *([note] if note else [])]
    out += [f"Unreadable in {r.run_id} (not in any figure): {unreadable_line(u)}"
            for r in overview.runs for u in r.unreadable]
    out += ["",
           f"Pass@1 by difficulty tier ({overview.tier_source}):",
           tier_table(overview), "",
           "Pass@1 by framework (strict: all tests pass; stock: the test pass ratio):",
           _group_table(passes["by_framework"], "framework"), "",
           "Pass@1 by language:", _group_table(passes["by_language"], "language"), ""]
    if cats is None:
        out.append("Failure categories: no labels found (labels/annotators/<name>.json; "
                   "--labels DIR names another folder)")
    else:
        out.append(f"Failure categories (final labels from {cats.folder}), counted "
                   f"{cats.view_text}; {cats.labelled} {cats.unit} (--view root|sample|test):")
        for key in ("by_agent", "by_tier", "by_framework"):
            if key in cats.tables:
                out.append(_breakdown_text(cats.tables[key], cats.taxonomy))
        if cats.outside:
            out.append(f"({cats.outside} labelled {cats.unit} belong to runs outside "
                       f"{overview.root})")
    out += ["", cost_text(overview.costs, text_table)]
    return "\n".join(out)


def tier_table(overview: Overview) -> str:
    """The paper's table: one row per run, strict Pass@1 (and samples) per tier."""
    tiers = overview.tier_names()
    cell = {(g.run_key, g.group): g for g in overview.passes.get("by_tier", [])}
    rows = []
    for run in overview.runs:
        row = [run.run_id]
        for tier in tiers:
            g = cell.get((run.key, tier))
            row.append("" if g is None else f"{pct(g.strict)} ({g.samples})")
        rows.append(row)
    return text_table(["run", *tiers], rows)


def _group_table(groups: list[GroupPass], what: str) -> str:
    return text_table(["run", what, "tasks", "samples", "pass@1", "stock pass@1"],
                  [[g.run_id, g.group, str(g.tasks), str(g.samples), pct(g.strict),
                    pct(g.stock)] for g in groups])


def _breakdown_text(b: Any, taxonomy: Any) -> str:
    rows = [[taxonomy.name_of(cat), *(str(n) for n in counts), str(total)]
            for cat, counts, total in b.rows if total]
    rows.append(["resolved total", *(str(n) for n in b.group_totals), str(b.total)])
    if b.has_unresolved:
        rows.append(["unresolved", *(str(n) for n in b.unresolved)])
    return f"{b.title}:\n" + text_table(["category", *b.group_names, "total"], rows)


# ----------------------------------------------------------------------------- parsers

def compare_arguments(cp: argparse.ArgumentParser) -> None:
    """RUN_A, RUN_B, the root, ``--json``, the bootstrap and ``--export``."""
    from inspector.model.figures.stats import DEFAULT_RESAMPLES, DEFAULT_SEED

    cp.add_argument("run_a", metavar="RUN_A")
    cp.add_argument("run_b", metavar="RUN_B")
    cp.add_argument("--root", help="where run ids are looked up (default: bundled sample_runs)")
    cp.add_argument("--json", action="store_true", help="machine-readable output")
    cp.add_argument("--seed", type=non_negative, default=DEFAULT_SEED,
                    help=f"bootstrap seed (default {DEFAULT_SEED})")
    cp.add_argument("--resamples", type=positive, default=DEFAULT_RESAMPLES,
                    help=f"bootstrap resamples (default {DEFAULT_RESAMPLES})")
    cp.add_argument("--export", metavar="DIR",
                    help="also write the comparison (and the two runs' tables) as "
                         "Markdown/CSV/JSON/LaTeX tables and SVG/PNG figures into DIR")


def analyze_arguments(an: argparse.ArgumentParser) -> None:
    """The ``analyze`` command's PATH and ``--json``, with its ``--runs`` analysis's options
    (the other analyses add theirs: :func:`inspector.cli.analyze.add_options`)."""
    an.add_argument("path", nargs="?", help="runs folder (default: bundled sample_runs)")
    an.add_argument("--json", action="store_true", help="machine-readable output")
    add_runs_options(an)


def add_runs_options(an: argparse.ArgumentParser) -> None:
    """``--runs`` and ``--labels`` on an ``analyze`` parser that has PATH and ``--json``."""
    an.add_argument("--runs", action="store_true",
                    help="per-run breakdowns: Pass@1 by framework/language, categories by "
                         "agent, cost vs pass")
    an.add_argument("--labels", metavar="DIR",
                    help="with --runs: labels folder (default: PATH/labels, or the nearest "
                         "parent's)")
    an.add_argument("--view", choices=["sample", "root", "test"], default=None,
                    help="with --runs: what the failure-category tables count: each labelled "
                         "sample once under its primary category (default), each root cause "
                         "once, or each labelled test")
    an.add_argument("--export", metavar="DIR",
                    help="with --runs: also write the analysis as Markdown/CSV/JSON/LaTeX "
                         "tables and SVG/PNG figures into DIR (with an index.md)")
    an.add_argument("--compare", nargs=2, metavar=("RUN_A", "RUN_B"),
                    help="with --runs --export: add the paired comparison of two of the runs")
    from inspector.model.figures.stats import DEFAULT_RESAMPLES, DEFAULT_SEED

    an.add_argument("--seed", type=non_negative, default=DEFAULT_SEED,
                    help=f"with --compare: bootstrap seed (default {DEFAULT_SEED})")
    an.add_argument("--resamples", type=positive, default=DEFAULT_RESAMPLES,
                    help=f"with --compare: bootstrap resamples (default {DEFAULT_RESAMPLES})")
