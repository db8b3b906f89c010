"""Whether a golden test can reach the service at all, read from its source.

A test whose body (nested functions included) makes no HTTP call, calls no helper of the suite
and takes no fixture but harmless built-ins (``tmp_path``, ``monkeypatch`` …) cannot have
reached the service: a service that never came up does not explain its failure. Anything else
may have (a helper or a fixture can hold the client), and so does a source that cannot be read.
"""

from __future__ import annotations

import ast

HTTP_CALLS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "request",
                        "stream", "urlopen", "fetch", "send", "websocket_connect", "connect"})
"""Call names that may be a request to the service (``requests.post``, ``client.get`` …)."""
HARMLESS_FIXTURES = frozenset({"self", "cls", "tmp_path", "tmp_path_factory", "tmpdir",
                               "monkeypatch", "capsys", "capfd", "caplog", "recwarn",
                               "pytestconfig", "request", "subtests"})
"""Test parameters that are pytest's own, never a client of the service."""


def _find(tree: ast.Module, parts: list[str]) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    scope: list[ast.stmt] = tree.body
    for i, name in enumerate(parts):
        name = name.split("[", 1)[0]  # a parametrized id: test_x[case]
        last = i == len(parts) - 1
        found = next((n for n in scope if getattr(n, "name", None) == name), None)
        if found is None:
            return None
        if last:
            return found if isinstance(found, ast.FunctionDef | ast.AsyncFunctionDef) else None
        if not isinstance(found, ast.ClassDef):
            return None
        scope = found.body
    return None


def _suite_functions(tree: ast.Module) -> set[str]:
    """Names of functions and methods the test file defines (its helpers)."""
    return {n.name for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def may_contact_service(source: str, test_id: str) -> bool | None:
    """False when the test ``test_id`` (``file::[Class::]name``) cannot have contacted the
    service; True when it may have; None when its source cannot be read."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    fn = _find(tree, test_id.split("::")[1:])
    if fn is None:
        return None
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]
    if any(p not in HARMLESS_FIXTURES for p in params):
        return True  # a fixture of the suite may be the client (or start the service)
    helpers = _suite_functions(tree) - {fn.name}
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else (
            func.id if isinstance(func, ast.Name) else None)
        if name is None:
            return True  # a call through a subscript or a call result: cannot tell
        if name.lower() in HTTP_CALLS or name in helpers:
            return True
    return False
