"""A run whose own file (``run.json``, a stock report) cannot be read: listed with no samples
and that file as its one unreadable entry, instead of being left out."""

from __future__ import annotations

from pathlib import Path

from inspector.model.benchmark.predictions import parse_predictions_name
from inspector.model.results.run import Run, RunSource
from inspector.model.results.unreadable import RUN, UnreadableSample
from inspector.model.runs.ids import id_problem
from inspector.model.untrusted.errors import LoadIssue


def run_id_for(folder: Path, fallback: str = "unreadable-run") -> str:
    """A run id for a run whose file could not be read: its folder's name, with what an id
    may not hold (path separators, control characters, a leading '.', '..') made '_'."""
    name = "".join("_" if c in "/\\" or ord(c) < 32 or ord(c) == 127 else c
                   for c in folder.name).replace("..", "__")
    name = "_" + name[1:] if name.startswith(".") else name
    return name if id_problem(name) is None else fallback


def guessed_identity(name: str) -> tuple[str, str, str]:
    """Agent, model and language read from a folder name (``unknown`` when it does not say)."""
    parsed = parse_predictions_name(name)
    return parsed.agent or "unknown", parsed.model or "unknown", parsed.language or "unknown"


def unreadable_run(issue: LoadIssue, folder: Path, fmt: str, stamp: str | None = None
                   ) -> Run:
    """A run whose own file could not be read, listed with no samples and that one file as
    unreadable (instead of being left out). ``folder`` names it (``@stamp`` added when
    given: a stock report's date); ``fmt`` is its format."""
    agent, model, language = guessed_identity(folder.name)
    run_id = run_id_for(folder)
    if stamp:
        run_id = f"{run_id}@{stamp}"
    return Run(id=run_id, agent=agent, model=model, language=language,
               source=RunSource(fmt, issue.path), samples=(),
               unreadable=(UnreadableSample.of(issue, kind=RUN),))
