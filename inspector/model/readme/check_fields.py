"""Body checks: keys, values, texts, types, headers and sizes a failing test expected,
compared with the fields, literals, headers and limits the README gives."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from inspector.model.readme.check_ctx import Ctx, quote
from inspector.model.readme.contract_types import (
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
    FieldSpec,
    Mention,
    SpecCheck,
    match_kind,
)

_PY_TYPES = {
    "int": "integer", "integer": "integer", "float": "number", "number": "number",
    "str": "string", "string": "string", "bool": "boolean", "boolean": "boolean",
    "list": "array", "tuple": "array", "array": "array", "dict": "object", "object": "object",
    "nonetype": "null", "none": "null", "null": "null",
}


def _value_match(readme: str, expected: Any) -> str:
    """How README literal ``readme`` matches ``expected`` (EXACT/CASE/SPELLING/''); a tuple
    or list expected means any of its items."""
    if isinstance(expected, tuple | list | set | frozenset):
        kinds = [_value_match(readme, e) for e in expected]
        return next((k for k in (EXACT, CASE) if k in kinds), next((k for k in kinds if k), ""))
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


def _type_name(value: Any) -> str:
    if isinstance(value, type):
        value = value.__name__
    if isinstance(value, tuple | list):
        names = [_type_name(v) for v in value]
        return "|".join(n for n in names if n)
    return _PY_TYPES.get(str(value).strip().lower(), "") if value is not None else ""


def key(x: Ctx) -> SpecCheck:
    """A key the response must have (absent, when negated)."""
    paths = x.paths()
    if not paths:
        return x.result(UNKNOWN, "the expected key is not known")
    if (silent := x.undocumented()) is not None:
        return silent
    want = paths[0]
    best = x.best(paths)
    ep = x.ep
    own = x.c.endpoint_fields(ep) if ep else []
    if x.exp.negated:
        if best and best[2] == "endpoint":
            f = best[0]
            return x.result(CONTRADICTED, f"{x.c.cite(f.line)} lists {f.path} in the "
                            f"response of {ep.key if ep else 'the API'}; the test expects "
                            f"it absent", [f.mention])
        if ep and own:
            return x.result(SPECIFIED, f"{x.c.name}'s response schema for {ep.key} "
                            f"(lines {own[0].line}-{own[-1].line}) does not list {want}",
                            [o.mention for o in own[:1]])
        return x.result(UNKNOWN, f"{x.c.name} does not say whether {want} is absent")
    if best is not None:
        f, level, scope = best
        how = f" (as {f.path})" if level < 3 else ""
        if scope == "endpoint" or (scope == "global" and ep is None):
            target = f"the response of {ep.key}" if ep else "a response"
            return x.result(SPECIFIED, f"{x.c.cite(f.line)} documents "
                            f"{x.describe(f)} in {target}{how}; the test expects "
                            f"key {want}", [f.mention])
        if scope == "global" and ep is not None:
            return x.result(SPECIFIED, f"{x.c.cite(f.line)} documents "
                            f"{x.describe(f)} outside any endpoint (a shared format "
                            f"or type){how}; the test expects key {want} from {ep.key}",
                            [f.mention])
        if ep is not None and not own:
            return x.result(SPECIFIED, f"{x.c.cite(f.line)} documents "
                            f"{x.describe(f)} for {', '.join(f.endpoints)}; "
                            f"{x.where()} gives no response schema of its own",
                            [f.mention])
        return x.result(SILENT, f"{x.c.name} lists the response of {ep.key if ep else ''}"
                        f" (lines {own[0].line}-{own[-1].line}) without {want}; it is "
                        f"documented only for {', '.join(f.endpoints)} at line {f.line}",
                        [f.mention, own[0].mention])
    leaf = re.split(r"[.\[]", want)[-1]
    named = [m for m in x.c.literal_mentions(leaf, whole=True) if m.exact
             and (ep is None or ep.covers(m.line))]
    if named:
        return x.result(SPECIFIED, f"{x.cite(named)} names `{leaf}` in "
                        f"{x.where()}; the test expects key {want}", named)
    req_only = x.best(paths, (REQUEST, QUERY))
    if req_only is not None:
        f = req_only[0]
        return x.result(SILENT, f"{x.c.cite(f.line)} documents {f.path} only as a "
                        f"request field; no response of {x.where()} lists it",
                        [f.mention])
    return x.result(SILENT, f"{x.c.name} never documents a field {want} for "
                    f"{x.where()}")


def _values_text(f: FieldSpec) -> str:
    vals = ", ".join(quote(v) for v in f.values[:6])
    return {FIXED: f"fixes {f.path} to {vals}", ENUM: f"allows only {vals} for {f.path}",
            LITERAL: f"gives {f.path} as {vals}", DEFAULT: f"gives {f.path} the default "
            f"{vals}"}.get(f.value_kind, f"shows {vals} for {f.path} as an example")


def value(x: Ctx) -> SpecCheck:
    """A field must equal a literal: fixed values, enums and schema literals are promises,
    examples and defaults are not."""
    exp = x.exp
    if isinstance(exp.expected, dict):
        return _dict_value(x, exp.expected)
    if (silent := x.undocumented()) is not None:
        return silent
    paths = x.paths()
    best = x.best(paths) if paths else None
    if best is not None and best[2] == "other" and x.ep is not None and \
            x.c.endpoint_fields(x.ep):
        best = None  # this endpoint's schema does not have it
    if best is not None:
        f = best[0]
        if f.values:
            return _against_values(x, f)
        lits = [m for m in x.c.literal_mentions(str(exp.expected), whole=True)
                if m.exact and (x.ep is None or x.ep.covers(m.line))] \
            if isinstance(exp.expected, str) and len(exp.expected) >= 3 else []
        if lits:
            return x.result(SPECIFIED, f"{x.cite(lits)} gives {quote(exp.expected)} "
                            f"for {x.where()}{x.got}", [f.mention, *lits])
        return x.result(UNKNOWN, f"{x.c.cite(f.line)} documents {x.describe(f)} "
                        f"but no value for it; the test expects {quote(exp.expected)}"
                        f"{x.got}", [f.mention])
    lits = x.c.literal_mentions(str(exp.expected), whole=True) \
        if isinstance(exp.expected, str) and exp.expected else []
    what = f"a field {paths[0]}" if paths else "this value"
    if lits:
        exact = [m for m in lits if m.exact] or lits
        if paths:  # the value appears, but not as that field's
            return x.result(UNKNOWN, f"{x.c.name} never documents {what} for {x.where()} "
                            f"but gives {quote(exact[0].what)} at line {exact[0].line}; the "
                            f"test expects {quote(exp.expected)}{x.got}", exact)
        return x.result(SPECIFIED if exact[0].exact else UNKNOWN, f"{x.cite(exact)} gives "
                        f"{quote(exact[0].what)}; the test expects {quote(exp.expected)}"
                        f"{x.got}", exact)
    if not paths and not isinstance(exp.expected, str):
        return x.result(UNKNOWN, f"the test compares an unnamed value with "
                        f"{quote(exp.expected)}; {x.c.name} cannot say")
    return x.result(SILENT, f"{x.c.name} never documents {what} for {x.where()} "
                    f"nor the value {quote(exp.expected)}{x.got}")


def _against_values(x: Ctx, f: FieldSpec) -> SpecCheck:
    exp = x.exp
    kinds = [_value_match(v, exp.expected) for v in f.values]
    promise = f.value_kind in (FIXED, ENUM, LITERAL)
    said = f"{x.c.cite(f.line)} {_values_text(f)}"
    if EXACT in kinds:
        verdict = SPECIFIED if promise or f.value_kind == EXAMPLE else UNKNOWN
        return x.result(verdict, f"{said}; the test expects {quote(exp.expected)}"
                        f"{x.got}", [f.mention])
    near = next((k for k in kinds if k), "")
    if near:
        diff = "case" if near == CASE else "spelling"
        verdict = CONTRADICTED if promise else UNKNOWN
        return x.result(verdict, f"{said}; the test expects {quote(exp.expected)}, which "
                        f"differs in {diff}{x.got}", [f.mention])
    if promise:
        return x.result(CONTRADICTED, f"{said}; the test expects {quote(exp.expected)}"
                        f"{x.got}", [f.mention])
    return x.result(UNKNOWN, f"{said}, not as a fixed value; the test expects "
                    f"{quote(exp.expected)}{x.got}", [f.mention])


def _dict_value(x: Ctx, expected: dict[str, Any]) -> SpecCheck:
    base = x.exp.json_path
    missing, used = [], []
    for k in expected:
        path = f"{base}.{k}" if base else str(k)
        m = x.best([path])
        if m:
            used.append(m[0])
        else:
            missing.append(path)
    if missing:
        return x.result(SILENT, f"{x.c.name} never documents "
                        f"{', '.join(missing)} for {x.where()}",
                        [f.mention for f in used])
    return x.result(SPECIFIED, f"{x.cite([f.mention for f in used])} documents "
                    f"{', '.join(f.path for f in used)}; the test expects "
                    f"{quote(expected)}{x.got}", [f.mention for f in used])


def contains(x: Ctx) -> SpecCheck:
    """A text (or list) must contain a literal: specified only if the README gives such a
    literal; of alternatives (``"a" in t or "b" in t``), if it gives any of them."""
    exp = x.exp
    text = exp.expected
    if isinstance(text, tuple) and text and all(isinstance(t, str) and t for t in text):
        return _any_of(x, text)
    if not isinstance(text, str) or not text:
        return x.result(UNKNOWN, f"the test looks for {quote(text)} in a value; "
                        f"{x.c.name} cannot say")
    if exp.negated:
        return x.result(UNKNOWN, f"the test expects {quote(text)} to be absent; "
                        f"{x.c.name} does not say what is absent")
    lits = x.c.literal_mentions(text)
    if x.ep is not None:
        lits = [m for m in lits if x.ep.covers(m.line) or not x.c.covered(m.line)] \
            or lits
    exact = [m for m in lits if m.exact]
    folded = bool(re.search(r"\.(lower|upper|casefold)\(\)", exp.statement))
    got = x.got
    if exact or (lits and folded):
        use = exact or lits
        return x.result(SPECIFIED, f"{x.cite(use)} gives {quote(use[0].what)}; the test "
                        f"looks for {quote(text)}{got}", use)
    if lits:
        diff = "case" if lits[0].match == CASE else "spelling"
        return x.result(CONTRADICTED, f"{x.cite(lits)} gives only {quote(lits[0].what)}; "
                        f"the test looks for {quote(text)}, which differs in {diff}{got}",
                        lits)
    field = x.best([exp.json_path]) if exp.json_path else None
    doc = (f" (it documents {x.describe(field[0])} at line {field[0].line} without "
           "fixing its text)") if field else ""
    return x.result(SILENT, f"{x.c.name} never gives a text containing {quote(text)}"
                    f"{doc}; the test looks for it{got}",
                    [field[0].mention] if field else [])


def _any_of(x: Ctx, texts: tuple[str, ...]) -> SpecCheck:
    """The verdict on alternatives: the first one the README gives; else the first it
    contradicts; silent only when it gives none of them."""
    checks = [contains(Ctx(replace(x.exp, expected=t), x.c)) for t in texts]
    for verdict in (SPECIFIED, CONTRADICTED):
        found = next((c for c in checks if c.verdict == verdict), None)
        if found is not None:
            return found
    if all(c.verdict == SILENT for c in checks):
        either = " or ".join(quote(t) for t in texts)
        return x.result(SILENT, f"{x.c.name} never gives a text containing {either}; the "
                        f"test looks for any of them{x.got}",
                        [m for c in checks for m in c.mentions][:1])
    return x.result(UNKNOWN, f"the test looks for any of {quote(list(texts))}; "
                    f"{x.c.name} cannot say")


def type_(x: Ctx) -> SpecCheck:
    """A field's type against the declared one."""
    exp = x.exp
    want = _type_name(exp.expected)
    if not exp.json_path or not want:
        return x.result(UNKNOWN, f"the test checks a type ({exp.expected!s}) of a value "
                        f"{x.c.name} cannot place")
    if (silent := x.undocumented()) is not None:
        return silent
    best = x.best([exp.json_path])
    if best is None:
        return x.result(SILENT, f"{x.c.name} never documents {exp.json_path} for "
                        f"{x.where()}; the test expects {want}")
    f = best[0]
    if not f.type or f.type == "any":
        return x.result(SILENT, f"{x.c.cite(f.line)} lists {f.path} without a type; "
                        f"the test expects {want}", [f.mention])
    ok = _compatible(f.type, want)
    if ok is None:
        return x.result(UNKNOWN, f"{x.c.cite(f.line)} types {f.path} as {f.type}; the "
                        f"test expects {want}", [f.mention])
    return x.result(SPECIFIED if ok else CONTRADICTED, f"{x.c.cite(f.line)} types "
                    f"{f.path} as {f.type}; the test expects {want}{x.got}",
                    [f.mention])


