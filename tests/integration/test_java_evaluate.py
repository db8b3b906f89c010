"""Java repos evaluated for real by the local backend: Maven offline against ~/.m2."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from inspector.model import Outcome, Phase, PhaseStatus
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.runs.runformat import load_run
from inspector.services.deploy.backend import SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.evaluate.run import EvaluationPlan, Evaluator, evaluate_sample

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
    # nothing was asked of a repository (offline): not evaluable, and the suite, which would
    # fail for the same reason, is not run
    ne = result.not_evaluable
    assert ne is not None and (ne.kind, ne.reason, ne.inferred) == (
        "dependency_repository_unreachable", msg, False)
    tests = d.phase(Phase.TESTS)
    assert tests is not None and tests.status is PhaseStatus.SKIPPED
    assert "not run: not evaluable here" in result.logs[Phase.TESTS].read_text()
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


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_maven_repository_is_recorded_not_evaluable_and_resumed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Maven online against a repository on a closed loopback port (an empty local
    repository, so every plugin has to be fetched): the harness records the sample as not
    evaluable (not the repo's failure), no figure counts it, and the same evaluation evaluates
    it again like a missing result."""
    import json

    from inspector.model.results.sample import NotEvaluable
    from inspector.services.figures.metrics import compute_run_metrics

    home = tmp_path / "home"
    (home / ".m2").mkdir(parents=True)
    (home / ".m2" / "settings.xml").write_text(
        f"<settings><localRepository>{tmp_path / 'm2-empty'}</localRepository><mirrors><mirror>"
        f"<id>closed</id><mirrorOf>*</mirrorOf><url>http://127.0.0.1:{_closed_port()}/maven2"
        "</url></mirror></mirrors></settings>\n", encoding="utf-8")
    monkeypatch.setenv("INSPECTOR_MAVEN_ONLINE", "1")
    monkeypatch.setenv("MAVEN_OPTS", f"-Duser.home={home} -XX:TieredStopAtLevel=1")
    plan = EvaluationPlan(tasks_root=FIXTURES / "java_task",
                          predictions=[FIXTURES / "java_repos"], out=tmp_path / "run",
                          only_tasks=["jdk-echo"], run_id="java-unreachable")
    run = Evaluator(plan, LocalBackend(allow_exec=True)).run()
    (sample,) = run.samples
    ne = sample.not_evaluable
    assert ne is not None and ne.kind == "dependency_repository_unreachable", ne
    assert not ne.inferred and "Maven repository unreachable from this machine" in ne.reason
    doc = json.loads((tmp_path / "run" / "samples" / "jdk-echo" / "0" / "result.json")
                     .read_text())
    assert doc["not_evaluable"] == {"kind": "dependency_repository_unreachable",
                                    "reason": ne.reason, "inferred": False}
    m = compute_run_metrics(run)
    assert (m.samples, m.samples_total, m.not_evaluable) == (0, 1, 1)
    # the same evaluation again (Maven gone from PATH now, so it ends at once): the sample
    # is evaluated again, like a missing result, and records its new cause
    first = doc["started_at"]
    monkeypatch.setenv("PATH", "/usr/bin/no-such-folder")
    again = Evaluator(plan, LocalBackend(allow_exec=True))
    rerun = again.run()
    assert again.resumed == 0
    doc = json.loads((tmp_path / "run" / "samples" / "jdk-echo" / "0" / "result.json")
                     .read_text())
    assert doc["started_at"] != first
    assert doc["not_evaluable"]["kind"] == "toolchain_missing"
    assert rerun.samples[0].not_evaluable == NotEvaluable(
        "toolchain_missing", doc["not_evaluable"]["reason"])
