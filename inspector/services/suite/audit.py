"""Static audit of a task's golden test suite, read the way the stock RepoGenesis harness runs it.

The stock harness copies only the task's ``tests/`` folder over the generated repo (``/repo``),
installs the repo's ``requirements.txt``, then ``tests/requirements.txt``, then always pytest,
pytest-json-report, requests and httpx, and runs ``python -m pytest tests/`` from ``/repo``.
Whatever a suite needs beyond that makes it fail whatever the agent does. Each
:class:`SuiteIssue` names one such cause with its evidence (``file:line`` in the task, or the
README's silence):

* ``harness convention``: a task file outside ``tests/`` the harness never copies (a root
  ``pytest.ini``/``setup.cfg``/``tox.ini``/``pyproject.toml``, ``requirements.txt``,
  ``conftest.py``, or a file the tests read such as ``README.md``), or a helper module only
  importable when pytest is run from inside ``tests/``;
* ``missing test dependency``: a module the tests import that neither ``tests/requirements.txt``,
  the always-installed packages nor the standard library provide;
* ``undocumented internal module``: a white-box import of the generated repo's modules the
  README never describes;
* ``non-collectable suite``: test classes with ``__init__``, script-style files run by
  ``main()``, test files pytest's ``python_files`` does not match, a config header pytest ignores;
* ``unreachable URL``: a hard-coded base URL with another host or port than the README's, or a
  path the README never gives, used where it decides whether tests run.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatch
from functools import lru_cache
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from inspector.model.benchmark.task import Task
from inspector.services.repo.pymodules import (
    IMPORT_ALIASES,
    KNOWN_THIRD_PARTY,
    Requirement,
    is_stdlib,
    parse_requirements,
    requirement_for,
)

HARNESS_CONVENTION = "harness convention"
MISSING_DEPENDENCY = "missing test dependency"
UNDOCUMENTED_MODULE = "undocumented internal module"
NON_COLLECTABLE = "non-collectable suite"
UNREACHABLE_URL = "unreachable URL"
SELF_CONTAINED = "suite never tests the service"
CAUSES = (HARNESS_CONVENTION, MISSING_DEPENDENCY, UNDOCUMENTED_MODULE, NON_COLLECTABLE,
          UNREACHABLE_URL, SELF_CONTAINED)

ALWAYS_INSTALLED = ("pytest", "pytest-json-report", "requests", "httpx")
"""What the stock Dockerfile always installs for the tests."""
# Import names those packages bring with them.
_ALWAYS_MODULES = frozenset({
    "pytest", "_pytest", "pluggy", "iniconfig", "packaging", "pytest_jsonreport",
    "pytest_metadata", "requests", "urllib3", "idna", "certifi", "charset_normalizer", "httpx",
    "httpcore", "anyio", "sniffio", "h11", "exceptiongroup", "tomli", "typing_extensions"})
# Names a generated web service typically gives its own modules.
_INTERNAL_NAMES = frozenset({
    "app", "main", "src", "api", "core", "models", "model", "schemas", "database", "db",
    "config", "settings", "services", "service", "routes", "routers", "views", "utils",
    "server", "application", "crud", "auth", "storage", "repository", "handlers", "wsgi",
    "asgi", "manage", "run"})
_CONFIG_SECTIONS = (("pytest.ini", "pytest"), ("pyproject.toml", "tool.pytest.ini_options"),
                    ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))
_DEFAULTS = {"python_files": "test_*.py *_test.py", "python_classes": "Test",
             "python_functions": "test"}
_COLLECTION_KEYS = ("python_files", "python_classes", "python_functions", "pythonpath",
                    "testpaths")
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1"})
_HTTP_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})
MAX_EVIDENCE = 6
_HOLE = "\x00"  # stands for a part of a string that cannot be known statically


@dataclass(frozen=True, slots=True)
class Evidence:
    """Where a cause shows: ``file`` relative to the task folder, ``line`` 1-based or None
    (a file as a whole, or the README's silence), and the text there."""

    file: str
    line: int | None
    text: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.text}" if self.text else where


@dataclass(frozen=True, slots=True)
class SuiteIssue:
    """One reason the golden suite may fail whatever the agent does.

    ``modules`` are the import names it explains (to match ``No module named`` errors),
    ``files`` the test files it affects; ``blocking`` is False for a fact worth knowing that
    stops no test by itself."""

    cause: str
    summary: str
    evidence: tuple[Evidence, ...]
    modules: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    blocking: bool = True

    def explain(self) -> str:
        """The summary followed by its evidence, on one line."""
        ev = "; ".join(str(e) for e in self.evidence[:MAX_EVIDENCE])
        return f"{self.summary} [{ev}]" if ev else self.summary


@dataclass(frozen=True, slots=True)
class SuiteAudit:
    """Everything the audit found in one task, blocking issues first."""

    task: str
    issues: tuple[SuiteIssue, ...] = ()

    @property
    def defects(self) -> list[SuiteIssue]:
        return [i for i in self.issues if i.blocking]

    @property
    def suspected(self) -> SuiteIssue | None:
        """The first blocking issue: the task's suspected cause, or None."""
        return next(iter(self.defects), None)

    def for_module(self, module: str) -> SuiteIssue | None:
        """The issue explaining why ``module`` (dotted or top-level) cannot be imported."""
        top = module.split(".")[0]
        for issue in self.issues:
            if module in issue.modules or top in issue.modules:
                return issue
        return None

    def first(self, *causes: str) -> SuiteIssue | None:
        return next((i for i in self.defects if i.cause in causes), None)


