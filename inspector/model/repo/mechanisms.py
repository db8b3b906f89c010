"""Global mechanisms of a generated Python web service, read from its sources' syntax trees:
error handlers (what they catch, the statuses they answer with, whether HTTP errors keep
their own status), blueprints and routers (their routes, whether anything registers them) and
the app objects. Pure: it reads the texts it is given (repo-relative path -> source).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

FLASK = "flask"
FASTAPI = "fastapi"
DRF = "drf"
MIDDLEWARE = "middleware"

_FLASK_REGISTER = ("errorhandler", "app_errorhandler", "register_error_handler")
_FASTAPI_REGISTER = ("exception_handler", "add_exception_handler")
_ROUTE_METHODS = ("get", "post", "put", "patch", "delete", "head", "options")
_RESPONSES = ("JSONResponse", "Response", "ORJSONResponse", "PlainTextResponse",
              "HTMLResponse", "jsonify", "make_response")
_HTTP_CONST = re.compile(r"HTTP_(\d{3})")


@dataclass(frozen=True, slots=True)
class Handler:
    """An error handler registered on an app (or a middleware catching errors)."""

    file: str
    line: int  # the registering line (decorator, call, setting)
    framework: str  # FLASK / FASTAPI / DRF / MIDDLEWARE
    catches: str  # the exception class name or the status code it handles ("Exception", "400")
    statuses: tuple[int, ...]  # the literal statuses it answers with, in order
    fixed: bool  # every answer's status is a literal (none comes from the exception)
    passes_http: bool  # it lets HTTP errors keep their own status (checks / returns them)
    text: str = ""


@dataclass(frozen=True, slots=True)
class Route:
    method: str  # upper case; "" for any
    path: str
    line: int


@dataclass(frozen=True, slots=True)
class Router:
    """A Flask ``Blueprint`` or FastAPI ``APIRouter`` and its routes."""

    file: str
    line: int
    name: str  # the variable holding it
    kind: str  # "Blueprint" / "APIRouter"
    prefix: str
    routes: tuple[Route, ...]
    registered: bool


@dataclass(frozen=True, slots=True)
class AppObject:
    file: str
    line: int
    framework: str  # FLASK / FASTAPI
    name: str


@dataclass
class Mechanisms:
    """What :func:`read_mechanisms` found."""

    handlers: list[Handler] = field(default_factory=list)
    routers: list[Router] = field(default_factory=list)
    apps: list[AppObject] = field(default_factory=list)
    dynamic_registration: bool = False  # some registration could not be resolved
    status_literals: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    """Every literal status code 400-599 written outside the handlers (code -> file, line)."""

    def frameworks(self) -> set[str]:
        return {a.framework for a in self.apps}


def _name(node: ast.AST) -> str:
    """The last dotted component of a name or attribute (``""`` otherwise)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _status_of(node: ast.AST | None) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) \
            and not isinstance(node.value, bool) and 100 <= node.value <= 599:
        return node.value
    if isinstance(node, ast.Attribute):
        m = _HTTP_CONST.match(node.attr)
        return int(m.group(1)) if m else None
    return None


def _call_status(call: ast.Call) -> tuple[int | None, bool]:
    """The status a response-building call answers with, and whether it was read."""
    for kw in call.keywords:
        if kw.arg in ("status_code", "status", "code"):
            code = _status_of(kw.value)
            return code, code is not None
    func = _name(call.func)
    if func == "make_response" and len(call.args) >= 2:
        code = _status_of(call.args[1])
        return code, code is not None
    if func in _RESPONSES:
        return 200, True
    codes = [c for a in call.args if (c := _status_of(a)) is not None]
    if codes:  # a helper taking the status (error_response("…", 500))
        return codes[0], True
    return None, False


def _answer(value: ast.AST | None) -> tuple[int | None, bool]:
    if isinstance(value, ast.Tuple) and len(value.elts) >= 2:
        code = _status_of(value.elts[1])
        return code, code is not None
    if isinstance(value, ast.Call):
        return _call_status(value)
    if isinstance(value, ast.Dict):
        return 200, True
    return None, False


def _mentions_http(fn: ast.AST) -> bool:
    for node in ast.walk(fn):
        if _name(node) in ("HTTPException", "StarletteHTTPException", "get_response", "code",
                           "status_code", "isinstance"):
            return True
    return False


def _handler(file: str, line: int, framework: str, catches: str, fn: ast.AST,
             text: str, body: list[ast.stmt] | None = None) -> Handler:
    statuses: list[int] = []
    fixed = True
    for stmt in body if body is not None else [fn]:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Return):
                code, known = _answer(node.value)
            elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                code, known = _call_status(node.exc)
            elif isinstance(node, ast.Call) and _name(node.func) == "abort" and node.args:
                code = _status_of(node.args[0])
                known = code is not None
            else:
                continue
            if known and code is not None:
                statuses.append(code)
            else:
                fixed = False
    return Handler(file, line, framework, catches, tuple(statuses), fixed and bool(statuses),
                   _mentions_http(fn), text)


