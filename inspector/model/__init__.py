"""Pure data: tasks, runs, results, logs and their loaders. Never imports Textual or Rich.

The names below are loaded on first use, so importing one small module of the package
(``inspector.model.safe_text``) does not load the run loaders too (start-up time).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspector.model.discover import Discovery, discover_runs
    from inspector.model.errors import LoadError, LoadIssue
    from inspector.model.outcomes import Outcome, Phase, PhaseStatus, SuiteStatus
    from inspector.model.results import (
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
    from inspector.model.run import Run, RunSource
    from inspector.model.task import Endpoint, Task

_HOMES = {
    "discover": ("Discovery", "discover_runs"),
    "errors": ("LoadError", "LoadIssue"),
    "outcomes": ("Outcome", "Phase", "PhaseStatus", "SuiteStatus"),
    "results": ("ApiCoverage", "Deployment", "EndpointCoverage", "Evidence", "PhaseResult",
                "SampleResult", "SuiteCause", "TestCase", "TestSummary"),
    "run": ("Run", "RunSource"),
    "task": ("Endpoint", "Task"),
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
