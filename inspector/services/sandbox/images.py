"""Sandbox images: a root-owned test runner per task, then the repo's requirements on top.

Two images, each cached by what it depends on:

* the **runner image** (``genesis-inspector/runner:<hash of base + the task's
  tests/requirements.txt>``): ``/opt/runner``, the golden tests' own environment (pytest,
  requests, httpx and the task's test requirements; trusted input only), owned by root, built
  before any of the repo's requirements are seen. The test runner never executes anything the
  repo's install put anywhere: it only appends the repo environment's site-packages to
  ``sys.path`` as a plain entry (:mod:`inspector.services.suite.golden`);
* the **sample image** (``genesis-inspector/sample:<hash of base + both requirements files>``):
  the runner image plus the repo's requirements installed into ``/opt/venv`` — the environment
  the service runs in — by an **unprivileged** install container: uid 1000, every capability
  dropped, no-new-privileges, under a lease (:mod:`.lease`). It can write ``/opt/venv``, its home
  and /tmp, never ``/opt/runner`` or anything else root owns.

Only the requirements files enter an install container (never the repo's code). It is the one
step with a network (Docker's bridge: the package index must be reachable, so an sdist's build
script can reach the network too); requirement lines that point pip anywhere but the configured
index are refused before anything is installed (:mod:`inspector.model.repo.requirement_sources`)
unless the user opts out.

Installs use uv when the host has it (the ``uv`` package's executable, bind-mounted read-only;
it runs on the image's glibc), as the local backend does: several times faster than pip on a
cold install. pip stays the judge: when uv cannot install a requirements file, pip retries it
and its verdict and ``ERROR:`` lines count, as in the stock harness. Neither keeps a cache in
the committed image, and no cache is shared between install containers (an untrusted package
build must not be able to alter another sample's environment).

Both keys also cover what besides the requirements decides what an image holds: the installer
(uv or pip), the platform and the package-index settings handed to the install container
(index URLs with their credentials' identity, a hash; trusted hosts): an image built against
one index is never reused under another. Those settings reach the install through a file in
its bind mount, never its environment, so no committed image carries them
(:mod:`.pip_env`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from inspector import paths
from inspector.model.repo.requirement_sources import (
    check_requirement_sources,
    plain_requirement_problem,
)
from inspector.services.deploy.local import STOCK_BUNDLE, TEST_PACKAGES
from inspector.services.host.install_settings import identity, identity_key
from inspector.services.host.venvs import uv_binary
from inspector.services.logs.phase_log import PhaseLog
from inspector.services.sandbox.base_image import BASE_IMAGE, SANDBOX_UID, base_image_id
from inspector.services.sandbox.container_exec import follow_logs
from inspector.services.sandbox.engine import (
    LABEL,
    LABEL_KIND,
    LABEL_OWNER,
    LABEL_REQS,
    owner_label,
)
from inspector.services.sandbox.lease import (
    EXIT_LEASE,
    EXIT_WALL_CLOCK,
    LEASE_DIR,
    LEASE_TMPFS,
    Heartbeat,
    watchdog_command,
)
from inspector.services.sandbox.pip_env import (
    LOAD_SETTINGS,
    index_settings,
    pip_mounts_and_env,
    write_settings,
)
from inspector.services.suite.reach import BASE_DISTRIBUTIONS, NAMES_FILE, SCAN

if TYPE_CHECKING:
    import docker

SAMPLE_REPO = "genesis-inspector/sample"
RUNNER_REPO = "genesis-inspector/runner"
LABEL_BASE = "org.genesis-inspector.base-id"
LABEL_LAYOUT = "org.genesis-inspector.layout"
LAYOUT = "6"  # bump when what the images hold changes: older images are then stale
# 4: keys cover the installer and the index settings, and images no longer carry the index
# settings of the process that built them (older images are removed as stale after an hour);
# 5, 6: the runner image records what its environment provides and imports
# (suite_reach.NAMES_FILE; images of earlier layouts built while that was being written lack
# it, or hold an older form; the sandbox scans such an image when it is used)
RUNNER_VENV = "/opt/runner"  # the golden tests' environment, root-owned
REPO_VENV = "/opt/venv"  # the repo's environment (the service's), installed as SANDBOX_UID
RUNNER_UID = 1001  # the test runner's user: not the service's, so the service cannot touch it
INSTALL_LEASE = 60.0  # an install container ends this long after its inspector is gone


class BaseImageMissing(RuntimeError):
    """``inspector sandbox init`` has not been run on this engine."""


@dataclass
class ImageResult:
    ok: bool
    tag: str
    cached: bool
    exit_code: int | None
    message: str
    seconds: float = 0.0


def install_identity() -> str:
    """What besides the requirements decides what an install container installs: the
    installer, the platform and this process's index settings (credentials hashed)."""
    uv = _uv_mount()[0] != []
    return identity(index_settings(uv), "uv" if uv else "pip")


