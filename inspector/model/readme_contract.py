"""The contract a task README states, with the README line of every piece of it.

:meth:`ReadmeContract.parse` reads the endpoints (via :mod:`.spec_endpoints`, each with the line
range of its section and of other places naming it), the HTTP status codes the README mentions,
the JSON fields of its schemas (request, response, error format) with type, required flag,
constraints and literal values, the literal strings it gives, its limits and the headers it
names. The queries answer "what does the README say about X" for one failing test's
expectation; :func:`check` (from :mod:`.readme_check`) turns that into a verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .contract_types import (
    CASE,
    ERROR,
    EXACT,
    REQUEST,
    RESPONSE,
    SPELLING,
    EndpointContract,
    FieldSpec,
    Mention,
    match_kind,
)
from .readme_check import check
from .readme_fields import FieldReader, role_of
from .readme_json import parse_json
from .readme_layout import Block, Layout, code_spans, is_rule_row, table_cells
from .readme_mentions import (
    clip,
    header_mentions,
    limit_mentions,
    literal_tokens,
    status_mentions,
)
from .readme_sections import METHODS, Sections, match_path
from .spec_endpoints import declared_base, extract_spec_endpoints

__all__ = ["EndpointContract", "FieldSpec", "Mention", "ReadmeContract", "check"]

RESPONSE_ROLES = (RESPONSE, ERROR, "")
_HTTP_FIRST = re.compile(rf"^\s*(?:{'|'.join(METHODS)})\s+/\S*\s+HTTP/", re.M)
_NAME_LABEL = re.compile(
    r"\b(?:interface|operation|api|endpoint)?\s*(?:name|id)\b\W{0,4}:\W{0,4}`?([A-Za-z][\w-]{3,})",
    re.I)
_HEADER_FAMILIES = {
    "access-control": re.compile(r"^(CORS|Access-Control-.*)$", re.I),
    "content-type": re.compile(r"^Content-Type$", re.I),
}


def _norm_segments(path: str) -> list[str]:
    """'data["items"][0].id', '$.data.items.0.id', 'data/items/id' -> ['data', 'items', 'id']."""
    path = re.sub(r"\[\s*['\"]([^'\"]+)['\"]\s*\]", r".\1", path)
    path = re.sub(r"\[[^\]]*\]", "", path)
    return [s for s in re.split(r"[./]", path) if s and s not in ("$", "*") and not s.isdigit()]


def _field_level(field_path: str, query: list[str]) -> int:
    """4 equal, 3 equal but for one envelope segment, 2 a longer suffix, 1 the leaf, 0 no."""
    fs = _norm_segments(field_path)
    if not fs or not query or fs[-1] != query[-1]:
        return 0
    if fs == query:
        return 4
    short, long_ = (fs, query) if len(fs) < len(query) else (query, fs)
    if long_[-len(short):] == short:
        return 3 if len(long_) - len(short) == 1 else 2
    return 1


@dataclass(frozen=True)
class ReadmeContract:
    """What one README states (see the module docstring). Build with :meth:`parse`."""

    name: str
    lines: tuple[str, ...]
    base_path: str  # declared base path ('' none)
    base_line: int
    endpoints: tuple[EndpointContract, ...]
    statuses: tuple[Mention, ...]  # every status code mention ('what': '201' / '404 Not Found')
    fields: tuple[FieldSpec, ...]
    literals: tuple[Mention, ...]  # literal strings given ('what' is the literal)
    limits: tuple[Mention, ...]
    headers: tuple[Mention, ...]  # 'what' is the header's name, or 'CORS'
    prefixes: tuple[tuple[str, ...], ...] = ()  # path prefixes a test path may add or omit

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, name: str = "README.md") -> ReadmeContract:
        """Read ``text`` (a README's content); never raises on odd Markdown."""
        lay = Layout.read(text)
        base, base_line = declared_base(text)
        secs = Sections(lay, extract_spec_endpoints(text), base)
        eps = secs.build()
        fields = _Fields(lay, eps).collect()
        literals = [Mention(f.line, f.text, v) for f in fields for v in f.values]
        literals += [Mention(no, clip(lay.line(no)), tok) for no, tok in literal_tokens(lay)]
        literals.sort(key=lambda m: m.line)
        return cls(name, tuple(lay.lines), base, base_line, tuple(eps),
                   tuple(status_mentions(lay)), tuple(fields), tuple(literals),
                   tuple(limit_mentions(lay)), tuple(header_mentions(lay)),
                   tuple(tuple(p) for p in secs.prefixes))

    # -- endpoints ----------------------------------------------------------------------------

    def endpoint_for(self, method: str, path: str) -> EndpointContract | None:
        """The README endpoint a request goes to: ``path`` may be concrete, ``{}``-templated,
        a URL, with or without the base path. ``method`` '' matches any method."""
        hits = self.endpoints_at(path, method)
        return hits[0] if hits else None

    def endpoints_at(self, path: str, method: str = "") -> list[EndpointContract]:
        """Endpoints whose template fits ``path`` (best fit first)."""
        got = []
        for e in self.endpoints:
            if method and e.method != method.upper():
                continue
            s = match_path(e.path, path, tuple(list(p) for p in self.prefixes))
            if s is not None:
                got.append((s, e))
        got.sort(key=lambda x: -x[0])
        return [e for _, e in got]

    def endpoint(self, key: str) -> EndpointContract | None:
        return next((e for e in self.endpoints if e.key == key), None)

    def covered(self, line: int) -> bool:
        """True when ``line`` belongs to some endpoint's section or naming range."""
        return any(e.covers(line) for e in self.endpoints)

    # -- statuses -----------------------------------------------------------------------------

    def status_mentions(self, code: int | str | None = None,
                        endpoint: EndpointContract | None = None) -> list[Mention]:
        """Mentions of status ``code`` (all codes when None); with ``endpoint``, only those in
        its section or the places naming it."""
        want = str(code) if code is not None else ""
        return [m for m in self.statuses if (not want or m.what.split()[0] == want)
                and (endpoint is None or endpoint.covers(m.line))]

    def global_statuses(self, code: int | str | None = None) -> list[Mention]:
        """Status mentions outside every endpoint's lines (error tables, general notes)."""
        return [m for m in self.status_mentions(code) if not self.covered(m.line)]

    @staticmethod
    def codes(mentions: list[Mention]) -> list[str]:
        return sorted({m.what.split()[0] for m in mentions})

    # -- fields -------------------------------------------------------------------------------

    def field_matches(self, json_path: str, endpoint: EndpointContract | None = None,
                      roles: tuple[str, ...] | None = None
                      ) -> list[tuple[FieldSpec, int, str]]:
        """Fields fitting ``json_path`` as (field, level, scope), best first: level 4 exact,
        3 with/without one envelope segment ('data.'), 2 a longer suffix, 1 the leaf name;
        scope 'endpoint' (documented for ``endpoint``), 'global' (error format, named
        types, examples of no endpoint) or 'other' (another endpoint's)."""
        query = _norm_segments(json_path)
        out = []
        for f in self.fields:
            if roles is not None and f.role not in roles:
                continue
            level = _field_level(f.path, query)
            if not level:
                continue
            if endpoint is not None and endpoint.key in f.endpoints:
                scope = "endpoint"
            elif not f.endpoints:
                scope = "global"
            else:
                scope = "other" if endpoint is not None else "endpoint"
            out.append((f, level, scope))
        rank = {"endpoint": 0, "global": 1, "other": 2}
        out.sort(key=lambda x: (rank[x[2]], -x[1], x[0].line))
        return out

    def field(self, json_path: str, endpoint: EndpointContract | None = None,
              roles: tuple[str, ...] | None = None) -> FieldSpec | None:
        """The best documented field for ``json_path`` (the endpoint's own first, then global
        ones, then another endpoint's), or None."""
        got = self.field_matches(json_path, endpoint, roles)
        return got[0][0] if got else None

    def endpoint_fields(self, endpoint: EndpointContract,
                        roles: tuple[str, ...] = RESPONSE_ROLES) -> list[FieldSpec]:
        return [f for f in self.fields if endpoint.key in f.endpoints and f.role in roles]

    @property
    def error_format(self) -> list[FieldSpec]:
        """Fields of the error responses documented for no single endpoint."""
        return [f for f in self.fields if f.role == ERROR and not f.endpoints]

    # -- literals, headers, limits ------------------------------------------------------------

    def literal_mentions(self, text: str, whole: bool = False) -> list[Mention]:
        """Literals the README gives that contain ``text`` (equal to it with ``whole``); each
        mention's ``match`` says EXACT (case-sensitive), CASE or SPELLING."""
        out: list[Mention] = []
        seen: set[tuple[int, str]] = set()
        for m in self.literals:
            kind = match_kind(m.what, text, whole)
            if kind and (m.line, m.what) not in seen:
                seen.add((m.line, m.what))
                out.append(replace(m, match=kind))
        order = {EXACT: 0, CASE: 1, SPELLING: 2}
        return sorted(out, key=lambda m: (order[m.match], m.line))

    def header_mentions(self, name: str) -> list[Mention]:
        """Lines naming header ``name`` (case-insensitive); CORS counts for Access-Control-*."""
        out = [m for m in self.headers if m.what.casefold() == name.casefold()]
        for pattern in _HEADER_FAMILIES.values():
            if pattern.match(name):
                out += [m for m in self.headers if pattern.match(m.what) and m not in out]
        return sorted(out, key=lambda m: m.line)

    def limit_mentions(self, word: str = "") -> list[Mention]:
        return [m for m in self.limits if word.casefold() in m.text.casefold()]

    def cite(self, line: int) -> str:
        return f"{self.name}:{line}"

    def text_of(self, line: int) -> str:
        return clip(self.lines[line - 1]) if 1 <= line <= len(self.lines) else ""


class _Fields:
    """Collects the fields of one README and assigns them to endpoints."""

    def __init__(self, lay: Layout, eps: list[EndpointContract]) -> None:
        self.lay = lay
        self.eps = eps
        self.reader = FieldReader(lay.lines)
        self.out: list[FieldSpec] = []
        self.names = {e.key: self._names(e) for e in eps}

    def _names(self, e: EndpointContract) -> set[str]:
        got = set()
        for no in range(e.start, e.end + 1):
            for m in _NAME_LABEL.finditer(self.lay.line(no)):
                if m.group(1).upper() not in METHODS:
                    got.add(m.group(1))
        return got

    def _owners(self, line: int, label: str) -> tuple[str, ...]:
        owners = tuple(e.key for e in self.eps if e.covers(line))
        if not owners and label:
            owners = tuple(k for k, names in self.names.items()
                           if any(re.search(rf"\b{re.escape(n)}\b", label) for n in names))
        return owners

    def _take(self, label: str) -> None:
        """Move the fields just read to the output, each owned by the endpoints covering its
        line (or named by ``label``)."""
        self.out += [replace(f, endpoints=self._owners(f.line, label)) for f in self.reader.fields]
        self.reader.fields = []

    def collect(self) -> list[FieldSpec]:
        for block in self.lay.blocks:
            self._block(block)
        for no in range(1, len(self.lay.lines) + 1):
            if not self.lay.in_code(no):
                self._line(no)
        self._tables()
        return sorted(self.out, key=lambda f: f.line)

    def _block_role(self, block: Block) -> tuple[str, str, bool, bool]:
        """(role, label, example, schema) of a block: an example's literals are examples, a
        block labelled as a schema states its literals."""
        lay = self.lay
        near, label = lay.label(block)
        example = bool(re.search(r"\bexamples?\b", label, re.I))
        role = role_of(lay.line(near)) or role_of(label)
        schema = bool(re.search(r"\bschema\b|\bformat\b", label, re.I)) and not example
        if not role and re.search(r"\berror", lay.section_title(block.start), re.I):
            role = ERROR
        prev = lay.block_before(block)
        if not label and prev is not None and (_HTTP_FIRST.search(prev.body) or "curl" in
                                                prev.body):
            role, example = RESPONSE, True  # the response shown after an example request
        if re.search(r"\bexamples?\b", lay.section_title(block.start), re.I):
            example, schema = True, False
        return role, label, example, schema

    def _block(self, block: Block) -> None:
        role, label, example, schema = self._block_role(block)
        body = block.body
        if block.is_json:
            node = parse_json(body, block.first)
            if node is not None:
                self.reader.read_tree(node, role, example, schema)
        elif _HTTP_FIRST.search(body) or re.search(r"^\s*(\$\s*)?curl\b", body, re.M):
            brace = body.find("{")
            if brace >= 0:  # the request body of an example request
                node = parse_json(body[brace:], block.first + body[:brace].count("\n"))
                if node is not None:
                    self.reader.read_tree(node, REQUEST, example=True)
        else:
            for i, raw in enumerate(body.splitlines()):
                self.reader.read_field_line(block.first + i, raw, role or REQUEST)
        self._take(label)

    def _line(self, no: int) -> None:
        lay = self.lay
        raw = lay.line(no)
        table = raw.lstrip().startswith("|")
        for off, span in code_spans(raw):
            s = span.strip()
            if not (s.startswith("{") or re.match(r"\[\s*[{\"]", s)):
                continue
            node = parse_json(s, no)
            if node is None:
                continue
            prefix = re.sub(r"`[^`]*`", " ", raw[:off])
            role = self._table_role(no) if table else role_of(prefix)
            if not role and not table and lay.is_item(no):
                role = role_of(lay.parent(no)[1])
            self.reader.read_tree(node, role)
            self._take("")
        if lay.is_item(no) and not table:
            role = role_of(self._context(no))
            if self.reader.read_field_line(no, raw, role):
                self._take("")

    def _context(self, no: int) -> str:
        """The text a list item's field belongs to: its parent item, or the label above."""
        lay = self.lay
        up, text = lay.parent(no)
        if up and lay.is_item(up):
            return text
        n = no - 1
        while n > 0 and (lay.is_item(n) or not lay.line(n).strip()) and no - n < 30:
            n -= 1
        return lay.line(n) if n > 0 and not lay.in_code(n) else ""

    def _table_role(self, no: int) -> str:
        lay = self.lay
        n = no
        while n > 1 and lay.line(n - 1).lstrip().startswith("|"):
            n -= 1
        head = " ".join(table_cells(lay.line(n)))
        if re.search(r"\berror", lay.section_title(no), re.I) or re.search(r"\bstatus\b", head,
                                                                            re.I):
            return ERROR
        return role_of(head)

    def _tables(self) -> None:
        lay = self.lay
        rows: list[tuple[int, list[str]]] = []
        for no in range(1, len(lay.lines) + 2):
            raw = lay.line(no)
            if raw.lstrip().startswith("|") and not lay.in_code(no):
                if not is_rule_row(raw):
                    rows.append((no, table_cells(raw)))
                continue
            if rows:
                title = lay.section_title(rows[0][0])
                role = role_of(title) or role_of(lay.line(rows[0][0] - 2))
                self.reader.read_table(rows, role)
                self._take(title)
                rows = []

