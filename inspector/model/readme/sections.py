"""Where each README endpoint is spoken of: its section (from its heading, numbered item or
declaration line to the next endpoint's or the next heading of the same or a higher level) and
the other places that name it (a prose paragraph ``POST /items request:`` with the block after
it, a list item, an example request with its response). Also: matching a test's request path
to the README's path templates."""

from __future__ import annotations

import re
from dataclasses import replace

from inspector.model.benchmark.task import Endpoint
from inspector.model.readme.contract_types import EndpointContract
from inspector.model.readme.layout import PLAIN_LEVEL, Layout

METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
_M = "|".join(METHODS)
_PATH = r"/[^\s`*|\"'<>,;()\[\]]*"
_MENTION = re.compile(rf"(?<![\w/.-])(?P<method>{_M})\b[`*_]*\s+[`*_]*(?P<path>{_PATH})")
_HTTP_LINE = re.compile(rf"^\s*(?P<method>{_M})\s+(?P<path>/\S*)(?:\s+HTTP/[\d.]+)?\s*$")
_CURL_METHOD = re.compile(rf"(?:-X|--request)\s*['\"]?({_M})\b", re.I)
_URL = re.compile(r"https?://[^\s/'\"`]+(/[^\s'\"`\\]*)?")
_PARAM = re.compile(r"\{[^}]*\}|:\w+|<[^>]*>|\*")


def segments(path: str) -> list[str]:
    """Path segments of a path or URL (scheme, host, query and fragment dropped)."""
    path = re.sub(r"^[a-zA-Z][\w+.-]*://[^/]*", "", path.strip())
    path = path.split("?", 1)[0].split("#", 1)[0]
    return [s for s in path.split("/") if s]


def is_param(seg: str) -> bool:
    return bool(_PARAM.fullmatch(seg))


def score(template: list[str], path: list[str]) -> int | None:
    """How well concrete or templated ``path`` fits README ``template`` (None: it does not)."""
    if len(template) != len(path):
        return None
    total = 0
    for t, p in zip(template, path, strict=True):
        if is_param(t):
            total += 2 if is_param(p) else 1
        elif is_param(p):
            return None  # a test parameter where the README has a fixed segment
        elif t == p:
            total += 3
        else:
            return None
    return total


def match_path(template: str, path: str, prefixes: tuple[list[str], ...] = ()) -> int | None:
    """Score of ``path`` against ``template``; a test path may start with parameters (an
    f-string's base URL) or lack one of ``prefixes`` (the base path) the template starts
    with, or have one the template lacks. Exact fits score highest."""
    t, full = segments(template), segments(path)
    bare = list(full)
    while bare and is_param(bare[0]):
        bare = bare[1:]  # f"{BASE}/users" -> ['{}', 'users']
    best: int | None = None
    for p in (full, bare) if bare != full else (full,):
        s = score(t, p)
        if s is not None:
            best = max(best or 0, s + 100)
        for pre in prefixes:
            n = len(pre)
            tries = []
            if n and t[:n] == pre:
                tries.append((t[n:], p))  # README '/api/v1/users', test '/users'
            if n and p[:n] == pre:
                tries.append((t, p[n:]))  # README '/users', test '/api/v1/users'
            for a, b in tries:
                s = score(a, b)
                if s is not None:
                    best = max(best or 0, s + 50)
    return best


def fitting(eps: list[EndpointContract] | tuple[EndpointContract, ...], method: str, path: str,
            prefixes: tuple[list[str], ...] = ()) -> list[tuple[int, EndpointContract]]:
    """Endpoints whose template fits ``path`` as (score, endpoint), best first (README order
    among equals); ``method`` '' matches any method."""
    got = []
    for e in eps:
        if method and e.method != method.upper():
            continue
        s = match_path(e.path, path, prefixes)
        if s is not None:
            got.append((s, e))
    got.sort(key=lambda x: -x[0])
    return got


def mentions_in(lay: Layout, no: int) -> list[tuple[str, str]]:
    """(method, path) pairs a README line names."""
    raw = lay.line(no)
    found = [(m.group("method"), m.group("path").rstrip(".,:;")) for m in _MENTION.finditer(raw)]
    if not found and lay.in_code(no):
        hm = _HTTP_LINE.match(raw)
        if hm:
            found.append((hm.group("method"), hm.group("path")))
        elif re.match(r"^\s*(\$\s*)?curl\b", raw):
            url = _URL.search(raw)
            cm = _CURL_METHOD.search(raw)
            data = re.search(r"\s(-d|--data\S*|-F|--form|--json)\b", raw) or raw.rstrip().endswith(
                "\\")
            if url:
                method = cm.group(1).upper() if cm else ("POST" if data else "GET")
                found.append((method, url.group(1) or "/"))
    return found


