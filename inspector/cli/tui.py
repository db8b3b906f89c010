"""``inspector [app]`` and ``inspector replay``: the commands that open a Textual app."""

from __future__ import annotations

import argparse
from pathlib import Path

from inspector import paths
from inspector.cli.errors import CliError, cli_settings


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
                 read_only=args.read_only,
                 allow_local_exec=getattr(args, "allow_local_exec", False)).run()
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




def app_arguments(app: argparse.ArgumentParser) -> None:
    """PATH, the theme, watching, the annotator and the labels folder."""
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
    app.add_argument("--allow-local-exec", action="store_true",
                     help="let re-runs and requests choose the local backend (the generated "
                     "code runs as your own processes); without it they deploy on Docker")


def replay_arguments(rp: argparse.ArgumentParser) -> None:
    """TARGET [TASK] and the playback options."""
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
