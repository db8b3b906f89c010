"""Causal re-runs in the real Docker sandbox, on copies of the bundled real samples.

Each remedy is tried on a fresh sandbox; the recorded run (result.json, logs, the repo) stays
byte for byte the same, and no container or network is left behind.
"""

from __future__ import annotations

import hashlib
import shutil
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from inspector.model.failures.triage import (
    ADD_TASK_FILE,
    DEPLOY_FAILED,
    INSTALL_REPO_PACKAGE,
    INSTALL_TEST_PACKAGE,
    RUN_ALONE,
    RUN_AS_SCRIPT,
    TEST,
    FailureItem,
    Remedy,
    TestSuggestion,
)
from inspector.services.deploy.backend import Limits
from inspector.services.deploy.choose import backend_factory, find_target
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.sandbox.engine import (
    LABEL,
    LABEL_KIND,
    LABEL_OWNER,
    LABEL_SAMPLE,
    owner_label,
)
from inspector.services.triage.remedies import confirm, confirm_suggestions

from .conftest import make_repo

ATLAS = "repo_readme_1125_atlas_m2-large_Python"
RELAY = "repo_readme_1125_relay_open_coder-7b_Python"


@pytest.fixture(scope="module")
def pool(docker_client, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[DeploymentPool]:  # type: ignore[no-untyped-def]
    """The pool lending its Docker backend (the StructuredDataConvertor suite takes a minute
    on a busy machine: the test limit is roomy)."""
    p = DeploymentPool(backend_factory(False), work_root=tmp_path_factory.mktemp("reruns"),
                       limits=Limits(install=600, startup=15, tests=300))
    yield p
    p.close()


def _copy(sample_runs: Path, tmp_path: Path, run: str) -> Path:
    """The run, its predictions and the tasks copied with their layout (relative paths hold)."""
    root = tmp_path / "copy"
    shutil.copytree(sample_runs / "runs" / run, root / "runs" / run)
    shutil.copytree(sample_runs / "predictions" / run, root / "predictions" / run)
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    return root


def _sample(sample_runs: Path, tmp_path: Path, run: str, task: str) -> tuple[Target, Path]:
    root = _copy(sample_runs, tmp_path, run)
    return find_target(root / "runs", task, 0, run), root / "runs" / run


def _digests(root: Path) -> dict[str, str]:
    """Every file under ``root`` (the remedy folders aside) and its SHA-256."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and "remedies" not in p.parts}


def _left_behind(client, key: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Sandbox containers of the sample, install containers, sandbox networks, all of this
    process (another program may use the engine, even on the same sample): none may outlive a
    causal re-run."""
    mine = f"{LABEL_OWNER}={owner_label()}"
    found = [f"container {c.name}" for c in client.containers.list(
        all=True, filters={"label": [f"{LABEL_SAMPLE}={key}", mine]})]
    found += [f"install container {c.name}" for c in client.containers.list(
        all=True, filters={"label": [f"{LABEL_KIND}=install", mine]})]
    found += [f"network {n.name}" for n in client.networks.list(filters={"label": [LABEL, mine]})]
    return found


def test_babel_added_to_the_requirements_makes_the_service_start(
        docker_client, pool: DeploymentPool, sample_runs: Path,
        tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """relay's Multilingual imports babel, which its requirements omit: it never started."""
    target, run_dir = _sample(sample_runs, tmp_path, RELAY, "Multilingual")
    assert target.recorded is not None and not target.recorded.deployment.success
    before = _digests(run_dir.parents[1])
    remedy = Remedy(INSTALL_REPO_PACKAGE, "Babel")
    item = FailureItem(target.key, None, DEPLOY_FAILED, "process exited with code 1")
    test_item = FailureItem(target.key, "tests/test_languages.py::test_languages_format", TEST)
    suggestions = [
        TestSuggestion(item, "dependency", 0.9, "missing-import", "utils.py:4 imports babel",
                       remedy=remedy),
        TestSuggestion(test_item, "dependency", 0.9, "missing-import", "follows the root",
                       root=item.key, remedy=remedy),
        TestSuggestion(test_item, None, 0.2, "none", "no remedy"),
        TestSuggestion(test_item, None, 0.2, "script", "a script", remedy=Remedy(
            RUN_AS_SCRIPT, "tests/test_languages.py")),
    ]
    lines: list[tuple[str, str]] = []
    t0 = time.monotonic()
    out = confirm_suggestions(suggestions, {target.key: target}, pool, "docker",
                              on_line=lambda s, t: lines.append((s, t)))
    seconds = time.monotonic() - t0
    c = out[0].confirmation
    assert c is not None, "the remedy was tried"
    assert out[1].confirmation is c, "suggestions sharing a remedy share one re-run"
    assert out[2] is suggestions[2] and out[3] is suggestions[3]
    assert suggestions[0].confirmation is None, "the suggestions given are not changed"
    assert c.supports is True
    assert c.outcome == ("with Babel added to requirements.txt, the service starts; 29 of 33 "
                         "tests pass")
    assert (c.passed, c.failed, c.collected, c.backend) == (29, 4, 33, "docker")
    assert c.remedy == "install Babel with the repo's requirements"
    assert c.log is not None and c.log.startswith("remedies/Multilingual/0/")
    log = run_dir / c.log
    assert "4 failed, 29 passed" in log.read_text()
    folder = log.parents[1]
    assert "Babel appended to the copy's requirements.txt" in (folder / "remedy.log").read_text()
    assert len(list(folder.parent.iterdir())) == 1, "one re-run for both suggestions"
    assert any("sandbox image genesis-inspector/sample:" in t for s, t in lines), \
        "install lines streamed"
    assert any("29 passed" in t for s, t in lines), "test lines streamed"
    assert _digests(run_dir.parents[1]) == before, "the recorded run and the repo are unchanged"
    assert not _left_behind(docker_client, target.key)
    print(f"INSTALL_REPO_PACKAGE Babel: {seconds:.1f}s")


def test_pandas_for_the_tests_makes_the_four_files_collect(
        docker_client, pool: DeploymentPool, sample_runs: Path,
        tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """atlas' StructuredDataConvertor: four test files import pandas, which nothing installs."""
    target, run_dir = _sample(sample_runs, tmp_path, ATLAS, "StructuredDataConvertor")
    assert target.recorded is not None and target.recorded.tests.collection_errors == 4
    result = run_dir / "samples" / "StructuredDataConvertor" / "0" / "result.json"
    recorded = result.read_bytes()
    t0 = time.monotonic()
    c = confirm(Remedy(INSTALL_TEST_PACKAGE, "pandas"), target, pool, "docker")
    seconds = time.monotonic() - t0
    assert c.supports is True, c.outcome
    lead = ("with pandas installed for the tests, the 4 test files that did not collect now "
            "collect: 33 tests, ")
    assert c.outcome == lead + f"{c.passed} pass"
    assert c.collected == 33 and c.passed + c.failed == 33
    # the service's real misses (a CORS header, a batch edge case); timing tests may add one
    assert c.passed >= 28, c.outcome
    assert result.read_bytes() == recorded
    text = (run_dir / c.log).read_text()  # type: ignore[operator]
    assert "tests/test_convert.py" in text and "tests/test_health.py" not in text, \
        "only the files that did not collect are run"
    # pandas went into the test runner's environment, not into the repo's
    install = (run_dir / c.log).parent / "install.log"  # type: ignore[operator]
    image = next(w for line in install.read_text().splitlines() for w in line.split()
                 if w.startswith("genesis-inspector/sample:"))
    probe = "import importlib.util as u; print(u.find_spec('pandas') is not None)"
    seen = {venv: docker_client.containers.run(
        image, [f"/opt/{venv}/bin/python", "-c", probe], network_mode="none", remove=True,
        labels={LABEL: "1"}).decode().strip() for venv in ("runner", "venv")}
    assert seen == {"runner": "True", "venv": "False"}
    assert not _left_behind(docker_client, target.key)
    print(f"INSTALL_TEST_PACKAGE pandas: {seconds:.1f}s")


def test_a_polluted_test_passes_alone_and_the_warm_sandbox_is_left_alone(
        docker_client, pool: DeploymentPool, sample_runs: Path,
        tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """atlas' UserManagement_2: registering the test user fails with 409 after an earlier test
    registered it; alone, on a fresh sandbox, it passes."""
    target, run_dir = _sample(sample_runs, tmp_path, ATLAS, "UserManagement_2")
    warm, _ = pool.acquire(target, "docker")
    assert warm.deployed
    try:
        t0 = time.monotonic()
        c = confirm(Remedy(RUN_ALONE, "test_user_registration_success"), target, pool,
                    "docker")
        seconds = time.monotonic() - t0
        assert c.supports is True
        assert c.outcome == ("run alone on a fresh deployment, test_user_registration_success "
                             "passes (it failed in the recorded run)")
        assert (c.passed, c.failed, c.collected) == (1, 0, 1)
        assert pool.get(target.key, "docker") is warm and warm.runs == 0, \
            "the warm sandbox is neither reused nor replaced"
        warm.session.container.reload()  # type: ignore[attr-defined]
        assert warm.session.container.status == "running"  # type: ignore[attr-defined]
        ids = {x.id for x in docker_client.containers.list(all=True, filters={"label": [
            f"{LABEL_SAMPLE}={target.key}", f"{LABEL_OWNER}={owner_label()}"]})}
        assert ids == {warm.container_id}, "only the warm sandbox is left"
    finally:
        pool.stop(target.key, "docker")
    assert not _left_behind(docker_client, target.key)
    print(f"RUN_ALONE: {seconds:.1f}s")


def test_the_tasks_readme_where_the_suite_reads_it(
        docker_client, pool: DeploymentPool, sample_runs: Path,
        tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """relay's synapse has no README.md, which the suite reads as tests/../README.md: with the
    task's, the file is found; three tests then fail on the task README's own content."""
    target, run_dir = _sample(sample_runs, tmp_path, RELAY, "synapse")
    before = _digests(run_dir.parents[1])
    c = confirm(Remedy(ADD_TASK_FILE, "README.md"), target, pool, "docker")
    assert c.supports is True
    assert c.outcome == ("with the task's README.md added, 2 of 5 tests pass (2 of the 5 that "
                         "failed in the recorded run now pass; 3 now fail differently)")
    assert (c.passed, c.failed, c.collected) == (2, 3, 5)
    assert "README.md must exist" not in (run_dir / c.log).read_text()  # type: ignore[operator]
    assert _digests(run_dir.parents[1]) == before
    assert not (target.repo / "README.md").exists(), "the repo itself is never changed"
    assert not _left_behind(docker_client, target.key)


def test_cancelling_tears_the_sandbox_down(docker_client, pool: DeploymentPool,
                                           sample_runs: Path,
                                           tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target, run_dir = _sample(sample_runs, tmp_path, ATLAS, "StructuredDataConvertor")
    cancel = threading.Event()
    when: list[float] = []

    def on_line(stream: str, text: str) -> None:
        if " PASSED" in text and not cancel.is_set():  # the tests are running
            when.append(time.monotonic())
            cancel.set()

    c = confirm(Remedy(INSTALL_TEST_PACKAGE, "pandas"), target, pool, "docker",
                on_line=on_line, cancel=cancel)
    assert when, "the tests started"
    assert time.monotonic() - when[0] < 30, "the re-run stops soon after the cancel"
    assert c.supports is None
    assert c.outcome == ("with pandas installed for the tests: the re-run was cancelled before "
                         "it finished; nothing to compare")
    assert not _left_behind(docker_client, target.key)


def test_a_root_conftest_of_the_task_is_staged_with_the_suite(
        docker_client, pool: DeploymentPool, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A task whose tests need its root conftest.py (the stock harness copies tests/ only):
    staged beside the golden suite, the fixture is found; the repo's own conftest never is."""
    target = make_repo(tmp_path, "conftest-task", """
        from http.server import BaseHTTPRequestHandler, HTTPServer

        class H(BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"ok")

        HTTPServer(("127.0.0.1", 18093), H).serve_forever()
    """, test="""
        import urllib.request

        def test_health(service_url):
            assert urllib.request.urlopen(service_url + "/health", timeout=5).status == 200
    """, port=18093)
    task_root = target.task.tests_dir.parent  # type: ignore[union-attr]
    (task_root / "conftest.py").write_text(
        "import pytest\n\n@pytest.fixture\ndef service_url():\n"
        "    return 'http://127.0.0.1:18093'\n")
    target = replace(target, task=replace(target.task, root=task_root))
    c = confirm(Remedy(ADD_TASK_FILE, "conftest.py"), target, pool, "docker")
    assert (c.passed, c.failed, c.collected) == (1, 0, 1), c.outcome
    assert c.outcome == ("with the task's conftest.py added, 1 of 1 test passes; none of them "
                         "failed in the recorded run")
    assert c.supports is None, "nothing was recorded to compare with"
    assert not (target.task.tests_dir / "conftest.py").exists(), "the task is never changed"  # type: ignore[operator]
    assert not _left_behind(docker_client, target.key)


def test_a_service_loading_the_ca_bundle_at_start_starts(
        docker_client, pool: DeploymentPool, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """What stopped Multilingual even with babel (googletrans makes an httpx client at import):
    the sandbox's SSL_CERT_FILE / REQUESTS_CA_BUNDLE name a loadable bundle, not the install
    containers' bind mount (an empty file in the sandbox)."""
    target = make_repo(tmp_path, "ca-bundle", """
        import os, ssl
        from http.server import BaseHTTPRequestHandler, HTTPServer

        for var in ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"):
            ssl.create_default_context().load_verify_locations(cafile=os.environ[var])

        class H(BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.end_headers()

        HTTPServer(("127.0.0.1", 18094), H).serve_forever()
    """, port=18094)
    live, _ = pool.acquire(target, "docker")
    try:
        assert live.deployed, (live.workdir / "logs" / "start.log").read_text()
    finally:
        pool.stop(target.key, "docker")
    assert not _left_behind(docker_client, target.key)
