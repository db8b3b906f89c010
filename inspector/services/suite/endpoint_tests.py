"""Which golden tests hit which README endpoint, found statically with ``ast`` (never run).

Tests are what pytest collects, with the ``python_files``/``python_classes``/
``python_functions`` of the suite's own config (``tests/pytest.ini``...) or pytest's defaults
(``test*`` functions of ``test_*.py``/``*_test.py`` files, ``test*`` methods of ``Test*``
classes without ``__init__``, inherited ones and nested classes included), plus ``test*``
methods of ``unittest.TestCase`` subclasses; ids are node ids
relative to the repo root (``tests/test_x.py::TestC::test_y``). For each test the HTTP calls
it makes are collected: ``<client>.get/post/put/patch/delete/head/options(url)`` and
``<client>.request(method, url)`` on ``requests``/``httpx``, a session or any client object,
directly, in nested functions, through the suite's own functions and ``self.`` methods (with
the arguments of each call), and in the fixtures it requests (autouse fixtures are ignored).
URLs are read by :mod:`inspector.services.suite.source` (constants, f-strings, class and
``self.`` attributes, fixtures, helper functions returning URLs, ``os.environ`` defaults,
``urljoin``, parametrize values...); a relative path on a client made with ``base_url=`` is
joined to it. A leading dynamic part or ``scheme://host[:port]`` is taken as the base URL and
dropped; query strings are ignored.

Matching a call's path to an endpoint (same method; ``FEATURE`` endpoints are never matched):
README parameters (``{id}``, ``<id>``, ``<int:id>``, ``:id``) match any one segment, a wildcard
of the call matches only a parameter, trailing slashes are ignored. A base path may be on
either side: the call may carry extra leading literal segments (``/api/v1``) when the endpoint
starts with a literal, and the endpoint may carry leading literals the call lacks when the
call's base URL is unknown (a dynamic base, or a bare path on a client). When several endpoints
match, only the most specific ones count: exact length first, then extra call segments, then
a missing prefix; then most literal segments (so ``GET /health`` is not also credited to
``GET /{code}``). A call is not credited at all when an endpoint of another method matches its
path better.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from inspector.model import Endpoint, Task
from inspector.services.suite.audit import collectable, matches_files
from inspector.services.suite.audit import find_config as find_pytest_config
from inspector.services.suite.audit import option as pytest_option
from inspector.services.suite.endpoint_match import (
    EndpointTests,
    Hit,
    TestRef,
    credit,
    dynamic_base,
    endpoint_segments,
    path_segments,
    via,
)
from inspector.services.suite.java_endpoint_tests import java_tests_for_endpoints
from inspector.services.suite.source import (
    DYN,
    ClassRef,
    Env,
    FixtureRef,
    Fn,
    Module,
    Suite,
    call_env,
    callee,
    is_fixture,
    templates,
    values_of,
)

__all__ = ["EndpointTests", "TestRef", "endpoint_segments", "path_segments", "tests_for_endpoints",
           "tests_for_task"]

HTTP_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})
MAX_CALL_CHARS = 160
_MAX_DEPTH = 6  # helper-calls-helper nesting followed


# ---------------------------------------------------------------------------- the tests


@dataclass(frozen=True, slots=True)
class _Test:
    test_id: str
    fn: Fn
    mod: Module  # where the function is written (a base class may live elsewhere)
    cls: ClassRef | None
    fixtures: dict[str, FixtureRef]
    use: tuple[str, ...]  # @pytest.mark.usefixtures names


@dataclass(frozen=True, slots=True)
class _Names:
    """pytest's ``python_files``/``python_classes``/``python_functions`` for the suite."""

    files: str
    classes: str
    functions: str

    @classmethod
    def of(cls, tests_dir: Path) -> _Names:
        """From the suite's own config (``tests/pytest.ini`` etc., the one the harness sees
        when it runs ``pytest tests/``), else pytest's defaults."""
        cfg = find_pytest_config(tests_dir, f"{tests_dir.name}/")
        return cls(*(pytest_option(cfg, k) for k in
                     ("python_files", "python_classes", "python_functions")))

    def file(self, path: Path) -> bool:
        return path.suffix == ".py" and matches_files(path.name, self.files)

    def cls(self, name: str) -> bool:
        return collectable(name, self.classes)

    def function(self, name: str) -> bool:
        return collectable(name, self.functions)


