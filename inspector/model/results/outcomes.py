"""Enumerations shared by the whole model: test outcomes, deployment phases, suite status."""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """Outcome of one test case."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    SKIPPED = "skipped"

    @property
    def is_failure(self) -> bool:
        return self in (Outcome.FAILED, Outcome.ERROR)


class Phase(StrEnum):
    """Phases of deploying and testing one generated repository, in order."""

    INSTALL = "install"
    START = "start"
    HEALTH = "health"
    TESTS = "tests"


PHASE_ORDER: tuple[Phase, ...] = (Phase.INSTALL, Phase.START, Phase.HEALTH, Phase.TESTS)


class PhaseStatus(StrEnum):
    OK = "ok"
    FAILED = "failed"
    SKIPPED = "skipped"
    TIMEOUT = "timeout"


class SuiteStatus(StrEnum):
    """Whether a sample's test suite really ran.

    ``not_run``: no test was counted at all. ``incomplete``: collection errors, or far fewer
    tests than the task is known to have (see ``INCOMPLETE_RATIO``). These are candidate
    benchmark or infrastructure defects, not necessarily the agent's fault.
    """

    RAN = "ran"
    INCOMPLETE = "incomplete"
    NOT_RUN = "not_run"


INCOMPLETE_RATIO = 0.75
"""A suite counting fewer than this share of the expected tests is flagged ``incomplete``."""
