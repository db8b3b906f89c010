"""The condition a failing error-status test exercises, read from the request it built.

A test that expects a 4xx sends something it considers wrong: a field left out, a
whitespace-only name, a 300-character title, a negative page size, a date range given
backwards, a body that is not JSON, no token, an id that does not exist. :func:`sent_request`
reads the request the golden test built (its ``json=``/``data=``/``params=``/``headers=`` and URL,
as far as they are static), and :func:`conditions_of` names the conditions it exercises from
the values themselves, the assertion's expected code and the test's name — without the README,
which :mod:`inspector.model.readme.conditions` then asks whether it states them.
Pure: parses the suite's texts, runs nothing.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from inspector.model.failures.facts import Expectation
from inspector.model.suite import flow as sf

# Conditions a request can exercise.
MISSING = "missing"  # a field left out
WRONG_TYPE = "wrong type"  # a value of another type than documented
EMPTY = "empty"  # "" / [] / {}
WHITESPACE = "whitespace-only"  # "   "
TOO_LONG = "too long"  # a string longer than a limit
TOO_SHORT = "too short"
BELOW = "below a limit"  # a number under a minimum (negative, zero)
ABOVE = "above a limit"  # a number over a maximum (a page size of 10000)
NOT_IN_SET = "not in the enumeration"  # a value outside a documented set of values
FORMAT = "invalid format"  # not an email / date / uuid / url
CHARSET = "character rule"  # a password without digits, a name with symbols
MALFORMED = "malformed body"  # a body that is not JSON
CONTENT_TYPE = "wrong content type"
UNKNOWN_ID = "unknown id"  # a resource that does not exist
DUPLICATE = "duplicate"  # a resource that already exists
UNAUTHORISED = "unauthorised"  # no token, a bad token
ORDER = "order"  # start after end
KINDS = (MISSING, WRONG_TYPE, EMPTY, WHITESPACE, TOO_LONG, TOO_SHORT, BELOW, ABOVE, NOT_IN_SET,
         FORMAT, CHARSET, MALFORMED, CONTENT_TYPE, UNKNOWN_ID, DUPLICATE, UNAUTHORISED, ORDER)

LONG_STRING = 100
"""A string at least this long is sent to exceed a limit (when the README gives none)."""
LARGE_NUMBER = 1000
"""A number at least this large is sent to exceed a limit (a page size, a quantity)."""


class _Unknown:
    """A value the test computes at run time (shown as ``…``)."""

    def __repr__(self) -> str:
        return "…"


UNKNOWN = _Unknown()
OPEN = "\0open"
"""A key standing for the unknown keys of a ``**spread`` the test computes."""


@dataclass(frozen=True, slots=True)
class SentRequest:
    """The request a test built, as far as it is static."""

    method: str
    path: str
    file: str | None
    line: int
    body: dict[str, Any] | None = None  # json= object: key -> value (UNKNOWN where computed)
    complete: bool = True  # every key of the body is known (no computed ``**spread``)
    body_kind: str = ""  # "json", "data", "content", "files" or "" (no body)
    raw: Any = None  # the data=/content=/json= value when it is not an object
    params: dict[str, Any] = field(default_factory=dict)  # params= and the URL's query string
    headers: dict[str, Any] = field(default_factory=dict)
    has_auth: bool = False  # headers=/auth=/cookies= carry credentials
    segments: tuple[str, ...] = ()  # literal path segments of the URL ('users', '99999')

    @property
    def fields(self) -> dict[str, Any]:
        """Body fields then query parameters (what a README documents as input)."""
        return {**self.params, **(self.body or {})}


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition the test exercises: its kind, the field and value (when one), a detail
    ('300 characters', 'start_date after end_date') and where it was read ('value', 'request',
    'name' for the test's name)."""

    kind: str
    field: str | None = None
    value: Any = None
    detail: str = ""
    source: str = "value"

    def describe(self) -> str:
        """'username whitespace-only ('   ')', 'no token', 'title too long (300 characters)'."""
        what = f"{self.field} {self.kind}" if self.field else _PHRASES.get(self.kind, self.kind)
        shown = "" if self.value is None or self.value is UNKNOWN else f" ({_show(self.value)})"
        detail = f" ({self.detail})" if self.detail and not shown else ""
        by = " (from the test's name)" if self.source == "name" else ""
        return f"{what}{shown}{detail}{by}"


