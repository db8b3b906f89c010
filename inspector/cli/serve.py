"""``inspector serve [PATH]``: the app in a browser (textual-serve), thin over
:mod:`inspector.services.serve`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from inspector import paths
from inspector.cli.errors import CliError

if TYPE_CHECKING:
    from inspector.services.serve.server import InspectorServer

DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 4


def serve_arguments(sp: argparse.ArgumentParser) -> None:
    """PATH, the address, the access and the sessions."""
    sp.add_argument("path", nargs="?", help="runs folder (default: bundled sample_runs)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1, this machine only)")
    sp.add_argument("--port", type=int, default=DEFAULT_PORT,
                    help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    sp.add_argument("--read-only", action="store_true",
                    help="sessions cannot re-run, send requests, write labels, export or stop "
                         "sandboxes")
    sp.add_argument("--allow-writes", action="store_true",
                    help="with a --host beyond loopback, let sessions write (re-run generated "
                         "code, send requests, write labels): anyone with the link can")
    sp.add_argument("--token", help="token the URL must carry (?token=…); required with any "
                    "host but loopback, where a random one is made when not given")
    sp.add_argument("--max-sessions", type=int, default=DEFAULT_MAX_SESSIONS, metavar="N",
                    help=f"app processes at once, one per tab (default {DEFAULT_MAX_SESSIONS})")
    sp.add_argument("--theme", help="colour theme of every session")


def cmd_serve(args: argparse.Namespace) -> int:
    from inspector.services.serve.access import Access, is_loopback, page_url
    from inspector.services.serve.addresses import reachable_hosts
    from inspector.services.serve.command import EXPOSED_TEXT, AppCommand
    from inspector.services.serve.server import ServeConfig, serve_forever

    root = Path(args.path) if args.path else paths.sample_runs()
    if not root.exists():
        raise CliError.missing(root)
    if not 0 <= args.port <= 65535:
        raise CliError(f"--port {args.port}: use 0 to 65535")
    if args.max_sessions < 1:
        raise CliError(f"--max-sessions {args.max_sessions}: must be at least 1")
    exposed = not is_loopback(args.host) and not args.read_only
    if exposed and not args.allow_writes:
        raise CliError(f"--host {args.host} without --read-only: anyone with the link could "
                       "re-run generated code on this machine; add --read-only, or "
                       "--allow-writes to accept that")
    try:
        access = Access.for_host(args.host, args.token)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    config = ServeConfig(AppCommand(root.resolve(), read_only=args.read_only, theme=args.theme,
                                    exposed=exposed),
                         access, max_sessions=args.max_sessions)

    def announce(server: InspectorServer) -> None:
        mode = " (read-only)" if args.read_only else ""
        print(f"Serving {root}{mode} at "
              f"{page_url(args.host, server.port, access.token, server.path)}", flush=True)
        for i, name in enumerate(reachable_hosts(args.host)):
            lead = "  from another machine: " if i == 0 else " " * 24
            print(lead + page_url(name, server.port, access.token, server.path), flush=True)
        print(f"  at most {args.max_sessions} sessions at once (one app process per tab); "
              "Ctrl+C stops the server and every session", flush=True)
        if exposed:
            print(f"WARNING: {EXPOSED_TEXT} on this machine (--host {args.host} "
                  "--allow-writes): re-runs, requests and label writes; --read-only browses "
                  "only", file=sys.stderr, flush=True)

    import logging

    logging.basicConfig(format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    logging.getLogger("inspector.serve").setLevel(logging.INFO)  # sessions started and ended
    try:
        serve_forever(config, args.host, args.port, announce)
    except OSError as exc:
        raise CliError(f"cannot listen on {args.host}:{args.port}: "
                       f"{exc.strerror or exc}") from None
    print("inspector serve: stopped", file=sys.stderr)
    return 0
