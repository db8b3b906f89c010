"""``inspector evaluate --executor ray`` on a real Ray cluster (issue 19): a head and two worker
nodes started on this machine with the ``ray start`` CLI, no mocks.

The cluster lives in a private temp folder, binds loopback only, and is torn down at the end by
killing exactly the processes it started (never ``ray stop``, which would stop every Ray
cluster of this user on the machine).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest

from inspector.model.benchmark.tasks import load_tasks
from inspector.model.runs.progress import load_progress
from inspector.services.host.ports import port_open

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
RAY = Path(sys.executable).parent / "ray"
PREDICTIONS = ROOT / "sample_runs" / "predictions" / "repo_readme_1118_forge_m1-large_Python"
TASKS = ROOT / "sample_runs" / "tasks"
REAL_PREDICTIONS = ROOT / "sample_runs" / "predictions" / "repo_readme_1125_atlas_m2-large_Python"
FAST = ("notes-api", "quote-board", "url-shortener")  # 2-3 s each with the local backend


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    address: str
    temp_dir: Path
    env: dict[str, str]
    raylets: list[int] = field(default_factory=list)  # head's, then each worker's

    def processes(self) -> list[psutil.Process]:
        """Every process this cluster started: its daemons (named by our temp folder) and
        everything below them (the workers, the services they started)."""
        found: dict[int, psutil.Process] = {}
        for p in psutil.process_iter(["cmdline"]):
            try:
                if p.pid != os.getpid() and str(self.temp_dir) in " ".join(p.info["cmdline"] or ()):
                    found[p.pid] = p
                    for c in p.children(recursive=True):
                        found[c.pid] = c
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        return list(found.values())


def _raylets(temp_dir: Path) -> set[int]:
    out = set()
    for p in psutil.process_iter(["name", "cmdline"]):
        cmd = " ".join(p.info["cmdline"] or ())
        if p.info["name"] == "raylet" and str(temp_dir) in cmd:
            out.add(p.pid)
    return out


def _start(args: list[str], env: dict[str, str], log: Path) -> None:
    with log.open("ab") as f:
        proc = subprocess.run([str(RAY), "start", *args], stdout=f, stderr=subprocess.STDOUT,
                              env=env, timeout=180)
    assert proc.returncode == 0, log.read_text(errors="replace")[-3000:]


def _teardown(cluster: Cluster) -> None:
    procs = cluster.processes()
    for p in procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.send_signal(signal.SIGTERM)
    _, alive = psutil.wait_procs(procs, timeout=10)
    for p in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.kill()
    psutil.wait_procs(alive, timeout=10)


@contextlib.contextmanager
def _cluster(venv_cache: Path, docker_on_second_worker: bool = False) -> Iterator[Cluster]:
    """A head (1 CPU) and two worker nodes (1 CPU each) on loopback, in a private temp folder;
    the second worker advertises the ``docker`` resource when asked."""
    # short: Ray's socket paths live below it and must stay under the 107-byte limit
    temp_dir = Path(tempfile.mkdtemp(prefix="rayt-", dir="/tmp"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0",
               GENESIS_INSPECTOR_CACHE=str(venv_cache.parent))
    port = _free_port()
    cluster = Cluster(f"127.0.0.1:{port}", temp_dir, env)
    common = ["--node-ip-address=127.0.0.1", "--num-cpus=1", f"--temp-dir={temp_dir}",
              "--disable-usage-stats"]
    try:
        _start(["--head", f"--port={port}", "--include-dashboard=false", *common], env,
               temp_dir / "head.log")
        cluster.raylets.extend(_raylets(temp_dir))
        for n in (1, 2):
            before = _raylets(temp_dir)
            extra = ['--resources={"docker": 1}'] if docker_on_second_worker and n == 2 else []
            _start([f"--address={cluster.address}", *common, *extra], env,
                   temp_dir / f"w{n}.log")
            cluster.raylets.extend(sorted(_raylets(temp_dir) - before))
        assert len(cluster.raylets) == 3, cluster.raylets
        yield cluster
    finally:
        _teardown(cluster)
        shutil.rmtree(temp_dir, ignore_errors=True)


@pytest.fixture
def ray_cluster(venv_cache: Path) -> Iterator[Cluster]:
    with _cluster(venv_cache) as c:
        yield c


@pytest.fixture
def docker_cluster(venv_cache: Path) -> Iterator[Cluster]:
    with _cluster(venv_cache, docker_on_second_worker=True) as c:
        yield c


def evaluate_args(out: Path, *extra: str, tasks: tuple[str, ...] = FAST,
                  predictions: Path = PREDICTIONS) -> list[str]:
    args = [sys.executable, "-m", "inspector", "evaluate", "--tasks", str(TASKS),
            "--predictions", str(predictions), "--out", str(out), "--backend", "local",
            "--allow-local-exec", *extra]
    for t in tasks:
        args += ["--task", t]
    return args


def evaluate(out: Path, env: dict[str, str], *extra: str, tasks: tuple[str, ...] = FAST,
             predictions: Path = PREDICTIONS, timeout: float = 300
             ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(evaluate_args(out, *extra, tasks=tasks, predictions=predictions),
                          capture_output=True, text=True, env=env, timeout=timeout)


def verdicts(run: Path) -> dict[str, object]:
    """What a user compares between two runs, sample by sample: verdicts and test outcomes."""
    doc = json.loads((run / "run.json").read_text())
    out: dict[str, object] = {}
    for entry in doc["samples"]:
        r = json.loads((run / entry["path"] / "result.json").read_text())
        out[f"{r['task']}/{r['sample']}"] = (
            r["deployment"]["success"], r["deployment"]["failed_phase"],
            sorted((c["id"], c["outcome"]) for c in r["tests"]["cases"]),
            sorted(p.name for p in (run / entry["path"] / "logs").glob("*.log")))
    return out


def no_service_left(names: tuple[str, ...], wait: float = 10.0) -> bool:
    """Whether, within ``wait`` seconds, nothing listens on these tasks' ports any more."""
    tasks, _ = load_tasks(TASKS)
    ports = [tasks[n].port for n in names if tasks[n].port]
    deadline = time.monotonic() + wait
    while any(port_open(p) for p in ports if p):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def started(run: Path) -> dict[str, str]:
    return {f"{p.parent.parent.name}/{p.parent.name}": json.loads(p.read_text())["started_at"]
            for p in (run / "samples").glob("*/*/result.json")}


