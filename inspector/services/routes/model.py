"""Routes as the resolvers find them: a method, a path made of known text and unknown parts,
and where the route (and its prefix) is declared.

A path is a tuple of parts: literal strings, and :class:`Unknown` for a piece that cannot be
known without running the service (a runtime value, an env var without default, a computed
string). :func:`pattern` turns it into segments where an unknown piece becomes a wildcard that
matches any number of segments, so a route under an unknown prefix can still be told apart from
one that does not exist at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
WILD = "*"  # a pattern segment standing for any number of segments


@dataclass(frozen=True, slots=True)
class Unknown:
    """A piece of a path that static analysis cannot know; ``reason`` says why and where."""

    reason: str


Part = str | Unknown
Path = tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class Route:
    """One (method, path) a repo serves, declared at ``file:line``; ``origin`` says where its
    prefixes come from (``''`` when the route line alone gives the path)."""

    method: str
    path: Path
    file: str
    line: int
    text: str = ""
    origin: str = ""

    @property
    def unresolved(self) -> str:
        """Why the path is not fully known ('' when it is)."""
        return next((p.reason for p in self.path if isinstance(p, Unknown)), "")


def join(*paths: Iterable[Part]) -> Path:
    """Concatenate path pieces as the frameworks do: one '/' between non-empty pieces."""
    out: list[Part] = []
    for piece in paths:
        piece = tuple(piece)
        if not piece:
            continue
        if out:
            out.append("/")
        out.extend(piece)
    return tuple(out)


def show(path: Path) -> str:
    """A path for people: unknown parts as ``{?}``."""
    return re.sub(r"/{2,}", "/", "".join(p if isinstance(p, str) else "{?}" for p in path))


def normalize(path: str) -> str:
    """Path with parameter segments made anonymous and no trailing slash."""
    return "/" + "/".join(_segments(path))


def _param(seg: str) -> bool:
    return (seg.startswith("{") and seg.endswith("}")) or (
        seg.startswith("<") and seg.endswith(">")) or seg.startswith(":")


def _segments(path: str) -> list[str]:
    return ["{}" if _param(s) else s for s in path.strip().split("?", 1)[0].split("/") if s]


_MARK = "\x00"


def pattern(path: Path) -> tuple[str, ...]:
    """Segments of ``path`` ('{}' for a parameter, :data:`WILD` for an unknown piece)."""
    text = "".join(p if isinstance(p, str) else _MARK for p in path)
    segs: list[str] = []
    for seg in text.split("?", 1)[0].split("/"):
        if not seg:
            continue
        if _MARK in seg:
            if not segs or segs[-1] != WILD:
                segs.append(WILD)
        else:
            segs.append("{}" if _param(seg) else seg)
    return tuple(segs)


def matches(pat: tuple[str, ...], want: str) -> bool:
    """Whether a route pattern serves the README path ``want``."""
    return _match(pat, tuple(_segments(want)))


def _match(pat: tuple[str, ...], segs: tuple[str, ...]) -> bool:
    if not pat:
        return not segs
    head = pat[0]
    if head == WILD:
        return any(_match(pat[1:], segs[i:]) for i in range(len(segs) + 1))
    if not segs:
        return False
    return head == segs[0] and _match(pat[1:], segs[1:])


_RE_GROUP = re.compile(r"\(\?P<\w+>[^)]*\)|\([^)]*\)|<[^>]+>")


def from_regex(rx: str) -> str:
    """A Django ``re_path`` regex as a path: groups become parameters, anchors go."""
    s = _RE_GROUP.sub("{p}", rx.strip())
    s = s.lstrip("^").rstrip("$").replace("\\/", "/").replace("/?", "/").replace("\\.", ".")
    return s
