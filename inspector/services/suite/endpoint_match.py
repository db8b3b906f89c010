"""Matching a test's HTTP call to README endpoints, shared by the Python and Java maps.

A call's path becomes segments (``None`` for a wildcard: a dynamic part); README parameters
(``{id}``, ``<id>``, ``<int:id>``, ``:id``) match any one segment, a wildcard of the call matches
only a parameter, trailing slashes and query strings are ignored. See
:mod:`inspector.services.suite.endpoint_tests` for the full rules (base paths on either side,
the most specific endpoint wins, a better match of another method takes the call away).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.model import Endpoint
from inspector.services.suite.source import DYN

_PARAM = re.compile(r"^(?:\{[^}]*\}|<[^>]*>|:\w+)$")


@dataclass(frozen=True, slots=True)
class TestRef:
    """One call in a golden test that hits an endpoint.

    ``test_id`` is the pytest node id relative to the task root; ``file`` and ``line`` locate the
    call (in the test itself, or in the helper/fixture named by ``via``); ``call`` is its source,
    stripped, a multi-line call joined on one line, at most 160 characters.
    """

    __test__ = False

    test_id: str
    file: str
    line: int
    call: str
    via: str = ""  # "" for a direct call, else e.g. "_create" or "fixture created_note"


class EndpointTests(dict[str, list[TestRef]]):
    """``Endpoint.key`` → test references, for every endpoint given (possibly empty lists).

    ``skipped`` lists ``(file relative to the task root, error)`` for files that could not be
    read or parsed; their tests are missing from the map.
    """

    skipped: list[tuple[str, str]]

    def __init__(self) -> None:
        super().__init__()
        self.skipped = []


@dataclass(frozen=True, slots=True)
class Hit:
    """One HTTP call of a test (or of a helper it calls), its path as segments."""

    method: str
    segments: tuple[str | None, ...]  # None: a wildcard segment
    open: bool  # the base URL is unknown: it may carry leading segments of the endpoint
    file: str
    line: int
    call: str
    via: str = ""


def via(hit: Hit, name: str) -> Hit:
    return Hit(hit.method, hit.segments, hit.open, hit.file, hit.line, hit.call,
                f"{name} > {hit.via}" if hit.via else name)


def path_segments(template: str) -> tuple[str | None, ...] | None:
    """Path segments of a URL template (``None`` for a wildcard), or None if it has no ``/``
    (not a URL, or an unresolved variable)."""
    if "/" not in template:
        return None
    if "://" in template:
        rest = template.split("://", 1)[1]
        path = rest[rest.index("/"):] if "/" in rest else "/"
    elif template.startswith("/"):
        path = template
    else:
        head, _, tail = template.partition("/")
        # a dynamic base URL or a literal host[:port] is dropped; "notes/1" is a relative path
        path = "/" + tail if (DYN in head or ":" in head or "." in head) else "/" + template
    path = re.split(r"[?#]", path, maxsplit=1)[0]
    return tuple(None if DYN in seg else seg for seg in path.split("/") if seg)


def endpoint_segments(path: str) -> tuple[str | None, ...]:
    """README path segments, ``None`` for a parameter; query string and slashes ignored."""
    path = re.split(r"[?#]", path.strip(), maxsplit=1)[0]
    return tuple(None if _PARAM.match(s) else s for s in path.split("/") if s)


def dynamic_base(template: str) -> bool:
    """The template starts with an unknown base URL (``{base_url}/x``)."""
    return "://" not in template and DYN in template.partition("/")[0]


def score(call: tuple[str | None, ...], ep: tuple[str | None, ...],
           open_prefix: bool = False) -> tuple[int, int] | None:
    """(tier, literal matches) when ``call`` hits ``ep``, None when it does not. Tier 2: same
    length; 1: the call has extra leading literal segments; 0: the endpoint has leading
    literal segments the call lacks (only when ``open_prefix``: the call's base is unknown)."""
    extra = len(call) - len(ep)
    if extra > 0 and (not ep or ep[0] is None or any(s is None for s in call[:extra])):
        return None
    if extra < 0 and (not open_prefix or not call or any(s is None for s in ep[:-extra])):
        return None
    tail = ep[-extra:] if extra < 0 else ep
    literals = 0
    for c, e in zip(call[max(extra, 0):], tail, strict=True):
        if e is None:
            continue
        if c != e:
            return None
        literals += 1
    if extra < 0 and not literals:
        return None
    return (2 if not extra else 1 if extra > 0 else 0, literals)


def best(hit: Hit, targets: list[tuple[Endpoint, tuple[str | None, ...]]]) -> list[Endpoint]:
    """The endpoints a hit is credited to: the best-scoring ones of its method — none when an
    endpoint of another method matches the path better (``GET /users/register`` probes
    ``POST /users/register``, it does not read a user called "register")."""
    scored = [(s, ep) for ep, segs in targets
              if (s := score(hit.segments, segs, hit.open)) is not None]
    same = [(s, ep) for s, ep in scored if ep.method == hit.method]
    if not same:
        return []
    top = max(s for s, _ in same)
    if max(s for s, _ in scored) > top:
        return []
    return [ep for s, ep in same if s == top]


def credit(result: EndpointTests, test_id: str, hits: list[Hit],
           targets: list[tuple[Endpoint, tuple[str | None, ...]]]) -> None:
    """Add ``test_id`` to every endpoint its ``hits`` are credited to (:func:`best`), once per
    endpoint and call site."""
    seen: set[tuple[str, str, int]] = set()
    for hit in hits:
        for ep in best(hit, targets):
            if (ep.key, hit.file, hit.line) in seen:
                continue
            seen.add((ep.key, hit.file, hit.line))
            result[ep.key].append(TestRef(test_id, hit.file, hit.line, hit.call, hit.via))
