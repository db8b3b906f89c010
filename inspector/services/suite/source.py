"""Static reading of a Python test suite (``ast`` only, never imported or run): its modules,
what a name or attribute is bound to, which fixtures a test gets, and the URL templates an
expression can evaluate to.

A URL template is a string with :data:`DYN` for every part not known statically. An expression
may have several templates (a parametrized argument, a loop over a literal table, a fixture
with two ``return``\\ s); at most :data:`MAX_CANDIDATES` are kept.

Followed: string constants, f-strings, ``+``, ``%`` and ``.format`` templates; local, module,
class and ``self.`` attributes (set in the class body or any method, e.g. ``setup_method``);
names imported from other modules of the suite; fixtures (the values they return or yield);
calls to the suite's own functions and methods (their ``return`` value, arguments bound to
parameters); ``os.environ.get``/``os.getenv`` defaults; ``urljoin``, ``os.path.join``,
``str.join``, ``rstrip``/``strip``/``replace``; ``x or y``, ``a if c else b``; a constant key of
a literal dict; ``@pytest.mark.parametrize`` values and ``for`` loops over literal lists.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urljoin

DYN = "\x00"  # a dynamic part of a URL template
MAX_CANDIDATES = 16
MAX_DEPTH = 14
_MAX_ITEMS = 64  # items of a literal table read

Fn = ast.FunctionDef | ast.AsyncFunctionDef
ClassRef = tuple[ast.ClassDef, "Module"]
_SETUP = re.compile(r"^(setup|setUp|__init__|_?setup_\w*|setUpClass|setup_class)$")
_DYN_MARK = "\x01dyn\x01"  # stands for DYN inside urljoin, which would percent-quote \x00


def is_fixture(fn: Fn) -> tuple[bool, bool]:
    """(is a pytest fixture, is autouse)."""
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if _last_name(target) == "fixture":
            autouse = isinstance(dec, ast.Call) and any(
                k.arg == "autouse" and isinstance(k.value, ast.Constant) and k.value.value
                for k in dec.keywords)
            return True, autouse
    return False, False


def _last_name(node: ast.AST) -> str:
    return node.attr if isinstance(node, ast.Attribute) else \
        node.id if isinstance(node, ast.Name) else ""


@dataclass
class Module:
    """One parsed file of the suite; ``rel`` is relative to the task (repo) root."""

    rel: str
    path: Path
    lines: list[str]
    tree: ast.Module
    constants: dict[str, ast.expr] = field(default_factory=dict)
    functions: dict[str, Fn] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    fixtures: dict[str, Fn] = field(default_factory=dict)  # autouse ones left out
    # local name -> (dotted module, attribute or "" for the module itself, import level)
    imports: dict[str, tuple[str, str, int]] = field(default_factory=dict)


class Val(NamedTuple):
    """An expression a name is bound to, with the environment and line to read it at."""

    expr: ast.expr
    env: Env
    line: int


# ------------------------------------------------------------------------------- the suite


class Suite:
    """The parsed files of one tests folder (and the task root's ``conftest.py``)."""

    def __init__(self, tests_dir: Path) -> None:
        self.tests_dir = tests_dir
        self.root = tests_dir.parent
        self.skipped: list[tuple[str, str]] = []
        self._modules: dict[Path, Module | None] = {}
        self._envs: dict[tuple[int, int], Env] = {}
        self._fixture_values: dict[int, list[Val]] = {}
        self._imports: dict[tuple[int, str], tuple[Module, str] | None] = {}
        self._found: dict[tuple[Path, str, int], Module | None] = {}
        self.conftests: dict[Path, Module] = {}
        files = [self.root / "conftest.py",
                 *sorted(p for p in tests_dir.rglob("conftest.py") if p.is_file())]
        for conf in files:
            if conf.is_file() and (mod := self.module(conf)) is not None:
                self.conftests[Path(mod.rel).parent] = mod

    # modules ---------------------------------------------------------------------------

    def module(self, path: Path) -> Module | None:
        """The parsed file (cached); None, recorded in ``skipped``, when it cannot be read."""
        if path in self._modules:
            return self._modules[path]
        rel = path.relative_to(self.root).as_posix()
        mod = None
        try:
            source = path.read_text(encoding="utf-8", errors="replace")
            mod = _index(Module(rel, path, source.splitlines(), ast.parse(source, rel)))
        except SyntaxError as exc:
            self.skipped.append((rel, f"SyntaxError: {exc.msg} (line {exc.lineno})"))
        except (OSError, ValueError, RecursionError, MemoryError) as exc:
            self.skipped.append((rel, f"{type(exc).__name__}: {exc}"))
        self._modules[path] = mod
        return mod

    def _find_module(self, mod: Module, dotted: str, level: int) -> Module | None:
        """The suite's file for ``import dotted`` in ``mod`` (only files of the suite)."""
        key = (mod.path.parent, dotted, level)
        if key not in self._found:
            self._found[key] = self._search_module(mod.path.parent, dotted, level)
        return self._found[key]

    def _search_module(self, here: Path, dotted: str, level: int) -> Module | None:
        if level:
            bases = [here.parents[level - 2] if level > 1 else here]
        else:
            bases = [here, self.tests_dir, self.root]
        parts = [p for p in dotted.split(".") if p]
        for base in bases:
            for cand in (base.joinpath(*parts).with_suffix(".py") if parts else None,
                         base.joinpath(*parts, "__init__.py")):
                if cand is None or not cand.is_file():
                    continue
                real = cand.resolve()
                if real == (self.root / "conftest.py").resolve() or \
                        self.tests_dir.resolve() in real.parents:
                    return self.module(cand)
        return None

    def imported(self, mod: Module, name: str) -> tuple[Module, str] | None:
        """(module, attribute) a name imported into ``mod`` comes from ("" for a module)."""
        key = (id(mod), name)
        if key not in self._imports:
            self._imports[key] = self._imported(mod, name)
        return self._imports[key]

    def _imported(self, mod: Module, name: str) -> tuple[Module, str] | None:
        spec = mod.imports.get(name)
        if spec is None:
            return None
        dotted, attr, level = spec
        if attr:
            target = self._find_module(mod, dotted, level)
            if target is not None:
                return target, attr
            sub = self._find_module(mod, f"{dotted}.{attr}" if dotted else attr, level)
            return (sub, "") if sub is not None else None
        target = self._find_module(mod, dotted, level)
        return (target, "") if target is not None else None

    def is_external_module(self, mod: Module, name: str) -> str:
        """The dotted name when ``name`` in ``mod`` is an imported module not in the suite."""
        spec = mod.imports.get(name)
        if spec and not spec[1] and self.imported(mod, name) is None:
            return spec[0]
        return ""

    # names -----------------------------------------------------------------------------

    def module_env(self, mod: Module) -> Env:
        return self.env(mod, None, None)

    def env(self, mod: Module, cls: ClassRef | None, fn: ast.AST | None,
            fixtures: dict[str, FixtureRef] | None = None) -> Env:
        """The (cached) environment of a function, class body (``fn`` the ClassDef) or module."""
        key = (id(fn) if fn is not None else id(mod), id(cls[0]) if cls else 0)
        if key not in self._envs:
            self._envs[key] = Env(self, mod, cls, fixtures).defer(fn)
        return self._envs[key]

    def global_value(self, mod: Module, name: str) -> list[Val] | None:
        """A module-level name of ``mod``: a constant, or a constant imported from the suite."""
        if name in mod.constants:
            return [Val(mod.constants[name], self.module_env(mod), 1 << 30)]
        found = self.imported(mod, name)
        if found is not None and found[1] and found[1] in found[0].constants:
            target = found[0]
            return [Val(target.constants[found[1]], self.module_env(target), 1 << 30)]
        return None

    def function(self, mod: Module, name: str) -> tuple[Fn, Module] | None:
        """A module-level function of ``mod``, or one it imports from the suite."""
        if name in mod.functions:
            return mod.functions[name], mod
        found = self.imported(mod, name)
        if found is not None and found[1] in found[0].functions:
            return found[0].functions[found[1]], found[0]
        return None

    def class_named(self, mod: Module, name: str) -> ClassRef | None:
        if name in mod.classes:
            return mod.classes[name], mod
        found = self.imported(mod, name)
        if found is not None and found[1] in found[0].classes:
            return found[0].classes[found[1]], found[0]
        return None

    def chain(self, cls: ClassRef) -> list[ClassRef]:
        """The class and its bases defined in the suite, in (depth-first) lookup order."""
        out: list[ClassRef] = []
        todo = [cls]
        while todo and len(out) < 16:
            node, mod = todo.pop(0)
            if any(node is c for c, _ in out):
                continue
            out.append((node, mod))
            for base in node.bases:
                if isinstance(base, ast.Name) and (ref := self.class_named(mod, base.id)):
                    todo.append(ref)
        return out

    def method(self, cls: ClassRef, name: str) -> tuple[Fn, Module] | None:
        for node, mod in self.chain(cls):
            for item in node.body:
                if isinstance(item, Fn) and item.name == name:
                    return item, mod
        return None

    def class_attr(self, cls: ClassRef, name: str) -> list[Val] | None:
        """``Class.name`` as set in the class body (or a base's)."""
        for node, mod in self.chain(cls):
            body_env = self.env(mod, (node, mod), node)
            found = body_env.local.get(name)
            if found:
                return found[-1][1]
        return None

    def self_attr(self, cls: ClassRef, name: str, asking: ast.AST | None = None) -> list[Val]:
        """``self.name``: what setup methods (``setup_method``, ``setUp``, ``__init__``,
        fixtures) assign, else the class attribute, else what other methods assign. ``asking``
        is the function reading it, whose own assignments are left out (``self.u = self.u +
        "/x"`` in a setup method reads the class attribute)."""
        setup: list[Val] = []
        other: list[Val] = []
        for node, mod in self.chain(cls):
            for item in node.body:
                if not isinstance(item, Fn) or item is asking:
                    continue
                env = self.env(mod, cls, item, self.fixtures_for(mod, cls))
                for _, vals in env.local.get(f"self.{name}", ()):
                    (setup if _SETUP.match(item.name) or is_fixture(item)[0] else other) \
                        .extend(vals)
        if setup:
            return setup[:MAX_CANDIDATES]
        found = self.class_attr(cls, name)
        return found if found is not None else other[:MAX_CANDIDATES]

    # fixtures --------------------------------------------------------------------------

    def fixtures_for(self, mod: Module, cls: ClassRef | None = None) -> dict[str, FixtureRef]:
        """Fixtures visible from ``mod`` (and class): conftests above it (nearest wins), the
        module, the class and its bases."""
        out: dict[str, FixtureRef] = {}
        here = Path(mod.rel).parent
        for folder in sorted(self.conftests, key=lambda p: len(p.parts)):
            if folder == Path(".") or here == folder or folder in here.parents:
                conf = self.conftests[folder]
                for name, fx in conf.fixtures.items():
                    out[name] = FixtureRef(fx, conf, None)
        for name, fx in mod.fixtures.items():
            out[name] = FixtureRef(fx, mod, None)
        for node, cmod in reversed(self.chain(cls) if cls else []):
            for item in node.body:
                if isinstance(item, Fn) and is_fixture(item)[0]:
                    out[item.name] = FixtureRef(item, cmod, cls)
        return out

    def fixture_env(self, fx: FixtureRef) -> Env:
        visible = self.fixtures_for(fx.mod, fx.cls)
        if visible.get(fx.fn.name, fx).fn is fx.fn:  # a fixture requesting its own name
            visible.pop(fx.fn.name, None)
        return self.env(fx.mod, fx.cls, fx.fn, visible)

    def fixture_values(self, fx: FixtureRef) -> list[Val]:
        """What the fixture returns or yields."""
        key = id(fx.fn)
        if key in self._fixture_values:
            return self._fixture_values[key]
        self._fixture_values[key] = []  # cycle guard
        env = self.fixture_env(fx)
        vals = [Val(node.value, env, node.lineno) for node in own_nodes(fx.fn)
                if isinstance(node, ast.Return | ast.Yield) and node.value is not None]
        self._fixture_values[key] = vals
        return vals


class FixtureRef(NamedTuple):
    fn: Fn
    mod: Module
    cls: ClassRef | None


def _index(mod: Module) -> Module:
    for node in mod.tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    mod.constants[target.id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                node.value is not None:
            mod.constants[node.target.id] = node.value
        elif isinstance(node, Fn):
            fixture, autouse = is_fixture(node)
            if fixture:
                if not autouse:
                    mod.fixtures[node.name] = node
            else:
                mod.functions[node.name] = node
        elif isinstance(node, ast.ClassDef):
            mod.classes[node.name] = node
    for node in _top_level(mod.tree.body):  # also inside try:/if: blocks
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                mod.imports[local] = (alias.name if alias.asname else local, "", 0)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name != "*":
                    mod.imports[alias.asname or alias.name] = \
                        (node.module or "", alias.name, node.level)
    return mod


def _top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, through ``if``/``try``/``with`` blocks."""
    for node in body:
        yield node
        if isinstance(node, ast.If | ast.Try | ast.With):
            for name in ("body", "orelse", "finalbody"):
                yield from _top_level(getattr(node, name, []))
            for handler in getattr(node, "handlers", []):
                yield from _top_level(handler.body)


def own_nodes(fn: ast.AST) -> Iterator[ast.AST]:
    """Nodes of a function body, not descending into nested functions, classes or lambdas."""
    todo = list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, Fn | ast.ClassDef | ast.Lambda):
            todo.extend(ast.iter_child_nodes(node))


# ----------------------------------------------------------------------------- environments


_UNKNOWN: list[Val] = []


class Env:
    """Names visible at a line of a function (or class body, or module): its parameters
    (fixtures, bound call arguments, parametrize values, defaults) and assignments — the last
    one before the line wins — then module-level names."""

    def __init__(self, suite: Suite, mod: Module, cls: ClassRef | None,
                 fixtures: dict[str, FixtureRef] | None = None) -> None:
        self.suite, self.mod, self.cls = suite, mod, cls
        self.fixtures = fixtures or {}
        self.fn: ast.AST | None = None
        self._local: dict[str, list[tuple[int, list[Val]]]] = {}
        self._pending: tuple[ast.AST | None, dict[str, list[Val]] | None] | None = None

    def defer(self, fn: ast.AST | None, bound: dict[str, list[Val]] | None = None) -> Env:
        """Build on first use (most test functions never need their names read)."""
        self.fn = fn
        self._pending = (fn, bound)
        return self

    @property
    def local(self) -> dict[str, list[tuple[int, list[Val]]]]:
        """Name -> [(line, values)], sorted by line."""
        if self._pending is not None:
            fn, bound = self._pending
            self._pending = None  # lookups made during the build see a partial env
            self.build(fn, bound)
        return self._local

    def build(self, fn: ast.AST | None, bound: dict[str, list[Val]] | None = None) -> Env:
        """Read the bindings of ``fn`` (a function or class body); loops last, so that their
        iterables can use the other bindings."""
        nodes: list[ast.AST] = []
        if isinstance(fn, ast.ClassDef):
            nodes = list(fn.body)
        elif isinstance(fn, Fn):
            self._params(fn, bound or {})
            nodes = [n for n in ast.walk(fn) if n is not fn]
        loops = [n for n in nodes if isinstance(n, ast.For | ast.AsyncFor | ast.comprehension)]
        for node in nodes:
            if not isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
                self._assign(node)
        self._sort()
        for node in loops:
            self._assign(node)
        self._sort()
        return self

    def _sort(self) -> None:
        for values in self._local.values():
            values.sort(key=lambda v: v[0])

    def _bind(self, name: str, line: int, vals: list[Val]) -> None:
        self._local.setdefault(name, []).append((line, vals))

    def _params(self, fn: Fn, bound: dict[str, list[Val]]) -> None:
        a = fn.args
        module_env = self.suite.module_env(self.mod)
        positional = [*a.posonlyargs, *a.args]
        defaults = dict(zip([p.arg for p in positional[len(positional) - len(a.defaults):]],
                            a.defaults, strict=True))
        defaults |= {p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)
                     if d is not None}
        params = _parametrize(fn, self)
        for arg in (*positional, *a.kwonlyargs, a.vararg, a.kwarg):
            if arg is None:
                continue
            name = arg.arg
            if name in bound:
                self._bind(name, 0, bound[name])
            elif name in params:
                self._bind(name, 0, params[name])
            elif name in self.fixtures:
                self._bind(name, 0, self.suite.fixture_values(self.fixtures[name]))
            elif name in defaults:
                self._bind(name, 0, [Val(defaults[name], module_env, 1 << 30)])
            else:
                self._bind(name, 0, _UNKNOWN)

    def _assign(self, node: ast.AST) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                self._target(target, node.value, node.lineno)
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            self._target(node.target, node.value, node.lineno)
        elif isinstance(node, ast.AugAssign):
            key = _target_key(node.target)
            if key:
                value: ast.expr | None = None
                if isinstance(node.op, ast.Add):  # url += "/x": the previous value, then "/x"
                    value = ast.BinOp(node.target, ast.Add(), node.value)
                    ast.copy_location(value, node)
                self._bind(key, node.lineno, [Val(value, self, node.lineno)] if value else [])
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            line = getattr(node, "lineno", 0) or getattr(node.iter, "lineno", 0)
            items = elements(node.iter, self, line)
            self._unpack(node.target, items, line)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None:
                    self._target(item.optional_vars, item.context_expr, node.lineno)
        elif isinstance(node, Fn | ast.Lambda) and node.args is not None:
            for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs):
                self._bind(arg.arg, node.lineno, _UNKNOWN)

    def _target(self, target: ast.AST, value: ast.expr, line: int) -> None:
        key = _target_key(target)
        if key:
            self._bind(key, line, [Val(value, self, line)])
        elif isinstance(target, ast.Tuple | ast.List):
            if isinstance(value, ast.Tuple | ast.List) and len(value.elts) == len(target.elts):
                for sub, val in zip(target.elts, value.elts, strict=True):
                    self._target(sub, val, line)
            else:
                for name in _names(target):
                    self._bind(name, line, _UNKNOWN)

    def _unpack(self, target: ast.AST, items: list[Val] | None, line: int) -> None:
        """Bind a loop target to each of ``items`` (unknown when the items are unknown)."""
        key = _target_key(target)
        if key:
            self._bind(key, line, items or _UNKNOWN)
            return
        if not isinstance(target, ast.Tuple | ast.List):
            return
        per: list[list[Val]] = [[] for _ in target.elts]
        for item in items or ():
            expr = item.expr
            if isinstance(expr, ast.Tuple | ast.List) and len(expr.elts) == len(target.elts):
                for i, elt in enumerate(expr.elts):
                    per[i].append(Val(elt, item.env, item.line))
        for sub, vals in zip(target.elts, per, strict=True):
            self._unpack(sub, vals, line)

    def resolve(self, name: str, line: int) -> list[Val] | None:
        """What ``name`` (or ``self.attr``) may be bound to at ``line``; None when it is not
        bound statically anywhere (an unknown parameter gives ``[]``)."""
        values = self.local.get(name)
        if values is not None:
            before = [v for ln, v in values if ln < line]
            if before:
                return before[-1]
            if not name.startswith("self."):
                return None
        if name.startswith("self."):
            return self.suite.self_attr(self.cls, name[5:], self.fn) if self.cls else None
        return self.suite.global_value(self.mod, name)


def _target_key(target: ast.AST) -> str:
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
            target.value.id in ("self", "cls"):
        return f"self.{target.attr}"
    return ""


def _names(target: ast.AST | None) -> Iterator[str]:
    if target is None:
        return
    for sub in ast.walk(target):
        if isinstance(sub, ast.Name):
            yield sub.id


def _parametrize(fn: Fn, env: Env) -> dict[str, list[Val]]:
    """Argument name -> values of every ``@pytest.mark.parametrize`` on the function."""
    out: dict[str, list[Val]] = {}
    for dec in fn.decorator_list:
        if not (isinstance(dec, ast.Call) and _last_name(dec.func) == "parametrize" and
                len(dec.args) >= 2):
            continue
        names_node, values_node = dec.args[0], dec.args[1]
        if isinstance(names_node, ast.Constant) and isinstance(names_node.value, str):
            names = [n.strip() for n in names_node.value.split(",") if n.strip()]
        elif isinstance(names_node, ast.Tuple | ast.List):
            names = [e.value for e in names_node.elts
                     if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        else:
            continue
        module_env = env.suite.module_env(env.mod)
        items = elements(values_node, module_env, 1 << 30) or []
        per: dict[str, list[Val]] = {n: [] for n in names}
        for item in items:
            expr = item.expr
            if isinstance(expr, ast.Call) and _last_name(expr.func) == "param":
                expr = ast.Tuple(list(expr.args), ast.Load()) if len(names) > 1 else \
                    (expr.args[0] if expr.args else expr)
            if len(names) == 1:
                per[names[0]].append(Val(expr, item.env, item.line))
            elif isinstance(expr, ast.Tuple | ast.List) and len(expr.elts) == len(names):
                for n, elt in zip(names, expr.elts, strict=True):
                    per[n].append(Val(elt, item.env, item.line))
        out.update(per)
    return out


def elements(node: ast.expr, env: Env, line: int, depth: int = 0) -> list[Val] | None:
    """The items of a literal list/tuple/set (through names bound to one), else None."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [Val(e, env, line) for e in node.elts[:_MAX_ITEMS]
                if not isinstance(e, ast.Starred)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("items", "keys", "values") and not node.args:
        dicts = values_of(node.func.value, env, line, depth + 1)
        out = []
        for val in dicts:
            if isinstance(val.expr, ast.Dict):
                for k, v in zip(val.expr.keys, val.expr.values, strict=True):
                    if k is None:
                        continue
                    item = {"keys": k, "values": v}.get(node.func.attr) or \
                        ast.Tuple([k, v], ast.Load())
                    out.append(Val(item, val.env, val.line))
        return out or None
    out2: list[Val] = []
    for val in values_of(node, env, line, depth + 1):
        if val.expr is not node:
            out2 += elements(val.expr, val.env, val.line, depth + 1) or []
    return out2 or None


def values_of(node: ast.expr, env: Env, line: int, depth: int) -> list[Val]:
    """The expressions a name or ``self.attr`` is bound to (itself for anything else)."""
    if depth > MAX_DEPTH:
        return []
    key = _target_key(node) if isinstance(node, ast.Name | ast.Attribute) else ""
    if key:
        found = env.resolve(key, line)
        if found is None and isinstance(node, ast.Attribute):
            found = _attribute(node, env)
        out = []
        for val in found or ():
            out += values_of(val.expr, val.env, val.line, depth + 1)
        return out[:MAX_CANDIDATES]
    if isinstance(node, ast.Attribute) and (found := _attribute(node, env)) is not None:
        out = []
        for val in found:
            out += values_of(val.expr, val.env, val.line, depth + 1)
        return out
    return [Val(node, env, line)]


def _attribute(node: ast.Attribute, env: Env) -> list[Val] | None:
    """``Class.X`` or ``module.X`` of the suite."""
    if not isinstance(node.value, ast.Name):
        return None
    owner = node.value.id
    if owner in ("self", "cls"):
        return env.suite.self_attr(env.cls, node.attr, env.fn) if env.cls else None
    cls = env.suite.class_named(env.mod, owner)
    if cls is not None:
        return env.suite.class_attr(cls, node.attr)
    found = env.suite.imported(env.mod, owner)
    if found is not None and not found[1]:
        return env.suite.global_value(found[0], node.attr)
    return None


def callee(func: ast.expr, env: Env) -> tuple[Fn, Module, ClassRef | None, bool] | None:
    """The suite's function a call goes to: (function, its module, class for ``self``,
    whether the first parameter is bound by the call, as for ``self.m()``)."""
    suite = env.suite
    if isinstance(func, ast.Name):
        found = suite.function(env.mod, func.id)
        return (found[0], found[1], None, False) if found else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        owner = func.value.id
        if owner in ("self", "cls") and env.cls is not None:
            found = suite.method(env.cls, func.attr)
            if found is not None and not is_fixture(found[0])[0]:
                static = any(_last_name(d) == "staticmethod" for d in found[0].decorator_list)
                return found[0], found[1], env.cls, not static
            return None
        cls = suite.class_named(env.mod, owner)
        if cls is not None and (found := suite.method(cls, func.attr)) is not None:
            bound = any(_last_name(d) == "classmethod" for d in found[0].decorator_list)
            return found[0], found[1], cls, bound
        imported = suite.imported(env.mod, owner)
        if imported is not None and not imported[1] and \
                (found := suite.function(imported[0], func.attr)) is not None:
            return found[0], found[1], None, False
    return None


def call_env(call: ast.Call, target: tuple[Fn, Module, ClassRef | None, bool], env: Env,
             line: int) -> Env:
    """The environment of ``target`` with the call's arguments bound to its parameters."""
    fn, mod, cls, skip_first = target
    a = fn.args
    names = [p.arg for p in (*a.posonlyargs, *a.args)][1 if skip_first else 0:]
    bound: dict[str, list[Val]] = {}
    for name, arg in zip(names, call.args, strict=False):
        if not isinstance(arg, ast.Starred):
            bound[name] = [Val(arg, env, line)]
    for kw in call.keywords:
        if kw.arg:
            bound[kw.arg] = [Val(kw.value, env, line)]
    cls_for_self = env.cls if skip_first and cls is not None and env.cls else cls
    return Env(env.suite, mod, cls_for_self, env.suite.fixtures_for(mod, cls_for_self)) \
        .defer(fn, bound)


# ------------------------------------------------------------------------------ templates


def templates(node: ast.AST | None, env: Env, line: int, depth: int = 0) -> list[str]:
    """The URL templates ``node`` may evaluate to (``[DYN]`` when nothing is known)."""
    if node is None or depth > MAX_DEPTH:
        return [DYN]
    sub = depth + 1
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, str):
            return [value]
        return [str(value)] if isinstance(value, int) and not isinstance(value, bool) else [DYN]
    if isinstance(node, ast.JoinedStr):
        parts: list[list[str]] = []
        for piece in node.values:
            if isinstance(piece, ast.Constant) and isinstance(piece.value, str):
                parts.append([piece.value])
            elif isinstance(piece, ast.FormattedValue):
                parts.append(templates(piece.value, env, line, sub))
            else:
                parts.append([DYN])
        return _join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _join([templates(node.left, env, line, sub), templates(node.right, env, line, sub)])
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _percent(node, env, line, sub)
    if isinstance(node, ast.Call):
        return _call(node, env, line, sub)
    if isinstance(node, ast.Name | ast.Attribute):
        vals = values_of(node, env, line, sub)
        if len(vals) == 1 and vals[0].expr is node:
            return [DYN]
        return _union(templates(v.expr, v.env, v.line, sub) for v in vals)
    if isinstance(node, ast.Subscript):
        return _subscript(node, env, line, sub)
    if isinstance(node, ast.IfExp):
        return _union([templates(node.body, env, line, sub),
                       templates(node.orelse, env, line, sub)])
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return _union(templates(v, env, line, sub) for v in node.values)
    if isinstance(node, ast.Await):
        return templates(node.value, env, line, sub)
    return [DYN]


def _join(parts: list[list[str]]) -> list[str]:
    out: list[str] = []
    for combo in product(*parts):
        text = "".join(combo)
        if text not in out:
            out.append(text)
        if len(out) >= MAX_CANDIDATES:
            break
    return out


def _union(groups: Iterable[list[str]]) -> list[str]:
    """Distinct templates of several alternatives; a wholly unknown one is dropped when
    another alternative is known (``os.getenv("X") or "http://..."``)."""
    out: list[str] = []
    for group in groups:
        for text in group:
            if text not in out and len(out) < MAX_CANDIDATES:
                out.append(text)
    known = [t for t in out if t != DYN]
    return known or [DYN]


_PERCENT = re.compile(r"%(?:\(([^)]*)\))?[-#0 +]*\d*(?:\.\d+)?([sdifrx%])")


def _percent(node: ast.BinOp, env: Env, line: int, depth: int) -> list[str]:
    right = node.right
    args = right.elts if isinstance(right, ast.Tuple) else [right]
    out: list[str] = []
    for left in templates(node.left, env, line, depth):
        parts: list[list[str]] = []
        pos, i = 0, 0
        for m in _PERCENT.finditer(left):
            parts.append([left[pos:m.start()]])
            pos = m.end()
            if m.group(2) == "%":
                parts.append(["%"])
            elif m.group(1) is None and i < len(args):
                parts.append(templates(args[i], env, line, depth))
                i += 1
            else:
                parts.append([DYN])
        parts.append([left[pos:]])
        out += _join(parts)
    return _union([out])


def _format(base: str, call: ast.Call, env: Env, line: int, depth: int) -> list[str]:
    kwargs = {k.arg: k.value for k in call.keywords if k.arg}
    parts: list[list[str]] = []
    auto = 0
    try:
        parsed = list(string.Formatter().parse(base))
    except ValueError:
        return [re.sub(r"\{[^{}]*\}", DYN, base)]
    for literal, name, _spec, _conv in parsed:
        parts.append([literal])
        if name is None:
            continue
        arg: ast.expr | None = None
        if name == "":
            arg = call.args[auto] if auto < len(call.args) else None
            auto += 1
        elif name.isdigit():
            arg = call.args[int(name)] if int(name) < len(call.args) else None
        else:
            arg = kwargs.get(name)
        parts.append(templates(arg, env, line, depth) if arg is not None else [DYN])
    return _join(parts)


_STRIPS = ("rstrip", "lstrip", "strip", "removesuffix", "removeprefix")


def _call(node: ast.Call, env: Env, line: int, depth: int) -> list[str]:
    func = node.func
    args = node.args
    const_args = [a.value for a in args if isinstance(a, ast.Constant) and
                  isinstance(a.value, str)]
    if isinstance(func, ast.Attribute):
        name = func.attr
        if name == "format":
            return _union(_format(b, node, env, line, depth)
                          for b in templates(func.value, env, line, depth))
        if name in _STRIPS and len(const_args) == len(args) <= 1:
            return [getattr(t, name)(*const_args) for t in templates(func.value, env, line, depth)]
        if name == "replace" and len(const_args) == len(args) == 2:
            return [t.replace(const_args[0], const_args[1])
                    for t in templates(func.value, env, line, depth)]
        if name in ("get", "getenv") and _is_environ(func.value) or \
                name == "getenv" and _last_name(func.value) == "os":
            default = args[1] if len(args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "default"), None)
            return templates(default, env, line, depth) if default is not None else [DYN]
        if name == "join" and isinstance(func.value, ast.Constant) and \
                isinstance(func.value.value, str) and len(args) == 1:
            items = elements(args[0], env, line, depth)
            if items is None:
                return [DYN]
            parts: list[list[str]] = []
            for i, item in enumerate(items):
                if i:
                    parts.append([func.value.value])
                parts.append(templates(item.expr, item.env, item.line, depth))
            return _join(parts)
        if name == "join" and _last_name(func.value) in ("path", "posixpath") and args:
            return _join_paths([templates(a, env, line, depth) for a in args])
    fname = _last_name(func)
    if fname == "urljoin" and len(args) >= 2:
        return _urljoin(templates(args[0], env, line, depth), templates(args[1], env, line, depth))
    if fname == "getenv" and isinstance(func, ast.Name):
        return templates(args[1], env, line, depth) if len(args) > 1 else [DYN]
    if fname == "str" and isinstance(func, ast.Name) and len(args) == 1:
        return templates(args[0], env, line, depth)
    target = callee(func, env)
    if target is not None:
        inner = call_env(node, target, env, line)
        returns = [n for n in own_nodes(target[0]) if isinstance(n, ast.Return) and n.value]
        return _union(templates(r.value, inner, r.lineno, depth) for r in returns) \
            if returns else [DYN]
    return [DYN]


