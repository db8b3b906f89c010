"""Runs: one agent x model x language generation, evaluated over many tasks."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from inspector.model.benchmark.task import Task
from inspector.model.results.sample import SampleResult
from inspector.model.results.unreadable import RUN, UnreadableSample


@dataclass(frozen=True, slots=True)
class RunSource:
    """Where a run was loaded from and in which format."""

    format: str  # "genesis-inspector" | "repogenesis"
    path: Path  # the run.json / report.json / intermediate folder
    predictions_dir: str | None = None
    harness: str = ""


@dataclass(frozen=True, slots=True)
class Run:
    """One evaluated generation run. ``samples`` may hold several samples per task."""

    id: str
    agent: str
    model: str
    language: str
    source: RunSource
    date: str | None = None  # generation date token or evaluation timestamp
    samples: tuple[SampleResult, ...] = ()
    tasks: dict[str, Task] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    status: str | None = None  # our format: running / complete / cancelled
    # A stock report's own ``summary`` figures (key, value), as written; () for our format.
    reported_summary: tuple[tuple[str, float], ...] = ()
    # samples (or this run's own file) that could not be read: counted, never dropped
    unreadable: tuple[UnreadableSample, ...] = ()

    @property
    def task_names(self) -> list[str]:
        return sorted({s.task for s in self.samples})

    def samples_for(self, task: str) -> list[SampleResult]:
        return sorted((s for s in self.samples if s.task == task), key=lambda s: s.sample)

    @property
    def file_unreadable(self) -> bool:
        """Whether the run's own file (``run.json``, a report) could not be read."""
        return any(u.kind == RUN for u in self.unreadable)

    @property
    def has_test_cases(self) -> bool:
        return any(s.tests.has_cases for s in self.samples)
