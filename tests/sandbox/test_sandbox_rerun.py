"""Re-runs in the real Docker sandbox on the bundled sample repos."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from inspector.model.request.http_request import RequestSpec
from inspector.services.deploy.choose import find_target
from inspector.services.rerun.http_client import send
from inspector.services.rerun.runner import rerun, resolve_tests

from .conftest import FORGE, RELAY


def test_failing_test_stays_failing_with_the_same_error(docker_pool, forge_todo) -> None:
    ids = resolve_tests(forge_todo, ["test_create_defaults"])
    report = rerun(docker_pool, forge_todo, ids, "docker")
    assert report.deployed and report.exit_code == 1
    [(tid, old, new, comparison)] = report.results()
    assert tid == "tests/test_todos.py::test_create_defaults"
    assert old is not None and new is not None
    assert new.outcome.value == "failed"
    assert "KeyError: 'completed'" in new.first_message_line
    assert comparison == "same"


def test_passing_test_passes_on_the_warm_sandbox(docker_pool, forge_todo) -> None:
    report = rerun(docker_pool, forge_todo, resolve_tests(forge_todo, ["test_health"]),
                   "docker")
    assert report.exit_code == 0
    assert report.reused, "the second re-run of a sample reuses its warm sandbox"
    assert report.results()[0][3] == "same"


def test_all_failures_on_one_deployment_with_flakiness(docker_pool, forge_todo) -> None:
    ids = resolve_tests(forge_todo, ["failures"])
    assert len(ids) == 3
    report = rerun(docker_pool, forge_todo, ids, "docker", times=2)
    assert report.exit_code == 1 and len(report.attempts) == 2
    counts = report.failure_counts()
    assert counts == {i: (2, 2) for i in ids}, "deterministic failures fail every time"
    comparisons = {t: c for t, _, _, c in report.results()}
    assert comparisons["tests/test_todos.py::test_list_filter_completed"] == "same"


def test_endpoint_request_reaches_the_sandbox_over_loopback(docker_pool, forge_todo) -> None:
    live, _ = docker_pool.acquire(forge_todo, "docker")
    base = live.base_url()
    assert base.startswith("http://127.0.0.1:")
    resp = send(RequestSpec("POST", "/todos", body_kind="json",
                            body='{"title": "from the inspector"}'), base)
    assert resp.error is None and resp.status == 201
    body = json.loads(resp.body)
    assert body["title"] == "from the inspector"
    assert "completed" not in body  # the generated repo's real bug: it says "done"
    container = live.session.container  # type: ignore[attr-defined]
    container.reload()
    assert container.attrs["HostConfig"]["NetworkMode"] == "none"
    assert container.attrs["HostConfig"]["PidsLimit"] == 256
    # the processes' 768 MiB plus every tmpfs (their pages are charged to the same cgroup)
    tmpfs = live.session.tmpfs  # type: ignore[attr-defined]
    assert sum(tmpfs.values()) > 256 + 128
    assert container.attrs["HostConfig"]["Memory"] == (768 + sum(tmpfs.values()) + 65) * 2**20
    assert container.attrs["HostConfig"]["ReadonlyRootfs"] is True


def _cli(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector.cli", *args], capture_output=True,
                          text=True, timeout=900, env={**os.environ, **env})


def test_cli_rerun_of_a_repo_that_never_deploys_exits_2(sample_runs: Path, tmp_path) -> None:
    proc = _cli(["rerun", str(sample_runs / "runs"), "todo-service", "test_health", "--run",
                 RELAY, "--backend", "docker", "--json"],
                GENESIS_INSPECTOR_CACHE=str(tmp_path))
    assert proc.returncode == 2, proc.stderr
    report = json.loads(proc.stdout)
    assert report["deployed"] is False
    assert report["deploy_phase"] == "start"
    assert "process exited with code 1" in report["deploy_failure"]


def test_cli_rerun_failing_test_exit_1_and_passing_exit_0(sample_runs: Path,
                                                          tmp_path) -> None:
    base = ["rerun", str(sample_runs / "runs"), "notes-api", "--run", RELAY,
            "--backend", "docker"]
    failing = _cli([*base, "test_get_note_by_id"], GENESIS_INSPECTOR_CACHE=str(tmp_path))
    assert failing.returncode == 1, failing.stderr
    assert "assert 404 == 200" in failing.stdout and "[same]" in failing.stdout
    passing = _cli([*base, "test_health", "--quiet"], GENESIS_INSPECTOR_CACHE=str(tmp_path))
    assert passing.returncode == 0, passing.stderr
    assert "now:      passed" in passing.stdout


def test_dependency_failure_is_reported_as_not_deployed(docker_pool, sample_runs) -> None:
    target = find_target(sample_runs / "runs", "quote-board", 0, RELAY)
    report = rerun(docker_pool, target, resolve_tests(target, ["failures"]), "docker")
    assert report.exit_code == 2 and report.deploy_phase == "install"
    assert "flask-quotes-toolkit" in report.deploy_failure
    assert docker_pool.get(target.key, "docker") is None, "a failed deployment is not kept"


def test_evaluate_with_the_docker_backend_matches_the_recorded_run(sample_runs: Path,
                                                                   tmp_path: Path) -> None:
    from inspector.model.runs.runformat import load_run

    out = tmp_path / "run"
    proc = _cli(["evaluate", "--tasks", str(sample_runs / "tasks"), "--predictions",
                 str(sample_runs / "predictions" / FORGE), "--out", str(out), "--backend",
                 "docker", "--task", "todo-service", "--task", "unit-converter", "--jobs", "2",
                 "--quiet"], GENESIS_INSPECTOR_CACHE=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    run, _ = load_run(out)
    by_task = {s.task: s for s in run.samples}
    todo = by_task["todo-service"]
    assert (todo.tests.passed, todo.tests.failed) == (9, 3)
    assert todo.deployment.success
    # unit-converter's server never opens its port: same verdict as the recorded run
    conv = by_task["unit-converter"]
    assert not conv.deployment.success and "not open" in conv.deployment.message


def test_image_installs_with_uv_and_pip_judges_what_uv_cannot_install(docker_client,
                                                                       tmp_path: Path) -> None:
    """uv installs first; on failure pip retries in its own log section and its error counts."""
    import threading

    from inspector.services.logs.phase_log import PhaseLog
    from inspector.services.sandbox.images import ensure_sample_image

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "requirements.txt").write_text("genesis-inspector-no-such-dist==1.0\n")
    log = PhaseLog(tmp_path / "install.log")
    result = ensure_sample_image(docker_client, repo, None, log, threading.Event(), 300)
    log.close()
    assert not result.ok and not result.cached
    assert "No matching distribution found for genesis-inspector-no-such-dist" in result.message
    text = log.path.read_text()
    marks = [">>> uv pip install -r requirements.txt", "retrying with pip",
             ">>> pip install -r requirements.txt",
             "ERROR: No matching distribution found for genesis-inspector-no-such-dist"]
    at = [text.find(m) for m in marks]
    assert -1 not in at and at == sorted(at), at


def test_a_suite_with_its_own_pytest_ini_keeps_repo_root_ids(docker_client, tmp_path) -> None:
    """The runner starts in /golden with the task's tests/pytest.ini (rootdir tests/) and its
    tests/conftest.py; ids stay relative to the repo root, and a re-run by id works."""
    from inspector.model import Outcome, Task
    from inspector.services.deploy.backend import Limits, SampleJob
    from inspector.services.deploy.choose import backend_factory
    from inspector.services.deploy.docker_backend import DockerBackend
    from inspector.services.deploy.warm import DeploymentPool, Target
    from inspector.services.evaluate.run import evaluate_sample

    root = tmp_path / "tasks" / "repo" / "static-files"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "pytest.ini").write_text("[pytest]\nmarkers =\n    smoke: smoke\n")
    (root / "tests" / "conftest.py").write_text(
        "import os\nimport pytest\n\n\n@pytest.fixture\ndef base_url():\n"
        "    return os.environ['API_BASE_URL']\n")
    (root / "tests" / "test_api.py").write_text(
        "import requests\n\n\nclass TestApi:\n    def test_root(self, base_url):\n"
        "        assert requests.get(base_url + '/', timeout=5).status_code == 200\n\n"
        "    def test_missing(self, base_url):\n"
        "        assert requests.get(base_url + '/items/1', timeout=5).status_code == 200\n")
    repo = tmp_path / "predictions" / "static-files"
    repo.mkdir(parents=True)
    (repo / "requirements.txt").write_text("")
    (repo / "start.sh").write_text("exec python -m http.server \"$PORT\" --bind 127.0.0.1\n")
    task = Task("static-files", "python", "any", 18093, "", root=root, tests_dir=root / "tests",
                expected_tests=2)
    job = SampleJob("run", task, 0, repo, tmp_path / "out", Limits(startup=20, tests=120))
    recorded = evaluate_sample(DockerBackend(docker_client), job)
    assert recorded.deployment.success, recorded.deployment.message
    assert recorded.tests.rootdir == "tests"
    assert {c.id: c.outcome for c in recorded.tests.cases} == {
        "tests/test_api.py::TestApi::test_root": Outcome.PASSED,
        "tests/test_api.py::TestApi::test_missing": Outcome.FAILED,
    }
    pool = DeploymentPool(backend_factory(False), work_root=tmp_path / "reruns")
    try:
        target = Target("run", task, 0, repo, recorded)
        report = rerun(pool, target, resolve_tests(target, ["failures"]), "docker")
        assert [(t, n.outcome if n else None, c) for t, _, n, c in report.results()] == [
            ("tests/test_api.py::TestApi::test_missing", Outcome.FAILED, "same")]
    finally:
        pool.close()


def test_a_golden_test_reads_the_repos_readme_next_to_its_suite(docker_client,
                                                                tmp_path) -> None:
    """As in a stock run (tests copied into the repo), ``tests/../README.md`` is the generated
    repo's; the repo's Python files and conftest are not beside the suite."""
    from inspector.model import Outcome
    from inspector.services.deploy.backend import Limits, SampleJob
    from inspector.services.deploy.docker_backend import DockerBackend
    from inspector.services.evaluate.run import evaluate_sample

    from .conftest import make_repo

    target = make_repo(tmp_path, "readme-reader", """
        from http.server import BaseHTTPRequestHandler, HTTPServer
        HTTPServer(("127.0.0.1", 18090), BaseHTTPRequestHandler).serve_forever()
    """, test="""
        import os

        HERE = os.path.dirname(os.path.dirname(__file__))

        def test_readme_sections():
            with open(os.path.join(HERE, "README.md"), encoding="utf-8") as fh:
                assert "## Service Information" in fh.read()

        def test_no_code_beside_the_suite():
            assert not os.path.exists(os.path.join(HERE, "conftest.py"))
            assert not os.path.exists(os.path.join(HERE, "server.py"))
    """)
    (target.repo / "README.md").write_text("# Readme reader\n\n## Service Information\n")
    (target.repo / "conftest.py").write_text("raise SystemExit('never loaded')\n")
    job = SampleJob("run", target.task, 0, target.repo, tmp_path / "out",
                    Limits(startup=20, tests=120))
    result = evaluate_sample(DockerBackend(docker_client), job)
    assert {c.id: c.outcome for c in result.tests.cases} == {
        "tests/test_service.py::test_readme_sections": Outcome.PASSED,
        "tests/test_service.py::test_no_code_beside_the_suite": Outcome.PASSED,
    }, result.tests.cases
