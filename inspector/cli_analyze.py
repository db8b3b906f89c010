"""``inspector analyze PATH --tasks|--code``: thin over :mod:`inspector.services.analysis`.

``--tasks``: per task, the README's spec complexity (figures, score, tier) and the
RepoGenesis difficulty from a reference implementation (``--oracle DIR``), or Unclassified.
``--code``: per sample, the generated repo's code metrics, with the task's reference metrics
beside them when ``--oracle`` is given. ``--why TASK`` shows the README lines behind a task's
figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from inspector import paths
from inspector.cli_errors import CliError
from inspector.cli_output import print_json, text_table

if TYPE_CHECKING:
    from inspector.model.readme.contract_types import Mention
    from inspector.services.analysis.samples import CodeReport
    from inspector.services.analysis.tasks import TaskAnalysis, TasksReport


def add_options(an: argparse.ArgumentParser) -> None:
    """``--tasks``, ``--code`` and their options on the ``analyze`` parser (which has PATH
    and ``--json``: :func:`inspector.cli_compare.add_analyze_runs`)."""
    an.description = (an.description or "") + (
        " --tasks: spec complexity of every task README and the RepoGenesis difficulty from "
        "reference implementations (--oracle). --code: SLOC, functions, classes, cyclomatic "
        "and cognitive complexity of every sample's repo (radon + complexipy for Python, "
        "lizard for Java).")
    an.add_argument("--tasks", action="store_true", help="per task: spec complexity and "
                                                         "difficulty (PATH: runs or tasks "
                                                         "folder)")
    an.add_argument("--code", action="store_true", help="per sample: code metrics (PATH: "
                                                        "runs or predictions folder)")
    an.add_argument("--oracle", metavar="DIR", help="reference implementations, one "
                                                    "sub-folder per task")
    an.add_argument("--why", metavar="TASK", help="with --tasks: the README lines behind one "
                                                  "task's figures")
    an.add_argument("--jobs", type=int, default=None, help="worker processes for --code "
                                                           "(default: CPU count)")
    an.add_argument("--no-cache", action="store_true", help="measure every repo again")
    an.add_argument("--files", action="store_true", help="with --code --json: per-file figures")


def _root(path: str | None) -> Path:
    root = Path(path) if path else paths.sample_runs()
    if not root.exists():
        raise CliError.missing(root)
    if not root.is_dir():
        raise CliError(f"{root}: not a folder")
    return root


def _oracle(path: str | None) -> Path | None:
    if path is None:
        return None
    folder = Path(path)
    if not folder.exists():
        raise CliError.missing(folder)
    if not folder.is_dir():
        raise CliError(f"{folder}: --oracle must be a folder with one sub-folder per task")
    return folder



def cmd_analyze(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        raise CliError("--jobs must be at least 1")
    root, oracle = _root(args.path), _oracle(args.oracle)
    out: dict[str, object] = {}
    if args.tasks:
        report = _tasks(root, oracle)
        if args.why:
            _why(report, args.why, args.json, out)
        elif args.json:
            out["tasks"] = report.to_json()["tasks"]
        else:
            _print_tasks(report)
    if args.code:
        code = _code(root, oracle, args)
        if args.json:
            out["code"] = code.to_json(args.files)
        else:
            if args.tasks:
                print()
            _print_code(code, oracle is not None)
    if args.json:
        print_json(json.dumps(out if len(out) > 1 else next(iter(out.values())), indent=2))
    return 0


# -- tasks ------------------------------------------------------------------------------------

def _tasks(root: Path, oracle: Path | None) -> TasksReport:
    from inspector.services.analysis.tasks import analyze_tasks, tasks_root_for

    tasks_root = tasks_root_for(root)
    report = analyze_tasks(tasks_root, oracle)
    for issue in report.issues:
        print(f"inspector: warning: {issue}", file=sys.stderr)
    if not report.tasks:
        raise CliError(f"{tasks_root}: no tasks found (expected <task>/README.md folders, "
                       "or repo/<task>/README.md)")
    return report


def _flags(t: TaskAnalysis) -> str:
    return "".join(letter if t.spec.flag(name) else "-" for name, letter in (
        ("auth", "A"), ("database", "D"), ("background", "B"), ("upload", "U")))


def _print_tasks(report: TasksReport) -> None:
    rows = []
    for t in report.tasks:
        s, r, d = t.spec, t.spec.resources, t.difficulty
        diff = f"{d.label} {d.score:.2f}" if d.score is not None else \
            f"Unclassified (spec: {s.tier})"
        rows.append([t.name, t.language, str(s.words), str(len(s.endpoints)),
                     f"{len(r.primitive)}/{len(r.collection)}/{len(r.objects)}"
                     f"/{len(r.untyped)}",
                     str(len(s.dependencies)), str(len(s.packages)), _flags(t),
                     f"{s.score:.2f}", s.tier, diff])
    print(text_table(["task", "lang", "words", "endpoints", "fields p/c/o/u", "deps", "packages",
                  "flags", "spec score", "spec tier", "difficulty"], rows))
    print("\nfields: primitive/collection/object/untyped; flags: A auth, D database, "
          "B background work, U file upload.")
    missing = [t for t in report.tasks if t.difficulty.score is None]
    if missing:
        print(f"{len(missing)} of {len(report.tasks)} tasks have no reference implementation "
              "(--oracle DIR, or an oracle/ folder in the task): Unclassified, the spec tier "
              "stands in.")
    print("`inspector analyze --tasks --why TASK` shows the README lines behind the figures.")


def _why(report: TasksReport, name: str, as_json: bool, out: dict[str, object]) -> None:
    task = next((t for t in report.tasks if t.name == name), None)
    if task is None:
        names = ", ".join(t.name for t in report.tasks[:10])
        raise CliError(f"no task named {name!r} (tasks: {names}"
                       f"{', …' if len(report.tasks) > 10 else ''})")
    if as_json:
        out["task"] = task.to_json()
        return
    s = task.spec
    print(f"{task.name}: spec score {s.score:.2f} ({s.tier}); {s.words} words, "
          f"{s.lines} lines")
    for line in s.explain():
        print(f"  {line}")

    def show(title: str, mentions: tuple[Mention, ...]) -> None:
        print(f"{title} ({len(mentions)}):")
        for m in mentions:
            print(f"  README.md:{m.line}  {m.what}")

    show("endpoints", s.endpoints)
    r = s.resources
    for title, ms in (("primitive fields", r.primitive), ("collection fields", r.collection),
                      ("object fields", r.objects), ("untyped fields", r.untyped)):
        show(title, ms)
    show("external dependencies", s.dependencies)
    show("packages", s.packages)
    for flag, ms in s.flags.items():
        print(f"{flag}: {'mentioned' if ms else 'not mentioned'}")
        for m in ms[:5]:
            print(f"  README.md:{m.line}  {m.text}")
        if len(ms) > 5:
            print(f"  … and {len(ms) - 5} more lines")
    d = task.difficulty
    if d.score is None:
        print(f"difficulty: Unclassified ({d.note})")
        return
    print(f"difficulty: {d.label} (score {d.score:.2f}; Hard ≥ 7.0, Medium ≥ 4.5) from "
          f"{task.oracle}")
    for b in d.bands:
        cleared = f"> {b.above:g}" if b.above is not None else "below every threshold"
        print(f"  {b.metric}: {b.value} ({cleared}) -> {b.points:g}")


# -- code -------------------------------------------------------------------------------------

def _code(root: Path, oracle: Path | None, args: argparse.Namespace) -> CodeReport:
    from inspector.services.analysis.samples import analyze_code

    progress = None
    if not args.json and sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            print(f"\rmeasuring repos: {done}/{total}", end="" if done < total else "\n",
                  file=sys.stderr, flush=True)

    report = analyze_code(root, oracle, args.jobs, not args.no_cache, progress)
    for issue in report.issues:
        print(f"inspector: warning: {issue}", file=sys.stderr)
    if not report.samples:
        raise CliError(f"{root}: no samples found (expected runs, or a predictions folder "
                       "with <task>/ repos)")
    return report


def _print_code(report: CodeReport, with_oracle: bool) -> None:
    rows = []
    for s in report.samples:
        m = s.metrics
        head = [s.run_id, s.task, "" if s.sample is None else str(s.sample)]
        if m is None:
            rows.append([*head, "", "", "", "", "", "", "", "", f"error: {s.error}"]
                        + (["", ""] if with_oracle else []))
            continue
        row = [*head, m.language, str(m.files), str(m.sloc), str(m.functions), str(m.classes),
               str(m.cyclomatic), str(m.max_cyclomatic),
               "—" if m.cognitive is None else str(m.cognitive),
               f"{len(m.skipped)} skipped" if m.skipped else ""]
        if with_oracle:
            o = s.oracle
            row += [f"{o.loc}" if o else "—", f"{o.complexity}" if o else "—"]
        rows.append(row)
    headers = ["run", "task", "sample", "lang", "files", "SLOC", "functions", "classes",
               "cyclomatic", "max CC", "cognitive", "notes"]
    if with_oracle:
        headers += ["ref LOC", "ref complexity"]
    print(text_table(headers, rows))
    print(f"\n{report.repos} repos measured ({report.cached} from the cache) in "
          f"{report.seconds:.2f} s. Cyclomatic: radon (Python) / lizard (Java), summed over "
          "functions; cognitive: complexipy (Python only)."
          + (" ref: the reference implementation, counted as RepoGenesis counts it."
             if with_oracle else ""))
    skipped = [(s, k) for s in report.samples if s.metrics for k in s.metrics.skipped]
    for s, k in skipped[:10]:
        print(f"  skipped {s.run_id}/{s.task}: {k}")
    if len(skipped) > 10:
        print(f"  … and {len(skipped) - 10} more skipped files (--json lists them)")
