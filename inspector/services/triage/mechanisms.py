"""``mechanism/*`` readings: one global mechanism of the generated repo answering many requests
the same wrong way, named with ``file:line`` and tied to the failure by what it produces.

* a validation-error handler (or FastAPI's own 422, never overridden) answering invalid
  requests with a status the README reserves for something else, where the test demanded the
  README's status for invalid input and got the handler's;
* a catch-all handler (``errorhandler(Exception)``, a middleware ``except Exception``, a DRF
  ``EXCEPTION_HANDLER``) answering with one fixed status, which the test got where it
  expected another (a Flask/DRF catch-all that does not let HTTP errors through turns every
  ``abort(404)`` into its own status);
* FastAPI's default error body ``{"detail": …}`` where the README fixes an error envelope and
  the test demanded its key;
* a blueprint or router that nothing registers, declaring the route the test got 404 on.

The tie is exact (the status or body the test got is the one the mechanism produces), so the
reading is strong and takes the place of the spec family's generic ``other``. The repo is read
with the bounded, symlink-safe walk of :mod:`.repo_sites`, once per repo.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from inspector.model.failures import facts as ff
from inspector.model.failures.triage import Reading, TestSuggestion
from inspector.model.labels.label_file import Anchor
from inspector.model.readme.check_status import expected_statuses, is_success
from inspector.model.repo.generated_repo import read_text
from inspector.model.repo.mechanisms import (
    DRF,
    FASTAPI,
    FLASK,
    Handler,
    Mechanisms,
    read_mechanisms,
    route_matches,
)
from inspector.services.triage.repo_sites import MAX_BYTES, py_files
from inspector.services.triage.rules import ItemEvidence, expectation
from inspector.services.triage.spec_rules import ARCHITECTURAL, OTHER, contract_of

PREFIX = "mechanism/"
VALIDATION = frozenset({"RequestValidationError", "ValidationError", "ValidationException",
                        "PydanticValidationError", "BadRequest", "UnprocessableEntity",
                        "400", "422"})
CATCH_ALL = frozenset({"Exception", "BaseException"})
_HTTP_ERRORS = frozenset({"HTTPException", "StarletteHTTPException"})
_CONDITION = re.compile(
    r"invalid|malformed|validation|not valid|missing|required|bad input|wrong (?:type|format)"
    r"|incorrect|unparsable|cannot be parsed|bad json|invalid json", re.IGNORECASE)
_INVALID_CODES = frozenset({400, 422})
"""The codes HTTP gives a request the service cannot accept as sent (a README tying another
code, 401 or 404, to a "missing" thing speaks of something else)."""
_CODE = re.compile(r"(?<![\w.])([45]\d\d)(?![\w.])")

_cache: dict[str, Mechanisms] = {}
_lock = threading.Lock()
_CACHE_SIZE = 16


def repo_mechanisms(repo: Path | None) -> Mechanisms:
    """The mechanisms of ``repo``'s own Python files (read once per repo)."""
    if repo is None or not repo.is_dir():
        return Mechanisms()
    key = str(repo)
    with _lock:
        if key in _cache:
            return _cache[key]
    sources = {f.relative_to(repo).as_posix(): read_text(f, MAX_BYTES) for f in py_files(repo)}
    found = read_mechanisms(sources)
    with _lock:
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = found
    return found


def validation_statuses(readme: str) -> dict[int, tuple[int, str]]:
    """Client-error codes the README ties to an invalid or malformed request (code -> its
    first such line and text)."""
    out: dict[int, tuple[int, str]] = {}
    for no, line in enumerate(readme.splitlines(), 1):
        if not _CONDITION.search(line):
            continue
        for m in _CODE.finditer(line):
            out.setdefault(int(m.group(1)), (no, line.strip()[:200]))
    return out


def error_envelope(readme: str, key: str) -> tuple[int, str] | None:
    """The README line fixing an error body with field ``key`` (``{"error": …}`` on an
    error line or within a few lines after one)."""
    lines = readme.splitlines()
    pat = re.compile(rf"[\"']{re.escape(key)}[\"']\s*:")
    for no, line in enumerate(lines, 1):
        if not pat.search(line):
            continue
        context = " ".join(lines[max(0, no - 6):no])
        if re.search(r"error|fail", context, re.IGNORECASE):
            return no, line.strip()[:200]
    return None


