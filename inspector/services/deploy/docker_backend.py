"""Docker sandbox backend: each generated repo runs in its own locked-down container.

The service container has no network at all (``network_mode=none``: only its own loopback),
every capability dropped, no-new-privileges, and memory, pid and CPU limits. Its root filesystem
is read-only; the only writable places are size-limited tmpfs folders (``/repo``, ``/tmp``, the
sandbox user's home), so a repo writing an endless file hits "disk limit reached" instead of
filling the host's Docker storage. Its main process is a watchdog (:mod:`.lease`) that ends the
container when the inspector stops renewing its lease, or after the wall clock.

The service runs as uid 1000 in ``/repo``. The golden tests run inside the same container
against ``127.0.0.1:<port>``, like the stock harness, but out of the service's reach: the suite
is staged in ``/golden`` (root-owned, read-only), pytest runs from there as its own user (uid
1001, :data:`.images.RUNNER_UID`) with its own root-owned environment (``/opt/runner``) and the
isolated runner of :mod:`inspector.services.suite.golden` (the repo's conftest files, pytest
configuration and plugins are never loaded), and writes its report into ``/report`` (0700, uid
1001). The suite's digest is checked before and after every run; what the service was seen doing
to the tests or the report is recorded as tampering on the run. The inspector reaches the
service only through ``docker exec`` (see :mod:`.forward`), never over a network.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.model import Phase, PhaseStatus
from inspector.model.repo.tampering import TamperFinding
from inspector.model.results.sample import NotEvaluable
from inspector.services.deploy.backend import (
    HEALTH_PATHS,
    PhaseOutcome,
    SampleJob,
    TestRun,
    base_url_env,
    no_entry_point,
    tests_outcome,
)
from inspector.services.deploy.start_command import find_start_command
from inspector.services.logs.phase_log import PhaseLog, now_iso
from inspector.services.sandbox.container_exec import ExecHandle, exec_io, run_exec, start_exec
from inspector.services.sandbox.engine import (
    LABEL,
    LABEL_EXPIRES,
    LABEL_KIND,
    LABEL_OWNER,
    LABEL_SAMPLE,
    connect,
    owner_label,
)
from inspector.services.sandbox.images import (
    REPO_VENV,
    RUNNER_UID,
    RUNNER_VENV,
    BaseImageMissing,
    ensure_sample_image,
)
from inspector.services.sandbox.lease import LEASE_DIR, LEASE_TMPFS, Heartbeat, watchdog_command
from inspector.services.sandbox.repo_archive import SANDBOX_UID, RepoTooLarge, repo_tar, tar_space
from inspector.services.suite.golden import (
    digest_finding,
    golden_tar,
    repo_data_files,
    runner_command,
    tar_digest,
    task_config,
)
from inspector.services.suite.reach import (
    NAMES_FILE,
    RunnerNames,
    ShadowGuard,
    classify,
    list_root_script,
    root_entries,
    scan_command,
    suite_imports,
    suite_own_names,
)

if TYPE_CHECKING:
    import docker
    from docker.models.containers import Container
    from docker.types import Ulimit

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


MiB = 2**20
IMAGE_CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"  # the base image's ca-certificates
_CA_VARS = ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "PIP_CERT")
HOME_MB, REPORT_MB, SHM_MB = 32, 32, 64  # small fixed tmpfs areas (/dev/shm: Docker's default)
GOLDEN, REPORT, WORKDIR = "/golden", "/report", "/repo"
RUNNER_USER = f"{RUNNER_UID}:{SANDBOX_UID}"  # its own uid; the repo's group (reads /repo)
SERVICE_USER = f"{SANDBOX_UID}:{SANDBOX_UID}"


@dataclass
class SandboxLimits:
    """Resource limits of one sandbox (defaults suit the small services of the benchmark).

    Disk: the root filesystem is read-only; ``/repo`` (the repo's files plus ``disk_mb``) and
    ``/tmp`` (``tmp_mb``) are tmpfs. tmpfs pages are charged to the sandbox's memory cgroup, so
    its limit is ``memory_mb`` plus every tmpfs size: a full disk never takes memory from the
    processes, and the processes never get more than that sum in all.
    """

    memory_mb: int = 768  # for the processes
    pids: int = 256
    cpus: float = 1.0
    lifetime: float = 3600.0  # hard wall clock: the container's main process exits after this
    disk_mb: int = 256  # free space in /repo besides the repo's own files
    tmp_mb: int = 128  # /tmp
    lease: float = 60.0  # ends this long after the inspector stopped renewing it (SIGKILL)

    def describe(self) -> str:
        return (f"memory {self.memory_mb} MiB, disk {self.disk_mb} MiB in /repo + "
                f"{self.tmp_mb} MiB in /tmp (tmpfs, counted in the memory cgroup; the rest of "
                f"the filesystem read-only), {self.pids} processes, {self.cpus:g} CPU, ends "
                f"{self.lease:.0f}s after the inspector stops renewing its lease, wall clock "
                f"{self.lifetime:.0f}s, no network")


def _mb(nbytes: int) -> int:
    return max(1, math.ceil(nbytes / MiB))


class DockerBackend:
    """Deploys generated repos in Docker sandboxes (see the module docstring)."""

    name = "docker"

    def __init__(self, client: docker.DockerClient | None = None,
                 limits: SandboxLimits | None = None, keep: bool = False,
                 allow_any_source: bool = False) -> None:
        self.client = client or connect()
        self.limits = limits or SandboxLimits()
        self.keep = keep
        self.allow_any_source = allow_any_source

    def open(self, job: SampleJob) -> DockerSession:
        return DockerSession(self, job)


class DockerSession:
    """One sandboxed deployment; ``close()`` removes the container and everything in it."""

    def __init__(self, backend: DockerBackend, job: SampleJob) -> None:
        self.backend = backend
        self.job = job
        self.container: Container | None = None
        self.service: ExecHandle | None = None
        self.heartbeat: Heartbeat | None = None
        self.golden_digest = ""  # of the staged suite, from the task's own files
        self.repo_tests_digest = ""  # of the suite's copy in the repo (tests/), as copied
        self.config: str | None = None  # the task's pytest config inside /golden
        self.site_packages = ""  # the repo environment's, importable per the suite's reach
        self.guard = ShadowGuard()  # what of the repo the golden runner may import, refusals
        self.tmpfs: dict[str, int] = {}  # writable folder -> size in MiB
        self.started_wall = 0.0
        self.runs = 0
        self._seen: set[str] = set()  # tampering kinds already reported by this session
        self._oom_noted = 0  # the sandbox's memory-kill count already reported

    def _env(self) -> dict[str, str]:
        port = self.job.port
        env = {"PORT": str(port), "HOST": "127.0.0.1", "SERVICE_PORT": str(port)}
        # the images keep the CA settings of the install containers that built them, which
        # name a bind mount only those have (an empty file here: an SSL context made at start,
        # e.g. an httpx client, failed to load it); the image's own bundle, as stock defaults
        env.update(dict.fromkeys(_CA_VARS, IMAGE_CA_BUNDLE))
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
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED, msg, None, False, started, 0,
                                not_evaluable=NotEvaluable("backend_unsupported", msg))
        try:
            image = ensure_sample_image(client, self.job.repo, self.job.task.tests_dir, log,
                                        self.job.cancel, self.job.limits.install,
                                        self.backend.allow_any_source, self.job.test_packages)
        except BaseImageMissing as exc:
            log.meta(str(exc))
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED, str(exc), None, False,
                                started, time.monotonic() - t0,
                                not_evaluable=NotEvaluable("sandbox_image_missing", str(exc)))
        if not image.ok:
            status = PhaseStatus.TIMEOUT if image.exit_code is None and not \
                self.job.cancel.is_set() else PhaseStatus.FAILED
            return PhaseOutcome(Phase.INSTALL, status, image.message, image.exit_code, False,
                                started, time.monotonic() - t0)
        tests_dir = self.job.task.tests_dir
        try:
            data = repo_tar(self.job.repo, tests_dir)
            golden = _golden_tar(tests_dir, {name: f"{WORKDIR}/{name}" for name in
                                             repo_data_files(self.job.repo)})
        except (RepoTooLarge, OSError) as exc:
            log.meta(str(exc))
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED, str(exc), None, image.cached,
                                started, time.monotonic() - t0)
        self.golden_digest = _digest_of(golden) or ""
        self.repo_tests_digest = _digest_of(data) or ""
        self.config = _task_config(tests_dir)
        lim = self.backend.limits
        self.tmpfs = {WORKDIR: _mb(tar_space(data)) + lim.disk_mb, "/tmp": lim.tmp_mb,
                      "/home/sandbox": HOME_MB, REPORT: REPORT_MB,
                      GOLDEN: _mb(tar_space(golden)) + 1}
        log.meta(f"creating the sandbox container ({lim.describe()})")
        try:
            self.container = self._create(image.tag)
            self.container.start()
            self.started_wall = time.time()
            self.heartbeat = Heartbeat(self.container, self._idle())
            problem = self._stage(data, golden)
        except Exception as exc:  # noqa: BLE001 - the engine refused, or the sandbox died
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            msg = (f"could not set up the sandbox: {problem} (infrastructure problem, not the "
                   "agent's)")
            log.meta(msg)
            return PhaseOutcome(Phase.INSTALL, PhaseStatus.FAILED, msg, None, image.cached,
                                started, time.monotonic() - t0, infrastructure=True,
                                not_evaluable=NotEvaluable("sandbox_unavailable", msg))
        assert self.container is not None  # created above, or ``problem`` says why not
        log.meta(f"sandbox {self.container.short_id} up from {image.tag} "
                 f"({time.monotonic() - t0:.1f}s); golden tests staged read-only in {GOLDEN}")
        if self.guard.reach is not None:
            log.meta(self.guard.reach.describe())
        staged = self.guard.check(root_entries(self.job.repo), "as generated")
        if staged is not None:
            log.meta(staged.detail)
        return PhaseOutcome(Phase.INSTALL, PhaseStatus.OK, image.message, 0, image.cached,
                            started, time.monotonic() - t0)

    def _idle(self) -> float:
        lim = self.backend.limits
        return lim.lifetime if self.backend.keep else lim.lease

    def _labels(self) -> dict[str, str]:
        """The service container's labels: ours, its owner, its sample, when it expires."""
        labels = {LABEL: "1", LABEL_KIND: "service", LABEL_OWNER: owner_label(),
                  LABEL_SAMPLE: f"{self.job.run_id}/{self.job.task.name}/{self.job.sample}",
                  LABEL_EXPIRES: str(int(time.time() + self.backend.limits.lifetime))}
        if self.backend.keep:
            labels["org.genesis-inspector.keep"] = "1"
        return labels

    def _create(self, tag: str) -> Container:
        lim = self.backend.limits
        labels = self._labels()
        t = self.tmpfs
        tmpfs = {
            WORKDIR: f"rw,exec,nosuid,nodev,size={t[WORKDIR]}m,uid={SANDBOX_UID},"
                     f"gid={SANDBOX_UID},mode=0775",
            "/tmp": f"rw,exec,nosuid,nodev,size={t['/tmp']}m,mode=1777",
            "/home/sandbox": f"rw,exec,nosuid,nodev,size={t['/home/sandbox']}m,"
                             f"uid={SANDBOX_UID},gid={SANDBOX_UID},mode=0755",
            GOLDEN: f"rw,noexec,nosuid,nodev,size={t[GOLDEN]}m,mode=0755",
            REPORT: f"rw,noexec,nosuid,nodev,size={t[REPORT]}m,uid={RUNNER_UID},"
                    f"gid={RUNNER_UID},mode=0700",
            LEASE_DIR: LEASE_TMPFS,
        }
        memory = lim.memory_mb + sum(t.values()) + SHM_MB + 1
        return self.backend.client.containers.create(
            tag, watchdog_command(self._idle(), lim.lifetime), init=True, network_mode="none",
            user="0:0", working_dir=WORKDIR, hostname="sandbox", read_only=True, tmpfs=tmpfs,
            mem_limit=f"{memory}m", memswap_limit=f"{memory}m", pids_limit=lim.pids,
            nano_cpus=int(lim.cpus * 1e9), cap_drop=["ALL"], security_opt=["no-new-privileges"],
            labels=labels, environment=self._env(), ulimits=_ulimits(),
            auto_remove=not self.backend.keep)

    def _stage(self, repo: bytes, golden: bytes) -> str | None:
        """The repo into /repo (as the service's user) and the suite into /golden (as root,
        read-only), through tar on stdin: ``put_archive`` reaches neither a tmpfs nor a
        read-only root. Also finds the repo environment's site-packages. None when all went
        well, else what failed."""
        assert self.container is not None
        # Docker copies a mount point's mode from the image into its tmpfs: set them here
        code, _, err = exec_io(self.container, ["/usr/bin/chmod", "0700", REPORT],
                               user=RUNNER_USER, timeout=60)
        if code != 0:
            return f"making {REPORT} private failed: {_text(err)}"
        code, _, err = exec_io(self.container, [
            "/bin/bash", "-c", f"/usr/bin/chmod 0775 {WORKDIR} && exec /usr/bin/tar -x -p -f - "
            f"-C {WORKDIR} --no-same-owner"], user=SERVICE_USER, stdin=repo, timeout=300)
        if code != 0:
            return f"copying the repo into {WORKDIR} failed: {_text(err)}"
        # root has no capabilities here, so the folders are made read-only after extracting
        code, out, err = exec_io(self.container, [
            "/bin/bash", "-c", f"/usr/bin/tar -x -f - -C {GOLDEN} --no-same-owner && "
            f"/usr/bin/find {GOLDEN} -type d -exec /usr/bin/chmod 0555 {{}} + && "
            "exec /usr/bin/python3 -I -S -c 'import sys; print(\"%d.%d\" % "
            "sys.version_info[:2])'"], user="0:0", stdin=_owner_writable(golden), timeout=120)
        if code != 0:
            return f"staging the golden tests in {GOLDEN} failed: {_text(err)}"
        self.site_packages = f"{REPO_VENV}/lib/python{out.decode().strip()}/site-packages"
        names = self._runner_names()
        if isinstance(names, str):
            return names
        tests_dir = self.job.task.tests_dir
        self.guard.reach = classify(suite_imports(tests_dir), suite_own_names(tests_dir), names,
                                    root_entries(self.job.repo))
        return None

    def _runner_names(self) -> RunnerNames | str:
        """What the runner image recorded of its environment (:data:`.suite_reach.NAMES_FILE`),
        or, for an image without a readable record, a scan of it in the sandbox now; a string
        says why neither worked."""
        assert self.container is not None
        _, out, _ = exec_io(self.container, ["/usr/bin/cat", f"{RUNNER_VENV}/{NAMES_FILE}"],
                            user=RUNNER_USER, timeout=60)
        with contextlib.suppress(ValueError, AttributeError):
            return RunnerNames.from_json(out.decode("utf-8", "replace"))
        code, out, err = exec_io(self.container, [
            "/bin/bash", "-c", 'exec "$@" ' + f"{RUNNER_VENV}/lib/python3*/site-packages",
            "scan", *scan_command(f"{RUNNER_VENV}/bin/python", [])],
            user=RUNNER_USER, timeout=300)
        try:
            return RunnerNames.from_json(out.decode("utf-8", "replace"))
        except (ValueError, AttributeError):
            return (f"reading what the test runner's environment provides failed "
                    f"(exit {code}): {_text(err) or 'no output'}")

    def _root_entries(self) -> list[str] | None:
        """The names at the top of /repo in the sandbox now (None: could not be read)."""
        assert self.container is not None
        code, out, _ = exec_io(self.container, ["/usr/bin/python3", "-I", "-S", "-c",
                                                list_root_script(), WORKDIR],
                               user=RUNNER_USER, timeout=60)
        try:
            entries = json.loads(out.decode("utf-8", "replace")) if code == 0 else None
        except ValueError:
            return None
        return [str(e) for e in entries] if isinstance(entries, list) else None

    def start(self, log: PhaseLog) -> PhaseOutcome:
        started, t0 = now_iso(), time.monotonic()
        assert self.container is not None
        found = self._start_command()
        if found is None:
            return no_entry_point(log, started)
        cmd, how = found
        log.meta(f"entry point: {how}")
        log.meta("$ " + " ".join(cmd) + f"   (cwd: /repo in the sandbox, PORT={self.job.port})")
        try:
            # umask 002: what the service creates stays writable by its group, as the test
            # runner (another user in that group) may need, as in a stock run
            self.service = start_exec(self.container, cmd, lambda s, t: log.write(t, s),
                                      limit=self.backend.limits.lifetime,
                                      env=self._service_env(),
                                      lines_sink=lambda s, texts: log.write_many(texts, s),
                                      umask="002")
        except Exception as exc:  # noqa: BLE001 - e.g. the pid limit is already exhausted
            msg = f"could not start: {exc}"
            log.meta(msg)
            return PhaseOutcome(Phase.START, PhaseStatus.FAILED, msg, None, False, started,
                                time.monotonic() - t0, lenient_ok=False)
        return PhaseOutcome(Phase.START, PhaseStatus.OK, f"started ({how})", None, False,
                            started, time.monotonic() - t0)

    def _start_command(self) -> tuple[list[str], str] | None:
        """What the stock entrypoint would start, and how it was found (None: nothing)."""
        return find_start_command(self.job.repo, self.job.port)

    def _service_env(self) -> dict[str, str]:
        return self._env()

    def wait_ready(self, log: PhaseLog) -> PhaseOutcome:
        started, t0 = now_iso(), time.monotonic()
        assert self.container is not None and self.service is not None
        port, limit = self.job.port, self.job.limits.startup
        log.meta(f"waiting up to {limit:.0f}s for 127.0.0.1:{port} (inside the sandbox)")
        lines: list[str] = []
        pidfile = f"/tmp/gi-exec-{self.service.token}.pid"
        try:
            code = run_exec(self.container, ["/usr/bin/python3", "-I", "-c", _READY, str(port),
                                             str(limit), pidfile, *HEALTH_PATHS],
                            lambda s, t: lines.append(t) if s == "out" else log.write(t, s),
                            limit=limit + 10, cancel=self.job.cancel)
        except Exception as exc:  # noqa: BLE001 - exec refused (pid limit, container gone)
            log.meta(f"readiness probe could not run: {exc}")
            code = None
        report: dict[str, object] = {}
        for line in lines:
            with contextlib.suppress(ValueError):
                report = json.loads(line)
        state = report.get("state")
        elapsed = _float(report.get("elapsed", time.monotonic() - t0))
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
        if self.container is None or not self.site_packages:
            return TestRun(PhaseOutcome(Phase.TESTS, PhaseStatus.SKIPPED, "no sandbox", None,
                                        False, started, 0.0), None, None)
        rootdir = str(Path(self.config).parent) if self.config else GOLDEN
        junit = self.job.out_dir / "junit.xml"
        junit.parent.mkdir(parents=True, exist_ok=True)
        junit.unlink(missing_ok=True)

        def failed(msg: str, code: int | None, found: list[TamperFinding]) -> TestRun:
            log.meta(msg)
            return TestRun(PhaseOutcome(Phase.TESTS, PhaseStatus.FAILED, msg, code, False,
                                        started, time.monotonic() - t0), None, code, GOLDEN,
                           rootdir, tampering=found)

        before = digest_finding(self.golden_digest, self._golden_before(), "before")
        if before is not None:
            return failed(before.detail, None, [before])
        guard = self.guard
        if guard.reach is not None and guard.reach.root:
            entries = self._root_entries()
            if entries is None:
                return failed("could not list the repo root before the tests (the sandbox "
                              "did not answer); not run", None, self._observe())
            guard.check(entries, "written after start.sh ran")
        if guard.refusals:
            return failed(guard.refusals[-1].detail, None,
                          [*guard.refusals[::-1], *self._observe()])
        self.runs += 1
        remote = f"{REPORT}/junit-{self.runs}.xml"
        cmd = runner_command(f"{RUNNER_VENV}/bin/python", GOLDEN, WORKDIR, test_ids, remote,
                             self.config, *guard.runner_args(WORKDIR, [self.site_packages]))
        shown = ["pytest", *cmd[cmd.index("--") + 1:]]
        log.meta("$ " + " ".join(shown) + f"   (in the sandbox: from {GOLDEN} as uid "
                 f"{RUNNER_UID}, tests run in {WORKDIR}; repo conftest, config and plugins "
                 "kept out)")
        env = {**self._env(), "PATH": f"{RUNNER_VENV}/bin:/usr/bin:/bin",
               "VIRTUAL_ENV": RUNNER_VENV, "HOME": REPORT}
        try:
            code = run_exec(self.container, cmd, lambda s, t: log.write(t, s),
                            limit=self.job.limits.tests, env=env, cancel=self.job.cancel,
                            workdir=GOLDEN, user=RUNNER_USER,
                            lines_sink=lambda s, texts: log.write_many(texts, s))
        except Exception as exc:  # noqa: BLE001 - exec refused (pid limit, container gone)
            return failed(f"could not run the tests: {exc}" + self.limits_note(), None,
                          self._observe())
        if code == 137:  # timeout -s KILL
            code = None
        report, golden_now = self._collect(remote)
        found = self._observe()
        after = digest_finding(self.golden_digest, golden_now, "after")
        if after is not None:
            return failed(after.detail, code, [after, *found])
        if report:
            junit.write_bytes(report)
        for f in found:
            log.meta(f"tampering observed: {f.detail}")
        outcome = tests_outcome(code, self.job.cancel.is_set(), self.job.limits.tests, started,
                                time.monotonic() - t0)
        memory = self._memory_note()
        if memory:
            log.meta(f"sandbox {memory}")
            outcome = replace(outcome, message=f"{outcome.message}; sandbox {memory}")
        return TestRun(outcome, junit if report else None, code, GOLDEN, rootdir,
                       tampering=found)

    # -- the run's integrity -------------------------------------------------------------
    def _tar(self, script: str, user: str) -> tuple[bytes, bytes] | None:
        """``(stdout, stderr)`` of a harness script that writes a tar to stdout; None when it
        failed or wrote more than the staged folders could hold."""
        assert self.container is not None
        limit = 4 * (self.tmpfs.get(GOLDEN, 1) + REPORT_MB) * MiB
        try:
            code, out, err = exec_io(self.container, ["/bin/bash", "-c", script], user=user,
                                     timeout=60, max_out=limit, workdir="/")
        except Exception:  # noqa: BLE001 - the sandbox is gone or out of processes
            return None
        return (out, err) if code == 0 and len(out) < limit else None

    def _golden_before(self) -> str | None:
        """The staged suite's digest, read as root (whom the sandboxed users cannot touch)."""
        got = self._tar(f"exec /usr/bin/tar -c -f - {GOLDEN[1:]}/tests", "0:0")
        return _digest_of(got[0], GOLDEN[1:]) if got else None

    def _collect(self, remote: str) -> tuple[bytes, str | None]:
        """The runner's report and the suite's digest, read as the runner's user once every
        process of that user is gone (nothing the run left behind can rewrite the report
        afterwards); the report is then removed. ``(b"", None)`` when unreadable."""
        name = remote[1:]
        got = self._tar("kill -KILL -1 2>/dev/null; have=; [ -f " + name + " ] && have=" + name
                        + f"; /usr/bin/tar -c -f - {GOLDEN[1:]}/tests $have; rc=$?; "
                        f"/usr/bin/rm -f {name}; exit $rc", RUNNER_USER)
        if got is None:
            return b"", None
        report = b""
        with contextlib.suppress(tarfile.TarError, OSError), \
                tarfile.open(fileobj=io.BytesIO(got[0])) as tar:
            for info in tar:
                if info.name == name and info.isfile():
                    f = tar.extractfile(info)
                    report = f.read() if f else b""
        return report, _digest_of(got[0], GOLDEN[1:])

    def _observe(self) -> list[TamperFinding]:
        """What the service was seen doing (each reported once per session): its copy of the
        golden tests (``/repo/tests``) changed, JUnit-like reports written where it can write.
        Read as the service's own user: it could only hide its own attempts, which have no
        effect anyway."""
        if {"tests_rewritten", "report_replaced"} <= self._seen:
            return []
        got = self._tar(
            f"/usr/bin/find {WORKDIR} /tmp /home/sandbox -xdev -type f -uid {SANDBOX_UID} "
            f"-name '*.xml' -size -4M -newermt @{int(self.started_wall)} -exec /usr/bin/grep "
            f"-l -s '<testsuite' {{}} + >&2; exec /usr/bin/tar -c -f - {WORKDIR[1:]}/tests",
            SERVICE_USER)
        if got is None:
            return []
        found: list[TamperFinding] = []
        copy = _digest_of(got[0], WORKDIR[1:], lambda m: m.uid != RUNNER_UID)
        if "tests_rewritten" not in self._seen and copy != self.repo_tests_digest:
            found.append(TamperFinding(
                "tests_rewritten", "", "the service changed the repo's copy of the golden "
                "tests (tests/) while it ran; the test run uses a protected copy, so this had "
                "no effect", True))
        paths = [p for p in got[1].decode(errors="replace").splitlines() if p.startswith("/")]
        if "report_replaced" not in self._seen and paths:
            shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3
                                            else "")
            found.append(TamperFinding(
                "report_replaced", "", f"the service wrote JUnit-like test reports ({shown}) "
                "while it ran; the harness reads the test runner's own report, which the "
                "service cannot reach, so they had no effect", True))
        self._seen.update(f.kind for f in found)
        return found

    def limits_note(self) -> str:
        """Which resource limit the sandbox hit, from the engine's stats and the writable
        folders' free space ("" when none)."""
        if self.container is None:
            return ""
        notes = []
        try:
            got = self.container.stats(stream=False)
        except Exception:  # noqa: BLE001
            got = {}
        stats = got if isinstance(got, dict) else {}  # one dict when not streamed
        pids = stats.get("pids_stats") or {}
        if pids.get("limit") and pids.get("current", 0) >= pids["limit"] - 2:
            notes.append(f"process limit reached ({pids['current']}/{pids['limit']})")
        memory = self._memory_note()
        mem = stats.get("memory_stats") or {}
        if memory:
            notes.append(memory)
        elif mem.get("failcnt") or (mem.get("limit") and mem.get("max_usage", 0) >=
                                    mem["limit"] * 0.98):
            notes.append(f"memory limit reached ({mem.get('limit', 0) // MiB} MiB)")
        full = self._full_folders()
        if full:
            notes.append("disk limit reached (" + ", ".join(full) + ")")
        return "; sandbox " + ", ".join(notes) if notes else ""

    def _memory_note(self) -> str:
        """``memory limit reached (…)`` when the kernel killed a sandbox process for memory
        since the last note ("" otherwise): a killed service otherwise shows only as
        "connection refused" in the tests."""
        kills = self._oom_kills()
        if kills <= self._oom_noted:
            return ""
        new, self._oom_noted = kills - self._oom_noted, kills
        return (f"memory limit reached ({self.backend.limits.memory_mb} MiB for its "
                f"processes): the kernel killed {new} process{'es' if new > 1 else ''} for "
                "memory")

    def _oom_kills(self) -> int:
        """How many processes the sandbox's memory cgroup killed (its ``oom_kill`` counter:
        ``memory.events`` on cgroup v2, ``memory.oom_control`` on v1); 0 when unreadable."""
        if self.container is None:
            return 0
        try:
            _, out, _ = exec_io(self.container, [
                "/bin/bash", "-c", "/usr/bin/cat /sys/fs/cgroup/memory.events "
                "/sys/fs/cgroup/memory/memory.oom_control 2>/dev/null; exit 0"],
                user="0:0", timeout=15)
        except Exception:  # noqa: BLE001 - the sandbox is gone or out of processes
            return 0
        return oom_kill_count(out.decode(errors="replace"))

    def _full_folders(self) -> list[str]:
        """Writable folders with (almost) no space left, as ``/tmp 128 MiB``."""
        assert self.container is not None
        folders = [WORKDIR, "/tmp", "/home/sandbox"]
        try:
            code, out, _ = exec_io(self.container, ["/usr/bin/df", "-P", "-k", *folders],
                                   user="0:0", timeout=15)
        except Exception:  # noqa: BLE001 - the sandbox is gone or out of processes
            return []
        full = []
        for line in out.decode(errors="replace").splitlines()[1:]:
            parts = line.split()
            if len(parts) >= 6 and parts[3].isdigit() and parts[1].isdigit() and \
                    int(parts[3]) < 1024:
                full.append(f"{parts[5]} {int(parts[1]) // 1024} MiB")
        return full

    def close(self) -> None:
        if self.heartbeat is not None:
            self.heartbeat.stop()
            self.heartbeat = None
        c, self.container = self.container, None
        if c is not None:
            with contextlib.suppress(Exception):
                c.remove(force=True)


