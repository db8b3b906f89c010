"""Static data flow inside a golden test suite: where a checked value came from.

:class:`Suite` indexes the suite's files (module constants, functions, fixtures, class
attributes). :meth:`Suite.trace` follows a checked expression (``data["data"]["id"]``) back
through simple local assignments, fixtures and helper returns to the response it reads and the
request call that produced it; :meth:`Suite.request_fact` turns a ``requests``/``httpx``/
test-client call into a :class:`RequestFact` with its URL path resolved as far as it is static.
Pure: parses the texts it is given, runs nothing.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from inspector.model.failures.facts import RequestFact

MAX_FILE_CHARS = 400_000  # larger files are not parsed
MAX_DEPTH = 12  # hops through assignments, fixtures and helpers
HTTP_METHODS = ("get", "post", "put", "patch", "delete", "head", "options")
_CLIENTISH = re.compile(r"(?i)requests|httpx|client|session|http|api|^s$|^c$|^app$|browser|sess")
_URLISH_NAME = re.compile(r"(?i)url|endpoint|base|host|api|uri|server|route|path")
_STR_METHODS = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "casefold", "title",
                          "capitalize", "decode", "encode", "split", "splitlines"})
_SETUP_NAMES = frozenset({"setup", "setup_method", "setup_class", "setup_module", "setup_function",
                          "setUp", "setUpClass", "teardown", "teardown_method", "tearDown",
                          "asyncSetUp"})
_SCHEME_HOST = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://[^/?#]*")
UNKNOWN_PART = "\0"  # an unresolved piece of a URL
Func = ast.FunctionDef | ast.AsyncFunctionDef

# Trace states: what the traced value is.
RESPONSE = "response"  # the response object itself
JSON = "json"  # a value inside the response's JSON body (``path`` says where)
STATUS = "status"  # the status code
OK = "ok"  # ``response.ok``
HEADERS = "headers"  # the headers mapping
HEADER = "header"  # one header's value (``header`` names it)
TEXT = "text"  # the body as text / bytes


@dataclass(frozen=True, slots=True)
class SuiteFile:
    """One parsed suite file."""

    path: str
    tree: ast.Module
    text: str


@dataclass(frozen=True, slots=True)
class Scope:
    """Where an expression is evaluated: file, function (None: module level), class, and the
    line before which assignments count."""

    file: SuiteFile
    func: Func | None = None
    cls: ast.ClassDef | None = None
    line: int = 1 << 30


@dataclass(frozen=True, slots=True)
class Trace:
    """What a traced expression is, as far as it could be followed."""

    state: str | None = None  # one of the states above; None: not (known to be) response data
    path: tuple[str | int, ...] = ()  # JSON path below the body ("*" for an unknown key)
    header: str | None = None
    wrap: str | None = None  # "len" / "type" / "str" when a function or method wraps the value
    call: ast.Call | None = None  # the request call the value came from
    call_scope: Scope | None = None


@dataclass(slots=True)
class _Budget:
    steps: int = 4000

    def spend(self) -> bool:
        self.steps -= 1
        return self.steps >= 0


def json_path(parts: tuple[str | int, ...]) -> str | None:
    """``("data", "items", 0, "id")`` → ``"data.items[0].id"`` (``[*]``: any item or unknown
    key); None for the body itself."""
    out = ""
    for p in parts:
        if isinstance(p, int) or p == "*":
            out += f"[{p}]"
        else:
            out += f".{p}" if out else str(p)
    return out or None


def one_line(text: str, limit: int = 200) -> str:
    """Whitespace collapsed to single spaces, clipped to ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def dotted(node: ast.AST) -> str | None:
    """``self.client.post`` for a Name/Attribute chain, else None."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        names.append(node.id)
        return ".".join(reversed(names))
    return None


def const_key(node: ast.AST) -> Any:
    """The constant of a subscript's slice, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int):
        return node.value
    return None


def is_fixture(func: Func) -> bool:
    """A function decorated with ``pytest.fixture`` (with or without arguments)."""
    for dec in func.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = dotted(target) or ""
        if name.split(".")[-1] in ("fixture", "yield_fixture"):
            return True
    return False


