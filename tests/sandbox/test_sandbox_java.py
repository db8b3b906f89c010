"""Java tasks in the real Docker sandbox, Maven resolving from Debian's repository folder.

The task (``corpus-java/tasks/repo/bookmarks-java``: a JUnit 5 suite calling the service over
HTTP; its README lists the artifacts the machine provides) and the samples
(``corpus-java/predictions``: repos written from its README alone) are evaluated for real: the
JDK/Maven image, ``--maven-local /usr/share/maven-repo --maven-complete`` mounted read-only, the
test runner's own offline build, per-test results from Surefire's reports. What happened to
each sample is what its writer's code really did: one passes, one does not compile (names
guessed across files), one pins a plugin version the README says is not there, one's start.sh
leaves a jar off the class path. A bundled real task (Javalin, which Debian does not package)
is not evaluable from the same folder when it is not declared complete.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.model import Outcome, Phase, PhaseStatus
from inspector.model.runs.runformat import load_run
from inspector.services.deploy.backend import Limits
from inspector.services.deploy.choose import backend_factory, find_target
from inspector.services.deploy.warm import DeploymentPool
from inspector.services.rerun.runner import rerun
from inspector.services.sandbox.java_image import JAVA_IMAGE, java_image_id

from .conftest import RUN

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "corpus-java" / "tasks"
PREDICTIONS = ROOT / "corpus-java" / "predictions"
DEBIAN_REPO = "/usr/share/maven-repo"
SAMPLES = {"repo_readme_1129_hasty_java-m1_Java": 0,  # passes every test
           "repo_readme_1129_shard_frag-java_Java": 1,  # fragmented: does not compile
           "repo_readme_1129_weak_java-m1_Java": 2,  # maven-compiler-plugin 3.8.1
           "repo_readme_1129_sprint_hasty-java_Java": 3}  # start.sh misses a Jetty jar
TEST = "bookmarks.tests.CreateBookmarkTest::healthReturnsOk"


@pytest.fixture(scope="module")
def java_run(docker_client, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    if java_image_id(docker_client) is None:
        pytest.fail(f"{JAVA_IMAGE} is missing: run `inspector sandbox init --java` "
                    "(scripts/sandbox-setup.sh does)", pytrace=False)
    root = tmp_path_factory.mktemp("java")
    out = root / "run"
    cmd = [sys.executable, "-m", "inspector.cli", "evaluate", "--tasks", str(TASKS),
           "--out", str(out), "--backend", "docker", "--maven-local", DEBIAN_REPO,
           "--maven-complete",
           "--jobs", "2", "--run-id", f"java-{RUN}", "--quiet"]
    for run in SAMPLES:  # beside the run: a re-run opens repos only in its neighbourhood
        shutil.copytree(PREDICTIONS / run, root / run)
        cmd += ["--predictions", str(root / run)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode in (0, 1), done.stderr[-3000:]
    run, _ = load_run(out)
    return out, {s.sample: s for s in run.samples}


def test_a_passing_repo_is_built_started_and_tested_per_test(java_run) -> None:  # type: ignore[no-untyped-def]
    out, samples = java_run
    s = samples[SAMPLES["repo_readme_1129_hasty_java-m1_Java"]]
    assert s.deployment.success and s.not_evaluable is None
    ids = {c.id: c.outcome for c in s.tests.cases}
    # 36 test methods; the parameterized ones run once per value
    assert s.tests.expected == 36 and len(ids) == s.tests.passed == 52
    assert ids[TEST] is Outcome.PASSED and set(ids.values()) == {Outcome.PASSED}
    logs = out / "samples" / "bookmarks-java" / "0" / "logs"
    install = (logs / "install.log").read_text()
    # the folder lacks the clean plugin Maven's lifecycle binds: plugin goals, said so
    assert "which Maven's lifecycle binds without the pom naming it" in install
    assert "Maven resolves through the local Maven repository folder /usr/share/maven-repo" \
        in install
    tests = (logs / "tests.log").read_text()
    assert " -o surefire:test" in tests and "as uid 1001, offline" in tests
    health = s.deployment.phase(Phase.HEALTH)
    assert health is not None and health.status is PhaseStatus.OK


def test_a_repo_that_does_not_compile_fails_with_file_and_line(java_run) -> None:  # type: ignore[no-untyped-def]
    _, samples = java_run
    s = samples[SAMPLES["repo_readme_1129_shard_frag-java_Java"]]
    assert s.not_evaluable is None, "a compile error is the repo's, never the machine's"
    install = s.deployment.phase(Phase.INSTALL)
    assert install is not None and install.status is PhaseStatus.FAILED
    assert install.message.startswith("compilation failed: src/main/java/app/")
    assert ".java:" in install.message
    assert s.tests.passed == 0 and s.tests.expected >= 36


def test_a_service_that_cannot_start_fails_every_test_as_the_repos(java_run) -> None:  # type: ignore[no-untyped-def]
    out, samples = java_run
    s = samples[SAMPLES["repo_readme_1129_sprint_hasty-java_Java"]]
    assert s.not_evaluable is None and not s.deployment.success
    assert s.deployment.failed_phase in (Phase.START, Phase.HEALTH)
    start = (out / "samples" / "bookmarks-java" / "3" / "logs" / "start.log").read_text()
    assert "NoClassDefFoundError: org/eclipse/jetty/" in start
    assert s.tests.passed == 0 and s.tests.failed == len(s.tests.cases) == 52
    assert all("ConnectException" in (c.message or "") for c in s.tests.cases)


def test_a_plugin_the_complete_folder_lacks_is_the_repos_dependency_failure(java_run) -> None:  # type: ignore[no-untyped-def]
    _, samples = java_run
    s = samples[SAMPLES["repo_readme_1129_weak_java-m1_Java"]]
    assert s.not_evaluable is None, "the folder is the task's repository of record"
    install = s.deployment.phase(Phase.INSTALL)
    assert install is not None and install.status is PhaseStatus.FAILED
    assert install.message.startswith(
        "Maven could not resolve org.apache.maven.plugins:maven-compiler-plugin:3.8.1")
    assert "repository tried: the local Maven repository folder /usr/share/maven-repo " \
        "(--maven-local, declared complete)" in install.message


def test_a_bundled_real_task_whose_artifacts_are_not_here_is_not_evaluable(
        docker_client, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, "-m", "inspector.cli", "evaluate", "--tasks",
         str(ROOT / "sample_runs" / "tasks"), "--predictions",
         str(ROOT / "sample_runs" / "predictions" / "repo_readme_1125_dash_m2-mini_Java"),
         "--task", "javalin-task-manager", "--out", str(out), "--backend", "docker",
         "--maven-local", DEBIAN_REPO, "--run-id", f"java-real-{RUN}", "--quiet"],
        capture_output=True, text=True, timeout=600, check=False)
    run, _ = load_run(out)
    (s,) = run.samples
    ne = s.not_evaluable
    assert ne is not None and ne.kind == "dependency_repository_unreachable", done.stderr[-2000:]
    # the pom's own plugin first (shade 3.5.1; Javalin 6.1.3 among the rest), the folder named
    assert ne.reason.startswith(
        "Maven could not resolve org.apache.maven.plugins:maven-shade-plugin:3.5.1 and ")
    assert "the local Maven repository folder /usr/share/maven-repo (--maven-local)" in ne.reason
    assert "not a complete repository" in ne.reason
    assert "not evaluable" in done.stderr  # said, and in no figure


def test_one_java_test_reruns_warm_on_one_deployment(
        java_run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    out, _ = java_run
    monkeypatch.setenv("INSPECTOR_MAVEN_LOCAL", DEBIAN_REPO)
    pool = DeploymentPool(backend_factory(False), work_root=tmp_path,
                          limits=Limits(install=600, startup=60, tests=300))
    try:
        target = find_target(out, "bookmarks-java", 0)
        report = rerun(pool, target, [TEST], "docker", times=2)
    finally:
        pool.close()
    assert report.exit_code == 0 and len(report.attempts) == 2
    assert all(a.cases[TEST].outcome is Outcome.PASSED for a in report.attempts)
    first, second = (a.log.read_text() for a in report.attempts)
    assert "-Dtest=bookmarks.tests.CreateBookmarkTest#healthReturnsOk" in second
    assert "warm re-run" in second and "compiler:" not in second.split("warm re-run")[1]
    assert "Tests run: 1," in second
