"""Labels joined with the runs they describe: export rows and how often the suggestions match
what annotators chose."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from inspector.model.benchmark.task import Task
from inspector.model.labels.label_file import ItemRef, Suggestion
from inspector.model.labels.labelset import LabelSet
from inspector.model.results.run import Run
from inspector.model.results.sample import SampleResult
from inspector.services.labels.export import ExportRow
from inspector.services.labels.views import SampleWhere
from inspector.services.suite.audit import audit_task
from inspector.services.triage.exception_rules import suggest


@dataclass(frozen=True, slots=True)
class SampleInfo:
    """What an export row needs to know about a sample."""

    result: SampleResult
    run_id: str
    agent: str
    model: str
    language: str
    readme: str | None
    task: Task | None = None

    def suggest(self) -> Suggestion | None:
        """The suggestion for this sample, with its task's README and suite audit."""
        return suggest(self.result, task_readme=self.readme,
                       audit=audit_task(self.task) if self.task is not None else None)


def sample_index(runs: Iterable[Run]) -> dict[str, SampleInfo]:
    """Every sample of ``runs`` by its stable id."""
    out: dict[str, SampleInfo] = {}
    for run in runs:
        for s in run.samples:
            task = run.tasks.get(s.task)
            readme = task.readme if task is not None else None
            out[s.sample_id] = SampleInfo(s, run.id, run.agent, run.model,
                                          s.language or run.language, readme, task)
    return out


def sample_where(index: dict[str, SampleInfo]) -> dict[str, SampleWhere]:
    """What a table row needs of each sample of ``index`` (:func:`sample_index`)."""
    return {sid: SampleWhere(i.run_id, i.agent, i.model, i.language, i.result.task)
            for sid, i in index.items()}


def export_rows(labels: LabelSet, samples: dict[str, SampleInfo]
                ) -> tuple[list[ExportRow], list[ItemRef]]:
    """One row per labelled item of a known sample, with its final category; and the labelled
    items whose sample is not among ``samples``."""
    rows: list[ExportRow] = []
    outside: list[ItemRef] = []
    for item in labels.items():
        info = samples.get(item.sample)
        if info is None:
            outside.append(item)
            continue
        final = labels.final(item)
        rows.append(ExportRow(item.sample, item.test, final.category, final.status,
                              dict(sorted(final.ratings.items())), info.run_id, info.agent,
                              info.model, info.language, info.result.task,
                              labels.confirmation(item)))
    return rows, outside


@dataclass
class RuleTally:
    """How one suggestion rule did: times fired on labelled items, times it matched the final
    label."""

    rule: str
    fired: int = 0
    matched: int = 0


@dataclass
class SuggestionAccuracy:
    """Suggestions against annotators' labels, over sample-level labelled items."""

    items: int = 0  # labelled sample-level items of known samples
    suggested: int = 0  # items a rule fired on
    matched_final: int = 0  # suggestion == final category (resolved items only)
    resolved: int = 0  # suggested items with a final category
    per_annotator: dict[str, list[int]] = field(default_factory=dict)  # name -> [matched, n]
    rules: dict[str, RuleTally] = field(default_factory=dict)
    misses: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        def rate(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "items": self.items, "suggested": self.suggested,
            "coverage": rate(self.suggested, self.items),
            "matched_final": self.matched_final, "resolved": self.resolved,
            "accuracy_final": rate(self.matched_final, self.resolved),
            "per_annotator": {n: {"matched": m, "items": k, "accuracy": rate(m, k)}
                              for n, (m, k) in sorted(self.per_annotator.items())},
            "rules": {r.rule: {"fired": r.fired, "matched": r.matched}
                      for r in sorted(self.rules.values(), key=lambda r: r.rule)},
            "misses": self.misses,
        }


def suggestion_accuracy(labels: LabelSet, samples: dict[str, SampleInfo],
                        suggestions: dict[str, Suggestion | None] | None = None
                        ) -> SuggestionAccuracy:
    """Compare the suggestion of every labelled sample with the labels; ``suggestions``
    (sample id -> suggestion) are used where given, the rules are run for the others."""

    suggestions = suggestions or {}
    acc = SuggestionAccuracy()
    for item in labels.items():
        if item.test is not None or item.sample not in samples:
            continue
        info = samples[item.sample]
        final = labels.final(item)
        if not final.ratings and final.category is None:
            continue
        acc.items += 1
        s = (suggestions[item.sample] if item.sample in suggestions
             else info.suggest())
        if s is None:
            continue
        acc.suggested += 1
        tally = acc.rules.setdefault(s.rule, RuleTally(s.rule))
        tally.fired += 1
        for name, cat in final.ratings.items():
            pair = acc.per_annotator.setdefault(name, [0, 0])
            pair[1] += 1
            pair[0] += int(cat == s.category)
        if final.category is not None:
            acc.resolved += 1
            if final.category == s.category:
                acc.matched_final += 1
                tally.matched += 1
            else:
                acc.misses.append({"item": item.key, "suggested": s.category, "rule": s.rule,
                                   "final": final.category, "status": final.status})
    return acc
