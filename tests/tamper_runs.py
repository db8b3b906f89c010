"""A runs folder whose generated repos reach for their own test runs (tests/fixtures/hostile/
tamper), written by the real run writers: one run in our format and its stock RepoGenesis
copy. The recorded outcomes are what an isolated golden run measures (the forging conftest's
service answers 500, so its tests fail); the tampering findings must not change them.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from inspector.model import (
    Deployment,
    Outcome,
    Phase,
    PhaseResult,
    PhaseStatus,
    SampleResult,
    TestCase,
    TestSummary,
)
from inspector.model.benchmark.tasks import load_tasks
from inspector.services.evaluate.run_writer import (
    write_repogenesis_output,
    write_run_json,
    write_sample,
)
from inspector.services.tamper import scan_repo

HOSTILE = Path(__file__).parent / "fixtures" / "hostile" / "tamper"
RUN_ID = "repo_readme_1201_mallory_m0-small_Python"
STOCK_ID = f"{RUN_ID}@mallory"
# task -> (hostile fixture, tests failed (of the task's suite), record the findings the way
# evaluate does (else: like an older run, scanned when loaded))
SAMPLES = {
    "notes-api": ("forged_conftest", 10, True),  # deliberate: forging conftest; all fail
    "todo-service": ("benign_pytest_ini", 0, False),  # benign config; passes
    "url-shortener": ("clean", 0, True),  # nothing to report; passes
    "inventory-api": ("pytest11_setup_py", 1, True),  # deliberate: pytest11 plugin; fails
}


def _result(task: str, repo: Path, passed: int, failed: int, record: bool,
            golden: Path | None) -> SampleResult:
    cases = [TestCase(f"tests/test_{task.replace('-', '_')}.py::test_ok_{i}", Outcome.PASSED,
                      0.01) for i in range(passed)]
    cases += [TestCase(f"tests/test_{task.replace('-', '_')}.py::test_bad_{i}", Outcome.FAILED,
                       0.01, "AssertionError: assert 500 == 200") for i in range(failed)]
    phases = tuple(PhaseResult(ph, PhaseStatus.OK, duration_seconds=0.1) for ph in Phase)
    return SampleResult(
        run_id=RUN_ID, task=task, sample=0, language="python",
        deployment=Deployment(True, "Service started successfully", None, phases, True),
        tests=TestSummary(passed=passed, failed=failed, cases=tuple(cases), has_cases=True),
        framework="any", repo_path=repo, elapsed_seconds=1.0, exit_code=1 if failed else 0,
        tampering=tuple(scan_repo(repo, golden)) if record else None)


def build(dest: Path, tasks_root: Path) -> Path:
    """Write the hostile runs under ``dest`` (returned) using the tasks in ``tasks_root``."""
    tasks, _ = load_tasks(tasks_root)
    predictions = dest / "predictions" / RUN_ID
    run_dir = dest / "runs" / RUN_ID
    results = []
    for task, (fixture, failed, record) in SAMPLES.items():
        repo = predictions / task
        shutil.copytree(HOSTILE / fixture, repo, symlinks=True)
        expected = tasks[task].expected_tests or 0
        result = _result(task, repo, expected - failed, failed, record, tasks[task].tests_dir)
        write_sample(run_dir, result, "2026-12-01T10:00:00+00:00", "2026-12-01T10:00:05+00:00")
        results.append(result)
    write_run_json(run_dir, run_id=RUN_ID, agent="mallory", model="m0-small",
                   language="python", generation_date="1201",
                   created_at="2026-12-01T10:00:00+00:00",
                   finished_at="2026-12-01T10:01:00+00:00", status="complete",
                   predictions=[predictions], tasks_root=tasks_root,
                   tasks=[tasks[t] for t in SAMPLES], samples=[(t, 0) for t in SAMPLES],
                   backend="local", settings={}, elapsed_seconds=60.0)
    write_repogenesis_output(dest / "repogenesis" / "mallory", results, predictions, 60.0,
                             datetime(2026, 12, 1, 10, 1, tzinfo=UTC), "flat",
                             "mallory", "m0-small")
    return dest
