"""Per-sample images: the base image plus the repo's requirements, cached by their hash.

Only the requirements files enter the install container (never the repo's code), which is the
one step that has a network: the installer reaches the package index through the host's CA
bundle. A second re-run of any repo with the same requirements reuses the committed image.

Installs use uv when the host has it (the ``uv`` package's executable, bind-mounted read-only;
it runs on the image's glibc), as the local backend does: several times faster than pip on a
cold install. pip stays the judge: when uv cannot install a requirements file, pip retries it
and its verdict and ``ERROR:`` lines count, as in the stock harness. Neither keeps a cache in
the committed image, and no cache is shared between install containers (an untrusted package
build must not be able to alter another sample's environment).
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
from ..harness.venvs import uv_binary
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


CONTAINER_UV = "/gi-uv/uv"


def _install_script(has_reqs: bool, has_test_reqs: bool, uv: bool = False) -> str:
    """The install container's script: each requirements file with uv, pip judging failures.

    Every install prints a ``>>> <installer> install ...`` line before its output, so each
    command's output stays one contiguous section of the log.
    """
    pip = "pip install --no-input --disable-pip-version-check --no-cache-dir"
    lines = ["set -u", f"pip_() {{ {pip} \"$@\"; }}"]
    if uv:
        lines += [
            f"if {CONTAINER_UV} --version >/dev/null 2>&1; then use_uv=1; else use_uv=0; "
            "echo 'uv does not run in this image; installing with pip'; fi",
            # inst WHAT ARGS...: uv first; when it fails pip retries and its verdict counts
            "inst() { what=$1; shift",
            "  if [ $use_uv = 1 ]; then echo \">>> uv pip install $what\"",
            f"    {CONTAINER_UV} pip install --no-cache --python /opt/venv/bin/python \"$@\" "
            "&& return 0",
            "    echo '>>> uv could not install these requirements; retrying with pip, whose "
            "verdict counts (the stock harness installs with pip)'; fi",
            "  echo \">>> pip install $what\"; pip_ \"$@\"; }",
        ]
    else:
        lines += ["inst() { what=$1; shift; echo \">>> pip install $what\"; pip_ \"$@\"; }"]
    if has_reqs:
        lines += ["inst '-r requirements.txt' -r /gi-req/requirements.txt; rc=$?"]
    else:
        lines += ["echo 'no requirements.txt at the repo root; installing the stock "
                  "harness default bundle: " + " ".join(STOCK_BUNDLE) + "'",
                  "inst '(default bundle)' " + " ".join(STOCK_BUNDLE) + "; rc=$?"]
    if has_test_reqs:
        lines += ["inst '-r tests/requirements.txt (golden tests)' "
                  "-r /gi-req/tests-requirements.txt || exit 90"]
    lines += [f"inst '{' '.join(TEST_PACKAGES)} (test runner)' " + " ".join(TEST_PACKAGES)
              + " || exit 91", "exit $rc"]
    return "\n".join(lines) + "\n"


def _uv_mount() -> tuple[list[docker.types.Mount], dict[str, str]]:
    """The host's uv executable, read-only, and pip's index settings for it (none: pip only)."""
    from docker.types import Mount

    if os.environ.get("GENESIS_INSTALLER", "auto") == "pip":
        return [], {}
    found = uv_binary()
    if not found or not Path(found).is_file():
        return [], {}
    env = {"UV_LINK_MODE": "copy", "UV_NO_PROGRESS": "1"}
    for pip_key, uv_key in (("PIP_INDEX_URL", "UV_INDEX_URL"),
                            ("PIP_EXTRA_INDEX_URL", "UV_EXTRA_INDEX_URL")):
        if os.environ.get(pip_key):
            env[uv_key] = os.environ[pip_key]
    return [Mount(CONTAINER_UV, str(Path(found).resolve()), type="bind", read_only=True)], env


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
    uv_mounts, uv_env = _uv_mount()
    mounts += uv_mounts
    env.update(uv_env)
    container = client.containers.create(
        BASE_IMAGE, ["bash", "-c", _install_script(has_reqs, has_test_reqs, bool(uv_mounts))],
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
