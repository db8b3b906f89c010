"""Does the README state what a failing test expected? :func:`check` compares one
:class:`~.failure_facts.Expectation` with a :class:`~.readme_contract.ReadmeContract`.

Rules (about README structure and HTTP semantics, never about particular tasks):

* **status**: the expected code listed in the endpoint's lines, or globally (an errors table,
  "Common HTTP status codes") -> specified; a documented endpoint answering 5xx (or 405, or 404
  on a route without parameters) where the test expects 2xx -> specified (the README promises
  the endpoint works); the README giving a sibling code for the same situation (another 2xx,
  400 vs 422, 401 vs 403) -> contradicted; otherwise silent (saying which codes it lists).
* **key**: a field documented in the endpoint's response (or a global one: error format, named
  types) -> specified; only in another endpoint's or the request's schema -> silent.
* **value**: a fixed value, enum or schema literal equal to the expectation -> specified; the
  same value in another case or spelling, or another value -> contradicted; examples and
  defaults are not promises (unknown).
* **contains**: specified only if the README gives a literal containing the text.
* **type**: the declared type compatible -> specified; incompatible -> contradicted.
* **header**: specified only if the README mentions the header (CORS for Access-Control-*).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .contract_types import (
    CASE,
    CONTRADICTED,
    DEFAULT,
    ENUM,
    EXACT,
    EXAMPLE,
    FIXED,
    LITERAL,
    QUERY,
    REQUEST,
    SILENT,
    SPECIFIED,
    UNKNOWN,
    EndpointContract,
    FieldSpec,
    Mention,
    SpecCheck,
    match_kind,
)
from .failure_facts import (
    CONTAINS,
    EXCEPTION,
    HEADER,
    KEY,
    LENGTH,
    STATUS,
    TRUTH,
    TYPE,
    VALUE,
    Expectation,
)

if TYPE_CHECKING:
    from .readme_contract import ReadmeContract

RESPONSE_SIDE = ("response", "error", "")
_SIBLINGS = ({"400", "422"}, {"401", "403"})
_VERBS = {
    "POST": re.compile(r"\b(creat\w*|register\w*|add\w*|submit\w*)\b", re.I),
    "DELETE": re.compile(r"\b(delet\w*|remov\w*)\b", re.I),
    "PUT": re.compile(r"\b(updat\w*|replac\w*|modif\w*|edit\w*)\b", re.I),
    "PATCH": re.compile(r"\b(updat\w*|modif\w*|edit\w*|patch\w*)\b", re.I),
    "GET": re.compile(r"\b(get|gets|list\w*|read\w*|fetch\w*|retriev\w*)\b", re.I),
}
_VERB_NAMES = {"POST": "create", "DELETE": "delete", "PUT": "update", "PATCH": "update",
               "GET": "read"}
_PY_TYPES = {
    "int": "integer", "integer": "integer", "float": "number", "number": "number",
    "str": "string", "string": "string", "bool": "boolean", "boolean": "boolean",
    "list": "array", "tuple": "array", "array": "array", "dict": "object", "object": "object",
    "nonetype": "null", "none": "null", "null": "null",
}


def check(expectation: Expectation, contract: ReadmeContract) -> SpecCheck:
    """What ``contract`` says about ``expectation`` (see the module docstring)."""
    return _Check(expectation, contract).run()


def _q(value: Any) -> str:
    """A value as the reason quotes it."""
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "null" if value is None else str(value)


def _value_match(readme: str, expected: Any) -> str:
    """How README literal ``readme`` matches expected ``expected`` (EXACT/CASE/SPELLING/'')."""
    if isinstance(expected, bool):
        return EXACT if readme.lower() == ("true" if expected else "false") else ""
    if expected is None:
        return EXACT if readme.lower() in ("null", "none") else ""
    if isinstance(expected, int | float):
        try:
            return EXACT if float(readme) == float(expected) else ""
        except ValueError:
            return ""
    if isinstance(expected, str):
        return match_kind(readme, expected, whole=True)
    return ""


def _codes(value: Any) -> list[str]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [str(value)]
    if isinstance(value, str):
        return re.findall(r"\b[1-5]\d\d\b", value)
    if isinstance(value, list | tuple | set | frozenset | range):
        return [c for v in value for c in _codes(v)]
    return []


def _type_name(value: Any) -> str:
    if isinstance(value, type):
        value = value.__name__
    if isinstance(value, tuple | list):
        names = [_type_name(v) for v in value]
        return "|".join(n for n in names if n)
    return _PY_TYPES.get(str(value).strip().lower(), "") if value is not None else ""


class _Check:
    def __init__(self, exp: Expectation, contract: ReadmeContract) -> None:
        self.exp = exp
        self.c = contract
        req = exp.request
        self.ep: EndpointContract | None = None
        self.others: list[EndpointContract] = []
        if req is not None and req.path:
            self.ep = contract.endpoint_for(req.method, req.path)
            self.others = contract.endpoints_at(req.path) if self.ep is None else []
        self.got = f"; the service returned {_q(exp.actual)}" if exp.actual is not None else ""

    # -- helpers ------------------------------------------------------------------------------

    def cite(self, mentions: list[Mention] | tuple[Mention, ...]) -> str:
        lines = sorted({m.line for m in mentions})
        if not lines:
            return self.c.name
        return f"{self.c.name}:{', '.join(str(n) for n in lines[:4])}"

    def where(self, ep: EndpointContract | None = None) -> str:
        ep = ep or self.ep
        return f"{ep.key} (section lines {ep.start}-{ep.end})" if ep else "the README"

    def result(self, verdict: str, reason: str, mentions: list[Mention] | tuple[Mention, ...] = ()
               ) -> SpecCheck:
        return SpecCheck(verdict, reason, tuple(mentions), self.ep.key if self.ep else None)

    def ep_mention(self, ep: EndpointContract) -> Mention:
        return Mention(ep.line, self.c.text_of(ep.line), ep.key)

    def undocumented(self) -> SpecCheck | None:
        """Silent when the request goes to an endpoint the README does not document."""
        req = self.exp.request
        if req is None or self.ep is not None:
            return None
        if not self.c.endpoints:
            return self.result(UNKNOWN, f"{self.c.name}: no endpoint could be read from the "
                               "README, so the request cannot be placed")
        if self.others:
            other = self.others[0]
            methods = ", ".join(sorted({e.method for e in self.others}))
            return self.result(SILENT, f"{self.c.name}:{other.line} documents {methods} "
                               f"{other.path} but not {req.method} on it", [
                                   self.ep_mention(other)])
        return self.result(SILENT, f"{self.c.name} documents no endpoint {req.method} "
                           f"{req.path}")

    # -- dispatch -------------------------------------------------------------------------------

    def run(self) -> SpecCheck:
        kind = self.exp.kind
        if kind == EXCEPTION and self.exp.exception == "KeyError" and isinstance(
                self.exp.expected, str):
            kind = KEY
        handler = {STATUS: self.status, KEY: self.key, VALUE: self.value,
                   CONTAINS: self.contains, TYPE: self.type_, HEADER: self.header,
                   LENGTH: self.length, TRUTH: self.truth}.get(kind)
        if handler is None:
            return self.result(UNKNOWN, f"a {kind} failure is not something the README can "
                               "state")
        return handler()

    # -- status ---------------------------------------------------------------------------------

    def status(self) -> SpecCheck:
        want = _codes(self.exp.expected)
        if not want:
            return self.result(UNKNOWN, f"the expected status {_q(self.exp.expected)} is not "
                               "an HTTP code")
        wanted = " or ".join(want)
        actual = _codes(self.exp.actual)
        got = f"; the service returned {actual[0]}" if actual else ""
        if (silent := self.undocumented()) is not None:
            return silent
        c, ep = self.c, self.ep
        if ep is None:
            anywhere = [m for w in want for m in c.status_mentions(w)]
            if anywhere:
                return self.result(UNKNOWN, f"{self.cite(anywhere)} mentions {wanted}, but the "
                                   "test's request is unknown", anywhere)
            return self.result(SILENT, f"{c.name} never mentions status {wanted}; the test "
                               f"expects it{got}")
        own = [m for w in want for m in c.status_mentions(w, ep)]
        if own:
            return self.result(SPECIFIED, f"{self.cite(own)} gives {wanted} for {ep.key}; the "
                               f"test expects {wanted}{got}", own)
        listed = c.status_mentions(None, ep)
        listed_codes = c.codes(listed)
        if actual and all(w.startswith("2") for w in want) and self._broken(actual[0], ep):
            note = (f" (it lists {', '.join(listed_codes)})" if listed_codes else "")
            return self.result(SPECIFIED, f"{c.name}:{ep.line} documents {ep.key}{note}, so a "
                               f"success is due; the test expects {wanted}{got}",
                               [self.ep_mention(ep)])
        glob = [m for w in want for m in c.global_statuses(w)]
        listing = [m for m in glob if self._listing(m)]  # errors tables, code lists
        if listing or (glob and not all(w.startswith("2") for w in want)):
            use = listing or glob
            return self.result(SPECIFIED, f"{self.cite(use)} gives {wanted} outside any "
                               f"endpoint's section ({ep.key}: lines {ep.start}-{ep.end}); the "
                               f"test expects {wanted}{got}", use)
        verb = [m for m in glob if self._verb_fits(m.text, ep.method)]
        if verb:
            return self.result(SPECIFIED, f"{self.cite(verb)} gives {wanted} for the "
                               f"{_VERB_NAMES[ep.method]} operation, outside any endpoint's "
                               f"section; the test expects {wanted} from {ep.key}{got}", verb)
        if glob:
            return self.result(UNKNOWN, f"{self.cite(glob)} mentions {wanted} in prose outside "
                               f"any endpoint's section; whether it is {ep.key}'s is unclear; "
                               f"the test expects {wanted}{got}", glob)
        global_pool = [m for m in c.global_statuses() if self._listing(m)
                       or not m.what.startswith("2")]
        for pool, scope in ((listed, f"for {ep.key}"), (global_pool, "globally")):
            sib = [m for m in pool if self._sibling(want, m.what.split()[0])]
            if sib:
                codes = ", ".join(c.codes(sib))
                return self.result(CONTRADICTED, f"{self.cite(sib)} gives {codes} {scope} "
                                   f"where the test expects {wanted}{got}", sib)
        if listed_codes:
            return self.result(SILENT, f"{self.cite(listed)} lists {', '.join(listed_codes)} for "
                               f"{ep.key} but never {wanted}; the test expects {wanted}{got}",
                               listed)
        return self.result(SILENT, f"{c.name} never lists a status code for {self.where()}; "
                           f"the test expects {wanted}{got}", [self.ep_mention(ep)])

    def _listing(self, m: Mention) -> bool:
        """A list item or table row stating a code (not a prose sentence)."""
        raw = self.c.lines[m.line - 1].lstrip() if m.line <= len(self.c.lines) else ""
        return raw.startswith(("|", "-", "*", "+")) or bool(re.match(r"\d+[.)]\s", raw))

    @staticmethod
    def _verb_fits(text: str, method: str) -> bool:
        pattern = _VERBS.get(method)
        return bool(pattern and pattern.search(text))

    @staticmethod
    def _broken(actual: str, ep: EndpointContract) -> bool:
        """A documented endpoint answering as if it were broken or missing."""
        if actual.startswith("5") or actual == "405":
            return True
        return actual == "404" and "{" not in ep.path and ":" not in ep.path and "<" not in ep.path

    @staticmethod
    def _sibling(want: list[str], code: str) -> bool:
        if code in want:
            return False
        if all(w.startswith("2") for w in want) and code.startswith("2"):
            return True
        return any(code in pair and w in pair for pair in _SIBLINGS for w in want)

    # -- fields ---------------------------------------------------------------------------------

    def _paths(self) -> list[str]:
        """JSON paths the expectation is about: for a key, json_path + the key (json_path
        alone when it already ends with it); otherwise json_path."""
        exp = self.exp
        leaf = exp.expected if isinstance(exp.expected, str) and exp.kind in (
            KEY, CONTAINS, EXCEPTION) and re.fullmatch(r"[A-Za-z_$][\w$-]*", exp.expected) \
            else ""
        if not leaf:
            return [exp.json_path] if exp.json_path else []
        if not exp.json_path or re.search(rf"(^|\.){re.escape(leaf)}$", exp.json_path):
            return [exp.json_path or leaf]
        return [f"{exp.json_path}.{leaf}"]

    def _best(self, paths: list[str], roles: tuple[str, ...] | None = RESPONSE_SIDE
              ) -> tuple[FieldSpec, int, str] | None:
        got = [m for p in paths for m in self.c.field_matches(p, self.ep, roles)]
        rank = {"endpoint": 0, "global": 1, "other": 2}
        got.sort(key=lambda x: (rank[x[2]], -x[1]))
        return got[0] if got else None

    def _describe(self, f: FieldSpec) -> str:
        typ = f" ({f.type})" if f.type else ""
        return f"{f.path}{typ}"

    def key(self) -> SpecCheck:
        paths = self._paths()
        if not paths:
            return self.result(UNKNOWN, "the expected key is not known")
        if (silent := self.undocumented()) is not None:
            return silent
        want = paths[0]
        best = self._best(paths)
        ep = self.ep
        own = self.c.endpoint_fields(ep) if ep else []
        if self.exp.negated:
            if best and best[2] == "endpoint":
                f = best[0]
                return self.result(CONTRADICTED, f"{self.c.cite(f.line)} lists {f.path} in the "
                                   f"response of {ep.key if ep else 'the API'}; the test expects "
                                   f"it absent", [f.mention])
            if ep and own:
                return self.result(SPECIFIED, f"{self.c.name}'s response schema for {ep.key} "
                                   f"(lines {own[0].line}-{own[-1].line}) does not list {want}",
                                   [o.mention for o in own[:1]])
            return self.result(UNKNOWN, f"{self.c.name} does not say whether {want} is absent")
        if best is not None:
            f, level, scope = best
            how = f" (as {f.path})" if level < 3 else ""
            if scope == "endpoint" or (scope == "global" and ep is None):
                target = f"the response of {ep.key}" if ep else "a response"
                return self.result(SPECIFIED, f"{self.c.cite(f.line)} documents "
                                   f"{self._describe(f)} in {target}{how}; the test expects "
                                   f"key {want}", [f.mention])
            if scope == "global" and ep is not None:
                return self.result(SPECIFIED, f"{self.c.cite(f.line)} documents "
                                   f"{self._describe(f)} outside any endpoint (a shared format "
                                   f"or type){how}; the test expects key {want} from {ep.key}",
                                   [f.mention])
            if ep is not None and not own:
                return self.result(SPECIFIED, f"{self.c.cite(f.line)} documents "
                                   f"{self._describe(f)} for {', '.join(f.endpoints)}; "
                                   f"{self.where()} gives no response schema of its own",
                                   [f.mention])
            return self.result(SILENT, f"{self.c.name} lists the response of {ep.key if ep else ''}"
                               f" (lines {own[0].line}-{own[-1].line}) without {want}; it is "
                               f"documented only for {', '.join(f.endpoints)} at line {f.line}",
                               [f.mention, own[0].mention])
        leaf = re.split(r"[.\[]", want)[-1]
        named = [m for m in self.c.literal_mentions(leaf, whole=True) if m.exact
                 and (ep is None or ep.covers(m.line))]
        if named:
            return self.result(SPECIFIED, f"{self.cite(named)} names `{leaf}` in "
                               f"{self.where()}; the test expects key {want}", named)
        req_only = self._best(paths, (REQUEST, QUERY))
        if req_only is not None:
            f = req_only[0]
            return self.result(SILENT, f"{self.c.cite(f.line)} documents {f.path} only as a "
                               f"request field; no response of {self.where()} lists it",
                               [f.mention])
        return self.result(SILENT, f"{self.c.name} never documents a field {want} for "
                           f"{self.where()}")

    def _values_text(self, f: FieldSpec) -> str:
        vals = ", ".join(_q(v) for v in f.values[:6])
        return {FIXED: f"fixes {f.path} to {vals}", ENUM: f"allows only {vals} for {f.path}",
                LITERAL: f"gives {f.path} as {vals}", DEFAULT: f"gives {f.path} the default "
                f"{vals}"}.get(f.value_kind, f"shows {vals} for {f.path} as an example")

    def value(self) -> SpecCheck:
        exp = self.exp
        if isinstance(exp.expected, dict):
            return self._dict_value(exp.expected)
        if (silent := self.undocumented()) is not None:
            return silent
        paths = self._paths()
        best = self._best(paths) if paths else None
        if best is not None and best[2] == "other" and self.ep is not None and \
                self.c.endpoint_fields(self.ep):
            best = None  # this endpoint's schema does not have it
        if best is not None:
            f = best[0]
            if f.values:
                return self._against_values(f)
            lits = [m for m in self.c.literal_mentions(str(exp.expected), whole=True)
                    if m.exact and (self.ep is None or self.ep.covers(m.line))] \
                if isinstance(exp.expected, str) and len(exp.expected) >= 3 else []
            if lits:
                return self.result(SPECIFIED, f"{self.cite(lits)} gives {_q(exp.expected)} "
                                   f"for {self.where()}{self.got}", [f.mention, *lits])
            return self.result(UNKNOWN, f"{self.c.cite(f.line)} documents {self._describe(f)} "
                               f"but no value for it; the test expects {_q(exp.expected)}"
                               f"{self.got}", [f.mention])
        lits = self.c.literal_mentions(str(exp.expected), whole=True) \
            if isinstance(exp.expected, str) and exp.expected else []
        what = f"a field {paths[0]}" if paths else "this value"
        if lits:
            exact = [m for m in lits if m.exact] or lits
            verdict = SPECIFIED if not paths and exact[0].exact else UNKNOWN
            return self.result(verdict, f"{self.cite(exact)} gives {_q(exact[0].what)} "
                               f"({'' if paths else 'no field named; '}"
                               f"{self.c.name} never documents {what}); the test expects "
                               f"{_q(exp.expected)}{self.got}", exact)
        if not paths and not isinstance(exp.expected, str):
            return self.result(UNKNOWN, f"the test compares an unnamed value with "
                               f"{_q(exp.expected)}; {self.c.name} cannot say")
        return self.result(SILENT, f"{self.c.name} never documents {what} for {self.where()} "
                           f"nor the value {_q(exp.expected)}{self.got}")

    def _against_values(self, f: FieldSpec) -> SpecCheck:
        exp = self.exp
        kinds = [_value_match(v, exp.expected) for v in f.values]
        promise = f.value_kind in (FIXED, ENUM, LITERAL)
        said = f"{self.c.cite(f.line)} {self._values_text(f)}"
        if EXACT in kinds:
            verdict = SPECIFIED if promise or f.value_kind == EXAMPLE else UNKNOWN
            return self.result(verdict, f"{said}; the test expects {_q(exp.expected)}"
                               f"{self.got}", [f.mention])
        near = next((k for k in kinds if k), "")
        if near:
            diff = "case" if near == CASE else "spelling"
            verdict = CONTRADICTED if promise else UNKNOWN
            return self.result(verdict, f"{said}; the test expects {_q(exp.expected)}, which "
                               f"differs in {diff}{self.got}", [f.mention])
        if promise:
            return self.result(CONTRADICTED, f"{said}; the test expects {_q(exp.expected)}"
                               f"{self.got}", [f.mention])
        return self.result(UNKNOWN, f"{said}, not as a fixed value; the test expects "
                           f"{_q(exp.expected)}{self.got}", [f.mention])

    def _dict_value(self, expected: dict[str, Any]) -> SpecCheck:
        base = self.exp.json_path
        missing, used = [], []
        for k in expected:
            path = f"{base}.{k}" if base else str(k)
            m = self._best([path])
            (used.append(m[0]) if m else missing.append(path))
        if missing:
            return self.result(SILENT, f"{self.c.name} never documents "
                               f"{', '.join(missing)} for {self.where()}",
                               [f.mention for f in used])
        return self.result(SPECIFIED, f"{self.cite([f.mention for f in used])} documents "
                           f"{', '.join(f.path for f in used)}; the test expects "
                           f"{_q(expected)}{self.got}", [f.mention for f in used])

    def contains(self) -> SpecCheck:
        exp = self.exp
        text = exp.expected
        if not isinstance(text, str) or not text:
            return self.result(UNKNOWN, f"the test looks for {_q(text)} in a value; "
                               f"{self.c.name} cannot say")
        key_paths = [p for p in self._paths() if p != exp.json_path]
        if key_paths and self._best(key_paths):
            return self.key()  # 'id' in body: a key test
        if exp.negated:
            return self.result(UNKNOWN, f"the test expects {_q(text)} to be absent; "
                               f"{self.c.name} does not say what is absent")
        lits = self.c.literal_mentions(text)
        if self.ep is not None:
            lits = [m for m in lits if self.ep.covers(m.line) or not self.c.covered(m.line)] \
                or lits
        exact = [m for m in lits if m.exact]
        folded = bool(re.search(r"\.(lower|upper|casefold)\(\)", exp.statement))
        got = self.got
        if exact or (lits and folded):
            use = exact or lits
            return self.result(SPECIFIED, f"{self.cite(use)} gives {_q(use[0].what)}; the test "
                               f"looks for {_q(text)}{got}", use)
        if lits:
            diff = "case" if lits[0].match == CASE else "spelling"
            return self.result(CONTRADICTED, f"{self.cite(lits)} gives only {_q(lits[0].what)}; "
                               f"the test looks for {_q(text)}, which differs in {diff}{got}",
                               lits)
        field = self._best([exp.json_path]) if exp.json_path else None
        doc = (f" (it documents {self._describe(field[0])} at line {field[0].line} without "
               "fixing its text)") if field else ""
        return self.result(SILENT, f"{self.c.name} never gives a text containing {_q(text)}"
                           f"{doc}; the test looks for it{got}",
                           [field[0].mention] if field else [])

    def type_(self) -> SpecCheck:
        exp = self.exp
        want = _type_name(exp.expected)
        if not exp.json_path or not want:
            return self.result(UNKNOWN, f"the test checks a type ({exp.expected!s}) of a value "
                               f"{self.c.name} cannot place")
        if (silent := self.undocumented()) is not None:
            return silent
        best = self._best([exp.json_path])
        if best is None:
            return self.result(SILENT, f"{self.c.name} never documents {exp.json_path} for "
                               f"{self.where()}; the test expects {want}")
        f = best[0]
        if not f.type or f.type == "any":
            return self.result(SILENT, f"{self.c.cite(f.line)} lists {f.path} without a type; "
                               f"the test expects {want}", [f.mention])
        ok = self._compatible(f.type, want)
        if ok is None:
            return self.result(UNKNOWN, f"{self.c.cite(f.line)} types {f.path} as {f.type}; the "
                               f"test expects {want}", [f.mention])
        return self.result(SPECIFIED if ok else CONTRADICTED, f"{self.c.cite(f.line)} types "
                           f"{f.path} as {f.type}; the test expects {want}{self.got}",
                           [f.mention])

    @staticmethod
    def _compatible(declared: str, want: str) -> bool | None:
        have = {re.sub(r"<.*>", "", p) for p in declared.split("|")}
        wants = set(want.split("|"))
        if have & wants or ("number" in wants and "integer" in have):
            return True
        if "integer" in wants and "number" in have:
            return None  # a JSON number may be an integer
        return False

    # -- headers, lengths, truth ---------------------------------------------------------------

    def header(self) -> SpecCheck:
        name = self._header_name()
        if not name:
            return self.result(UNKNOWN, "the expected header's name is not known")
        ms = self.c.header_mentions(name)
        if self.ep is not None:
            ms = [m for m in ms if self.ep.covers(m.line) or not self.c.covered(m.line)] or ms
        if ms:
            return self.result(SPECIFIED, f"{self.cite(ms)} mentions {ms[0].what}; the test "
                               f"expects the {name} header{self.got}", ms)
        if name.lower() == "content-type":
            json_lines = [Mention(n, self.c.text_of(n), "JSON") for n, raw in
                          enumerate(self.c.lines, 1) if re.search(
                              r"application/json|\bJSON\b.*\b(respon|bod|format|output)|"
                              r"\b(respon|bod|output|return)\w*\b.*\bJSON\b", raw, re.I)]
            if json_lines:
                return self.result(SPECIFIED, f"{self.cite(json_lines[:1])} says the API speaks "
                                   f"JSON; the test expects the Content-Type header{self.got}",
                                   json_lines[:1])
        also = " (nor CORS)" if name.lower().startswith("access-control") else ""
        return self.result(SILENT, f"{self.c.name} never mentions the {name} header{also}; the "
                           f"test expects it{self.got}")

    def _header_name(self) -> str:
        exp = self.exp
        for cand in (exp.expected, exp.json_path):
            if isinstance(cand, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)+|"
                                                      r"Authorization|Location|ETag|Allow", cand):
                return cand
        m = re.search(r"headers(?:\.get\(|\[)\s*['\"]([^'\"]+)['\"]", exp.statement)
        return m.group(1) if m else ""

    def length(self) -> SpecCheck:
        n = self.exp.expected
        if not isinstance(n, int) or isinstance(n, bool):
            return self.result(UNKNOWN, "the expected length is not a number")
        lims = [m for m in self.c.limits if re.search(rf"(?<![\d.]){n}(?![\d.])", m.what)
                and (self.ep is None or self.ep.covers(m.line) or not self.c.covered(m.line))]
        if lims:
            return self.result(SPECIFIED, f"{self.cite(lims)} gives {lims[0].what!r}; the test "
                               f"expects a length of {n}{self.got}", lims)
        return self.result(UNKNOWN, f"{self.c.name} states no size of {n}; a length depends on "
                           f"the test's data{self.got}")

    def truth(self) -> SpecCheck:
        if not self.exp.json_path:
            return self.result(UNKNOWN, "the test checks an unnamed value's truth")
        best = self._best([self.exp.json_path])
        if best is None:
            return self.result(SILENT, f"{self.c.name} never documents {self.exp.json_path} for "
                               f"{self.where()}")
        f = best[0]
        if any(v.lower() == "true" for v in f.values) and f.value_kind != EXAMPLE:
            return self.result(SPECIFIED, f"{self.c.cite(f.line)} gives {f.path} as true",
                               [f.mention])
        return self.result(UNKNOWN, f"{self.c.cite(f.line)} documents {self._describe(f)} but "
                           "not when it is true", [f.mention])
