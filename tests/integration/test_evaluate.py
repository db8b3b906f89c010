"""`inspector evaluate` for real: virtualenvs, start.sh process groups, pytest, HTTP on loopback.

The bundled sample_runs were produced by this harness; evaluating the same predictions again
must reproduce every sample's verdict and every test's outcome.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest

from inspector.model import Phase, PhaseStatus, discover_runs
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.runs.runformat import load_run
from inspector.services.deploy.backend import Limits, SampleJob
from inspector.services.deploy.local import LocalBackend
from inspector.services.evaluate.run import (
    EvaluationPlan,
    Evaluator,
    evaluate_sample,
    infrastructure_failed,
)
from inspector.services.host.ports import port_open
from inspector.services.host.venvs import VenvCache

pytestmark = pytest.mark.slow

RUNS = ("repo_readme_1118_forge_m1-large_Python", "repo_readme_1119_relay_open_coder-7b_Python")


def _fingerprint(run_dir: Path) -> dict[str, object]:
    run, issues = load_run(run_dir)
    assert not [i for i in issues if i.severity == "error"], issues
    out: dict[str, object] = {}
    for s in run.samples:
        out[s.sample_id] = {
            "deployed": s.deployment.success,
            "lenient": s.deployment.lenient_success,
            "failed_phase": s.deployment.failed_phase,
            "tests": {c.id: c.outcome.value for c in s.tests.cases},
            "collection_errors": s.tests.collection_errors,
            "ac": (s.api_coverage.implemented_apis, s.api_coverage.lenient_implemented_apis)
            if s.api_coverage else None,
            "digest": s.repo_digest,
        }
    return out


@pytest.fixture(scope="module")
def fresh_runs(tmp_path_factory: pytest.TempPathFactory, sample_runs: Path,
               venv_cache: Path) -> dict[str, Path]:
    """Both bundled runs evaluated again from scratch, two jobs at a time."""
    out = tmp_path_factory.mktemp("fresh")
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache))
    result = {}
    for name in RUNS:
        plan = EvaluationPlan(
            tasks_root=sample_runs / "tasks", predictions=[sample_runs / "predictions" / name],
            out=out / name, jobs=2, repogenesis_out=out / f"rg-{name}")
        Evaluator(plan, backend).run()
        result[name] = out / name
    return result


@pytest.mark.parametrize("name", RUNS)
def test_evaluate_reproduces_the_bundled_runs(fresh_runs: dict[str, Path], sample_runs: Path,
                                              name: str) -> None:
    assert _fingerprint(fresh_runs[name]) == _fingerprint(sample_runs / "runs" / name)


def test_fresh_run_also_writes_a_repogenesis_report_that_loader_one_reads(
        fresh_runs: dict[str, Path]) -> None:
    for name in RUNS:
        rg_dir = fresh_runs[name].parent / f"rg-{name}"
        found = discover_runs(rg_dir)
        assert len(found.runs) == 1 and not found.errors
        report = json.loads((fresh_runs[name] / "report.json").read_text())
        assert report["summary"]["total_repos"] == 6
        assert {r["repo_name"] for r in report["results"]} == set(
            found.runs[0].task_names)


def _interval(result_json: Path) -> tuple[datetime, datetime]:
    doc = json.loads(result_json.read_text())
    phases = [p for p in doc["deployment"]["phases"] if p["started_at"]]
    start = min(datetime.fromisoformat(p["started_at"]) for p in phases)
    return start, datetime.fromisoformat(doc["finished_at"])


def test_services_sharing_a_port_never_ran_at_once(fresh_runs: dict[str, Path]) -> None:
    """todo-service and inventory-api both want port 18080 and ran with --jobs 2."""
    for name in RUNS:
        a = _interval(fresh_runs[name] / "samples" / "todo-service" / "0" / "result.json")
        b = _interval(fresh_runs[name] / "samples" / "inventory-api" / "0" / "result.json")
        assert a[1] <= b[0] or b[1] <= a[0], f"overlap in {name}: {a} {b}"


def test_no_service_is_left_running(fresh_runs: dict[str, Path]) -> None:
    tasks, _ = load_tasks(Path(__file__).resolve().parents[2] / "sample_runs" / "tasks")
    ports = {t.port for t in tasks.values() if t.port} | {8000}
    assert not [p for p in ports if port_open(p)]


def test_each_failure_is_recorded_with_its_real_cause(fresh_runs: dict[str, Path]) -> None:
    forge, relay = (load_run(fresh_runs[n])[0] for n in RUNS)

    def sample(run, task):  # type: ignore[no-untyped-def]
        return next(s for s in run.samples if s.task == task)

    conv = sample(forge, "unit-converter")  # start.sh forgot --port: uvicorn on 8000
    assert conv.deployment.failed_phase is Phase.HEALTH
    assert conv.deployment.success is False and conv.deployment.lenient_success is True
    url = sample(relay, "url-shortener")  # Flask 2.0.3 + Werkzeug 3
    assert url.deployment.failed_phase is Phase.START
    assert "url_quote" in url.logs[Phase.START].read_text()
    quote = sample(relay, "quote-board")  # hallucinated package
    assert quote.deployment.failed_phase is Phase.INSTALL
    assert "flask-quotes-toolkit" in quote.deployment.message
    inv = sample(relay, "inventory-api")  # lazy `import yaml` without PyYAML
    assert inv.deployment.success and not inv.passed
    assert "No module named 'yaml'" in inv.logs[Phase.START].read_text()
    todo = sample(forge, "todo-service")
    failing = {c.id for c in todo.failing_tests}
    assert "tests/test_todos.py::test_create_defaults" in failing
    case = next(c for c in todo.failing_tests if c.id.endswith("test_create_defaults"))
    assert "KeyError: 'completed'" in case.message and case.file == "tests/test_todos.py"
    # every log line carries a timestamp
    for line in todo.logs[Phase.TESTS].read_text().splitlines():
        datetime.fromisoformat(line.split("\t", 1)[0])


def _write_repo(root: Path, start_sh: str, files: dict[str, str] | None = None) -> Path:
    root.mkdir(parents=True)
    (root / "start.sh").write_text(start_sh)
    (root / "requirements.txt").write_text("")
    for name, text in (files or {}).items():
        (root / name).write_text(text)
    return root


def _task(tmp_path: Path, port: int):  # type: ignore[no-untyped-def]
    task_root = tmp_path / "tasks" / "repo" / "probe"
    (task_root / "tests").mkdir(parents=True)
    (task_root / "README.md").write_text(f"# probe\n\nPort: {port}\n\n| GET | /health | ok |\n")
    (task_root / "tests" / "test_probe.py").write_text(
        "import os, urllib.request\n"
        "def test_health():\n"
        "    url = os.environ['API_BASE_URL'] + '/health'\n"
        "    assert urllib.request.urlopen(url, timeout=5).status == 200\n")
    tasks, _ = load_tasks(tmp_path / "tasks")
    return tasks["probe"]


CHILD = """
import os, time
open("child.pid", "w").write(str(os.getpid()))
time.sleep(600)
"""

SERVER = """
import http.server, os, subprocess, sys
if len(sys.argv) > 1:  # spawn a grandchild that would outlive a plain kill of the parent
    subprocess.Popen([sys.executable, "child.py"])
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")
http.server.HTTPServer(("127.0.0.1", int(os.environ["PORT"])), H).serve_forever()
"""


def test_whole_process_group_is_killed(tmp_path: Path, venv_cache: Path) -> None:
    """A service that forks a long-lived child: after the sample, neither is alive."""
    task = _task(tmp_path, 18090)
    repo = _write_repo(tmp_path / "repo", "python server.py spawn &\nwait\n",
                       {"server.py": SERVER, "child.py": CHILD})
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache),
                           work_root=tmp_path)
    job = SampleJob("r", task, 0, repo, tmp_path / "out", Limits(startup=10))
    # keep the session to see its processes: wrap open
    session_holder = {}
    orig_open = backend.open

    def spy(j):  # type: ignore[no-untyped-def]
        session_holder["s"] = orig_open(j)
        return session_holder["s"]

    backend.open = spy  # type: ignore[method-assign]
    pid_seen = {}

    def watch() -> None:
        # the child's own pid is its PID namespace's: find it by its command line instead
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and "pid" not in pid_seen:
            s = session_holder.get("s")
            if s is not None and (s.workdir / "child.pid").is_file():
                service = s.service
                for pid in service.pids() if service is not None else ():
                    with contextlib.suppress(OSError):
                        if Path(f"/proc/{pid}/cmdline").read_bytes().endswith(b"child.py\0"):
                            pid_seen["pid"] = pid
            time.sleep(0.05)

    t = threading.Thread(target=watch)
    t.start()
    result = evaluate_sample(backend, job)
    t.join()
    assert result.passed, result.deployment
    assert "pid" in pid_seen
    assert not _running(pid_seen["pid"])
    assert not port_open(18090)


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan that exited may wait a moment for init to reap it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat[stat.rfind(")") + 2] != "Z"


def test_a_group_whose_processes_all_exited_is_not_waited_for() -> None:
    """Zombies awaiting reaping count as stopped: teardown does not wait for init."""
    from inspector.services.host.proctree import group_alive as _group_alive

    proc = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        assert _group_alive(proc.pid)
        os.kill(proc.pid, 9)
        deadline = time.monotonic() + 5
        while _running(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        os.killpg(proc.pid, 0)  # the group still exists: its leader is a zombie, not reaped
        assert not _group_alive(proc.pid)
    finally:
        proc.wait()


def test_venvs_are_built_once_per_requirements(tmp_path: Path) -> None:
    """Two tasks with the same test requirements, two samples each: one service venv and one
    test-runner venv are built, every other sample reuses both, and tests run fine."""
    for name, port in (("one", 18093), ("two", 18094)):
        root = tmp_path / "tasks" / "repo" / name
        (root / "tests").mkdir(parents=True)
        (root / "README.md").write_text(f"# {name}\n\nPort: {port}\n\n| GET | /health | ok |\n")
        (root / "tests" / "test_probe.py").write_text(
            "import os, urllib.request\n"
            "def test_health():\n"
            "    url = os.environ['API_BASE_URL'] + '/health'\n"
            "    assert urllib.request.urlopen(url, timeout=5).status == 200\n")
        for n in (0, 1):
            _write_repo(tmp_path / f"pred{n}" / name, "python server.py\n",
                        {"server.py": SERVER})
    cache = tmp_path / "venvs"
    plan = EvaluationPlan(tasks_root=tmp_path / "tasks",
                          predictions=[tmp_path / "pred0", tmp_path / "pred1"],
                          out=tmp_path / "run", jobs=2)
    run = Evaluator(plan, LocalBackend(allow_exec=True, cache=VenvCache(cache))).run()
    assert len(run.samples) == 4 and all(s.passed for s in run.samples)
    # the repos' venvs and the test runners' are kept apart
    assert len([p for p in cache.iterdir() if p.is_dir()]) == 1
    assert len([p for p in (tmp_path / "runner-venvs").iterdir() if p.is_dir()]) == 1
    built = reused = 0
    for s in run.samples:
        log = s.logs[Phase.INSTALL].read_text()
        built += log.count("pip install")
        reused += log.count("reusing cached virtualenv")
    assert (built, reused) == (2, 6)
    # the two venvs were built at the same time, yet each command's output is one section:
    # each venv's creation and its pip install sit together in the log of the sample that
    # built it (one sample may build both, or two samples one each, as the jobs interleave)
    builds = []
    for s in run.samples:
        commands = [line.split("\t")[2] for line in
                    s.logs[Phase.INSTALL].read_text().splitlines() if "\t$ " in line]
        if commands:
            builds.append(commands)
    assert sum(len(c) for c in builds) == 4, builds
    venvs = []
    for commands in builds:
        assert len(commands) % 2 == 0, commands
        for create, install in zip(commands[::2], commands[1::2], strict=True):
            venv = create.split()[-1]
            assert f"{venv}/bin/python" in install, (create, install)
            venvs.append((venv, install))
    assert len({v for v, _ in venvs}) == 2
    runner = [v for v, i in venvs if "pytest" in i.split()]
    repo = [v for v, i in venvs if i.split()[-1].endswith("requirements.txt")]
    assert len(runner) == 1 and len(repo) == 1  # the repo's venv and the test runner's


def test_process_that_exits_is_a_start_failure_with_its_exit_code(tmp_path: Path,
                                                                 venv_cache: Path) -> None:
    task = _task(tmp_path, 18091)
    repo = _write_repo(tmp_path / "repo", "echo boom >&2\nexit 3\n")
    backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache), work_root=tmp_path)
    result = evaluate_sample(backend, SampleJob("r", task, 0, repo, tmp_path / "out"))
    assert result.deployment.failed_phase is Phase.START
    assert "exited with code 3" in result.deployment.message
    start = result.deployment.phase(Phase.START)
    assert start is not None and start.status is PhaseStatus.FAILED and start.exit_code == 3
    assert "boom" in result.logs[Phase.START].read_text()
    # tests still ran against the dead port, as in the stock harness, and failed
    assert result.tests.failed + result.tests.errors == 1


def test_busy_port_is_an_infrastructure_failure_not_the_agents(tmp_path: Path,
                                                               venv_cache: Path) -> None:
    import socket

    task = _task(tmp_path, 18092)
    repo = _write_repo(tmp_path / "repo", "python server.py\n", {"server.py": SERVER})
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 18092))
        squatter.listen()
        backend = LocalBackend(allow_exec=True, cache=VenvCache(venv_cache),
                               work_root=tmp_path)
        result = evaluate_sample(backend, SampleJob("r", task, 0, repo, tmp_path / "out"))
    assert not result.deployment.success
    assert "already in use" in result.deployment.message
    # the squatter's service is never tested in the repo's name
    assert result.tests.total == 0 and result.exit_code is None
    assert infrastructure_failed(result) and "already in use" in (result.error or "")


def test_cli_leaves_a_sample_stopped_by_a_busy_port_for_a_resume(
        tmp_path: Path, sample_runs: Path, venv_cache: Path) -> None:
    """Another process holds a task's port: the sample is not written as a result (neither a
    failure nor a pass borrowed from that process's service); the command says so and exits 1;
    the same command later evaluates just that sample."""
    import socket
    import subprocess
    import sys

    env = dict(os.environ, GENESIS_INSPECTOR_CACHE=str(venv_cache.parent))
    preds = sample_runs / "predictions" / "repo_readme_1118_forge_m1-large_Python"
    out = tmp_path / "run"
    args = [sys.executable, "-m", "inspector", "evaluate", "--tasks",
            str(sample_runs / "tasks"), "--predictions", str(preds), "--out", str(out),
            "--backend", "local", "--allow-local-exec", "--task", "notes-api", "--task",
            "url-shortener"]
    with socket.socket() as squatter:  # notes-api's port, as another program would hold it
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", 18081))
        squatter.listen()
        first = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert first.returncode == 1, first.stderr
    assert "1 sample(s) failed for infrastructure reasons" in first.stderr
    assert "Traceback" not in first.stderr
    held = out / "samples" / "notes-api" / "0"
    assert not (held / "result.json").exists()
    assert "port 18081 is already in use" in (held / "infrastructure_failure.txt").read_text()
    doc = json.loads((out / "run.json").read_text())
    assert doc["status"] == "incomplete"
    assert [s["task"] for s in doc["samples"]] == ["url-shortener"]
    # recorded as not evaluable (issue 28): counted and listed apart, in no figure
    assert [(g["task"], g["sample"], g["kind"]) for g in doc["not_evaluable"]] == \
        [("notes-api", 0, "port_held")]
    summary = subprocess.run([sys.executable, "-m", "inspector", "summary", str(out),
                              "--json"], capture_output=True, text=True, env=env, timeout=60)
    (row,) = json.loads(summary.stdout)
    assert (row["samples"], row["samples_total"], row["not_evaluable"]) == (1, 2, 1)
    assert row["not_evaluable_samples"][0]["kind"] == "port_held"
    assert "already in use" in row["not_evaluable_samples"][0]["reason"]
    again = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "resumed: 1 sample(s)" in again.stdout
    r = json.loads((held / "result.json").read_text())
    assert r["deployment"]["success"] and r["tests"]["failed"] == 0
    assert not (held / "infrastructure_failure.txt").exists()
    assert "not_evaluable" not in json.loads((out / "run.json").read_text())


def test_cli_evaluate_cancel_with_ctrl_c_cleans_up(tmp_path: Path, sample_runs: Path,
                                                  venv_cache: Path) -> None:
    """SIGINT mid-run: services stopped, run.json says cancelled, exit code 130."""
    import signal
    import sys

    env = dict(os.environ, GENESIS_INSPECTOR_CACHE=str(venv_cache.parent))
    proc = subprocess.Popen(
        [sys.executable, "-m", "inspector", "evaluate", "--tasks", str(sample_runs / "tasks"),
         "--predictions", str(sample_runs / "predictions" / RUNS[0]), "--out",
         str(tmp_path / "run"), "--allow-local-exec", "--task", "unit-converter"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not port_open(8000):
        time.sleep(0.2)
    assert port_open(8000), "the service never started"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert not port_open(8000)
    doc = json.loads((tmp_path / "run" / "run.json").read_text())
    assert doc["status"] == "cancelled"
    # the cut-short sample is not a result (never the model's failure): a resume redoes it
    assert doc["samples"] == []
    assert not list((tmp_path / "run" / "samples").glob("*/*/result.json"))


def test_base_url_variables_keep_the_path_the_tests_expect(tmp_path: Path) -> None:
    """RepoGenesis suites read e.g. API_BASE_URL with a default of .../api/v1."""
    from inspector.services.deploy.backend import base_url_env

    task_root = tmp_path / "repo" / "chat"
    (task_root / "tests").mkdir(parents=True)
    (task_root / "README.md").write_text("Port: 8083\n")
    (task_root / "tests" / "conftest.py").write_text(
        'import os\nBASE = os.environ.get("API_BASE_URL", "http://localhost:8083/api/v1")\n'
        'OTHER = os.getenv("SYNAPSE_BASE_URL", "http://example.invalid:9/")\n')
    tasks, _ = load_tasks(tmp_path)
    env = base_url_env(tasks["chat"], 8083)
    assert env["API_BASE_URL"] == "http://127.0.0.1:8083/api/v1"
    assert env["SYNAPSE_BASE_URL"] == "http://127.0.0.1:8083"
    assert env["SERVICE_BASE_URL"] == "http://127.0.0.1:8083"
