"""Tests that share state: the same literal identities created by several tests of a suite.

A suite whose tests register ``testuser`` / ``test@example.com`` in many tests, against one
service that keeps its data between them, makes each test's outcome depend on the ones before
it: a registration answered 409, a login answered 401, a response without its ``data``. The
reading this module gives is a suspicion only; running the test alone on a fresh deployment
(:data:`~inspector.model.failures.triage.RUN_ALONE`) confirms or refutes it.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass

_WRITE_METHODS = frozenset({"post", "put", "patch"})
_MIN_LEN = 4  # literal values shorter than this ("a", "x1") are not identities
_NOT_IDENTITY = ("pass", "secret", "token", "description", "content", "text", "message",
                 "body", "comment", "note", "full_name", "bio")
"""Keys whose values two tests may share without colliding (no uniqueness on them)."""


@dataclass(frozen=True, slots=True)
class SharedLiterals:
    """Literal body values one test sends that other tests of the suite send too."""

    test: str
    values: tuple[str, ...]
    others: tuple[str, ...]  # the other tests' names


def _identity_key(key: ast.expr | None) -> bool:
    if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
        return False
    return not any(word in key.value.lower() for word in _NOT_IDENTITY)


def _dict_literals(node: ast.AST) -> set[str]:
    """Literal string values of a dict literal under keys that name an identity."""
    if not isinstance(node, ast.Dict):
        return set()
    return {v.value for k, v in zip(node.keys, node.values, strict=False)
            if _identity_key(k) and isinstance(v, ast.Constant)
            and isinstance(v.value, str) and len(v.value) >= _MIN_LEN}


def _assigned_dicts(scope: ast.AST) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """``(name -> literals, self.attr -> literals)`` of dict literals assigned in ``scope``."""
    names: dict[str, set[str]] = {}
    attrs: dict[str, set[str]] = {}
    for node in ast.walk(scope):
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Dict):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name):
                names[target.id] = _dict_literals(node.value)
            elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id == "self":
                attrs[target.attr] = _dict_literals(node.value)
    return names, attrs


def _body_literals(call: ast.Call, names: dict[str, set[str]], attrs: dict[str, set[str]]
                   ) -> set[str]:
    out: set[str] = set()
    for kw in call.keywords:
        if kw.arg not in ("json", "data"):
            continue
        value = kw.value
        if isinstance(value, ast.Dict):
            out |= _dict_literals(value)
        elif isinstance(value, ast.Name):
            out |= names.get(value.id, set())
        elif isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
                and value.value.id == "self":
            out |= attrs.get(value.attr, set())
    return out


def _writes(fn: ast.AST, helpers: dict[str, set[str]], attrs: dict[str, set[str]]
            ) -> set[str]:
    names, _ = _assigned_dicts(fn)
    out: set[str] = set()
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else (
            func.id if isinstance(func, ast.Name) else "")
        if name in _WRITE_METHODS:
            out |= _body_literals(node, names, attrs)
        elif name in helpers:
            out |= helpers[name]
    return out


def suite_literals(source: str) -> dict[str, set[str]]:
    """Test name -> the literal values its write requests send (dict literals, local dicts,
    ``self.x`` dicts set by the class's fixtures, module-level helper functions)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    helpers: dict[str, set[str]] = {}
    for fn in tree.body:
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                not fn.name.startswith("test"):
            helpers[fn.name] = _writes(fn, {}, {})
    out: dict[str, set[str]] = {}
    scopes: list[tuple[ast.AST, dict[str, set[str]]]] = [(tree, {})]
    scopes += [(c, _assigned_dicts(c)[1]) for c in tree.body if isinstance(c, ast.ClassDef)]
    for scope, attrs in scopes:
        body = scope.body if isinstance(scope, (ast.Module, ast.ClassDef)) else []
        for fn in body:
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    fn.name.startswith("test"):
                out[fn.name] = _writes(fn, helpers, attrs)
    return out


def shared_literals(sources: dict[str, str], test_name: str) -> SharedLiterals | None:
    """The literal identities ``test_name`` writes that other tests in ``sources`` (suite file
    -> text) write too, or None."""
    by_test: dict[str, set[str]] = defaultdict(set)
    for text in sources.values():
        for name, values in suite_literals(text).items():
            by_test[name] |= values
    own = by_test.get(test_name)
    if not own:
        return None
    others = sorted(n for n, v in by_test.items() if n != test_name and v & own)
    if not others:
        return None
    shared = sorted({v for n in others for v in by_test[n] & own})
    return SharedLiterals(test_name, tuple(shared), tuple(others))
