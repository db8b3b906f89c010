"""Time bounds that guard against blow-ups (quadratic regexes, unbounded buffers), scaled to
how busy the machine is right now.

A bound written for an idle machine fails on a loaded CI box (two cores shared with Docker
builds and browsers) without any change in the code. :func:`budget` multiplies it by the
machine's present slowdown, measured on a fixed piece of pure-Python work just before: a
regression that makes the work 10x or 100x slower still fails, noise does not. Speed itself is
measured in ``bench/``, not here.
"""

from __future__ import annotations

import time

# the reference work below on an idle 2-core machine (CPython 3.11), in seconds
_IDLE_SECONDS = 0.02


def _reference() -> float:
    start = time.perf_counter()
    sum(i * i for i in range(300_000))
    return time.perf_counter() - start


def slowdown() -> float:
    """How many times slower than idle this machine runs pure Python now (at least 1)."""
    return max(1.0, min(_reference() for _ in range(3)) / _IDLE_SECONDS)


def budget(idle_seconds: float) -> float:
    """``idle_seconds`` scaled by the present :func:`slowdown`."""
    return idle_seconds * slowdown()
