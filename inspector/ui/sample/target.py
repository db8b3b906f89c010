"""The deployable target of a sample, for re-running tests and sending requests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widget import Widget

from inspector.model import SampleResult, Task
from inspector.model.results.entries import SampleEntry

if TYPE_CHECKING:
    from inspector.services.deploy.warm import Target


def deploy_target(node: Widget, entry: SampleEntry, sample: SampleResult | None,
                  task: Task | None) -> Target | None:
    """The target to deploy, or None after telling the user (through ``node``) why not."""
    from inspector.services.deploy.warm import DeployError, Target

    if sample is None:
        node.notify("The sample is still loading.", severity="warning")
        return None
    if task is None:
        node.notify(f"{entry.sample_id}: the task (README and golden tests) is not "
                    "available, so the sample cannot be deployed.", severity="error")
        return None
    try:
        return Target.from_result(sample, task)
    except DeployError as exc:
        node.notify(str(exc), title="Cannot deploy", severity="error", timeout=10)
        return None