def _catches(node: ast.AST) -> str:
    code = _status_of(node)
    return str(code) if code is not None else _name(node)


def _functions(tree: ast.AST) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {n.name: n for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _stem(file: str) -> str:
    parts = file.rsplit("/", 2)
    name = parts[-1][:-3] if parts[-1].endswith(".py") else parts[-1]
    return parts[-2] if name == "__init__" and len(parts) > 1 else name


def _src(text: str, line: int) -> str:
    lines = text.splitlines()
    return lines[line - 1].strip()[:200] if 0 < line <= len(lines) else ""


class _File:
    """One module's contribution."""

    def __init__(self, file: str, text: str, tree: ast.Module, out: Mechanisms,
                 functions: dict[str, list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]]
                 ) -> None:
        self.file, self.text, self.tree, self.out = file, text, tree, out
        self.functions = functions
        self.local = _functions(tree)
        self.imports: dict[str, tuple[str, str]] = {}  # local name -> (module stem, name)
        self.loops: dict[str, list[ast.expr]] = {}
        self.handler_nodes: set[int] = set()

    def read(self, routers: list[tuple[str, int, str, str, str]],
             registered: set[tuple[str | None, str]],
             routes: dict[tuple[str, str], list[Route]]) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.ImportFrom):
                mod = (node.module or "").split(".")[-1]
                for a in node.names:
                    self.imports[a.asname or a.name] = (mod or a.name, a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    self.imports[a.asname or a.name.split(".")[0]] = (
                        a.name.split(".")[-1], a.name.split(".")[-1])
            elif isinstance(node, ast.For) and isinstance(node.target, ast.Name) and \
                    isinstance(node.iter, (ast.Tuple, ast.List)):
                self.loops[node.target.id] = list(node.iter.elts)
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                self._assignment(node, routers)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(node, routes)
            elif isinstance(node, ast.Call):
                self._call(node, registered)
        self._literals()

    def _assignment(self, node: ast.Assign, routers: list[tuple[str, int, str, str, str]]
                    ) -> None:
        if not isinstance(node.value, ast.Call):
            return
        kind = _name(node.value.func)
        target = node.targets[0]
        name = _name(target) if isinstance(target, (ast.Name, ast.Attribute)) else ""
        if not name:
            return
        if kind in ("Blueprint", "APIRouter"):
            prefix = next((kw.value.value for kw in node.value.keywords
                           if kw.arg in ("url_prefix", "prefix")
                           and isinstance(kw.value, ast.Constant)
                           and isinstance(kw.value.value, str)), "")
            routers.append((self.file, node.lineno, name, kind, prefix))
        elif kind in ("Flask", "FastAPI"):
            self.out.apps.append(AppObject(self.file, node.lineno, kind.lower(), name))
            for kw in node.value.keywords:
                if kw.arg == "exception_handlers" and isinstance(kw.value, ast.Dict):
                    for k, v in zip(kw.value.keys, kw.value.values, strict=False):
                        if k is not None:
                            self._registered_fn(node.lineno, FASTAPI, _catches(k), v)

    def _function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef,
                  routes: dict[tuple[str, str], list[Route]]) -> None:
        for deco in fn.decorator_list:
            if not isinstance(deco, ast.Call) or not isinstance(deco.func, ast.Attribute):
                continue
            attr = deco.func.attr
            owner = _name(deco.func.value)
            if attr in _FLASK_REGISTER + _FASTAPI_REGISTER and deco.args:
                framework = FLASK if attr in _FLASK_REGISTER else FASTAPI
                self.handler_nodes.add(id(fn))
                self.out.handlers.append(_handler(
                    self.file, deco.lineno, framework, _catches(deco.args[0]), fn,
                    _src(self.text, deco.lineno)))
            elif attr == "middleware":
                self._middleware(fn, deco.lineno)
            elif attr in ("route", "api_route", *_ROUTE_METHODS) and deco.args and \
                    isinstance(deco.args[0], ast.Constant) and \
                    isinstance(deco.args[0].value, str):
                method = "" if attr in ("route", "api_route") else attr.upper()
                if not method:
                    listed = next((kw.value for kw in deco.keywords if kw.arg == "methods"),
                                  None)
                    names = [e.value.upper() for e in getattr(listed, "elts", [])
                             if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                    method = ",".join(names) if names else "GET"
                routes.setdefault((self.file, owner), []).append(
                    Route(method, deco.args[0].value, deco.lineno))

    def _middleware(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, line: int) -> None:
        for node in ast.walk(fn):
            if not isinstance(node, ast.Try):
                continue
            for h in node.handlers:
                if h.type is None or _name(h.type) in ("Exception", "BaseException"):
                    self.handler_nodes.add(id(fn))
                    self.out.handlers.append(_handler(
                        self.file, h.lineno, MIDDLEWARE, "Exception", fn,
                        _src(self.text, h.lineno), h.body))

    def _registered_fn(self, line: int, framework: str, catches: str, ref: ast.AST) -> None:
        name = _name(ref)
        fn = self.local.get(name)
        if fn is None:
            found = self.functions.get(self.imports.get(name, ("", name))[1], [])
            fn = found[0][1] if len(found) == 1 else None
        if fn is None:
            return
        self.handler_nodes.add(id(fn))
        self.out.handlers.append(_handler(self.file, line, framework, catches, fn,
                                          _src(self.text, line)))

    def _call(self, call: ast.Call, registered: set[tuple[str | None, str]]) -> None:
        attr = call.func.attr if isinstance(call.func, ast.Attribute) else ""
        if attr in ("add_exception_handler", "register_error_handler") and len(call.args) >= 2:
            framework = FASTAPI if attr == "add_exception_handler" else FLASK
            self._registered_fn(call.lineno, framework, _catches(call.args[0]), call.args[1])
        elif attr in ("register_blueprint", "include_router") and call.args:
            for arg in self.loops.get(_name(call.args[0]), [call.args[0]]) \
                    if isinstance(call.args[0], ast.Name) else [call.args[0]]:
                self._register(arg, registered)

    def _register(self, arg: ast.AST, registered: set[tuple[str | None, str]]) -> None:
        if isinstance(arg, ast.Attribute):
            base = _name(arg.value)
            module = self.imports.get(base, (None, None))[1] if isinstance(
                arg.value, ast.Name) else None
            registered.add((module, arg.attr))
        elif isinstance(arg, ast.Name):
            if arg.id in self.imports:
                registered.add(self.imports[arg.id])
            else:
                registered.add((_stem(self.file), arg.id))
        else:
            self.out.dynamic_registration = True

    def _literals(self) -> None:
        skip: set[int] = set()
        for node in ast.walk(self.tree):
            if id(node) in self.handler_nodes:
                skip.update(id(n) for n in ast.walk(node))
        for node in ast.walk(self.tree):
            if id(node) in skip or isinstance(node, ast.Dict):
                continue
            code = _status_of(node)
            if code is not None and code >= 400:
                self.out.status_literals.setdefault(code, []).append(
                    (self.file, getattr(node, "lineno", 0)))


def _drf_handlers(trees: dict[str, tuple[str, ast.Module]], out: Mechanisms,
                  functions: dict[str, list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]]
                  ) -> None:
    """``REST_FRAMEWORK = {"EXCEPTION_HANDLER": "pkg.mod.func"}`` in a settings module."""
    for file, (text, tree) in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
                    and any(_name(t) == "REST_FRAMEWORK" for t in node.targets)):
                continue
            for k, v in zip(node.value.keys, node.value.values, strict=False):
                if isinstance(k, ast.Constant) and k.value == "EXCEPTION_HANDLER" and \
                        isinstance(v, ast.Constant) and isinstance(v.value, str):
                    found = functions.get(v.value.split(".")[-1], [])
                    if len(found) == 1:
                        out.handlers.append(_handler(file, v.lineno, DRF, "Exception",
                                                     found[0][1], _src(text, v.lineno)))