_PHRASES = {MISSING: "a missing field", WRONG_TYPE: "a value of the wrong type",
            EMPTY: "an empty value", WHITESPACE: "a whitespace-only value",
            TOO_LONG: "an over-long value", TOO_SHORT: "a too-short value",
            BELOW: "a value below a limit", ABOVE: "a value above a limit",
            NOT_IN_SET: "a value outside a set of values", FORMAT: "a malformed value",
            CHARSET: "a value breaking a character rule", DUPLICATE: "a duplicate",
            UNAUTHORISED: "a request without valid credentials",
            UNKNOWN_ID: "a resource that does not exist", ORDER: "bounds given backwards"}


def _show(value: Any) -> str:
    if isinstance(value, str) and value and not value.strip():
        return f"{len(value)} whitespace character{'s' if len(value) > 1 else ''}"
    if isinstance(value, str) and len(value) > 24:
        return f"a {len(value)}-character string"
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


# ----------------------------------------------------------------------------- the request

def sent_request(exp: Expectation, sources: Mapping[str, str],
                 test_id: str = "") -> SentRequest | None:
    """The request of ``exp`` read from the suite ``sources`` (suite-relative path -> text),
    or None when its call cannot be found. ``test_id`` picks a parametrized case's values."""
    req = exp.request
    if req is None or not req.line:
        return None
    try:
        suite = sf.Suite(sources)
        f = suite.file(req.file or exp.test_file)
        if f is None:
            return None
        scope = suite.scope_at(f, req.line)
        call = next((n for n in ast.walk(f.tree) if isinstance(n, ast.Call)
                     and n.lineno == req.line and suite.request_method(n, scope)), None)
        if call is None:
            return None
        case_id = test_id.split("[", 1)[1][:-1] if test_id.endswith("]") else None
        return _Reader(suite, scope, case_id).request(call, req.method, req.path, f.path)
    except (RecursionError, ValueError, TypeError, AttributeError):
        return None


