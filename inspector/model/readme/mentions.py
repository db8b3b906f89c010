"""Line-level mentions in a README: HTTP status codes, headers, literal strings and limits.

Status codes are read as numbers in HTTP context only: followed by a reason phrase
(``201 Created``), on a line that speaks of status/response/errors (``Output schema (201)``,
``Status Code: 200.``), in a "- 400: Bad Request" item or a table column headed "Status"/"Code";
never JSON values, sizes, ranges or ports.
"""

from __future__ import annotations

import re
from http import HTTPStatus

from inspector.model.readme.contract_types import Mention
from inspector.model.readme.fields import type_word
from inspector.model.readme.layout import Layout, code_spans, is_rule_row, table_cells

_PHRASES = {s.value: s.phrase for s in HTTPStatus}
_PHRASE_RE = "|".join(sorted({re.escape(p) for p in _PHRASES.values()}, key=len, reverse=True))
_CODE = re.compile(r"(?<![\w.\-/:$#@+])([1-5]\d\d)(?![\w%+]|\.\d|-\d|:\d)")
_CODE_RUN = re.compile(r"\b[1-5]\d\d(?:\s*(?:/|,|\bor\b|\band\b)\s*[1-5]\d\d)+\b")
_AFTER = re.compile(rf"^[\s`*_)(:\-–]*(?:{_PHRASE_RE}|OK\b)", re.I)
_CONTEXT = re.compile(
    r"\b(status|code|http|returns?|returned|returning|respon\w*|answers?|errors?|success\w*|"
    r"fails?|failure|output|reply|replies|results? in|should return)\b", re.I)
_ITEM = re.compile(r"^\s*(?:[-*+]\s+)?`?[1-5]\d\d`?\s*[:\-–]")
_JSON_VALUE = re.compile(r"[\"\w]\s*:\s*$")
HEADER_NAMES = (
    "Authorization", "Content-Type", "Accept", "ETag", "If-Match", "If-None-Match", "Location",
    "Set-Cookie", "Cookie", "WWW-Authenticate", "Cache-Control", "Content-Length",
    "Content-Disposition", "Retry-After", "Allow", "Origin", "X-Request-Id",
)
_HEADER_TOKEN = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(h) for h in HEADER_NAMES) +
    r"|X-[A-Za-z0-9-]+|Access-Control-[A-Za-z-]+)(?![\w-])", re.I)
_CORS = re.compile(r"\bCORS\b|cross[- ]origin", re.I)
_LIMIT = re.compile(
    r"(?:\b(?:max(?:imum)?|min(?:imum)?|at most|at least|up to|no more than|not exceed\w*|"
    r"defaults?(?: to)?|limit(?:ed to)?|page size|per page|range|between)\b\s*[:=]?"
    r"[^.;:`/\n]{0,30}?(?<![\w.-])\d+"
    r"(?:\s*(?:-|–|to|\.\.|and)\s*\d+)?(?:\s*[A-Za-z%]+)?"
    r"|\b\d+\s*(?:-|–|to|\.\.)\s*\d+\s+(?:characters|chars|items|elements|entries|results|"
    r"bytes|digits)\b"
    r"|\"?(?:minLength|maxLength|minimum|maximum|minItems|maxItems|exclusiveMinimum|"
    r"exclusiveMaximum)\"?\s*:\s*\d+)", re.I)
_TYPE_ONLY = re.compile(r"^(string|integer|int|number|boolean|object|array|null|long|float)"
                        r"(\s*\(.*\))?$", re.I)


def clip(text: str, width: int = 160) -> str:
    text = text.strip()
    return text if len(text) <= width else text[: width - 1] + "…"


def _status_columns(lay: Layout, no: int) -> set[int] | None:
    """Indexes of the 'Status'/'Code' columns of the table line ``no`` is in (None: no table)."""
    if not lay.line(no).lstrip().startswith("|"):
        return None
    n = no
    while n > 1 and lay.line(n - 1).lstrip().startswith("|"):
        n -= 1
    head = [c.lower() for c in table_cells(lay.line(n))]
    return {i for i, c in enumerate(head) if re.search(r"\b(status|code|http)\b", c)}


def _cell_index(raw: str, offset: int) -> int:
    return raw[:offset].lstrip().lstrip("|").count("|")