class Sections:
    """Computes :class:`EndpointContract` sections for the endpoints of one README."""

    def __init__(self, lay: Layout, endpoints: list[Endpoint], base: str) -> None:
        self.lay = lay
        self.endpoints = [e for e in endpoints if e.method in METHODS and e.path.startswith("/")]
        self.prefixes = tuple(p for p in (segments(base), self._common_prefix()) if p)

    def _common_prefix(self) -> list[str]:
        segs = [segments(e.path) for e in self.endpoints]
        if len(segs) < 2:
            return []
        out: list[str] = []
        for parts in zip(*segs, strict=False):
            if len(set(parts)) != 1 or is_param(parts[0]):
                break
            out.append(parts[0])
        return out[:-1] if any(len(s) == len(out) for s in segs) else out

    def build(self) -> list[EndpointContract]:
        lay = self.lay
        eps = sorted(self.endpoints, key=lambda e: e.readme_line)
        decl = sorted({e.readme_line for e in eps})
        prevs = [0, *decl][:len(decl)]
        starts_at = {line: self._start(line, prev) for line, prev in zip(decl, prevs, strict=True)}
        ends_at = {}
        for i, line in enumerate(decl):
            nxt = starts_at[decl[i + 1]] - 1 if i + 1 < len(decl) else len(lay.lines)
            ends_at[line] = self._trim(starts_at[line], min(nxt, self._heading_end(
                starts_at[line])))
        out = [EndpointContract(e.method, e.path, e.readme_line, starts_at[e.readme_line],
                                ends_at[e.readme_line], (), e.description) for e in eps]
        return self._with_extras(out)

    def _start(self, line: int, prev: int) -> int:
        lay = self.lay
        marks = [h[0] for h in lay.headings] + lay.numbered
        inside = [m for m in marks if prev < m <= line]
        return max(inside) if inside else line

    def _heading_end(self, start: int) -> int:
        lay = self.lay
        h = lay.heading_before(start)
        level = h[1] if h else PLAIN_LEVEL + 1
        nxt = next((n for n, lv, _ in lay.headings if n > start and lv <= level), None)
        return (nxt - 1) if nxt else len(lay.lines)

    def _trim(self, start: int, end: int) -> int:
        while end > start and re.fullmatch(r"\s*(-{3,}|\*{3,}|_{3,})?\s*", self.lay.line(end)):
            end -= 1
        return end

    def _with_extras(self, eps: list[EndpointContract]) -> list[EndpointContract]:
        lay = self.lay
        extra: dict[str, list[tuple[int, int]]] = {e.key: [] for e in eps}
        for no in range(1, len(lay.lines) + 1):
            for method, path in mentions_in(lay, no):
                hits = fitting(eps, method, path, self.prefixes)
                if not hits:
                    continue
                best = [e for s, e in hits if s == hits[0][0]]
                for e in best:
                    if e.line == no or e.start <= no <= e.end:
                        continue
                    extra[e.key].append(self._range(no))
        return [replace(e, extra=tuple(sorted(set(extra[e.key])))) for e in eps]

    def _range(self, no: int) -> tuple[int, int]:
        """The lines a mention on line ``no`` speaks for, with a block right after them."""
        lay = self.lay
        block = lay.block_at(no)
        if block is not None:
            a, b = block.start, block.end
        elif lay.is_item(no):
            a, b = lay.item(no)
        else:
            a, b = no, self._sentence_end(no)
        nxt = lay.next_block(b)
        if nxt is not None and (block is not None or lay.line(b).rstrip().endswith(":")
                                or not lay.is_item(no)):
            b = self._continuation(nxt.end)
        return a, b

    def _continuation(self, end: int) -> int:
        """Past a block ending on ``end``: a short label ending in ':' that names no endpoint
        and the block it introduces continue the same endpoint ("Response, status 201:")."""
        lay = self.lay
        n = end + 1
        while n <= len(lay.lines) and not lay.line(n).strip():
            n += 1
        if n > len(lay.lines) or lay.in_code(n) or lay.is_item(n) or lay.heading_before(n) != \
                lay.heading_before(end):
            return end
        last = self._sentence_end(n)
        if last - n > 1 or not lay.line(last).rstrip().endswith(":") or any(
                mentions_in(lay, k) for k in range(n, last + 1)):
            return end
        nxt = lay.next_block(last)
        return nxt.end if nxt is not None else end

    def _sentence_end(self, no: int) -> int:
        """The last line of the statement starting on prose line ``no``: wrapped lines
        continue it (a long line without a full stop, or a next line starting in lower case)."""
        lay = self.lay
        b = no
        while b < len(lay.lines) and not lay.in_code(b + 1):
            cur, nxt = lay.line(b).rstrip(), lay.line(b + 1).strip()
            if not nxt or cur.endswith((".", ":")) or lay.is_item(b + 1):
                break
            if not (nxt[0].islower() or nxt[0] in "`(" or len(cur) >= 70):
                break
            b += 1
        return b
