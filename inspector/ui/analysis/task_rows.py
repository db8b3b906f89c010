"""The tasks table's rows: each task's spec figures, tier, difficulty and how the runs did on it;
sorting by any column and filtering by text."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the pane imports COLUMNS at start-up; the analyses load later
    from inspector.services.analysis.overview import Overview

COLUMNS = ("task", "lang", "framework", "words", "endpoints", "fields", "deps", "spec score",
           "tier", "difficulty", "runs", "samples", "pass@1")


@dataclass(frozen=True, slots=True)
class TaskRow:
    task: str
    language: str
    framework: str
    words: int
    endpoints: int
    fields: int
    fields_text: str  # primitive/collection/object
    deps: int
    spec_score: float
    tier: str
    difficulty: str
    difficulty_score: float | None
    runs: int
    samples: int
    pass_at_1: float | None  # mean over runs of the share of the task's samples passing

    def cells(self) -> list[str]:
        return [self.task, self.language, self.framework, str(self.words), str(self.endpoints),
                self.fields_text, str(self.deps), f"{self.spec_score:.2f}", self.tier,
                self.difficulty, str(self.runs), str(self.samples),
                "—" if self.pass_at_1 is None else f"{self.pass_at_1 * 100:.0f}%"]

    def sort_key(self, column: str) -> tuple[object, ...]:
        from inspector.services.analysis.overview import tier_sort_key

        value: object = {
            "task": self.task.lower(), "lang": self.language, "framework": self.framework,
            "words": self.words, "endpoints": self.endpoints, "fields": self.fields,
            "deps": self.deps, "spec score": self.spec_score, "tier": tier_sort_key(self.tier),
            "difficulty": -1.0 if self.difficulty_score is None else self.difficulty_score,
            "runs": self.runs, "samples": self.samples,
            "pass@1": -1.0 if self.pass_at_1 is None else self.pass_at_1,
        }[column]
        return (value, self.task)

    def matches(self, text: str) -> bool:
        """Every word of ``text`` is in the task's name, language, framework, tier or
        difficulty (case-insensitive)."""
        hay = " ".join((self.task, self.language, self.framework, self.tier,
                        self.difficulty)).lower()
        return all(word in hay for word in text.lower().split())


def task_rows(overview: Overview) -> list[TaskRow]:
    """One row per analysed task, by name."""
    shares: dict[str, list[float]] = defaultdict(list)
    samples: dict[str, int] = defaultdict(int)
    for run in overview.runs:
        for task, ss in run.by_task().items():
            shares[task].append(sum(s.strict_pass for s in ss) / len(ss))
            samples[task] += len(ss)
    rows = []
    for name, t in sorted(overview.tasks.items()):
        s, r, d = t.spec, t.spec.resources, t.difficulty
        rows.append(TaskRow(
            name, t.language, t.framework, s.words, len(s.endpoints),
            len(r.primitive) + len(r.collection) + len(r.objects),
            f"{len(r.primitive)}/{len(r.collection)}/{len(r.objects)}",
            len(s.dependencies), s.score, overview.tier_of(name),
            f"{d.label} {d.score:.2f}" if d.score is not None else "Unclassified",
            d.score, len(shares[name]), samples[name],
            sum(shares[name]) / len(shares[name]) if shares[name] else None))
    return rows


def sorted_rows(rows: list[TaskRow], column: str, descending: bool) -> list[TaskRow]:
    return sorted(rows, key=lambda r: r.sort_key(column), reverse=descending)
