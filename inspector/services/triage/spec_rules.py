"""Spec-grounded readings: what the failing assertion demanded, against the README's contract.

The golden test's failing statement says what was expected and what came back (a status code,
a JSON field, a literal, a header — :mod:`inspector.model.failures.facts`); the README says
what the service must do (:mod:`inspector.model.readme.contract`). What the README never
states is the benchmark's demand, not the model's failure (``not-model``); what it states and
the service does otherwise is the model's (``other`` unless code evidence names a category).
Conventions that other tasks' suites contradict (:mod:`.conventions`) and a conflict that
suggests tests sharing state add their weight.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from inspector.model.failures import facts as ff
from inspector.model.failures.conditions import expects_refusal
from inspector.model.failures.triage import RUN_ALONE, Reading, Remedy
from inspector.model.labels.label_file import Anchor
from inspector.model.readme.check import check
from inspector.model.readme.check_status import (
    expected_statuses,
    expects_success,
    is_server_error,
    is_success,
)
from inspector.model.readme.contract import ReadmeContract
from inspector.model.readme.contract_types import REQUEST, SpecCheck
from inspector.services.triage.condition_rules import condition_readings
from inspector.services.triage.conventions import describe
from inspector.services.triage.no_item_rules import null_readings
from inspector.services.triage.offline import online_calls
from inspector.services.triage.pollution import shared_literals
from inspector.services.triage.repo_sites import status_sites
from inspector.services.triage.rules import (
    NOT_MODEL,
    ItemEvidence,
    conftest_sources,
    expectation,
)

OTHER = "other"
ARCHITECTURAL = "architectural"

SILENT_WEIGHT = {ff.STATUS: 0.75, ff.KEY: 0.7, ff.VALUE: 0.75, ff.CONTAINS: 0.8,
                 ff.HEADER: 0.75, ff.TYPE: 0.6, ff.LENGTH: 0.6, ff.TRUTH: 0.5,
                 ff.COMPARISON: 0.6}
"""How strongly the README's silence on what a check demands points at the benchmark."""
SPECIFIED_WEIGHT = {ff.STATUS: 0.6, ff.KEY: 0.6, ff.VALUE: 0.65, ff.CONTAINS: 0.6,
                    ff.HEADER: 0.6, ff.TYPE: 0.55, ff.LENGTH: 0.5, ff.TRUTH: 0.45,
                    ff.COMPARISON: 0.5}
"""How strongly a documented demand the service misses points at the model."""


@lru_cache(maxsize=64)
def _contract(digest: str, text: str) -> ReadmeContract:  # noqa: ARG001 - cache key
    return ReadmeContract.parse(text)


def contract_of(readme: str) -> ReadmeContract:
    return _contract(hashlib.sha1(readme.encode("utf-8", "replace")).hexdigest(), readme)


def _request_sources(ev: ItemEvidence) -> dict[str, str]:
    """The failing test's file and the conftests (where its request is built)."""
    sources = conftest_sources(ev)
    test_file = (ev.item.test_id or "").split("::")[0]
    text = ev.suite_source(test_file) if test_file else None
    if text is not None:
        sources[test_file] = text
    return sources


def _readme_anchors(found: SpecCheck) -> tuple[Anchor, ...]:
    return tuple(Anchor.task_file("README.md", m.line, m.text) for m in found.mentions[:3])


def _test_anchor(exp: ff.Expectation) -> tuple[Anchor, ...]:
    if exp.test_file and exp.line:
        return (Anchor.task_file(exp.test_file, exp.line, exp.statement),)
    return ()


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _demand(exp: ff.Expectation) -> str:
    where = f" ({exp.test_file}:{exp.line})" if exp.test_file and exp.line else ""
    req = f" of {exp.request.method} {exp.request.path}" if exp.request else ""
    got = f", got {_clip(repr(exp.actual))}" if exp.actual is not None else ""
    what = {ff.STATUS: "status", ff.KEY: "field", ff.VALUE: "value", ff.CONTAINS: "text",
            ff.HEADER: "header", ff.TYPE: "type", ff.LENGTH: "length"}.get(exp.kind, exp.kind)
    path = f" {exp.json_path}" if exp.json_path and exp.kind != ff.KEY else ""
    return f"the test demands {what}{path} {exp.expected!r}{req}{where}{got}"