def fixture_name(func: Func) -> str:
    """The fixture's name: ``@pytest.fixture(name="x")`` or the function's."""
    for dec in func.decorator_list:
        if isinstance(dec, ast.Call):
            for kw in dec.keywords:
                if kw.arg == "name" and isinstance(kw.value, ast.Constant) \
                        and isinstance(kw.value.value, str):
                    return kw.value.value
    return func.name


def is_setup(func: Func) -> bool:
    return is_fixture(func) or func.name in _SETUP_NAMES


def walk_local(root: ast.AST) -> Iterator[ast.AST]:
    """Nodes under ``root`` without descending into nested functions, classes or lambdas."""
    stack = list(ast.iter_child_nodes(root))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))


class Suite:
    """The parsed files of a golden suite, keyed by suite-relative path."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.files: dict[str, SuiteFile] = {}
        for path, text in files.items():
            if not isinstance(text, str) or len(text) > MAX_FILE_CHARS:
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            self.files[path] = SuiteFile(path, tree, text)
        self._calls: dict[int, tuple[ast.Call, Scope]] = {}  # id(function) → its call site

    # ------------------------------------------------------------------ finding things

    def file(self, path: str | None) -> SuiteFile | None:
        """The file printed as ``path`` (exact, or one path ending with the other)."""
        if not path:
            return None
        path = path.replace("\\", "/")
        if path in self.files:
            return self.files[path]
        for key, f in self.files.items():
            if path.endswith("/" + key) or key.endswith("/" + path.lstrip("./")):
                return f
        return None

    def scope_at(self, f: SuiteFile, line: int) -> Scope:
        """The innermost function (and its class) around ``line``."""
        func: Func | None = None
        cls: ast.ClassDef | None = None
        for node in statements_around(f.tree, line):
            if isinstance(node, ast.ClassDef):
                cls = node
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                func = node
        return Scope(f, func, cls, line)

    def function_named(self, f: SuiteFile, names: tuple[str, ...]) -> Scope | None:
        """The function ``names[-1]`` inside classes ``names[:-1]`` of ``f``."""
        body: list[ast.stmt] = f.tree.body
        cls: ast.ClassDef | None = None
        for name in names[:-1]:
            cls = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == name), None)
            if cls is None:
                return None
            body = cls.body
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == names[-1]:
                return Scope(f, node, cls, (node.end_lineno or node.lineno) + 1)
        return None

    def _ordered(self, prefer: SuiteFile) -> list[SuiteFile]:
        rest = sorted((f for f in self.files.values() if f is not prefer),
                      key=lambda f: (not f.path.endswith("conftest.py"), f.path))
        return [prefer, *rest]

    def fixture(self, name: str, near: Scope) -> Scope | None:
        """The fixture called ``name`` visible from ``near`` (its class, its file, conftests)."""
        if near.cls is not None:
            for node in near.cls.body:
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                        and is_fixture(node) and fixture_name(node) == name:
                    return Scope(near.file, node, near.cls, (node.end_lineno or node.lineno) + 1)
        for f in self._ordered(near.file):
            for sub in ast.walk(f.tree):
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef) \
                        and is_fixture(sub) and fixture_name(sub) == name:
                    s = self.scope_at(f, sub.lineno)
                    return Scope(f, sub, s.cls, (sub.end_lineno or sub.lineno) + 1)
        return None

    def helper(self, name: str, near: Scope) -> Scope | None:
        """A plain module-level function (or a method of ``near``'s class for ``self.x``)."""
        files = [near.file, *[self.files[k] for k in self._imported_files(near.file)]]
        for f in files:
            for node in f.tree.body:
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                        and node.name == name and not is_fixture(node):
                    return Scope(f, node, None, (node.end_lineno or node.lineno) + 1)
        return None

    def method(self, name: str, near: Scope) -> Scope | None:
        if near.cls is None:
            return None
        for node in near.cls.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
                return Scope(near.file, node, near.cls, (node.end_lineno or node.lineno) + 1)
        return None

    def _imported_files(self, f: SuiteFile) -> list[str]:
        out = []
        for node in f.tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                stem = node.module.split(".")[-1]
                out += [k for k in self.files if k.rsplit("/", 1)[-1] == stem + ".py"]
        return out

    # ------------------------------------------------------------------ bindings

    def link_call(self, caller: Scope, callee: Scope, stmt: ast.AST) -> None:
        """Remember that ``callee`` was called from ``stmt`` in ``caller`` (two adjacent
        traceback frames), so that its parameters can be traced to the arguments."""
        if callee.func is None:
            return
        for node in preorder(stmt):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else (
                    node.func.id if isinstance(node.func, ast.Name) else None)
                if name == callee.func.name:
                    self._calls[id(callee.func)] = (node, caller)
                    return

    def param_value(self, name: str, scope: Scope) -> tuple[ast.expr, Scope] | None:
        """What parameter ``name`` of the function of ``scope`` received: the argument at the
        known call site, else the value of the fixture of that name."""
        func = scope.func
        site = self._calls.get(id(func)) if func is not None else None
        if site is not None and func is not None:
            call, caller = site
            for kw in call.keywords:
                if kw.arg == name:
                    return kw.value, caller
            params = [a.arg for a in [*func.args.posonlyargs, *func.args.args]]
            if params and params[0] in ("self", "cls") and isinstance(call.func, ast.Attribute):
                params = params[1:]
            if name in params and params.index(name) < len(call.args):
                arg = call.args[params.index(name)]
                return None if isinstance(arg, ast.Starred) else (arg, caller)
        fx = self.fixture(name, scope)
        return self.returned(fx) if fx is not None else None

    def binding(self, name: str, scope: Scope) -> tuple[ast.expr, Scope] | str | None:
        """What ``name`` was last bound to before ``scope.line``: ``(expr, scope_of_expr)``,
        ``"param"`` for a parameter of the function, or None."""
        if scope.func is not None:
            best: tuple[int, ast.expr] | None = None
            for node in walk_local(scope.func):
                if not isinstance(node, ast.stmt | ast.expr):
                    continue
                value = _bound_value(node, name)
                if value is not None and node.lineno < scope.line \
                        and (best is None or node.lineno >= best[0]):
                    best = (node.lineno, value)
            if best is not None:
                return best[1], replace(scope, line=best[0])
            args = scope.func.args
            if any(a.arg == name for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]):
                return "param"
        return self.module_binding(name, scope.file)

    def module_binding(self, name: str, f: SuiteFile,
                       seen: int = 0) -> tuple[ast.expr, Scope] | None:
        value: ast.expr | None = None
        for node in f.tree.body:
            v = _bound_value(node, name)
            if v is not None:
                value = v
        if value is not None:
            return value, Scope(f)
        if seen > 3:
            return None
        for node in f.tree.body:
            if isinstance(node, ast.ImportFrom) and any(
                    (a.asname or a.name) == name for a in node.names) and node.module:
                stem = node.module.split(".")[-1]
                for key, other in self.files.items():
                    if key.rsplit("/", 1)[-1] == stem + ".py" and other is not f:
                        found = self.module_binding(name, other, seen + 1)
                        if found:
                            return found
        return None

    def attribute_binding(self, attr: str, scope: Scope) -> tuple[ast.expr, Scope] | None:
        """``self.attr`` / ``cls.attr``: a class attribute, else its assignment in a method
        (setup methods first)."""
        cls = scope.cls
        if cls is None:
            return None
        for node in cls.body:
            v = _bound_value(node, attr)
            if v is not None:
                return v, Scope(scope.file, None, cls)
        methods = [n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        methods.sort(key=lambda m: not is_setup(m))
        if scope.func is not None and scope.func in methods:
            methods.remove(scope.func)
            methods.insert(0, scope.func)
        for m in methods:
            for sub in walk_local(m):
                if isinstance(sub, ast.Assign) and any(
                        isinstance(t, ast.Attribute) and t.attr == attr
                        and isinstance(t.value, ast.Name) and t.value.id in ("self", "cls")
                        for t in sub.targets):
                    if m is scope.func and sub.lineno >= scope.line:
                        continue
                    return sub.value, Scope(scope.file, m, cls, sub.lineno)
        return None

    def returned(self, scope: Scope) -> tuple[ast.expr, Scope] | None:
        """The last ``return``/``yield`` value of the function of ``scope``."""
        if scope.func is None:
            return None
        best: ast.expr | None = None
        line = 0
        for node in walk_local(scope.func):
            if not isinstance(node, ast.stmt):
                continue
            value = None
            if isinstance(node, ast.Return) and node.value is not None:
                value = node.value
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Yield | ast.YieldFrom):
                value = node.value.value
            if value is not None and node.lineno >= line:
                best, line = value, node.lineno
        return (best, replace(scope, line=line)) if best is not None else None

    # ------------------------------------------------------------------ tracing

    def trace(self, node: ast.AST, scope: Scope, depth: int = 0,
              budget: _Budget | None = None) -> Trace:
        """Follow ``node`` back to response data (see :class:`Trace`)."""
        budget = budget or _Budget()
        if depth > MAX_DEPTH or not budget.spend():
            return Trace()
        t = self._trace(node, scope, depth, budget)
        return t

    def _trace(self, node: ast.AST, scope: Scope, depth: int, budget: _Budget) -> Trace:
        nxt = depth + 1
        if isinstance(node, ast.Await):
            return self.trace(node.value, scope, nxt, budget)
        if isinstance(node, ast.Call):
            if self.request_method(node, scope) is not None:
                return Trace(RESPONSE, call=node, call_scope=scope)
            func = node.func
            if isinstance(func, ast.Attribute):
                inner = self.trace(func.value, scope, nxt, budget)
                if func.attr == "json" and inner.state in (RESPONSE, None) and not node.args:
                    return replace(inner, state=JSON, path=())
                if func.attr == "get" and node.args:
                    key = const_key(node.args[0])
                    if inner.state == JSON:
                        return replace(inner, path=(*inner.path, key if key is not None else "*"))
                    if inner.state == HEADERS:
                        return replace(inner, state=HEADER, header=str(key) if key else None)
                if func.attr in _STR_METHODS and inner.state is not None:
                    return replace(inner, wrap="str")
                if func.attr in ("copy", "keys", "values", "items") and inner.state is not None:
                    return inner
                if isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
                    m = self.method(func.attr, scope)
                    if m is not None:
                        r = self.returned(m)
                        if r is not None:
                            return self.trace(r[0], r[1], nxt, budget)
                if dotted(func) in ("json.loads",) and node.args:
                    arg = self.trace(node.args[0], scope, nxt, budget)
                    if arg.state in (TEXT, RESPONSE):
                        return replace(arg, state=JSON, path=(), wrap=None)
                return Trace()
            if isinstance(func, ast.Name):
                if func.id in ("len", "type") and node.args:
                    inner = self.trace(node.args[0], scope, nxt, budget)
                    return replace(inner, wrap=func.id)
                if func.id in ("str", "int", "float", "bool", "list", "dict", "sorted", "set",
                               "tuple") and node.args:
                    return self.trace(node.args[0], scope, nxt, budget)
                h = self.helper(func.id, scope)
                if h is not None:
                    r = self.returned(h)
                    if r is not None:
                        return self.trace(r[0], r[1], nxt, budget)
            return Trace()
        if isinstance(node, ast.Subscript):
            inner = self.trace(node.value, scope, nxt, budget)
            key = const_key(node.slice)
            if inner.state == JSON:
                return replace(inner, path=(*inner.path, key if key is not None else "*"),
                               wrap=None)
            if inner.state == HEADERS:
                return replace(inner, state=HEADER, header=str(key) if key is not None else None)
            return Trace()
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                b = self.attribute_binding(node.attr, scope)
                return self.trace(b[0], b[1], nxt, budget) if b else Trace()
            inner = self.trace(node.value, scope, nxt, budget)
            if inner.state == RESPONSE:
                state = {"status_code": STATUS, "status": STATUS, "ok": OK, "headers": HEADERS,
                         "text": TEXT, "content": TEXT}.get(node.attr)
                return replace(inner, state=state) if state else Trace()
            if inner.state is None:  # an unresolved name: judge by the attribute alone
                state = {"status_code": STATUS, "headers": HEADERS}.get(node.attr)
                return Trace(state) if state else Trace()
            return Trace()
        if isinstance(node, ast.Name):
            bound = self.binding(node.id, scope)
            if bound == "param":
                bound = self.param_value(node.id, scope)
            if isinstance(bound, tuple):
                return self.trace(bound[0], bound[1], nxt, budget)
            return Trace()
        if isinstance(node, ast.NamedExpr):
            return self.trace(node.value, scope, nxt, budget)
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp) \
                and len(node.generators) == 1 and isinstance(node.generators[0].target, ast.Name):
            inner = self.trace(node.generators[0].iter, scope, nxt, budget)
            keys = _item_keys(node.elt, node.generators[0].target.id)
            if inner.state == JSON and keys is not None:
                return replace(inner, path=(*inner.path, "*", *keys))
            return replace(inner, state=None) if inner.call is not None else Trace()
        return Trace()

    def find_request(self, node: ast.AST, scope: Scope, depth: int = 0,
                     budget: _Budget | None = None) -> Trace:
        """The first sub-expression of ``node`` (itself first) that traces to a request, also
        through the values of the local names it uses."""
        budget = budget or _Budget()
        for sub in preorder(node):
            if budget.steps <= 0 or depth > 4:
                break
            if isinstance(sub, ast.Name | ast.Call | ast.Attribute | ast.Subscript):
                t = self.trace(sub, scope, 0, budget)
                if t.call is not None:
                    return t
            if isinstance(sub, ast.Name):
                b = self.binding(sub.id, scope)
                if isinstance(b, tuple) and b[1].func is not None:
                    t = self.find_request(b[0], b[1], depth + 1, budget)
                    if t.call is not None:
                        return t
        return Trace()

    def last_request_before(self, scope: Scope) -> Trace:
        """The most recent request call in the function of ``scope`` before its line."""
        if scope.func is None:
            return Trace()
        best: ast.Call | None = None
        for node in walk_local(scope.func):
            if isinstance(node, ast.Call) and node.lineno <= scope.line \
                    and self.request_method(node, scope) is not None \
                    and (best is None or node.lineno >= best.lineno):
                best = node
        return Trace(RESPONSE, call=best, call_scope=scope) if best is not None else Trace()

    # ------------------------------------------------------------------ requests

    def request_method(self, call: ast.Call, scope: Scope) -> str | None:
        """``POST`` for ``requests.post(url)``/``client.post("/x")``/``s.request("POST", u)``;
        None when ``call`` is not an HTTP request."""
        func = call.func
        if not isinstance(func, ast.Attribute):
            return None
        attr = func.attr.lower()
        receiver = dotted(func.value) or ""
        url = self._url_arg(call)
        if attr == "request":
            m = call.args[0] if call.args else _kwarg(call, "method")
            method = m.value if isinstance(m, ast.Constant) and isinstance(m.value, str) else None
            if method is None or method.lower() not in HTTP_METHODS:
                return None
        elif attr in HTTP_METHODS:
            method = attr
        else:
            return None
        last = receiver.split(".")[-1]
        if _CLIENTISH.search(last) and last.lower() not in ("headers", "environ", "os"):
            return method.upper()
        if url is not None and self._urlish(url, scope):
            return method.upper()
        return None

    @staticmethod
    def _url_arg(call: ast.Call) -> ast.expr | None:
        attr = call.func.attr.lower() if isinstance(call.func, ast.Attribute) else ""
        pos = 1 if attr == "request" else 0
        if len(call.args) > pos:
            return call.args[pos]
        return _kwarg(call, "url")

    def _urlish(self, node: ast.expr, scope: Scope) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str) and node.value.startswith(("/", "http://",
                                                                         "https://"))
        if isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            if isinstance(first, ast.Constant):
                return self._urlish(first, scope)
            if isinstance(first, ast.FormattedValue):
                name = dotted(first.value) or ""
                return bool(_URLISH_NAME.search(name))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self._urlish(node.left, scope)
        whole = dotted(node)
        return bool(whole and _URLISH_NAME.search(whole))

    def request_fact(self, call: ast.Call, scope: Scope) -> RequestFact:
        """The :class:`RequestFact` of a request ``call`` evaluated in ``scope``."""
        method = self.request_method(call, scope) or "GET"
        url = self._url_arg(call)
        path = url_path(self.url_parts(url, scope)) if url is not None else ""
        body = _kwarg(call, "json")
        keys = self.dict_keys(body, scope) if body is not None else ()
        try:
            source = ast.get_source_segment(scope.file.text, call) or ""
        except (IndexError, ValueError):
            source = ""
        return RequestFact(method=method, path=path, line=call.lineno, body_keys=keys,
                           source=one_line(source, 160),
                           file=scope.file.path)

    def url_parts(self, node: ast.AST, scope: Scope, depth: int = 0) -> list[str]:
        """The URL pieces of ``node``: text, or :data:`UNKNOWN_PART` where not static."""
        if depth > MAX_DEPTH:
            return [UNKNOWN_PART]
        nxt = depth + 1
        if isinstance(node, ast.Constant):
            return [node.value] if isinstance(node.value, str) else (
                [str(node.value)] if isinstance(node.value, int) else [UNKNOWN_PART])
        if isinstance(node, ast.JoinedStr):
            out: list[str] = []
            for v in node.values:
                if isinstance(v, ast.FormattedValue):
                    out += (self.url_parts(v.value, scope, nxt) if v.format_spec is None
                            else [UNKNOWN_PART])
                else:
                    out += self.url_parts(v, scope, nxt)
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.url_parts(node.left, scope, nxt) + self.url_parts(node.right, scope, nxt)
        if isinstance(node, ast.Name):
            b = self.binding(node.id, scope)
            if b == "param":
                b = self.param_value(node.id, scope)
            if isinstance(b, tuple):
                return self.url_parts(b[0], b[1], nxt)
            return [UNKNOWN_PART]
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("self", "cls"):
            b2 = self.attribute_binding(node.attr, scope)
            return self.url_parts(b2[0], b2[1], nxt) if b2 else [UNKNOWN_PART]
        if isinstance(node, ast.Call):
            return self._call_url_parts(node, scope, nxt)
        return [UNKNOWN_PART]

    def _call_url_parts(self, node: ast.Call, scope: Scope, depth: int) -> list[str]:
        name = dotted(node.func) or ""
        short = name.split(".")[-1]
        if name in ("os.getenv", "getenv", "os.environ.get", "environ.get") \
                or (short == "get" and name.endswith("environ.get")):
            default = node.args[1] if len(node.args) > 1 else _kwarg(node, "default")
            return self.url_parts(default, scope, depth) if default is not None \
                else [UNKNOWN_PART]
        if isinstance(node.func, ast.Attribute):
            receiver = node.func.value
            if short in ("rstrip", "strip", "lstrip"):
                return self.url_parts(receiver, scope, depth)
            if short == "replace" and len(node.args) == 2 and all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args):
                parts = self.url_parts(receiver, scope, depth)
                if UNKNOWN_PART not in parts:
                    old, new = (a.value for a in node.args)  # type: ignore[attr-defined]
                    return ["".join(parts).replace(old, new)]
                return parts
        if short in ("urljoin",) and len(node.args) == 2:
            return self.url_parts(node.args[0], scope, depth) + \
                self.url_parts(node.args[1], scope, depth)
        if short == "str" and node.args:
            return self.url_parts(node.args[0], scope, depth)
        if isinstance(node.func, ast.Name):
            h = self.helper(node.func.id, scope)
            r = self.returned(h) if h else None
            if r is not None:
                return self.url_parts(r[0], r[1], depth)
        return [UNKNOWN_PART]

    def dict_keys(self, node: ast.AST, scope: Scope, depth: int = 0) -> tuple[str, ...]:
        """Top-level string keys of a JSON body written as a literal (followed through simple
        names, ``.copy()``, ``dict(...)`` and later ``body["k"] = …`` assignments)."""
        if depth > MAX_DEPTH:
            return ()
        nxt = depth + 1
        if isinstance(node, ast.Dict):
            keys: list[str] = []
            for k, v in zip(node.keys, node.values, strict=False):
                if k is None:
                    keys += self.dict_keys(v, scope, nxt)
                elif isinstance(k, ast.Constant) and isinstance(k.value, str):
                    keys.append(k.value)
            return tuple(dict.fromkeys(keys))
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == "dict":
                keys = [kw.arg for kw in node.keywords if kw.arg]
                first = self.dict_keys(node.args[0], scope, nxt) if node.args else ()
                return tuple(dict.fromkeys([*first, *keys]))
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("copy", "deepcopy"):
                return self.dict_keys(node.func.value, scope, nxt)
            if dotted(node.func) in ("copy.copy", "copy.deepcopy", "deepcopy") and node.args:
                return self.dict_keys(node.args[0], scope, nxt)
            return ()
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("self", "cls"):
            b2 = self.attribute_binding(node.attr, scope)
            return self.dict_keys(b2[0], b2[1], nxt) if b2 else ()
        if isinstance(node, ast.Name):
            b = self.binding(node.id, scope)
            base: tuple[str, ...] = ()
            start = 0
            if b == "param":
                r = self.param_value(node.id, scope)
                base = self.dict_keys(r[0], r[1], nxt) if r else ()
            elif isinstance(b, tuple):
                base = self.dict_keys(b[0], b[1], nxt)
                start = b[1].line if b[1].func is scope.func else 0
            return tuple(dict.fromkeys([*base, *self._added_keys(node.id, scope, start)]))
        return ()

    def _added_keys(self, name: str, scope: Scope, after: int) -> list[str]:
        """Keys set by ``name["k"] = …`` / ``name.update(k=…)`` between ``after`` and the line."""
        if scope.func is None:
            return []
        found: list[tuple[int, str]] = []
        for node in walk_local(scope.func):
            if not after < getattr(node, "lineno", 0) < scope.line:
                continue
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) \
                            and t.value.id == name and isinstance(const_key(t.slice), str):
                        found.append((node.lineno, const_key(t.slice)))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "update" and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id == name:
                found += [(node.lineno, kw.arg) for kw in node.keywords if kw.arg]
                for a in node.args:
                    found += [(node.lineno, k) for k in self.dict_keys(a, scope, MAX_DEPTH)]
        return [k for _, k in sorted(found)]

    # ------------------------------------------------------------------ static values

    def static_value(self, node: ast.AST, scope: Scope, depth: int = 0) -> tuple[bool, Any]:
        """``(True, value)`` when ``node`` is a literal, or a name / ``self.x`` / subscript
        bound to one; ``(False, None)`` otherwise."""
        if depth > MAX_DEPTH:
            return False, None
        nxt = depth + 1
        try:
            return True, ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            pass
        if isinstance(node, ast.Name):
            b = self.binding(node.id, scope)
            if b == "param":
                b = self.param_value(node.id, scope)
            return self.static_value(b[0], b[1], nxt) if isinstance(b, tuple) else (False, None)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in ("self", "cls"):
            b2 = self.attribute_binding(node.attr, scope)
            return self.static_value(b2[0], b2[1], nxt) if b2 else (False, None)
        if isinstance(node, ast.Subscript):
            ok, container = self.static_value(node.value, scope, nxt)
            key_ok, key = self.static_value(node.slice, scope, nxt)
            if ok and key_ok:
                try:
                    return True, container[key]
                except (KeyError, IndexError, TypeError):
                    return False, None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "copy" and not node.args:
            return self.static_value(node.func.value, scope, nxt)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mult):
            lok, left = self.static_value(node.left, scope, nxt)
            rok, right = self.static_value(node.right, scope, nxt)
            if lok and rok:
                try:
                    if isinstance(node.op, ast.Mult) and isinstance(left, str | list) \
                            and isinstance(right, int) and len(left) * right > 100_000:
                        return False, None
                    return True, left + right if isinstance(node.op, ast.Add) else left * right
                except TypeError:
                    return False, None
        return False, None


