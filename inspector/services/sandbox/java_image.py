"""The Java sandbox image: the base image plus JDK 17 and Maven from the machine's Debian sources.

Built offline like the base image (:mod:`.base_image`): a container from the base image runs
``apt-get install openjdk-17-jdk-headless maven`` against the apt mirror the base image was
bootstrapped from (the only network it has is Docker's bridge, for that mirror), and is
committed as :data:`JAVA_IMAGE`. No Maven repository is touched here: what a Java repo needs is
resolved per sample, through the repository the user chose (:mod:`.maven_source`).
``inspector sandbox init --java`` builds it; a Java evaluation builds it on first need, with its
progress in the install log.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from inspector.services.sandbox.base_image import (
    BASE_IMAGE,
    InitError,
    InitResult,
    build_by_script,
)

if TYPE_CHECKING:
    import docker

JAVA_REPO = "genesis-inspector/java"
JAVA_VERSION = "1"
JAVA_IMAGE = f"{JAVA_REPO}:{JAVA_VERSION}"
JAVA_PACKAGES = ("openjdk-17-jdk-headless", "maven")
_LOCK = threading.Lock()  # one build at a time in this process

Say = Callable[[str], None]

_SCRIPT = (
    "set -eu\n"
    "export DEBIAN_FRONTEND=noninteractive\n"
    # the base image dropped the man pages; the JDK's alternatives need the folder
    "mkdir -p /usr/share/man/man1\n"
    "apt-get update -q\n"
    "apt-get install -y -q --no-install-recommends " + " ".join(JAVA_PACKAGES) + "\n"
    "rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /usr/share/doc/* "
    "/usr/share/man/*\n"
    "java -version 2>&1 | head -1\n"
    "mvn -v 2>&1 | head -1\n"
    "echo java-ready\n"
)


def java_image_id(client: docker.DockerClient) -> str | None:
    """The Java image's id, or None when it has not been built on this engine."""
    # start-up: docker is loaded only when this runs
    from docker.errors import ImageNotFound

    try:
        return str(client.images.get(JAVA_IMAGE).id)
    except ImageNotFound:
        return None


def init_java_image(client: docker.DockerClient, *, force: bool = False,
                    say: Say = lambda s: None, cancel: threading.Event | None = None,
                    timeout: float = 900.0) -> InitResult:
    """Build (or keep) the Java image on top of the base image. Raises :class:`InitError`
    naming what to do when the base image is missing or the install fails."""
    cancel = cancel or threading.Event()
    t0 = time.monotonic()
    with _LOCK:
        existing = java_image_id(client)
        if existing and not force:
            say(f"{JAVA_IMAGE} already exists ({existing[:19]}); --force rebuilds it")
            return InitResult(JAVA_IMAGE, existing, False, time.monotonic() - t0)
        from docker.errors import ImageNotFound

        try:
            client.images.get(BASE_IMAGE)
        except ImageNotFound:
            raise InitError(f"{BASE_IMAGE} is missing: run `inspector sandbox init` first "
                            "(the Java image is built on it)") from None
        say(f"building {JAVA_IMAGE}: {', '.join(JAVA_PACKAGES)} from the base image's Debian "
            "sources (no Maven repository is contacted)")
        image_id = build_by_script(
            client, BASE_IMAGE, _SCRIPT, JAVA_IMAGE, "java", say, cancel, timeout,
            failure=f"while installing {' '.join(JAVA_PACKAGES)} with apt-get: the container "
                    "could not reach the Debian mirror the base image was built from, or the "
                    "packages are not in it (see the lines above)")
    say(f"built {JAVA_IMAGE} ({image_id[:19]}) in {time.monotonic() - t0:.0f}s")
    return InitResult(JAVA_IMAGE, image_id, True, time.monotonic() - t0)
