"""Which golden tests hit which README endpoint, found statically with ``ast`` (never run).

For every test function (``test*`` at module level, or a ``test*`` method of a ``Test*`` class)
the HTTP calls it makes are collected: ``<anything>.get/post/put/patch/delete/head/options(url)``
and ``<anything>.request("GET", url)``, directly or through module-level helpers, ``self.``
helpers of its class, and the fixtures it requests (same file or a ``conftest.py`` above it;
autouse fixtures are ignored). The URL argument is read from string constants, f-strings,
``+`` concatenations, ``%``/``.format`` templates and simple variables (assigned in the
function, or module constants); every dynamic part becomes a wildcard. A leading dynamic part
or ``scheme://host[:port]`` is taken as the base URL and dropped; query strings are ignored.

Matching a call's path to an endpoint (same method; ``FEATURE`` endpoints are never matched):
README parameters (``{id}``, ``<id>``, ``<int:id>``, ``:id``) match any one segment, a wildcard
of the call matches only a parameter, trailing slashes are ignored, and a call path may carry
extra leading literal segments (a base path like ``/api/v1``) when the endpoint starts with a
literal. When several endpoints match, only the most specific ones count: exact length before
prefix-tolerant matches, then most literal segments (so ``GET /health`` is not also credited
to ``GET /{code}``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model import Endpoint

HTTP_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})
MAX_CALL_CHARS = 160
_DYN = "\x00"  # a dynamic part of a URL template
_PARAM = re.compile(r"^(?:\{[^}]*\}|<[^>]*>|:\w+)$")
_MAX_DEPTH = 8


@dataclass(frozen=True, slots=True)
class TestRef:
    """One call in a golden test that hits an endpoint.

    ``test_id`` is the pytest node id relative to the task root; ``file`` and ``line`` locate the
    call (in the test itself, or in the helper/fixture named by ``via``); ``call`` is its source,
    stripped, a multi-line call joined on one line, at most 160 characters.
    """

    __test__ = False

    test_id: str
    file: str
    line: int
    call: str
    via: str = ""  # "" for a direct call, else e.g. "_create" or "fixture created_note"


class EndpointTests(dict[str, list[TestRef]]):
    """``Endpoint.key`` → test references, for every endpoint given (possibly empty lists).

    ``skipped`` lists ``(file relative to the task root, error)`` for files that could not be
    read or parsed; their tests are missing from the map.
    """

    skipped: list[tuple[str, str]]

    def __init__(self) -> None:
        super().__init__()
        self.skipped = []


@dataclass(frozen=True, slots=True)
class _Hit:
    method: str
    segments: tuple[str | None, ...]  # None: a wildcard segment
    file: str
    line: int
    call: str
    via: str = ""


@dataclass
class _Module:
    rel: str
    lines: list[str]
    constants: dict[str, ast.expr]
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    fixtures: dict[str, ast.FunctionDef | ast.AsyncFunctionDef]
    tests: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, ast.ClassDef | None]] = \
        field(default_factory=list)


# ---------------------------------------------------------------------------- parsing files


def _is_fixture(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[bool, bool]:
    """(is a pytest fixture, is autouse)."""
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        name = target.attr if isinstance(target, ast.Attribute) else \
            target.id if isinstance(target, ast.Name) else ""
        if name == "fixture":
            autouse = isinstance(dec, ast.Call) and any(
                k.arg == "autouse" and isinstance(k.value, ast.Constant) and k.value.value
                for k in dec.keywords)
            return True, autouse
    return False, False


def _load(path: Path, root: Path, skipped: list[tuple[str, str]]) -> _Module | None:
    rel = path.relative_to(root).as_posix()
    try:
        source = path.read_text(encoding="utf-8", errors="replace")
        tree = ast.parse(source, filename=rel)
    except SyntaxError as exc:
        skipped.append((rel, f"SyntaxError: {exc.msg} (line {exc.lineno})"))
        return None
    except (OSError, ValueError, RecursionError, MemoryError) as exc:
        skipped.append((rel, f"{type(exc).__name__}: {exc}"))
        return None
    mod = _Module(rel, source.splitlines(), {}, {}, {})
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            mod.constants[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                node.value is not None:
            mod.constants[node.target.id] = node.value
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            fixture, autouse = _is_fixture(node)
            if fixture:
                if not autouse:
                    mod.fixtures[node.name] = node
            elif node.name.startswith("test"):
                mod.tests.append((f"{rel}::{node.name}", node, None))
            else:
                mod.functions[node.name] = node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            _collect_class(mod, node, f"{rel}::{node.name}")
    return mod


def _collect_class(mod: _Module, cls: ast.ClassDef, prefix: str) -> None:
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                node.name.startswith("test") and not _is_fixture(node)[0]:
            mod.tests.append((f"{prefix}::{node.name}", node, cls))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            _collect_class(mod, node, f"{prefix}::{node.name}")


def _is_test_file(path: Path) -> bool:
    return path.suffix == ".py" and (path.name.startswith("test_") or
                                     path.name.endswith("_test.py"))


# ------------------------------------------------------------------------- URL templates


_UNKNOWN = ast.Constant(value=None)  # a name bound to something we do not follow


class _Env:
    """Names a URL expression may use: the function's parameters and assignments (the last one
    before the line being read), then module constants."""

    def __init__(self, fn: ast.AST | None, constants: dict[str, ast.expr]) -> None:
        self.constants = constants
        self.local: dict[str, list[tuple[int, ast.expr]]] = {}
        if fn is None:
            return
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            a = fn.args
            for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg):
                if arg is not None:
                    self._bind(arg.arg, 0, _UNKNOWN)
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self._bind(target.id, node.lineno, node.value)
                    else:
                        for name in _names(target):
                            self._bind(name, node.lineno, _UNKNOWN)
            elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and \
                    isinstance(node.target, ast.Name) and node.value is not None:
                self._bind(node.target.id, node.lineno, node.value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                value: ast.expr = _UNKNOWN
                if isinstance(node.op, ast.Add):  # url += "/x": the previous value, then "/x"
                    value = ast.BinOp(ast.Name(node.target.id, ast.Load()), ast.Add(),
                                      node.value)
                self._bind(node.target.id, node.lineno, value)
            elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
                for name in _names(node.target):
                    self._bind(name, getattr(node, "lineno", 0), _UNKNOWN)
            elif isinstance(node, ast.With | ast.AsyncWith):
                for item in node.items:
                    for name in _names(item.optional_vars):
                        self._bind(name, node.lineno, _UNKNOWN)
        for values in self.local.values():
            values.sort(key=lambda v: v[0])

    def _bind(self, name: str, line: int, value: ast.expr) -> None:
        self.local.setdefault(name, []).append((line, value))

    def resolve(self, name: str, line: int) -> tuple[ast.expr, _Env, int] | None:
        """(value, environment to read it in, line to read it at) of ``name`` at ``line``."""
        values = self.local.get(name)
        if values is not None:
            before = [(ln, v) for ln, v in values if ln < line]
            return (before[-1][1], self, before[-1][0]) if before else None
        if name in self.constants:
            return self.constants[name], _Env(None, self.constants), 0
        return None


def _names(target: ast.AST | None) -> Iterator[str]:
    if target is None:
        return
    for sub in ast.walk(target):
        if isinstance(sub, ast.Name):
            yield sub.id


def _template(node: ast.AST, env: _Env, line: int, depth: int = 0) -> str:
    """The expression as a string with ``_DYN`` for every part not known statically."""
    if depth > _MAX_DEPTH:
        return _DYN
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else _DYN
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
            elif isinstance(value, ast.FormattedValue):
                parts.append(_template(value.value, env, line, depth + 1))
            else:
                parts.append(_DYN)
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _template(node.left, env, line, depth + 1) + \
            _template(node.right, env, line, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = _template(node.left, env, line, depth + 1)
        return re.sub(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifrx]", _DYN, left)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "format":
            base = _template(node.func.value, env, line, depth + 1)
            return re.sub(r"\{[^{}]*\}", _DYN, base)
        if node.func.attr == "rstrip" and _is_slash_arg(node):
            return _template(node.func.value, env, line, depth + 1).rstrip("/")
    if isinstance(node, ast.Name):
        found = env.resolve(node.id, line)
        if found is None:
            return _DYN
        value, value_env, value_line = found
        return _template(value, value_env, value_line, depth + 1)
    return _DYN


def _is_slash_arg(call: ast.Call) -> bool:
    return len(call.args) == 1 and isinstance(call.args[0], ast.Constant) and \
        call.args[0].value == "/"


def path_segments(template: str) -> tuple[str | None, ...] | None:
    """Path segments of a URL template (``None`` for a wildcard), or None if it has no ``/``
    (not a URL, or an unresolved variable)."""
    if "/" not in template:
        return None
    if "://" in template:
        rest = template.split("://", 1)[1]
        path = rest[rest.index("/"):] if "/" in rest else "/"
    elif template.startswith("/"):
        path = template
    else:
        head, _, tail = template.partition("/")
        # a dynamic base URL or a literal host[:port] is dropped; "notes/1" is a relative path
        path = "/" + tail if (_DYN in head or ":" in head or "." in head) else "/" + template
    path = re.split(r"[?#]", path, maxsplit=1)[0]
    return tuple(None if _DYN in seg else seg for seg in path.split("/") if seg)


def endpoint_segments(path: str) -> tuple[str | None, ...]:
    """README path segments, ``None`` for a parameter; query string and slashes ignored."""
    path = re.split(r"[?#]", path.strip(), maxsplit=1)[0]
    return tuple(None if _PARAM.match(s) else s for s in path.split("/") if s)


def _score(call: tuple[str | None, ...], ep: tuple[str | None, ...]) -> tuple[int, int] | None:
    """(exact length?, literal matches) when ``call`` hits ``ep``; None when it does not."""
    extra = len(call) - len(ep)
    if extra < 0:
        return None
    if extra and (not ep or ep[0] is None or any(s is None for s in call[:extra])):
        return None
    literals = 0
    for c, e in zip(call[extra:], ep, strict=True):
        if e is None:
            continue
        if c != e:
            return None
        literals += 1
    return (0 if extra else 1, literals)


# ------------------------------------------------------------------------------ the calls


def _call_text(lines: list[str], node: ast.AST) -> str:
    start = node.lineno
    end = getattr(node, "end_lineno", None) or start
    text = " ".join(ln.strip() for ln in lines[start - 1:end])
    text = re.sub(r"\(\s+", "(", re.sub(r",?\s+\)", ")", text))
    return text if len(text) <= MAX_CALL_CHARS else text[:MAX_CALL_CHARS - 1] + "…"


def _http_call(node: ast.Call) -> tuple[str, ast.expr] | None:
    """(METHOD, url expression) of an HTTP client call, else None."""
    if not isinstance(node.func, ast.Attribute):
        return None
    name = node.func.attr.lower()
    kwargs = {k.arg: k.value for k in node.keywords if k.arg}
    if name in HTTP_METHODS:
        url = node.args[0] if node.args else kwargs.get("url") or kwargs.get("path")
        return (name.upper(), url) if url is not None else None
    if name == "request":
        method = node.args[0] if node.args else kwargs.get("method")
        url = node.args[1] if len(node.args) > 1 else kwargs.get("url") or kwargs.get("path")
        if isinstance(method, ast.Constant) and isinstance(method.value, str) and \
                method.value.lower() in HTTP_METHODS and url is not None:
            return method.value.upper(), url
    return None


class _Scanner:
    """HTTP hits of functions, following helpers and fixtures (memoised, cycle-safe)."""

    def __init__(self, conftests: dict[Path, _Module]) -> None:
        self.conftests = conftests
        self.memo: dict[int, list[_Hit]] = {}

    def direct(self, fn: ast.AST, mod: _Module) -> list[_Hit]:
        env = _Env(fn, mod.constants)
        hits = []
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            found = _http_call(node)
            if found is None:
                continue
            method, url = found
            segs = path_segments(_template(url, env, node.lineno))
            if segs is not None:
                hits.append(_Hit(method, segs, mod.rel, node.lineno,
                                 _call_text(mod.lines, node)))
        return hits

    def hits(self, fn: ast.AST, mod: _Module, cls: ast.ClassDef | None,
             fixtures: dict[str, tuple[ast.AST, _Module]] | None,
             stack: frozenset[int] = frozenset()) -> list[_Hit]:
        """Hits of ``fn``; ``fixtures`` resolves its parameters (tests and fixtures only)."""
        key = id(fn)
        if key in self.memo:
            return self.memo[key]
        if key in stack:
            return []
        stack = stack | {key}
        out = sorted(self.direct(fn, mod), key=lambda h: h.line)
        methods = {n.name: n for n in (cls.body if cls else ())
                   if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
        seen: set[str] = set()
        for node in ast.walk(fn):
            if not isinstance(node, ast.Call):
                continue
            callee: ast.AST | None = None
            name = ""
            if isinstance(node.func, ast.Name) and node.func.id in mod.functions:
                name = node.func.id
                callee = mod.functions[name]
            elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id in ("self", "cls") and node.func.attr in methods:
                name = node.func.attr
                callee = methods[name]
            if callee is None or name in seen:
                continue
            seen.add(name)
            out += [_via(h, name) for h in self.hits(callee, mod, cls, None, stack)]
        args = fn.args if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) else None
        params = (*args.posonlyargs, *args.args, *args.kwonlyargs) if args else ()
        for arg in params:
            target = (fixtures or {}).get(arg.arg)
            if target is None or arg.arg in seen:
                continue
            seen.add(arg.arg)
            fx, fx_mod = target
            sub = self.hits(fx, fx_mod, None, self.fixtures_for(fx_mod), stack)
            out += [_via(h, f"fixture {arg.arg}") for h in sub]
        self.memo[key] = out
        return out

    def fixtures_for(self, mod: _Module, cls: ast.ClassDef | None = None
                     ) -> dict[str, tuple[ast.AST, _Module]]:
        """Fixtures visible from ``mod``: conftests above it (nearest wins), the module, the
        class."""
        out: dict[str, tuple[ast.AST, _Module]] = {}
        here = Path(mod.rel).parent
        for folder in sorted(self.conftests, key=lambda p: len(p.parts)):
            if folder == Path(".") or here == folder or folder in here.parents:
                for name, fx in self.conftests[folder].fixtures.items():
                    out[name] = (fx, self.conftests[folder])
        for name, fx in mod.fixtures.items():
            out[name] = (fx, mod)
        for node in (cls.body if cls else ()):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_fixture(node)[0]:
                out[node.name] = (node, mod)
        return out


def _via(hit: _Hit, name: str) -> _Hit:
    return _Hit(hit.method, hit.segments, hit.file, hit.line, hit.call,
                f"{name} > {hit.via}" if hit.via else name)


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
    root = tests_dir.parent
    files = sorted(p for p in tests_dir.rglob("*.py") if p.is_file())
    conftests: dict[Path, _Module] = {}
    for conf in [root / "conftest.py", *(p for p in files if p.name == "conftest.py")]:
        if conf.is_file() and (mod := _load(conf, root, result.skipped)) is not None:
            conftests[Path(mod.rel).parent] = mod
    targets = [(ep, endpoint_segments(ep.path)) for ep in endpoints if ep.method != "FEATURE"]
    scanner = _Scanner(conftests)
    for file in files:
        if not _is_test_file(file) or (mod := _load(file, root, result.skipped)) is None:
            continue
        for test_id, fn, cls in mod.tests:
            fixtures = scanner.fixtures_for(mod, cls)
            seen: set[tuple[str, str, int]] = set()
            for hit in scanner.hits(fn, mod, cls, fixtures):
                for ep in _best(hit, targets):
                    if (ep.key, hit.file, hit.line) in seen:
                        continue
                    seen.add((ep.key, hit.file, hit.line))
                    result[ep.key].append(TestRef(test_id, hit.file, hit.line, hit.call,
                                                  hit.via))
    return result


def _best(hit: _Hit, targets: list[tuple[Endpoint, tuple[str | None, ...]]]) -> list[Endpoint]:
    scored = [(s, ep) for ep, segs in targets if ep.method == hit.method
              and (s := _score(hit.segments, segs)) is not None]
    if not scored:
        return []
    top = max(s for s, _ in scored)
    return [ep for s, ep in scored if s == top]