def _collect(suite: Suite, mod: Module, names: _Names) -> list[_Test]:
    """The tests pytest collects from a module."""
    out: list[_Test] = []
    for node in mod.tree.body:
        if isinstance(node, Fn) and names.function(node.name) and not is_fixture(node)[0]:
            out.append(_Test(f"{mod.rel}::{node.name}", node, mod, None,
                             suite.fixtures_for(mod), _usefixtures(node)))
        elif isinstance(node, ast.ClassDef):
            _collect_class(suite, mod, (node, mod), f"{mod.rel}::{node.name}", out, (), names)
    return out


def _collect_class(suite: Suite, mod: Module, cls: ClassRef, prefix: str, out: list[_Test],
                   use: tuple[str, ...], names: _Names) -> None:
    chain = suite.chain(cls)
    node = cls[0]
    unittest = any(_base_name(b).endswith("TestCase") for c, _ in chain for b in c.bases)
    if not (names.cls(node.name) or unittest) or _not_a_test(chain) or \
            (not unittest and suite.method(cls, "__init__") is not None):
        return  # pytest does not collect a class with an __init__
    use = use + _usefixtures(node)
    fixtures = suite.fixtures_for(mod, cls)
    seen: set[str] = set()
    for klass, kmod in chain:
        for item in klass.body:
            wanted = isinstance(item, Fn) and (item.name.startswith("test") if unittest
                                               else names.function(item.name))
            if isinstance(item, Fn) and wanted and item.name not in seen and \
                    not is_fixture(item)[0]:
                seen.add(item.name)
                out.append(_Test(f"{prefix}::{item.name}", item, kmod, cls, fixtures,
                                 use + _usefixtures(item)))
    if not unittest:
        for item in node.body:
            if isinstance(item, ast.ClassDef):
                _collect_class(suite, mod, (item, mod), f"{prefix}::{item.name}", out, use,
                               names)


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else \
        node.id if isinstance(node, ast.Name) else ""