def _where(h: Handler) -> str:
    return f"{h.file}:{h.line} ({h.text!r})" if h.text else f"{h.file}:{h.line}"


def _test_anchor(exp: ff.Expectation) -> tuple[Anchor, ...]:
    if exp.test_file and exp.line:
        return (Anchor.task_file(exp.test_file, exp.line, exp.statement),)
    return ()


def _request(exp: ff.Expectation) -> str:
    where = f" ({exp.test_file}:{exp.line})" if exp.test_file and exp.line else ""
    req = f" {exp.request.method} {exp.request.path}" if exp.request else ""
    return f"the test's request{req}{where}"


def _codes(exp: ff.Expectation) -> list[int]:
    return [e for e in expected_statuses(exp) if isinstance(e, int)]


def _single(h: Handler) -> int | None:
    return h.statuses[0] if h.fixed and len(set(h.statuses)) == 1 else None


def _validation(exp: ff.Expectation, mech: Mechanisms, readme: str) -> list[Reading]:
    got = exp.actual
    expected = _codes(exp)
    if not expected or any(is_success(e) for e in expected) or got in expected:
        return []
    reserved = {c: v for c, v in validation_statuses(readme).items() if c in _INVALID_CODES}
    wanted = [e for e in expected if e in reserved]
    if not wanted or got in reserved:
        return []
    line, text = reserved[wanted[0]]
    readme_anchor = Anchor.task_file("README.md", line, text)
    says = f"the README gives {wanted[0]} for invalid requests (README.md:{line} {text!r})"
    for h in mech.handlers:
        if h.catches in VALIDATION and _single(h) == got:
            return [Reading(ARCHITECTURAL, 0.9, f"{PREFIX}validation-handler",
                            f"the validation-error handler at {_where(h)} answers every "
                            f"{h.catches} with {got}; {says}; {_request(exp)} got {got} "
                            f"where it expected {wanted[0]}",
                            (Anchor.file(h.file, h.line), readme_anchor, *_test_anchor(exp)))]
    overridden = any(h.catches in VALIDATION for h in mech.handlers)
    apps = [a for a in mech.apps if a.framework == FASTAPI]
    if got == 422 and apps and not overridden and 422 not in mech.status_literals:
        app = apps[0]
        return [Reading(ARCHITECTURAL, 0.85, f"{PREFIX}framework-default-validation",
                        f"FastAPI answers a request failing validation with 422 and the app "
                        f"({app.file}:{app.line}) never overrides it (no "
                        f"RequestValidationError handler, no 422 written anywhere); {says}; "
                        f"{_request(exp)} got 422 where it expected {wanted[0]}",
                        (Anchor.file(app.file, app.line), readme_anchor, *_test_anchor(exp)))]
    return []


def _http_handled(mech: Mechanisms, catch_all: Handler, expected: list[int]) -> bool:
    """Whether Flask hands the HTTP errors to a more specific handler than ``catch_all`` (one
    for ``HTTPException`` or for the expected code): then the catch-all never sees them."""
    specific = {*_HTTP_ERRORS, *(str(e) for e in expected)} - {catch_all.catches}
    return any(h is not catch_all and h.framework == FLASK and h.catches in specific
               for h in mech.handlers)


def _catch_all(exp: ff.Expectation, mech: Mechanisms) -> list[Reading]:
    got = exp.actual
    expected = _codes(exp)
    if not expected or got in expected:
        return []
    for h in mech.handlers:
        status = _single(h)
        if status != got:
            continue
        swallows_http = h.framework in (FLASK, DRF) and not h.passes_http and (
            h.catches in CATCH_ALL or h.catches in _HTTP_ERRORS) and not (
            h.framework == FLASK and _http_handled(mech, h, expected))
        if swallows_http and (status != 500 or all(400 <= e < 500 for e in expected)):
            return [Reading(ARCHITECTURAL, 0.85, f"{PREFIX}catch-all",
                            f"the catch-all handler at {_where(h)} answers every error, the "
                            f"HTTP ones ({', '.join(map(str, expected))}) included, with "
                            f"{status}; {_request(exp)} got {status} where it expected "
                            f"{' or '.join(map(str, expected))}",
                            (Anchor.file(h.file, h.line), *_test_anchor(exp)))]
        if h.catches in CATCH_ALL and status != 500:
            return [Reading(ARCHITECTURAL, 0.8, f"{PREFIX}catch-all",
                            f"the catch-all at {_where(h)} answers every unexpected error with "
                            f"{status}; {_request(exp)} got {status} where it expected "
                            f"{' or '.join(map(str, expected))}",
                            (Anchor.file(h.file, h.line), *_test_anchor(exp)))]
    return []


