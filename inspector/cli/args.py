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
