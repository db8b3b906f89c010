"""``inspector summary`` and ``inspector failures``: the figures and the failures of the runs.

What reaches a terminal is sanitised (:mod:`inspector.cli.output`); piped output is exact.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from inspector import paths
from inspector.cli import unreadable as cli_unreadable
from inspector.cli.errors import CliError
from inspector.cli.output import print_json
from inspector.cli.tables import text_table

if TYPE_CHECKING:
    from inspector.model import LoadIssue
    from inspector.model.runs.discover import Discovery

TAMPER_LINES = 20  # samples with tampering attempts named by `summary`


def pct_cell(x: float | None) -> str:
    """A share as `` 42.0%``, or ``—`` when there is none."""
    return "—" if x is None else f"{x * 100:5.1f}%"


def _print_issues(issues: list[LoadIssue], limit: int = 15) -> None:
    shown = [i for i in issues if i.severity == "error"] + \
        [i for i in issues if i.severity != "error"]
    for issue in shown[:limit]:
        print(f"inspector: {issue.severity}: {issue}", file=sys.stderr)
    if len(shown) > limit:
        print(f"inspector: … and {len(shown) - limit} more problems", file=sys.stderr)


def _discover(path: str | None) -> Discovery:
    from inspector.model import discover_runs

    root = Path(path) if path else paths.sample_runs()
    if not root.exists():
        raise CliError.missing(root)
    found = discover_runs(root)
    _print_issues(found.issues)
    if not found.runs:
        raise CliError(f"{root}: no runs found (expected a run folder with run.json, or a "
                       "RepoGenesis output folder with report*.json or intermediate/)")
    return found


def _shown(path: Path) -> str:
    """``path`` relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def cmd_summary(args: argparse.Namespace) -> int:
    from inspector.cli import errata as cli_errata
    from inspector.model.figures.stats import NO_SCORED, figure_with_interval
    from inspector.model.untrusted.safe_text import sanitize_field
    from inspector.services.figures.metrics import compute_run_metrics
    from inspector.services.tamper.findings import run_tampering, summary_line

    found = _discover(args.path)
    metrics = [compute_run_metrics(r) for r in found.runs]
    tampering = [run_tampering(r) for r in found.runs]
    corrected = cli_errata.corrections(args, found.runs)
    if args.json:
        out = []
        for run, m, t in zip(found.runs, metrics, tampering, strict=True):
            doc = m.to_json()
            doc["corrected"] = cli_errata.json_block(corrected, m.run_id)
            doc["twins"] = [{"format": tw.run.source.format, "path": str(tw.run.source.path),
                             "run_id": tw.run.id, "linked_by": tw.how}
                            for tw in found.twins_of(run)]
            doc["tampering"] = {"samples": len(t), "deliberate": sum(x.deliberate for x in t),
                                "attempts": [x.to_json() for x in t]}
            out.append(doc)
        print_json(json.dumps(out, indent=2))
        return cli_unreadable.exit_code(found.runs)
    rows = []
    for m in metrics:
        k = ", ".join(f"@{k} {pct_cell(v).strip()}" for k, v in m.pass_at_k.items())
        # no evaluable sample: no figure (a 0 % would blame the model)
        fig = pct_cell if m.samples else (lambda x: pct_cell(None))
        rows.append([
            m.run_id, m.agent, m.model, m.language, "ours" if m.format != "repogenesis"
            else "stock", str(m.tasks), m.samples_cell,
            fig(m.pass_at_1) + (f" ({k})" if k else ""),
            fig(m.test_pass_ratio), fig(m.api_coverage), fig(m.dsr),
            str(m.suites_not_run),
        ])
    print(text_table(["run", "agent", "model", "lang", "format", "tasks", "samples", "pass@1",
                  "test pass", "AC", "DSR", "suites not run"], rows))
    for run in found.runs:
        for tw in found.twins_of(run):
            print(f"  {run.id}: also in the stock layout at {_shown(tw.run.source.path)} "
                  f"({tw.run.id}; linked by {tw.how})")
    if corrected is not None:
        cli_errata.print_section(corrected, metrics, text_table, _shown)
    print("\nWith 95% intervals (pass@1: Wilson when each task has one sample, else a "
          "bootstrap over tasks; test pass: a bootstrap over tasks):")
    for m in metrics:
        if not m.samples:
            print(f"  {sanitize_field(m.run_id, 200)}: — (no evaluable sample)")
            continue
        print(f"  {sanitize_field(m.run_id, 200)}: pass@1 "
              f"{figure_with_interval(m.pass_at_1, m.pass_at_1_ci)}; test pass "
              f"{figure_with_interval(m.test_pass_ratio, m.test_pass_ci, NO_SCORED)}")
    not_evaluable = _not_evaluable_lines(metrics)
    if not_evaluable:
        print("\nNot evaluable (n/e: the infrastructure, not the repo, left them without a "
              "verdict; in no figure above — the stock report.json's summary still counts "
              "them):")
        print("\n".join(not_evaluable))
    unreadable = cli_unreadable.summary_lines(metrics)
    if unreadable:
        print("\nUnreadable files (their samples are not in the figures):")
        print("\n".join(unreadable))
    suites = _suites_not_run(found.runs)
    if suites:
        print("\nSuites that did not run (fully), with the first cause pytest printed:")
        print("\n".join(suites))
    every = [t for per_run in tampering for t in per_run]
    print(f"\nTampering attempts: {summary_line(every)}")
    for ts in sorted(every, key=lambda t: (not t.deliberate, t.sample_id))[:TAMPER_LINES]:
        kinds = ", ".join(dict.fromkeys(sanitize_field(f.kind, 200) for f in ts.findings))
        print(f"  {ts.sample_id}: {'deliberate' if ts.deliberate else 'could influence'} "
              f"({kinds})")
    if len(every) > TAMPER_LINES:
        print(f"  … and {len(every) - TAMPER_LINES} more (`inspector failures` lists them all)")
    notes = []
    for m in metrics:
        for d in m.differences:
            if not d.startswith("Pass@1"):
                notes.append(f"  {m.run_id}: {d}")
    print("\npass@1: a sample passes only if all its tests pass (strict, the paper's "
          "definition); 'test pass' is the stock harness's avg_pass_at_1.")
    print("'stock' runs are RepoGenesis reports: counts only, no per-test results or logs; "
          "their DSR and AC are the stock harness's lenient figures.")
    if notes:
        print("Where our strict figures differ from the stock harness's:")
        print("\n".join(notes))
    print(found.tasks_found.describe(_shown) if found.tasks_found else
          "tasks: none found (pass a run folder or report next to a tasks/repo/ folder)")
    warnings = [f"  {m.run_id}: {w}" for m in metrics for w in m.summary_warnings]
    if warnings:
        print("WARNING: reports whose own summary disagrees with their results:")
        print("\n".join(warnings))
    return cli_unreadable.exit_code(found.runs)