def spec_readings(ev: ItemEvidence) -> list[Reading]:
    """Readings from what the test expected versus what the README specifies."""
    exp = expectation(ev)
    if exp is None or exp.kind in (ff.CONNECTION, ff.UNKNOWN):
        return []
    readme = ev.task.readme if ev.task else ""
    if not readme.strip():
        return []
    contract = contract_of(readme)
    if exp.kind == ff.EXCEPTION:  # read by the evidence and test-bug families, but a null
        return null_readings(exp, contract)  # the README allows is read here
    found = check(exp, contract)
    anchors = _readme_anchors(found) + _test_anchor(exp)
    demand = _demand(exp)
    out: list[Reading] = []
    if expects_success(exp):
        out.extend(_success_readings(ev, exp, contract, found, demand, anchors, readme))
    elif found.verdict == "silent":
        out.append(Reading(NOT_MODEL, SILENT_WEIGHT.get(exp.kind, 0.5), "spec/readme-silent",
                           f"{demand}; {found.reason}", anchors))
    elif found.verdict == "contradicted":
        out.append(Reading(NOT_MODEL, 0.85, "spec/test-contradicts-readme",
                           f"{demand}; {found.reason}", anchors))
    elif found.verdict == "specified" and exp.kind == ff.STATUS and expects_refusal(exp):
        out.extend(r if r.category != OTHER else _with_sites(r, ev, exp)
                   for r in condition_readings(exp, contract, found, demand, anchors,
                                               _request_sources(ev), ev.item.test_id or ""))
    elif found.verdict == "specified":
        category = ARCHITECTURAL if exp.kind == ff.HEADER else OTHER
        out.append(Reading(category, SPECIFIED_WEIGHT.get(exp.kind, 0.5), "spec/readme-specified",
                           f"{demand}; {found.reason}", anchors))
    out.extend(_status_extras(ev, exp))
    out.extend(_pollution_readings(ev, exp))
    return out


def _with_sites(reading: Reading, ev: ItemEvidence, exp: ff.Expectation) -> Reading:
    """A model-side status reading with the repo lines that answer that status."""
    if exp.request is None or not isinstance(exp.actual, int):
        return reading
    sites = status_sites(ev.sample.repo_path, exp.actual, exp.request.method, exp.request.path)
    if not sites:
        return reading
    where = "; ".join(f"{s.file}:{s.line} {s.text!r}" for s in sites)
    return Reading(reading.category, reading.weight, reading.rule,
                   f"{reading.reason} — the repo answers {exp.actual} at {where}",
                   reading.anchors + tuple(Anchor.file(s.file, s.line) for s in sites))


def _success_readings(ev: ItemEvidence, exp: ff.Expectation, contract: ReadmeContract,
                      found: SpecCheck, demand: str, anchors: tuple[Anchor, ...],
                      readme: str) -> list[Reading]:
    """A success the test expected: the README promises it for a documented endpoint and a
    request it accepts, even when it lists no status code; which 2xx it is, it may not say."""
    actual = exp.actual if isinstance(exp.actual, int) else None
    if is_server_error(actual):
        offline = _offline_readings(ev, readme)
        explained = any(r.rule == "spec/offline-prescribed-api" for r in offline)
        return [Reading(OTHER, 0.3 if explained else 0.6, "spec/server-error",
                        f"the service failed with {actual} where {demand}; {found.reason}",
                        anchors), *offline]
    if is_success(actual):
        if found.verdict == "specified":
            return [Reading(OTHER, 0.6, "spec/readme-specified", f"{demand}; {found.reason}",
                            anchors)]
        return [Reading(NOT_MODEL, 0.75, "spec/readme-silent",
                        f"{demand}, a success code the README does not fix; {found.reason}",
                        anchors)]
    accepted = _accepted_request(exp, contract)
    if accepted:
        return [_with_sites(r, ev, exp) for r in accepted]
    if found.verdict == "specified":
        return [Reading(OTHER, 0.6, "spec/readme-specified", f"{demand}; {found.reason}",
                        anchors)]
    if found.verdict in ("silent", "contradicted"):
        return [Reading(NOT_MODEL, 0.5, "spec/readme-silent",
                        f"{demand}; {found.reason} (whether the README accepts the test's "
                        "request cannot be read from the test)", anchors)]
    return []


