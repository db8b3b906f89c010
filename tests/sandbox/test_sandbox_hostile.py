"""Hostile generated repos in the real Docker sandbox (issue 14): results they cannot forge,
a bounded disk, an unprivileged install from the configured index only, a sandbox that ends
soon after its inspector is SIGKILLed."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from inspector.model import Phase
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.runs.runformat import load_run
from inspector.services.deploy.backend import Limits, SampleJob, TestRun
from inspector.services.deploy.choose import backend_factory
from inspector.services.deploy.docker_backend import DockerBackend, DockerSession, SandboxLimits
from inspector.services.deploy.steps import DeployOutcome, deploy
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.logs.phase_log import PhaseLog
from inspector.services.rerun.runner import rerun
from inspector.services.sandbox.cleanup import list_sandboxes
from inspector.services.sandbox.images import LABEL_LAYOUT, LAYOUT, ensure_sample_image

from .conftest import RUN, STARTUP, make_repo

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "fixtures" / "hostile"
FORGE = HOSTILE / "forge"
TASK = "guarded-items"
OURS = f"hostile-{RUN}"  # the run id of this process's sandboxes (their sample keys)


def _task():  # type: ignore[no-untyped-def]
    tasks, _ = load_tasks(FORGE / "tasks")
    return tasks[TASK]


def _deploy(tmp_path: Path, repo: Path, backend: DockerBackend | None = None,
            startup: float = 8) -> tuple[DockerSession, DeployOutcome, dict[Phase, PhaseLog]]:
    job = SampleJob(OURS, _task(), 0, repo.resolve(), tmp_path / "sample",
                    Limits(install=600, startup=startup, tests=60))
    logs = {ph: PhaseLog(tmp_path / "sample" / "logs" / f"{ph.value}.log") for ph in Phase}
    session = (backend or DockerBackend()).open(job)
    return session, deploy(session, logs), logs


def _run(session: DockerSession, logs: dict[Phase, PhaseLog]) -> tuple[TestRun, str]:
    run = session.run_tests(logs[Phase.TESTS])
    logs[Phase.TESTS].close()
    return run, logs[Phase.TESTS].path.read_text()


def _outcomes(run: TestRun) -> dict[str, str]:
    cases, _ = run.cases()
    return {c.id: c.outcome.value for c in cases}


IDS = {"tests/test_items.py::test_health", "tests/test_items.py::test_items_start_empty"}


# -- 1. results a generated repo cannot forge ---------------------------------------------

def test_the_three_forging_repos_never_pass_an_evaluation(docker_client, tmp_path) -> None:
    preds = []
    for name in ("conftest_forge", "rewrite_tests", "replace_report"):
        pred = tmp_path / f"pred-{name}"
        shutil.copytree(FORGE / "repos" / name, pred / TASK)
        preds += ["--predictions", str(pred)]
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "inspector.cli", "evaluate", "--tasks", str(FORGE / "tasks"),
         *preds, "--out", str(out), "--backend", "docker", "--jobs", "2",
         "--startup-timeout", "8", "--quiet"], capture_output=True, text=True, timeout=900,
        env={**os.environ, "GENESIS_INSPECTOR_CACHE": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr
    run, _ = load_run(out)
    by_sample = {s.sample: s for s in run.samples}
    assert sorted(by_sample) == [0, 1, 2]
    for s in run.samples:
        assert not s.passed and s.tests.passed == 0, (s.sample, s.tests)
        assert {c.id for c in s.tests.cases} == IDS
    # conftest_forge: its report hook never ran; the service's 500s are what the tests saw
    forge = by_sample[0]
    assert all(c.outcome.value == "failed" and "assert 500 == 200" in c.message
               for c in forge.tests.cases), forge.tests.cases
    # rewrite_tests never answers; replace_report answers 500 and its fake reports are ignored
    assert not by_sample[1].deployment.success
    assert all(c.outcome.value == "failed" for c in by_sample[2].tests.cases)
    # what was found in the repos and seen in the sandbox is on the samples, verdicts aside
    kinds = {n: {f.kind for f in by_sample[n].tampering or ()} for n in by_sample}
    assert "root_conftest" in kinds[0]
    assert "report_replaced" in kinds[2]  # observed in the sandbox during the run


def test_conftest_forge_is_kept_out_of_the_run_and_its_rerun_fails(docker_client,
                                                                    tmp_path) -> None:
    pool = DeploymentPool(backend_factory(False), work_root=tmp_path / "reruns",
                          limits=Limits(startup=STARTUP, tests=60))
    try:
        target = Target(OURS, _task(), 0, (FORGE / "repos" / "conftest_forge").resolve())
        report = rerun(pool, target, sorted(IDS), "docker", times=2)
        assert report.deployed and report.exit_code == 1
        for _tid, _old, new, _cmp in report.results():
            assert new is not None and new.outcome.value == "failed"
            assert "assert 500 == 200" in new.message
        [attempt] = report.attempts[:1]
        text = attempt.log.read_text()
        assert "rootdir: /golden" in text and "/opt/runner/bin/python" in text
        assert "randomly" not in text, "the repo's pyproject addopts were not read"
    finally:
        pool.close()


def test_the_rewrite_tests_repo_finds_nothing_it_can_rewrite(docker_client,
                                                            tmp_path) -> None:
    # Its start.sh searches / (-xdev) for writable tests/test_*.py: the root is read-only and
    # the writable folders are other (tmpfs) filesystems, so it rewrites nothing at all.
    session, dep, logs = _deploy(tmp_path, FORGE / "repos" / "rewrite_tests")
    try:
        assert not dep.deployed and "not open" in dep.failed.message  # type: ignore[union-attr]
        run, text = _run(session, logs)  # the stock harness runs the tests anyway
        assert _outcomes(run) == dict.fromkeys(IDS, "failed"), text
        assert "test_everything" not in text
        assert run.tampering == []
    finally:
        session.close()


REWRITER = """
    import glob, time
    from http.server import BaseHTTPRequestHandler, HTTPServer
    for path in glob.glob("tests/test_*.py"):
        with open(path, "w") as fh:
            fh.write("def test_everything():\\n    assert True\\n")
    HTTPServer(("127.0.0.1", 18090), BaseHTTPRequestHandler).serve_forever()
