"""Sending a composed request to a deployed sample, on loopback only unless told otherwise.

:func:`send` refuses (``RequestRefused``) any host that is not loopback and not explicitly
allowed, before opening a connection. Network failures never raise: they come back as a
:class:`ResponseRecord` with ``error`` set.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Collection
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from inspector.model.request.http_request import RequestSpec, ResponseRecord

if TYPE_CHECKING:  # httpx is imported when used: its package __init__ pulls in Rich
    import httpx

_CHUNK = 64 * 1024


class RequestRefused(ValueError):
    """The request would leave the machine (or is not HTTP): it was not sent."""


def _norm_host(host: str) -> str:
    return host.strip().strip("[]").rstrip(".").lower()


def is_loopback_host(host: str) -> bool:
    """``localhost`` or an address in 127.0.0.0/8 or ``::1`` (also IPv4-mapped)."""
    host = _norm_host(host)
    if host == "localhost":
        return True
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return addr.ipv4_mapped.is_loopback
    return addr.is_loopback


def check_target(url: str, allow_hosts: Collection[str] = ()) -> httpx.URL:
    """The parsed URL when its host may be contacted; else :class:`RequestRefused`."""
    import httpx

    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise RequestRefused(f"not a valid URL: {url!r} ({exc})") from None
    if parsed.scheme not in ("http", "https"):
        raise RequestRefused(f"refusing {url!r}: only http:// and https:// URLs can be sent")
    host = _norm_host(parsed.host)
    if not host:
        raise RequestRefused(f"refusing {url!r}: the URL has no host")
    if isinstance(allow_hosts, str):  # one host passed bare, not a collection of letters
        allow_hosts = (allow_hosts,)
    allowed = {_norm_host(h) for h in allow_hosts}
    if not is_loopback_host(host) and host not in allowed:
        raise RequestRefused(
            f"refusing to send to {parsed.host!r}: only loopback hosts (localhost, "
            "127.0.0.0/8, ::1) or hosts explicitly allowed may be contacted")
    return parsed


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _describe(exc: httpx.HTTPError, timeout: float) -> str:
    import httpx

    if isinstance(exc, httpx.ConnectTimeout):
        return f"timed out connecting after {timeout:g} s"
    if isinstance(exc, httpx.ReadTimeout):
        return f"timed out waiting for the response after {timeout:g} s"
    if isinstance(exc, httpx.TimeoutException):
        return f"timed out after {timeout:g} s ({type(exc).__name__})"
    if isinstance(exc, httpx.ConnectError):
        text = str(exc)
        if "refused" in text.lower():
            return f"connection refused ({text})"
        return f"could not connect: {text}"
    if isinstance(exc, httpx.RemoteProtocolError):
        return f"protocol error: {exc}"
    if isinstance(exc, httpx.LocalProtocolError):
        return f"request could not be sent: {exc}"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def send(spec: RequestSpec, base_url: str, *, timeout: float = 10.0, max_body: int = 2_000_000,
         transport: httpx.BaseTransport | None = None,
         allow_hosts: Collection[str] = ()) -> ResponseRecord:
    """Send ``spec`` to ``base_url`` and record the exchange.

    Raises :class:`RequestRefused` (before connecting) for a host that is neither loopback nor
    in ``allow_hosts``. Connection, timeout and protocol failures return a record with
    ``error`` set (``status`` 0 unless the status line had already arrived). The body is
    streamed and cut at ``max_body`` bytes (``body_truncated``); ``elapsed_ms`` spans the
    whole exchange, body included. Redirects are not followed; proxy settings from the
    environment are ignored.
    """
    import httpx

    base = check_target(base_url, allow_hosts)
    url = check_target(spec.url(base_url), allow_hosts)
    if url.host != base.host or url.port != base.port:
        raise RequestRefused(f"refusing {spec.path!r}: it changes the host of {base_url!r}")
    sent_at = _now()
    status, reason, version = 0, "", ""
    headers: tuple[tuple[str, str], ...] = ()
    chunks: list[bytes] = []
    size = 0
    truncated = False
    error: str | None = None
    start = time.perf_counter()
    try:
        with httpx.Client(transport=transport, timeout=httpx.Timeout(timeout),
                          follow_redirects=False, trust_env=False) as client:
            request = client.build_request(spec.method, url, headers=list(spec.effective_headers()),
                                           content=spec.body_bytes())
            response = client.send(request, stream=True)
            try:
                status, reason = response.status_code, response.reason_phrase
                version = response.http_version
                headers = tuple(response.headers.multi_items())
                for chunk in response.iter_bytes(_CHUNK):
                    room = max_body - size
                    if len(chunk) > room:
                        chunks.append(chunk[:room])
                        size += room
                        truncated = True
                        break
                    chunks.append(chunk)
                    size += len(chunk)
                    if time.perf_counter() - start > timeout:
                        error = f"timed out reading the body after {timeout:g} s"
                        break
            finally:
                response.close()
    except httpx.HTTPError as exc:
        error = _describe(exc, timeout)
    except OSError as exc:  # a transport that does not wrap socket errors
        error = f"network error: {exc}"
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    return ResponseRecord(
        status=status, reason=reason, http_version=version, headers=headers,
        elapsed_ms=elapsed_ms, body=b"".join(chunks), body_truncated=truncated, error=error,
        sent_at=sent_at,
    )