def _compatible(declared: str, want: str) -> bool | None:
    have = {re.sub(r"<.*>", "", p) for p in declared.split("|")}
    wants = set(want.split("|"))
    if have & wants or ("number" in wants and "integer" in have):
        return True
    if "integer" in wants and "number" in have:
        return None  # a JSON number may be an integer
    return False


def header(x: Ctx) -> SpecCheck:
    """A response header: specified only if the README mentions it (CORS for
    Access-Control-*; JSON bodies for Content-Type)."""
    name = _header_name(x)
    if not name:
        return x.result(UNKNOWN, "the expected header's name is not known")
    ms = x.c.header_mentions(name)
    if x.ep is not None:
        ms = [m for m in ms if x.ep.covers(m.line) or not x.c.covered(m.line)] or ms
    if ms:
        return x.result(SPECIFIED, f"{x.cite(ms)} mentions {ms[0].what}; the test "
                        f"expects the {name} header{x.got}", ms)
    if name.lower() == "content-type":
        json_lines = [Mention(n, x.c.text_of(n), "JSON") for n, raw in
                      enumerate(x.c.lines, 1) if re.search(
                          r"application/json|\bJSON\b.*\b(respon|bod|format|output)|"
                          r"\b(respon|bod|output|return)\w*\b.*\bJSON\b", raw, re.I)]
        if json_lines:
            return x.result(SPECIFIED, f"{x.cite(json_lines[:1])} says the API speaks "
                            f"JSON; the test expects the Content-Type header{x.got}",
                            json_lines[:1])
    also = " (nor CORS)" if name.lower().startswith("access-control") else ""
    return x.result(SILENT, f"{x.c.name} never mentions the {name} header{also}; the "
                    f"test expects it{x.got}")


