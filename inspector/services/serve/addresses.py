"""The names a colleague can open when the server listens on every interface (``0.0.0.0`` is
not an address anyone can browse to): this machine's host name and its own addresses."""

from __future__ import annotations

import contextlib
import ipaddress
import socket

import psutil

_PROBE = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}
"""Documentation addresses: a UDP connect to one picks the outbound address, sending nothing."""


def every_interface(host: str) -> bool:
    """``0.0.0.0`` or ``::`` (every interface of one family)."""
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_unspecified
    except ValueError:
        return False


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _outbound(family: socket.AddressFamily) -> str | None:
    """The address this machine's default route leaves from (no packet is sent)."""
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as probe:
        probe.connect((_PROBE[family], 9))
        return str(probe.getsockname()[0])
    return None


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def reachable_hosts(host: str) -> list[str]:
    """For ``0.0.0.0`` / ``::``: the host name, then the non-loopback addresses of that family
    (the outbound one first); for any other host, ``[]`` (the printed URL is the one)."""
    if not every_interface(host):
        return []
    family = _family(host.strip("[]"))
    found: list[str] = []
    name = socket.gethostname()
    if name and name != "localhost":
        found.append(name)
    outbound = _outbound(family)
    if outbound and _usable(outbound):
        found.append(outbound)
    for addresses in psutil.net_if_addrs().values():
        for a in addresses:
            if a.family == family and _usable(a.address) and a.address not in found:
                found.append(a.address)
    return found