# ------------------------------------------------------------------------------- config


@dataclass(frozen=True, slots=True)
class PytestConfig:
    """A pytest config file: its path relative to the task, and its options with lines."""

    rel: str
    options: dict[str, tuple[str, int]]
    other_sections: tuple[tuple[str, int], ...] = ()  # pytest sections it ignores here


def _ini_sections(text: str) -> dict[str, dict[str, tuple[str, int]]]:
    """Sections of an ini/cfg/toml-ish file: ``{section: {key: (value, line)}}`` (values of
    continuation lines joined with spaces)."""
    out: dict[str, dict[str, tuple[str, int]]] = {}
    section: dict[str, tuple[str, int]] | None = None
    key = ""
    for no, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip() if not raw.lstrip().startswith(";") else ""
        if not line.strip():
            continue
        if m := re.match(r"^\s*\[\s*([^\]]+?)\s*\]\s*$", line):
            section = out.setdefault(m.group(1).strip('"'), {})
            section["__line__"] = ("", no)
            key = ""
        elif section is not None and raw[:1] in " \t" and key:
            value, at = section[key]
            section[key] = (f"{value} {line.strip()}".strip(), at)
        elif section is not None and (m := re.match(r"^\s*([\w.-]+)\s*[=:]\s*(.*)$", line)):
            key = m.group(1)
            section[key] = (m.group(2).strip().strip("\"'[]"), no)
    return out


def find_config(folder: Path, prefix: str) -> PytestConfig | None:
    """The pytest config pytest would pick in ``folder`` (first match in pytest's order)."""
    for name, wanted in _CONFIG_SECTIONS:
        path = folder / name
        if not path.is_file():
            continue
        sections = _ini_sections(_read(path) or "")
        rel = f"{prefix}{name}"
        if wanted in sections:
            opts = {k: v for k, v in sections[wanted].items() if k != "__line__"}
            return PytestConfig(rel, opts)
        if name == "pytest.ini":  # always the config file, even without a [pytest] section
            ignored = tuple((s, sec["__line__"][1]) for s, sec in sections.items()
                            if "pytest" in s)
            return PytestConfig(rel, {}, ignored)
    return None


def option(cfg: PytestConfig | None, key: str) -> str:
    if cfg is not None and key in cfg.options:
        return cfg.options[key][0]
    return _DEFAULTS.get(key, "")


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True, slots=True)
class _PathVal:
    """A filesystem path relative to the task folder (``..`` kept when it leaves it)."""

    parts: tuple[str, ...]

    def parent(self, n: int = 1) -> _PathVal:
        return _PathVal(self.parts[:-n] if len(self.parts) >= n else ("..",))

    def join(self, name: str) -> _PathVal:
        parts = list(self.parts)
        for p in PurePosixPath(name).parts:
            if p == "..":
                parts = parts[:-1]
            elif p != ".":
                parts.append(p)
        return _PathVal(tuple(parts))


_Value = str | _PathVal | None


