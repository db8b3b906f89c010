"""``inspector [PATH]`` and its commands: the parser, the dispatch and the help, all from
:mod:`inspector.cli.registry`.

Every error a user can cause prints one clear line and exits non-zero. What reaches a terminal
is sanitised (:mod:`inspector.cli.output`); piped output is exact.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext

from inspector import __version__
from inspector.cli.errors import CliError
from inspector.cli.output import protect_terminal, terminal_safe
from inspector.cli.registry import APP, COMMANDS, command_named


def build_parser() -> argparse.ArgumentParser:
    """The ``inspector`` parser: one sub-command per registered command."""
    p = argparse.ArgumentParser(
        prog="inspector",
        description="Browse, replay, re-run and label RepoGenesis-style evaluations. "
                    "`inspector [PATH]` opens the app (default: the bundled sample_runs).")
    p.add_argument("--version", action="version", version=f"genesis-inspector {__version__}")
    sub = p.add_subparsers(dest="command")
    for command in COMMANDS:
        command.add_to(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` names (default: open the app); its exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    names = {c.name for c in COMMANDS}
    if not argv or (argv[0] not in names and argv[0] not in ("-h", "--help", "--version")):
        argv = [APP.name, *argv]  # `inspector [PATH] [--theme NAME]` opens the app
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    command = command_named(args.command).chosen(args)
    if extra and command.trailing and not any(e.startswith("-") for e in extra):
        # positionals given after the options (`rerun RUN TASK --quiet test_a test_b`)
        setattr(args, command.trailing, [*getattr(args, command.trailing), *extra])
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    assert command.run is not None, command.name
    # The app and replay draw the terminal themselves (Textual, every string shown as text)
    with nullcontext() if command.tui else protect_terminal():
        try:
            return command.run(args)
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
