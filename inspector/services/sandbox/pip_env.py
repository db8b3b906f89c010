"""How an install container reaches the package index: the host's CA bundle and settings.

The settings (index URLs, which may carry credentials, proxies, the CA path) never enter the
container's configuration, which ``docker commit`` would copy into the image: they are written
to a file in the container's read-only ``/gi-req`` bind mount, which the install script
sources (:data:`LOAD_SETTINGS`) after unsetting any such variable an older image still
carries. What of them changes an image's content is part of its cache key
(:func:`index_settings`, :mod:`inspector.services.sandbox.images`).
"""

from __future__ import annotations

import contextlib
import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docker.types import Mount

HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
CONTAINER_CA = "/gi-host/ca-certificates.crt"
SETTINGS_FILE = "install-settings.env"
_INDEX = ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST")
_PASSED = (*_INDEX, "PIP_DEFAULT_TIMEOUT",
           "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy")
_UV_NAMES = {"PIP_INDEX_URL": "UV_INDEX_URL", "PIP_EXTRA_INDEX_URL": "UV_EXTRA_INDEX_URL"}
LOAD_SETTINGS = (
    "for v in $(compgen -e); do case $v in PIP_*|UV_*|*_PROXY|*_proxy|SSL_CERT_FILE|"
    "REQUESTS_CA_BUNDLE) unset \"$v\";; esac; done; "
    f"if [ -r /gi-req/{SETTINGS_FILE} ]; then set -a; . /gi-req/{SETTINGS_FILE}; set +a; "
    f"else echo 'the install settings file is not readable'; exit 93; fi")
"""Shell line: drop any index setting an image carries, then load this install's own."""


def index_settings(uv: bool) -> dict[str, str]:
    """The settings of this process that decide what an install container installs: pip's
    index URLs and trusted hosts, and (``uv``) the same for uv."""
    out = {k: os.environ[k] for k in _INDEX if os.environ.get(k)}
    if uv:
        out.update({_UV_NAMES[k]: v for k, v in out.items() if k in _UV_NAMES})
    return out


def pip_mounts_and_env(uv: bool = False) -> tuple[list[Mount], dict[str, str]]:
    """Bind mounts and settings for an install container (read-only CA bundle, PIP_CERT, the
    index settings of :func:`index_settings`); the settings go to :func:`write_settings`,
    never into the container's environment.

    Bind mounts (not volumes) so that a committed image records no volume.
    """
    # start-up: docker is loaded only when this runs
    from docker.types import Mount

    mounts: list[Mount] = []
    env = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1",
           "PIP_ROOT_USER_ACTION": "ignore", "PYTHONUNBUFFERED": "1"}
    bundle = Path(os.environ.get("SSL_CERT_FILE") or HOST_CA_BUNDLE)
    if not bundle.is_file():
        bundle = HOST_CA_BUNDLE
    if bundle.is_file():
        mounts.append(Mount(CONTAINER_CA, str(bundle.resolve()), type="bind", read_only=True))
        env["PIP_CERT"] = CONTAINER_CA
        env["SSL_CERT_FILE"] = CONTAINER_CA
        env["REQUESTS_CA_BUNDLE"] = CONTAINER_CA
    for key in _PASSED:
        if os.environ.get(key):
            env[key] = os.environ[key]
    env.update(index_settings(uv))
    return mounts, env


def write_settings(folder: Path, settings: dict[str, str], uid: int) -> None:
    """``settings`` as ``folder/SETTINGS_FILE`` for :data:`LOAD_SETTINGS`, readable by the
    container's ``uid`` only when this process can arrange it (root, or the same uid)."""
    path = folder / SETTINGS_FILE
    text = "".join(f"{k}={shlex.quote(v)}\n" for k, v in sorted(settings.items()))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    if os.geteuid() == uid:
        return
    with contextlib.suppress(OSError):
        os.chown(path, uid, -1)
        return
    os.chmod(path, 0o644)  # the container's user is someone else and cannot be given it