def url_path(parts: list[str]) -> str:
    """The path of a URL given as pieces: scheme, host and port dropped, a leading unknown
    base dropped, query and fragment cut, unknown pieces shown as ``{}``."""
    text = "".join(parts)
    text = _SCHEME_HOST.sub("", text, count=1)
    if not text.startswith("/"):
        cut = text.find("/")
        text = text[cut:] if cut >= 0 else ("/" + text if text and UNKNOWN_PART not in text
                                            else "")
    text = re.split(r"[?#]", text, maxsplit=1)[0]
    text = re.sub(UNKNOWN_PART + "+", "{}", text)
    return text


def statements_around(tree: ast.Module, line: int) -> list[ast.stmt]:
    """The statements spanning ``line``, outermost first (a binary search per level)."""
    found: list[ast.stmt] = []
    body: list[ast.stmt] = tree.body
    while body and len(found) < 200:
        i = bisect.bisect_right(body, line, key=lambda n: n.lineno) - 1
        if i < 0 or not body[i].lineno <= line <= (body[i].end_lineno or body[i].lineno):
            break
        node = body[i]
        found.append(node)
        body = []
        for name in ("body", "orelse", "finalbody"):
            body += [c for c in getattr(node, name, []) if isinstance(c, ast.stmt)]
        for h in getattr(node, "handlers", []):
            body += h.body
        for case in getattr(node, "cases", []):
            body += case.body
        body.sort(key=lambda n: n.lineno)
    return found