def _is_environ(node: ast.expr) -> bool:
    return _last_name(node) == "environ"


def _join_paths(parts: list[list[str]]) -> list[str]:
    out: list[str] = []
    for combo in product(*parts):
        text = combo[0]
        for piece in combo[1:]:
            text = piece if piece.startswith("/") else text.rstrip("/") + "/" + piece
        if text not in out:
            out.append(text)
        if len(out) >= MAX_CANDIDATES:
            break
    return out


def _urljoin(bases: list[str], paths: list[str]) -> list[str]:
    """``urllib.parse.urljoin`` on templates; an unknown base keeps the path after it."""
    out = []
    for base, path in product(bases, paths):
        if base.startswith(DYN) and "://" not in base:
            out.append(DYN + ("" if path.startswith("/") else "/") + path)
            continue
        joined = urljoin(base.replace(DYN, _DYN_MARK), path.replace(DYN, _DYN_MARK))
        out.append(joined.replace(_DYN_MARK, DYN))
    return _union([out])


def _subscript(node: ast.Subscript, env: Env, line: int, depth: int) -> list[str]:
    key = node.slice
    if not (isinstance(key, ast.Constant) and isinstance(key.value, str | int)):
        return [DYN]
    out = []
    for val in values_of(node.value, env, line, depth):
        expr = val.expr
        if isinstance(expr, ast.Dict):
            for k, v in zip(expr.keys, expr.values, strict=True):
                if isinstance(k, ast.Constant) and k.value == key.value:
                    out.append(templates(v, val.env, val.line, depth))
        elif isinstance(expr, ast.List | ast.Tuple) and isinstance(key.value, int) and \
                -len(expr.elts) <= key.value < len(expr.elts):
            out.append(templates(expr.elts[key.value], val.env, val.line, depth))
    return _union(out) if out else [DYN]
