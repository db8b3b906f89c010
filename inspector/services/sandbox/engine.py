"""Reaching the Docker engine, and the labels every sandbox object carries."""

from __future__ import annotations

import os
import socket
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import docker

LABEL = "org.genesis-inspector.sandbox"
"""Present (value ``1``) on every container, network and image the inspector creates."""
LABEL_OWNER = "org.genesis-inspector.owner"  # "<hostname>:<pid>" of the inspector process
LABEL_EXPIRES = "org.genesis-inspector.expires"  # unix time after which anyone may remove it
LABEL_KEEP = "org.genesis-inspector.keep"  # "1": outlives its owner until it expires
LABEL_SAMPLE = "org.genesis-inspector.sample"  # the sample key it deploys
LABEL_KIND = "org.genesis-inspector.kind"  # base | sample-image | service | install
LABEL_REQS = "org.genesis-inspector.requirements"  # requirements hash of a sample image


class EngineUnavailable(RuntimeError):
    """No Docker engine answers; the message says how to start one or what to use instead."""


def engine_address() -> str:
    return os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock"


def connect(timeout: float = 120.0) -> docker.DockerClient:
    """A client for the engine at ``$DOCKER_HOST`` (or the default socket), checked with a ping."""
    try:
        # start-up: docker is loaded only when this runs
        import docker
        from docker.errors import DockerException
    except ImportError as exc:  # pragma: no cover - docker is a hard dependency
        raise EngineUnavailable(f"the docker Python package is missing ({exc})") from exc
    try:
        client = docker.from_env(timeout=int(timeout))
        client.ping()
    except (DockerException, OSError) as exc:
        reason = str(exc).split("\n")[0]
        if len(reason) > 200:
            reason = reason[:200] + "…"
        raise EngineUnavailable(
            f"no Docker engine reachable at {engine_address()} ({reason}). Start one "
            "(as root: `dockerd --storage-driver=vfs &`, or `systemctl start docker`), set "
            "DOCKER_HOST, or re-run with --backend local --allow-local-exec to run the "
            "generated code as a local process instead") from exc
    return client


def engine_reachable() -> bool:
    """True when :func:`connect` would succeed (a quick check for choosing the backend)."""
    try:
        connect(timeout=5).close()
    except EngineUnavailable:
        return False
    return True



def _start_time(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return "0"


def owner_label() -> str:
    """``<hostname>:<pid>:<start time>`` of this process (pid reuse cannot fake liveness)."""
    return f"{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}"


def owner_alive(owner: str) -> bool | None:
    """Whether the inspector named by an owner label still runs; None when on another host."""
    parts = owner.split(":")
    if len(parts) != 3 or not parts[1].isdigit():
        return False
    host, pid, started = parts
    if host != socket.gethostname():
        return None
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return _start_time(int(pid)) == started
