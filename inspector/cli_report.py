"""``inspector report PATH --html OUT.html``: thin over :mod:`inspector.services.report`."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from inspector import paths
from inspector.cli_errors import CliError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rp = sub.add_parser(
        "report", help="one self-contained HTML file to share a triage",
        description="Write one self-contained HTML page (no network at view time): the "
                    "summary per run, the run x task matrix linking failing cells to their "
                    "sample's failing tests and log tail, benchmark health, label tables and "
                    "agreement, and the run analysis plots. The same input gives the same "
                    "bytes.")
    rp.add_argument("path", nargs="?", help="runs folder (default: bundled sample_runs)")
    rp.add_argument("--html", required=True, metavar="OUT.html", help="the file to write")
    rp.add_argument("--labels", metavar="DIR",
                    help="labels folder (default: PATH/labels, or the nearest parent's)")
    rp.add_argument("--view", choices=["sample", "root", "test"], default="sample",
                    help="what the failure-category tables count: each labelled sample once "
                         "under its primary category (default), each root cause once, or "
                         "each labelled test")
    rp.add_argument("--quiet", action="store_true", help="print nothing but errors")


def cmd_report(args: argparse.Namespace) -> int:
    from inspector.model.untrusted.errors import LoadError
    from inspector.services.report.load import ReportError, load_report
    from inspector.services.report.page import render
    from inspector.services.storage.atomic import atomic_writer

    root = Path(args.path) if args.path else paths.sample_runs()
    if not root.exists():
        raise CliError.missing(root)
    if not root.is_dir():
        raise CliError(f"{root}: not a folder")
    out = Path(args.html)
    if out.is_dir():
        raise CliError(f"{out}: is a folder; --html names the file to write")
    if not out.parent.is_dir():
        raise CliError(f"{out.parent}: no such folder (for --html {out})")
    labels = Path(args.labels) if args.labels else None
    if labels is not None and not labels.is_dir():
        raise CliError(f"{labels}: no such labels folder")

    def step(what: str) -> None:
        if not args.quiet:
            print(f"report: {what}…", file=sys.stderr)

    started = time.perf_counter()
    try:
        data = load_report(root, args.path or str(root), labels_dir=labels, step=step,
                           view=args.view)
    except ReportError as exc:
        raise CliError(str(exc)) from None
    except LoadError as exc:
        raise CliError.of(exc) from None
    page = render(data).encode("utf-8")
    try:
        with atomic_writer(out, 0o644) as fh:
            fh.write(page)
    except OSError as exc:
        raise CliError(f"{out}: cannot write: {exc.strerror or exc}") from None
    if not args.quiet:
        left = data.failing_samples - len(data.details)
        print(f"wrote {out}: {len(page) / 1e6:.2f} MB, {len(data.runs)} runs, "
              f"{len(data.tasks)} tasks, {len(data.details)} sample sections"
              + (f" ({left} failing samples left out by the caps)" if left else "")
              + f", {time.perf_counter() - started:.1f} s")
    return 0
