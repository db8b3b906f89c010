"""Unreadable samples and runs: files that could not be read are counted, never dropped.

A sample whose ``result.json`` (our format) or result entry / per-repo file (the stock
layouts) cannot be used is an :class:`UnreadableSample` of its run: the file and the whole
reason, in one line. A run whose own file (``run.json``, a stock report) cannot be used is
a run with no samples and one unreadable entry of kind ``run`` (see
:func:`inspector.model.runs.unreadable_run.unreadable_run`).
Figures are computed over the readable samples and say so ("over 7 of 8 samples").
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.model.untrusted.errors import LoadIssue

SAMPLE = "sample"
RUN = "run"


@dataclass(frozen=True, slots=True)
class UnreadableSample:
    """A sample (or, with ``kind`` ``run``, a whole run) whose file could not be read.

    ``task`` is '' and ``sample`` None when the file did not say (a broken index entry, a
    run file); ``reason`` is the whole reason, one line, without the file name."""

    task: str
    sample: int | None
    file: Path
    reason: str
    kind: str = SAMPLE

    @classmethod
    def of(cls, issue: LoadIssue, task: str = "", sample: int | None = None,
           kind: str = SAMPLE) -> UnreadableSample:
        """The unreadable sample a load problem describes (its field goes into the reason)."""
        reason = f"field '{issue.field}': {issue.message}" if issue.field else issue.message
        return cls(task, sample, issue.path, one_line(reason), kind)

    def shown_file(self, base: Path | None = None) -> str:
        """The file relative to ``base`` (the run's folder) when inside it, else as is."""
        if base is not None:
            rel = os.path.relpath(self.file, base)
            if not rel.startswith(".."):
                return Path(rel).as_posix()
        return str(self.file)

    def line(self, base: Path | None = None) -> str:
        """``<file>: <reason>``: the one line every view prints."""
        return f"{self.shown_file(base)}: {self.reason}"

    def to_json(self, base: Path | None = None) -> dict[str, Any]:
        return {"kind": self.kind, "task": self.task or None, "sample": self.sample,
                "file": self.shown_file(base), "reason": self.reason}


def one_line(text: str) -> str:
    """``text`` with its line breaks turned into spaces: a reason is always one line."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip()) or text


def figures_basis(samples: int, unreadable: list[dict[str, Any]]) -> str:
    """Over how many samples a run's figures are computed, in words: ``over 7 of 8 samples;
    1 unreadable`` ('' when every sample was read; ``no figures: …`` when the run's own
    file could not be read). ``unreadable`` is :attr:`RunMetrics.unreadable_samples`."""
    if not unreadable:
        return ""
    if any(u.get("kind") == RUN for u in unreadable):
        return "no figures: the run's own file cannot be read"
    n = len(unreadable)
    return f"over {samples} of {samples + n} samples; {n} unreadable"


def unreadable_line(u: dict[str, Any]) -> str:
    """``<file>: <reason>`` of one :attr:`RunMetrics.unreadable_samples` entry, whole."""
    return f"{u.get('file', '?')}: {u.get('reason', '')}"