def test_ray_run_equals_local_run_and_resumes_only_what_is_missing(
        ray_cluster: Cluster, tmp_path: Path) -> None:
    env = ray_cluster.env
    local = evaluate(tmp_path / "local", env)
    assert local.returncode == 0, local.stderr
    on_ray = evaluate(tmp_path / "ray", env, "--executor", "ray", "--address",
                      ray_cluster.address)
    assert on_ray.returncode == 0, on_ray.stderr
    assert "finished on" in on_ray.stderr
    want = verdicts(tmp_path / "local")
    assert sorted(want) == [f"{t}/0" for t in FAST]
    assert verdicts(tmp_path / "ray") == want
    doc = json.loads((tmp_path / "ray" / "run.json").read_text())
    assert doc["status"] == "complete"
    assert doc["harness"]["settings"]["executor"] == "ray"

    # a partial run: one sample lost, one left failed by the infrastructure
    before = started(tmp_path / "ray")
    shutil.rmtree(tmp_path / "ray" / "samples" / "notes-api")
    infra = tmp_path / "ray" / "samples" / "quote-board" / "0"
    shutil.rmtree(infra)
    infra.mkdir()
    (infra / "infrastructure_failure.txt").write_text("attempt 1 failed: NodeDiedError\n")
    again = evaluate(tmp_path / "ray", env, "--executor", "ray", "--address",
                     ray_cluster.address)
    assert again.returncode == 0, again.stderr
    assert "resumed: 1 sample(s) were already evaluated" in again.stdout
    after = started(tmp_path / "ray")
    assert after["url-shortener/0"] == before["url-shortener/0"]  # not evaluated again
    assert after["notes-api/0"] != before["notes-api/0"]
    assert after["quote-board/0"] != before["quote-board/0"]
    assert not (infra / "infrastructure_failure.txt").exists()
    assert verdicts(tmp_path / "ray") == want

    # the same command on a finished run evaluates nothing
    third = evaluate(tmp_path / "ray", env, "--executor", "ray", "--address",
                     ray_cluster.address)
    assert third.returncode == 0, third.stderr
    assert "resumed: 3 sample(s)" in third.stdout
    assert started(tmp_path / "ray") == after


