"""Typed access to the low-level docker-py pieces the sandbox streams through.

types-docker types a container's ``client`` as optional, the socket of a hijacked exec as a
union of transports, and leaves ``frames_iter`` untyped; these helpers narrow them once.
docker is imported lazily (as everywhere in the sandbox), so importing this costs nothing.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docker.api.client import APIClient
    from docker.models.containers import Container


def api_of(container: Container) -> APIClient:
    """The low-level API client of a container a :class:`DockerClient` returned."""
    client = container.client
    if client is None:  # what ``container.client.api`` raised before this helper
        raise AttributeError("'NoneType' object has no attribute 'api'")
    return client.api


def raw_socket(hijacked: object) -> socket.socket:
    """The real socket under docker-py's hijacked exec response (a SocketIO or a socket)."""
    raw = getattr(hijacked, "_sock", hijacked)
    if not isinstance(raw, socket.socket):
        raise TypeError(f"docker returned no socket for the exec stream: {type(raw).__name__}")
    return raw


def exec_frames(hijacked: object) -> Iterator[tuple[int, bytes]]:
    """The ``(stream, data)`` frames of a non-tty exec's hijacked socket (1 stdout, 2 stderr)."""
    # start-up: docker is loaded only when this runs
    from docker.utils.socket import frames_iter

    frames: Iterator[tuple[int, bytes]] = frames_iter(  # type: ignore[no-untyped-call]
        hijacked, tty=False)  # types-docker declares frames_iter without types
    return frames
