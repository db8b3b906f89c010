"""Results written before ``not_evaluable`` existed: the cause read back, marked inferred."""

from __future__ import annotations

from inspector.model import Deployment, TestSummary
from inspector.model.results.not_evaluable import with_inference
from inspector.model.results.sample import NotEvaluable, SampleResult


def _result(message: str = "", error: str | None = None) -> SampleResult:
    return SampleResult("r", "t", 0, "java", Deployment(False, message), TestSummary(),
                        error=error)


def test_older_results_are_inferred_from_the_harness_wording() -> None:
    port = ("port 8080 is already in use by another process on this machine; not started "
            "(infrastructure problem, not the agent's)")
    assert with_inference(_result(error="infrastructure: " + port)).not_evaluable == \
        NotEvaluable("port_held", port, inferred=True)
    assert with_inference(_result("harness exception", "KeyError: 'x'")).not_evaluable == \
        NotEvaluable("harness_exception", "KeyError: 'x'", inferred=True)
    offline = ("Maven could not resolve a:b:1 (no Maven repository reachable; offline) — "
               "infrastructure problem, not the agent's")
    assert with_inference(_result(offline)).not_evaluable == NotEvaluable(
        "dependency_repository_unreachable", offline, inferred=True)
    # a repository answered "not found": the repo's dependency, even in the old wording
    answered = ("Maven could not resolve a:b:1 (not found in the configured repositories) — "
                "infrastructure problem, not the agent's")
    assert with_inference(_result(answered)).not_evaluable is None
    assert with_inference(_result("process exited with code 1")).not_evaluable is None
    # what a result records is never second-guessed
    recorded = NotEvaluable("worker_lost", "node died")
    kept = with_inference(SampleResult("r", "t", 0, "java", Deployment(False, offline),
                                       TestSummary(), not_evaluable=recorded))
    assert kept.not_evaluable is recorded
