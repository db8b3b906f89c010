"""Pure data: tasks, runs, results, logs and their loaders. Never imports Textual or Rich."""

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

__all__ = [
    "ApiCoverage", "Deployment", "Discovery", "Endpoint", "EndpointCoverage", "Evidence",
    "LoadError", "LoadIssue", "Outcome", "Phase", "PhaseResult", "PhaseStatus", "Run",
    "RunSource", "SampleResult", "SuiteCause", "SuiteStatus", "Task", "TestCase", "TestSummary",
    "discover_runs",
]
