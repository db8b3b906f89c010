"""Finding, listing and removing sandbox containers, networks and stale images.

Every object the inspector creates carries :data:`~.engine.LABEL`. A sandbox ends (and removes
itself) soon after its inspector stops renewing its lease (:mod:`.lease`); on start the
inspector also removes what a dead inspector left behind (owner process gone on this host, or
past its expiry), e.g. a stopped install container.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.services.sandbox.engine import (
    LABEL,
    LABEL_EXPIRES,
    LABEL_KEEP,
    LABEL_KIND,
    LABEL_OWNER,
    LABEL_SAMPLE,
    owner_alive,
)

if TYPE_CHECKING:
    import docker


@dataclass(frozen=True)
class SandboxInfo:
    """One sandbox container as the engine reports it."""

    id: str
    name: str
    kind: str
    sample: str
    status: str
    owner: str
    owner_alive: bool | None
    created: str
    expires: float | None
    keep: bool
    image: str

    @property
    def leftover(self) -> bool:
        """Owned by a dead inspector on this host (and not kept), or past its expiry."""
        if self.expires is not None and self.expires < time.time():
            return True
        return self.owner_alive is False and not self.keep


def list_sandboxes(client: docker.DockerClient) -> list[SandboxInfo]:
    """Every container carrying the sandbox label, running or not (one engine call: a
    sandbox may remove itself while it is listed)."""
    out = []
    for c in client.api.containers(all=True, filters={"label": LABEL}):
        labels = c.get("Labels") or {}
        owner = labels.get(LABEL_OWNER, "")
        exp = labels.get(LABEL_EXPIRES)
        created = c.get("Created")
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created)) \
            if isinstance(created, int) else ""
        out.append(SandboxInfo(
            id=c["Id"], name=(c.get("Names") or ["?"])[0].lstrip("/"),
            kind=labels.get(LABEL_KIND, "?"), sample=labels.get(LABEL_SAMPLE, ""),
            status=c.get("State", "?"), owner=owner,
            owner_alive=owner_alive(owner) if owner else False, created=stamp,
            expires=float(exp) if exp else None, keep=labels.get(LABEL_KEEP) == "1",
            image=c.get("Image", "")))
    return out


def remove_container(client: docker.DockerClient, container_id: str) -> bool:
    """Kill and remove one sandbox container; False if it was already gone or going (a
    sandbox that ended by itself removes itself)."""
    # start-up: docker is loaded only when this runs
    from docker.errors import APIError, NotFound

    try:
        client.containers.get(container_id).remove(force=True)
        return True
    except NotFound:
        return False
    except APIError as exc:
        if exc.status_code == 409 and "already in progress" in str(exc):
            return False
        raise


def cleanup_leftovers(client: docker.DockerClient, *, everything: bool = False) -> list[str]:
    """Remove leftover sandbox containers and networks; ``everything`` removes all of them.

    Returns a description of each object removed.
    """
    removed: list[str] = []
    for info in list_sandboxes(client):
        stale = everything or info.leftover or (info.kind == "install" and
                                                 info.owner_alive is False)
        if stale and remove_container(client, info.id):
            removed.append(f"container {info.name} ({info.kind} {info.sample})".strip())
    for net in client.networks.list(filters={"label": LABEL}):
        labels = net.attrs.get("Labels") or {}
        owner = labels.get(LABEL_OWNER, "")
        if everything or (owner and owner_alive(owner) is False):
            with contextlib.suppress(Exception):
                net.remove()
                removed.append(f"network {net.name}")
    # start-up: images only when stale images are listed
    from inspector.services.sandbox.images import stale_sample_images

    for tag in stale_sample_images(client):
        with contextlib.suppress(Exception):  # in use by a running sandbox: next time
            client.images.remove(tag)
            removed.append(f"image {tag} (built on an older base image)")
    return removed
