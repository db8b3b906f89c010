"""Status-code checks: is the code a failing test expected stated for its endpoint?"""

from __future__ import annotations

import re
from typing import Any

from inspector.model.failures.facts import STATUS, Expectation
from inspector.model.readme.check_ctx import Ctx, quote
from inspector.model.readme.contract_types import (
    CONTRADICTED,
    SILENT,
    SPECIFIED,
    UNKNOWN,
    EndpointContract,
    Mention,
    SpecCheck,
)

_SIBLINGS = ({"400", "422"}, {"401", "403"})  # codes READMEs and tests swap for one situation


_VERBS = {
    "POST": re.compile(r"\b(creat\w*|register\w*|add\w*|submit\w*)\b", re.I),
    "DELETE": re.compile(r"\b(delet\w*|remov\w*)\b", re.I),
    "PUT": re.compile(r"\b(updat\w*|replac\w*|modif\w*|edit\w*)\b", re.I),
    "PATCH": re.compile(r"\b(updat\w*|modif\w*|edit\w*|patch\w*)\b", re.I),
    "GET": re.compile(r"\b(get|gets|list\w*|read\w*|fetch\w*|retriev\w*)\b", re.I),
}


_VERB_NAMES = {"POST": "create", "DELETE": "delete", "PUT": "update", "PATCH": "update",
               "GET": "read"}


def codes_of(value: Any) -> list[str]:
    """Status codes in an expected/actual value: 201, '201', (200, 201)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [str(value)]
    if isinstance(value, str):
        return re.findall(r"(?<!\d)[1-5]\d\d(?!\d)", value)  # '201', 'HTTP_201_CREATED'
    if isinstance(value, list | tuple | set | frozenset | range):
        return [c for v in value for c in codes_of(v)]
    return []


def is_success(code: object) -> bool:
    """A 2xx status code (an int)."""
    return isinstance(code, int) and 200 <= code < 300


def is_server_error(code: object) -> bool:
    """A 5xx (or higher) status code (an int)."""
    return isinstance(code, int) and code >= 500


def expected_statuses(exp: Expectation) -> tuple[Any, ...]:
    """The alternatives a status check accepts (one value, or each of a tuple)."""
    return exp.expected if isinstance(exp.expected, tuple) else (exp.expected,)


def expects_success(exp: Expectation) -> bool:
    """A status check that wants a 2xx (every alternative a success)."""
    if exp.kind != STATUS:
        return False
    expected = expected_statuses(exp)
    return bool(expected) and all(is_success(e) for e in expected)


def status(x: Ctx) -> SpecCheck:
    """The status code a test expected, against the codes the README lists."""
    want = codes_of(x.exp.expected)
    if not want:
        return x.result(UNKNOWN, f"the expected status {quote(x.exp.expected)} is not "
                        "an HTTP code")
    wanted = " or ".join(want)
    actual = codes_of(x.exp.actual)
    got = f"; the service returned {actual[0]}" if actual else ""
    if (silent := x.undocumented()) is not None:
        return silent
    c, ep = x.c, x.ep
    if ep is None:
        anywhere = [m for w in want for m in c.status_mentions(w)]
        if anywhere:
            return x.result(UNKNOWN, f"{x.cite(anywhere)} mentions {wanted}, but the "
                            "test's request is unknown", anywhere)
        return x.result(SILENT, f"{c.name} never mentions status {wanted}; the test "
                        f"expects it{got}")
    own = [m for w in want for m in c.status_mentions(w, ep)]
    if own:
        return x.result(SPECIFIED, f"{x.cite(own)} gives {wanted} for {ep.key}; the "
                        f"test expects {wanted}{got}", own)
    listed = c.status_mentions(None, ep)
    listed_codes = c.codes(listed)
    if actual and all(w.startswith("2") for w in want) and _broken(actual[0], ep):
        note = (f" (it lists {', '.join(listed_codes)})" if listed_codes else "")
        return x.result(SPECIFIED, f"{c.name}:{ep.line} documents {ep.key}{note}, so a "
                        f"success is due; the test expects {wanted}{got}",
                        [x.ep_mention(ep)])
    glob = [m for w in want for m in c.global_statuses(w)]
    listing = [m for m in glob if _listing(x, m)]  # errors tables, code lists
    if listing or (glob and not all(w.startswith("2") for w in want)):
        use = listing or glob
        return x.result(SPECIFIED, f"{x.cite(use)} gives {wanted} outside any "
                        f"endpoint's section ({ep.key}: lines {ep.start}-{ep.end}); the "
                        f"test expects {wanted}{got}", use)
    verb = [m for m in glob if _verb_fits(m.text, ep.method)]
    if verb:
        return x.result(SPECIFIED, f"{x.cite(verb)} gives {wanted} for the "
                        f"{_VERB_NAMES[ep.method]} operation, outside any endpoint's "
                        f"section; the test expects {wanted} from {ep.key}{got}", verb)
    if glob:
        return x.result(UNKNOWN, f"{x.cite(glob)} mentions {wanted} in prose outside "
                        f"any endpoint's section; whether it is {ep.key}'s is unclear; "
                        f"the test expects {wanted}{got}", glob)
    global_pool = [m for m in c.global_statuses() if _listing(x, m)
                   or not m.what.startswith("2")]
    for pool, scope in ((listed, f"for {ep.key}"), (global_pool, "globally")):
        sib = [m for m in pool if _sibling(want, m.what.split()[0])]
        if sib:
            codes = ", ".join(c.codes(sib))
            return x.result(CONTRADICTED, f"{x.cite(sib)} gives {codes} {scope} "
                            f"where the test expects {wanted}{got}", sib)
    listing = [m for m in c.global_statuses() if _listing(x, m)]
    also = (f" (globally it lists {', '.join(c.codes(listing))} at {x.cite(listing)})"
            if listing else "")
    if listed_codes:
        return x.result(SILENT, f"{x.cite(listed)} lists {', '.join(listed_codes)} for "
                        f"{ep.key} but never {wanted}{also}; the test expects {wanted}"
                        f"{got}", listed)
    return x.result(SILENT, f"{c.name} never lists a status code for {x.where()}"
                    f"{also}; the test expects {wanted}{got}", [x.ep_mention(ep)])


def _listing(x: Ctx, m: Mention) -> bool:
    """A list item or table row stating a code (not a prose sentence)."""
    raw = x.c.lines[m.line - 1].lstrip() if m.line <= len(x.c.lines) else ""
    return raw.startswith(("|", "-", "*", "+")) or bool(re.match(r"\d+[.)]\s", raw))


def _verb_fits(text: str, method: str) -> bool:
    pattern = _VERBS.get(method)
    return bool(pattern and pattern.search(text))


def _broken(actual: str, ep: EndpointContract) -> bool:
    """A documented endpoint answering as if it were broken or missing."""
    if actual.startswith("5") or actual == "405":
        return True
    return actual == "404" and "{" not in ep.path and ":" not in ep.path and "<" not in ep.path


def _sibling(want: list[str], code: str) -> bool:
    if code in want:
        return False
    if all(w.startswith("2") for w in want) and code.startswith("2"):
        return True
    return any(code in pair and w in pair for pair in _SIBLINGS for w in want)