def _item_keys(elt: ast.AST, target: str) -> tuple[str | int, ...] | None:
    """``n["id"]`` over items ``n`` → ``("id",)``; None when ``elt`` is not such a chain."""
    keys: list[str | int] = []
    while isinstance(elt, ast.Subscript) and const_key(elt.slice) is not None:
        keys.append(const_key(elt.slice))
        elt = elt.value
    return tuple(reversed(keys)) if isinstance(elt, ast.Name) and elt.id == target else None


def _kwarg(call: ast.Call, name: str) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _bound_value(node: ast.AST, name: str) -> ast.expr | None:
    """The value ``node`` binds to ``name`` (assignment, walrus, ``with … as name``)."""
    if isinstance(node, ast.Assign):
        for t in node.targets:
            if isinstance(t, ast.Name) and t.id == name:
                return node.value
            seq = ast.Tuple | ast.List
            if isinstance(t, seq) and isinstance(node.value, seq) \
                    and len(t.elts) == len(node.value.elts):  # a, b = x, y
                for target, value in zip(t.elts, node.value.elts, strict=True):
                    if isinstance(target, ast.Name) and target.id == name:
                        return value
    elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
          and node.target.id == name and node.value is not None) \
            or (isinstance(node, ast.NamedExpr) and node.target.id == name):
        return node.value
    elif isinstance(node, ast.For | ast.AsyncFor) and isinstance(node.target, ast.Name) \
            and node.target.id == name:
        return ast.Subscript(value=node.iter, slice=ast.Constant(value="*"), ctx=ast.Load())
    elif isinstance(node, ast.With | ast.AsyncWith):
        for item in node.items:
            if isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == name:
                return item.context_expr
    return None


def preorder(node: ast.AST) -> Iterator[ast.AST]:
    stack = [node]
    seen = 0
    while stack and seen < 2000:
        seen += 1
        cur = stack.pop()
        yield cur
        stack.extend(reversed(list(ast.iter_child_nodes(cur))))

