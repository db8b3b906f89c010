"""Known flaws of the stock RepoGenesis harness, detected on the reports it wrote.

Java counts: the stock parser sums every ``Tests run:`` line Maven prints, and Surefire prints
one per test class plus the aggregate under ``Results:``, so each Java test is counted twice.
A stock Java result whose counts are all even and whose total is about twice the number of
tests the task declares is flagged, with the halved figures beside it.
"""

from __future__ import annotations

from inspector.model.benchmark.task import Task
from inspector.model.results.sample import SampleResult, TestSummary

JAVA_DOUBLED = "stock Java counts likely doubled: Maven prints per-class and aggregate lines"


def java_counts_doubled(language: str, t: TestSummary, task: Task | None) -> str | None:
    """A note when a stock result's counts look double-counted, else None."""
    if language != "java" or task is None or not task.expected_tests:
        return None
    total = t.reported_total if t.reported_total is not None else t.total
    counts = (total, t.passed, t.failed, t.errors, t.skipped)
    if total <= 0 or any(c % 2 for c in counts):
        return None
    expected = task.expected_tests
    if not 1.5 * expected <= total <= 2.5 * expected:
        return None
    return (f"{JAVA_DOUBLED} (reported {total} tests, the task declares {expected}; halved: "
            f"{t.passed // 2} passed, {t.failed // 2} failed, {t.errors // 2} errors of "
            f"{total // 2})")


def run_java_notes(samples: list[SampleResult], tasks: dict[str, Task]) -> list[str]:
    """One run-level line naming the stock Java results that look double-counted."""
    hit = [s.task for s in samples
           if java_counts_doubled(s.language, s.tests, tasks.get(s.task))]
    if not hit:
        return []
    return [f"{JAVA_DOUBLED}: {', '.join(sorted(hit))}"]