def _accepted_request(exp: ff.Expectation, contract: ReadmeContract) -> list[Reading]:
    """A documented endpoint refusing (4xx) a literal request body that has every field the
    README requires: the README promises it is served."""
    if exp.kind != ff.STATUS or exp.request is None or not isinstance(exp.actual, int):
        return []
    if not all(is_success(e) for e in expected_statuses(exp)):
        return []
    if not 400 <= exp.actual < 500 or exp.actual in (401, 403, 409):
        return []  # auth and conflicts depend on earlier requests, not on this body
    if exp.request.method not in ("POST", "PUT", "PATCH"):
        return []
    endpoint = contract.endpoint_for(exp.request.method, exp.request.path)
    if endpoint is None or not _literal_body(exp.request.source):
        return []
    fields = [f for f in contract.endpoint_fields(endpoint, (REQUEST,)) if "." not in f.path]
    if not fields:
        return []
    required = {f.name for f in fields if f.required}
    missing = required - set(exp.request.body_keys)
    if missing:
        return []
    lines = sorted({f.line for f in fields if f.line})
    where = f"README.md:{lines[0]}-{lines[-1]}" if lines else "README.md"
    body = ", ".join(exp.request.body_keys) or "an empty object"
    anchors = tuple(Anchor.task_file("README.md", f.line, f.text) for f in fields[:3]
                    if f.line) + _test_anchor(exp)
    return [Reading(OTHER, 0.65, "spec/valid-request-refused",
                    f"{endpoint.key} refused the test's request ({body}) with {exp.actual}; "
                    f"the README's input schema ({where}) requires "
                    f"{', '.join(sorted(required)) or 'no field'}, so the request is valid "
                    "and the service should have served it", anchors)]


def _literal_body(source: str) -> bool:
    """Whether the request call passes a literal JSON body (``json={...}``)."""
    return "json={" in source.replace(" ", "")

def _offline_readings(ev: ItemEvidence, readme: str) -> list[Reading]:
    """A server error in a repo that calls an online API, from an offline sandbox."""
    out: list[Reading] = []
    for call in online_calls(ev.sample.repo_path, readme):
        anchors = [Anchor.file(call.file, call.line)]
        if call.readme_line is not None:
            anchors.append(Anchor.task_file("README.md", call.readme_line, call.readme_text))
            out.append(Reading(NOT_MODEL, 0.75, "spec/offline-prescribed-api",
                               f"{call.file}:{call.line} uses {call.library}, an online API the "
                               f"README prescribes (README.md:{call.readme_line}); the sandbox "
                               "has no route to the internet", tuple(anchors)))
        else:
            out.append(Reading(NOT_MODEL, 0.4, "spec/offline-chosen-api",
                               f"{call.file}:{call.line} uses {call.library}, an online API the "
                               "README does not ask for; the sandbox has no route to the "
                               "internet", tuple(anchors)))
    return out


_POLLUTABLE = (ff.STATUS, ff.KEY, ff.VALUE)
_STATE_CODES = (401, 403, 404, 409)
"""Refusals that depend on what earlier requests left behind (a 400 is about the body)."""


def _pollution_readings(ev: ItemEvidence, exp: ff.Expectation) -> list[Reading]:
    """Tests sharing literal identities against one long-lived service."""
    if exp.kind not in _POLLUTABLE or ev.item.test_id is None or ev.task is None:
        return []
    if exp.kind == ff.STATUS and not (expects_success(exp) and exp.actual in _STATE_CODES):
        return []
    sources = ev.suite_sources()
    name = ev.item.test_id.split("::")[-1].split("[")[0]
    shared = shared_literals(sources, name)
    if shared is None:
        return []
    ev.remedies.append(Remedy(RUN_ALONE, ev.item.test_id, (ev.item.test_id,)))
    values = ", ".join(repr(v) for v in shared.values[:3])
    return [Reading(NOT_MODEL, 0.45, "spec/shared-state",
                    f"the test writes {values}, which {len(shared.others)} other test(s) of the "
                    f"suite write too (e.g. {', '.join(shared.others[:2])}) against one "
                    "service that keeps its data: its outcome may depend on the tests before "
                    "it (run it alone to tell)", _test_anchor(exp))]


def _status_extras(ev: ItemEvidence, exp: ff.Expectation) -> list[Reading]:
    if exp.kind != ff.STATUS or not isinstance(exp.expected, int):
        return []
    out: list[Reading] = []
    if exp.actual == 409 and is_success(exp.expected):
        out.append(Reading(NOT_MODEL, 0.5, "spec/conflict-shared-state",
                           f"a request the test expects to succeed ({exp.expected}) got 409 "
                           "Conflict: the resource already existed — tests (or runs) sharing "
                           "state collide", _test_anchor(exp)))
        if ev.item.test_id:
            ev.remedies.append(Remedy(RUN_ALONE, ev.item.test_id, (ev.item.test_id,)))
    conventions = ev.conventions
    name = (ev.item.test_id or "").split("::")[-1]
    if conventions is not None and ev.task is not None:
        found = conventions.contradictions(ev.task.name, name, exp.expected)
        if found:
            situation, others = found
            out.append(Reading(NOT_MODEL, 0.35, "~conventions/suites-disagree",
                               describe(situation, ev.task.name, exp.expected, others),
                               tuple(Anchor.task_file(d.file, d.line, f"{d.task}: {d.test}")
                                     for d in others[:2])))
    return out
