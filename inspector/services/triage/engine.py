"""Per-test failure triage of a runs folder: items, root groups and one suggestion per item.

:class:`TriageContext` holds what is shared across samples (the runs, their tasks, the suite
audits, the cross-sample index); :func:`triage_sample` builds one sample's
:class:`~inspector.model.failures.triage.SampleTriage`: every root item is read by the rule families
of :mod:`.rules` and :mod:`.spec_rules`, :mod:`.combine` decides (or abstains), and every member of
a root group follows its root's suggestion. Pure file reading: no network, no subprocess.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from inspector.model import Run, SampleResult, Task, TestCase, discover_runs
from inspector.model.failures.triage import (
    ADD_TASK_FILE,
    INSTALL_REPO_PACKAGE,
    INSTALL_TEST_PACKAGE,
    RUN_ALONE,
    UNSURE_BELOW,
    Confirmation,
    FailureItem,
    Reading,
    Remedy,
    RootGroup,
    SampleTriage,
    TestSuggestion,
)
from inspector.model.labels.label_file import Anchor
from inspector.services.suite.audit import SuiteAudit, audit_task
from inspector.services.triage import java_rules, mechanisms, rules, spec_rules
from inspector.services.triage.combine import decide
from inspector.services.triage.conventions import ConventionIndex
from inspector.services.triage.corpus import CorpusIndex
from inspector.services.triage.items import failure_items
from inspector.services.triage.roots import group_roots, merge_by_mechanism

Family = Callable[[rules.ItemEvidence], list[Reading]]

FAMILIES: tuple[tuple[str, Family], ...] = (
    ("evidence", rules.evidence_readings),
    ("suite", rules.suite_readings),
    ("test-bug", rules.test_bug_readings),
    ("spec", spec_rules.spec_readings),
    ("mechanism", mechanisms.mechanism_readings),
    ("java", java_rules.java_readings),
    ("cross-sample", rules.cross_sample_readings),
)
"""Every rule family, in the order their readings are listed when they tie."""


@dataclass
class TriageContext:
    """The runs of one folder with what the rules share across samples."""

    runs: list[Run]
    tasks: dict[str, Task] = field(default_factory=dict)
    corpus: CorpusIndex | None = None
    conventions: ConventionIndex | None = None
    files: rules.SuiteFiles = field(default_factory=rules.SuiteFiles)
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
        return cls(list(runs), tasks, CorpusIndex(runs), ConventionIndex(tasks))

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


def _case(sample: SampleResult, test_id: str | None) -> TestCase | None:
    if test_id is None:
        return None
    return next((c for c in sample.tests.cases if c.id == test_id), None)


def suggest_root(item: FailureItem, sample: SampleResult, ctx: TriageContext
                 ) -> TestSuggestion:
    """The suggestion for one root item, from every rule family."""
    task = ctx.task_of(sample)
    ev = rules.ItemEvidence(sample, task, item, _case(sample, item.test_id), ctx.audit(task),
                            ctx.corpus, ctx.conventions, ctx.files)
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
                              remedy=_remedy(ev))
    support = [r for r in ordered if r.category == lead.category and r is not lead]
    reason = lead.reason
    if support:
        reason += " " + " ".join(f"[{r.reason}]" for r in support[:3])
    if category is None:
        reason = _unsure_reason(ordered)
    anchors = tuple(a for r in ordered if category is None or r.category == category
                    for a in r.anchors)
    return TestSuggestion(item, category, confidence, lead.rule if category else "unsure",
                          one_line(reason), _dedupe(anchors), None, tuple(ordered),
                          remedy=_remedy(ev))


MAX_REASON = 1200


def one_line(text: str, limit: int = MAX_REASON) -> str:
    """A reason on one line (quoted values may hold newlines), clipped."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


def _unsure_reason(ordered: list[Reading]) -> str:
    """``unsure — a (rule): reason | b (rule): reason`` of the proposing readings, best first."""
    return "unsure — " + " | ".join(f"{r.category} ({r.rule}): {r.reason}"
                                    for r in ordered[:3] if not r.rule.startswith("~"))


def _remedy(ev: rules.ItemEvidence) -> Remedy | None:
    """The remedy of the first reading that proposed one: it tests that reading's cause."""
    return ev.remedies[0] if ev.remedies else None


def _dedupe(anchors: tuple[Anchor, ...]) -> tuple[Anchor, ...]:
    seen: list[Anchor] = []
    for a in anchors:
        if a not in seen:
            seen.append(a)
    return tuple(seen[:8])


