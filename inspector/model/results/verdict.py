"""The one-glance outcome of a sample, shared by every list, the matrix and the filters."""

from __future__ import annotations

from enum import StrEnum

from inspector.model.results.sample import SampleResult


class Verdict(StrEnum):
    """What happened to one sample, from best to worst."""

    PASSED = "passed"
    TESTS_FAILED = "tests_failed"
    SUITE_NOT_RUN = "suite_not_run"
    NOT_DEPLOYED = "not_deployed"
    # the infrastructure left it without a verdict (results.NotEvaluable): never a failure
    NOT_EVALUABLE = "not_evaluable"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def is_failure(self) -> bool:
        return self not in (Verdict.PASSED, Verdict.NOT_EVALUABLE)


_LABELS = {
    Verdict.PASSED: "passed",
    Verdict.TESTS_FAILED: "tests failed",
    Verdict.SUITE_NOT_RUN: "suite did not run",
    Verdict.NOT_DEPLOYED: "did not deploy",
    Verdict.NOT_EVALUABLE: "not evaluable",
}


def verdict_of(s: SampleResult) -> Verdict:
    """Strict verdict: passed only if every test passed (as Pass@1 counts it)."""
    if s.not_evaluable is not None:
        return Verdict.NOT_EVALUABLE
    if s.passed:
        return Verdict.PASSED
    if not s.deployment.success:
        return Verdict.NOT_DEPLOYED
    t = s.tests
    if t.total == 0 or (t.has_cases and t.collection_errors >= t.total):
        return Verdict.SUITE_NOT_RUN  # nothing counted, or only files that failed to collect
    return Verdict.TESTS_FAILED
