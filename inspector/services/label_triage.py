"""Per-test triage for the labelling queue: the failure items of a sample, their root groups
and suggestions, from the triage engine (:mod:`inspector.services.triage.engine`).

:class:`QueueTriage` loads the engine's context once (lazily, on the first sample: call it
from a worker) and triages one sample at a time. When the engine fails on a sample, the
sample's recorded failures are listed ungrouped, without suggestions
(:func:`ungrouped_triage`), and the error is kept for the screen to show: a rule bug never
blocks labelling.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.model.results import SampleResult
from inspector.model.task import Task
from inspector.model.triage import (
    DEPLOY_FAILED,
    ITEM_KINDS,
    TEST,
    FailureItem,
    RootGroup,
    SampleTriage,
)

from .failures import sample_failures


@dataclass(frozen=True, slots=True)
class TriageOutcome:
    """A sample's triage and, when the engine could not give one, why (``error``)."""

    triage: SampleTriage
    error: str = ""


def ungrouped_triage(result: SampleResult, task: Task | None = None) -> SampleTriage:
    """Every recorded failure item of ``result`` as a root of its own, sample-level items
    first, without suggestions (what the queue lists when the engine cannot triage)."""
    items: list[FailureItem] = []
    for row in sample_failures(result, task):
        kind = TEST if row.test_id is not None else row.outcome
        if kind not in ITEM_KINDS:
            continue  # counts-only rows and tampering findings are no items of their own
        items.append(FailureItem(result.sample_id, row.test_id, kind, row.message, row.file,
                                 row.line))
    items.sort(key=lambda i: (i.kind == TEST, i.kind != DEPLOY_FAILED))
    return SampleTriage(result.sample_id, tuple(RootGroup(i, ()) for i in items))


class QueueTriage:
    """The triage engine over the runs under ``root`` (its context loaded once)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._ctx: Any = None
        self._lock = threading.Lock()

    def _context(self) -> Any:
        from inspector.services.triage.engine import TriageContext

        with self._lock:
            if self._ctx is None:
                self._ctx = TriageContext.load(self.root)
            return self._ctx

    def triage(self, result: SampleResult, task: Task | None = None) -> TriageOutcome:
        """``result``'s items, groups and suggestions (blocking, ~100 ms: call it from a
        worker)."""
        try:
            from inspector.services.triage.engine import triage_sample

            return TriageOutcome(triage_sample(result, self._context()))
        except Exception as exc:  # noqa: BLE001 - a rule bug must never block labelling
            return TriageOutcome(ungrouped_triage(result, task),
                                 f"per-test suggestions unavailable: {type(exc).__name__}: "
                                 f"{exc}")