"""


def test_a_service_rewriting_its_tests_changes_nothing_and_is_seen(docker_client,
                                                                   tmp_path) -> None:
    target = make_repo(tmp_path, "rewriter", REWRITER)
    job = SampleJob(OURS, target.task, 0, target.repo, tmp_path / "sample",
                    Limits(startup=STARTUP, tests=60))
    logs = {ph: PhaseLog(tmp_path / "sample" / "logs" / f"{ph.value}.log") for ph in Phase}
    session = DockerBackend().open(job)
    try:
        assert deploy(session, logs).deployed
        assert session.container is not None
        code, out = session.container.exec_run(["/usr/bin/cat", "/repo/tests/test_service.py"])
        assert "def test_everything" in out.decode(), "the repo's copy was rewritten"
        run, text = _run(session, logs)
        # the golden test ran (and failed: the service answers 501 to GET)
        assert _outcomes(run) == {"tests/test_service.py::test_health": "failed"}, text
        assert "test_everything" not in text
        [finding] = run.tampering
        assert finding.kind == "tests_rewritten" and finding.deliberate
        # the staged suite itself is untouched, root-owned and read-only
        code, out = session.container.exec_run(
            ["/usr/bin/stat", "-c", "%U %a", "/golden/tests", "/golden/tests/test_service.py"])
        assert out.decode().split("\n")[:2] == ["root 555", "root 444"]
    finally:
        session.close()


def test_a_service_replacing_the_report_changes_nothing_and_is_seen(docker_client,
                                                                    tmp_path) -> None:
    session, dep, logs = _deploy(tmp_path, FORGE / "repos" / "replace_report", startup=STARTUP)
    try:
        assert dep.deployed, dep.failed
        time.sleep(1.5)  # the forger rewrites every report it can find twice a second
        run, text = _run(session, logs)
        assert _outcomes(run) == dict.fromkeys(IDS, "failed"), text
        assert run.exit_code == 1
        [finding] = run.tampering
        assert finding.kind == "report_replaced" and finding.deliberate
        assert "/tmp/gi-junit.xml" in finding.detail
        # the service cannot even look at the runner's report folder
        code, out = session.container.exec_run(["/usr/bin/ls", "/report"],  # type: ignore
                                               user="1000:1000")
        assert code != 0 and "Permission denied" in out.decode()
        # a second run on the warm sandbox: still failing, the finding not repeated
        run2, _ = _run(session, {**logs, Phase.TESTS: PhaseLog(tmp_path / "tests-2.log")})
        assert _outcomes(run2) == dict.fromkeys(IDS, "failed") and run2.tampering == []
    finally:
        session.close()


def test_plugins_installed_by_the_repo_never_load_in_the_runner(docker_client,
                                                                tmp_path) -> None:
    target = make_repo(tmp_path, "plugin-carrier", """
        from http.server import BaseHTTPRequestHandler, HTTPServer
        class H(BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.end_headers()
        HTTPServer(("127.0.0.1", 18090), H).serve_forever()
    """)
    # a pytest11 plugin (pytest-randomly) and a .pth file in the repo's own environment
    (target.repo / "requirements.txt").write_text("pytest-randomly\n")
    job = SampleJob(OURS, target.task, 0, target.repo, tmp_path / "sample",
                    Limits(startup=STARTUP, tests=60))
    logs = {ph: PhaseLog(tmp_path / "sample" / "logs" / f"{ph.value}.log") for ph in Phase}
    session = DockerBackend().open(job)
    try:
        dep = deploy(session, logs)
        assert dep.deployed, dep.failed
        assert session.container is not None
        code, out = session.container.exec_run(
            ["/bin/bash", "-c", "ls /opt/venv/lib/python3*/site-packages | grep -c randomly; "
             "/opt/venv/bin/python -m pytest --version 2>&1 | head -1"], user="1000:1000")
        assert int(out.decode().split()[0]) >= 1, "installed in the repo's environment"
        run, text = _run(session, logs)
        assert _outcomes(run) == {"tests/test_service.py::test_health": "passed"}, text
        assert "randomly" not in text.lower(), text
    finally:
        session.close()


# -- 2. bounded disk ----------------------------------------------------------------------

def test_an_endless_file_hits_the_disk_limit_not_the_host(docker_client, tmp_path) -> None:
    session, dep, logs = _deploy(tmp_path, HOSTILE / "disk" / "repos" / "endless_file",
                                 startup=20)
    try:
        assert session.container is not None
        [info] = docker_client.api.containers(all=True, size=True,
                                              filters={"id": session.container.id})
        assert not dep.deployed
        msg = dep.failed.message  # type: ignore[union-attr]
        assert "exited with code 1" in msg and "disk limit reached" in msg, msg
        assert "/repo" in msg and "/tmp" in msg
        start_log = logs[Phase.START].path.read_text()
        assert "fill.bin: stopped after 256 MiB" in start_log  # the default disk_mb
        assert "/tmp/fill.bin: stopped after 127 MiB" in start_log  # /tmp 128 MiB, less inodes
        # the ~384 MiB written never reached the host's Docker storage: the container's
        # writable layer (Docker's own count of what it changed on disk) stays empty
        assert (info.get("SizeRw") or 0) < 2**20, info.get("SizeRw")
        assert session.container.attrs["HostConfig"]["ReadonlyRootfs"] is True
    finally:
        session.close()


def test_a_service_killed_for_memory_names_the_memory_limit(docker_client, tmp_path) -> None:
    # a small limit keeps it quick: 48 MiB for the processes, small tmpfs (which count too)
    limits = SandboxLimits(memory_mb=48, disk_mb=16, tmp_mb=16)
    session, dep, logs = _deploy(tmp_path, HOSTILE / "memory" / "repos" / "memory_hog",
                                 DockerBackend(limits=limits), startup=STARTUP)
    try:
        assert dep.deployed, dep.failed
        run, text = _run(session, logs)
        # GET /items made the service allocate past the limit: the kernel killed it, the
        # tests saw a refused connection, and the phase names the limit that was hit
        assert _outcomes(run) == {"tests/test_items.py::test_health": "passed",
                                  "tests/test_items.py::test_items_start_empty": "failed"}, text
        msg = run.outcome.message
        assert "memory limit reached (48 MiB for its processes)" in msg, msg
        assert "killed 1 process for memory" in msg, msg
        assert "sandbox memory limit reached" in text
    finally:
        session.close()


# -- 3. the install step ------------------------------------------------------------------

def test_a_vcs_requirement_is_refused_before_anything_is_installed(docker_client,
                                                                    tmp_path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "requirements.txt").write_text("flask==3.0.3\n# the app's fork\n"
                                           "git+https://github.com/pallets/werkzeug\n")
    log = PhaseLog(tmp_path / "install.log")
    t0 = time.monotonic()
    result = ensure_sample_image(docker_client, repo, None, log, threading.Event(), 300)
    log.close()
    assert not result.ok and result.exit_code == 1
    assert result.message.startswith("requirements.txt line 3: "
                                     "`git+https://github.com/pallets/werkzeug` is a VCS link")
    assert "--allow-any-package-source" in result.message
    assert time.monotonic() - t0 < 5, "refused before any container ran"
    assert ">>>" not in log.path.read_text()


def test_the_cli_refuses_another_index_and_the_opt_out_installs_it_unprivileged(
        docker_client, tmp_path) -> None:
    target = make_repo(tmp_path, "own-index", """
        import six
        from http.server import BaseHTTPRequestHandler, HTTPServer
        class H(BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.end_headers()
        HTTPServer(("127.0.0.1", 18090), H).serve_forever()
    """)
    # a comment unique to this test run: its own image is built (and removed at the end)
    (target.repo / "requirements.txt").write_text("--index-url https://pypi.org/simple\n"
                                                  "six==1.16.0\n"
                                                  f"# {tmp_path.name} {time.time_ns()}\n")
    task_root = tmp_path / "tasks" / "repo" / "own-index"
    task_root.mkdir(parents=True)
    (task_root / "README.md").write_text("# Own index\n\nPort: 18090\n")
    shutil.copytree(target.task.tests_dir, task_root / "tests")  # type: ignore[arg-type]
    pred = tmp_path / "pred"
    shutil.copytree(target.repo, pred / "own-index")

    def evaluate(*extra: str) -> tuple[subprocess.CompletedProcess[str], object]:
        out = tmp_path / f"run{len(extra)}"
        proc = subprocess.run(
            [sys.executable, "-m", "inspector.cli", "evaluate", "--tasks", str(tmp_path /
             "tasks"), "--predictions", str(pred), "--out", str(out), "--backend", "docker",
             "--quiet", *extra], capture_output=True, text=True, timeout=900,
            env={**os.environ, "GENESIS_INSPECTOR_CACHE": str(tmp_path / "cache")})
        assert proc.returncode == 0, proc.stderr
        run, _ = load_run(out)
        return proc, run.samples[0]

    _, refused = evaluate()
    assert refused.deployment.failed_phase is Phase.INSTALL  # type: ignore[attr-defined]
    assert refused.deployment.message.startswith(  # type: ignore[attr-defined]
        "requirements.txt line 1: `--index-url https://pypi.org/simple` (option --index-url)")
    _, allowed = evaluate("--allow-any-package-source")
    assert allowed.passed, allowed.deployment  # type: ignore[attr-defined]
    install_log = allowed.logs[Phase.INSTALL].read_text()  # type: ignore[attr-defined]
    # the untrusted install ran as the sandbox user, with no capabilities, no new privileges
    assert "installing as uid 1000 gid 1000; CapEff: 0000000000000000 NoNewPrivs: 1" \
        in install_log, install_log
    [tag] = re.findall(r"committed (genesis-inspector/sample:\w+)", install_log)
    try:
        assert docker_client.images.get(tag).labels[LABEL_LAYOUT] == LAYOUT
        out = docker_client.containers.run(
            tag, ["/bin/bash", "-c", "stat -c '%U' /opt/runner /opt/venv; "
                  "touch /opt/runner/x 2>&1 || true"], user="1000:1000", remove=True,
            network_mode="none").decode()
        assert out.splitlines()[:2] == ["root", "sandbox"]
        assert "Permission denied" in out, "the install user cannot write the runner's venv"
    finally:
        docker_client.images.remove(tag, force=True)


# -- 4. a sandbox ends soon after its inspector is SIGKILLed ------------------------------

HOLDER = """
import sys
from pathlib import Path
from inspector.model.benchmark.tasks import load_tasks
from inspector.services.deploy.choose import backend_factory
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.deploy.backend import Limits
from inspector.services.deploy.docker_backend import SandboxLimits
tasks, _ = load_tasks(Path(sys.argv[1]) / "tasks")
pool = DeploymentPool(backend_factory(False, SandboxLimits(lease=float(sys.argv[3]))),
                      work_root=Path(sys.argv[4]), limits=Limits(startup=60))
target = Target(sys.argv[5], tasks["guarded-items"], 0, Path(sys.argv[2]))
live, _ = pool.acquire(target, "docker")
print(live.container_id if live.deployed else "not deployed", flush=True)
import time
time.sleep(600)
"""


def test_a_killed_inspectors_sandbox_is_gone_within_its_lease(docker_client,
                                                              tmp_path) -> None:
    lease = 6.0
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(HOLDER), str(FORGE),
         str(FORGE / "repos" / "conftest_forge"), str(lease), str(tmp_path), f"holder-{RUN}"],
        stdout=subprocess.PIPE, text=True,
        env={**os.environ, "GENESIS_INSPECTOR_CACHE": str(tmp_path)})
    assert proc.stdout is not None
    cid = proc.stdout.readline().strip()
    try:
        assert len(cid) == 64, cid
        time.sleep(lease + 2)  # while the holder lives, its heartbeat keeps the sandbox up
        [info] = [c for c in list_sandboxes(docker_client) if c.id == cid]
        assert info.status == "running"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    killed = time.monotonic()
    while time.monotonic() - killed < lease + 20:
        if not [c for c in list_sandboxes(docker_client) if c.id == cid]:
            break
        time.sleep(0.5)
    gone_after = time.monotonic() - killed
    assert not [c for c in list_sandboxes(docker_client) if c.id == cid], "still there"
    assert gone_after < lease + 8, gone_after


@pytest.fixture(autouse=True)
def _no_leftovers(docker_client):  # type: ignore[no-untyped-def]
    """Every test here removes the sandboxes it started (service and install containers)."""
    before = {c.id for c in list_sandboxes(docker_client)}
    yield
    time.sleep(0.5)
    left = [c for c in list_sandboxes(docker_client)
            if c.id not in before and c.sample.startswith((f"{OURS}/", f"holder-{RUN}/"))]
    assert not left, left
