"""What the labelling queue loads per sample: the failure items, their root groups and
suggestions from the triage engine (:mod:`inspector.services.triage.engine`), the whole
sample's suggestion and evidence (:func:`load_queue_sample`), and causal re-runs
(:class:`RemedyRunner`).

:class:`QueueTriage` loads the engine's context once (lazily, on the first sample: call it
from a worker) and triages one sample at a time. When the engine fails on a sample, the
sample's recorded failures are listed ungrouped, without suggestions
(:func:`ungrouped_triage`), and the error is kept for the screen to show: a rule bug never
blocks labelling.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model.benchmark.task import Task
from inspector.model.failures.triage import Confirmation, Remedy, RootGroup, SampleTriage
from inspector.model.labels.label_file import Anchor, Suggestion
from inspector.model.results.entries import SampleEntry
from inspector.model.results.sample import SampleResult
from inspector.model.untrusted.errors import LoadError
from inspector.services.catalog.index import Catalog
from inspector.services.deploy.warm import DeployError, DeploymentPool, Target
from inspector.services.triage.engine import TriageContext, triage_sample
from inspector.services.triage.items import failure_items


@dataclass(frozen=True, slots=True)
class TriageOutcome:
    """A sample's triage and, when the engine could not give one, why (``error``)."""

    triage: SampleTriage
    error: str = ""


def ungrouped_triage(result: SampleResult, task: Task | None = None) -> SampleTriage:
    """Every failure item of ``result`` as a root of its own, without suggestions (what the
    queue lists when the engine cannot triage the sample)."""
    return SampleTriage(result.sample_id,
                        tuple(RootGroup(i, ()) for i in failure_items(result, task)))


class QueueTriage:
    """The triage engine over the runs under ``root`` (its context loaded once)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._ctx: TriageContext | None = None
        self._lock = threading.Lock()

    def _context(self) -> TriageContext:
        with self._lock:
            if self._ctx is None:
                self._ctx = TriageContext.load(self.root)
            return self._ctx

    def triage(self, result: SampleResult, task: Task | None = None) -> TriageOutcome:
        """``result``'s items, groups and suggestions (blocking, ~100 ms: call it from a
        worker)."""
        try:
            return TriageOutcome(triage_sample(result, self._context()))
        except Exception as exc:  # noqa: BLE001 - a rule bug must never block labelling
            return TriageOutcome(ungrouped_triage(result, task),
                                 f"per-test suggestions unavailable: {type(exc).__name__}: "
                                 f"{exc}")


class RemedyRunner:
    """Causal re-runs for the queue: a remedy tried on a fresh deployment of a sample
    (:func:`inspector.services.triage.remedies.confirm`; Docker, minutes: call it from a
    worker, with ``cancel``)."""

    def __init__(self, pool: Callable[[], DeploymentPool]) -> None:
        self._pool = pool

    @staticmethod
    def available() -> bool:
        """Whether this build has causal re-runs."""
        return importlib.util.find_spec("inspector.services.triage.remedies") is not None

    def __call__(self, remedy: Remedy, result: SampleResult, task: Task | None, backend: str,
                 *, on_line: Callable[[str, str], None] | None = None,
                 say: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None) -> Confirmation:
        """Try ``remedy`` on ``result``'s repo; raises :class:`DeployError` (no repo, no
        task, no backend) or the remedy's error when it cannot be tried."""
        from inspector.services.triage.remedies import confirm

        if task is None:
            raise DeployError(f"{result.sample_id}: the task (README and golden tests) is not "
                              "available, so nothing can be re-run")
        return confirm(remedy, Target.from_result(result, task), self._pool(), backend,
                       on_line=on_line, say=say, cancel=cancel)


@dataclass
class QueueSample:
    """One queue sample's evidence and triage, as the labelling screen shows them."""

    sample: SampleResult | None
    suggestion: Suggestion | None  # the whole sample's (rules of :mod:`.label_suggest`)
    candidates: list[Anchor]  # evidence for the whole sample
    triage: SampleTriage | None = None
    task: Task | None = None
    logs: list[Anchor] = field(default_factory=list)  # telling log lines of the sample
    error: str = ""


def load_queue_sample(catalog: Catalog, entry: SampleEntry,
                      triage: QueueTriage | None) -> QueueSample:
    """Read ``entry``'s result and task, triage it, suggest a category for the whole sample
    and collect its evidence (blocking: call it from a worker). A load error or a rule bug
    is reported in ``error``, never raised."""
    from inspector.services.labels.evidence import evidence_candidates, log_evidence
    from inspector.services.suite.audit import audit_task
    from inspector.services.triage.exception_rules import suggest

    try:
        sample = catalog.load_sample(entry)
    except LoadError as exc:
        return QueueSample(None, None, [], error=str(exc))
    task = catalog.task(entry.task, catalog.run(entry.run_key))
    outcome = (triage.triage(sample, task) if triage is not None else
               TriageOutcome(ungrouped_triage(sample, task)))
    logs = log_evidence(sample)
    try:
        suggestion = suggest(sample, task_readme=task.readme if task is not None else None,
                             audit=audit_task(task) if task is not None else None)
    except Exception as exc:  # noqa: BLE001 - a rule bug must never block labelling
        return QueueSample(sample, None, evidence_candidates(sample), outcome.triage, task,
                           logs, f"suggestion failed: {exc}")
    return QueueSample(sample, suggestion, evidence_candidates(sample, suggestion),
                       outcome.triage, task, logs, outcome.error)
