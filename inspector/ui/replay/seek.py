"""Where seeking, stepping and phase jumps land (pure functions, no Textual)."""

from __future__ import annotations

from collections.abc import Sequence

from inspector.model.results.outcomes import PHASE_ORDER, Phase
from inspector.services.logs.deployment_log import PhaseSpan
from inspector.services.logs.filters import Rows


def parse_seek(text: str, duration: float) -> float | Phase | None:
    """``90``, ``1:30``, ``1:02:03.5``, ``90s``, ``50%`` or a phase name → a time or phase."""
    text = text.strip().lower()
    for phase in PHASE_ORDER:
        if text in (phase.value, phase.value[:3]) or (text == "build" and phase is Phase.INSTALL):
            return phase
    if text.endswith("%"):
        try:
            return duration * float(text[:-1]) / 100
        except ValueError:
            return None
    text = text.removesuffix("s")
    try:
        parts = [float(p) for p in text.split(":")]
    except ValueError:
        return None
    if not parts or len(parts) > 3:
        return None
    seconds = 0.0
    for p in parts:
        seconds = seconds * 60 + p
    return max(0.0, seconds)


def phase_target(spans: Sequence[PhaseSpan], position: int, delta: int, line_count: int) -> int:
    """The position after ``]`` (end of the phase being played) or ``[`` (start of the
    previous phase)."""
    if delta > 0:
        later = [e for e in (s.first_line + s.line_count for s in spans) if e > position]
        return min(later) if later else line_count
    earlier = [s.first_line for s in spans if s.first_line < position - 1]
    return max(earlier) if earlier else 0


def filtered_step(rows: Rows, position: int, delta: int) -> int:
    """The position that reveals ``delta`` more (or fewer) of the lines a filter keeps."""
    assert rows.lines is not None
    target = max(0, min(len(rows.lines), rows.count(position) + delta))
    return rows.lines[target - 1] + 1 if target >= 1 else 0


def hidden_by_filter(rows: Rows, line: int) -> bool:
    """Whether the filter behind ``rows`` hides log line ``line``."""
    if not rows.filtered or rows.lines is None:
        return False
    row = rows.row_at_or_before(line)
    return row < len(rows.lines) and rows.line(row) != line