class _Env:
    """Constant folding of strings and ``__file__``-relative paths in one test module."""

    def __init__(self, module: ast.Module, rel: str) -> None:
        self.rel = rel
        self.module_names: dict[str, ast.expr] = {}
        self.classes: dict[str, dict[str, ast.expr]] = {}
        self.helpers: dict[str, ast.FunctionDef] = {}
        self.fixtures: dict[str, ast.expr] = {}
        for node in module.body:
            self._collect(node, self.module_names)
            if isinstance(node, ast.ClassDef):
                attrs: dict[str, ast.expr] = {}
                for sub in node.body:
                    self._collect(sub, attrs)
                self.classes[node.name] = attrs

    def _collect(self, node: ast.stmt, into: dict[str, ast.expr]) -> None:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            into[node.targets[0].id] = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                node.value is not None:
            into[node.target.id] = node.value
        elif isinstance(node, ast.FunctionDef):
            ret = _single_return(node)
            if ret is not None:
                if _is_fixture(node):
                    self.fixtures[node.name] = ret
                else:
                    self.helpers[node.name] = node

    def value(self, node: ast.expr | None, local: dict[str, _Value] | None = None,
              cls: str | None = None, depth: int = 0) -> _Value:
        """The constant value of ``node``, with unknown parts of strings as holes."""
        if node is None or depth > 8:
            return None
        local = local or {}
        known = local

        def ev(n: ast.expr | None) -> _Value:
            return self.value(n, known, cls, depth + 1)

        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else None
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return _PathVal(tuple(self.rel.split("/")))
            if node.id in local:
                return local[node.id]
            if node.id in self.module_names:
                return ev(self.module_names[node.id])
            if node.id in self.fixtures:
                return ev(self.fixtures[node.id])
            return None
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                got = ev(v.value) if isinstance(v, ast.FormattedValue) else ev(v)
                parts.append(got if isinstance(got, str) else _HOLE)
            return "".join(parts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = ev(node.left), ev(node.right)
            if isinstance(a, str) or isinstance(b, str):
                return (a if isinstance(a, str) else _HOLE) + (b if isinstance(b, str)
                                                               else _HOLE)
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            a, b = ev(node.left), ev(node.right)
            return a.join(b) if isinstance(a, _PathVal) and isinstance(b, str) else None
        if isinstance(node, ast.Attribute):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls") and cls and \
                    node.attr in self.classes.get(cls, {}):
                return ev(self.classes[cls][node.attr])
            if isinstance(owner, ast.Name) and owner.id in self.classes and \
                    node.attr in self.classes[owner.id]:
                return ev(self.classes[owner.id][node.attr])
            base = ev(owner)
            if isinstance(base, _PathVal):
                return base.parent() if node.attr == "parent" else None
            return None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
                node.value.attr == "parents" and isinstance(node.slice, ast.Constant) and \
                isinstance(node.slice.value, int):
            base = ev(node.value.value)
            return base.parent(node.slice.value + 1) if isinstance(base, _PathVal) else None
        if isinstance(node, ast.Call):
            return self._call(node, ev)
        return None

    def _call(self, node: ast.Call, ev: Callable[[ast.expr | None], _Value]) -> _Value:
        func = node.func
        name = _dotted(func)
        args = node.args
        if name in ("os.getenv", "os.environ.get", "getenv", "environ.get"):
            return ev(args[1]) if len(args) > 1 else None
        if name in ("os.path.dirname", "dirname") and args:
            base = ev(args[0])
            return base.parent() if isinstance(base, _PathVal) else None
        if name in ("os.path.abspath", "os.path.realpath", "abspath", "realpath", "Path",
                    "pathlib.Path", "str", "os.fspath") and len(args) == 1:
            return ev(args[0])
        if name in ("os.path.join", "join") and args:
            base = ev(args[0])
            for piece in args[1:]:
                part = ev(piece)
                if not (isinstance(base, _PathVal) and isinstance(part, str)):
                    return None
                base = base.join(part)
            return base
        if isinstance(func, ast.Attribute):
            base = ev(func.value)
            if isinstance(base, _PathVal) and func.attr in ("resolve", "absolute"):
                return base
            if isinstance(base, _PathVal) and func.attr == "joinpath" and args:
                part = ev(args[0])
                return base.join(part) if isinstance(part, str) else None
            if isinstance(base, str):
                if func.attr == "replace" and len(args) == 2:
                    a, b = ev(args[0]), ev(args[1])
                    return base.replace(a, b) if isinstance(a, str) and isinstance(b, str) \
                        else None
                if func.attr in ("rstrip", "strip", "lstrip"):
                    chars = ev(args[0]) if args else None
                    strip = {"rstrip": base.rstrip, "strip": base.strip,
                             "lstrip": base.lstrip}[func.attr]
                    return strip(chars if isinstance(chars, str) else None)
                if func.attr == "format":
                    return re.sub(r"\{[^{}]*\}", _HOLE, base)
            return None
        if isinstance(func, ast.Name) and func.id in self.helpers:
            helper = self.helpers[func.id]
            params = [a.arg for a in helper.args.args]
            bound = {p: ev(a) for p, a in zip(params, args, strict=False)}
            return self.value(_single_return(helper), bound, None, 9 - 2)
        return None


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def _single_return(fn: ast.FunctionDef) -> ast.expr | None:
    """The expression of a function whose body (after a docstring) is one ``return``."""
    body = [s for s in fn.body if not (isinstance(s, ast.Expr) and
                                        isinstance(s.value, ast.Constant))]
    if len(body) == 1 and isinstance(body[0], ast.Return):
        return body[0].value
    return None


def _is_fixture(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if _dotted(target).endswith("fixture"):
            return True
    return False


# ------------------------------------------------------------------------------- the audit


@dataclass
class _Module:
    rel: str  # relative to the task folder
    tree: ast.Module
    lines: list[str]
    env: _Env

    def line(self, no: int) -> str:
        return self.lines[no - 1].strip() if 0 < no <= len(self.lines) else ""


@dataclass
class _Ctx:
    task: Task
    root: Path
    modules: list[_Module] = field(default_factory=list)
    config: PytestConfig | None = None  # the config pytest uses under the harness
    root_config: PytestConfig | None = None  # a task config the harness does not copy
    issues: list[SuiteIssue] = field(default_factory=list)


def audit_task(task: Task) -> SuiteAudit:
    """The audit of ``task``'s golden suite (an empty audit for a task without Python tests)."""
    if task.root is None or task.language != "python":
        return SuiteAudit(task.name)
    tests = task.root / "tests"
    try:
        stamp = max((p.stat().st_mtime_ns for p in tests.rglob("*") if p.is_file()),
                    default=0)
        stamp = max(stamp, *(p.stat().st_mtime_ns for p in task.root.iterdir() if p.is_file()))
    except (OSError, ValueError):
        stamp = 0
    return _audit_cached(task, stamp)


@lru_cache(maxsize=256)
def _audit_cached(task: Task, stamp: int) -> SuiteAudit:  # noqa: ARG001 - cache key
    assert task.root is not None
    ctx = _Ctx(task, task.root)
    tests = task.root / "tests"
    if not tests.is_dir():
        return SuiteAudit(task.name)
    ctx.config = find_config(tests, "tests/")
    ctx.root_config = find_config(task.root, "")
    for path in sorted(tests.rglob("*.py")):
        if any(p.startswith(".") or p == "__pycache__" for p in path.relative_to(tests).parts):
            continue
        text = _read(path)
        if text is None:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        rel = path.relative_to(task.root).as_posix()
        ctx.modules.append(_Module(rel, tree, text.splitlines(), _Env(tree, rel)))
    _share_conftest_fixtures(ctx.modules)
    _check_imports(ctx)
    _check_task_files(ctx)
    _check_collection(ctx)
    _check_urls(ctx)
    _check_self_contained(ctx)
    order = {c: i for i, c in enumerate(CAUSES)}
    issues = sorted(ctx.issues, key=lambda i: (not i.blocking, order.get(i.cause, 9)))
    return SuiteAudit(task.name, tuple(issues))


def _share_conftest_fixtures(modules: list[_Module]) -> None:
    """Fixtures of a conftest.py are visible to every module in and below its folder."""
    for conf in (m for m in modules if PurePosixPath(m.rel).name == "conftest.py"):
        folder = PurePosixPath(conf.rel).parent
        for mod in modules:
            if mod is not conf and PurePosixPath(mod.rel).is_relative_to(folder):
                for name, expr in conf.env.fixtures.items():
                    value = conf.env.value(expr)  # evaluated where it is defined
                    if isinstance(value, str):
                        mod.env.fixtures.setdefault(name, ast.Constant(value))


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


# ---------------------------------------------------------------------------- imports


def _optional(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether an import sits in a ``try`` that catches its failure (an optional import)."""
    cur = parents.get(node)
    while cur is not None:
        if isinstance(cur, ast.Try) and any(
                h.type is None or _dotted(h.type) in ("ImportError", "ModuleNotFoundError",
                                                      "Exception", "BaseException")
                or isinstance(h.type, ast.Tuple) for h in cur.handlers):
            return True
        if isinstance(cur, ast.If) and "TYPE_CHECKING" in ast.unparse(cur.test):
            return True
        cur = parents.get(cur)
    return False


def _imports(mod: _Module) -> Iterator[tuple[str, int]]:
    """(absolute module name, line) of every import the module really needs."""
    parents = {child: node for node in ast.walk(mod.tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if _optional(node, parents):
            continue
        for name in names:
            yield name, node.lineno


def _sys_path(ctx: _Ctx, mod: _Module, with_root_config: bool) -> list[str]:
    """Folders (relative to the task) on ``sys.path`` when pytest imports ``mod`` from the
    repository root, the way the harness runs it (prepend import mode)."""
    dirs = [""]  # python -m pytest puts the working directory first
    cfg = ctx.config
    if "--import-mode=importlib" not in option(cfg, "addopts"):
        folder = PurePosixPath(mod.rel).parent
        while str(folder) not in ("", ".") and (ctx.root / folder / "__init__.py").is_file():
            folder = folder.parent
        dirs.append("" if str(folder) == "." else folder.as_posix())
    for c in (cfg, ctx.root_config if with_root_config else None):
        if c is None:
            continue
        base = PurePosixPath(c.rel).parent
        for entry in option(c, "pythonpath").replace(",", " ").split():
            dirs.append((base / entry).as_posix().lstrip("./") if entry != "." else
                        base.as_posix().lstrip("."))
    return dirs


def _test_module_at(ctx: _Ctx, dirs: list[str], name: str) -> str | None:
    """The task file that import ``name`` resolves to among ``dirs`` (tests/ files only)."""
    parts = name.split(".")
    for d in dirs:
        base = ctx.root / d if d else ctx.root
        target = base.joinpath(*parts)
        for cand in (target.with_suffix(".py"), target / "__init__.py"):
            if cand.is_file() and cand.relative_to(ctx.root).parts[0] == "tests":
                return cand.relative_to(ctx.root).as_posix()
        if parts[0] == "tests" and d == "" and target.is_dir():
            return target.relative_to(ctx.root).as_posix()
    return None


def _tests_files(ctx: _Ctx, name: str) -> str | None:
    """A module of the suite named ``name`` anywhere under tests/ (e.g. ``conftest``)."""
    parts = name.split(".")
    for mod in ctx.modules:
        p = PurePosixPath(mod.rel)
        stem = p.with_suffix("").parts if p.name != "__init__.py" else p.parent.parts
        if tuple(stem[-len(parts):]) == tuple(parts):
            return mod.rel
    return None


def _documented(module: str, readme: str) -> bool:
    path = module.replace(".", "/")
    last = module.rsplit(".", 1)[-1]
    return any(v in readme for v in (module, path, f"{path}.py", f"{last}.py"))


def _requirements(ctx: _Ctx, rel: str) -> tuple[list[Requirement], str] | None:
    text = _read(ctx.root / rel) if (ctx.root / rel).is_file() else None
    return (parse_requirements(text), rel) if text is not None else None


def _check_imports(ctx: _Ctx) -> None:
    readme = ctx.task.readme or ""
    test_reqs = _requirements(ctx, "tests/requirements.txt")
    root_reqs = _requirements(ctx, "requirements.txt")
    helpers: dict[str, list[Evidence]] = {}
    helper_file: dict[str, str] = {}
    missing: dict[str, list[Evidence]] = {}
    internal: dict[str, list[Evidence]] = {}
    for mod in ctx.modules:
        for name, line in _imports(mod):
            top = name.split(".")[0]
            if is_stdlib(top) or top in _ALWAYS_MODULES:
                continue
            ev = Evidence(mod.rel, line, mod.line(line))
            dirs = _sys_path(ctx, mod, with_root_config=False)
            if _test_module_at(ctx, dirs, name):
                continue
            own = _tests_files(ctx, name)
            if own is not None:  # a module of the suite that is not on sys.path here
                helpers.setdefault(name, []).append(ev)
                helper_file[name] = own
                continue
            if test_reqs and requirement_for(top, test_reqs[0]):
                continue
            third = top in KNOWN_THIRD_PARTY or (root_reqs is not None and
                                                 requirement_for(top, root_reqs[0]))
            looks_internal = top in _INTERNAL_NAMES or ("." in name and not third)
            if looks_internal and not third:
                if not _documented(name, readme):
                    internal.setdefault(name, []).append(ev)
                continue
            missing.setdefault(top, []).append(ev)
    for name, evs in helpers.items():
        _helper_issue(ctx, name, helper_file[name], evs)
    for top, evs in missing.items():
        _dependency_issue(ctx, top, evs, test_reqs, root_reqs, readme)
    for name, evs in internal.items():
        ctx.issues.append(SuiteIssue(
            UNDOCUMENTED_MODULE,
            f"the golden tests import '{name}', a module of the generated repo that the task "
            "README never describes: agents cannot know to create it",
            (*evs[:MAX_EVIDENCE], Evidence("README.md", None,
                                           f"never mentions {name} or "
                                           f"{name.replace('.', '/')}.py")),
            modules=(name,), files=_files(evs)))


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _files(evs: list[Evidence]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(e.file for e in evs if e.file.startswith("tests/")))


def _helper_issue(ctx: _Ctx, name: str, own: str, evs: list[Evidence]) -> None:
    folder = PurePosixPath(own).parent.as_posix()
    provider = None
    value = ""
    if ctx.root_config is not None:
        mod = next(m for m in ctx.modules if m.rel == evs[0].file)
        dirs = _sys_path(ctx, mod, with_root_config=True)
        if _test_module_at(ctx, dirs, name):
            value, line = ctx.root_config.options["pythonpath"]
            provider = Evidence(ctx.root_config.rel, line, f"pythonpath = {value}")
    if provider is not None:
        summary = (f"the golden tests import '{name}' ({own}), which only the task's root "
                   f"{provider.file} puts on sys.path (pythonpath = "
                   f"{value}); the harness copies only "
                   "tests/, so that file never reaches the container")
        evidence = (*evs[:MAX_EVIDENCE], provider)
    else:
        why = (f"{folder}/__init__.py makes {folder} a package, so pytest does not put it on "
               "sys.path" if (ctx.root / folder / "__init__.py").is_file()
               else f"{folder} is not on sys.path")
        summary = (f"the golden tests import '{name}' ({own}) as a top-level module; {why} "
                   "when the harness runs pytest from the repository root, so it only "
                   f"imports when pytest is started inside {folder}/")
        evidence = tuple(evs[:MAX_EVIDENCE])
    ctx.issues.append(SuiteIssue(HARNESS_CONVENTION, summary, evidence, modules=(name,),
                                 files=_files(evs)))


def _dependency_issue(ctx: _Ctx, top: str, evs: list[Evidence],
                      test_reqs: tuple[list[Requirement], str] | None,
                      root_reqs: tuple[list[Requirement], str] | None, readme: str) -> None:
    root_req = requirement_for(top, root_reqs[0]) if root_reqs else None
    always = ", ".join(ALWAYS_INSTALLED)
    declared = ("tests/requirements.txt does not list it" if test_reqs
                else "the task has no tests/requirements.txt")
    mentioned = re.search(rf"\b{re.escape(top)}\b", readme, re.I) is not None
    dist = IMPORT_ALIASES.get(top, (top,))[0]
    tail = (f"; it imports only when the generated repo's own requirements install {dist}"
            + (" (the README names it)" if mentioned else ""))
    if root_req is not None:
        ctx.issues.append(SuiteIssue(
            HARNESS_CONVENTION,
            f"the golden tests import '{top}', listed only in the task's root "
            f"requirements.txt ({root_req.raw}, line {root_req.line}); the harness copies "
            f"only tests/ and {declared}{tail}",
            (*evs[:MAX_EVIDENCE], Evidence("requirements.txt", root_req.line, root_req.raw)),
            modules=(top,), files=_files(evs)))
        return
    evidence = list(evs[:MAX_EVIDENCE])
    evidence.append(Evidence(test_reqs[1], None, f"does not list {top}") if test_reqs
                    else Evidence("tests/requirements.txt", None, "absent"))
    ctx.issues.append(SuiteIssue(
        MISSING_DEPENDENCY,
        f"the golden tests import '{top}', which is not in the standard library, not among "
        f"the packages the harness always installs ({always}), and {declared}{tail}",
        tuple(evidence), modules=(top,), files=_files(evs)))


# ------------------------------------------------------------------------ task files


def _check_task_files(ctx: _Ctx) -> None:
    """Task files outside tests/ that the suite relies on."""
    rc = ctx.root_config
    if rc is not None and rc.options:
        lost = {k: v for k, v in rc.options.items() if k != "pythonpath" or not any(
            i.cause == HARNESS_CONVENTION and rc.rel in i.explain() for i in ctx.issues)}
        if lost:
            keys = ", ".join(f"{k} = {v[0]}" for k, v in list(lost.items())[:4])
            changes = [k for k in lost if k in _COLLECTION_KEYS or k == "addopts"]
            ctx.issues.append(SuiteIssue(
                HARNESS_CONVENTION,
                f"the task's root {rc.rel} sets {keys}; the harness copies only tests/, so "
                "pytest runs without these settings",
                tuple(Evidence(rc.rel, line, f"{k} = {v}") for k, (v, line)
                      in list(lost.items())[:MAX_EVIDENCE]),
                blocking=bool(changes)))
    if (ctx.root / "conftest.py").is_file():
        ctx.issues.append(SuiteIssue(
            HARNESS_CONVENTION,
            "the task's root conftest.py (fixtures, hooks) never reaches the container: the "
            "harness copies only tests/", (Evidence("conftest.py", None, "not copied"),)))
    reads: dict[str, list[Evidence]] = {}
    for mod in ctx.modules:
        for node, local in _walk_with_locals(mod):
            val = mod.env.value(node, local)
            if not isinstance(val, _PathVal) or not val.parts or val.parts[0] == "tests":
                continue
            rel = "/".join(val.parts)
            if ".." in val.parts or not (ctx.root / rel).is_file():
                continue
            ev = Evidence(mod.rel, node.lineno, mod.line(node.lineno))
            if ev not in reads.setdefault(rel, []):
                reads[rel].append(ev)
    for rel, evs in reads.items():
        ctx.issues.append(SuiteIssue(
            HARNESS_CONVENTION,
            f"the golden tests read the task's {rel}, outside tests/; the harness copies only "
            f"tests/, so in the container they read the generated repo's {rel}, if it has one",
            tuple(evs[:MAX_EVIDENCE]), files=_files(evs)))


def _walk_with_locals(mod: _Module) -> Iterator[tuple[ast.expr, dict[str, _Value]]]:
    """Call and BinOp expressions of the module with the simple local assignments made
    before them in their function (so ``p = dirname(__file__)`` then ``join(p, 'x')`` folds)."""
    def visit(body: list[ast.stmt], local: dict[str, _Value]) -> Iterator[
            tuple[ast.expr, dict[str, _Value]]]:
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from visit(stmt.body, dict(local))
                continue
            if isinstance(stmt, ast.ClassDef):
                yield from visit(stmt.body, dict(local))
                continue
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call | ast.BinOp) and hasattr(node, "lineno"):
                    yield node, local
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                    isinstance(stmt.targets[0], ast.Name):
                local[stmt.targets[0].id] = mod.env.value(stmt.value, local)
            for attr in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, attr, None)
                if isinstance(inner, list) and not isinstance(stmt, ast.FunctionDef):
                    for sub in inner:
                        if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and \
                                isinstance(sub.targets[0], ast.Name):
                            local[sub.targets[0].id] = mod.env.value(sub.value, local)
    yield from visit(mod.tree.body, {})


# ------------------------------------------------------------------------- collection


def matches_files(name: str, patterns: str) -> bool:
    return any(fnmatch(name, p) for p in patterns.split())


def collectable(name: str, prefixes: str) -> bool:
    return any(fnmatch(name, p) if any(c in p for c in "*?[") else name.startswith(p)
               for p in prefixes.split())


def _check_collection(ctx: _Ctx) -> None:
    cfg = ctx.config
    if cfg is not None and not cfg.options and cfg.other_sections:
        section, line = cfg.other_sections[0]
        raw = _ini_sections(_read(ctx.root / cfg.rel) or "").get(section, {})
        lost = {k: v[0] for k, v in raw.items() if k != "__line__"}
        missed = _collected_only_with(ctx, lost)
        declared_files = lost.get("python_files", _DEFAULTS["python_files"])
        names = ", ".join(lost) or "nothing"
        ctx.issues.append(SuiteIssue(
            NON_COLLECTABLE,
            f"{cfg.rel} has a [{section}] section, which pytest ignores in a pytest.ini (it "
            f"reads only [pytest]): its settings ({names}) never apply"
            + (f"; with pytest's default patterns {_n(missed, 'test')} it means to run "
               f"(python_files = {declared_files}) are never collected" if missed else
               "; pytest still takes the file as its config (rootdir tests/) and collects "
               "the same tests with its defaults"),
            (Evidence(cfg.rel, line, f"[{section}]"),), blocking=missed > 0))
    declared = ""  # python_files of an ignored section: its files are reported there
    if cfg is not None and not cfg.options and cfg.other_sections:
        raw = _ini_sections(_read(ctx.root / cfg.rel) or "").get(cfg.other_sections[0][0], {})
        declared = raw.get("python_files", ("", 0))[0]
    files_pat = option(cfg, "python_files")
    classes_pat = option(cfg, "python_classes")
    funcs_pat = option(cfg, "python_functions")
    imported = {name.split(".")[-1] for mod in ctx.modules for name, _ in _imports(mod)}
    for mod in ctx.modules:
        fname = PurePosixPath(mod.rel).name
        if fname in ("conftest.py", "__init__.py"):
            continue
        tests, ctor = _test_defs(mod.tree, classes_pat, funcs_pat)
        lines_of_tests = [n.lineno for n in tests]
        if not matches_files(fname, files_pat):
            if tests and PurePosixPath(fname).stem not in imported and \
                    not (declared and matches_files(fname, declared)):
                ctx.issues.append(SuiteIssue(
                    NON_COLLECTABLE,
                    f"{mod.rel} defines {_n(len(tests), 'test')}, but its name does not match "
                    f"python_files ({files_pat}), so pytest never collects it",
                    (Evidence(mod.rel, lines_of_tests[0], mod.line(lines_of_tests[0])),),
                    files=(mod.rel,)))
            continue
        for cls, init, n in ctor:
            ctx.issues.append(SuiteIssue(
                NON_COLLECTABLE,
                f"test class {cls.name} in {mod.rel} has an __init__ constructor, so pytest "
                f"cannot collect it: its {n} test methods never run",
                (Evidence(mod.rel, init.lineno, mod.line(init.lineno)),),
                files=(mod.rel,)))
        if not tests and not ctor:
            runner = _script_runner(mod.tree)
            if runner is not None:
                ctx.issues.append(SuiteIssue(
                    NON_COLLECTABLE,
                    f"{mod.rel} is a script-style suite: it has no test pytest can collect "
                    f"(no function matching python_functions {funcs_pat}, no class matching "
                    f"{classes_pat}); its checks run only from {runner[1]}",
                    (Evidence(mod.rel, runner[0], mod.line(runner[0])),), files=(mod.rel,)))


def _count_tests(ctx: _Ctx, options: dict[str, str]) -> int:
    files = options.get("python_files", _DEFAULTS["python_files"])
    classes = options.get("python_classes", _DEFAULTS["python_classes"])
    funcs = options.get("python_functions", _DEFAULTS["python_functions"])
    return sum(len(_test_defs(m.tree, classes, funcs)[0]) for m in ctx.modules
               if matches_files(PurePosixPath(m.rel).name, files)
               and PurePosixPath(m.rel).name not in ("conftest.py", "__init__.py"))


def _collected_only_with(ctx: _Ctx, options: dict[str, str]) -> int:
    """How many more tests ``options`` collect than pytest's defaults."""
    return max(0, _count_tests(ctx, options) - _count_tests(ctx, {}))


def _test_defs(tree: ast.Module, classes_pat: str, funcs_pat: str
               ) -> tuple[list[ast.stmt], list[tuple[ast.ClassDef, ast.FunctionDef, int]]]:
    """Collectable test functions/methods, and test classes with ``__init__`` (with the
    number of test methods they lose)."""
    tests: list[ast.stmt] = []
    ctor: list[tuple[ast.ClassDef, ast.FunctionDef, int]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                collectable(node.name, funcs_pat):
            tests.append(node)
        elif isinstance(node, ast.ClassDef) and collectable(node.name, classes_pat):
            methods = [m for m in node.body if isinstance(m, ast.FunctionDef |
                                                          ast.AsyncFunctionDef)]
            found = [m for m in methods if collectable(m.name, funcs_pat)]
            init = next((m for m in methods if m.name == "__init__"), None)
            if init is not None and isinstance(init, ast.FunctionDef):
                if found:
                    ctor.append((node, init, len(found)))
            else:
                tests.extend(found)
    return tests, ctor


def _script_runner(tree: ast.Module) -> tuple[int, str] | None:
    """(line, description) of a ``if __name__ == "__main__"`` block or a ``main()``."""
    for node in tree.body:
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test):
            return node.lineno, 'its `if __name__ == "__main__":` block'
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "main":
            return node.lineno, "main()"
    return None


# -------------------------------------------------------------------------------- URLs


def _endpoint_segments(path: str) -> list[str]:
    return [s for s in path.strip("/").split("/") if s]


def _wild(segment: str) -> bool:
    return bool(re.fullmatch(r"\{.*\}|<.*>|:\w+|\*", segment))


def _path_known(path: str, task: Task) -> bool:
    """Whether ``path`` (holes cut off) leads to an endpoint of the README or is named in it."""
    known = path.split(_HOLE, 1)[0].split("?", 1)[0].rstrip("/")
    if not known:
        return True
    if known in (task.readme or ""):
        return True
    want = _endpoint_segments(known)
    partial = not path.split("?", 1)[0].rstrip("/").endswith(known.split("/")[-1]) or \
        _HOLE in path
    for ep in task.endpoints:
        if ep.method == "FEATURE":
            continue
        have = _endpoint_segments(ep.path)
        if len(want) > len(have):
            continue
        ok = True
        for i, seg in enumerate(want):
            last = i == len(want) - 1
            if _wild(have[i]) or seg == have[i] or (last and partial and
                                                     have[i].startswith(seg)):
                continue
            ok = False
            break
        if ok:
            return True
    return False


def _url_parts(url: str) -> tuple[str, int | None, str] | None:
    try:
        parts = urlsplit(url.replace(_HOLE, "{x}"))
        port = parts.port if _HOLE not in (parts.netloc or "") else None
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if port is None and ":" not in parts.netloc:
        port = 443 if parts.scheme == "https" else 80
    path = url.split(parts.netloc, 1)[1] if parts.netloc in url else parts.path
    return parts.hostname, port, path


def _check_urls(ctx: _Ctx) -> None:
    task = ctx.task
    bad_host: dict[str, list[Evidence]] = {}
    bad_path: dict[str, list[Evidence]] = {}
    gating: dict[str, str] = {}
    for mod in ctx.modules:
        for url, line, where, gates in _urls(mod):
            parsed = _url_parts(url)
            if parsed is None:
                continue
            host, port, path = parsed
            ev = Evidence(mod.rel, line, mod.line(line))
            shown = url.replace(_HOLE, "{…}")
            if host not in _LOCAL_HOSTS or (task.port and port and port != task.port):
                key = f"{host}:{port}" if port else host
                bad_host.setdefault(key, []).append(ev)
            elif where != "test" and not _path_known(path, task):
                key = shown.split("//", 1)[-1].split("/", 1)[-1]
                key = "/" + key.split(_HOLE, 1)[0]
                bad_path.setdefault(key, []).append(ev)
                if gates:
                    gating[key] = gates
    for key, evs in bad_host.items():
        readme = f"port {task.port}" if task.port else "no port"
        ctx.issues.append(SuiteIssue(
            UNREACHABLE_URL,
            f"the golden tests send requests to {key}, but the README gives {readme} on this "
            "machine (localhost): the harness deploys the service there, so these requests "
            "never reach it",
            tuple(evs[:MAX_EVIDENCE]) + (Evidence("README.md", None,
                                                  f"port {task.port}" if task.port else
                                                  "gives no port"),),
            files=_files(evs)))
    for key, evs in bad_path.items():
        gate = gating.get(key)
        ctx.issues.append(SuiteIssue(
            UNREACHABLE_URL,
            f"the golden suite requests {key}, a path the README never gives"
            + (f"; {gate}, so against a service built from the README alone no test runs"
               if gate else ""),
            (*evs[:MAX_EVIDENCE], Evidence("README.md", None, f"never mentions {key}")),
            files=_files(evs), blocking=gate is not None))


_APP_CLASSES = frozenset({"Flask", "FastAPI", "Starlette", "Quart", "Sanic", "Bottle"})


def _check_self_contained(ctx: _Ctx) -> None:
    """A suite that builds a web app of its own and sends no request to any URL tests that app,
    not the generated service: it passes or fails whatever the agent wrote."""
    if any(True for mod in ctx.modules for _ in _urls(mod)):
        return
    evs = [Evidence(mod.rel, node.lineno, mod.line(node.lineno))
           for mod in ctx.modules for node in ast.walk(mod.tree)
           if isinstance(node, ast.Call) and _dotted(node.func).split(".")[-1] in _APP_CLASSES]
    if evs:
        ctx.issues.append(SuiteIssue(
            SELF_CONTAINED,
            "the golden suite builds its own web app and calls it in-process, and sends no "
            "request to the deployed service: its verdict does not depend on the generated repo",
            tuple(evs[:MAX_EVIDENCE]), files=_files(evs)))


def _urls(mod: _Module) -> Iterator[tuple[str, int, str, str]]:
    """(url, line, where, gate) of every statically known http URL the module uses as a base
    URL or sends a request to. ``where`` is ``test`` inside a test function, else ``setup``;
    ``gate`` says how the fixture using it decides whether tests run (or "")."""
    env = mod.env
    seen: set[tuple[str, int]] = set()
    gates = _gating_fixtures(mod.tree)
    for owner, cls, fn in _functions(mod.tree):
        where = "test" if fn is not None and fn.name.startswith("test") and \
            not _is_fixture(fn) else "setup"
        gate = gates.get(fn.name, "") if fn is not None else ""
        local: dict[str, _Value] = {}
        if fn is not None:
            for arg in fn.args.args:
                if arg.arg in env.fixtures:
                    local[arg.arg] = env.value(env.fixtures[arg.arg])
        for node in _own_nodes(owner):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                    isinstance(node.targets[0], ast.Name) and fn is not None:
                local[node.targets[0].id] = env.value(node.value, local, cls)
            target: ast.expr | None = None
            line = 0
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in _HTTP_METHODS | {"request"}:
                idx = 1 if node.func.attr == "request" else 0
                target = node.args[idx] if len(node.args) > idx else next(
                    (k.value for k in node.keywords if k.arg == "url"), None)
                line = node.lineno
            elif (isinstance(node, ast.Assign) and fn is None) or (
                    isinstance(node, ast.Return) and fn is not None and _is_fixture(fn)):
                target = node.value
                line = node.lineno
            if target is None:
                continue
            val = env.value(target, local, cls)
            if isinstance(val, str) and re.match(r"https?://", val) and \
                    (val, line) not in seen:
                seen.add((val, line))
                yield val, line, where, gate


def _functions(tree: ast.Module) -> Iterator[
        tuple[ast.AST, str | None, ast.FunctionDef | ast.AsyncFunctionDef | None]]:
    """(node to scan, class name, function) for the module body, class bodies and every
    function (methods included)."""
    yield tree, None, None
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            yield node, node.name, None
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef):
                    yield sub, node.name, sub
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node, None, node


def _own_nodes(owner: ast.AST) -> Iterator[ast.AST]:
    """Nodes of ``owner`` in source order, not descending into nested functions or classes
    (those are scanned on their own)."""
    body = getattr(owner, "body", [])
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _gating_fixtures(tree: ast.Module) -> dict[str, str]:
    """Fixtures whose outcome decides whether tests run: ``{name: how}`` for a fixture that
    skips or fails, or feeds an autouse fixture that does."""
    fixtures = {n.name: n for n in ast.walk(tree)
                if isinstance(n, ast.FunctionDef) and _is_fixture(n)}
    out: dict[str, str] = {}

    def stops(fn: ast.FunctionDef) -> str:
        for n in ast.walk(fn):
            if isinstance(n, ast.Call) and _dotted(n.func) in ("pytest.skip", "pytest.fail",
                                                                "pytest.exit"):
                return _dotted(n.func)
        return ""

    def autouse(fn: ast.FunctionDef) -> bool:
        return any(isinstance(d, ast.Call) and any(
            k.arg == "autouse" and isinstance(k.value, ast.Constant) and k.value.value
            for k in d.keywords) for d in fn.decorator_list)

    for name, fn in fixtures.items():
        how = stops(fn)
        users = [f for f in fixtures.values() if name in {a.arg for a in f.args.args}]
        auto = [f.name for f in (fn, *users) if autouse(f)]
        if how:
            out[name] = (f"fixture {name} calls {how} when it does not answer"
                         + (" and runs for every test (autouse)" if auto else ""))
        for user in users:
            if stops(user) and autouse(user):
                out[name] = (f"fixture {name} feeds the autouse fixture {user.name}, which "
                             f"calls {stops(user)} for every test when it does not answer")
    return out


__all__ = ["CAUSES", "Evidence", "SuiteAudit", "SuiteIssue", "audit_task"]
