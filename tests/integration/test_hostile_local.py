"""Hostile generated repos on the local backend, for real (issue 14): results they cannot
forge, in an evaluation and in a re-run, and nothing of theirs left running after teardown.

Real processes, namespaces, files and HTTP on loopback. The repos are in
``tests/fixtures/hostile`` (see the READMEs there). ``rewrite_tests`` and ``replace_report``
write wherever they can, so they only ever run boxed (never with isolation ``none`` as root).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from inspector.model import Outcome, Phase, PhaseStatus, Task
from inspector.model.benchmark.tasks import load_tasks
from inspector.services.deploy.backend import Limits, SampleJob, TestRun
from inspector.services.deploy.local import LocalBackend, LocalSession
from inspector.services.deploy.steps import deploy
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.evaluate.run import EvaluationPlan, Evaluator, evaluate_sample
from inspector.services.host import confine
from inspector.services.host.ports import port_open
from inspector.services.host.venvs import VenvCache
from inspector.services.logs.phase_log import PhaseLog
from inspector.services.rerun.runner import rerun, resolve_tests
from inspector.services.suite.junit import parse_junit

pytestmark = pytest.mark.slow

HOSTILE = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"
FORGE, DAEMON = HOSTILE / "forge", HOSTILE / "daemon"
FORGERS = ("conftest_forge", "rewrite_tests", "replace_report")
BOXED = os.geteuid() == 0 or confine.isolation() != "none"


@pytest.fixture(scope="module")
def task() -> Task:
    tasks, _ = load_tasks(FORGE / "tasks")
    return tasks["guarded-items"]


@pytest.fixture(scope="module")
def daemon_task() -> Task:
    tasks, _ = load_tasks(DAEMON / "tasks")
    return tasks["daemon-items"]


def _backend(venv_cache: Path, work: Path, isolation: str | None = None) -> LocalBackend:
    work.mkdir(parents=True, exist_ok=True)
    return LocalBackend(allow_exec=True, cache=VenvCache(venv_cache), work_root=work,
                        isolation=isolation)


def _deploy_and_test(backend: LocalBackend, job: SampleJob,
                     before_tests=lambda s: None) -> tuple[LocalSession, TestRun]:  # noqa: ANN001
    """The session's phases as evaluate runs them, keeping the TestRun (its tampering)."""
    logs = {ph: PhaseLog(job.out_dir / "logs" / f"{ph.value}.log") for ph in Phase}
    session = backend.open(job)
    try:
        deploy(session, logs)
        before_tests(session)
        run = session.run_tests(logs[Phase.TESTS])
    finally:
        session.close()
        for log in logs.values():
            log.close()
    return session, run


def _alive_with(text: str) -> list[int]:
    """Host pids of live processes whose command line holds ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if text.encode() in cmd and stat[stat.rfind(")") + 2] != "Z":
            found.append(int(entry.name))
    return found


def test_isolation_here_is_a_namespace() -> None:
    """Root here (as in CI): the service is boxed as nobody, never merely grouped."""
    assert os.geteuid() != 0 or confine.isolation() == "uid"


@pytest.mark.skipif(not BOXED, reason="the forgers write wherever they can: boxed runs only")
def test_no_forger_passes_an_evaluation(task: Task, tmp_path: Path, venv_cache: Path) -> None:
    """The three forgers as pass@3 samples of one run: every test fails, none passes."""
    preds = []
    for n, name in enumerate(FORGERS):
        folder = tmp_path / f"pred{n}"
        folder.mkdir()
        (folder / task.name).symlink_to(FORGE / "repos" / name)
        preds.append(folder)
    plan = EvaluationPlan(tasks_root=FORGE / "tasks", predictions=preds, out=tmp_path / "run",
                          limits=Limits(startup=5, tests=60))
    run = Evaluator(plan, _backend(venv_cache, tmp_path)).run()
    assert len(run.samples) == 3
    for s in run.samples:
        assert not s.passed, s.sample_id
        assert s.tests.passed == 0 and s.tests.total == 2, (s.sample_id, s.tests)
        assert {c.outcome for c in s.tests.cases} <= {Outcome.FAILED, Outcome.ERROR}
        # the run folder's report says the same
        cases, _ = parse_junit(s.logs[Phase.TESTS].parent.parent / "junit.xml")
        assert [c.outcome for c in cases if c.outcome is Outcome.PASSED] == []
    assert not port_open(task.port)


def test_conftest_forge_fails_with_every_isolation(task: Task, tmp_path: Path,
                                                   venv_cache: Path) -> None:
    """The repo's root conftest.py and pytest config never reach the golden run, boxed or
    not (the ``none`` fallback runs this repo safely: it only forges inside pytest)."""
    for mode in confine.available():
        job = SampleJob("r", task, 0, FORGE / "repos" / "conftest_forge",
                        tmp_path / mode / "out", Limits(startup=10, tests=60))
        result = evaluate_sample(_backend(venv_cache, tmp_path / mode, mode), job)
        assert result.deployment.success, (mode, result.deployment.message)
        assert not result.passed and result.tests.passed == 0, mode
        assert result.tests.failed == 2, mode
        case = result.tests.cases[0]
        assert "500" in case.message, (mode, case.message)
        assert result.tests.rootdir == "."
        assert confine.describe(mode) in result.logs[Phase.START].read_text()


def _box_runs(session: LocalSession, argv: list[str], timeout: float) -> bool:
    """Wait until a process of the session's service has command line ``argv``."""
    want = "\0".join(argv).encode() + b"\0"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert session.service is not None
        for pid in session.service.pids():
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes() == want:
                    return True
            except OSError:
                pass
        time.sleep(0.2)
    return False


