"""``inspector evaluate``: deploy and test generated repos, writing a run."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path

from inspector.cli.errors import CliError, cli_settings
from inspector.cli.runs import pct_cell


def cmd_evaluate(args: argparse.Namespace) -> int:
    from inspector.cli.progress import EvaluationDisplay
    from inspector.services.deploy.backend import Limits
    from inspector.services.evaluate.run import EvaluationError, EvaluationPlan, Evaluator
    from inspector.services.figures.metrics import compute_run_metrics

    settings = cli_settings()
    from inspector.cli.args import apply_maven_options
    from inspector.services.deploy.choose import backend_factory

    apply_maven_options(args)
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
    fig = {k: pct_cell(v).strip() for k, v in (("pass@1", m.pass_at_1), ("test pass",
           m.test_pass_ratio), ("AC", m.api_coverage), ("DSR", m.dsr))}
    print(f"{run.id}: {m.samples} samples{n_e}, "
          + ", ".join(f"{k} {v}" for k, v in fig.items()) + f" -> {plan.out}")
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




def evaluate_arguments(ev: argparse.ArgumentParser) -> None:
    """Tasks, predictions, the output run, the backend, the executor and the limits."""
    from inspector.cli.args import add_maven_options, add_phase_limits

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
    add_phase_limits(ev)
    add_maven_options(ev)
    ev.add_argument("--repogenesis-out", help="also write the stock RepoGenesis output here")
    ev.add_argument("--repogenesis-layout", choices=["current", "flat"], default="current",
                    help="report_<stamp>.json + intermediate/<stamp>/ or report.json + "
                         "intermediate/")
    ev.add_argument("--quiet", action="store_true")
