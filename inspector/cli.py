"""Command line: ``inspector [PATH]``, ``summary``, ``failures``, ``evaluate``, ``replay``.

Thin over the services. Every error a user can cause prints one clear line and exits non-zero.
What reaches a terminal is sanitised (:mod:`inspector.cli_output`); piped output is exact.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from inspector import __version__, cli_unreadable, paths
from inspector.cli_errors import CliError, cli_settings
from inspector.cli_output import print_json, protect_terminal, terminal_safe

if TYPE_CHECKING:
    from inspector.model import LoadIssue
    from inspector.model.runs.discover import Discovery

COMMANDS = ("summary", "failures", "evaluate", "app", "replay", "rerun", "request", "sandbox",
            "labels", "compare", "analyze", "report", "serve")
TAMPER_LINES = 20  # samples with tampering attempts named by `summary`


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:5.1f}%"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    rows = [[terminal_safe(c) for c in r] for r in rows]  # laid out as the terminal shows it
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip(),
             "  ".join("-" * w for w in widths)]
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)


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
    from inspector import cli_errata
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
        k = ", ".join(f"@{k} {_pct(v).strip()}" for k, v in m.pass_at_k.items())
        # no evaluable sample: no figure (a 0 % would blame the model)
        fig = _pct if m.samples else (lambda x: _pct(None))
        rows.append([
            m.run_id, m.agent, m.model, m.language, "ours" if m.format != "repogenesis"
            else "stock", str(m.tasks), m.samples_cell,
            fig(m.pass_at_1) + (f" ({k})" if k else ""),
            fig(m.test_pass_ratio), fig(m.api_coverage), fig(m.dsr),
            str(m.suites_not_run),
        ])
    print(_table(["run", "agent", "model", "lang", "format", "tasks", "samples", "pass@1",
                  "test pass", "AC", "DSR", "suites not run"], rows))
    for run in found.runs:
        for tw in found.twins_of(run):
            print(f"  {run.id}: also in the stock layout at {_shown(tw.run.source.path)} "
                  f"({tw.run.id}; linked by {tw.how})")
    if corrected is not None:
        cli_errata.print_section(corrected, metrics, _table, _shown)
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
    print(_table(["run", "task", "#", "test", "outcome", "message"], [
        [r.run_id, r.task, "-" if r.sample is None else str(r.sample), r.test_id or "-",
         r.outcome, r.message[:100]]
        for r in rows if r.outcome != "unreadable"]))
    unreadable = [r for r in rows if r.outcome == "unreadable"]
    if unreadable:  # whole lines: a reason is never cut
        print("\nUnreadable files (their samples have no verdict and are in no figure):")
        print("\n".join(f"  {r.run_id}: {r.file}: {r.message}" for r in unreadable))
    tampered = [r for r in rows if r.tampering]
    if tampered:
        from inspector.services.tamper.findings import finding_line

        print("\nTampering attempts (kept out of the golden test runs; verdicts unaffected):")
        for r in sorted(tampered, key=lambda r: not r.deliberate):
            print(f"  {r.sample_id}: tampering attempt"
                  f"{' (deliberate)' if r.deliberate else ''}")
            for f in r.tampering:
                print(f"    {finding_line(f)}")
    return cli_unreadable.exit_code(found.runs)


def cmd_evaluate(args: argparse.Namespace) -> int:
    from inspector.cli_progress import EvaluationDisplay
    from inspector.services.deploy.backend import Limits
    from inspector.services.evaluate.run import EvaluationError, EvaluationPlan, Evaluator
    from inspector.services.figures.metrics import compute_run_metrics

    settings = cli_settings()
    from inspector.services.deploy.choose import backend_factory
    from inspector.services.deploy.warm import DeployError

    allow_local = args.allow_local_exec or settings.allow_local_exec
    any_source = args.allow_any_package_source or settings.allow_any_package_source
    backend = None
    if args.executor == "local":  # a cluster's nodes make their own backends
        try:
            backend = backend_factory(allow_local, any_source=any_source)(args.backend)
        except DeployError as exc:
            raise CliError(str(exc)) from None
    plan = EvaluationPlan(
        tasks_root=Path(args.tasks), predictions=[Path(p) for p in args.predictions],
        out=Path(args.out), jobs=args.jobs,
        limits=Limits(install=args.install_timeout, startup=args.startup_timeout,
                      tests=args.test_timeout, log_cap_mb=args.log_cap_mb),
        run_id=args.run_id, agent=args.agent, model=args.model, only_tasks=args.task or None,
        overwrite=args.overwrite,
        repogenesis_out=Path(args.repogenesis_out) if args.repogenesis_out else None,
        repogenesis_layout=args.repogenesis_layout,
    )
    cancel = threading.Event()
    display = EvaluationDisplay(quiet=args.quiet)

    def on_sigint(signum: int, frame: object) -> None:
        if cancel.is_set():
            raise KeyboardInterrupt
        display.note("inspector: cancelling: stopping services and cleaning up (Ctrl-C again "
                     "to abort)")
        cancel.set()

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        evaluator = Evaluator(plan, backend, display.message, cancel, on_board=display.attach)
        executor = None
        if args.executor == "ray":
            from inspector.services.evaluate.ray_executor import RayExecutor, RaySettings

            executor = RayExecutor(RaySettings(
                address=args.address, backend=args.backend, allow_local=allow_local,
                any_source=any_source, cpus_per_sample=args.cpus_per_sample,
                max_retries=args.max_infra_retries), plan.out, display.message, cancel)
        with display:
            run = evaluator.run(executor)
    except EvaluationError as exc:
        raise CliError(str(exc)) from None
    finally:
        signal.signal(signal.SIGINT, previous)
    m = compute_run_metrics(run)
    n_e = f" (+{m.not_evaluable} not evaluable)" if m.not_evaluable else ""
    print(f"{run.id}: {m.samples} samples{n_e}, pass@1 {_pct(m.pass_at_1).strip()}, "
          f"test pass {_pct(m.test_pass_ratio).strip()}, AC {_pct(m.api_coverage).strip()}, "
          f"DSR {_pct(m.dsr).strip()} -> {plan.out}")
    for d in m.differences:
        print(f"  note: {d}")
    if evaluator.resumed:
        print(f"  resumed: {evaluator.resumed} sample(s) were already evaluated")
    if m.not_evaluable:
        print(f"inspector: {m.not_evaluable} sample(s) not evaluable (the infrastructure, not "
              "the model; in no figure): `inspector summary` lists why; run the same command "
              "again to evaluate them", file=sys.stderr)
    if evaluator.infra_failures:
        print(f"inspector: {evaluator.infra_failures} sample(s) failed for infrastructure "
              "reasons (not the model's); run the same command again to evaluate them",
              file=sys.stderr)
        return 1
    return 130 if cancel.is_set() else 0


def cmd_app(args: argparse.Namespace) -> int:
    root = Path(args.path) if args.path else paths.sample_runs()
    if not root.exists():
        raise CliError.missing(root)
    settings = cli_settings()
    from inspector.model.labels.label_file import valid_annotator
    from inspector.ui.app import InspectorApp

    if args.annotator and not valid_annotator(args.annotator):
        raise CliError(f"--annotator {args.annotator!r}: use letters, digits, '.', '_' or '-'")
    InspectorApp(root, settings=settings, theme=args.theme, watch=not args.no_watch,
                 annotator=args.annotator, blind=True if args.blind else None,
                 labels_dir=Path(args.labels) if args.labels else None,
                 read_only=args.read_only).run()
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from inspector.model.results.outcomes import Phase
    from inspector.services.logs.deployment_log import NoLogError, locate_sample_log

    speeds = {"1": 1.0, "2": 2.0, "5": 5.0, "10": 10.0, "50": 50.0, "max": None}
    speed = speeds.get(args.speed.lower().removesuffix("x"), -1.0)
    if speed == -1.0:
        raise CliError(f"--speed {args.speed}: choose one of 1, 2, 5, 10, 50, max")
    if not Path(args.target).exists():
        raise CliError.missing(Path(args.target))
    try:
        log = locate_sample_log(Path(args.target), args.task, args.sample, args.run)
    except NoLogError as exc:
        raise CliError.of(exc) from None
    settings = cli_settings()
    from inspector.ui.replay_app import ReplayApp

    ReplayApp(log, settings=settings, theme=args.theme, speed=speed,
              phase=Phase(args.phase) if args.phase else None, play=args.play or args.demo,
              demo=args.demo, follow=args.follow, idle_limit=args.idle_limit).run()
    return 0


def build_parser() -> argparse.ArgumentParser:
    from inspector.cli_sandbox import positive_mb
    from inspector.services.logs.caps import DEFAULT_LOG_CAP_MB

    p = argparse.ArgumentParser(
        prog="inspector",
        description="Browse, replay, re-run and label RepoGenesis-style evaluations. "
                    "`inspector [PATH]` opens the app (default: the bundled sample_runs).")
    p.add_argument("--version", action="version", version=f"genesis-inspector {__version__}")
    sub = p.add_subparsers(dest="command")
    for name, help_text in (("summary", "metrics for every run under PATH"),
                            ("failures", "every failing test or failed deployment")):
        sp = sub.add_parser(name, help=help_text)
        sp.add_argument("path", nargs="?", help="runs folder (default: bundled sample_runs)")
        sp.add_argument("--json", action="store_true", help="machine-readable output")
        if name == "summary":
            from inspector.cli_errata import add_options

            add_options(sp)  # corrected figures: --labels / --errata (docs/errata.md)
        if name == "failures":
            sp.add_argument("--run", help="only this run: its id (exact, else a part of it)")
    app = sub.add_parser("app", help="open the inspector (same as `inspector [PATH]`)")
    app.add_argument("path", nargs="?")
    app.add_argument("--theme", help="colour theme (default: the saved choice, else "
                     "genesis-dark); Ctrl+P > theme changes and saves it")
    app.add_argument("--no-watch", action="store_true",
                     help="do not watch the folder for runs appearing or changing")
    app.add_argument("--annotator", help="your name in label files (default: config "
                     "'annotator', $GENESIS_INSPECTOR_ANNOTATOR, else your login name)")
    app.add_argument("--blind", action="store_true",
                     help="blind labelling: others' labels stay hidden until you label the item")
    app.add_argument("--labels", metavar="DIR",
                     help="labels folder (default: PATH/labels, or the nearest parent's)")
    app.add_argument("--read-only", action="store_true", help="no re-runs, requests, label "
                     "writes, exports or sandbox stops (as `inspector serve --read-only`)")
    rp = sub.add_parser(
        "replay", help="replay a deployment log with its original timing",
        description="Replay a deployment log. TARGET is a log file or a sample folder "
                    "(followed with --follow while a run is in progress), or a runs/run/"
                    "RepoGenesis folder with TASK naming the sample.")
    rp.add_argument("target", help="log file, sample folder, or runs folder")
    rp.add_argument("task", nargs="?", help="task of the sample (when TARGET holds runs)")
    rp.add_argument("--sample", type=int, default=0, help="sample number (default 0)")
    rp.add_argument("--run", help="part of the run id, when several runs hold TASK")
    rp.add_argument("--speed", default="1", help="1, 2, 5, 10, 50 or max (default 1)")
    rp.add_argument("--phase", choices=["install", "start", "health", "tests"],
                    help="start at this phase")
    rp.add_argument("--play", action="store_true", help="start playing at once")
    rp.add_argument("--demo", action="store_true",
                    help="presentation mode: big clock, noise hidden, plays at once")
    rp.add_argument("--follow", action="store_true", help="follow a log still being written")
    rp.add_argument("--idle-limit", type=float, default=None, metavar="SECONDS",
                    help="play longer pauses between lines as this long")
    rp.add_argument("--theme", help="colour theme")
    ev = sub.add_parser("evaluate", help="deploy and test generated repos, writing a run")
    ev.add_argument("--tasks", required=True, help="tasks root (holds repo/<task>/README.md)")
    ev.add_argument("--predictions", required=True, action="append",
                    help="predictions folder (<task>/ sub-folders); repeat for more samples")
    ev.add_argument("--out", required=True, help="run folder to write")
    ev.add_argument("--jobs", type=int, default=1, help="samples evaluated at once")
    ev.add_argument("--backend", default="local", choices=["local", "docker"])
    ev.add_argument("--executor", default="local", choices=["local", "ray"],
                    help="where samples run: threads here (--jobs), or Ray tasks on a "
                         "cluster (pip install 'genesis-inspector[cluster]'; docs/cluster.md)")
    ev.add_argument("--address", help="Ray cluster to use (ray://host:10001 or host:6379; "
                                      "default: a private cluster on this machine)")
    ev.add_argument("--cpus-per-sample", type=float, default=1.0,
                    help="CPUs a sample reserves on a Ray node (default 1)")
    ev.add_argument("--max-infra-retries", type=int, default=2,
                    help="times a sample the cluster's infrastructure failed is retried")
    ev.add_argument("--allow-local-exec", action="store_true",
                    help="allow running untrusted generated code as local processes")
    ev.add_argument("--allow-any-package-source", action="store_true",
                    help="install requirements from URLs, VCS links, local paths or other "
                         "indexes too (default: only the configured package index)")
    ev.add_argument("--task", action="append", help="evaluate only this task (repeatable)")
    ev.add_argument("--run-id")
    ev.add_argument("--agent")
    ev.add_argument("--model")
    ev.add_argument("--overwrite", action="store_true",
                    help="replace an existing run (without it, the same command on a "
                         "partial run resumes it)")
    ev.add_argument("--install-timeout", type=float, default=600.0)
    ev.add_argument("--startup-timeout", type=float, default=15.0)
    ev.add_argument("--test-timeout", type=float, default=300.0)
    ev.add_argument("--log-cap-mb", type=positive_mb, default=DEFAULT_LOG_CAP_MB, metavar="MB",
                    help="cap on each phase log; its head and tail are kept "
                         f"(default {DEFAULT_LOG_CAP_MB:g})")
    ev.add_argument("--repogenesis-out", help="also write the stock RepoGenesis output here")
    ev.add_argument("--repogenesis-layout", choices=["current", "flat"], default="current",
                    help="report_<stamp>.json + intermediate/<stamp>/ or report.json + "
                         "intermediate/")
    ev.add_argument("--quiet", action="store_true")
    from inspector import cli_analyze, cli_compare, cli_labels, cli_report, cli_sandbox

    cli_sandbox.add_parsers(sub)
    cli_labels.add_parsers(sub)
    cli_compare.add_compare(sub)
    # `analyze` is created with its --runs analysis; the others add their options to it
    cli_analyze.add_options(cli_compare.add_analyze_runs(sub))
    cli_report.add_parser(sub)
    from inspector import cli_serve

    cli_serve.add_parser(sub)
    return p


def cmd_analyze(args: argparse.Namespace) -> int:
    """``inspector analyze PATH [--runs|--tasks|--code]`` (default ``--runs``); each analysis
    is its own module's."""
    from inspector import cli_analyze, cli_compare

    if args.runs and (args.tasks or args.code):
        raise CliError("analyze: --runs goes alone (--tasks and --code may go together)")
    if (args.export or args.compare) and not args.runs:
        raise CliError("analyze: --export and --compare go with --runs")
    if args.tasks or args.code:
        return cli_analyze.cmd_analyze(args)
    # --runs, and the default: the whole run analysis (as the app's Analysis tab shows it)
    return cli_compare.cmd_analyze_runs(args)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        argv = ["app", *argv]  # `inspector [PATH] [--theme NAME]` opens the app
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command == "rerun" and not any(e.startswith("-") for e in extra):
        args.test_id = [*args.test_id, *extra]  # test ids given after options
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    handlers = {"summary": cmd_summary, "failures": cmd_failures, "evaluate": cmd_evaluate,
                "app": cmd_app, "replay": cmd_replay}
    if args.command in ("rerun", "request", "sandbox"):
        from inspector import cli_sandbox

        handlers[args.command] = getattr(cli_sandbox, f"cmd_{args.command}")
    from inspector.cli_labels import cmd_labels

    handlers["labels"] = cmd_labels
    from inspector.cli_compare import cmd_compare

    handlers["compare"] = cmd_compare
    handlers["analyze"] = cmd_analyze
    from inspector.cli_report import cmd_report

    handlers["report"] = cmd_report
    if args.command == "serve":
        from inspector.cli_serve import cmd_serve

        handlers["serve"] = cmd_serve

    # The app and replay draw the terminal themselves (Textual, every string shown as text)
    tui = args.command in ("app", "replay")
    with nullcontext() if tui else protect_terminal():
        try:
            return handlers[args.command](args)
        except CliError as exc:
            _print_error(exc)
            return exc.exit_code
        except KeyboardInterrupt:
            print("inspector: interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:
            return 0


def _print_error(exc: Exception) -> None:
    print(f"inspector: error: {terminal_safe(str(exc), sys.stderr)}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
