"""Readings of suites that produce no test item, and of fixtures crashing on a value the
README allows.

* a script-style (or otherwise non-collectable) suite: pytest finds nothing to run;
* every test skipped by a gate of the suite's own (``skipif``/``pytest.skip`` on an environment
  variable the harness never sets);
* a fixture or test crashing on ``None`` (``'NoneType' object has no attribute …``) read from a
  response field the README documents as optional or nullable.

All three are the benchmark's, not the model's: the reason names the suite's line and, for a
null, the README line that allows it.
"""

from __future__ import annotations

import ast
import re
from typing import Protocol

from inspector.model import SampleResult, Task
from inspector.model.failures import facts as ff
from inspector.model.failures.triage import SUITE_NOT_RUN, FailureItem, Reading
from inspector.model.labels.label_file import Anchor
from inspector.model.readme.contract import ReadmeContract
from inspector.model.readme.contract_types import FieldSpec
from inspector.model.results.outcomes import Outcome
from inspector.services.suite.audit import NON_COLLECTABLE, SuiteAudit


class ItemEvidence(Protocol):
    """What these readings read of a root item (:class:`.rules.ItemEvidence`)."""

    sample: SampleResult
    task: Task | None
    item: FailureItem
    audit: SuiteAudit | None

    def suite_sources(self) -> dict[str, str]: ...

    def suite_source(self, rel: str) -> str | None: ...

NOT_MODEL = "not-model"

_NONE_ATTR = re.compile(r"'NoneType' object has no attribute '(?P<attr>\w+)'")
_NONE_OTHER = re.compile(r"'NoneType' object is not (?:subscriptable|iterable)|"
                         r"object of type 'NoneType' has no len|operand type\(s\).*'NoneType'|"
                         r"NoneType")
_KEY = r"""(?:\[\s*['"](?P<k{n}>\w+)['"]\s*\]|\.get\(\s*['"](?P<g{n}>\w+)['"][^)]*\))"""
_NULLABLE = re.compile(r"\bnull(?:able)?\b|\bnone\b|\boptional\b|may be (?:absent|missing|empty)|"
                       r"\bor null\b", re.I)
_NOTHING_RAN = ("no_tests", "all_skipped", "not_collectable")
_ENV = re.compile(r"\b(?:os\.)?(?:environ|getenv)\b")


# ----------------------------------------------------------------------------- null values

def null_readings(exp: ff.Expectation, contract: ReadmeContract) -> list[Reading]:
    """A test or fixture crashing on None read from a field the README lets be null."""
    if exp.kind != ff.EXCEPTION or (exp.exception or "").rsplit(".", 1)[-1] not in (
            "TypeError", "AttributeError"):
        return []
    text = exp.message
    if "NoneType" not in text or not exp.statement:
        return []
    key = _null_key(exp.statement, text)
    if key is None:
        return []
    allowed = _allows_null(contract, key)
    if allowed is None:
        return []
    who = "a fixture" if exp.where == ff.IN_FIXTURE else "the test"
    where = f"{exp.test_file}:{exp.line}" if exp.test_file and exp.line else "the suite"
    anchors = [Anchor.task_file("README.md", allowed.line, allowed.text)]
    if exp.test_file and exp.line:
        anchors.append(Anchor.task_file(exp.test_file, exp.line, exp.statement))
    return [Reading(NOT_MODEL, 0.75, "spec/readme-allows-null",
                    f"{who} crashes at {where} on {key} being null ({exp.exception}: "
                    f"{text[:120]}); README.md:{allowed.line} documents {key} as "
                    f"{allowed.text!r}, so a null value is allowed and the suite assumes one "
                    "the README never promises", tuple(anchors))]


def _null_key(statement: str, message: str) -> str | None:
    """The response field whose null value the statement used."""
    m = _NONE_ATTR.search(message)
    if m:
        pat = re.compile(_KEY.format(n=1) + rf"\s*\)?\s*\.{re.escape(m['attr'])}\b")
        hit = pat.search(statement)
        if hit:
            return hit["k1"] or hit["g1"]
    if "subscriptable" in message:
        hit = re.search(_KEY.format(n=1) + r"\s*\[", statement)
        if hit:
            return hit["k1"] or hit["g1"]
    if _NONE_OTHER.search(message):
        keys = [m["k1"] or m["g1"] for m in re.finditer(_KEY.format(n=1), statement)]
        return keys[-1] if keys else None
    return None


