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

from inspector.model.readme.check import check
from inspector.model.readme.contract_types import (
    CASE,
    ERROR,
    EXACT,
    RESPONSE,
    SPELLING,
    EndpointContract,
    FieldSpec,
    Mention,
    SpecCheck,
    match_kind,
)
from inspector.model.readme.layout import Layout
from inspector.model.readme.mentions import (
    clip,
    header_mentions,
    limit_mentions,
    literal_tokens,
    status_mentions,
)
from inspector.model.readme.schemas import collect_fields
from inspector.model.readme.sections import Sections, fitting
from inspector.model.readme.spec_endpoints import declared_base, extract_spec_endpoints

__all__ = ["EndpointContract", "FieldSpec", "Mention", "ReadmeContract", "SpecCheck", "check"]

RESPONSE_ROLES = (RESPONSE, ERROR, "")
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
        fields = collect_fields(lay, eps)
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
        prefixes = tuple(list(p) for p in self.prefixes)
        return [e for _, e in fitting(self.endpoints, method, path, prefixes)]

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

    def literal_mentions(self, text: str, whole: bool = False,
                         endpoint: EndpointContract | None = None) -> list[Mention]:
        """Literals the README gives that contain ``text`` (equal to it with ``whole``), exact
        matches first; each mention's ``match`` says EXACT (case-sensitive), CASE or SPELLING.
        With ``endpoint``: only those in its lines."""
        out: list[Mention] = []
        seen: set[tuple[int, str]] = set()
        for m in self.literals:
            kind = match_kind(m.what, text, whole)
            if kind and (m.line, m.what) not in seen and (endpoint is None
                                                           or endpoint.covers(m.line)):
                seen.add((m.line, m.what))
                out.append(replace(m, match=kind))
        order = {EXACT: 0, CASE: 1, SPELLING: 2}
        return sorted(out, key=lambda m: (order[m.match], m.line))

    def header_mentions(self, name: str, endpoint: EndpointContract | None = None
                        ) -> list[Mention]:
        """Lines naming header ``name`` (case-insensitive); CORS counts for Access-Control-*.
        With ``endpoint``: only those in its lines."""
        out = [m for m in self.headers if m.what.casefold() == name.casefold()]
        for pattern in _HEADER_FAMILIES.values():
            if pattern.match(name):
                out += [m for m in self.headers if pattern.match(m.what) and m not in out]
        return sorted((m for m in out if endpoint is None or endpoint.covers(m.line)),
                      key=lambda m: m.line)

    def limit_mentions(self, word: str = "", endpoint: EndpointContract | None = None
                       ) -> list[Mention]:
        """Sizes, ranges, defaults ('max 100 characters', 'minLength": 3', 'default 20')
        whose line contains ``word``; with ``endpoint``: only those in its lines."""
        return [m for m in self.limits if word.casefold() in m.text.casefold()
                and (endpoint is None or endpoint.covers(m.line))]

    def cite(self, line: int) -> str:
        return f"{self.name}:{line}"

    def text_of(self, line: int) -> str:
        return clip(self.lines[line - 1]) if 1 <= line <= len(self.lines) else ""