class _Reader:
    """Static values of one request call's arguments."""

    def __init__(self, suite: sf.Suite, scope: sf.Scope, case_id: str | None = None) -> None:
        self.suite = suite
        self.scope = scope
        self.case_id = case_id  # the parametrized case's id ('  ' in test_x[  ]), None if none

    def _parametrized(self, name: str, scope: sf.Scope) -> Any:
        """The value ``@pytest.mark.parametrize`` gave parameter ``name`` in this case (the
        one whose pytest id is the test id's bracket), None when unknown."""
        if scope.func is None or self.case_id is None:
            return None
        for deco in scope.func.decorator_list:
            if not (isinstance(deco, ast.Call) and (sf.dotted(deco.func) or "").endswith(
                    "parametrize") and len(deco.args) >= 2):
                continue
            ok, names = self.suite.static_value(deco.args[0], scope)
            values = self.value(deco.args[1], scope)
            if not ok or not isinstance(values, list | tuple):
                continue
            argnames = [n.strip() for n in names.split(",")] if isinstance(names, str) \
                else list(names)
            if name not in argnames:
                continue
            at = argnames.index(name)
            for i, row in enumerate(values):
                row = tuple(row) if len(argnames) > 1 and isinstance(row, list | tuple) \
                    else (row,)
                ident = "-".join(_param_id(v, n, i) for v, n in zip(row, argnames,
                                                                    strict=False))
                if ident == self.case_id or ident in self.case_id.split("-"):
                    return row[at] if at < len(row) else None
        return None

    def request(self, call: ast.Call, method: str, path: str, file: str) -> SentRequest:
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        body: dict[str, Any] | None = None
        raw: Any = None
        kind = ""
        for name in ("json", "data", "content", "files"):
            if name in kw:
                kind = name
                value = self.value(kw[name], self.scope)
                if isinstance(value, dict) and name in ("json", "data"):
                    body = value
                else:
                    raw = value
                break
        params = self.value(kw["params"], self.scope) if "params" in kw else {}
        params = dict(params) if isinstance(params, dict) else {}
        url = self.suite._url_arg(call)
        parts = self.suite.url_parts(url, self.scope) if url is not None else []
        text = "".join(p for p in parts if p != sf.UNKNOWN_PART)
        if "?" in text:
            params = {**dict(parse_qsl(text.split("?", 1)[1], keep_blank_values=True)),
                      **params}
        headers = self.value(kw["headers"], self.scope) if "headers" in kw else {}
        headers = dict(headers) if isinstance(headers, dict) else {}
        if "content_type" in kw:  # Flask's and Werkzeug's test clients
            headers["Content-Type"] = self.value(kw["content_type"], self.scope)
        has_auth = any(k in kw for k in ("auth", "cookies")) or any(
            str(h).lower() in ("authorization", "x-api-key", "x-auth-token", "cookie")
            for h in headers) or ("headers" in kw and not isinstance(
                self.value(kw["headers"], self.scope), dict))
        complete = body is None or OPEN not in body
        if body is not None:
            body = {k: v for k, v in body.items() if k != OPEN}
        return SentRequest(method, path, file, call.lineno, body, complete, kind, raw, params,
                           headers, has_auth, _segments(parts))

    def value(self, node: ast.AST, scope: sf.Scope, depth: int = 0) -> Any:
        """``node``'s value: objects key by key (``**`` spreads, ``del``/``pop`` and
        ``x["k"] = v`` after the binding applied), UNKNOWN where computed."""
        if depth > sf.MAX_DEPTH:
            return UNKNOWN
        if isinstance(node, ast.Dict):
            out: dict[str, Any] = {}
            for k, v in zip(node.keys, node.values, strict=False):
                if k is None:
                    spread = self.value(v, scope, depth + 1)
                    out.update(spread if isinstance(spread, dict) else {OPEN: UNKNOWN})
                elif isinstance(k, ast.Constant) and isinstance(k.value, str):
                    out[k.value] = self.value(v, scope, depth + 1)
            return out
        if isinstance(node, ast.List | ast.Tuple):
            return [self.value(e, scope, depth + 1) for e in node.elts]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "copy" and not node.args:
            return self.value(node.func.value, scope, depth + 1)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "dict":
            base = self.value(node.args[0], scope, depth + 1) if node.args else {}
            out = dict(base) if isinstance(base, dict) else {}
            out.update({k.arg: self.value(k.value, scope, depth + 1)
                        for k in node.keywords if k.arg})
            return out
        if isinstance(node, ast.Name):
            b = self.suite.binding(node.id, scope)
            if b == "param":
                given = self._parametrized(node.id, scope)
                if given is not None:
                    return given
                b = self.suite.param_value(node.id, scope)
            if isinstance(b, tuple):
                got = self.value(b[0], b[1], depth + 1)
                if isinstance(got, dict) and scope.func is not None:
                    start = b[1].line if b[1].func is scope.func else 0
                    got = self._edits(dict(got), node.id, scope, start)
                return got
            return UNKNOWN
        ok, value = self.suite.static_value(node, scope)
        return value if ok else UNKNOWN

    def _edits(self, obj: dict[str, Any], name: str, scope: sf.Scope,
               after: int) -> dict[str, Any]:
        """``obj`` with the ``name["k"] = v`` / ``del name["k"]`` / ``name.pop("k")`` /
        ``name.update(...)`` of the function between ``after`` and the scope's line."""
        if scope.func is None:
            return obj
        steps: list[tuple[int, str, str, ast.AST | None]] = []
        for node in sf.walk_local(scope.func):
            line = getattr(node, "lineno", 0)
            if not after < line < scope.line:
                continue
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if _item_of(t, name) is not None:
                        steps.append((line, "set", _item_of(t, name) or "", node.value))
            elif isinstance(node, ast.Delete):
                for t in node.targets:
                    if _item_of(t, name) is not None:
                        steps.append((line, "del", _item_of(t, name) or "", None))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
                if node.func.attr == "pop" and node.args and isinstance(
                        sf.const_key(node.args[0]), str):
                    steps.append((line, "del", sf.const_key(node.args[0]), None))
                elif node.func.attr == "update":
                    steps += [(line, "set", k.arg, k.value) for k in node.keywords if k.arg]
        for _, op, key, value in sorted(steps, key=lambda s: s[0]):
            if op == "del":
                obj.pop(key, None)
            elif value is not None:
                obj[key] = self.value(value, scope)
        return obj