def _candidates(raw: str) -> list[tuple[int, str]]:
    """(offset, code) of 3-digit numbers that may be status codes ('400/401' gives both)."""
    found = {m.start(1): m.group(1) for m in _CODE.finditer(raw)}
    for run in _CODE_RUN.finditer(raw):
        for m in re.finditer(r"[1-5]\d\d", run.group(0)):
            found.setdefault(run.start() + m.start(), m.group(0))
    return sorted(found.items())


def status_mentions(lay: Layout) -> list[Mention]:
    """Every HTTP status code the README states, one mention per (line, code)."""
    out: list[Mention] = []
    for no, raw in enumerate(lay.lines, 1):
        if not re.search(r"[1-5]\d\d", raw) or is_rule_row(raw):
            continue
        columns = _status_columns(lay, no)
        strong: dict[str, str] = {}  # code -> phrase, when sure
        weak: list[str] = []
        for start, code in _candidates(raw):
            if int(code) not in _PHRASES or code in strong or code in weak:
                continue
            before, after = raw[:start], raw[start + 3:]
            phrase = _AFTER.match(after)
            if lay.in_code(no) and _JSON_VALUE.search(before) and not phrase:
                continue  # "size": 100 in a JSON block
            if phrase or _ITEM.match(raw) or (
                    columns is not None and _cell_index(raw, start) in columns):
                strong[code] = phrase.group(0).strip(" `*_():-–") if phrase else ""
            elif not code.startswith("1"):  # 100/101... only with their phrase
                weak.append(code)
        if strong or _CONTEXT.search(raw):
            strong.update({c: "" for c in weak if c not in strong})
        for code, said in strong.items():
            out.append(Mention(no, clip(raw), f"{code} {said}".strip()))
    return out


_AMBIGUOUS = {"Accept", "Allow", "Origin", "Location", "Cookie"}  # also English words


def header_mentions(lay: Layout) -> list[Mention]:
    """Lines naming an HTTP header (``what`` is its canonical name) or CORS."""
    out: list[Mention] = []
    canon = {h.lower(): h for h in HEADER_NAMES}
    for no, raw in enumerate(lay.lines, 1):
        seen: set[str] = set()
        for m in _HEADER_TOKEN.finditer(raw):
            name = canon.get(m.group(1).lower(), m.group(1))
            if name in _AMBIGUOUS and not (f"{name}:" in raw or re.search(
                    r"\bheaders?\b", raw, re.I) and m.group(1) == name):
                continue  # "accept either", "the origin of"
            if name.lower() not in seen:
                seen.add(name.lower())
                out.append(Mention(no, clip(raw), name))
        if _CORS.search(raw):
            out.append(Mention(no, clip(raw), "CORS"))
    return out


def limit_mentions(lay: Layout) -> list[Mention]:
    """Sizes, ranges, defaults and page sizes ('max 100 characters', 'range 1..100')."""
    out: list[Mention] = []
    for no, raw in enumerate(lay.lines, 1):
        for m in _LIMIT.finditer(raw):
            out.append(Mention(no, clip(raw), m.group(0).strip(' "')))
    return out


def literal_tokens(lay: Layout) -> list[tuple[int, str]]:
    """Literal strings the README gives outside schema blocks: quoted and backticked text of
    prose, table cells and list items (paths, methods, JSON and type names excluded)."""
    out: list[tuple[int, str]] = []
    for no, raw in enumerate(lay.lines, 1):
        if lay.in_code(no):
            continue
        spans = code_spans(raw)
        for _, span in spans:
            out.extend((no, tok) for tok in _span_literals(span))
        prose = re.sub(r"`[^`]*`", " ", raw)
        for m in re.finditer(r"\"([^\"\n]{1,120})\"|(?<![\w])'([^'\n]{1,80})'(?![\w])", prose):
            tok = m.group(1) if m.group(1) is not None else m.group(2)
            if tok.strip():
                out.append((no, tok))
    return out


def _span_literals(span: str) -> list[str]:
    s = span.strip()
    if not s or s.startswith(("{", "[")) or re.match(r"^(GET|POST|PUT|DELETE|PATCH)\b", s):
        return []  # JSON (read as fields), endpoints
    if s.startswith("/") or re.match(r"^https?://", s) or _TYPE_ONLY.match(s):
        return []
    if re.match(r"^[1-5]\d\d\b", s):
        return []  # a status code with its phrase
    fm = re.match(r"^[\w$.-]+\s*:\s*([\w|<>\[\]]+)", s)
    if fm and type_word(fm.group(1)):
        return []  # "firstname: string"
    if re.fullmatch(r"\"[^\"]*\"|'[^']*'", s):
        return [s[1:-1]]
    return [s]
