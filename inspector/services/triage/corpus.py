"""Cross-sample evidence: how every sample of every run under one folder did on each golden test.

The same test failing the same way for several agents (or samples) raises the likelihood that
the test, not the agent, is at fault; a test that some sample passes can be passed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from inspector.model import Outcome, Run
from inspector.services.rerun.runner import normalise_error


@dataclass(frozen=True, slots=True)
class Seen:
    """One sample's outcome on one test."""

    sample: str
    agent: str
    outcome: Outcome
    error: str  # normalised first error line ("" for a pass)
    source: str = ""  # agent and model: samples of one source are not independent evidence


@dataclass(frozen=True, slots=True)
class TestHistory:
    """Every recorded outcome of one golden test of one task, across samples."""

    __test__ = False

    task: str
    test_id: str
    seen: tuple[Seen, ...]

    def others(self, sample: str) -> list[Seen]:
        return [s for s in self.seen if s.sample != sample]

    def passes(self, sample: str) -> list[Seen]:
        return [s for s in self.others(sample) if s.outcome is Outcome.PASSED]

    def same_failure(self, sample: str, error: str) -> list[Seen]:
        norm = normalise_error(error)
        return [s for s in self.others(sample)
                if s.outcome.is_failure and s.error == norm]

    def other_failures(self, sample: str, error: str) -> list[Seen]:
        norm = normalise_error(error)
        return [s for s in self.others(sample)
                if s.outcome.is_failure and s.error != norm]


def source_of(run: Run) -> str:
    """What makes two samples independent: another agent or another model (samples of one
    agent and model share its habits, so they count once)."""
    agent = run.agent or run.id
    return f"{agent}/{run.model}" if run.model else agent


class CorpusIndex:
    """Outcomes by (task, test) over the runs given (runs with per-test results only)."""

    def __init__(self, runs: Iterable[Run]) -> None:
        table: dict[tuple[str, str], list[Seen]] = defaultdict(list)
        self.samples: dict[str, int] = defaultdict(int)  # task -> samples with test results
        self._sources: dict[str, str] = {}
        for run in runs:
            source = source_of(run)
            for s in run.samples:
                self._sources[s.sample_id] = source
                if not s.tests.has_cases:
                    continue
                self.samples[s.task] += 1
                for c in s.tests.cases:
                    error = normalise_error(c.first_message_line) if c.outcome.is_failure else ""
                    table[(s.task, c.id)].append(
                        Seen(s.sample_id, run.agent or run.id, c.outcome, error, source))
        self._table = {k: tuple(v) for k, v in table.items()}

    def source(self, sample_id: str) -> str:
        """The source (agent and model) of ``sample_id``, "" when not indexed."""
        return self._sources.get(sample_id, "")

    def history(self, task: str, test_id: str) -> TestHistory:
        key = (task, test_id)
        return TestHistory(task, test_id, self._table.get(key, ()))