def _not_evaluable_lines(metrics: list) -> list[str]:
    """Per run with not-evaluable samples: "3 of 67 samples not evaluable: …", then each."""
    lines = []
    for m in metrics:
        if not m.not_evaluable:
            continue
        kinds: dict[str, int] = {}
        for row in m.not_evaluable_samples:
            kinds[row["kind"]] = kinds.get(row["kind"], 0) + 1
        per = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        lines.append(f"  {m.run_id}: {m.not_evaluable} of {m.samples_total} samples not "
                     f"evaluable: {per}")
        for row in m.not_evaluable_samples:
            how = " (inferred from the result's messages)" if row["inferred"] else ""
            lines.append(f"    {row['sample_id']}: {row['kind']}{how}: {row['reason']}")
    return lines


def _suites_not_run(runs: list) -> list[str]:
    """One line per deployed sample whose suite did not run (fully): its status and cause."""
    from inspector.model import SuiteStatus
    from inspector.model.suite.pytest_output import exit_meaning
    from inspector.services.suite.cause import cause_of

    lines = []
    for run in runs:
        for s in sorted(run.samples, key=lambda s: (s.task, s.sample)):
            if not s.deployment.success or (s.tests.status is SuiteStatus.RAN
                                            and not s.tests.collection_errors):
                continue
            cause = cause_of(s, run.tasks.get(s.task))
            status = ("collection error" if s.tests.collection_errors else
                      s.tests.status.value.replace("_", " "))
            code = "" if s.exit_code is None or not s.tests.has_cases else \
                f" [mvn test exit {s.exit_code}]" if s.language == "java" else \
                f" [pytest exit {s.exit_code}: {exit_meaning(s.exit_code)}]"
            why = str(cause) if cause else "no cause found in the tests log"
            lines.append(f"  {s.sample_id}: {status}{code}\n      {why}")
    return lines


def cmd_failures(args: argparse.Namespace) -> int:
    from inspector.services.figures.failures import list_failures

    found = _discover(args.path)
    runs = found.named(args.run)
    if args.run is not None and len(runs) != 1:
        raise CliError(f"--run {args.run}: fits {len(runs)} runs under {found.root}"
                       + (f" ({', '.join(r.id for r in runs[:8])}); give more of the id"
                          if runs else f" (`inspector summary {found.root}` lists them)"))
    rows = list_failures(runs)
    if args.json:
        print_json(json.dumps([r.to_json() for r in rows], indent=2))
        return cli_unreadable.exit_code(found.runs)
    if not rows:
        print("no failures")
        return 0
    print(text_table(["run", "task", "#", "test", "outcome", "message"], [
        [r.run_id, r.task, "-" if r.sample is None else str(r.sample), r.test_id or "-",
         r.outcome, r.message[:100]]
        for r in rows if r.outcome != "unreadable"]))
    unreadable = [r for r in rows if r.outcome == "unreadable"]
    if unreadable:  # whole lines: a reason is never cut
        print("\nUnreadable files (their samples have no verdict and are in no figure):")
        print("\n".join(f"  {r.run_id}: {r.file}: {r.message}" for r in unreadable))
    tampered = [r for r in rows if r.tampering]
    if tampered:
        from inspector.services.tamper.findings import finding_line, kept_out_note

        note = kept_out_note(f for r in tampered for f in r.tampering)
        print(f"\nTampering attempts ({note}):")
        for r in sorted(tampered, key=lambda r: not r.deliberate):
            print(f"  {r.sample_id}: tampering attempt"
                  f"{' (deliberate)' if r.deliberate else ''}")
            for f in r.tampering:
                print(f"    {finding_line(f)}")
    return cli_unreadable.exit_code(found.runs)




def _runs_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", help="runs folder (default: bundled sample_runs)")
    p.add_argument("--json", action="store_true", help="machine-readable output")


def summary_arguments(p: argparse.ArgumentParser) -> None:
    """PATH, ``--json`` and the corrected figures' ``--labels`` / ``--errata``."""
    from inspector.cli.errata import add_options

    _runs_arguments(p)
    add_options(p)  # corrected figures: --labels / --errata (docs/errata.md)


def failures_arguments(p: argparse.ArgumentParser) -> None:
    """PATH, ``--json`` and ``--run``."""
    _runs_arguments(p)
    p.add_argument("--run", help="only this run: its id (exact, else a part of it)")