@pytest.mark.skipif(not BOXED, reason="rewrites every tests/test_*.py it can write")
def test_rewriting_every_test_file_finds_nothing_to_write(task: Task, tmp_path: Path,
                                                          venv_cache: Path) -> None:
    """start.sh searches the whole file system for test files it can write and rewrites
    them: boxed, it finds none (read-only file system; the golden suite hidden), then sleeps
    without answering; every test fails."""
    job = SampleJob("r", task, 0, FORGE / "repos" / "rewrite_tests", tmp_path / "out",
                    Limits(startup=3, tests=60))
    seen = {}

    def search_done(session: LocalSession) -> None:
        seen["done"] = _box_runs(session, ["sleep", "600"], 120)
        seen["copy"] = (session.workdir / "tests" / "test_items.py").read_text()
        seen["golden"] = (session.golden.folder / "tests" / "test_items.py").read_text()

    session, run = _deploy_and_test(_backend(venv_cache, tmp_path), job, search_done)
    assert seen["done"], "the search for writable test files never finished"
    original = (task.tests_dir / "test_items.py").read_text()
    assert seen["copy"] == seen["golden"] == original
    cases, _ = run.cases()
    assert sorted(c.id for c in cases) == ["tests/test_items.py::test_health",
                                           "tests/test_items.py::test_items_start_empty"]
    assert all(c.outcome is Outcome.FAILED for c in cases)
    assert run.tampering == []
    assert not session.tmp.exists()


def test_rewriting_the_repo_copy_of_the_tests_is_reported(task: Task, tmp_path: Path,
                                                          venv_cache: Path) -> None:
    """The copy of the golden tests in the repo (kept there as in the stock harness) is the
    service's to write, but it is not what runs: a rewrite is a tampering finding."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "requirements.txt").write_text("")
    (repo / "start.sh").write_text(
        "printf 'def test_health():\\n    pass\\n' > tests/test_items.py\n"
        "exec python -m http.server \"$PORT\" --bind 127.0.0.1\n")
    job = SampleJob("r", task, 0, repo, tmp_path / "out", Limits(startup=10, tests=60))
    _, run = _deploy_and_test(_backend(venv_cache, tmp_path), job)
    cases, _ = run.cases()
    assert len(cases) == 2 and all(c.outcome is Outcome.FAILED for c in cases)
    assert [(f.kind, f.path, f.deliberate) for f in run.tampering] == [
        ("tests_rewritten", "", True)]


@pytest.mark.skipif(not BOXED, reason="overwrites every JUnit-like file it can find")
def test_replacing_the_report_reaches_nothing(task: Task, tmp_path: Path,
                                              venv_cache: Path) -> None:
    """The service keeps overwriting every JUnit file it can guess, during and after the run:
    the private report and the run folder's copy are out of its reach."""
    job = SampleJob("r", task, 0, FORGE / "repos" / "replace_report", tmp_path / "out",
                    Limits(startup=10, tests=60))

    def linger(session: LocalSession) -> None:
        time.sleep(1.5)  # the forger rewrites every 0.5 s

    session, run = _deploy_and_test(_backend(venv_cache, tmp_path), job, linger)
    cases, _ = run.cases()
    assert len(cases) == 2 and all(c.outcome is Outcome.FAILED for c in cases)
    recorded, _ = parse_junit(tmp_path / "out" / "junit.xml")
    assert [c.outcome for c in recorded] == [Outcome.FAILED, Outcome.FAILED]
    assert run.tampering == []