def read_mechanisms(sources: dict[str, str]) -> Mechanisms:
    """The mechanisms of the modules ``sources`` (unparsable modules are passed over)."""
    out = Mechanisms()
    trees: dict[str, tuple[str, ast.Module]] = {}
    for file, text in sources.items():
        try:
            trees[file] = (text, ast.parse(text))
        except (SyntaxError, ValueError, RecursionError):
            continue
    functions: dict[str, list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]] = {}
    for file, (_, tree) in trees.items():
        for name, fn in _functions(tree).items():
            functions.setdefault(name, []).append((file, fn))
    routers: list[tuple[str, int, str, str, str]] = []
    registered: set[tuple[str | None, str]] = set()
    routes: dict[tuple[str, str], list[Route]] = {}
    for file, (text, tree) in trees.items():
        _File(file, text, tree, out, functions).read(routers, registered, routes)
    _drf_handlers(trees, out, functions)
    for file, line, name, kind, prefix in routers:
        is_registered = (None, name) in registered or (_stem(file), name) in registered
        out.routers.append(Router(file, line, name, kind, prefix,
                                  tuple(routes.get((file, name), ())), is_registered))
    return out


def route_matches(template: str, path: str) -> bool:
    """Whether request ``path`` (``{}``-templated or concrete) fits route ``template``
    (``{id}`` / ``<int:id>`` parameters match any one segment)."""
    def parts(p: str) -> list[str]:
        return [s for s in p.split("?")[0].strip("/").split("/") if s]

    want, got = parts(template), parts(path)
    if len(want) != len(got):
        return False
    for w, g in zip(want, got, strict=True):
        param = w.startswith(("{", "<")) or g.startswith("{") or g == "{}"
        if not param and w != g:
            return False
    return True
