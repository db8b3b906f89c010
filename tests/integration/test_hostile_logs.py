"""Hostile repos that flood the host's logs, deployed for real by the local backend.

Fixtures: ``tests/fixtures/hostile/logs`` (a task and two generated repos; see its README).
Issue 14, section 2: every phase log stays under its cap with its head and tail, a line with
no newline is read in bounded memory, and re-run logs do not pile up.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_logs import HOSTILE, check_blob_log, check_flood_log, noisy_task

from inspector.model import Phase
from inspector.services.deploy.backend import Limits, SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.evaluate.run import evaluate_sample
from inspector.services.host.venvs import VenvCache
from inspector.services.logs.phase_log import DEFAULT_LOG_CAP
from inspector.services.logs.rerun_logs import deployment_folders, prune_deployments
from inspector.services.rerun.runner import rerun

pytestmark = pytest.mark.slow

@pytest.fixture(scope="module")
def local(venv_cache: Path) -> LocalBackend:
    return LocalBackend(allow_exec=True, cache=VenvCache(venv_cache))


@pytest.mark.parametrize("repo", ["flood", "no_newline"])
def test_a_flooding_service_leaves_a_capped_start_log(local: LocalBackend, tmp_path: Path,
                                                      repo: str) -> None:
    job = SampleJob("hostile-logs", noisy_task(), 0, HOSTILE / "repos" / repo, tmp_path / "s",
                    Limits(startup=120, tests=60))
    result = evaluate_sample(local, job)
    assert result.error is None
    assert result.deployment.success, result.deployment.message
    assert result.tests.passed == 1
    logs = result.logs
    if repo == "flood":
        check_flood_log(logs[Phase.START])
    else:
        check_blob_log(logs[Phase.START])
    assert all(p.stat().st_size <= DEFAULT_LOG_CAP for p in logs.values())


def test_rerun_logs_are_pruned_and_the_run_logs_kept(local: LocalBackend, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLOB_MB", "1")  # the local backend passes it on: quick deployments
    repo = tmp_path / "predictions" / "noisy-service"
    shutil.copytree(HOSTILE / "repos" / "no_newline", repo)
    run_logs = tmp_path / "run" / "samples" / "noisy-service" / "0" / "logs"
    run_logs.mkdir(parents=True)
    (run_logs / "start.log").write_text("the recorded evaluation's log\n")
    target = Target("hostile-logs", noisy_task(), 0, repo)
    root = tmp_path / "reruns"
    pool = DeploymentPool(lambda name: local, work_root=root, keep_reruns=2,
                          limits=Limits(startup=60, tests=60))
    try:
        folders = []
        for _ in range(4):  # four cold re-runs: a fresh deployment folder each
            report = rerun(pool, target, ["tests"], "local", fresh=True)
            assert report.exit_code == 0, report.to_json()
            assert report.workdir is not None
            folders.append(report.workdir)
            check_blob_log(report.workdir / "logs" / "start.log", 1)
        sample_dir = folders[0].parent
        assert sample_dir.parent == root
        assert deployment_folders(sample_dir) == folders[-2:]
        # the live (warm) deployment's folder is never pruned, whatever the limit
        assert prune_deployments(sample_dir, 0) == [folders[-2]]
        assert deployment_folders(sample_dir) == folders[-1:]
        # warm re-runs: only the newest two re-runs' test logs stay
        for times in (2, 1, 3):
            report = rerun(pool, target, ["tests"], "local", times=times)
            assert report.reused and report.exit_code == 0
        logs = sorted(p.name for p in (folders[-1] / "logs").glob("tests-*.log"))
        assert logs == ["tests-4.log", "tests-5.log", "tests-6.log", "tests-7.log"]
        assert all(a.log.is_file() for a in report.attempts)
    finally:
        pool.close()
    assert (run_logs / "start.log").read_text() == "the recorded evaluation's log\n"


def test_cli_evaluate_honours_the_log_cap(tmp_path: Path, venv_cache: Path) -> None:
    preds = tmp_path / "predictions" / "repo_readme_0101_hostile_logs_Python"
    shutil.copytree(HOSTILE / "repos" / "flood", preds / "noisy-service")
    env = dict(os.environ, GENESIS_INSPECTOR_CACHE=str(venv_cache.parent), FLOOD_MB="30")
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "evaluate", "--tasks", str(HOSTILE / "tasks"),
         "--predictions", str(preds), "--out", str(tmp_path / "run"), "--allow-local-exec",
         "--startup-timeout", "120", "--log-cap-mb", "2", "--quiet"],
        capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    check_flood_log(tmp_path / "run" / "samples" / "noisy-service" / "0" / "logs" / "start.log",
                    cap=2 * 2**20, flooded_mb=30)
    doc = json.loads((tmp_path / "run" / "run.json").read_text())
    assert doc["harness"]["settings"]["log_cap_mb"] == 2


@pytest.mark.parametrize(("args", "error"), [
    (["evaluate", "--tasks", "t", "--predictions", "p", "--out", "o", "--log-cap-mb", "0"],
     "argument --log-cap-mb: '0': give a size above 0 MB"),
    (["evaluate", "--tasks", "t", "--predictions", "p", "--out", "o", "--log-cap-mb", "lots"],
     "argument --log-cap-mb: 'lots' is not a number of MB"),
    (["rerun", "runs", "task", "--keep-reruns", "0"],
     "argument --keep-reruns: '0': give 1 or more"),
])
def test_bad_limits_are_one_clear_error(args: list[str], error: str) -> None:
    done = subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and error in done.stderr and "Traceback" not in done.stderr
