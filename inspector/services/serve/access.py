"""Who may open a session: the token, and the Host/Origin checks that keep other sites out.

Any host but loopback needs a token (one is generated when none is given). On loopback the
token is optional, but required once given. Without a token, the Host header must name a
loopback address (a DNS-rebinding page cannot pass as us), and a websocket's Origin must be
the page's own (no other site's script may drive the app) — in every case.
"""

from __future__ import annotations

import ipaddress
import secrets
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    """``127.0.0.1``, ``::1``, ``localhost``… (``0.0.0.0`` is every interface: not loopback)."""
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _host_name(host_header: str) -> str:
    """The name part of a ``Host`` header (``[::1]:8000`` -> ``::1``)."""
    parts = urlsplit(f"//{host_header}")
    return parts.hostname or ""


@dataclass(frozen=True)
class Access:
    """The serve's access rule: ``token`` is ``None`` when none is needed (loopback only)."""

    token: str | None

    @classmethod
    def for_host(cls, host: str, token: str | None) -> Access:
        """The rule for serving on ``host``: ``token`` if given, a random one for any
        non-loopback host, else none."""
        if token is not None and not token.strip():
            raise ValueError("--token: empty")
        if token is None and not is_loopback(host):
            token = secrets.token_urlsafe(24)
        return cls(token)

    def token_ok(self, presented: str | None) -> bool:
        """True when no token is needed, or ``presented`` is it (constant-time compare)."""
        if self.token is None:
            return True
        return presented is not None and secrets.compare_digest(
            presented.encode("utf-8"), self.token.encode("utf-8"))

    def host_ok(self, host_header: str | None) -> bool:
        """With no token, only a loopback ``Host`` is served (DNS-rebinding guard)."""
        if self.token is not None:
            return True
        return bool(host_header) and is_loopback(_host_name(host_header or ""))

    @staticmethod
    def origin_ok(origin: str | None, host_header: str | None) -> bool:
        """A websocket's ``Origin`` must be this server's own page (browsers always send one;
        a client without it, e.g. a script with the token, is let through)."""
        if origin is None:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and bool(host_header) and \
            parts.netloc.lower() == (host_header or "").lower()


def page_url(host: str, port: int, token: str | None, path: str = "/") -> str:
    """The URL to print (the server's ``path``): with ``?token=`` when one is needed."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{path}" + (f"?token={quote(token, safe='')}" if token else "")