def oom_kill_count(cgroup_text: str) -> int:
    """The ``oom_kill N`` count of a memory cgroup's ``memory.events`` / ``oom_control``."""
    for line in cgroup_text.splitlines():
        key, _, value = line.partition(" ")
        if key == "oom_kill" and value.strip().isdigit():
            return int(value)
    return 0


def _golden_tar(tests_dir: Path | None, links: dict[str, str]) -> bytes:
    """The staged suite (``tests/...``, root-owned, read-only; an empty ``tests/`` when the
    task has none) with the repo's data files linked beside it
    (:func:`~inspector.services.suite.golden.repo_data_files`)."""
    if tests_dir is not None:
        return golden_tar(tests_dir, 0, links)
    with tempfile.TemporaryDirectory(prefix="gi-golden-") as tmp:
        return golden_tar(Path(tmp), 0, links)


def _task_config(tests_dir: Path | None) -> str | None:
    """The task's pytest config as the runner sees it in /golden (None: no config)."""
    if tests_dir is None:
        return None
    with tempfile.TemporaryDirectory(prefix="gi-golden-") as tmp:
        (Path(tmp) / "tests").symlink_to(tests_dir.resolve(), target_is_directory=True)
        found = task_config(Path(tmp))
        if found is None:
            return None
        return f"{GOLDEN}/{found.relative_to(tmp).as_posix()}"