def _allows_null(contract: ReadmeContract, key: str) -> FieldSpec | None:
    """A documented field ``key`` that may be null: a null type, or an optional field."""
    fields = [f for f in contract.fields if f.name == key]
    fields.sort(key=lambda f: f.role not in ("response", "error", ""))
    for f in fields:
        if "null" in f.type or f.required is False or _NULLABLE.search(f.constraints):
            return f
    return None


# ----------------------------------------------------------------------------- no test item

def no_item_readings(ev: ItemEvidence) -> list[Reading]:
    """A sample whose suite ran no test: nothing to collect, or every test skipped by a gate
    on the environment."""
    if ev.item.test_id is not None or ev.item.kind != SUITE_NOT_RUN:
        return []
    cause = ev.sample.tests.cause
    if cause is not None and cause.kind not in _NOTHING_RAN:
        return []  # a crash, an import error, a timeout: read by the other families
    out = _non_collectable(ev)
    out += _env_gate(ev)
    return out


def _non_collectable(ev: ItemEvidence) -> list[Reading]:
    if ev.audit is None or any(c.outcome is not Outcome.SKIPPED for c in ev.sample.tests.cases):
        return []
    issues = [i for i in ev.audit.defects if i.cause == NON_COLLECTABLE]
    if not issues:
        return []
    issue = issues[0]
    anchors = tuple(Anchor.task_file(e.file, e.line, e.text) for e in issue.evidence[:3])
    return [Reading(NOT_MODEL, 0.85, "suite/no-collectable-test",
                    f"the suite ran no test: {issue.explain()}", anchors)]


def _env_gate(ev: ItemEvidence) -> list[Reading]:
    cases = ev.sample.tests.cases
    if not cases or any(c.outcome is not Outcome.SKIPPED for c in cases):
        return []
    readme = ev.task.readme if ev.task else ""
    for rel, text in sorted(ev.suite_sources().items()) + _conftest(ev):
        gate = _gate_in(text)
        if gate is None:
            continue
        line, var, code = gate
        named = [n for n, raw in enumerate(readme.splitlines(), 1) if var and var in raw]
        said = (f"README.md:{named[0]} names {var}, but the harness never sets it" if named
                else f"the README never mentions {var or 'it'}")
        anchors = [Anchor.task_file(rel, line, code)]
        if named:
            anchors.append(Anchor.task_file("README.md", named[0], readme.splitlines()[
                named[0] - 1].strip()))
        return [Reading(NOT_MODEL, 0.8, "suite/skipped-by-gate",
                        f"every test ({len(cases)}) was skipped: {rel}:{line} skips unless the "
                        f"environment variable {var or '(computed)'} is set ({code!r}); "
                        f"{said}", tuple(anchors))]
    return []


def _conftest(ev: ItemEvidence) -> list[tuple[str, str]]:
    out = []
    for rel in ("tests/conftest.py", "conftest.py"):
        text = ev.suite_source(rel)
        if text is not None:
            out.append((rel, text))
    return out


def _gate_in(text: str) -> tuple[int, str, str] | None:
    """A skip on an environment variable: (line, variable, source line)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    lines = text.splitlines()
    for node in ast.walk(tree):
        test: ast.AST | None = None
        if isinstance(node, ast.Call) and _skip_name(node.func) in ("skipif", "skipIf",
                                                                     "skipUnless"):
            test = node.args[0] if node.args else None
        elif isinstance(node, ast.If) and any(
                isinstance(n, ast.Call) and _skip_name(n.func) in ("skip", "SkipTest", "exit")
                for b in node.body for n in ast.walk(b)):
            test = node.test
        if test is None:
            continue
        src = ast.get_source_segment(text, test) or ""
        if not _ENV.search(src) and not _env_name(test, tree):
            continue
        var = _var_of(test) or _env_name(test, tree) or ""
        line = getattr(node, "lineno", 1)
        return line, var, lines[line - 1].strip() if line <= len(lines) else src
    return None


def _skip_name(func: ast.AST) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _var_of(node: ast.AST) -> str | None:
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and re.fullmatch(
                r"[A-Z][A-Z0-9_]{2,}", n.value):
            return n.value
    return None


def _env_name(test: ast.AST, tree: ast.Module) -> str | None:
    """A module-level name the test uses that was read from the environment."""
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in names for t in node.targets):
            src = ast.dump(node.value)
            if "environ" in src or "getenv" in src:
                return _var_of(node.value)
    return None
