"""Python modules of a repo, parsed once with :mod:`ast`, and a small static evaluator for the
values route paths are built from.

The evaluator follows names the way Python would at import time: module-level (and, for app
factories, function-level) assignments, ``import``/``from ... import`` across the repo's own
modules (relative imports too), class attributes (so ``Settings.API_PREFIX`` and pydantic
``BaseSettings`` defaults, ``Field("/api")`` included), instances (``settings = Settings()``,
``get_settings()`` returning one), f-strings, ``+`` concatenation, ``str()``, and
``os.getenv``/``os.environ.get`` defaults. Whatever needs the running program (an env var
without default, ``app.config[...]``, a computed string) becomes :class:`Unknown` with the
expression and its ``file:line``. Settings defaults are taken as the value: an env var could
override them when the service starts, which no static reading can know.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from inspector.services.routes.model import Part, Unknown

MAX_DEPTH = 12


@dataclass(eq=False)
class Module:
    rel: str
    name: str
    tree: ast.Module
    lines: list[str]
    assigns: dict[str, list[ast.expr]] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    nodes: list[ast.AST] = field(default_factory=list)  # every node, walked once

    def text(self, line: int) -> str:
        return self.lines[line - 1].strip()[:200] if 0 < line <= len(self.lines) else ""

    def where(self, node: ast.AST) -> str:
        return f"{self.rel}:{getattr(node, 'lineno', 0)}"


@dataclass(frozen=True, eq=False)
class Sym:
    """What a name refers to: a module, a class, an instance of a class, a function, or an
    expression assigned to it (in ``mod``)."""

    kind: str  # module | class | instance | func | expr
    mod: Module
    node: ast.AST | None = None

    @property
    def class_node(self) -> ast.ClassDef:
        """The ``class`` statement of a class or instance symbol."""
        if not isinstance(self.node, ast.ClassDef):
            raise TypeError(f"a {self.kind} symbol has no class statement")
        return self.node

    @property
    def func_node(self) -> ast.FunctionDef | ast.AsyncFunctionDef:
        """The ``def`` statement of a func symbol."""
        if not isinstance(self.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            raise TypeError(f"a {self.kind} symbol has no def statement")
        return self.node

    @property
    def expr_node(self) -> ast.AST:
        """The expression an expr symbol stands for."""
        if self.node is None:
            raise TypeError(f"a {self.kind} symbol has no expression")
        return self.node


def _module_name(rel: str) -> str:
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


# A module mentioning none of these declares no route: it is parsed only when a name
# leads to it (a settings module, a constants file).
HINT = re.compile(r"@\w[\w.]*\.(?:get|post|put|delete|patch|route|api_route)\b|Flask|FastAPI|"
                  r"APIRouter|Blueprint|urlpatterns|ROOT_URLCONF|\bEve\b|DOMAIN|add_url_rule|"
                  r"add_api_route|add_resource|include_router|register_blueprint|Namespace|\bApi\b|"
                  r"\.register\(")


class Index:
    """Every ``.py`` file of a repo; names resolve across them. Files that may declare
    routes are parsed up front (:attr:`modules`), the others when a name leads to them."""

    def __init__(self, texts: list[tuple[str, str]]) -> None:
        self.modules: list[Module] = []
        self._texts: dict[str, str] = {}
        self._parsed: dict[str, Module | None] = {}
        self._names: dict[str, str] = {}
        suffixes: dict[str, str] = {}
        for rel, text in texts:
            if not rel.endswith(".py"):
                continue
            self._texts[rel] = text
            name = _module_name(rel)
            self._names.setdefault(name, rel)
            parts = name.split(".")
            for i in range(1, len(parts)):  # src/ layouts, sys.path tweaks, running from app/
                suffixes.setdefault(".".join(parts[i:]), rel)
        for name, rel in suffixes.items():
            self._names.setdefault(name, rel)
        for rel, text in self._texts.items():
            if HINT.search(text):
                mod = self._parse(rel)
                if mod is not None:
                    self.modules.append(mod)

    def _parse(self, rel: str) -> Module | None:
        if rel not in self._parsed:
            text = self._texts[rel]
            try:
                tree = ast.parse(text, filename=rel)
            except (SyntaxError, ValueError):
                self._parsed[rel] = None
                return None
            mod = Module(rel, _module_name(rel), tree, text.splitlines())
            mod.nodes = list(ast.walk(tree))
            self._scan(mod)
            self._parsed[rel] = mod
        return self._parsed[rel]

    # ------------------------------------------------------------------ scanning

    def _scan(self, mod: Module) -> None:
        pkg = mod.name.split(".")
        if not mod.rel.endswith("__init__.py"):
            pkg = pkg[:-1]
        for node in mod.nodes:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind(mod, target, node.value)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                if isinstance(node, ast.AnnAssign):
                    self._bind(mod, node.target, node.value)
            elif isinstance(node, ast.ClassDef):
                mod.classes.setdefault(node.name, node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                mod.functions.setdefault(node.name, node)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        mod.imports[a.asname] = (a.name, None)
                    else:
                        mod.imports.setdefault(a.name.split(".")[0], (a.name.split(".")[0], None))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = pkg[: len(pkg) - node.level + 1] if node.level > 1 else pkg
                    base = ".".join([*up, *([base] if base else [])])
                for a in node.names:
                    if a.name != "*":
                        mod.imports[a.asname or a.name] = (base, a.name)

    @staticmethod
    def _bind(mod: Module, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, ast.Name):
            mod.assigns.setdefault(target.id, []).append(value)
        elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple,
                                                                             ast.List)):
            for t, v in zip(target.elts, value.elts, strict=False):
                Index._bind(mod, t, v)

    # ------------------------------------------------------------------ names

    def module(self, name: str) -> Module | None:
        rel = self._names.get(name)
        return self._parse(rel) if rel is not None else None

    def lookup(self, mod: Module, name: str, depth: int = 0) -> Sym | None:
        """What ``name`` means at the top of ``mod`` (last assignment wins)."""
        if depth > MAX_DEPTH:
            return None
        if name in mod.assigns:
            return Sym("expr", mod, mod.assigns[name][-1])
        if name in mod.classes:
            return Sym("class", mod, mod.classes[name])
        if name in mod.functions:
            return Sym("func", mod, mod.functions[name])
        if name in mod.imports:
            base, attr = mod.imports[name]
            if attr is None:
                target = self.module(base)
                return Sym("module", target) if target else None
            sub = self.module(f"{base}.{attr}" if base else attr)
            if sub is not None:
                return Sym("module", sub)
            target = self.module(base)
            if target is not None and target is not mod:
                return self.lookup(target, attr, depth + 1)
        return None

    def ref(self, mod: Module, node: ast.AST, env: dict[str, tuple[Module, ast.expr]] | None
            = None, depth: int = 0) -> Sym | None:
        """The symbol an expression denotes, following assignments, calls and attributes."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, ast.Name):
            if env and node.id in env:
                emod, expr = env[node.id]
                return self.ref(emod, expr, None, depth + 1)
            sym = self.lookup(mod, node.id)
            return self.deref(sym, depth + 1) if sym else None
        if isinstance(node, ast.Attribute):
            base = self.ref(mod, node.value, env, depth + 1)
            if base is None:
                return None
            if base.kind == "module":
                sym = self.lookup(base.mod, node.attr)
                return self.deref(sym, depth + 1) if sym else None
            if base.kind in ("class", "instance"):
                sym = self.class_attr(base.mod, base.class_node, node.attr)
                return self.deref(sym, depth + 1) if sym else None
            return None
        if isinstance(node, ast.Call):
            fn = self.ref(mod, node.func, env, depth + 1)
            if fn is None:
                return None
            if fn.kind == "class":
                return Sym("instance", fn.mod, fn.node)
            if fn.kind == "func":
                ret = _returned(fn.func_node)
                return self.ref(fn.mod, ret, None, depth + 1) if ret is not None else None
            return None
        return Sym("expr", mod, node)

    def deref(self, sym: Sym | None, depth: int = 0) -> Sym | None:
        if sym is not None and sym.kind == "expr" and isinstance(
                sym.node, (ast.Name, ast.Attribute, ast.Call)):
            return self.ref(sym.mod, sym.node, None, depth + 1) or sym
        return sym

    def class_attr(self, mod: Module, cls: ast.ClassDef, attr: str, depth: int = 0
                   ) -> Sym | None:
        """Class attribute ``attr`` of ``cls`` or of a base class found in the repo."""
        if depth > MAX_DEPTH:
            return None
        for stmt in cls.body:
            if isinstance(stmt, ast.Assign) and stmt.value is not None and any(
                    isinstance(t, ast.Name) and t.id == attr for t in stmt.targets):
                return Sym("expr", mod, stmt.value)
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and \
                    stmt.target.id == attr and stmt.value is not None:
                return Sym("expr", mod, stmt.value)
        for base in cls.bases:
            b = self.ref(mod, base, None, depth + 1)
            if b is not None and b.kind == "class":
                found = self.class_attr(b.mod, b.class_node, attr, depth + 1)
                if found:
                    return found
        return None

    def class_of(self, mod: Module, node: ast.AST) -> Sym | None:
        sym = self.ref(mod, node)
        return sym if sym is not None and sym.kind == "class" else None

    # ------------------------------------------------------------------ strings

    def string(self, mod: Module, node: ast.AST | None,
               env: dict[str, tuple[Module, ast.expr]] | None = None, depth: int = 0
               ) -> tuple[Part, ...]:
        """The text an expression evaluates to, with :class:`Unknown` for what is not
        statically known."""
        if node is None:
            return ()
        if depth > MAX_DEPTH:
            return (self._unknown(mod, node, "a value nested too deeply"),)
        if isinstance(node, ast.Constant):
            if node.value is None:
                return ()
            if isinstance(node.value, str):
                return (node.value,)
            return (self._unknown(mod, node, "a non-string value"),)
        if isinstance(node, ast.JoinedStr):
            out: list[Part] = []
            for v in node.values:
                if isinstance(v, ast.FormattedValue):
                    out.extend(self.string(mod, v.value, env, depth + 1))
                else:
                    out.extend(self.string(mod, v, env, depth + 1))
            return tuple(out)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.string(mod, node.left, env, depth + 1) + \
                self.string(mod, node.right, env, depth + 1)
        if isinstance(node, ast.Call):
            return self._call_string(mod, node, env, depth)
        if isinstance(node, ast.Subscript) and dotted(node.value).endswith("environ"):
            key = str(node.slice.value) if isinstance(node.slice, ast.Constant) else \
                ast.unparse(node.slice)
            return (Unknown(f"env var {key} without default ({mod.where(node)})"),)
        if isinstance(node, ast.Subscript):
            return (self._unknown(mod, node, "runtime value"),)
        if isinstance(node, ast.Name) and env and node.id in env:
            emod, expr = env[node.id]
            return self.string(emod, expr, None, depth + 1)
        if isinstance(node, (ast.Name, ast.Attribute)):
            sym = self._raw_ref(mod, node, env, depth)
            if sym is not None and sym.kind == "expr":
                return self.string(sym.mod, sym.node, None, depth + 1)
            return (self._unknown(mod, node, "runtime value"),)
        return (self._unknown(mod, node, "computed value"),)

    def _raw_ref(self, mod: Module, node: ast.AST, env: dict[str, tuple[Module, ast.expr]]
                 | None, depth: int) -> Sym | None:
        """Like :meth:`ref`, but stops at the assigned expression (a call stays a call)."""
        if isinstance(node, ast.Name):
            return self.lookup(mod, node.id)
        if isinstance(node, ast.Attribute):
            base = self.ref(mod, node.value, env, depth + 1)
            if base is None:
                return None
            if base.kind == "module":
                return self.lookup(base.mod, node.attr)
            if base.kind in ("class", "instance"):
                return self.class_attr(base.mod, base.class_node, node.attr)
        return None

    def _call_string(self, mod: Module, node: ast.Call, env: dict[str, tuple[Module, ast.expr]]
                     | None, depth: int) -> tuple[Part, ...]:
        name = dotted(node.func)
        last = name.rsplit(".", 1)[-1]
        if name in ("os.getenv", "getenv", "os.environ.get", "environ.get", "config",
                    "env", "env.str") or name.endswith(("environ.get", ".getenv")):
            var = str(node.args[0].value) if node.args and isinstance(node.args[0], ast.Constant) \
                else ast.unparse(node.args[0]) if node.args else "?"
            default = node.args[1] if len(node.args) > 1 else kwarg(node, "default")
            if default is None:
                return (Unknown(f"env var {var} without default ({mod.where(node)})"),)
            return self.string(mod, default, env, depth + 1)
        if last in ("Field", "str") and (node.args or kwarg(node, "default") is not None):
            return self.string(mod, node.args[0] if node.args else kwarg(node, "default"), env,
                               depth + 1)
        return (self._unknown(mod, node, "computed value"),)

    @staticmethod
    def _unknown(mod: Module, node: ast.AST, what: str) -> Unknown:
        return Unknown(f"{what} {ast.unparse(node)[:80]} ({mod.where(node)})")


def dotted(node: ast.AST) -> str:
    """``a.b.c`` for a name or attribute chain ('' otherwise)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    if isinstance(node, ast.Call):
        return dotted(node.func) + "()"
    return ""


def kwarg(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _returned(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    rets = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return) and n.value is not None]
    return rets[-1] if rets else None


def str_list(index: Index, mod: Module, node: ast.AST | None) -> list[str] | None:
    """String items of a literal list/tuple/set (names resolved), None when not literal."""
    if node is None:
        return None
    if isinstance(node, (ast.Name, ast.Attribute)):
        sym = index._raw_ref(mod, node, None, 0)
        if sym is None or sym.kind != "expr":
            return None
        return str_list(index, sym.mod, sym.node)
    if not isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return None
    out = []
    for e in node.elts:
        parts = index.string(mod, e)
        known = [p for p in parts if isinstance(p, str)]
        if len(known) == len(parts):
            out.append("".join(known))
    return out
