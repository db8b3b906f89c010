"""``inspector sandbox init``: the sandbox base image, built locally without Docker Hub.

A Debian root filesystem is made with ``debootstrap --variant=minbase`` from the mirror the
machine's apt configuration already uses, imported with ``docker import``, and finished in a
container that creates ``/opt/venv`` (pytest, requests, httpx: what the stock harness always
installs for the golden tests), an unprivileged ``sandbox`` user and ``/repo``. pip inside that
container reaches the package index through the host's CA bundle, mounted read-only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from inspector.services.sandbox.apt_sources import AptSource, debian_mirror
from inspector.services.sandbox.container_exec import follow_logs
from inspector.services.sandbox.engine import LABEL, LABEL_KIND
from inspector.services.sandbox.pip_env import LOAD_SETTINGS, pip_mounts_and_env, write_settings

if TYPE_CHECKING:
    import docker
    from docker.types import Mount

BASE_REPO = "genesis-inspector/base"
BASE_VERSION = "1"
BASE_IMAGE = f"{BASE_REPO}:{BASE_VERSION}"
PACKAGES = ("python3", "python3-venv", "ca-certificates", "procps")
TEST_RUNNER = ("pytest", "requests", "httpx")
SANDBOX_UID = 1000
IMAGE_ENV = {
    "PATH": "/opt/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "VIRTUAL_ENV": "/opt/venv",
    "PYTHONUNBUFFERED": "1",
    "PYTHONDONTWRITEBYTECODE": "1",
    "LANG": "C.UTF-8",
    "HOME": "/home/sandbox",
}

Say = Callable[[str], None]


class InitError(RuntimeError):
    """Building the base image failed; the message names the step and what to do."""


@dataclass
class InitResult:
    image: str
    image_id: str
    built: bool  # False when an existing image was kept
    seconds: float
    mirror: str = ""
    suite: str = ""


def base_image_id(client: docker.DockerClient) -> str | None:
    """The id of the base image, or None when ``inspector sandbox init`` has not run."""
    # start-up: docker is loaded only when this runs
    from docker.errors import ImageNotFound

    try:
        return str(client.images.get(BASE_IMAGE).id)
    except ImageNotFound:
        return None


def _run(cmd: list[str], say: Say, cancel: threading.Event, what: str) -> None:
    say("$ " + " ".join(cmd))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True, errors="replace")
    assert proc.stdout is not None
    tail: list[str] = []

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            line = line.rstrip()
            tail.append(line)
            del tail[:-20]
            say(line)

    t = threading.Thread(target=pump, daemon=True)
    t.start()
    while proc.poll() is None:
        if cancel.is_set():
            proc.kill()
            proc.wait()
            raise InitError(f"{what}: cancelled")
        time.sleep(0.2)
    t.join(timeout=5)
    if proc.returncode != 0:
        raise InitError(f"{what} failed (exit {proc.returncode}): "
                        + (" | ".join(tail[-3:]) or "no output"))


def build_rootfs(dest: Path, source: AptSource, say: Say, cancel: threading.Event) -> None:
    """``debootstrap --variant=minbase`` into ``dest`` (needs root and debootstrap)."""
    if shutil.which("debootstrap") is None:
        raise InitError("debootstrap is not installed (as root: apt-get install -y debootstrap)")
    if os.geteuid() != 0:
        raise InitError("debootstrap needs root; run `inspector sandbox init` as root")
    _run(["debootstrap", "--variant=minbase", "--include=" + ",".join(PACKAGES),
          source.suite, str(dest), source.uri], say, cancel, "debootstrap")


def _import_rootfs(client: docker.DockerClient, rootfs: Path, tag: str, say: Say,
                   cancel: threading.Event) -> str:
    with tempfile.NamedTemporaryFile(suffix=".tar", dir=rootfs.parent) as tar:
        _run(["tar", "--numeric-owner", "-C", str(rootfs), "--exclude=./proc/*",
              "--exclude=./sys/*", "--exclude=./dev/*", "--exclude=./var/cache/apt/archives/*",
              "--exclude=./var/lib/apt/lists/*", "-cf", tar.name, "."], say, cancel, "tar")
        say(f"docker import ({Path(tar.name).stat().st_size / 1e6:.0f} MB) as {tag}")
        repo, _, version = tag.partition(":")
        client.api.import_image(src=tar.name, repository=repo, tag=version,
                                changes=[f"LABEL {LABEL}=1", f"LABEL {LABEL_KIND}=rootfs"])
    return str(client.images.get(tag).id)


def _finish(client: docker.DockerClient, raw: str, say: Say, cancel: threading.Event,
            timeout: float) -> str:
    """Run the finishing script in a container from ``raw`` and commit it as the base image."""
    packages = " ".join(TEST_RUNNER)
    script = (
        LOAD_SETTINGS + "\n"
        "set -eu\n"
        "python3 -m venv /opt/venv\n"
        "/opt/venv/bin/pip install --disable-pip-version-check --no-input --upgrade pip\n"
        f"/opt/venv/bin/pip install --disable-pip-version-check --no-input {packages}\n"
        f"useradd --uid {SANDBOX_UID} --create-home --shell /bin/bash sandbox\n"
        f"mkdir -p /repo && chown {SANDBOX_UID}:{SANDBOX_UID} /repo\n"
        "rm -rf /root/.cache /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \\\n"
        "  /usr/share/doc/* /usr/share/man/* /usr/share/info/* /usr/share/locale/*\n"
        "echo base-ready\n"
    )
    # start-up: docker is loaded only when this runs
    from docker.types import Mount

    mounts, settings = pip_mounts_and_env()
    # the index settings reach the script through a file, never the container's
    # environment, which the committed base image (and every image on it) would keep
    settings_dir = Path(tempfile.mkdtemp(prefix="gi-init-"))
    os.chmod(settings_dir, 0o755)
    write_settings(settings_dir, settings, 0)
    mounts.append(Mount("/gi-req", str(settings_dir), type="bind", read_only=True))
    try:
        return build_by_script(
            client, raw, script, BASE_IMAGE, "base", say, cancel, timeout, mounts=mounts,
            failure=f"while installing {packages}: pip inside the container could not reach "
                    "the package index. Check the host's CA bundle "
                    "(/etc/ssl/certs/ca-certificates.crt) and that containers on the default "
                    "bridge network can reach it")
    finally:
        shutil.rmtree(settings_dir, ignore_errors=True)


def build_by_script(client: docker.DockerClient, image: str, script: str, tag: str, kind: str,
                    say: Say, cancel: threading.Event, timeout: float, *,
                    mounts: list[Mount] | None = None, failure: str = "") -> str:
    """Run ``script`` as root in a container from ``image`` on Docker's bridge (to reach the
    apt mirror or the package index), then commit it as ``tag`` with the sandbox images'
    environment and ``kind`` label; the container is removed either way. Returns the image
    id; raises :class:`InitError` naming ``kind`` and ``failure`` when the script fails."""
    container = client.containers.create(
        image, ["bash", "-c", script], user="0:0", mounts=mounts or [],
        labels={LABEL: "1", LABEL_KIND: "init"}, mem_limit="2g", network_mode="bridge")
    try:
        container.start()
        stopped = follow_logs(container, say, cancel, timeout)
        if stopped is not None:
            raise InitError(f"building the {kind} image: {stopped}")
        code = container.wait(timeout=60).get("StatusCode")
        if code != 0:
            raise InitError(f"building the {kind} image failed (exit {code}) {failure}")
        changes = [f"ENV {k}={v}" for k, v in IMAGE_ENV.items()]
        changes += ["WORKDIR /repo", f"LABEL {LABEL}=1", f"LABEL {LABEL_KIND}={kind}",
                    'CMD ["bash"]']
        repo, _, version = tag.partition(":")
        return str(container.commit(repository=repo, tag=version, changes=changes).id)
    finally:
        container.remove(force=True)


def init_base_image(client: docker.DockerClient, *, force: bool = False,
                    source: AptSource | None = None, say: Say = lambda s: None,
                    cancel: threading.Event | None = None, work_dir: Path | None = None,
                    timeout: float = 900.0) -> InitResult:
    """Build (or keep) the base image. Idempotent: an existing image is kept unless ``force``."""
    cancel = cancel or threading.Event()
    t0 = time.monotonic()
    existing = base_image_id(client)
    if existing and not force:
        say(f"{BASE_IMAGE} already exists ({existing[:19]}); --force rebuilds it")
        return InitResult(BASE_IMAGE, existing, False, time.monotonic() - t0)
    source = source or debian_mirror()
    say(f"Debian {source.suite} from {source.uri} (from {source.origin})")
    tmp = Path(tempfile.mkdtemp(prefix="gi-rootfs-", dir=work_dir))
    raw_tag = f"{BASE_REPO}-rootfs:{source.suite}"
    try:
        rootfs = tmp / "rootfs"
        build_rootfs(rootfs, source, say, cancel)
        raw = _import_rootfs(client, rootfs, raw_tag, say, cancel)
        shutil.rmtree(rootfs, ignore_errors=True)
        image_id = _finish(client, raw, say, cancel, timeout)
    finally:
        subprocess.run(["umount", "-R", str(tmp / "rootfs" / "proc")], capture_output=True,
                       check=False)
        shutil.rmtree(tmp, ignore_errors=True)
        with contextlib.suppress(Exception):  # best effort: it may not exist
            client.images.remove(raw_tag, force=True)
    say(f"built {BASE_IMAGE} ({image_id[:19]}) in {time.monotonic() - t0:.0f}s")
    return InitResult(BASE_IMAGE, image_id, True, time.monotonic() - t0, source.uri,
                      source.suite)
