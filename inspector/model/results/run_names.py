"""Short names for runs in narrow places: ids elided in the middle, and the part of a run id
that tells apart runs sharing one agent/model label."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

ELLIPSIS = "…"
_SEP = re.compile(r"([_\-.:/\s]+)")


def elide_middle(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters by dropping its middle ("claude-…-2025-01")."""
    if len(text) <= width:
        return text
    if width <= 1:
        return ELLIPSIS[:width]
    head = width // 2
    tail = width - 1 - head
    return text[:head] + ELLIPSIS + (text[-tail:] if tail else "")


def _middle(tokens: list[list[str]]) -> list[str]:
    """The tokens no id shares with all the others at its start or end, joined per id."""
    shortest = min(len(t) for t in tokens)
    pre = 0
    while pre < shortest and len({t[pre] for t in tokens}) == 1:
        pre += 1
    post = 0
    while post < shortest - pre and len({t[-1 - post] for t in tokens}) == 1:
        post += 1
    return ["".join(t[pre:len(t) - post]).strip("_-.:/ ") for t in tokens]


def distinct_parts(ids: Sequence[str]) -> list[str]:
    """For ids that must be told apart, the part of each that differs from the others
    (``1119`` and ``1125`` for ``repo_1119_relay_Python`` and ``repo_1125_relay_Python``);
    ``""`` for an id that has no part of its own (an id the others extend)."""
    if len(ids) < 2:
        return ["" for _ in ids]
    return _middle([_SEP.split(i) for i in ids])


def disambiguate(labels: Sequence[str], ids: Sequence[str], fallbacks: Sequence[str] = (),
                 width: int = 16) -> list[str]:
    """``labels`` with each ambiguous one (shared by several entries) followed by what tells
    its entry apart: the differing part of its id, else of its fallback (a date, a folder),
    else its number among the alike; each added part at most ``width`` characters."""
    groups: dict[str, list[int]] = defaultdict(list)
    for i, label in enumerate(labels):
        groups[label].append(i)
    out = list(labels)
    for members in groups.values():
        if len(members) < 2:
            continue
        parts = distinct_parts([ids[i] for i in members])
        if (not all(parts) or len(set(parts)) < len(parts)) and fallbacks:
            parts = distinct_parts([fallbacks[i] for i in members])
        parts = [elide_middle(p, width) for p in parts]
        if not all(parts) or len(set(parts)) < len(parts):
            parts = [f"#{n}" for n in range(1, len(members) + 1)]
        for i, part in zip(members, parts, strict=True):
            out[i] = f"{labels[i]} {part}"
    return out
