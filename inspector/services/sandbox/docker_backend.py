"""Docker sandbox backend: each generated repo runs in its own locked-down container.

The service container has no network at all (``network_mode=none``: only its own loopback),
runs as an unprivileged user with every capability dropped, under memory, pid and CPU limits,
and its PID 1 is ``sleep <lifetime>``, so the container ends by itself after the wall-clock
limit even if the inspector is killed. The golden tests run inside the same container against
``127.0.0.1:<port>``, like the stock harness; the inspector reaches the service only through
``docker exec`` (see :mod:`.forward`), never over a network.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.model import Phase, PhaseStatus

from ..harness.backend import (
    HEALTH_PATHS,
    PhaseOutcome,
    SampleJob,
    TestRun,
    base_url_env,
    no_entry_point,
    pytest_args,
    pytest_rootdir,
    tests_outcome,
)
from ..harness.local import find_start_command
from ..harness.phase_log import PhaseLog, now_iso
from .container_exec import ExecHandle, run_exec, start_exec
from .engine import (
    LABEL,
    LABEL_EXPIRES,
    LABEL_KIND,
    LABEL_OWNER,
    LABEL_SAMPLE,
    connect,
    owner_label,
)
from .images import BaseImageMissing, ensure_sample_image
from .repo_archive import RepoTooLarge, repo_tar

if TYPE_CHECKING:
    import docker
    from docker.models.containers import Container

_READY = r"""
import json, os, socket, sys, time, urllib.error, urllib.request
port, limit, pidfile = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
paths = sys.argv[4:]
t0 = time.monotonic()
def stat(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
pgid = None
def group_alive():
    for d in os.listdir("/proc"):
        st = stat(d) if d.isdigit() else None
        if st and int(st[2]) == pgid and st[0] != "Z":
            return True
    return False
def leader_alive():
    st = stat(pgid)
    return bool(st) and st[0] != "Z"
def say(**kw):
    kw["elapsed"] = round(time.monotonic() - t0, 3)
    print(json.dumps(kw), flush=True)
while True:
    el = time.monotonic() - t0
    if pgid is None:
        try:
            pgid = int(open(pidfile).read().strip())
        except (OSError, ValueError):
            pgid = None
    s = socket.socket()
    s.settimeout(0.3)
    is_open = s.connect_ex(("127.0.0.1", port)) == 0
    s.close()
    if is_open:
        probe = ""
        for p in paths:
            try:
                r = urllib.request.urlopen(f"http://127.0.0.1:{port}{p}", timeout=1)
                probe = f"GET {p} -> {r.status}"
                break
            except urllib.error.HTTPError as e:
                if e.code < 400:
                    probe = f"GET {p} -> {e.code}"
                    break
            except Exception:
                pass
        say(state="open", leader=pgid is not None and leader_alive(), probe=probe)
        break
    if pgid is not None and not group_alive():
        say(state="exited")
        break
    if el > limit:
        say(state="timeout", leader=pgid is not None and leader_alive())
        break
    time.sleep(0.05)
"""


@dataclass
class SandboxLimits:
    """Resource limits of one sandbox (defaults suit the small services of the benchmark)."""

    memory_mb: int = 768
    pids: int = 256
    cpus: float = 1.0
    lifetime: float = 3600.0  # wall clock: the container's PID 1 exits after this

    def describe(self) -> str:
        return (f"memory {self.memory_mb} MiB, {self.pids} processes, {self.cpus:g} CPU, "
                f"wall clock {self.lifetime:.0f}s, no network")


class DockerBackend:
    """Deploys generated repos in Docker sandboxes (see the module docstring)."""

    name = "docker"

    def __init__(self, client: docker.DockerClient | None = None,
                 limits: SandboxLimits | None = None, keep: bool = False) -> None:
        self.client = client or connect()
        self.limits = limits or SandboxLimits()
        self.keep = keep

    def open(self, job: SampleJob) -> DockerSession:
        return DockerSession(self, job)


class DockerSession:
    """One sandboxed deployment; ``close()`` removes the container and everything in it."""

    def __init__(self, backend: DockerBackend, job: SampleJob) -> None:
        self.backend = backend
        self.job = job
        self.container: Container | None = None
        self.service: ExecHandle | None = None

    def _env(self) -> dict[str, str]:
        port = self.job.port
        env = {"PORT": str(port), "HOST": "127.0.0.1", "SERVICE_PORT": str(port)}
        env.update(base_url_env(self.job.task, port))
        return env

    # -- phases --------------------------------------------------------------------------
    def install(self, log: PhaseLog) -> PhaseOutcome:
        started, t0 = now_iso(), time.monotonic()
        client = self.backend.client
        if self.job.task.language != "python":
            msg = (f"{self.job.task.language} tasks cannot be evaluated in the Docker sandbox yet "
                   "(its image has no JDK or Maven, and no Maven repository is reachable to "
                   "fetch dependencies); use --backend local, which runs Maven offline "
                   "against ~/.m2 — infrastructure problem, not the agent's")
            log.meta(msg)
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED, msg, None, False, started, 0)
        try:
            image = ensure_sample_image(client, self.job.repo, self.job.task.tests_dir, log,
                                        self.job.cancel, self.job.limits.install)
        except BaseImageMissing as exc:
            log.meta(str(exc))
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED, str(exc), None, False,
                                started, time.monotonic() - t0)
        if not image.ok:
            status = PhaseStatus.TIMEOUT if image.exit_code is None and not \
                self.job.cancel.is_set() else PhaseStatus.FAILED
            return PhaseOutcome(Phase.INSTALL, status, image.message, image.exit_code, False,
                                started, time.monotonic() - t0)
        try:
            data = repo_tar(self.job.repo, self.job.task.tests_dir)
        except (RepoTooLarge, OSError) as exc:
            log.meta(str(exc))
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED, str(exc), None, image.cached,
                                started, time.monotonic() - t0)
        lim = self.backend.limits
        labels = {LABEL: "1", LABEL_KIND: "service", LABEL_OWNER: owner_label(),
                  LABEL_SAMPLE: f"{self.job.run_id}/{self.job.task.name}/{self.job.sample}",
                  LABEL_EXPIRES: str(int(time.time() + lim.lifetime))}
        if self.backend.keep:
            labels["org.genesis-inspector.keep"] = "1"
        log.meta(f"creating the sandbox container ({lim.describe()})")
        container = client.containers.create(
            image.tag, ["sleep", str(int(lim.lifetime))], init=True, network_mode="none",
            user="1000:1000", working_dir="/repo", hostname="sandbox",
            mem_limit=f"{lim.memory_mb}m", memswap_limit=f"{lim.memory_mb}m",
            pids_limit=lim.pids, nano_cpus=int(lim.cpus * 1e9), cap_drop=["ALL"],
            security_opt=["no-new-privileges"], labels=labels, environment=self._env(),
            ulimits=_ulimits())
        self.container = container
        container.put_archive("/repo", data)
        container.start()
        log.meta(f"sandbox {container.short_id} up from {image.tag} "
                 f"({time.monotonic() - t0:.1f}s)")
        return PhaseOutcome(Phase.INSTALL, PhaseStatus.OK, image.message, 0, image.cached,
                            started, time.monotonic() - t0)

    def start(self, log: PhaseLog) -> PhaseOutcome:
        started, t0 = now_iso(), time.monotonic()
        assert self.container is not None
        found = find_start_command(self.job.repo, self.job.port)
        if found is None:
            return no_entry_point(log, started)
        cmd, how = found
        log.meta(f"entry point: {how}")
        log.meta("$ " + " ".join(cmd) + f"   (cwd: /repo in the sandbox, PORT={self.job.port})")
        try:
            self.service = start_exec(self.container, cmd, lambda s, t: log.write(t, s),
                                      limit=self.backend.limits.lifetime, env=self._env(),
                                      lines_sink=lambda s, texts: log.write_many(texts, s))
        except Exception as exc:  # noqa: BLE001 - e.g. the pid limit is already exhausted
            msg = f"could not start: {exc}"
            log.meta(msg)
            return PhaseOutcome(Phase.START, PhaseStatus.FAILED, msg, None, False, started,
                                time.monotonic() - t0, lenient_ok=False)
        return PhaseOutcome(Phase.START, PhaseStatus.OK, f"started ({how})", None, False,
                            started, time.monotonic() - t0)

    def wait_ready(self, log: PhaseLog) -> PhaseOutcome:
        started, t0 = now_iso(), time.monotonic()
        assert self.container is not None and self.service is not None
        port, limit = self.job.port, self.job.limits.startup
        log.meta(f"waiting up to {limit:.0f}s for 127.0.0.1:{port} (inside the sandbox)")
        lines: list[str] = []
        pidfile = f"/tmp/gi-exec-{self.service.token}.pid"
        code = run_exec(self.container, ["/usr/bin/python3", "-c", _READY, str(port),
                                         str(limit), pidfile, *HEALTH_PATHS],
                        lambda s, t: lines.append(t) if s == "out" else log.write(t, s),
                        limit=limit + 10, cancel=self.job.cancel)
        report: dict[str, object] = {}
        for line in lines:
            with contextlib.suppress(ValueError):
                report = json.loads(line)
        state = report.get("state")
        elapsed = float(report.get("elapsed", time.monotonic() - t0))  # type: ignore[arg-type]
        dur = time.monotonic() - t0
        if state == "open":
            probe = str(report.get("probe") or "")
            alive = bool(report.get("leader"))
            msg = f"port {port} open after {elapsed:.1f}s" + (f"; {probe}" if probe else "")
            if not alive:
                msg += ("; start command exited and left the service running in the "
                        "background (the stock harness would call this a failed start)")
            log.meta(msg)
            return PhaseOutcome(Phase.HEALTH, PhaseStatus.OK, msg, None, False, started, dur,
                                lenient_ok=alive)
        if state == "exited":
            time.sleep(0.2)
            ec = self.service.exit_code()
            msg = f"process exited with code {ec} after {elapsed:.1f}s"
            msg += self.limits_note()
            log.meta(msg)
            return PhaseOutcome(Phase.START, PhaseStatus.FAILED, msg, ec, False, started, dur,
                                lenient_ok=False)
        if state == "timeout":
            alive = bool(report.get("leader"))
            msg = f"process still running but port {port} not open after {limit:.0f}s"
            if alive:
                msg += " (the stock harness counts this as deployed)"
            msg += self.limits_note()
            log.meta(msg)
            return PhaseOutcome(Phase.HEALTH, PhaseStatus.TIMEOUT, msg, None, False, started,
                                dur, lenient_ok=alive)
        msg = ("cancelled" if self.job.cancel.is_set() else
               f"could not check the port (readiness probe exit {code})" + self.limits_note())
        log.meta(msg)
        return PhaseOutcome(Phase.HEALTH, PhaseStatus.FAILED, msg, None, False, started, dur,
                            lenient_ok=False)

    def run_tests(self, log: PhaseLog, test_ids: list[str] | None = None) -> TestRun:
        started, t0 = now_iso(), time.monotonic()
        if self.container is None:
            return TestRun(PhaseOutcome(Phase.TESTS, PhaseStatus.SKIPPED, "no sandbox", None,
                                        False, started, 0.0), None, None)
        remote = "/tmp/gi-junit.xml"
        junit = self.job.out_dir / "junit.xml"
        junit.parent.mkdir(parents=True, exist_ok=True)
        junit.unlink(missing_ok=True)
        cmd = ["python", "-m", "pytest", *pytest_args(test_ids, remote)]
        log.meta("$ " + " ".join(cmd) + "   (in the sandbox)")
        with contextlib.suppress(Exception):
            self.container.exec_run(["rm", "-f", remote], user="1000:1000")
        try:
            code = run_exec(self.container, cmd, lambda s, t: log.write(t, s),
                            limit=self.job.limits.tests, env=self._env(),
                            cancel=self.job.cancel,
                            lines_sink=lambda s, texts: log.write_many(texts, s))
        except Exception as exc:  # noqa: BLE001 - exec refused (pid limit, container gone)
            msg = f"could not run the tests: {exc}" + self.limits_note()
            log.meta(msg)
            return TestRun(PhaseOutcome(Phase.TESTS, PhaseStatus.FAILED, msg, None, False,
                                        started, time.monotonic() - t0), None, None)
        if code == 137:  # timeout -s KILL
            code = None
        got = self._fetch(remote, junit)
        outcome = tests_outcome(code, self.job.cancel.is_set(), self.job.limits.tests, started,
                                time.monotonic() - t0)
        return TestRun(outcome, junit if got else None, code, "/repo", pytest_rootdir(log))

    def _fetch(self, remote: str, dest: object) -> bool:
        import io
        import tarfile
        from pathlib import Path

        assert self.container is not None
        try:
            stream, _ = self.container.get_archive(remote)
            data = b"".join(stream)
            with tarfile.open(fileobj=io.BytesIO(data)) as tar:
                member = tar.getmembers()[0]
                f = tar.extractfile(member)
                if f is None:
                    return False
                Path(str(dest)).write_bytes(f.read())
            return True
        except Exception:  # noqa: BLE001 - no report written (timeout, crash)
            return False

    def limits_note(self) -> str:
        """Which resource limit the sandbox hit, from the engine's stats ("" when none)."""
        if self.container is None:
            return ""
        try:
            stats = self.container.stats(stream=False)
        except Exception:  # noqa: BLE001
            return ""
        notes = []
        pids = stats.get("pids_stats") or {}
        if pids.get("limit") and pids.get("current", 0) >= pids["limit"] - 2:
            notes.append(f"process limit reached ({pids['current']}/{pids['limit']})")
        mem = stats.get("memory_stats") or {}
        if mem.get("failcnt") or (mem.get("limit") and mem.get("max_usage", 0) >=
                                  mem["limit"] * 0.98):
            notes.append(f"memory limit reached ({mem.get('limit', 0) // 2**20} MiB)")
        return "; sandbox " + ", ".join(notes) if notes else ""

    def close(self) -> None:
        c, self.container = self.container, None
        if c is not None:
            with contextlib.suppress(Exception):
                c.remove(force=True)


def _ulimits() -> list[object]:
    from docker.types import Ulimit

    return [Ulimit(name="nofile", soft=4096, hard=4096)]
