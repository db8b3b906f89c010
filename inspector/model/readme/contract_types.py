"""The pieces of a README contract (:mod:`.readme_contract`): README lines cited as evidence,
documented JSON fields, endpoints with their section, and the verdict of a check."""

from __future__ import annotations

import re
from dataclasses import dataclass

# How a README token matched a looked-up text.
EXACT = "exact"  # case-sensitive
CASE = "case"  # equal ignoring case only ('bearer' vs 'Bearer')
SPELLING = "spelling"  # equal ignoring case, spaces, '-' and '_' ('NOT_FOUND' vs 'not found')

# Roles of a documented field.
REQUEST = "request"  # request body
QUERY = "query"  # query or path parameter
RESPONSE = "response"
ERROR = "error"  # an error response
ROLES = (REQUEST, QUERY, RESPONSE, ERROR, "")  # "" unknown (a named type, an example)

# What a field's ``values`` are.
FIXED = "fixed"  # "fixed value: 'Bearer'", JSON Schema const
ENUM = "enum"  # "USER|ADMIN", JSON Schema enum, "one of", a comment listing values
LITERAL = "literal"  # a literal where the rest of the schema gives types ("status": "QUEUED")
EXAMPLE = "example"  # an example value (example blocks, "e.g.", dates, numbers)
DEFAULT = "default"  # "default 10"

# Verdicts of :func:`~.readme_check.check`.
SPECIFIED = "specified"  # the README states what the test expects
CONTRADICTED = "contradicted"  # the README states something else than the test expects
SILENT = "silent"  # the README never states it
UNKNOWN = "unknown"  # cannot tell
VERDICTS = (SPECIFIED, CONTRADICTED, SILENT, UNKNOWN)


@dataclass(frozen=True, slots=True)
class Mention:
    """One README line used as evidence: its number, its text and the token found on it."""

    line: int  # 1-based
    text: str  # the line, stripped and clipped
    what: str = ""  # the token: '201', 'Bearer', 'Authorization', 'max 100 characters'
    match: str = EXACT  # EXACT / CASE / SPELLING (how ``what`` matched a looked-up text)

    @property
    def exact(self) -> bool:
        return self.match == EXACT

    def cite(self, name: str = "README.md") -> str:
        return f"{name}:{self.line}"


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """A JSON field a README documents (schema block, field list, table row or example)."""

    path: str  # dotted JSON path, arrays transparent: 'data.user.email', 'results.id'
    type: str = ""  # declared type as normalised words: 'string', 'integer', 'string|null'
    required: bool | None = None  # None: the README does not say
    constraints: str = ""  # '3-20 characters', 'minLength 8', 'ISO 8601 format'
    values: tuple[str, ...] = ()  # literal values as written ('Bearer', 'true', '1024')
    value_kind: str = ""  # FIXED / ENUM / LITERAL / EXAMPLE / DEFAULT when values are given
    role: str = ""  # one of ROLES
    line: int = 0  # README line of the field
    text: str = ""  # that line, stripped
    endpoints: tuple[str, ...] = ()  # keys ('POST /x') of the endpoints it belongs to; () global

    @property
    def name(self) -> str:
        return self.path.rsplit(".", 1)[-1]

    @property
    def mention(self) -> Mention:
        return Mention(self.line, self.text, self.path)


@dataclass(frozen=True, slots=True)
class EndpointContract:
    """One endpoint of the README with the lines that speak about it."""

    method: str
    path: str  # the README's template, base path applied ('/api/v1/users/{user_id}')
    line: int  # where it is declared
    start: int  # its section: first and last README line
    end: int
    extra: tuple[tuple[int, int], ...] = ()  # other line ranges naming it (prose, examples)
    description: str = ""

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"

    def covers(self, line: int) -> bool:
        """True when ``line`` is in the endpoint's section or a range naming it."""
        return self.start <= line <= self.end or any(a <= line <= b for a, b in self.extra)

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True, slots=True)
class SpecCheck:
    """What the README says about one expectation of a failing test."""

    verdict: str  # one of VERDICTS
    reason: str  # one sentence quoting README line numbers
    mentions: tuple[Mention, ...] = ()
    endpoint: str | None = None  # key of the README endpoint the request matched


def _loose(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text).casefold()


def match_kind(token: str, text: str, whole: bool) -> str:
    """How ``text`` occurs in ``token``: EXACT, CASE, SPELLING or '' (not at all)."""
    if whole:
        if token == text:
            return EXACT
        if token.casefold() == text.casefold():
            return CASE
        return SPELLING if _loose(token) == _loose(text) and _loose(text) else ""
    if text in token:
        return EXACT
    if text.casefold() in token.casefold():
        return CASE
    return SPELLING if _loose(text) and _loose(text) in _loose(token) else ""
