"""`inspector evaluate` and the re-run service on a generated repo that forges its own results:
the findings read from the repo before it runs are kept in result.json and in the re-run
report (real virtualenvs, a real service process, real pytest on loopback)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.model.runs.runformat import load_run
from inspector.services.deploy.local import LocalBackend
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.evaluate.run import EvaluationPlan, Evaluator
from inspector.services.host.venvs import VenvCache
from inspector.services.rerun.runner import rerun, resolve_tests

pytestmark = pytest.mark.slow

HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile" / "tamper"
RUN = "repo_readme_1201_mallory_m0-small_Python"


def test_evaluate_and_rerun_report_the_forging_conftest(tmp_path: Path, sample_runs: Path,
                                                        venv_cache: Path) -> None:
    predictions = tmp_path / "predictions" / RUN
    shutil.copytree(HOSTILE / "forged_conftest", predictions / "notes-api")
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache), work_root=tmp_path)
    plan = EvaluationPlan(tasks_root=sample_runs / "tasks", predictions=[predictions],
                          out=tmp_path / "run", only_tasks=["notes-api"])
    run = Evaluator(plan, backend).run()
    (sample,) = run.samples
    assert sample.deployment.success  # the service answers (500 to everything)
    doc = json.loads((tmp_path / "run" / "samples" / "notes-api" / "0" / "result.json")
                     .read_text())
    kinds = [(f["kind"], f["path"], f["deliberate"]) for f in doc["tampering"]]
    assert ("root_conftest", "conftest.py", True) in kinds
    assert ("pytest_config", "pyproject.toml", False) in kinds
    assert "conftest.py:10: pytest_runtest_makereport sets report.outcome" in next(
        f["detail"] for f in doc["tampering"] if f["kind"] == "root_conftest")
    reloaded, _ = load_run(tmp_path / "run")
    assert reloaded.samples[0].tampering == sample.tampering

    pool = DeploymentPool(lambda name: backend, work_root=tmp_path / "reruns")
    target = Target(run.id, run.tasks["notes-api"], 0, sample.repo_path, sample)  # type: ignore[arg-type]
    try:
        report = rerun(pool, target, resolve_tests(target, ["test_health"]), "local")
    finally:
        pool.close()
    assert report.deployed, report.deploy_failure
    found = report.to_json()["tampering"]
    assert found[0]["kind"] == "root_conftest" and found[0]["deliberate"] is True
    assert [f["kind"] for f in found] == [f["kind"] for f in doc["tampering"]]
