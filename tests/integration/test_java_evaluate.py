"""Java repos evaluated for real by the local backend: Maven offline against ~/.m2."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from inspector.model import Outcome, Phase, PhaseStatus
from inspector.model.runformat import load_run
from inspector.model.tasks import load_tasks
from inspector.services.deploy.backend import SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.harness.evaluate import EvaluationPlan, Evaluator, evaluate_sample

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
M2 = Path.home() / ".m2" / "repository"


def test_unresolvable_dependency_fails_install_fast_with_one_clear_message(
        tmp_path: Path) -> None:
    tasks, _ = load_tasks(ROOT / "sample_runs" / "tasks")
    task = tasks["javalin-task-manager"]
    repo = FIXTURES / "java_repos" / "javalin-task-manager"
    job = SampleJob("java-offline", task, 0, repo, tmp_path / "sample")
    t0 = time.monotonic()
    result = evaluate_sample(LocalBackend(allow_exec=True), job)
    elapsed = time.monotonic() - t0
    assert elapsed < 90, f"a Java sample must not hang ({elapsed:.0f}s)"
    d = result.deployment
    assert not d.success and d.failed_phase is Phase.INSTALL
    install = d.phase(Phase.INSTALL)
    assert install is not None and install.status is PhaseStatus.FAILED
    msg = install.message
    assert msg.startswith("Maven could not resolve ") and "\n" not in msg
    assert msg.endswith("(no Maven repository reachable; offline) — infrastructure problem, "
                        "not the agent's")
    # what it names is really absent from the local repository
    group, artifact, version = msg.split()[4].split(":")
    assert not (M2 / group.replace(".", "/") / artifact / version).is_dir()
    assert (group, artifact) == ("io.javalin", "javalin") or "plugin" in artifact
    assert d.message == msg
    assert result.tests.total == 0 and result.tests.expected == 15
    # the suite's cause is Maven's own reason, not a pytest exit-code meaning
    cause = result.tests.cause
    assert cause is not None and cause.text.startswith("Maven could not resolve ")
    assert "pytest" not in cause.context
    install_log = result.logs[Phase.INSTALL].read_text()
    assert "mvn -B -Dstyle.color=never -o clean compile -DskipTests" in install_log


def test_offline_resolvable_java_repo_runs_end_to_end(tmp_path: Path) -> None:
    """A JDK-only service and JUnit suite whose plugins are all in ~/.m2: deployed with
    start.sh, tested with `mvn test`, per-test results from Surefire's XML reports."""
    plan = EvaluationPlan(tasks_root=FIXTURES / "java_task",
                          predictions=[FIXTURES / "java_repos"], out=tmp_path / "run",
                          only_tasks=["jdk-echo"], run_id="java-e2e")
    run = Evaluator(plan, LocalBackend(allow_exec=True)).run()
    (sample,) = run.samples
    phases = {p.phase: p for p in sample.deployment.phases}
    assert phases[Phase.INSTALL].status is PhaseStatus.OK, phases[Phase.INSTALL].message
    assert sample.deployment.success
    assert sample.tests.expected == 2  # the commented-out @Test is not counted
    by_id = {c.id: c for c in sample.tests.cases}
    assert set(by_id) == {"com.example.EchoApiTest::healthIsOk",
                          "com.example.EchoApiTest::itemsAreListed"}
    assert by_id["com.example.EchoApiTest::healthIsOk"].outcome is Outcome.PASSED
    failed = by_id["com.example.EchoApiTest::itemsAreListed"]
    assert failed.outcome is Outcome.FAILED
    assert failed.message == "expected: <200> but was: <404>"
    assert (failed.file, failed.line) == ("src/test/java/com/example/EchoApiTest.java", 31)
    assert failed.duration_seconds is not None
    assert phases[Phase.TESTS].message == "2 tests run: 1 failures, 0 errors, 0 skipped"
    # the written run reads back the same
    reloaded, _ = load_run(tmp_path / "run")
    assert {c.id: c.outcome for c in reloaded.samples[0].tests.cases} == {
        k: v.outcome for k, v in by_id.items()}