def _unregistered(exp: ff.Expectation, mech: Mechanisms, readme: str) -> list[Reading]:
    if exp.actual != 404 or exp.request is None or mech.dynamic_registration \
            or 404 in _codes(exp):
        return []
    method, path = exp.request.method, exp.request.path
    for r in mech.routers:
        if r.registered:
            continue
        for route in r.routes:
            full = r.prefix.rstrip("/") + "/" + route.path.lstrip("/")
            if route.method and method not in route.method.split(","):
                continue
            if not route_matches(full, path):
                continue
            documented = bool(readme.strip()) and \
                contract_of(readme).endpoint_for(method, path) is not None
            what = "a documented endpoint" if documented else "an endpoint"
            return [Reading(ARCHITECTURAL, 0.9 if documented else 0.6,
                            f"{PREFIX}unregistered-router",
                            f"{r.kind} {r.name!r} ({r.file}:{r.line}) declares {method} {full} "
                            f"({r.file}:{route.line}) but nothing registers it (no "
                            f"register_blueprint/include_router names it): all "
                            f"{len(r.routes)} of its routes answer 404; {_request(exp)}, "
                            f"{what}, got 404",
                            (Anchor.file(r.file, r.line), Anchor.file(r.file, route.line),
                             *_test_anchor(exp)))]
    return []


def _default_body(exp: ff.Expectation, mech: Mechanisms, readme: str, text: str
                  ) -> list[Reading]:
    key = exp.expected
    if not isinstance(key, str) or key == "detail" or exp.negated:
        return []
    body = exp.actual
    if isinstance(body, dict):
        if "detail" not in body or key in body:
            return []
    elif not re.search(r"""['"]detail['"]\s*:""", text):
        return []
    apps = [a for a in mech.apps if a.framework == FASTAPI]
    if not apps or any(h.catches in _HTTP_ERRORS and h.framework == FASTAPI
                       for h in mech.handlers):
        return []
    found = error_envelope(readme, key)
    if found is None:
        return []
    app = apps[0]
    line, fixed = found
    return [Reading(ARCHITECTURAL, 0.85, f"{PREFIX}framework-default-error-body",
                    f"the README fixes the error body's {key!r} (README.md:{line} {fixed!r}) "
                    f"but the FastAPI app ({app.file}:{app.line}) never overrides the "
                    "framework's {\"detail\": …} error body (no HTTPException handler); "
                    f"{_request(exp)} got {{'detail': …}} without {key!r}",
                    (Anchor.file(app.file, app.line), Anchor.task_file("README.md", line, fixed),
                     *_test_anchor(exp)))]


def mechanism_readings(ev: ItemEvidence) -> list[Reading]:
    """Readings naming a global mechanism of the repo that explains this failure."""
    if ev.case is None or ev.sample.repo_path is None:
        return []
    exp = expectation(ev)
    if exp is None:
        return []
    mech = repo_mechanisms(ev.sample.repo_path)
    if not (mech.handlers or mech.routers or mech.apps):
        return []
    readme = ev.task.readme if ev.task else ""
    out: list[Reading] = []
    if exp.kind == ff.STATUS and isinstance(exp.actual, int):
        out = (_validation(exp, mech, readme) or _unregistered(exp, mech, readme)
               or _catch_all(exp, mech))
    elif exp.kind == ff.KEY:
        out = _default_body(exp, mech, readme, ev.text)
    if out:
        out.append(Reading(OTHER, -0.6, f"~{PREFIX}explains",
                           "one global mechanism explains it, not this endpoint's code"))
    return out


def mechanism_of(suggestion: TestSuggestion) -> tuple[str, str] | None:
    """``(key, description)`` of the mechanism a suggestion was decided on, if any."""
    if suggestion.category != ARCHITECTURAL:
        return None
    for r in suggestion.competing:
        if r.category == ARCHITECTURAL and r.rule.startswith(PREFIX) and r.anchors:
            where = r.anchors[0].describe()
            return f"{r.rule}@{where}", f"one mechanism answers them all ({where}, " \
                f"{r.rule[len(PREFIX):]})"
    return None
