"""Argparse types shared by the CLI's sub-commands: whole numbers with a lower bound."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(minimum: int, too_small: str) -> Callable[[str], int]:
    """An argparse type: a whole number ``minimum`` or more. ``too_small`` is the error for
    one below it, formatted with ``text`` (as typed) and ``value``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(too_small.format(text=text, value=value))
        return value

    return parse


at_least_one = whole_number(1, "{text!r}: give 1 or more")
"""1 or more (``--keep-reruns``)."""
positive = whole_number(1, "must be at least 1, got {value}")
"""1 or more (``--resamples``)."""
non_negative = whole_number(0, "must be 0 or more, got {value}")
"""0 or more (``--seed``)."""


def positive_mb(text: str) -> float:
    """An argparse type: a size in MB above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of MB") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: give a size above 0 MB")
    return value


def add_phase_limits(p: argparse._ActionsContainer) -> None:
    """The timeouts of a deployment's phases and the cap on each phase log (every command
    that deploys a sample: ``evaluate``, the sandbox and re-run commands)."""
    from inspector.services.logs.caps import DEFAULT_LOG_CAP_MB

    p.add_argument("--install-timeout", type=float, default=600.0)
    p.add_argument("--startup-timeout", type=float, default=15.0)
    p.add_argument("--test-timeout", type=float, default=300.0)
    p.add_argument("--log-cap-mb", type=positive_mb, default=DEFAULT_LOG_CAP_MB, metavar="MB",
                   help="cap on each phase log; its head and tail are kept "
                        f"(default {DEFAULT_LOG_CAP_MB:g})")


def add_maven_options(p: argparse._ActionsContainer) -> None:
    """Where Maven resolves a Java repo's artifacts (every command that deploys a sample)."""
    p.add_argument("--maven-repo", metavar="URL",
                   help="Java: resolve through this Maven mirror or proxy only (written into a "
                        "generated settings.xml as the mirror of every repository); "
                        "$INSPECTOR_MAVEN_REPO")
    p.add_argument("--maven-local", metavar="DIR",
                   help="Java: resolve from this local Maven repository folder only (read-only; "
                        "e.g. /usr/share/maven-repo); $INSPECTOR_MAVEN_LOCAL. With neither: "
                        "offline, the per-machine artifact cache only")
    p.add_argument("--maven-complete", action="store_true",
                   help="Java: the --maven-local folder holds everything a repo may use (e.g. "
                        "a task whose README lists the artifacts available): an artifact "
                        "missing from it is the repo's dependency failure, not the machine's; "
                        "$INSPECTOR_MAVEN_COMPLETE=1")


def apply_maven_options(args: argparse.Namespace) -> None:
    """Check the Maven options and hand them to the backends this process (and a private Ray
    cluster it starts) creates, through their environment variables."""
    import os

    from inspector.cli.errors import CliError
    from inspector.services.host.maven_source import (
        COMPLETE_ENV,
        LOCAL_ENV,
        URL_ENV,
        MavenSourceError,
        maven_source,
    )

    url, local = getattr(args, "maven_repo", None), getattr(args, "maven_local", None)
    complete = bool(getattr(args, "maven_complete", False))
    if complete:
        os.environ[COMPLETE_ENV] = "1"
    if not url and not local:
        if complete and not os.environ.get(LOCAL_ENV):
            raise CliError("--maven-complete is about a --maven-local folder: give one")
        return
    try:
        source = maven_source(url, local, complete or None)
    except MavenSourceError as exc:
        raise CliError(str(exc)) from None
    os.environ.pop(URL_ENV if source.kind == "local" else LOCAL_ENV, None)
    os.environ[URL_ENV if source.kind == "url" else LOCAL_ENV] = source.location