def requirements_hash(base_id: str, requirements: str | None, test_requirements: str | None,
                      test_packages: tuple[str, ...] = (), install: str | None = None) -> str:
    """What a sample image depends on: the base image, the layout, the installer and index
    settings (``install``, default :func:`install_identity`), both requirements files and the
    extra packages of its test runner (none in an evaluation)."""
    install = install_identity() if install is None else install
    h = hashlib.sha256(f"{base_id}|layout {LAYOUT}|install {identity_key(install)}".encode())
    for part in (requirements, test_requirements):
        h.update(b"\0" + (b"-" if part is None else part.encode()))
    if test_packages:  # the hash of every image without extras stays what it was
        h.update(b"\0runner extras\0" + "\0".join(test_packages).encode())
    return h.hexdigest()[:24]


def runner_hash(base_id: str, test_requirements: str | None,
                test_packages: tuple[str, ...] = (), install: str | None = None) -> str:
    """What a runner image depends on: the base image, the layout, the installer and index
    settings, the task's test requirements and the extra packages asked for."""
    return requirements_hash(base_id, "runner", test_requirements, test_packages, install)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
    except OSError:
        return None


@contextlib.contextmanager
def _file_lock(name: str) -> Iterator[None]:
    d = paths.cache_root() / "sandbox-locks"
    d.mkdir(parents=True, exist_ok=True)
    fd = os.open(d / f"{name}.lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


CONTAINER_UV = "/gi-uv/uv"


def _installer_lines(python: str, uv: bool) -> list[str]:
    """Shell functions ``inst WHAT ARGS...``: uv first (when it runs), pip judging failures.

    Every install prints a ``>>> <installer> install ...`` line before its output, so each
    command's output stays one contiguous section of the log.
    """
    pip = f"{python} -m pip install --no-input --disable-pip-version-check --no-cache-dir"
    lines = [LOAD_SETTINGS, "set -u", f"pip_() {{ {pip} \"$@\"; }}"]
    if uv:
        lines += [
            f"if {CONTAINER_UV} --version >/dev/null 2>&1; then use_uv=1; else use_uv=0; "
            "echo 'uv does not run in this image; installing with pip'; fi",
            "inst() { what=$1; shift",
            "  if [ $use_uv = 1 ]; then echo \">>> uv pip install $what\"",
            f"    {CONTAINER_UV} pip install --no-cache --python {python} \"$@\" && return 0",
            "    echo '>>> uv could not install these requirements; retrying with pip, whose "
            "verdict counts (the stock harness installs with pip)'; fi",
            "  echo \">>> pip install $what\"; pip_ \"$@\"; }",
        ]
    else:
        lines += ["inst() { what=$1; shift; echo \">>> pip install $what\"; pip_ \"$@\"; }"]
    return lines


def _runner_script(has_test_reqs: bool, uv: bool = False,
                   test_packages: tuple[str, ...] = ()) -> str:
    """The runner image's script (root, trusted input only): ``/opt/runner`` from the base
    image's pytest environment plus the task's test requirements, byte-compiled, root-owned;
    ``/opt/venv`` handed to the sandbox user for the repo's own install; the runner's user.

    ``test_packages`` (a causal re-run's remedy, checked plain names from the index) go into
    ``/opt/runner`` only, from wheels only: no package build script runs as root."""
    lines = _installer_lines(f"{RUNNER_VENV}/bin/python", uv)
    lines += [f"cp -a {REPO_VENV} {RUNNER_VENV} || exit 91"]
    if has_test_reqs:
        lines += ["inst '-r tests/requirements.txt (test runner)' "
                  "-r /gi-req/tests-requirements.txt || exit 90"]
    if test_packages:
        lines += ["inst '" + " ".join(test_packages) + " (remedy: test runner only, wheels "
                  "only)' --only-binary :all: -r /gi-req/runner-extras.txt || exit 92"]
    lines += [
        f"{RUNNER_VENV}/bin/python -m compileall -q {RUNNER_VENV}/lib >/dev/null 2>&1 || true",
        # what the runner provides and imports, for the golden runner's reach (suite_reach)
        f"{RUNNER_VENV}/bin/python -I - {','.join(BASE_DISTRIBUTIONS)} {RUNNER_VENV}/lib/python3*/"
        f"site-packages > {RUNNER_VENV}/{NAMES_FILE} <<'GI_SCAN' || exit 93\n{SCAN}\nGI_SCAN",
        f"chown -R {SANDBOX_UID}:{SANDBOX_UID} {REPO_VENV} || exit 91",
        f"echo 'gi-runner:x:{RUNNER_UID}:{SANDBOX_UID}:golden test runner:/report:"
        "/usr/sbin/nologin' >> /etc/passwd || exit 91",
        # mount points: Docker gives a tmpfs the mode of the folder it is mounted on
        f"mkdir -p /golden /report {LEASE_DIR} && chmod 0755 /golden {LEASE_DIR} && "
        f"chmod 0700 /report && chown {RUNNER_UID}:{RUNNER_UID} /report || exit 91",
        "echo '>>> test runner ready'",
    ]
    return "\n".join(lines) + "\n"


def _install_script(has_reqs: bool, has_test_reqs: bool, uv: bool = False) -> str:
    """The sample image's script, run unprivileged: the repo's requirements (or the stock
    default bundle), then the test packages the stock harness also installs into the repo's
    environment, into ``/opt/venv``."""
    lines = _installer_lines(f"{REPO_VENV}/bin/python", uv)
    lines += ["echo \">>> installing as uid $(id -u) gid $(id -g); $(grep -E "
              "'^(CapEff|NoNewPrivs)' /proc/self/status | tr -s '\\t\\n' '  ')\""]
    if has_reqs:
        lines += ["inst '-r requirements.txt' -r /gi-req/requirements.txt; rc=$?"]
    else:
        lines += ["echo 'no requirements.txt at the repo root; installing the stock "
                  "harness default bundle: " + " ".join(STOCK_BUNDLE) + "'",
                  "inst '(default bundle)' " + " ".join(STOCK_BUNDLE) + "; rc=$?"]
    if has_test_reqs:
        lines += ["inst '-r tests/requirements.txt (golden tests)' "
                  "-r /gi-req/tests-requirements.txt || exit 90"]
    lines += [f"inst '{' '.join(TEST_PACKAGES)} (as the stock harness does)' "
              + " ".join(TEST_PACKAGES) + " || exit 91",
              # bytecode now: at run time the environment is read-only (and pip would have)
              f"[ $rc = 0 ] && {REPO_VENV}/bin/python -m compileall -q -j 0 {REPO_VENV}/lib "
              ">/dev/null 2>&1", "exit $rc"]
    return "\n".join(lines) + "\n"


def _uv_mount() -> tuple[list[docker.types.Mount], dict[str, str]]:
    """The host's uv executable, read-only, and its settings (none: pip only); the index
    settings come with :func:`.pip_env.pip_mounts_and_env`."""
    from docker.types import Mount

    if os.environ.get("GENESIS_INSTALLER", "auto") == "pip":
        return [], {}
    found = uv_binary()
    if not found or not Path(found).is_file():
        return [], {}
    env = {"UV_LINK_MODE": "copy", "UV_NO_PROGRESS": "1"}
    return [Mount(CONTAINER_UV, str(Path(found).resolve()), type="bind", read_only=True)], env


def ensure_sample_image(client: docker.DockerClient, repo: Path, tests_dir: Path | None,
                        log: PhaseLog, cancel: threading.Event, timeout: float = 600.0,
                        allow_any_source: bool = False, test_packages: tuple[str, ...] = ()
                        ) -> ImageResult:
    """The image for ``repo``'s requirements (on the task's runner image), built if missing;
    installer output goes to ``log``. Requirements pointing anywhere but the configured index
    fail here, before any cached image is reused, unless ``allow_any_source``.

    ``test_packages``: extra packages for the test runner's environment only (a causal
    re-run's remedy); each must be a plain requirement from the configured index, always."""
    t0 = time.monotonic()
    base_id = base_image_id(client)
    if base_id is None:
        raise BaseImageMissing(f"the sandbox base image {BASE_IMAGE} is missing on this engine; "
                               "build it once with `inspector sandbox init`")
    reqs = _read(repo / "requirements.txt")
    test_reqs = _read(tests_dir / "requirements.txt") if tests_dir else None
    if reqs is not None and not allow_any_source:
        problems = check_requirement_sources(reqs)
        if problems:
            for p in problems:
                log.meta("refused: " + p.message())
            return ImageResult(False, "", False, 1, problems[0].message(),
                               time.monotonic() - t0)
    bad = plain_requirement_problem(test_packages)
    if bad:
        log.meta("refused: " + bad)
        return ImageResult(False, "", False, 1, bad, time.monotonic() - t0)
    runner = _ensure_runner_image(client, base_id, test_reqs, log, cancel, timeout,
                                  test_packages)
    if not runner.ok:
        if runner.exit_code != 92:  # 92: the extra packages, not the harness, failed
            runner.message = ("building the test runner failed (harness problem): "
                              f"{runner.message}")
        return runner
    install = install_identity()
    key = requirements_hash(base_id, reqs, test_reqs, test_packages, install)
    tag = f"{SAMPLE_REPO}:{key}"
    with _file_lock(f"image-{key}"):
        if _exists(client, tag):
            log.meta(f"reusing sandbox image {tag} (requirements hash {key}; {install})")
            return ImageResult(True, tag, True, 0, "cached image reused",
                               time.monotonic() - t0)
        log.meta(f"building sandbox image {tag} from {runner.tag} (requirements hash {key}; "
                 f"{install}); installing as uid {SANDBOX_UID} with no capabilities")
        files = {"requirements.txt": reqs, "tests-requirements.txt": test_reqs}
        script = _install_script(reqs is not None, test_reqs is not None, _uv_mount()[0] != [])
        code, message = _build(client, runner.tag, script, files, f"{SANDBOX_UID}:{SANDBOX_UID}",
                               [], tag, "sample-image", key, base_id, log, cancel, timeout)
        return ImageResult(code == 0, tag, False, code, message, time.monotonic() - t0)


def _ensure_runner_image(client: docker.DockerClient, base_id: str, test_reqs: str | None,
                         log: PhaseLog, cancel: threading.Event, timeout: float,
                         test_packages: tuple[str, ...] = ()) -> ImageResult:
    t0 = time.monotonic()
    key = runner_hash(base_id, test_reqs, test_packages)
    tag = f"{RUNNER_REPO}:{key}"
    with _file_lock(f"runner-{key}"):
        if _exists(client, tag):
            return ImageResult(True, tag, True, 0, "cached runner image reused",
                               time.monotonic() - t0)
        log.meta(f"building the test runner image {tag} from {BASE_IMAGE}: {RUNNER_VENV}, "
                 "root-owned, out of the repo's reach")
        script = _runner_script(test_reqs is not None, _uv_mount()[0] != [], test_packages)
        extras = "".join(f"{p}\n" for p in test_packages) or None
        code, message = _build(client, BASE_IMAGE, script,
                               {"tests-requirements.txt": test_reqs,
                                "runner-extras.txt": extras}, "0:0", ["CHOWN"], tag,
                               "runner-image", key, base_id, log, cancel, timeout)
        return ImageResult(code == 0, tag, False, code, message, time.monotonic() - t0)


def _exists(client: docker.DockerClient, tag: str) -> bool:
    from docker.errors import ImageNotFound

    try:
        client.images.get(tag)
        return True
    except ImageNotFound:
        return False


def _build(client: docker.DockerClient, image: str, script: str, files: dict[str, str | None],
           user: str, cap_add: list[str], tag: str, kind: str, key: str, base_id: str,
           log: PhaseLog, cancel: threading.Event, timeout: float) -> tuple[int | None, str]:
    """Run ``script`` in a container from ``image`` (``files`` in ``/gi-req``, read-only) and
    commit it as ``tag``; ``(exit code, message)``, None when it timed out or was cancelled."""
    tmp = Path(tempfile.mkdtemp(prefix="gi-req-"))
    try:
        for name, text in files.items():
            if text is not None:
                (tmp / name).write_text(text, encoding="utf-8")
        os.chmod(tmp, 0o755)
        return _run_install(client, image, script, tmp, user, cap_add, tag, kind, key, base_id,
                            log, cancel, timeout)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run_install(client: docker.DockerClient, image: str, script: str, req_dir: Path,
                 user: str, cap_add: list[str], tag: str, kind: str, key: str, base_id: str,
                 log: PhaseLog, cancel: threading.Event, timeout: float
                 ) -> tuple[int | None, str]:
    """The install container: ``user``, every capability dropped but ``cap_add``,
    no-new-privileges, Docker's bridge network (the index), under a lease and a wall clock."""
    from docker.types import Mount

    uv_mounts, uv_env = _uv_mount()
    mounts, settings = pip_mounts_and_env(uv=bool(uv_mounts))
    mounts.append(Mount("/gi-req", str(req_dir), type="bind", read_only=True))
    mounts += uv_mounts
    settings.update(uv_env)
    # the settings reach the script through /gi-req, never the container's environment,
    # which the committed image would keep (LOAD_SETTINGS)
    write_settings(req_dir, settings, int(user.partition(":")[0]))
    env = {"HOME": "/root" if user.startswith("0:") else "/home/sandbox"}
    container = client.containers.create(
        image, watchdog_command(INSTALL_LEASE, timeout + 60, ["/bin/bash", "-c", script]),
        init=True, environment=env, mounts=mounts, network_mode="bridge", mem_limit="2g",
        memswap_limit="2g", pids_limit=1024, user=user, cap_drop=["ALL"], cap_add=cap_add or None,
        security_opt=["no-new-privileges"], tmpfs={LEASE_DIR: LEASE_TMPFS},
        labels={LABEL: "1", LABEL_KIND: "install", LABEL_OWNER: owner_label(),
                LABEL_REQS: key})
    heartbeat: Heartbeat | None = None
    try:
        container.start()
        heartbeat = Heartbeat(container, INSTALL_LEASE)
        stopped = follow_logs(container, log.write, cancel, timeout)
        if stopped is not None:
            msg = "cancelled" if stopped == "cancelled" else f"pip install {stopped}"
            log.meta(msg)
            return None, msg
        code = int(container.wait(timeout=60).get("StatusCode", -1))
        if code in (EXIT_LEASE, EXIT_WALL_CLOCK):
            return None, "the install container ended itself (lease or wall clock)"
        if code != 0:
            err = next((t for t in reversed(log.tail) if "ERROR" in t), "")
            what = {90: "installing the golden tests' requirements failed (harness problem)",
                    91: "installing the test runner failed (harness problem)",
                    92: "installing the extra test packages failed"}.get(
                code, f"pip install failed (exit {code})")
            return code, f"{what}: {err}" if err else what
        repo, _, version = tag.partition(":")
        container.commit(repository=repo, tag=version, changes=[
            "USER 1000:1000", "WORKDIR /repo", 'CMD ["bash"]', f"LABEL {LABEL}=1",
            f"LABEL {LABEL_KIND}={kind}", f"LABEL {LABEL_REQS}={key}",
            f"LABEL {LABEL_BASE}={base_id}", f"LABEL {LABEL_LAYOUT}={LAYOUT}"])
        log.meta(f"committed {tag}")
        return 0, "dependencies installed"
    finally:
        if heartbeat is not None:
            heartbeat.stop()
        with contextlib.suppress(Exception):
            container.remove(force=True)


def stale_sample_images(client: docker.DockerClient) -> list[str]:
    """Tags of sample and runner images built on a base image that is no longer the current
    one, or in another layout more than an hour ago (an inspector of another version may
    still be about to use a fresh one)."""
    current = base_image_id(client)
    out = []
    for repo in (SAMPLE_REPO, RUNNER_REPO):
        for img in client.images.list(repo):
            labels = img.labels or {}
            other_layout = labels.get(LABEL_LAYOUT) != LAYOUT and _age(img) > 3600
            if labels.get(LABEL_BASE) != current or other_layout:
                out += img.tags or ([img.id] if img.id else [])
    return out


def _age(img: object) -> float:
    """Seconds since the image was created (0 when unknown)."""
    from datetime import datetime

    created = str(getattr(img, "attrs", {}).get("Created", ""))[:19]
    try:
        then = datetime.strptime(created + "+0000", "%Y-%m-%dT%H:%M:%S%z").timestamp()
    except ValueError:
        return 0.0
    return time.time() - then