def _param_id(value: Any, argname: str, index: int) -> str:
    """The id pytest gives a parametrized value."""
    if isinstance(value, str):
        return value.encode("unicode_escape").decode("ascii")
    if value is None or isinstance(value, bool | int | float):
        return str(value)
    return f"{argname}{index}"


def _item_of(target: ast.AST, name: str) -> str | None:
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
            and target.value.id == name:
        key = sf.const_key(target.slice)
        return key if isinstance(key, str) else None
    return None


def _segments(parts: list[str]) -> tuple[str, ...]:
    """Literal path segments of a URL given as pieces (unknown pieces dropped)."""
    text = "".join(p if p != sf.UNKNOWN_PART else "/\0/" for p in parts)
    text = re.sub(r"^[A-Za-z][\w+.-]*://[^/]*", "", text).split("?", 1)[0]
    return tuple(s for s in text.split("/") if s and "\0" not in s)


# ----------------------------------------------------------------------------- conditions

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
_DATE = re.compile(r"^\d{4}-\d\d-\d\d")
_UUID = re.compile(r"^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$", re.I)
_URL = re.compile(r"^[a-z][\w+.-]*://\S+$", re.I)
FORMAT_PATTERNS = {"email": _EMAIL, "date": _DATE, "uuid": _UUID, "url": _URL}
"""What a well-formed value of each format looks like."""
_FORMATS = (("email", re.compile(r"e-?mail", re.I), _EMAIL),
            ("date", re.compile(r"(^|_)(date|day|birthday|dob|start|end|from|to|since|until)"
                                r"($|_)|_at$|_on$", re.I), _DATE),
            ("uuid", re.compile(r"uuid|guid", re.I), _UUID),
            ("url", re.compile(r"(^|_)(url|uri|link|website|homepage)($|_)", re.I), _URL))
_PAIRS = (("start", "end"), ("from", "to"), ("min", "max"), ("since", "until"),
          ("begin", "end"), ("low", "high"), ("check_in", "check_out"))
_UNKNOWN_ID = re.compile(r"^(?:\d{3,}|0|-\d+|[0-9a-f]{8}-[0-9a-f-]{27}|[0-9a-f]{24}|"
                         r".*(?:nonexist|non-exist|not[-_]?exist|missing|unknown|invalid|fake|"
                         r"does[-_]?not|no[-_]?such|bogus).*)$", re.I)
