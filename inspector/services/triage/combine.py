"""From weighed readings to one suggestion: a category with a confidence, or "unsure".

Readings for the same category reinforce each other as independent evidence (noisy-or:
``1 - Π(1 - w)``); the best category's confidence is discounted by the strongest competing
one (``c · (1 - ½·c_other)``), so two strong contradicting readings end below the threshold
and the item is shown as unsure with both.
"""

from __future__ import annotations

from collections import defaultdict

from inspector.model.failures.triage import UNSURE_BELOW, Reading

MODIFIER = "~"
"""Rules whose id starts with this only adjust the weight of a category already read (cross-
sample evidence); they never propose a category alone. A negative weight is evidence against
its category: the support is scaled by ``1 + w``."""


def support(readings: list[Reading]) -> dict[str, float]:
    """Combined support per category (noisy-or of its readings' weights)."""
    miss: dict[str, float] = defaultdict(lambda: 1.0)
    proposed = {r.category for r in readings if not r.rule.startswith(MODIFIER)}
    against: dict[str, float] = defaultdict(lambda: 1.0)
    for r in readings:
        if r.category not in proposed:
            continue
        if r.weight >= 0:
            miss[r.category] *= 1.0 - min(1.0, r.weight)
        else:
            against[r.category] *= 1.0 + max(-1.0, r.weight)
    return {c: (1.0 - m) * against[c] for c, m in miss.items()}


def decide(readings: list[Reading], threshold: float = UNSURE_BELOW
           ) -> tuple[str | None, float, list[Reading]]:
    """``(category or None, confidence, readings best first)``."""
    scores = support(readings)
    if not scores:
        return None, 0.0, []
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    best, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0.0
    confidence = top * (1.0 - 0.5 * second)
    order = {c: i for i, (c, _) in enumerate(ranked)}
    ordered = sorted((r for r in readings if r.category in order),
                     key=lambda r: (order[r.category], -r.weight))
    if confidence < threshold:
        return None, confidence, ordered
    return best, confidence, ordered