def _header_name(x: Ctx) -> str:
    exp = x.exp
    named = getattr(exp, "header", None)  # set by the assertion reader for header checks
    if isinstance(named, str) and named:
        return named
    for cand in (exp.expected, exp.json_path):
        if isinstance(cand, str) and re.fullmatch(r"[A-Za-z][A-Za-z0-9]*(-[A-Za-z0-9]+)+|"
                                                  r"Authorization|Location|ETag|Allow", cand):
            return cand
    m = re.search(r"headers(?:\.get\(|\[)\s*['\"]([^'\"]+)['\"]", exp.statement)
    return m.group(1) if m else ""


def length(x: Ctx) -> SpecCheck:
    """A collection's size: specified only when the README gives that number as a limit."""
    n = x.exp.expected
    if not isinstance(n, int) or isinstance(n, bool):
        return x.result(UNKNOWN, "the expected length is not a number")
    lims = [m for m in x.c.limits if re.search(rf"(?<![\d.]){n}(?![\d.])", m.what)
            and (x.ep is None or x.ep.covers(m.line) or not x.c.covered(m.line))]
    if lims:
        return x.result(SPECIFIED, f"{x.cite(lims)} gives {lims[0].what!r}; the test "
                        f"expects a length of {n}{x.got}", lims)
    return x.result(UNKNOWN, f"{x.c.name} states no size of {n}; a length depends on "
                    f"the test's data{x.got}")


def truth(x: Ctx) -> SpecCheck:
    """A bare truth test of a field: specified when the README states it true."""
    if not x.exp.json_path:
        return x.result(UNKNOWN, "the test checks an unnamed value's truth")
    if (silent := x.undocumented()) is not None:
        return silent
    best = x.best([x.exp.json_path])
    if best is None:
        return x.result(SILENT, f"{x.c.name} never documents {x.exp.json_path} for "
                        f"{x.where()}")
    f = best[0]
    if any(v.lower() == "true" for v in f.values) and f.value_kind != EXAMPLE:
        return x.result(SPECIFIED, f"{x.c.cite(f.line)} gives {f.path} as true",
                        [f.mention])
    return x.result(UNKNOWN, f"{x.c.cite(f.line)} documents {x.describe(f)} but "
                    "not when it is true", [f.mention])
