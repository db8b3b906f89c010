"""Re-running the recorded failures of every bundled real task reproduces them.

For each real RepoGenesis task with a failing sample in the bundled runs, all the sample's
recorded failures are re-run on one fresh local deployment (what `A` does in the sample view):
every one must fail again, and a sample that never deployed must fail to deploy again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model.runs.runformat import load_run
from inspector.services.deploy.local import LocalBackend
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.host.venvs import VenvCache
from inspector.services.rerun.runner import rerun, resolve_tests

pytestmark = pytest.mark.slow

REAL_RUNS = ("repo_readme_1125_atlas_m2-large_Python", "repo_readme_1125_dash_m2-mini_Python",
             "repo_readme_1125_relay_open_coder-7b_Python")
REAL_PYTHON_TASKS = {"Multilingual", "StructuredDataConvertor", "UserManagement_2", "WebPan",
                     "django-rest-framework-crud", "eve", "flask", "synapse"}


def _failing_samples(sample_runs: Path) -> dict[str, tuple[str, object, object]]:
    """The first failing sample of each real task over the real runs, deployed ones first."""
    found: dict[str, tuple[str, object, object]] = {}
    for name in REAL_RUNS:
        run, _ = load_run(sample_runs / "runs" / name)
        for s in sorted(run.samples, key=lambda s: not s.deployment.success):
            if s.task in REAL_PYTHON_TASKS and not s.passed and s.task not in found:
                found[s.task] = (run.id, run.tasks[s.task], s)
    return found


def test_every_real_task_with_failures_is_covered(sample_runs: Path) -> None:
    # drf, eve and flask pass in every real run; the others fail somewhere
    assert set(_failing_samples(sample_runs)) == {
        "Multilingual", "StructuredDataConvertor", "UserManagement_2", "WebPan", "synapse"}


@pytest.mark.parametrize("task", ["Multilingual", "StructuredDataConvertor", "UserManagement_2",
                                  "WebPan", "synapse"])
def test_rerun_reproduces_the_recorded_failures(task: str, sample_runs: Path, venv_cache: Path,
                                                tmp_path: Path) -> None:
    run_id, task_obj, sample = _failing_samples(sample_runs)[task]
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache), work_root=tmp_path)
    pool = DeploymentPool(lambda name: backend, work_root=tmp_path / "reruns")
    target = Target(run_id, task_obj, sample.sample, sample.repo_path, sample)  # type: ignore[arg-type]
    try:
        ids = resolve_tests(target, ["failures"])
        report = rerun(pool, target, ids, "local")
        if not sample.deployment.success:  # type: ignore[attr-defined]
            assert not report.deployed
            return
        assert report.deployed, report.deploy_failure
        comparisons = {t: c for t, rec, _, c in report.results() if rec is not None}
        assert set(comparisons) == {c.id for c in sample.failing_tests}  # type: ignore[attr-defined]
        assert all(c in ("same", "different error") for c in comparisons.values()), comparisons
    finally:
        pool.close()


def test_a_sample_that_never_deployed_fails_to_deploy_again(sample_runs: Path, venv_cache: Path,
                                                            tmp_path: Path) -> None:
    run, _ = load_run(sample_runs / "runs" / REAL_RUNS[2])
    never = [s for s in run.samples if not s.deployment.success]
    assert [s.task for s in never] == ["Multilingual"]  # relay's Multilingual never starts
    sample = never[0]
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache), work_root=tmp_path)
    pool = DeploymentPool(lambda name: backend, work_root=tmp_path / "reruns")
    target = Target(run.id, run.tasks[sample.task], 0, sample.repo_path, sample)  # type: ignore[arg-type]
    try:
        report = rerun(pool, target, resolve_tests(target, ["failures"]), "local")
        assert not report.deployed
        assert report.deploy_phase == sample.deployment.failed_phase.value  # type: ignore[union-attr]
    finally:
        pool.close()