def _owner_writable(data: bytes) -> bytes:
    """The tar with its folders writable by their owner (extracting into a 0555 folder needs
    a capability the sandbox's root does not have)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=io.BytesIO(data)) as src, tarfile.open(fileobj=buf,
                                                                     mode="w") as dst:
        for info in src:
            if info.isdir():
                info.mode |= 0o700
            dst.addfile(info, src.extractfile(info) if info.isfile() else None)
    return buf.getvalue()


def _digest_of(data: bytes, root: str = "",
               keep: Callable[[tarfile.TarInfo], bool] = lambda m: True) -> str | None:
    """:func:`~inspector.services.suite.golden.tar_digest` of the ``tests`` folder under
    ``root`` in a tar (members ``keep`` accepts), as if it were archived on its own; None for
    an unreadable tar."""
    prefix = f"{root}/" if root else ""
    buf = io.BytesIO()
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as src, \
                tarfile.open(fileobj=buf, mode="w") as dst:
            for info in src:
                name = info.name.removeprefix("./").rstrip("/")
                if not name.startswith(prefix):
                    continue
                name = name[len(prefix):]
                if (name == "tests" or name.startswith("tests/")) and keep(info):
                    member = tarfile.TarInfo(name)
                    member.type, member.size, member.linkname = info.type, info.size, \
                        info.linkname
                    dst.addfile(member, src.extractfile(info) if info.isfile() else None)
        return tar_digest(buf.getvalue())
    except (tarfile.TarError, OSError):
        return None


def _text(err: bytes) -> str:
    lines = err.decode(errors="replace").strip().splitlines()
    return " | ".join(lines[-3:]) or "no output"


def _float(value: object) -> float:
    """``float(value)`` for a JSON value, raising the TypeError float() raises for the rest."""
    if isinstance(value, (int, float, str)):
        return float(value)
    raise TypeError("float() argument must be a string or a real number, "
                    f"not '{type(value).__name__}'")


def _ulimits() -> list[Ulimit]:
    # start-up: docker is loaded only when this runs
    from docker.types import Ulimit

    return [Ulimit(name="nofile", soft=4096, hard=4096)]
