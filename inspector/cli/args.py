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
