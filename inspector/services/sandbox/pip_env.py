"""How pip inside a container reaches the package index: the host's CA bundle and settings."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docker.types import Mount

HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
CONTAINER_CA = "/gi-host/ca-certificates.crt"
_PASSED = ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST", "PIP_DEFAULT_TIMEOUT",
           "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy")


def pip_mounts_and_env() -> tuple[list[Mount], dict[str, str]]:
    """Bind mounts and environment for an install container (read-only CA bundle, PIP_CERT).

    Bind mounts (not volumes) so that a committed image records no volume.
    """
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
    return mounts, env