_NAME_CONDITIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (WHITESPACE, re.compile(r"whitespace|blank|spaces")),
    (EMPTY, re.compile(r"empty")),
    (MISSING, re.compile(r"missing|without_(?!token|auth)|no_(?!token|auth)\w*field|required")),
    (TOO_LONG, re.compile(r"too_long|exceed|max_length|overlong|long_")),
    (TOO_SHORT, re.compile(r"too_short|min_length|short_")),
    (ORDER, re.compile(r"backward|revers|end_before_start|start_after_end|before_start|"
                       r"after_end|invalid_(?:date_)?range|wrong_order")),
    (BELOW, re.compile(r"negative|zero|too_small|below|under_min|less_than")),
    (ABOVE, re.compile(r"too_large|too_big|too_many|above|over_max|out_of_range|over_limit|"
                       r"page_size|limit_")),
    (CHARSET, re.compile(r"weak|no_digit|without_digit|no_number|no_upper|no_special|"
                         r"special_char|invalid_char|complexity|strength")),
    (FORMAT, re.compile(r"invalid_(?:email|date|format|url|uuid|phone)|bad_format|malformed_"
                        r"(?:email|date)|wrong_format")),
    (WRONG_TYPE, re.compile(r"wrong_type|invalid_type|non_numeric|not_a_number|string_instead|"
                            r"type_error")),
    (NOT_IN_SET, re.compile(r"invalid_(?:status|role|type|category|unit|priority|choice)|"
                            r"unknown_(?!id|user|resource|path|endpoint|route)|"
                            r"unsupported_(?!(?:http_)?method)")),
    (MALFORMED, re.compile(r"malformed|invalid_json|bad_json|not_json")),
    (CONTENT_TYPE, re.compile(r"content_type|media_type")),
    (DUPLICATE, re.compile(r"duplicate|already_exist|conflict|taken|twice")),
    (UNAUTHORISED, re.compile(r"unauthori[sz]ed|without_token|no_token|invalid_token|no_auth|"
                              r"without_auth|expired|bad_token|wrong_password|"
                              r"invalid_credentials")),
    (UNKNOWN_ID, re.compile(r"nonexist|non_exist|not_found|unknown_id|does_not_exist|"
                            r"invalid_id|missing_id")),
)
_CLIENT_CODES = range(400, 500)


def expects_refusal(exp: Expectation) -> bool:
    """A status check that wants a 4xx (every alternative a client error)."""
    expected = exp.expected if isinstance(exp.expected, tuple) else (exp.expected,)
    return bool(expected) and all(isinstance(e, int) and not isinstance(e, bool)
                                  and e in _CLIENT_CODES for e in expected)


def conditions_of(exp: Expectation, sent: SentRequest | None,
                  test_name: str = "") -> list[Condition]:
    """The conditions a refusal test exercises: from the values it sends, the request's shape
    and the expected code; the test's name only when those say nothing."""
    codes = exp.expected if isinstance(exp.expected, tuple) else (exp.expected,)
    if 429 in codes or 405 in codes:
        return []  # a rate or a method: no condition of the request's values
    found: list[Condition] = []
    if sent is not None:
        found += _value_conditions(sent)
        found += _request_conditions(exp, sent)
    if not found:
        found += name_conditions(test_name)
    seen: set[tuple[str, str | None]] = set()
    out = []
    for c in found:
        if (c.kind, c.field) not in seen:
            seen.add((c.kind, c.field))
            out.append(c)
    return out


def name_conditions(test_name: str) -> list[Condition]:
    """Conditions a test's name announces ('test_register_whitespace_username')."""
    name = test_name.split("::")[-1].split("[")[0].lower()
    return [Condition(kind, None, None, "", "name") for kind, pat in _NAME_CONDITIONS
            if pat.search(name)][:2]


def _value_conditions(sent: SentRequest) -> list[Condition]:
    out: list[Condition] = []
    values = sent.fields
    for key, value in values.items():
        if value is UNKNOWN:
            continue
        if isinstance(value, str):
            out += _string_conditions(key, value)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int | float):
            if value < 0:
                out.append(Condition(BELOW, key, value, "negative"))
            elif value >= LARGE_NUMBER:
                out.append(Condition(ABOVE, key, value, "a large number"))
        elif isinstance(value, list | dict) and not value:
            out.append(Condition(EMPTY, key, value))
    out += _order(values)
    return out