def test_golden_suite_changed_during_the_run_discards_the_results(
        task: Task, tmp_path: Path, venv_cache: Path) -> None:
    """Without a namespace (the ``none`` fallback), a service running as the inspector's user
    can reach the staged suite: the digest check catches it and the results are discarded."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "requirements.txt").write_text("")
    # only ever touches its own session's staged suite (../golden), whoever runs it
    (repo / "start.sh").write_text(
        "chmod -R u+w ../golden\n"
        "printf 'def test_health():\\n    pass\\n' > ../golden/tests/test_items.py\n"
        "exec python -m http.server \"$PORT\" --bind 127.0.0.1\n")
    job = SampleJob("r", task, 0, repo, tmp_path / "out", Limits(startup=10, tests=60))
    _, run = _deploy_and_test(_backend(venv_cache, tmp_path / "none", "none"), job)
    assert run.outcome.status is PhaseStatus.FAILED
    assert "golden test suite was modified before the test run" in run.outcome.message
    assert run.junit is None and run.cases() == ([], 0)
    assert [(f.kind, f.deliberate) for f in run.tampering] == [("golden_modified", True)]
    # boxed, the same repo cannot even see the suite: the real tests run, and fail
    job = SampleJob("r", task, 1, repo, tmp_path / "out1", Limits(startup=10, tests=60))
    _, run = _deploy_and_test(_backend(venv_cache, tmp_path / "box"), job)
    cases, _ = run.cases()
    assert run.tampering == [] and len(cases) == 2
    assert all(c.outcome is Outcome.FAILED for c in cases)


def test_rerun_of_the_conftest_forge_fails(task: Task, tmp_path: Path,
                                           venv_cache: Path) -> None:
    backend = _backend(venv_cache, tmp_path)
    repo = FORGE / "repos" / "conftest_forge"
    recorded = evaluate_sample(backend, SampleJob("r", task, 0, repo, tmp_path / "out",
                                                  Limits(startup=10, tests=60)))
    target = Target("r", task, 0, repo, recorded)
    pool = DeploymentPool(lambda name: backend, work_root=tmp_path / "reruns",
                          limits=Limits(startup=10, tests=60))
    try:
        ids = resolve_tests(target, ["failures"])
        assert len(ids) == 2
        report = rerun(pool, target, ids, "local", times=2)
        assert report.deployed
        assert report.exit_code == 1
        for attempt in report.attempts:
            assert attempt.exit_code == 1
            assert sorted(attempt.cases) == ["tests/test_items.py::test_health",
                                             "tests/test_items.py::test_items_start_empty"]
            assert {c.outcome for c in attempt.cases.values()} == {Outcome.FAILED}
        assert {r[3] for r in report.results()} == {"same"}
    finally:
        pool.close()
    assert not port_open(task.port)


@pytest.mark.parametrize("mode", ["auto", "userns", "none"])
def test_double_forked_daemons_do_not_survive_teardown(mode: str, daemon_task: Task,
                                                       tmp_path: Path, venv_cache: Path) -> None:
    """start.sh leaves two daemons (one keeps the port, without the service's environment)
    and exits: close() kills both and frees the port, and the next sample on that port
    deploys normally."""
    backend = _backend(venv_cache, tmp_path, mode)
    seen: dict[int, list[int]] = {}
    for n in (0, 1):
        job = SampleJob("r", daemon_task, n, DAEMON / "repos" / "double_fork",
                        tmp_path / f"out{n}", Limits(startup=10, tests=60))

        def running(session: LocalSession, n: int = n) -> None:
            daemons = [f"{session.workdir}/{name}" for name in ("server.py", "sleeper.py")]
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not all(map(_alive_with, daemons)):
                time.sleep(0.05)
            seen[n] = [pid for d in daemons for pid in _alive_with(d)]

        session, run = _deploy_and_test(backend, job, running)
        assert len(seen[n]) == 2, "the daemons never ran"
        cases, _ = run.cases()
        assert [c.outcome for c in cases] == [Outcome.PASSED, Outcome.PASSED], n
        assert not port_open(daemon_task.port)
        assert _alive_with(str(session.tmp)) == []
    # the same through evaluate, twice on the same port
    for n in (2, 3):
        job = SampleJob("r", daemon_task, n, DAEMON / "repos" / "double_fork",
                        tmp_path / f"out{n}", Limits(startup=10, tests=60))
        result = evaluate_sample(backend, job)
        assert result.deployment.success, result.deployment.message
        assert result.passed
    assert not port_open(daemon_task.port)
