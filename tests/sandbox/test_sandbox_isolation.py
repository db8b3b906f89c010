"""Untrusted code in the sandbox: no network, limits enforced, always cleaned up."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from inspector.model.request.http_request import RequestSpec
from inspector.services.deploy.backend import Limits
from inspector.services.deploy.choose import backend_factory
from inspector.services.deploy.docker_backend import SandboxLimits
from inspector.services.deploy.warm import DeploymentPool
from inspector.services.rerun.http_client import send
from inspector.services.rerun.runner import rerun
from inspector.services.sandbox.cleanup import list_sandboxes
from inspector.services.sandbox.engine import LABEL_SAMPLE

from .conftest import STARTUP, make_repo

SERVER = """
import json, os, socket, subprocess, sys
from http.server import BaseHTTPRequestHandler, HTTPServer

def attempt(host, port):
    try:
        s = socket.create_connection((host, port), timeout=3)
        s.close()
        return "connected"
    except OSError as e:
        return f"blocked: {e}"

class H(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/probe":
            out = {"internet": attempt("1.1.1.1", 53),
                   "pypi": attempt("pypi.org", 443),
                   "host": attempt(sys.argv[1], int(sys.argv[2])),
                   "interfaces": sorted(os.listdir("/sys/class/net"))}
        elif self.path == "/hog":
            blocks = []
            while True:
                blocks.append(bytearray(16 * 2**20))
        else:
            out = {"status": "ok"}
        body = json.dumps(out).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

HTTPServer(("127.0.0.1", 18090), H).serve_forever()
"""


def _host_ip() -> str:
    """An address of this machine that is not loopback (the docker bridge's gateway)."""
    out = subprocess.run(["ip", "-4", "-o", "addr"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "docker0" in line:
            return line.split()[3].split("/")[0]
    return socket.gethostbyname(socket.gethostname())


@pytest.fixture
def limited_pool(docker_client, tmp_path):  # type: ignore[no-untyped-def]
    pool = DeploymentPool(backend_factory(False, SandboxLimits(memory_mb=256, pids=64)),
                          work_root=tmp_path / "reruns",
                          limits=Limits(install=600, startup=STARTUP, tests=60))
    yield pool
    pool.close()


def _no_container_for(client, key: str) -> bool:  # type: ignore[no-untyped-def]
    return not [c for c in list_sandboxes(client) if c.sample == key]


def test_repo_cannot_reach_any_network(docker_client, limited_pool, tmp_path) -> None:
    # A listener on this machine, on a non-loopback address the container could route to.
    host = _host_ip()
    listener = socket.socket()
    listener.bind((host, 0))
    listener.listen(5)
    accepted: list[object] = []
    def accept() -> None:
        with contextlib.suppress(OSError):  # closed at the end of the test
            accepted.append(listener.accept())

    threading.Thread(target=accept, daemon=True).start()
    port = listener.getsockname()[1]
    target = make_repo(tmp_path, "net-probe", SERVER,
                       start=f"python server.py {host} {port}\n")
    live, _ = limited_pool.acquire(target, "docker")
    assert live.deployed, live.failure
    resp = send(RequestSpec("GET", "/probe"), live.base_url(), timeout=30)
    probe = json.loads(resp.body)
    assert probe["interfaces"] == ["lo"], "the sandbox has no network interface but loopback"
    for what in ("internet", "pypi", "host"):
        assert probe[what].startswith("blocked"), (what, probe[what])
    time.sleep(0.5)
    assert not accepted, "nothing from the sandbox reached this machine"
    listener.close()


def test_memory_hog_is_killed_and_inspector_carries_on(docker_client, limited_pool,
                                                       tmp_path) -> None:
    hog = SERVER.replace('HTTPServer(("127.0.0.1", 18090), H).serve_forever()',
                         "blocks = []\nwhile True:\n    blocks.append(bytearray(32 * 2**20))")
    target = make_repo(tmp_path, "memory-hog", hog)
    t0 = time.monotonic()
    report = rerun(limited_pool, target, ["tests"], "docker")
    assert report.exit_code == 2
    assert "exited with code 137" in report.deploy_failure  # SIGKILL from the OOM killer
    assert "memory limit reached" in report.deploy_failure
    assert time.monotonic() - t0 < 120
    assert _no_container_for(docker_client, target.key)


def test_fork_bomb_hits_the_process_limit_and_is_removed(docker_client, limited_pool,
                                                         tmp_path) -> None:
    bomb = "import os, time\nwhile True:\n    try:\n        os.fork()\n" \
           "    except OSError:\n        time.sleep(0.01)\n"
    target = make_repo(tmp_path, "fork-bomb", bomb)
    t0 = time.monotonic()
    report = rerun(limited_pool, target, ["tests"], "docker")
    assert report.exit_code == 2
    assert "process limit reached" in report.deploy_failure, report.deploy_failure
    assert time.monotonic() - t0 < 120
    assert _no_container_for(docker_client, target.key)
    # the machine is fine: this process can still start processes
    assert subprocess.run(["true"]).returncode == 0


def test_wall_clock_ends_the_sandbox_by_itself(docker_client, tmp_path) -> None:
    # long enough to deploy on a loaded machine, short enough to wait for
    pool = DeploymentPool(backend_factory(False, SandboxLimits(lifetime=12)),
                          work_root=tmp_path / "r", limits=Limits(startup=8))
    try:
        target = make_repo(tmp_path, "short-lived", SERVER.replace("sys.argv[1]", "'x'"))
        live, _ = pool.acquire(target, "docker")
        assert live.deployed
        cid = live.container_id
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            states = [c.status for c in list_sandboxes(docker_client) if c.id == cid]
            if states != ["running"]:
                break
            time.sleep(0.5)
        # it ended by itself and removes itself (a self-ended sandbox leaves nothing)
        assert states in ([], ["removing"], ["exited"], ["dead"]), states
        live2, reused = pool.acquire(target, "docker")
        assert not reused, "a sandbox past its wall clock is redeployed, not reused"
    finally:
        pool.close()
    assert _no_container_for(docker_client, target.key)


HOLDER = """
import sys, time
from pathlib import Path
from inspector.services.deploy.choose import backend_factory, find_target
from inspector.services.deploy.warm import DeploymentPool
pool = DeploymentPool(backend_factory(False), work_root=Path(sys.argv[2]))
target = find_target(Path(sys.argv[1]), "todo-service", 0, "forge")
live, _ = pool.acquire(target, "docker")
print(live.container_id, flush=True)
time.sleep(600)
"""


def test_sandbox_removed_after_the_inspector_is_killed(docker_client, sample_runs,
                                                       tmp_path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(sample_runs / "runs"),
                             str(tmp_path)], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "GENESIS_INSPECTOR_CACHE": str(tmp_path)})
    assert proc.stdout is not None
    cid = proc.stdout.readline().strip()
    assert cid, "the holder deployed a sandbox"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # orphaned, and known to be; another inspector starting on this engine (another program,
    # another test process) may remove it before this test's prune does, which is as good
    orphan = [c for c in list_sandboxes(docker_client) if c.id == cid]
    assert all(c.status == "running" and c.leftover for c in orphan), orphan
    # The next inspector to start (here: the CLI) removes what the dead one left.
    out = subprocess.run([sys.executable, "-m", "inspector.cli", "sandbox", "prune"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert not [c for c in list_sandboxes(docker_client) if c.id == cid]


def test_no_engine_gives_a_clear_message(sample_runs: Path, tmp_path) -> None:
    env = {**os.environ, "DOCKER_HOST": f"unix://{tmp_path}/no-docker.sock",
           "GENESIS_INSPECTOR_CACHE": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "inspector.cli", "rerun",
                           str(sample_runs / "runs"), "todo-service", "test_health", "--run",
                           "forge", "--backend", "docker"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 2
    assert "no Docker engine reachable" in proc.stderr
    assert "--backend local" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_labels_mark_every_sandbox(docker_client, docker_pool, forge_todo) -> None:
    live, _ = docker_pool.acquire(forge_todo, "docker")
    [info] = [c for c in list_sandboxes(docker_client) if c.id == live.container_id]
    assert info.kind == "service" and info.owner_alive is True and not info.leftover
    assert info.sample == forge_todo.key
    container = live.session.container  # type: ignore[attr-defined]
    assert container.labels[LABEL_SAMPLE] == forge_todo.key