def _not_a_test(chain: list[ClassRef]) -> bool:
    """``__test__ = False`` in the class (or a base)."""
    for klass, _ in chain:
        for item in klass.body:
            if isinstance(item, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__test__" for t in item.targets):
                return isinstance(item.value, ast.Constant) and not item.value.value
    return False


def _usefixtures(node: Fn | ast.ClassDef) -> tuple[str, ...]:
    names: list[str] = []
    for dec in node.decorator_list:
        if isinstance(dec, ast.Call) and _base_name(dec.func) == "usefixtures":
            names += [a.value for a in dec.args
                      if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return tuple(names)

# ------------------------------------------------------------------------------ the calls


def _call_text(lines: list[str], node: ast.expr) -> str:
    start = node.lineno
    end = getattr(node, "end_lineno", None) or start
    text = " ".join(ln.strip() for ln in lines[start - 1:end])
    text = re.sub(r"\(\s+", "(", re.sub(r",?\s+\)", ")", text))
    return text if len(text) <= MAX_CALL_CHARS else text[:MAX_CALL_CHARS - 1] + "…"


_CLIENT_MODULES = frozenset({"requests", "httpx", "aiohttp", "urllib3"})


def _http_call(node: ast.Call, env: Env) -> tuple[list[str], ast.expr, ast.expr | None] | None:
    """(METHODs, url expression, client receiver or None for a module-level function) of an
    HTTP call, else None. ``request(method, url)`` may give several methods (parametrized)."""
    func = node.func
    kwargs = {k.arg: k.value for k in node.keywords if k.arg}
    receiver: ast.expr | None
    if isinstance(func, ast.Attribute):
        name, receiver = func.attr.lower(), func.value
        if isinstance(receiver, ast.Name) and (
                receiver.id in _CLIENT_MODULES or env.suite.is_external_module(env.mod,
                                                                               receiver.id)):
            receiver = None
    elif isinstance(func, ast.Name) and env.mod.imports.get(func.id, ("", "", 0))[0] \
            .split(".")[0] in _CLIENT_MODULES:
        name, receiver = func.id.lower(), None  # from requests import get
    else:
        return None
    if name in HTTP_METHODS:
        url = node.args[0] if node.args else kwargs.get("url") or kwargs.get("path")
        return ([name.upper()], url, receiver) if url is not None else None
    if name == "request":
        method = node.args[0] if node.args else kwargs.get("method")
        url = node.args[1] if len(node.args) > 1 else kwargs.get("url") or kwargs.get("path")
        if method is None or url is None:
            return None
        methods = [m.upper() for m in templates(method, env, node.lineno)
                   if m.lower() in HTTP_METHODS]
        return (list(dict.fromkeys(methods)), url, receiver) if methods else None
    return None


def _client_bases(receiver: ast.expr, env: Env, line: int) -> list[str]:
    """``base_url=`` of the client a call is made on (``httpx.Client(base_url=...)``,
    ``TestClient(app, base_url=...)``), through variables, fixtures and ``self.`` attributes."""
    out: list[str] = []
    for val in values_of(receiver, env, line, 0):
        if isinstance(val.expr, ast.Call):
            for kw in val.expr.keywords:
                if kw.arg == "base_url":
                    out += templates(kw.value, val.env, val.line)
    return list(dict.fromkeys(out))


_APP_CLASSES = frozenset({"Flask", "FastAPI", "Starlette", "Quart", "Sanic", "Django"})


def _suite_app(receiver: ast.expr, env: Env, line: int) -> bool:
    """The client is a test client of an app the suite builds itself (``app.test_client()`` or
    ``TestClient(app)`` where ``app`` comes from ``Flask(...)`` or one of the suite's own
    functions): its calls never reach the service under test."""
    for val in values_of(receiver, env, line, 0):
        call = val.expr
        if not isinstance(call, ast.Call):
            continue
        app: ast.expr | None = None
        if isinstance(call.func, ast.Attribute) and call.func.attr == "test_client":
            app = call.func.value
        elif _base_name(call.func).endswith("TestClient"):
            app = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "app"), None)
        if app is None:
            continue
        for made in values_of(app, val.env, val.line, 0):
            if isinstance(made.expr, ast.Call) and (
                    _base_name(made.expr.func) in _APP_CLASSES or
                    callee(made.expr.func, made.env) is not None):
                return True
    return False


def _join_base(base: str, path: str) -> str:
    """httpx's merge of a client's base URL and a relative request URL."""
    return base.rstrip("/") + "/" + path.lstrip("/")


