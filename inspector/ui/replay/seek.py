"""Where seeking, stepping and phase jumps land (pure functions, no Textual)."""

from __future__ import annotations

from inspector.model.outcomes import PHASE_ORDER, Phase


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