def follower(member: FailureItem, root: TestSuggestion, group: RootGroup) -> TestSuggestion:
    """A group member's suggestion: its root's, saying so."""
    return replace(root, item=member, root=group.root.key,
                   reason=one_line(f"follows {group.root.test_id or 'the sample'}: "
                                   f"{group.why}. {root.reason}"),
                   remedy=root.remedy, confirmation=None)


_REMEDY_CATEGORY = {INSTALL_REPO_PACKAGE: "dependency"}
"""The category a remedy's success confirms (every other remedy confirms ``not-model``)."""
TESTED_BY = {
    RUN_ALONE: ("spec/shared-state", "spec/conflict-shared-state"),
    INSTALL_TEST_PACKAGE: ("suite/missing-test-dependency", "evidence/"),
    ADD_TASK_FILE: ("suite/harness-convention",),
    INSTALL_REPO_PACKAGE: ("evidence/",),
}
"""The readings whose cause a remedy tests: a re-run that does not remove the failure takes
them away (and only them: a test failing alone still asserts what the README never says)."""


def confirmation_reading(remedy: Remedy, confirmation: Confirmation) -> Reading | None:
    """What a causal re-run says: the remedy removed the failure (strong evidence for the
    cause it targets), or did not (evidence against it); nothing when inconclusive."""
    category = _REMEDY_CATEGORY.get(remedy.kind, "not-model")
    if confirmation.supports is True:
        return Reading(category, 0.9, f"confirmed/{remedy.kind}",
                       f"confirmed by a re-run: {confirmation.outcome}")
    if confirmation.supports is False:
        return Reading(category, 0.0, f"~refuted/{remedy.kind}",
                       f"a re-run did not confirm it: {confirmation.outcome}")
    return None


def with_confirmation(suggestion: TestSuggestion, confirmation: Confirmation,
                      threshold: float = UNSURE_BELOW) -> TestSuggestion:
    """``suggestion`` decided again with a causal re-run's outcome as one more reading."""
    if suggestion.remedy is None:
        return replace(suggestion, confirmation=confirmation)
    extra = confirmation_reading(suggestion.remedy, confirmation)
    readings = list(suggestion.competing)
    if confirmation.supports is False:
        tested = TESTED_BY.get(suggestion.remedy.kind, ())
        readings = [r for r in readings if not r.rule.startswith(tested)]
    readings += [extra] if extra else []
    if extra is not None and extra.weight > 0:
        # the failure went away with the remedy alone: the other readings explain less
        readings += [Reading(c, -0.6, "~explained-by-rerun", "the remedy alone removed it")
                     for c in {r.category for r in suggestion.competing} - {extra.category}]
    category, confidence, ordered = decide(readings, threshold)
    proposing = [r for r in ordered if r.category == category and not r.rule.startswith("~")]
    lead = next((r for r in proposing if r is not extra), proposing[0] if proposing else None)
    if category is None or lead is None:
        return replace(suggestion, category=None, confidence=confidence, rule="unsure",
                       reason=one_line(_unsure_reason(ordered)), competing=tuple(ordered),
                       confirmation=confirmation)
    reason = lead.reason if extra is None or lead is extra else (
        f"{lead.reason} [{extra.reason}]")
    return replace(suggestion, category=category, confidence=confidence, rule=lead.rule,
                   reason=one_line(reason), competing=tuple(ordered), confirmation=confirmation)


def confirm_in(triage: SampleTriage, key: str, confirmation: Confirmation) -> SampleTriage:
    """``triage`` with the item ``key``'s root re-decided with ``confirmation``; the root's
    followers follow the new decision."""
    target = triage.for_item(key)
    if target is None:
        return triage
    root_key = target.root or target.item.key
    root = triage.for_item(root_key)
    if root is None:
        return triage
    new_root = with_confirmation(root, confirmation)
    group = next((g for g in triage.groups if g.root.key == root_key), None)
    out: list[TestSuggestion] = []
    for s in triage.suggestions:
        if s.item.key == root_key:
            out.append(new_root)
        elif s.root == root_key and group is not None:
            out.append(follower(s.item, new_root, group))
        else:
            out.append(s)
    return replace(triage, suggestions=tuple(out))


def triage_sample(sample: SampleResult, ctx: TriageContext) -> SampleTriage:
    """Items, root groups and suggestions of one sample (empty for a passing sample)."""
    items = failure_items(sample, ctx.task_of(sample))
    if not items:
        return SampleTriage(sample.sample_id, ())
    groups = group_roots(sample, items)
    roots = [suggest_root(group.root, sample, ctx) for group in groups]
    groups, roots = merge_by_mechanism(groups, roots, mechanisms.mechanism_of)
    out: list[TestSuggestion] = []
    for group, root in zip(groups, roots, strict=True):
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