def test_the_bundled_real_corpus_on_ray_equals_local_and_shows_live_progress(
        ray_cluster: Cluster, tmp_path: Path) -> None:
    """The eight real RepoGenesis Python tasks as one bundled agent generated them: through
    the cluster, sample for sample what the local executor gives; ``progress.json`` shows
    which node runs what while it runs, and every node's share at the end."""
    env = ray_cluster.env
    real = tuple(sorted(p.name for p in REAL_PREDICTIONS.iterdir() if p.is_dir()))
    assert len(real) == 8
    local = evaluate(tmp_path / "local", env, "--jobs", "2", tasks=(),
                     predictions=REAL_PREDICTIONS, timeout=900)
    assert local.returncode == 0, local.stderr
    out = tmp_path / "ray"
    driver = subprocess.Popen(
        evaluate_args(out, "--executor", "ray", "--address", ray_cluster.address, tasks=(),
                      predictions=REAL_PREDICTIONS),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    seen_running: dict[str, str] = {}  # sample -> node, as the file said while running
    most_at_once = 0
    deadline = time.monotonic() + 900
    while driver.poll() is None:
        assert time.monotonic() < deadline
        p = load_progress(out) if out.is_dir() else None
        if p is not None and p.status == "running":
            seen_running.update((f.sample, f.node) for f in p.in_flight)
            most_at_once = max(most_at_once, p.running)
            assert p.done + p.running + p.queued + p.infra_failed == p.total == 8
        time.sleep(0.1)
    stdout, stderr = driver.communicate()
    assert driver.returncode == 0, stderr
    final = load_progress(out)
    assert final is not None
    assert (final.status, final.done, final.running, final.queued) == ("complete", 8, 0, 0)
    assert sum(n.done for n in final.nodes) == 8
    assert len([n for n in final.nodes if n.done]) >= 2, final.nodes  # spread over nodes
    assert most_at_once >= 2  # three one-CPU nodes ran samples side by side
    assert seen_running and set(seen_running.values()) <= {n.node for n in final.nodes}
    for line in stderr.splitlines():  # each sample's line names the node the file named
        if " finished on " in line:
            sid, node = line.split("] ", 1)[1].split(": finished on ")
            sample = sid.split("/", 1)[1]
            if sample in seen_running:
                assert node.split()[0] == seen_running[sample], line
    want = verdicts(tmp_path / "local")
    assert sorted(want) == [f"{t}/0" for t in real]
    assert verdicts(out) == want


def test_local_executor_resumes_too(tmp_path: Path, venv_cache: Path) -> None:
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": str(venv_cache.parent)}
    first = evaluate(tmp_path / "run", env, tasks=FAST[:2])
    assert first.returncode == 0, first.stderr
    before = started(tmp_path / "run")
    shutil.rmtree(tmp_path / "run" / "samples" / FAST[0])
    again = evaluate(tmp_path / "run", env, tasks=FAST[:2])
    assert again.returncode == 0, again.stderr
    after = started(tmp_path / "run")
    assert after[f"{FAST[1]}/0"] == before[f"{FAST[1]}/0"]
    assert after[f"{FAST[0]}/0"] != before[f"{FAST[0]}/0"]
    # another run's folder is never resumed into
    other = evaluate(tmp_path / "run", env, "--run-id", "someone-else", tasks=FAST[:2])
    assert other.returncode != 0
    assert "holds run" in other.stderr and "--overwrite" in other.stderr
    assert "Traceback" not in other.stderr


def test_docker_backend_needs_a_node_that_advertises_docker(
        ray_cluster: Cluster, tmp_path: Path) -> None:
    proc = evaluate(tmp_path / "run", ray_cluster.env, "--executor", "ray", "--address",
                    ray_cluster.address, "--backend", "docker", timeout=120)
    assert proc.returncode != 0
    assert "advertises the 'docker' resource" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "run" / "samples").exists() or \
        not any((tmp_path / "run" / "samples").iterdir())


def _running_task_under(raylet: int) -> bool:
    try:
        for c in psutil.Process(raylet).children(recursive=True):
            if "evaluate_on_node" in " ".join(c.cmdline()):
                return True
    except psutil.NoSuchProcess:
        pass
    return False


KILL_TASKS = ("notes-api", "quote-board", "url-shortener", "inventory-api", "todo-service")


