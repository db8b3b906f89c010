"""Readings of a refusal test (it expected a 4xx) by the condition it exercises.

A status code the README lists is not a condition: "400 — validation failed" in a global table
does not say a whitespace-only name is invalid. The condition comes from the request the test
built (:mod:`inspector.model.failures.conditions`); whether the README states it, from its
field rules and error situations (:mod:`inspector.model.readme.conditions`). Stated and the
service answered otherwise: the model's. Not stated: the test's own invention (not-model),
quoting what the README does constrain. Not readable: the status listing alone, weakly.
"""

from __future__ import annotations

from collections.abc import Mapping

from inspector.model.failures import conditions as fc
from inspector.model.failures import facts as ff
from inspector.model.failures.triage import Reading
from inspector.model.labels.label_file import Anchor
from inspector.model.readme import conditions as rc
from inspector.model.readme.contract import ReadmeContract
from inspector.model.readme.contract_types import Mention, SpecCheck

OTHER = "other"
NOT_MODEL = "not-model"

STATED_WEIGHT = 0.65
"""The README states the condition and the service accepted the request anyway."""
UNSTATED_WEIGHT = 0.75
"""The README never states the condition the test invents."""
UNREAD_WEIGHT = 0.45
"""A status listing alone, the test's condition unknown: not enough to call it the model's."""


def condition_readings(exp: ff.Expectation, contract: ReadmeContract, found: SpecCheck,
                       demand: str, anchors: tuple[Anchor, ...], sources: Mapping[str, str],
                       test_name: str) -> list[Reading]:
    """Readings of a refusal test whose status the README lists (``found`` specified)."""
    sent = fc.sent_request(exp, sources, test_name)
    conditions = fc.conditions_of(exp, sent, test_name)
    endpoint = contract.endpoint(found.endpoint) if found.endpoint else None
    findings = rc.judge(conditions, sent, contract, endpoint)
    actual = exp.actual if isinstance(exp.actual, int) else None
    if not findings:
        return [Reading(OTHER, UNREAD_WEIGHT, "spec/readme-specified",
                        f"{demand}; {found.reason} (a status the README lists; which condition "
                        "the test exercises could not be read from its request)", anchors)]
    test_anchor = tuple(a for a in anchors if a.path != "README.md")
    if sent is not None and sent.file and exp.request is not None:
        test_anchor += (Anchor.task_file(sent.file, sent.line, exp.request.source),)
    stated = [f for f in findings if f.stated]
    answered = f"the service answered {actual}" if actual is not None else \
        "the service answered otherwise"
    if stated:
        first = stated[0]
        weight = STATED_WEIGHT if actual is None or actual < 400 else (
            0.6 if actual >= 500 else 0.55)
        return [Reading(OTHER, weight, "spec/condition-stated",
                        f"{demand}; the test exercises {first.condition.describe()}: "
                        f"{first.why}; {answered}", _readme(first.mentions) + test_anchor)]
    first = findings[0]
    weight = 0.55 if actual is not None and actual >= 500 else UNSTATED_WEIGHT
    mentions = tuple(m for f in findings for m in f.mentions)
    listed = f" ({found.reason})" if found.reason else ""
    return [Reading(NOT_MODEL, weight, "spec/condition-unstated",
                    f"{demand}; the test exercises {first.condition.describe()}, a condition "
                    f"the README never states: {first.why}{listed}",
                    _readme(mentions) + test_anchor)]


def _readme(mentions: tuple[Mention, ...]) -> tuple[Anchor, ...]:
    seen: list[Anchor] = []
    for m in mentions:
        a = Anchor.task_file("README.md", m.line, m.text)
        if a not in seen:
            seen.append(a)
    return tuple(seen[:3])