def _string_conditions(key: str, value: str) -> list[Condition]:
    if value == "":
        return [Condition(EMPTY, key, value)]
    if not value.strip():
        return [Condition(WHITESPACE, key, value)]
    out = []
    if len(value) >= LONG_STRING:
        out.append(Condition(TOO_LONG, key, value, f"{len(value)} characters"))
    for fmt, name_pat, value_pat in _FORMATS:
        if name_pat.search(key) and not value_pat.match(value.strip()) and (
                fmt != "date" or re.search(r"\d", value) or "date" in key.lower()):
            out.append(Condition(FORMAT, key, value, f"not {article(fmt)}"))
            break
    if value != value.strip():
        out.append(Condition(WHITESPACE, key, value, "leading or trailing spaces"))
    return out


def article(word: str) -> str:
    """'an email', 'a date'."""
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _order(values: dict[str, Any]) -> list[Condition]:
    """A pair of bounds given backwards (start after end, min over max)."""
    out = []
    keys = list(values)
    for low, high in _PAIRS:
        for k in keys:
            lk = k.lower()
            if not re.search(rf"(^|_){low}($|_)", lk):
                continue
            other = next((o for o in keys if o != k and o.lower() == re.sub(
                rf"(^|_){low}($|_)", rf"\g<1>{high}\g<2>", lk)), None)
            if other is None:
                continue
            a, b = values[k], values[other]
            comparable = (isinstance(a, str) and isinstance(b, str)) or (
                isinstance(a, int | float) and isinstance(b, int | float)
                and not isinstance(a, bool) and not isinstance(b, bool))
            if comparable and a > b:
                out.append(Condition(ORDER, f"{k}/{other}", None, f"{k} {a!r} after {other} "
                                     f"{b!r}"))
    return out


def _request_conditions(exp: Expectation, sent: SentRequest) -> list[Condition]:
    codes = exp.expected if isinstance(exp.expected, tuple) else (exp.expected,)
    out: list[Condition] = []
    ctype = next((str(v) for k, v in sent.headers.items()
                  if str(k).lower() == "content-type"), "")
    if sent.body_kind in ("data", "content") and isinstance(sent.raw, str | bytes):
        text = sent.raw.decode("utf-8", "replace") if isinstance(sent.raw, bytes) else sent.raw
        if not _is_json(text) and (text.lstrip().startswith(("{", "["))
                                   or "json" in ctype.lower()):
            out.append(Condition(MALFORMED, None, None, "a body that is not JSON", "request"))
    if ctype and "json" not in ctype.lower() and sent.body_kind in ("json", "data", "content"):
        out.append(Condition(CONTENT_TYPE, None, ctype, "", "request"))
    if any(c in (401, 403) for c in codes):
        bad = next((str(v) for k, v in sent.headers.items()
                    if str(k).lower() == "authorization" and v is not UNKNOWN), None)
        if not sent.has_auth:
            out.append(Condition(UNAUTHORISED, None, None, "no credentials", "request"))
        elif bad is not None:
            out.append(Condition(UNAUTHORISED, None, bad, "a made-up token", "request"))
    if 404 in codes and sent.segments:
        last = sent.segments[-1]
        ids = [s for s in sent.segments if _UNKNOWN_ID.match(s)]
        if ids:
            out.append(Condition(UNKNOWN_ID, None, ids[-1], "", "request"))
        elif last and sent.method in ("GET", "PUT", "PATCH", "DELETE") and not out:
            out.append(Condition(UNKNOWN_ID, None, None, "", "request"))
    if 409 in codes and not out:
        out.append(Condition(DUPLICATE, None, None, "", "request"))
    return out


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