def _run_and_kill_a_worker_node(cluster: Cluster, out: Path, *extra: str
                                ) -> subprocess.CompletedProcess[str]:
    """Evaluate KILL_TASKS on the cluster, killing the first worker node (its raylet and
    everything under it) while it runs a sample."""
    args = [sys.executable, "-m", "inspector", "evaluate", "--tasks", str(TASKS),
            "--predictions", str(PREDICTIONS), "--out", str(out), "--backend", "local",
            "--allow-local-exec", "--executor", "ray", "--address", cluster.address, *extra]
    for t in KILL_TASKS:
        args += ["--task", t]
    driver = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=cluster.env)
    victim = cluster.raylets[1]  # the first worker node
    deadline = time.monotonic() + 120
    while not _running_task_under(victim):
        assert driver.poll() is None, driver.communicate()
        assert time.monotonic() < deadline, "no task ever ran on the first worker node"
        time.sleep(0.05)
    doomed = [victim, *(c.pid for c in psutil.Process(victim).children(recursive=True))]
    for pid in doomed:  # the node dies with everything it ran
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    out_text, err = driver.communicate(timeout=300)
    return subprocess.CompletedProcess(args, driver.returncode, out_text, err)


def test_a_killed_worker_node_loses_no_sample(ray_cluster: Cluster, tmp_path: Path) -> None:
    local = evaluate(tmp_path / "local", ray_cluster.env, tasks=KILL_TASKS)
    assert local.returncode == 0, local.stderr
    proc = _run_and_kill_a_worker_node(ray_cluster, tmp_path / "ray")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((tmp_path / "ray" / "run.json").read_text())
    listed = [(s["task"], s["sample"]) for s in doc["samples"]]
    assert sorted(listed) == sorted((t, 0) for t in KILL_TASKS)  # each exactly once
    assert doc["status"] == "complete"
    retried = []
    for t in KILL_TASKS:
        r = json.loads((tmp_path / "ray" / "samples" / t / "0" / "result.json").read_text())
        if any("infrastructure reason" in n for n in r["notes"]):
            retried.append(t)
    assert retried, proc.stderr  # the killed node's sample was retried elsewhere, says so
    assert no_service_left(KILL_TASKS)  # the killed node's services died with it
    progress = load_progress(tmp_path / "ray")
    assert progress is not None
    assert (progress.status, progress.done, progress.retried) == ("complete", 5, len(retried))
    assert sum(n.infra_failures for n in progress.nodes) == len(retried)
    assert verdicts(tmp_path / "ray") == verdicts(tmp_path / "local")


def _task_workers_under(raylet: int) -> list[psutil.Process]:
    try:
        return [c for c in psutil.Process(raylet).children(recursive=True)
                if "evaluate_on_node" in " ".join(c.cmdline())]
    except psutil.NoSuchProcess:
        return []


def test_a_crashed_worker_process_is_retried_on_another_node(
        ray_cluster: Cluster, tmp_path: Path) -> None:
    """Only the worker process running a sample dies (its node lives on): with other nodes
    free, the retry goes to one of them, and the sample's notes say where each attempt ran."""
    task = "notes-api"
    args = evaluate_args(tmp_path / "ray", "--executor", "ray", "--address",
                         ray_cluster.address, tasks=(task,))
    driver = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=ray_cluster.env)
    deadline = time.monotonic() + 120
    while not (workers := [w for r in ray_cluster.raylets for w in _task_workers_under(r)]):
        assert driver.poll() is None, driver.communicate()
        assert time.monotonic() < deadline, "the task never ran"
        time.sleep(0.05)
    worker = workers[0]
    while not ((p := load_progress(tmp_path / "ray")) and p.running == 1):
        assert driver.poll() is None, driver.communicate()
        assert time.monotonic() < deadline, "the driver never heard the task start"
        time.sleep(0.05)
    doomed = [worker, *worker.children(recursive=True)]
    for proc in doomed:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.kill()
    out, err = driver.communicate(timeout=300)
    assert driver.returncode == 0, err
    assert all(psutil.pid_exists(r) for r in ray_cluster.raylets)  # every node lived on
    assert no_service_left((task,))  # the dead worker's service died with it
    r = json.loads((tmp_path / "ray" / "samples" / task / "0" / "result.json").read_text())
    said = " ".join(r["notes"])
    failed = re.search(r"attempt 1 failed on (\S+) for an infrastructure reason "
                       r"\(WorkerCrashedError", said)
    done = re.search(r"attempt 2 completed on (\S+)", said)
    assert failed and done, said
    assert done.group(1) != failed.group(1), said  # steered away from the node that failed
    progress = load_progress(tmp_path / "ray")
    assert progress is not None and (progress.done, progress.retried) == (1, 1)
    assert {n.node: n.infra_failures for n in progress.nodes}[failed.group(1)] == 1