class _Scanner:
    """HTTP hits of tests, following helpers (with their arguments) and fixtures."""

    def __init__(self, suite: Suite) -> None:
        self.suite = suite
        self.fixture_memo: dict[int, list[Hit]] = {}

    def direct(self, node: ast.Call, env: Env) -> list[Hit] | None:
        """The hits of one call when it is an HTTP call (None when it is not)."""
        found = _http_call(node, env)
        if found is None:
            return None
        methods, url, receiver = found
        if receiver is not None and _suite_app(receiver, env, node.lineno):
            return []
        bases = _client_bases(receiver, env, node.lineno) if receiver is not None else []
        out = []
        for text in templates(url, env, node.lineno):
            bare = "://" not in text and not text.startswith(DYN)
            candidates = [_join_base(b, text) for b in bases] if bare and bases else [text]
            for full in candidates:
                segs = path_segments(full)
                if segs is None:
                    continue
                is_open = dynamic_base(full) or (bare and receiver is not None and not bases)
                for method in methods:
                    out.append(Hit(method, segs, is_open, env.mod.rel, node.lineno,
                                    _call_text(env.mod.lines, node)))
        return out

    def hits(self, fn: Fn, env: Env, stack: frozenset[int]) -> list[Hit]:
        """Hits of ``fn`` read in ``env``: its HTTP calls (nested functions included) and those
        of the suite's functions it calls, with the call's arguments. Decorators are not calls
        (``@app.get("/health")`` declares a route of an app the suite builds itself)."""
        out: list[Hit] = []
        nodes = list(ast.walk(fn))
        decorators = {id(d) for n in nodes if isinstance(n, Fn | ast.ClassDef)
                      for d in n.decorator_list}
        for node in nodes:
            if not isinstance(node, ast.Call) or id(node) in decorators:
                continue
            target = callee(node.func, env)  # the suite's own self.get() is no HTTP call
            if target is None:
                out += self.direct(node, env) or []
                continue
            if id(target[0]) in stack or len(stack) > _MAX_DEPTH:
                continue
            inner = call_env(node, target, env, node.lineno)
            sub = self.hits(target[0], inner, stack | {id(target[0])})
            out += [via(h, target[0].name) for h in sub]
        return sorted(out, key=lambda h: (h.via != "", h.line))

    def fixture_hits(self, fx: FixtureRef, stack: frozenset[int]) -> list[Hit]:
        key = id(fx.fn)
        if key in self.fixture_memo:
            return self.fixture_memo[key]
        if key in stack:
            return []
        stack = stack | {key}
        env = self.suite.fixture_env(fx)
        out = self.hits(fx.fn, env, stack) + self.requested(fx.fn, (), env.fixtures, stack)
        self.fixture_memo[key] = out
        return out

    def requested(self, fn: Fn, use: tuple[str, ...], fixtures: dict[str, FixtureRef],
                  stack: frozenset[int]) -> list[Hit]:
        """Hits of the fixtures a test or fixture requests (parameters, usefixtures)."""
        a = fn.args
        names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)] + list(use)
        out: list[Hit] = []
        for name in dict.fromkeys(names):
            fx = fixtures.get(name)
            if fx is not None and fx.fn is not fn:
                out += [via(h, f"fixture {name}") for h in self.fixture_hits(fx, stack)]
        return out


# ------------------------------------------------------------------------------- public API


def tests_for_endpoints(tests_dir: Path, endpoints: Sequence[Endpoint]) -> EndpointTests:
    """``Endpoint.key`` → the golden tests (``TestRef``) whose HTTP calls hit that endpoint.

    Every endpoint gets a key (``FEATURE`` endpoints always map to ``[]``). Files that cannot be
    parsed are skipped and listed in the result's ``skipped``. Test code is never executed.
    """
    result = EndpointTests()
    for ep in endpoints:
        result.setdefault(ep.key, [])
    if not tests_dir.is_dir():
        return result
    suite = Suite(tests_dir)
    targets = [(ep, endpoint_segments(ep.path)) for ep in endpoints if ep.method != "FEATURE"]
    scanner = _Scanner(suite)
    names = _Names.of(tests_dir)
    for file in sorted(p for p in tests_dir.rglob("*.py") if p.is_file()):
        if not names.file(file) or (mod := suite.module(file)) is None:
            continue
        for test in _collect(suite, mod, names):
            env = suite.env(test.mod, test.cls, test.fn, test.fixtures)
            found = scanner.hits(test.fn, env, frozenset({id(test.fn)})) + \
                scanner.requested(test.fn, test.use, test.fixtures, frozenset())
            credit(result, test.test_id, found, targets)
    result.skipped = suite.skipped
    return result


def tests_for_task(task: Task, endpoints: Sequence[Endpoint]) -> EndpointTests:
    """The endpoint → tests map of a task's golden suite: its JUnit tests for a Java task
    (:func:`~inspector.services.suite.java_endpoint_tests.java_tests_for_endpoints`), its
    pytest tests otherwise; every endpoint keyed with ``[]`` when the suite is not known."""
    if task.tests_dir is None:
        result = EndpointTests()
        for ep in endpoints:
            result.setdefault(ep.key, [])
        return result
    if task.language == "java":
        return java_tests_for_endpoints(task.tests_dir, endpoints, task.root)
    return tests_for_endpoints(task.tests_dir, endpoints)
