"""Root groups: failure items of one sample that share one cause.

Ties are drawn only from evidence that is about the cause itself, never from names:

* a failed deployment is the root of every test that could not reach the service;
* with the service up, tests that lost the connection follow the first one that did (the
  service died under it);
* a suite that did not run or collected partially is the root of the collection errors that
  print its cause;
* tests failing with the same error at the same line of the suite follow the first of them:
  one line failing in several tests is shared code (a fixture, a helper), so one cause; so do
  tests failing with the same error in the same (copied) statement that is not an assertion
  (``token = login.json()["data"]["access_token"]`` raising ``KeyError: 'data'``).

Everything else is its own root: two tests failing for two reasons are two roots.
"""

from __future__ import annotations

from collections.abc import Callable

from inspector.model import SampleResult
from inspector.model.failures.text import PYTEST_FRAME_PREFIX as _FRAME
from inspector.model.failures.text import is_connection_failure
from inspector.model.failures.triage import (
    DEPLOY_FAILED,
    TEST,
    FailureItem,
    RootGroup,
    TestSuggestion,
)
from inspector.services.rerun.runner import normalise_error

__all__ = ["failing_line", "failing_statement", "group_roots", "is_connection_failure",
           "merge_by_mechanism"]


def failing_line(traceback: str) -> str | None:
    """``path:line`` of the last frame pytest printed for a failure (the line that failed)."""
    found = None
    for line in traceback.splitlines():
        m = _FRAME.match(line)
        if m:
            found = f"{m['path']}:{m['line']}"
    return found


def failing_statement(traceback: str) -> str:
    """The source pytest printed under the last frame (the failing statement), whitespace
    collapsed; ``""`` when none."""
    lines = traceback.splitlines()
    start = None
    for i, line in enumerate(lines):
        if _FRAME.match(line):
            start = i
    if start is None:
        return ""
    body = []
    for line in lines[start + 1:]:
        if line.startswith("E ") or _FRAME.match(line):
            break
        if line.strip() and not set(line.strip()) <= set("^~ "):
            body.append(line.strip().lstrip(">").strip())
    return " ".join(body)[:300]


def _case_texts(sample: SampleResult) -> dict[str, tuple[str, str]]:
    return {c.id: (c.first_message_line, c.traceback) for c in sample.tests.cases}


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def group_roots(sample: SampleResult, items: list[FailureItem]) -> list[RootGroup]:
    """The root groups of ``items`` (from :func:`~.items.failure_items`), in item order."""
    cases = _case_texts(sample)
    sample_item = next((i for i in items if i.test_id is None), None)
    members: dict[str, list[FailureItem]] = {}
    why: dict[str, str] = {}
    roots: list[FailureItem] = []
    first_lost: FailureItem | None = None
    by_signature: dict[tuple[str, str], FailureItem] = {}

    def follow(root: FailureItem, item: FailureItem, reason: str) -> None:
        members.setdefault(root.key, []).append(item)
        why.setdefault(root.key, reason)

    for item in items:
        if item.test_id is None:
            roots.append(item)
            continue
        message, traceback = cases.get(item.test_id, (item.message, ""))
        text = f"{message}\n{traceback}"
        if is_connection_failure(text):
            if sample_item is not None and sample_item.kind == DEPLOY_FAILED:
                follow(sample_item, item, "the service never came up; these tests could not "
                                          "reach it")
                continue
            if first_lost is not None:
                follow(first_lost, item, "the service stopped answering; later tests could "
                                         "not reach it either")
                continue
            first_lost = item
            roots.append(item)
            continue
        if (sample_item is not None and sample_item.kind != DEPLOY_FAILED
                and item.kind == TEST and "::" not in item.test_id
                and normalise_error(message) and normalise_error(message)
                in normalise_error(sample_item.message)):
            follow(sample_item, item, "test files that failed to collect for the suite's cause")
            continue
        where = failing_line(traceback)
        statement = failing_statement(traceback)
        keys = []
        if where:
            keys.append(((normalise_error(message), where),
                         f"the same error at the same line ({where})"))
        if statement and not statement.startswith("assert"):
            keys.append(((normalise_error(message), statement),
                         f"the same error in the same statement ({_clip(statement)})"))
        root = next(((by_signature[k], why_) for k, why_ in keys if k in by_signature), None)
        if root is not None:
            follow(root[0], item, root[1])
            continue
        for k, _ in keys:
            by_signature[k] = item
        roots.append(item)
    return [RootGroup(r, tuple(members.get(r.key, ())), why.get(r.key, "")) for r in roots]


def merge_by_mechanism(groups: list[RootGroup], roots: list[TestSuggestion],
                       mechanism_of: Callable[[TestSuggestion], tuple[str, str] | None]
                       ) -> tuple[list[RootGroup], list[TestSuggestion]]:
    """``groups`` with their root suggestions (one each, same order), where the roots decided
    on the same mechanism (``mechanism_of`` gives its key and description) are one group: the
    later roots and their members follow the first root in report order."""
    first: dict[str, int] = {}
    merged: list[tuple[RootGroup, TestSuggestion]] = []
    for group, root in zip(groups, roots, strict=True):
        found = mechanism_of(root)
        if found is None:
            merged.append((group, root))
            continue
        key, why = found
        if key not in first:
            first[key] = len(merged)
            merged.append((group, root))
            continue
        at = first[key]
        lead, lead_root = merged[at]
        reason = f"{lead.why}; {why}" if lead.why and why not in lead.why else (lead.why or why)
        merged[at] = (RootGroup(lead.root, (*lead.members, *group.items), reason), lead_root)
    return [g for g, _ in merged], [r for _, r in merged]
