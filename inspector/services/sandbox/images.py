"""Per-sample images: the base image plus the repo's requirements, cached by their hash.

Only the requirements files enter the install container (never the repo's code), which is the
one step that has a network: pip reaches the package index through the host's CA bundle. A
second re-run of any repo with the same requirements reuses the committed image.
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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from inspector import paths

from ..harness.local import STOCK_BUNDLE, TEST_PACKAGES
from ..harness.phase_log import PhaseLog
from .base_image import BASE_IMAGE, base_image_id
from .container_exec import follow_logs
from .engine import LABEL, LABEL_KIND, LABEL_OWNER, LABEL_REQS, owner_label
from .pip_env import pip_mounts_and_env

if TYPE_CHECKING:
    import docker

SAMPLE_REPO = "genesis-inspector/sample"
LABEL_BASE = "org.genesis-inspector.base-id"


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


def requirements_hash(base_id: str, requirements: str | None, test_requirements: str | None
                      ) -> str:
    """What a sample image depends on: the base image and both requirements files."""
    h = hashlib.sha256(base_id.encode())
    for part in (requirements, test_requirements):
        h.update(b"\0" + (b"-" if part is None else part.encode()))
    return h.hexdigest()[:24]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None
    except OSError:
        return None


@contextlib.contextmanager
def _file_lock(name: str):  # type: ignore[no-untyped-def]
    d = paths.cache_root() / "sandbox-locks"
    d.mkdir(parents=True, exist_ok=True)
    fd = os.open(d / f"{name}.lock", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _install_script(has_reqs: bool, has_test_reqs: bool) -> str:
    lines = ["set -u", "pip_() { pip install --no-input --disable-pip-version-check \"$@\"; }"]
    if has_reqs:
        lines += ["echo '>>> pip install -r requirements.txt'",
                  "pip_ -r /gi-req/requirements.txt; rc=$?"]
    else:
        lines += ["echo 'no requirements.txt at the repo root; installing the stock "
                  "harness default bundle: " + " ".join(STOCK_BUNDLE) + "'",
                  "pip_ " + " ".join(STOCK_BUNDLE) + "; rc=$?"]
    if has_test_reqs:
        lines += ["echo '>>> pip install -r tests/requirements.txt (golden tests)'",
                  "pip_ -r /gi-req/tests-requirements.txt || exit 90"]
    lines += ["pip_ " + " ".join(TEST_PACKAGES) + " || exit 91", "exit $rc"]
    return "\n".join(lines) + "\n"


def ensure_sample_image(client: docker.DockerClient, repo: Path, tests_dir: Path | None,
                        log: PhaseLog, cancel: threading.Event, timeout: float = 600.0
                        ) -> ImageResult:
    """The image for ``repo``'s requirements, built if missing; pip output goes to ``log``."""
    t0 = time.monotonic()
    base_id = base_image_id(client)
    if base_id is None:
        raise BaseImageMissing(f"the sandbox base image {BASE_IMAGE} is missing on this engine; "
                               "build it once with `inspector sandbox init`")
    reqs = _read(repo / "requirements.txt")
    test_reqs = _read(tests_dir / "requirements.txt") if tests_dir else None
    key = requirements_hash(base_id, reqs, test_reqs)
    tag = f"{SAMPLE_REPO}:{key}"
    from docker.errors import ImageNotFound

    with _file_lock(f"image-{key}"):
        try:
            client.images.get(tag)
            log.meta(f"reusing sandbox image {tag} (requirements hash {key})")
            return ImageResult(True, tag, True, 0, "cached image reused",
                               time.monotonic() - t0)
        except ImageNotFound:
            pass
        log.meta(f"building sandbox image {tag} from {BASE_IMAGE} (requirements hash {key})")
        tmp = Path(tempfile.mkdtemp(prefix="gi-req-"))
        try:
            if reqs is not None:
                (tmp / "requirements.txt").write_text(reqs, encoding="utf-8")
            if test_reqs is not None:
                (tmp / "tests-requirements.txt").write_text(test_reqs, encoding="utf-8")
            os.chmod(tmp, 0o755)
            code, message = _run_install(client, tmp, reqs is not None, test_reqs is not None,
                                         key, tag, base_id, log, cancel,
                                         timeout)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return ImageResult(code == 0, tag, False, code, message, time.monotonic() - t0)


def _run_install(client: docker.DockerClient, req_dir: Path, has_reqs: bool,
                 has_test_reqs: bool, key: str, tag: str, base_id: str, log: PhaseLog,
                 cancel: threading.Event, timeout: float) -> tuple[int | None, str]:
    from docker.types import Mount

    mounts, env = pip_mounts_and_env()
    mounts.append(Mount("/gi-req", str(req_dir), type="bind", read_only=True))
    container = client.containers.create(
        BASE_IMAGE, ["bash", "-c", _install_script(has_reqs, has_test_reqs)],
        environment=env, mounts=mounts, network_mode="bridge", mem_limit="2g",
        memswap_limit="2g", pids_limit=1024, user="0:0",
        labels={LABEL: "1", LABEL_KIND: "install", LABEL_OWNER: owner_label(),
                LABEL_REQS: key})
    try:
        container.start()
        stopped = follow_logs(container, log.write, cancel, timeout)
        if stopped is not None:
            msg = "cancelled" if stopped == "cancelled" else f"pip install {stopped}"
            log.meta(msg)
            return None, msg
        code = int(container.wait(timeout=60).get("StatusCode", -1))
        if code != 0:
            err = next((t for t in reversed(log.tail) if "ERROR" in t), "")
            what = {90: "installing the golden tests' requirements failed (harness problem)",
                    91: "installing the test runner failed (harness problem)"}.get(
                code, f"pip install failed (exit {code})")
            return code, f"{what}: {err}" if err else what
        repo, _, version = tag.partition(":")
        container.commit(repository=repo, tag=version, changes=[
            "USER 1000:1000", "WORKDIR /repo", f"LABEL {LABEL}=1",
            f"LABEL {LABEL_KIND}=sample-image", f"LABEL {LABEL_REQS}={key}",
            f"LABEL {LABEL_BASE}={base_id}"])
        log.meta(f"committed {tag}")
        return 0, "dependencies installed"
    finally:
        with contextlib.suppress(Exception):
            container.remove(force=True)


def stale_sample_images(client: docker.DockerClient) -> list[str]:
    """Tags of sample images built on a base image that is no longer the current one."""
    current = base_image_id(client)
    out = []
    for img in client.images.list(SAMPLE_REPO):
        if (img.labels or {}).get(LABEL_BASE) != current:
            out += img.tags or [img.id]
    return out
