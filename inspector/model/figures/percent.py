"""Fractions as the CLI, the app and the reports print them: ``12.5%`` and ``+12.5 pp``."""

from __future__ import annotations

DASH = "—"
"""What :func:`pct` shows for an undefined fraction unless told otherwise."""
NA = "n/a"
"""The other mark for an undefined figure (label agreement and triage scores)."""


def pct(x: float | None, missing: str = DASH) -> str:
    """The fraction ``x`` as a percentage with one decimal (``0.125`` → ``12.5%``);
    ``missing`` when it is undefined (None)."""
    return missing if x is None else f"{x * 100:.1f}%"


def pp(x: float) -> str:
    """A difference of fractions in signed percentage points (``0.125`` → ``+12.5 pp``)."""
    return f"{x * 100:+.1f} pp"
