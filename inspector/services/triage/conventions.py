"""Conventions across tasks: which status code each golden suite demands for the same
situation (a duplicate resource, a missing field, an unknown path, …).

READMEs rarely fix these codes, and suites disagree: one task's tests want 409 for a duplicate,
another's 400; one clamps an over-large page size, another answers 422. When a test fails on
such a code, the other suites' demands for the same situation are evidence that the README's
silence left a real choice. Situations are read from the tests' names (the words suites use
for them), codes from their ``status_code`` assertions.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass

from inspector.model import Task

SITUATIONS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("malformed JSON", re.compile(r"malformed|invalid_json|bad_json|not_json")),
    ("a duplicate resource", re.compile(r"duplicate|already_exist|conflict")),
    ("a missing or empty required field",
     re.compile(r"missing|required|empty_body|empty_request|no_body|empty_payload")),
    ("an out-of-range field value",
     re.compile(r"too_long|too_short|too_large|too_small|exceed|max_length|min_length|"
                r"out_of_range|negative|over_limit|page_size")),
    ("an invalid field format", re.compile(r"invalid_(?!token|url|path|json)\w+|bad_format|"
                                           r"wrong_format|invalid$")),
    ("a nonexistent resource", re.compile(r"nonexist|non_exist|not_found|unknown_id|missing_id"
                                          r"|does_not_exist")),
    ("an unsupported HTTP method", re.compile(r"method_not_allowed|unsupported_(?:http_)?method"
                                              r"|wrong_method")),
    ("an unknown URL path", re.compile(r"invalid_url|invalid_path|unknown_(?:path|endpoint|"
                                       r"route)|nonexistent_endpoint")),
    ("a missing or invalid token", re.compile(r"unauthori[sz]ed|without_token|no_token|"
                                              r"invalid_token|no_auth|without_auth|expired")),
    ("another user's resource", re.compile(r"forbidden|other_user|another_user")),
)


def situation_of(test_name: str) -> str | None:
    """The situation a test's name says it checks, or None."""
    name = test_name.lower()
    for label, pat in SITUATIONS:
        if pat.search(name):
            return label
    return None


@dataclass(frozen=True, slots=True)
class Demand:
    """One suite's status code(s) for a situation: task, test file:line, the codes."""

    task: str
    file: str
    line: int
    test: str
    codes: tuple[int, ...]


def _status_codes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[int, tuple[int, ...]]]:
    out: list[tuple[int, tuple[int, ...]]] = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Assert) or not isinstance(node.test, ast.Compare):
            continue
        cmp = node.test
        sides = [cmp.left, *cmp.comparators]
        if not any(isinstance(s, ast.Attribute) and s.attr in ("status_code", "status")
                   for s in sides):
            continue
        codes: list[int] = []
        for s in sides:
            if isinstance(s, ast.Constant) and isinstance(s.value, int):
                codes.append(s.value)
            elif isinstance(s, (ast.List, ast.Tuple, ast.Set)):
                codes.extend(e.value for e in s.elts
                             if isinstance(e, ast.Constant) and isinstance(e.value, int))
        if codes and isinstance(cmp.ops[0], (ast.Eq, ast.In)):
            out.append((node.lineno, tuple(sorted(set(codes)))))
    return out


def suite_demands(task: Task) -> dict[str, list[Demand]]:
    """Situation -> the demands of ``task``'s Python suite (the last status assertion of each
    test: the one about the situation, after any set-up requests)."""
    found: dict[str, list[Demand]] = defaultdict(list)
    tests = task.tests_dir or (task.root / "tests" if task.root else None)
    if tests is None or not tests.is_dir():
        return {}
    for path in sorted(tests.rglob("test_*.py"))[:200]:
        try:
            if path.stat().st_size > 1_000_000:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except (OSError, SyntaxError, ValueError):
            continue
        rel = path.relative_to(tests.parent).as_posix()
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or \
                    not fn.name.startswith("test"):
                continue
            where = situation_of(fn.name)
            codes = _status_codes(fn)
            if where and codes:
                line, demanded = codes[-1]
                found[where].append(Demand(task.name, rel, line, fn.name, demanded))
    return dict(found)


class ConventionIndex:
    """Demands of every task's suite, by situation (built once per folder, lazily)."""

    def __init__(self, tasks: dict[str, Task]) -> None:
        self._tasks = tasks
        self._by: dict[str, list[Demand]] | None = None

    def _index(self) -> dict[str, list[Demand]]:
        if self._by is None:
            by: dict[str, list[Demand]] = defaultdict(list)
            for task in self._tasks.values():
                if task.language != "python":
                    continue
                for situation, demands in suite_demands(task).items():
                    by[situation].extend(demands)
            self._by = dict(by)
        return self._by

    def contradictions(self, task: str, test_name: str, expected: int
                       ) -> tuple[str, list[Demand]] | None:
        """Other tasks' suites demanding another code for the situation ``test_name`` checks."""
        situation = situation_of(test_name)
        if situation is None:
            return None
        others = [d for d in self._index().get(situation, ())
                  if d.task != task and expected not in d.codes]
        return (situation, others) if others else None


def describe(situation: str, task: str, expected: int, others: list[Demand]) -> str:
    """``for a duplicate resource this suite demands 400; X's demands 409 (tests/t.py:12)``."""
    shown = "; ".join(f"{d.task}'s demands {'/'.join(map(str, d.codes))} ({d.file}:{d.line})"
                      for d in others[:3])
    more = f" and {len(others) - 3} more" if len(others) > 3 else ""
    return (f"suites disagree on {situation}: {task}'s demands {expected}; {shown}{more}")


__all__ = ["ConventionIndex", "Demand", "describe", "situation_of", "suite_demands"]
