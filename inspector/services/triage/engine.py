"""Per-test failure triage of a runs folder: items, root groups and one suggestion per item.

:class:`TriageContext` holds what is shared across samples (the runs, their tasks, the suite
audits, the cross-sample index); :func:`triage_sample` builds one sample's
:class:`~inspector.model.triage.SampleTriage`: every root item is read by the rule families of
:mod:`.rules` and :mod:`.spec_rules`, :mod:`.combine` decides (or abstains), and every member of
a root group follows its root's suggestion. Pure file reading: no network, no subprocess.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from inspector.model import Run, SampleResult, Task, discover_runs
from inspector.model.triage import (
    RUN_ALONE,
    FailureItem,
    Reading,
    Remedy,
    RootGroup,
    SampleTriage,
    TestSuggestion,
)

from ..suite_audit import SuiteAudit, audit_task
from . import rules, spec_rules
from .combine import decide
from .corpus import CorpusIndex
from .items import failure_items
from .roots import group_roots

Family = Callable[[rules.ItemEvidence], list[Reading]]

FAMILIES: tuple[tuple[str, Family], ...] = (
    ("evidence", rules.evidence_readings),
    ("suite", rules.suite_readings),
    ("test-bug", rules.test_bug_readings),
    ("spec", spec_rules.spec_readings),
    ("cross-sample", rules.cross_sample_readings),
)
"""Every rule family, in the order their readings are listed when they tie."""


@dataclass
class TriageContext:
    """The runs of one folder with what the rules share across samples."""

    runs: list[Run]
    tasks: dict[str, Task] = field(default_factory=dict)
    corpus: CorpusIndex | None = None
    _audits: dict[str, SuiteAudit] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def load(cls, root: Path) -> TriageContext:
        """Discover the runs under ``root`` (unreadable runs are skipped, as everywhere)."""
        return cls.of_runs(discover_runs(root).runs)

    @classmethod
    def of_runs(cls, runs: list[Run]) -> TriageContext:
        tasks: dict[str, Task] = {}
        for run in runs:
            for name, task in run.tasks.items():
                tasks.setdefault(name, task)
        return cls(list(runs), tasks, CorpusIndex(runs))

    def task_of(self, sample: SampleResult) -> Task | None:
        for run in self.runs:
            if run.id == sample.run_id and sample.task in run.tasks:
                return run.tasks[sample.task]
        return self.tasks.get(sample.task)

    def audit(self, task: Task | None) -> SuiteAudit | None:
        if task is None:
            return None
        with self._lock:
            if task.name not in self._audits:
                try:
                    self._audits[task.name] = audit_task(task)
                except (OSError, ValueError, RecursionError):
                    self._audits[task.name] = SuiteAudit(task.name)
            return self._audits[task.name]

    def samples(self) -> list[SampleResult]:
        return [s for run in self.runs for s in sorted(run.samples,
                                                       key=lambda s: (s.task, s.sample))]


def _case(sample: SampleResult, test_id: str | None):  # type: ignore[no-untyped-def]
    if test_id is None:
        return None
    return next((c for c in sample.tests.cases if c.id == test_id), None)


def suggest_root(item: FailureItem, sample: SampleResult, ctx: TriageContext
                 ) -> TestSuggestion:
    """The suggestion for one root item, from every rule family."""
    task = ctx.task_of(sample)
    ev = rules.ItemEvidence(sample, task, item, _case(sample, item.test_id), ctx.audit(task),
                            ctx.corpus)
    readings: list[Reading] = []
    for _, family in FAMILIES:
        try:
            readings.extend(family(ev))
        except (OSError, ValueError, RecursionError, SyntaxError, UnicodeError):
            continue  # one family failing on odd input never hides the others
    category, confidence, ordered = decide(readings)
    lead = next((r for r in ordered if category is None or r.category == category), None)
    if lead is None:
        return TestSuggestion(item, None, 0.0, "none", "no rule recognises this failure",
                              remedy=_remedy(ev, None))
    support = [r for r in ordered if r.category == lead.category and r is not lead]
    reason = lead.reason
    if support:
        reason += " " + " ".join(f"[{r.reason}]" for r in support[:3])
    if category is None:
        reason = "unsure — " + " | ".join(
            f"{r.category} ({r.rule}): {r.reason}" for r in ordered[:3]
            if not r.rule.startswith("~"))
    anchors = tuple(a for r in ordered if category is None or r.category == category
                    for a in r.anchors)
    return TestSuggestion(item, category, confidence, lead.rule if category else "unsure",
                          reason, _dedupe(anchors), None, tuple(ordered),
                          remedy=_remedy(ev, category))


def _remedy(ev: rules.ItemEvidence, category: str | None) -> Remedy | None:
    if ev.remedies:
        return ev.remedies[0]
    if ev.item.test_id is not None and ev.case is not None and category in (None, "not-model"):
        return Remedy(RUN_ALONE, ev.item.test_id, (ev.item.test_id,))
    return None


def _dedupe(anchors: tuple) -> tuple:  # type: ignore[type-arg]
    seen: list = []  # type: ignore[type-arg]
    for a in anchors:
        if a not in seen:
            seen.append(a)
    return tuple(seen[:8])


def follower(member: FailureItem, root: TestSuggestion, group: RootGroup) -> TestSuggestion:
    """A group member's suggestion: its root's, saying so."""
    return replace(root, item=member, root=group.root.key,
                   reason=f"follows {group.root.test_id or 'the sample'}: {group.why}. "
                          f"{root.reason}", remedy=root.remedy, confirmation=None)


def triage_sample(sample: SampleResult, ctx: TriageContext) -> SampleTriage:
    """Items, root groups and suggestions of one sample (empty for a passing sample)."""
    items = failure_items(sample, ctx.task_of(sample))
    if not items:
        return SampleTriage(sample.sample_id, ())
    groups = group_roots(sample, items)
    out: list[TestSuggestion] = []
    for group in groups:
        root = suggest_root(group.root, sample, ctx)
        out.append(root)
        out.extend(follower(m, root, group) for m in group.members)
    order = {i.key: n for n, i in enumerate(items)}
    out.sort(key=lambda s: order.get(s.item.key, 0))
    return SampleTriage(sample.sample_id, tuple(groups), tuple(out))


def triage_all(ctx: TriageContext, *, progress: Callable[[int, int], None] | None = None,
               cancel: threading.Event | None = None) -> list[SampleTriage]:
    """Every failing sample of the context's runs with per-test results or a failure."""
    samples = ctx.samples()
    out: list[SampleTriage] = []
    for n, sample in enumerate(samples, 1):
        if cancel is not None and cancel.is_set():
            break
        found = triage_sample(sample, ctx)
        if found.suggestions:
            out.append(found)
        if progress is not None:
            progress(n, len(samples))
    return out
