"""Pure data: tasks, runs, results, logs and their loaders. Never imports Textual or Rich.

The names below are loaded on first use, so importing one small module of the package
(``inspector.model.untrusted.safe_text``) does not load the run loaders too (start-up time).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspector.model.benchmark.task import Endpoint, Task
    from inspector.model.results.outcomes import Outcome, Phase, PhaseStatus, SuiteStatus
    from inspector.model.results.run import Run, RunSource
    from inspector.model.results.sample import (
        ApiCoverage,
        Deployment,
        EndpointCoverage,
        Evidence,
        PhaseResult,
        SampleResult,
        SuiteCause,
        TestCase,
        TestSummary,
    )
    from inspector.model.runs.discover import Discovery, discover_runs
    from inspector.model.untrusted.errors import LoadError, LoadIssue

_HOMES = {
    "runs.discover": ("Discovery", "discover_runs"),
    "untrusted.errors": ("LoadError", "LoadIssue"),
    "results.outcomes": ("Outcome", "Phase", "PhaseStatus", "SuiteStatus"),
    "results.sample": ("ApiCoverage", "Deployment", "EndpointCoverage", "Evidence", "PhaseResult",
                "SampleResult", "SuiteCause", "TestCase", "TestSummary"),
    "results.run": ("Run", "RunSource"),
    "benchmark.task": ("Endpoint", "Task"),
}
_WHERE = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "ApiCoverage", "Deployment", "Discovery", "Endpoint", "EndpointCoverage", "Evidence",
    "LoadError", "LoadIssue", "Outcome", "Phase", "PhaseResult", "PhaseStatus", "Run",
    "RunSource", "SampleResult", "SuiteCause", "SuiteStatus", "Task", "TestCase", "TestSummary",
    "discover_runs",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
