"""The failure items of one sample: every failing test, and the sample itself when it has a
failure no test carries (a failed deployment, a suite that did not run or ran partially)."""

from __future__ import annotations

from inspector.model import SampleResult, Task
from inspector.model.failures.triage import (
    DEPLOY_FAILED,
    SUITE_INCOMPLETE,
    SUITE_NOT_RUN,
    TEST,
    FailureItem,
)
from inspector.services.figures.failures import sample_failures

_KINDS = {"deploy_failed": DEPLOY_FAILED, "suite_not_run": SUITE_NOT_RUN,
          "suite_incomplete": SUITE_INCOMPLETE, "counts": SUITE_INCOMPLETE,
          "failed": TEST, "error": TEST}


def failure_items(sample: SampleResult, task: Task | None = None) -> list[FailureItem]:
    """Sample-level items first (deployment, then suite), then failing tests in report order.

    One sample-level item per sample at most: a failed deployment explains the suite too."""
    sample_level: FailureItem | None = None
    tests: list[FailureItem] = []
    for row in sample_failures(sample, task):
        kind = _KINDS.get(row.outcome)
        if kind is None:  # tampering rows are reported elsewhere, never labelled
            continue
        if row.test_id is None:
            if sample_level is None:
                sample_level = FailureItem(sample.sample_id, None, kind, row.message,
                                           row.file, row.line)
            continue
        tests.append(FailureItem(sample.sample_id, row.test_id, kind, row.message, row.file,
                                 row.line))
    return ([sample_level] if sample_level else []) + tests
