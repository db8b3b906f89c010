"""Every command of ``inspector``, in the order ``inspector --help`` lists them.

Each command is named here once; :mod:`inspector.cli.entry` builds the parser from this list
and runs the handler of the command (or action) given.
"""

from __future__ import annotations

import argparse

from inspector.cli import (
    analyze,
    compare,
    errata,
    evaluate,
    labels,
    report,
    runs,
    sandbox,
    serve,
    tui,
)
from inspector.cli.command import Command


def _analyze_arguments(an: argparse.ArgumentParser) -> None:
    compare.analyze_arguments(an)  # PATH, --json, --runs
    analyze.add_options(an)  # --tasks, --code


APP = Command("app", "open the inspector (same as `inspector [PATH]`)", tui.app_arguments,
              tui.cmd_app, tui=True)

COMMANDS: tuple[Command, ...] = (
    Command("summary", "metrics for every run under PATH", runs.summary_arguments,
            runs.cmd_summary),
    Command("failures", "every failing test or failed deployment", runs.failures_arguments,
            runs.cmd_failures),
    APP,
    Command("replay", "replay a deployment log with its original timing", tui.replay_arguments,
            tui.cmd_replay, tui=True,
            description="Replay a deployment log. TARGET is a log file or a sample folder "
                        "(followed with --follow while a run is in progress), or a runs/run/"
                        "RepoGenesis folder with TASK naming the sample."),
    Command("evaluate", "deploy and test generated repos, writing a run",
            evaluate.evaluate_arguments, evaluate.cmd_evaluate),
    Command("rerun", "redeploy one sample and run one test (or all its failures) again",
            sandbox.rerun_arguments, sandbox.cmd_rerun, trailing="test_id",
            description="Redeploy a generated repo in a sandbox and run tests against it. Exit "
                        "code 0: the tests pass; 1: a test fails; 2: the repo could not be "
                        "deployed."),
    Command("request", "send one HTTP request to a redeployed sample", sandbox.request_arguments,
            sandbox.cmd_request),
    Command("sandbox", "build the sandbox base image; list/stop sandboxes", actions=(
        Command("init", "build the base image locally (debootstrap + docker import; mirror "
                        "from the apt sources)", sandbox.init_arguments, sandbox.cmd_sandbox_init),
        Command("ls", "list sandbox containers", sandbox.ls_arguments, sandbox.cmd_sandbox_ls),
        Command("stop", "stop and remove sandboxes", sandbox.stop_arguments,
                sandbox.cmd_sandbox_stop),
        Command("prune", "remove leftovers of inspectors that are gone", None,
                sandbox.cmd_sandbox_prune),
    )),
    Command("labels", "failure labels: agreement, export, suggestions, check",
            description="Work with failure labels (labels/annotators/<name>.json next to the "
                        "runs).", actions=(
        Command("agreement", "Cohen's kappa per annotator pair, Krippendorff's alpha overall "
                             "and per category", labels.agreement_arguments,
                labels.cmd_agreement),
        Command("export", "the paper's failure-category table, plus per-run and per-agent "
                          "breakdowns", labels.export_arguments, labels.cmd_export),
        Command("suggest", "the suggested category of every failing sample, and how often it "
                           "matches the labels", labels.suggest_arguments, labels.cmd_suggest),
        Command("check", "validate every label file and the taxonomy", labels.check_arguments,
                labels.cmd_check),
        Command("errata", "the tests labelled 'not-model' as an errata file another lab can "
                          "apply (`summary --errata FILE`)", errata.errata_arguments,
                errata.cmd_errata),
    )),
    Command("compare", "paired comparison of two runs on the same tasks",
            compare.compare_arguments, compare.cmd_compare,
            description="Per-task wins and losses, McNemar's exact test on strict pass, paired "
                        "bootstrap 95%% CIs of the differences in pass@1 and test pass ratio, "
                        "pass@k and pass^k with several samples, generation cost when "
                        "recorded. RUN_A and RUN_B are run folders, or run ids (or a unique "
                        "part of one) under --root."),
    Command("analyze", "analyses of the runs under PATH", _analyze_arguments,
            analyze.cmd_analyze,
            description="--runs (the default): Pass@1 by difficulty tier, framework and "
                        "language per run, failure categories (labels) by agent, tier and "
                        "framework, generation cost vs pass. --tasks: spec complexity of every "
                        "task README and the RepoGenesis difficulty from reference "
                        "implementations (--oracle). --code: SLOC, functions, classes, "
                        "cyclomatic and cognitive complexity of every sample's repo (radon + "
                        "complexipy for Python, lizard for Java)."),
    Command("report", "one self-contained HTML file to share a triage", report.report_arguments,
            report.cmd_report,
            description="Write one self-contained HTML page (no network at view time): the "
                        "summary per run, the run x task matrix linking failing cells to their "
                        "sample's failing tests and log tail, benchmark health, label tables "
                        "and agreement, and the run analysis plots. The same input gives the "
                        "same bytes."),
    Command("serve", "serve the app in a browser (one app process per tab)",
            serve.serve_arguments, serve.cmd_serve,
            description="Serve the inspector in a web browser: each tab runs its own app "
                        "process. Any host but loopback needs a token (generated when not "
                        "given); the URL to open is printed."),
)


def command_named(name: str) -> Command:
    """The command called ``name`` (one of :data:`COMMANDS`)."""
    return next(c for c in COMMANDS if c.name == name)
