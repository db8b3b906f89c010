"""Repo modules named like something the test runner's own libraries import when it is there.

``requests`` tries ``chardet`` before its bundled fallback, ``urllib3`` and ``httpx`` try
``brotli``/``zstandard``: a ``chardet.py`` in a folder on the test process's ``sys.path`` is
imported inside pytest as soon as a test imports ``requests``, and can reach the run from there.
:func:`shadowing_findings` reports each top-level module or package of the repo (at its root and
in ``src/``) whose name is in a given set — the names the runner's environment could import,
which the harness computes from that environment. Without a set, :func:`optional_imports`
gives a fallback: the names the runner's libraries (:data:`RUNNER_ROOTS` and what they require,
as installed in a given site-packages) import inside ``try: … except ImportError`` (also
``importlib.import_module("x")`` / ``find_spec("x")`` there), read with :mod:`ast`, minus the
standard library (which always comes first on ``sys.path``).

Every such module is deliberate: nothing a service needs is served by naming a module after an
optional dependency of the test runner. What the module does (:mod:`.reach`) is named too.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import stat
import sys
import sysconfig
from collections.abc import Callable, Iterable
from pathlib import Path

from inspector.model.repo.tampering import TamperFinding

RUNNER_ROOTS = ("pytest", "requests", "httpx")
"""The golden tests' own libraries (what the stock harness installs for them)."""
FOLDERS = ("", "src")  # where a start.sh or the runner puts repo folders on sys.path
_MODULE_FILE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\.[A-Za-z0-9_-]+)*\.(py|pyc|pyw|so|pyd|pth)$")
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException",
                            "OSError", "AttributeError"})
_DYNAMIC = frozenset({"import_module", "__import__", "find_spec", "find_loader"})
_MAYBE = re.compile(r"ImportError|ModuleNotFoundError|try:\s*\n\s*(from\s+\S+\s+)?import\b|"
                    r"try:\s*\n[^\n]*(import_module|find_spec|__import__)")
_MAX_FILES = 4000
_MAX_FILE_BYTES = 1024 * 1024
_MAX_DISTS = 64


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any((t.id if isinstance(t, ast.Name) else t.attr if isinstance(t, ast.Attribute)
                else "") in _IMPORT_ERRORS for t in types)


def _optional_in(source: str) -> set[str]:
    """Top-level names ``source`` imports inside a try whose handler catches ImportError."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try) or not any(_catches_import_error(h)
                                                     for h in node.handlers):
            continue
        for stmt in node.body:
            for inner in ast.walk(stmt):
                if isinstance(inner, ast.Import):
                    names.update(a.name.split(".")[0] for a in inner.names)
                elif isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                    names.add(inner.module.split(".")[0])
                elif isinstance(inner, ast.Call) and inner.args and isinstance(
                        inner.args[0], ast.Constant) and isinstance(inner.args[0].value, str):
                    f = inner.func
                    name = f.id if isinstance(f, ast.Name) else \
                        f.attr if isinstance(f, ast.Attribute) else ""
                    if name in _DYNAMIC and not inner.args[0].value.startswith("."):
                        names.add(inner.args[0].value.split(".")[0])
    return {n for n in names if n.isidentifier()}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _dist_files(site: Path, roots: Iterable[str]) -> list[Path]:
    """The ``.py`` files of ``roots`` and everything they require, as installed in ``site``."""
    from importlib.metadata import distributions

    dists = {_norm(d.metadata["Name"] or ""): d for d in distributions(path=[str(site)])}
    todo = [_norm(r) for r in roots]
    seen: set[str] = set()
    files: list[Path] = []
    while todo and len(seen) < _MAX_DISTS:
        name = todo.pop()
        if name in seen or name not in dists:
            continue
        seen.add(name)
        dist = dists[name]
        for req in dist.requires or ():
            if "extra ==" in req:
                continue
            m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
            if m:
                todo.append(_norm(m.group(1)))
        for f in dist.files or ():
            if str(f).endswith(".py") and ".." not in f.parts:
                files.append(site / f)
    return files[:_MAX_FILES]


@functools.lru_cache(maxsize=8)
def optional_imports(site_packages: Path | None = None,
                     roots: tuple[str, ...] = RUNNER_ROOTS) -> frozenset[str]:
    """The fallback set: names the runner's libraries in ``site_packages`` (default: this
    interpreter's) import only when present, minus the standard library."""
    site = site_packages or Path(sysconfig.get_paths()["purelib"])
    names: set[str] = set()
    for path in _dist_files(site, roots):
        try:
            if path.stat().st_size > _MAX_FILE_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if _MAYBE.search(text):  # parse only files that could have one
                names |= _optional_in(text)
        except OSError:
            continue
    return frozenset(n for n in names if n not in sys.stdlib_module_names
                     and n != "__future__")


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except OSError:
        return []


def _module_name(entry: os.DirEntry[str]) -> str:
    try:
        is_dir = entry.is_dir(follow_symlinks=False)
    except OSError:
        return ""
    if is_dir or entry.is_symlink() and "." not in entry.name:
        return entry.name if entry.name.isidentifier() else ""
    m = _MODULE_FILE.match(entry.name)
    return m.group(1) if m else ""


def shadowing_findings(repo: Path, shadow_names: frozenset[str] | None = None,
                       site_packages: Path | None = None,
                       describe: Callable[[str], list[str]] | None = None
                       ) -> list[TamperFinding]:
    """A deliberate ``shadowing_module`` finding for each module or package at the repo's
    root (or ``src/``) named in ``shadow_names`` (default :func:`optional_imports` of
    ``site_packages``). ``describe(rel)`` names what a module file does (reasons, may be [])."""
    names = optional_imports(site_packages) if shadow_names is None else shadow_names
    found: list[TamperFinding] = []
    for folder in FOLDERS:
        for entry in _entries(repo / folder if folder else repo):
            name = _module_name(entry)
            if not name or name not in names:
                continue
            rel = f"{folder}/{entry.name}" if folder else entry.name
            found.append(_finding(repo, rel, name, entry, describe))
    return found


def _finding(repo: Path, rel: str, name: str, entry: os.DirEntry[str],
             describe: Callable[[str], list[str]] | None) -> TamperFinding:
    try:
        link = entry.is_symlink()
        is_dir = not link and entry.is_dir(follow_symlinks=False)
    except OSError:
        link, is_dir = False, False
    what = "package" if is_dir else "symlink (not followed)" if link else \
        "module" if rel.endswith((".py", ".pyw")) else "file"
    reasons: list[str] = []
    if describe is not None and not link:
        if is_dir:
            init = f"{rel}/__init__.py"
            try:
                is_file = stat.S_ISREG((repo / init).lstat().st_mode)
            except OSError:
                is_file = False
            if is_file:
                reasons = describe(init)
        elif rel.endswith((".py", ".pyw")):
            reasons = describe(rel)
    detail = (f"{rel}: a {what} named {name}, which the test runner's libraries import when "
              "it is importable: with the repo on the test process's sys.path it would run "
              "inside pytest")
    if reasons:
        detail += "; " + "; ".join(reasons[:6])
    return TamperFinding("shadowing_module", rel,
                         detail + " — kept out of the golden run, the verdict stands", True)
