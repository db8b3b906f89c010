"""Pure data: tasks, runs, results, logs and their loaders. Never imports Textual or Rich."""

from .discover import Discovery, discover_runs
from .errors import LoadError, LoadIssue
from .outcomes import Outcome, Phase, PhaseStatus, SuiteStatus
from .results import (
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
from .run import Run, RunSource
from .task import Endpoint, Task

__all__ = [
    "ApiCoverage", "Deployment", "Discovery", "Endpoint", "EndpointCoverage", "Evidence",
    "LoadError", "LoadIssue", "Outcome", "Phase", "PhaseResult", "PhaseStatus", "Run",
    "RunSource", "SampleResult", "SuiteCause", "SuiteStatus", "Task", "TestCase", "TestSummary",
    "discover_runs",
]
