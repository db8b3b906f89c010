"""Hostile repos that flood the host's logs, in the real Docker sandbox.

The service's output reaches the host through ``docker exec``'s stream; its start.log must
stay under the cap with head and tail, and a newline-less stream must be split in linear
time and bounded memory (it used to grow one buffer quadratically and pin a core).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_logs import HOSTILE, check_blob_log, check_flood_log, noisy_task

from inspector.model import Phase
from inspector.services.deploy.backend import Limits, SampleJob
from inspector.services.deploy.choose import backend_factory
from inspector.services.evaluate.run import evaluate_sample
from inspector.services.logs.phase_log import DEFAULT_LOG_CAP


@pytest.mark.parametrize("repo", ["flood", "no_newline"])
def test_a_flooding_sandboxed_service_leaves_a_capped_start_log(docker_client, tmp_path: Path,
                                                                repo: str) -> None:  # type: ignore[no-untyped-def]
    backend = backend_factory(False)("docker")
    job = SampleJob("hostile-logs", noisy_task(), 0, HOSTILE / "repos" / repo, tmp_path / "s",
                    Limits(startup=180, tests=60))
    result = evaluate_sample(backend, job)
    assert result.error is None, result.error
    assert result.deployment.success, result.deployment.message
    assert result.tests.passed == 1
    if repo == "flood":
        check_flood_log(result.logs[Phase.START])
    else:
        check_blob_log(result.logs[Phase.START])
    assert all(p.stat().st_size <= DEFAULT_LOG_CAP for p in result.logs.values())
