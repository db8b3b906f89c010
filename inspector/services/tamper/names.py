"""What the names of one Python module stand for, for the tamper scan's analysers: the modules
and objects it imports (``aliases``) and the expressions assigned to each name
(``bindings``, at most :data:`MAX_BINDINGS` each)."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from inspector.model.suite.flow import dotted as name_chain

MAX_BINDINGS = 8


class NameTable:
    """``aliases``: local name -> what it was imported as (``np`` -> ``numpy``, ``b64`` ->
    ``base64.b64decode``); ``bindings``: local name -> the values assigned to it (assignments,
    loop targets, ``with ... as``, walrus)."""

    def __init__(self, nodes: Iterable[ast.AST]) -> None:
        self.aliases: dict[str, str] = {}
        self.bindings: dict[str, list[ast.AST]] = {}
        for node in nodes:
            if isinstance(node, ast.Import):
                for a in node.names:
                    top = a.name.split(".")[0]
                    self.aliases[a.asname or top] = a.name if a.asname else top
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for a in node.names:
                    self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if node.value is not None:
                    for t in targets:
                        self.bind(t, node.value)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                self.bind(node.target, node.iter)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                self.bind(node.optional_vars, node.context_expr)
            elif isinstance(node, ast.NamedExpr):
                self.bind(node.target, node.value)

    def bind(self, target: ast.AST, value: ast.AST) -> None:
        """Record ``value`` for every name ``target`` assigns (tuples and lists unpacked)."""
        if isinstance(target, ast.Name):
            found = self.bindings.setdefault(target.id, [])
            if len(found) < MAX_BINDINGS:
                found.append(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.bind(elt, value)


def dotted(node: ast.AST, through_calls: bool = False) -> str:
    """``a.b.c`` for an attribute chain on a name; ``""`` when it starts elsewhere, unless
    ``through_calls``: then ``f().x`` for a call's result, and the attributes alone for any
    other start."""
    plain = name_chain(node)
    if plain is not None or not through_calls:
        return plain or ""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Call):
        parts.append(dotted(node.func, True) + "()")
    return ".".join(reversed(parts))