def test_an_infrastructure_failure_is_never_the_models_and_resumes(
        ray_cluster: Cluster, tmp_path: Path) -> None:
    proc = _run_and_kill_a_worker_node(ray_cluster, tmp_path / "ray", "--max-infra-retries",
                                       "0")
    assert proc.returncode == 1, proc.stderr
    assert "failed for infrastructure reasons" in proc.stderr
    assert "Traceback" not in proc.stderr
    run = tmp_path / "ray"
    doc = json.loads((run / "run.json").read_text())
    assert doc["status"] == "incomplete"
    failed = sorted(p.parent.parent.name
                    for p in (run / "samples").glob("*/0/infrastructure_failure.txt"))
    assert failed
    listed = {s["task"] for s in doc["samples"]}
    assert not listed & set(failed)  # never written as a result, so never a model failure
    assert listed | set(failed) == set(KILL_TASKS)
    before = started(run)
    again = evaluate(run, ray_cluster.env, "--executor", "ray", "--address",
                     ray_cluster.address, tasks=KILL_TASKS)
    assert again.returncode == 0, again.stderr
    after = started(run)
    assert sorted(after) == sorted(f"{t}/0" for t in KILL_TASKS)
    assert all(after[k] == v for k, v in before.items())  # only the failed ones re-ran
    assert not list((run / "samples").glob("*/0/infrastructure_failure.txt"))


def test_ctrl_c_cancels_on_the_cluster_and_leaves_a_resumable_run(
        ray_cluster: Cluster, tmp_path: Path) -> None:
    tasks = KILL_TASKS
    args = [sys.executable, "-m", "inspector", "evaluate", "--tasks", str(TASKS),
            "--predictions", str(PREDICTIONS), "--out", str(tmp_path / "ray"), "--backend",
            "local", "--allow-local-exec", "--executor", "ray", "--address",
            ray_cluster.address]
    for t in tasks:
        args += ["--task", t]
    driver = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=ray_cluster.env)
    assert driver.stderr is not None
    seen = []
    for line in driver.stderr:  # the first sample written: the others queued or running
        seen.append(line)
        if "finished on" in line:
            break
    else:
        pytest.fail("".join(seen))
    driver.send_signal(signal.SIGINT)
    out, err = driver.communicate(timeout=120)
    assert driver.returncode == 130, "".join(seen) + err
    assert "Traceback" not in err
    doc = json.loads((tmp_path / "ray" / "run.json").read_text())
    assert doc["status"] == "cancelled"
    listed = {s["task"] for s in doc["samples"]}
    assert 1 <= len(listed) < len(tasks)
    written = {p.parent.parent.name for p in (tmp_path / "ray" / "samples").glob("*/0/result.json")}
    assert written == listed  # consistent: what run.json lists is what is there
    # nothing of the cancelled samples keeps running anywhere on the cluster
    time.sleep(2)
    busy = []
    for p in ray_cluster.processes():
        with contextlib.suppress(psutil.NoSuchProcess):
            if "evaluate_on_node" in " ".join(p.cmdline()):
                busy.append(p.pid)
    assert busy == []
    before = started(tmp_path / "ray")
    again = subprocess.run(args, capture_output=True, text=True, env=ray_cluster.env,
                           timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"resumed: {len(listed)} sample(s)" in again.stdout
    after = started(tmp_path / "ray")
    assert sorted(after) == sorted(f"{t}/0" for t in tasks)
    assert all(after[k] == v for k, v in before.items())


def test_docker_samples_run_only_on_the_node_with_an_engine(
        docker_cluster: Cluster, tmp_path: Path) -> None:
    """Docker tests FAIL, never skip, without an engine."""
    tasks = ("notes-api", "url-shortener")
    local = evaluate(tmp_path / "local", docker_cluster.env, "--backend", "docker",
                     tasks=tasks)
    assert local.returncode == 0, local.stderr
    on_ray = evaluate(tmp_path / "ray", docker_cluster.env, "--backend", "docker",
                      "--executor", "ray", "--address", docker_cluster.address, tasks=tasks)
    assert on_ray.returncode == 0, on_ray.stderr
    nodes = {line.rsplit("finished on ", 1)[1].split()[0]
             for line in on_ray.stderr.splitlines() if "finished on " in line}
    assert len(nodes) == 1, on_ray.stderr  # both on the one node advertising "docker"
    doc = json.loads((tmp_path / "ray" / "run.json").read_text())
    assert doc["harness"]["backend"] == "docker"
    assert verdicts(tmp_path / "ray") == verdicts(tmp_path / "local")
