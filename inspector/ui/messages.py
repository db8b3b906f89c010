"""App-wide messages: the catalog's progress and changes, and requests to open things."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from inspector.services.catalog.index import RefreshReport


@dataclass
class CatalogProgress(Message):
    """The index build/refresh made progress (``done`` of ``total`` run locations)."""

    done: int
    total: int
    what: str


@dataclass
class CatalogUpdated(Message):
    """The catalog changed (or was loaded for the first time)."""

    report: RefreshReport | None
    first: bool = False


@dataclass
class DiskChanged(Message):
    """Something under the root changed on disk (from the file watcher thread)."""


@dataclass
class OpenSample(Message):
    """Open the sample view for ``sample_key`` (optionally at a test, a file:line of the repo
    or, with ``root="task"``, of the task folder, or a phase's log replay)."""

    sample_key: int
    test_id: str | None = None
    file: str | None = None
    line: int | None = None
    root: str = "repo"  # repo | task: where ``file`` is
    phase: str | None = None  # install/start/health/tests: replay that phase's log


@dataclass
class LabelsChanged(Message):
    """A label was written (the label filter and queue markers may change)."""

    sample_id: str = ""


@dataclass
class ShowRunSamples(Message):
    """List the samples of run ``run_key`` (Enter on a run in the runs overview)."""

    run_key: str

