"""What a README states about the input of each endpoint, condition by condition.

A status code listed in a global errors table ("400 — validation failed") is not a condition:
it does not say that a whitespace-only name, a password without digits or a backwards date
range is invalid. :func:`field_rules` reads, per endpoint and field, what the README does
constrain (required, type, enumeration, lengths, numeric range, format, uniqueness, character
rules — from the documented fields of :mod:`.schemas` and the prose lines naming the field);
:func:`error_situations` reads the situations its 4xx codes are given for ("404 if the user does
not exist", "409 when the username is taken"). :func:`judge` answers, for the conditions a
failing test exercises (:mod:`inspector.model.failures.conditions`), whether the README states
each one, quoting the lines that do — or, when none does, what it constrains instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.model.failures import conditions as fc
from inspector.model.readme.contract import ReadmeContract
from inspector.model.readme.contract_types import (
    ENUM,
    FIXED,
    QUERY,
    REQUEST,
    EndpointContract,
    FieldSpec,
    Mention,
)
from inspector.model.readme.mentions import clip

INPUT_ROLES = (REQUEST, QUERY, "")
_CONSTRAINT_WORDS = re.compile(
    r"\d|format|characters?\b|chars\b|length|valid|unique|must|between|range|uuid|iso|email|"
    r"positive|negative|empty|blank|whitespace|\bmin|\bmax|at least|at most|pattern|"
    r"alphanumeric|lower|upper|digit|letter|one of|allowed|before|after|required|optional",
    re.I)
_NUM = r"(\d+(?:\.\d+)?)"
_LEN_RANGE = re.compile(rf"{_NUM}\s*(?:-|–|—|to|\.\.)\s*{_NUM}\s*(?:characters?|chars?|letters?)",
                        re.I)
_LEN_BETWEEN = re.compile(rf"between\s+{_NUM}\s+and\s+{_NUM}\s*(?:characters?|chars?)", re.I)
_LEN_MAX = re.compile(rf"(?:max(?:imum)?(?:[ _]?length)?|at most|up to|no more than|<=?)\s*[:=]?"
                      rf"\s*{_NUM}\s*(?:characters?|chars?|letters?)|maxLength\s*[:=]?\s*{_NUM}",
                      re.I)
_LEN_MIN = re.compile(rf"(?:min(?:imum)?(?:[ _]?length)?|at least|no fewer than|>=?)\s*[:=]?"
                      rf"\s*{_NUM}\s*(?:characters?|chars?|letters?)|minLength\s*[:=]?\s*{_NUM}",
                      re.I)
_NUM_RANGE = re.compile(rf"(?:between\s+|range\s*:?\s*|\[)?(-?{_NUM[1:-1]})\s*(?:-|–|—|to|\.\.|,|"
                        rf"and)\s*(-?{_NUM[1:-1]})\b", re.I)
_NUM_MAX = re.compile(rf"(?:max(?:imum)?|at most|up to|no more than|<=?)\s*[:=]?\s*(-?{_NUM[1:-1]})"
                      r"(?!\s*(?:characters?|chars?))", re.I)
_NUM_MIN = re.compile(rf"(?:min(?:imum)?|at least|no less than|>=?)\s*[:=]?\s*(-?{_NUM[1:-1]})"
                      r"(?!\s*(?:characters?|chars?))", re.I)
_FORMAT_WORDS = (("email", re.compile(r"e-?mail", re.I)),
                 ("date", re.compile(r"iso[ -]?8601|yyyy-mm-dd|\bdate\b|datetime", re.I)),
                 ("uuid", re.compile(r"\buuid\b|\bguid\b", re.I)),
                 ("url", re.compile(r"\burl\b|\buri\b", re.I)))
_NON_BLANK = re.compile(r"non-?blank|not (?:be )?blank|whitespace|trimm?|stripped|"
                        r"only spaces", re.I)
_NON_EMPTY = re.compile(r"non-?empty|not (?:be )?empty|cannot be empty|must not be empty|"
                        r"at least one (?:character|item|element)", re.I)
_CHARSET = re.compile(r"pattern|regex|alphanumeric|letters|digits?\b|\bnumbers?\b|uppercase|"
                      r"lowercase|special char|symbols?|underscores?|at least one", re.I)
_UNIQUE = re.compile(r"\bunique\b|must not (?:already )?exist|not already (?:be )?(?:taken|used)",
                     re.I)
_NUMERIC_TYPES = ("integer", "number")

# Words of an error situation stating a condition (codes of their own are below).
_SITUATION_WORDS: dict[str, re.Pattern[str]] = {
    fc.MISSING: re.compile(r"missing|required|absent|omitted|not provided", re.I),
    fc.WRONG_TYPE: re.compile(r"\btype\b|non-?numeric|not a number|must be (?:an? )?"
                              r"(?:integer|number|string|boolean)", re.I),
    fc.EMPTY: re.compile(r"empty|blank", re.I),
    fc.WHITESPACE: re.compile(r"blank|whitespace", re.I),
    fc.TOO_LONG: re.compile(r"too long|exceeds? (?:the )?(?:max\w*|length)|length|characters",
                            re.I),
    fc.TOO_SHORT: re.compile(r"too short|length|characters", re.I),
    fc.BELOW: re.compile(r"out of range|negative|positive|too small|minimum|below", re.I),
    fc.ABOVE: re.compile(r"out of range|too large|too big|maximum|exceeds?|above", re.I),
    fc.NOT_IN_SET: re.compile(r"unknown|unsupported|not supported|one of|not allowed|"
                              r"invalid (?:value|option|choice|status|type|role|category)", re.I),
    fc.FORMAT: re.compile(r"format|invalid e-?mail|malformed (?:e-?mail|date|url)", re.I),
    fc.CHARSET: re.compile(r"digit|uppercase|lowercase|special|alphanumeric|pattern|complex|"
                           r"strength|weak", re.I),
    fc.MALFORMED: re.compile(r"malformed|invalid json|not (?:valid )?json|pars(?:e|ing)|syntax|"
                             r"unparseable", re.I),
    fc.CONTENT_TYPE: re.compile(r"content[- ]type|media type", re.I),
    fc.UNKNOWN_ID: re.compile(r"not found|does not exist|doesn't exist|no such|nonexist|"
                              r"unknown (?:id|user|resource)", re.I),
    fc.DUPLICATE: re.compile(r"already|duplicate|taken|in use|conflict|exists", re.I),
    fc.UNAUTHORISED: re.compile(r"token|auth|credential|logged in|login|unauthori", re.I),
    fc.ORDER: re.compile(r"\bbefore\b|\bafter\b|earlier|later|precede", re.I),
}
_CODE_CONDITIONS = {"401": fc.UNAUTHORISED, "403": fc.UNAUTHORISED, "404": fc.UNKNOWN_ID,
                    "409": fc.DUPLICATE, "415": fc.CONTENT_TYPE}
"""Codes whose name is the condition itself (Not Found, Conflict, Unauthorized)."""
_ONLY_OWN = ("401", "403", "404", "405", "409", "415", "429")
"""Codes whose lines state no other condition than their own (429's "limit exceeded")."""
_AUTH_WORDS = re.compile(r"authori[sz]ation|bearer|\btoken\b|authenticat|api[- _]?key|login "
                         r"required|logged in", re.I)


@dataclass(frozen=True, slots=True)
class FieldRule:
    """What the README constrains for one input field."""

    name: str
    type: str = ""
    required: bool | None = None
    enum: tuple[str, ...] = ()
    min_len: int | None = None
    max_len: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    formats: tuple[str, ...] = ()
    unique: bool = False
    non_blank: bool = False
    non_empty: bool = False
    charset: bool = False
    mentions: tuple[Mention, ...] = ()  # the README lines it was read from

    def says(self) -> str:
        """'README.md:21 says username: string (required, 3-20 characters)'."""
        if not self.mentions:
            return f"the README gives no constraint for {self.name}"
        quotes = "; ".join(f"README.md:{m.line} says {clip(m.text, 90)!r}"
                           for m in self.mentions[:2])
        return quotes


@dataclass(frozen=True, slots=True)
class Situation:
    """A 4xx code the README gives, with the line's words (its situation)."""

    code: str
    mention: Mention
    endpoint: str | None  # key of the endpoint whose lines it is on; None: global


@dataclass(frozen=True, slots=True)
class Finding:
    """Whether the README states one condition: the lines that state it, or (not stated)
    the lines saying what it constrains instead."""

    condition: fc.Condition
    stated: bool
    why: str
    mentions: tuple[Mention, ...] = ()


# ----------------------------------------------------------------------------- reading

def field_rules(contract: ReadmeContract, endpoint: EndpointContract | None
                ) -> dict[str, FieldRule]:
    """The input fields the README documents for ``endpoint`` (every endpoint's when None, and
    fields documented for no endpoint), by top-level name, with their constraints."""
    specs: dict[str, list[FieldSpec]] = {}
    for f in contract.fields:
        if f.role not in INPUT_ROLES or "." in f.path:
            continue
        if endpoint is None or endpoint.key in f.endpoints or not f.endpoints:
            specs.setdefault(f.name, []).append(f)
    out: dict[str, FieldRule] = {}
    for name, found in specs.items():
        own = [f for f in found if endpoint is not None and endpoint.key in f.endpoints]
        use = own or found
        if endpoint is not None and not own and all(f.role == "" for f in use):
            continue  # an example or named type of no endpoint: not this input's schema
        out[name] = _rule(name, use, _prose(contract, name, endpoint))
    return out


def _prose(contract: ReadmeContract, name: str, endpoint: EndpointContract | None
           ) -> list[Mention]:
    """Prose lines naming ``name`` with a constraint word, in the endpoint's lines or in no
    endpoint's (a validation-rules section)."""
    pat = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    out = []
    for no, raw in enumerate(contract.lines, 1):
        if not pat.search(raw) or not _CONSTRAINT_WORDS.search(raw) or '":' in raw:
            continue
        if endpoint is not None and not endpoint.covers(no) and contract.covered(no):
            continue
        out.append(Mention(no, clip(raw.strip()), name))
    return out[:4]


def _rule(name: str, specs: list[FieldSpec], prose: list[Mention]) -> FieldRule:
    typ = next((f.type for f in specs if f.type), "")
    required = next((f.required for f in specs if f.required is not None), None)
    enum = next((f.values for f in specs if f.value_kind in (ENUM, FIXED) and f.values), ())
    texts = [f"{f.constraints} {f.text}" for f in specs] + [m.text for m in prose]
    text = " ".join(texts)
    numeric = any(t in typ for t in _NUMERIC_TYPES)
    min_len = max_len = None
    minimum = maximum = None
    for t in texts:
        m = _LEN_RANGE.search(t) or _LEN_BETWEEN.search(t)
        if m:
            min_len, max_len = int(float(m.group(1))), int(float(m.group(2)))
        if (m := _LEN_MAX.search(t)) and max_len is None:
            max_len = int(float(m.group(1) or m.group(2)))
        if (m := _LEN_MIN.search(t)) and min_len is None:
            min_len = int(float(m.group(1) or m.group(2)))
        if not numeric:
            continue
        if (m := _NUM_RANGE.search(t)) and minimum is None and maximum is None:
            minimum, maximum = float(m.group(1)), float(m.group(2))
        if (m := _NUM_MAX.search(t)) and maximum is None:
            maximum = float(m.group(1))
        if (m := _NUM_MIN.search(t)) and minimum is None:
            minimum = float(m.group(1))
        if re.search(r"\bnon-?negative\b", t, re.I) and minimum is None:
            minimum = 0.0
        elif re.search(r"\bpositive\b", t, re.I) and minimum is None:
            minimum = 1.0 if "integer" in typ else 1e-9
    unnamed = re.sub(rf"[\"'`]{re.escape(name)}[\"'`]\s*:?|^\s*[-*+]?\s*{re.escape(name)}\s*:",
                     " ", text, flags=re.M)
    formats = tuple(fmt for fmt, pat in _FORMAT_WORDS if pat.search(unnamed))
    mentions = tuple(sorted({Mention(f.line, f.text, f.path) for f in specs if f.line}
                            | set(prose), key=lambda m: m.line))
    return FieldRule(name, typ, required, tuple(enum), min_len, max_len, minimum, maximum,
                     formats, bool(_UNIQUE.search(text)), bool(_NON_BLANK.search(text)),
                     bool(_NON_EMPTY.search(text)), bool(_CHARSET.search(
                         re.sub(r"\d+\s*(?:-|–|to)\s*\d+\s*characters?", "", text))),
                     mentions)


def error_situations(contract: ReadmeContract, endpoint: EndpointContract | None
                     ) -> list[Situation]:
    """The 4xx codes the README gives for ``endpoint`` (its lines) and globally (no
    endpoint's lines), each with its line."""
    out = []
    for m in contract.statuses:
        code = m.what.split()[0]
        if not code.startswith("4"):
            continue
        if endpoint is not None and endpoint.covers(m.line):
            out.append(Situation(code, _whole(contract, m), endpoint.key))
        elif not contract.covered(m.line):
            out.append(Situation(code, _whole(contract, m), None))
    return out


def _whole(contract: ReadmeContract, m: Mention) -> Mention:
    """The mention with its whole line (a table row's situation is in another cell)."""
    raw = contract.lines[m.line - 1] if 1 <= m.line <= len(contract.lines) else m.text
    return Mention(m.line, clip(raw.strip()), m.what)


def requires_auth(contract: ReadmeContract, endpoint: EndpointContract | None) -> list[Mention]:
    """Lines of the endpoint's section naming credentials (an Authorization header, a token)."""
    if endpoint is None:
        return []
    out = []
    for no in range(endpoint.start, endpoint.end + 1):
        raw = contract.lines[no - 1] if no <= len(contract.lines) else ""
        if _AUTH_WORDS.search(raw):
            out.append(Mention(no, clip(raw.strip()), "auth"))
    return out[:2]


# ----------------------------------------------------------------------------- judging

def judge(conditions: list[fc.Condition], sent: fc.SentRequest | None,
          contract: ReadmeContract, endpoint: EndpointContract | None) -> list[Finding]:
    """For each condition the test exercises (and each way its request breaks a documented
    rule), whether the README states it. Violations of documented rules come first."""
    rules = field_rules(contract, endpoint)
    situations = error_situations(contract, endpoint)
    out = _violations(sent, rules, endpoint) if sent is not None else []
    covered = {(f.condition.kind, f.condition.field) for f in out}
    kinds = {f.condition.kind for f in out}
    for c in conditions:
        if (c.kind, c.field) in covered or (c.field is None and c.kind in kinds):
            continue
        out.append(_stated(c, rules, situations, contract, endpoint))
    return out


def _violations(sent: fc.SentRequest, rules: dict[str, FieldRule],
                endpoint: EndpointContract | None) -> list[Finding]:
    """Where the request breaks what the README states (a required field left out, a value
    of another type, outside its set, its lengths or its range, or not in its format)."""
    out: list[Finding] = []
    values = sent.fields
    sends_body = (sent.body_kind == "json" and sent.body is not None and sent.complete) or (
        sent.body_kind == "" and sent.method in ("POST", "PUT", "PATCH"))
    if endpoint is not None and sends_body:
        for name, rule in rules.items():
            if rule.required and name not in values and rule.mentions:
                out.append(_found(fc.Condition(fc.MISSING, name), rule,
                                  f"the README requires {name} and the test leaves it out"))
    for name, value in values.items():
        found = rules.get(name)
        if found is None or value is fc.UNKNOWN or value is None:
            continue
        rule = found
        if name in sent.params and name not in (sent.body or {}):
            value = _query_value(value, rule)  # a query string carries text
            if value is None:
                continue
        why = _broken(rule, value)
        if why is not None:
            kind, text = why
            out.append(_found(fc.Condition(kind, name, value), rule, text))
    return out


def _query_value(value: Any, rule: FieldRule) -> Any:
    """A query parameter's text as the documented type reads it (None: not comparable)."""
    if not isinstance(value, str):
        return value
    if any(t in rule.type for t in _NUMERIC_TYPES):
        text = value.strip()
        if re.fullmatch(r"-?\d+", text):
            return int(text)
        return float(text) if re.fullmatch(r"-?\d+\.\d+", text) else value
    return value if not rule.type or "string" in rule.type else None


def _found(c: fc.Condition, rule: FieldRule, why: str) -> Finding:
    return Finding(c, True, f"{why} ({rule.says()})", rule.mentions[:2])


def _broken(rule: FieldRule, value: Any) -> tuple[str, str] | None:
    """How ``value`` breaks ``rule`` (condition, why), None when it keeps to it."""
    typ = rule.type
    if typ and "any" not in typ and not _type_fits(typ, value):
        return fc.WRONG_TYPE, f"{rule.name} is documented as {typ}, the test sends " \
                              f"{type(value).__name__}"
    if rule.enum and isinstance(value, str) and value not in rule.enum and len(rule.enum) > 1:
        return fc.NOT_IN_SET, f"{value!r} is not one of {', '.join(rule.enum[:6])}"
    if isinstance(value, str):
        if rule.max_len is not None and len(value) > rule.max_len:
            return fc.TOO_LONG, f"{len(value)} characters exceed the documented " \
                                f"{rule.max_len}"
        if rule.min_len is not None and len(value) < rule.min_len:
            return fc.TOO_SHORT, f"{len(value)} characters are under the documented " \
                                 f"{rule.min_len}"
        for fmt in rule.formats:
            if not fc.FORMAT_PATTERNS[fmt].match(value.strip()):
                return fc.FORMAT, f"{value!r} is not {fc.article(fmt)} as documented"
    if isinstance(value, int | float) and not isinstance(value, bool):
        if rule.minimum is not None and value < rule.minimum:
            return fc.BELOW, f"{value} is under the documented minimum {rule.minimum:g}"
        if rule.maximum is not None and value > rule.maximum:
            return fc.ABOVE, f"{value} is over the documented maximum {rule.maximum:g}"
    return None


def _type_fits(typ: str, value: Any) -> bool:
    kinds = set(typ.replace("<", "|").replace(">", "|").split("|"))
    if isinstance(value, bool):
        return "boolean" in kinds
    if isinstance(value, int):
        return bool(kinds & {"integer", "number", "timestamp"})
    if isinstance(value, float):
        return "number" in kinds
    if isinstance(value, str):
        return bool(kinds & {"string", "file"}) or not kinds & {"integer", "number", "boolean",
                                                                 "array", "object"}
    if isinstance(value, list):
        return any(k.startswith("array") for k in kinds)
    if isinstance(value, dict):
        return "object" in kinds
    return True


def _stated(c: fc.Condition, rules: dict[str, FieldRule], situations: list[Situation],
            contract: ReadmeContract, endpoint: EndpointContract | None) -> Finding:
    rule = rules.get(c.field or "")
    by_rule = _rule_states(c, rule, rules) if c.kind != fc.ORDER else _order_stated(c, contract,
                                                                                     endpoint)
    if by_rule is not None:
        return Finding(c, True, by_rule[0], by_rule[1])
    sit = [s for s in situations if _situation_states(s, c)]
    sit.sort(key=lambda s: s.endpoint is None)
    if sit:
        where = "for " + sit[0].endpoint if sit[0].endpoint else "globally"
        return Finding(c, True, f"README.md:{sit[0].mention.line} gives {sit[0].code} {where} "
                       f"for this situation: {sit[0].mention.text!r}",
                       tuple(s.mention for s in sit[:2]))
    if c.kind == fc.UNAUTHORISED and (auth := requires_auth(contract, endpoint)):
        return Finding(c, True, f"README.md:{auth[0].line} asks for credentials on "
                       f"{endpoint.key if endpoint else 'the endpoint'}: {auth[0].text!r}",
                       tuple(auth))
    return Finding(c, False, _silence(c, rule, situations, endpoint),
                   rule.mentions[:2] if rule else tuple(s.mention for s in situations[:2]))


def _rule_states(c: fc.Condition, rule: FieldRule | None, rules: dict[str, FieldRule]
                 ) -> tuple[str, tuple[Mention, ...]] | None:
    """A field rule stating the condition: (why, lines), or None."""
    if c.field is None:
        return _rules_state_any(c, rules)
    if rule is None:
        return None
    says = rule.says()
    ok = {
        fc.EMPTY: (rule.non_empty or rule.non_blank or bool(rule.min_len) or bool(rule.enum)
                   or bool(rule.formats) or rule.charset),
        fc.WHITESPACE: (rule.non_blank or rule.charset or bool(rule.enum)
                        or bool(rule.formats)),
        fc.TOO_LONG: rule.max_len is not None and isinstance(c.value, str)
        and len(c.value) > rule.max_len,
        fc.TOO_SHORT: rule.min_len is not None and isinstance(c.value, str)
        and len(c.value) < rule.min_len,
        fc.BELOW: rule.minimum is not None and _num(c.value) is not None
        and _num(c.value) < rule.minimum,  # type: ignore[operator]
        fc.ABOVE: rule.maximum is not None and _num(c.value) is not None
        and _num(c.value) > rule.maximum,  # type: ignore[operator]
        fc.FORMAT: bool(rule.formats),
        fc.CHARSET: rule.charset,
        fc.DUPLICATE: rule.unique,
        fc.NOT_IN_SET: bool(rule.enum),
        fc.MISSING: bool(rule.required),
        fc.WRONG_TYPE: bool(rule.type),
    }.get(c.kind, False)
    return (f"the README states it: {says}", rule.mentions[:2]) if ok else None


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


def _rules_state_any(c: fc.Condition, rules: dict[str, FieldRule]
                     ) -> tuple[str, tuple[Mention, ...]] | None:
    """A condition without a field (read from the test's name): some field's rule states
    it."""
    test: Callable[[FieldRule], bool] | None = {
        fc.MISSING: lambda r: bool(r.required),
        fc.WHITESPACE: lambda r: r.non_blank,
        fc.EMPTY: lambda r: r.non_empty or r.non_blank or bool(r.min_len),
        fc.TOO_LONG: lambda r: r.max_len is not None,
        fc.TOO_SHORT: lambda r: r.min_len is not None,
        fc.BELOW: lambda r: r.minimum is not None,
        fc.ABOVE: lambda r: r.maximum is not None,
        fc.FORMAT: lambda r: bool(r.formats),
        fc.CHARSET: lambda r: r.charset,
        fc.DUPLICATE: lambda r: r.unique,
        fc.NOT_IN_SET: lambda r: bool(r.enum),
        fc.WRONG_TYPE: lambda r: bool(r.type),
    }.get(c.kind)
    if test is None:
        return None
    hits = [r for r in rules.values() if test(r)]
    if not hits:
        return None
    return (f"the README states it: {hits[0].says()}", hits[0].mentions[:2])


def _order_stated(c: fc.Condition, contract: ReadmeContract,
                  endpoint: EndpointContract | None) -> tuple[str, tuple[Mention, ...]] | None:
    names = (c.field or "").split("/")
    if len(names) != 2:
        return None
    for no, raw in enumerate(contract.lines, 1):
        if endpoint is not None and not endpoint.covers(no) and contract.covered(no):
            continue
        if all(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", raw) for n in names) \
                and _SITUATION_WORDS[fc.ORDER].search(raw):
            m = Mention(no, clip(raw.strip()), c.field or "")
            return f"README.md:{no} states the order: {m.text!r}", (m,)
    return None


def _situation_states(s: Situation, c: fc.Condition) -> bool:
    if _CODE_CONDITIONS.get(s.code) == c.kind:
        return True
    if s.code in _ONLY_OWN:
        return False
    words = _SITUATION_WORDS.get(c.kind)
    return bool(words and words.search(_situation_text(s.mention.text, s.code)))


def _situation_text(text: str, code: str) -> str:
    """A situation's words without the code's own name ('400 Bad Request' says nothing)."""
    return re.sub(rf"{code}\s*[-–—:]?\s*(?:[A-Z][a-z]+\s?){{0,3}}", " ", text, count=1)


def _silence(c: fc.Condition, rule: FieldRule | None, situations: list[Situation],
             endpoint: EndpointContract | None) -> str:
    """What the README says instead of the condition."""
    where = endpoint.key if endpoint else "the request"
    codes = sorted({f"{s.code} (README.md:{s.mention.line})" for s in situations})[:4]
    listed = f"; it lists {', '.join(codes)} without this situation" if codes else ""
    if rule is not None:
        return f"{rule.says()}; it says nothing of {c.describe()}{listed}"
    if c.field:
        return f"the README documents no constraint on {c.field} for {where}; it says " \
               f"nothing of {c.describe()}{listed}"
    return f"the README says nothing of {c.describe()} for {where}{listed}"
