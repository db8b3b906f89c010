"""How far a golden suite may reach into the generated repo, and what may never shadow the runner.

A black-box suite talks HTTP only; a white-box suite imports the service. The stock harness runs
both from the repo root with the repo's environment, so a module at the root whose name a test
library tries as an optional import (``requests`` tries ``chardet``, ``urllib3`` tries
``brotli``) is imported *inside pytest* and can forge the results. Here the suite's own imports
decide its reach (:func:`classify`):

* ``black-box``: every name the suite imports is its own, the standard library's or the test
  runner's base (pytest, the HTTP clients and what they require): the runner gets **no path**
  to the repo, its code never runs in the test process;
* ``libraries``: the suite imports other libraries (the ``flask`` task builds a Flask app of its
  own; a task's test requirement such as ``jsonschema``): the repo environment's site-packages
  stand behind the runner's (as in the stock single image), never the repo root;
* ``white-box``: the suite imports a module of the repo (``from app.models import Quote``): the
  repo root too, as in a stock run.

Whatever the reach, a name the runner's base could import — a module it provides, or one its
code imports (found by :data:`SCAN`, statically, over that environment: not a hand list) —
never resolves into the repo for an import made by the runner's own code (the golden runner's
finder, :mod:`.golden`), and a white-box suite whose repo root holds a module by such a name is
refused (:func:`shadowing`), at staging and again after ``start.sh`` ran.
"""

from __future__ import annotations

import ast
import inspect
import json
import os
import subprocess
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model.repo.tampering import TamperFinding
from inspector.services.repo.pymodules import KNOWN_THIRD_PARTY, is_stdlib

BLACK_BOX, LIBRARIES, WHITE_BOX = "black-box", "libraries", "white-box"
NAMES_FILE = "gi-runner-names.json"  # the scan's result, kept with (or beside) the runner env
SHADOWING = "shadowing_refused"  # the tamper scan's own kind for such a file: shadowing_module
# The runner's base: what every golden run uses (the HTTP clients and pytest), with everything
# they require. A task's own test requirements (pandas, jsonschema) and a remedy's packages are
# not part of it.
BASE_DISTRIBUTIONS = ("pytest", "requests", "httpx")

# Run by the runner environment's own interpreter (``python -I -c SCAN BASE SITE_PACKAGES...``;
# BASE comma-separated distribution names): prints as JSON {"provides": [top-level names
# importable from those folders], "base": [top-level names of the base distributions and every
# distribution they require], "imports": [top-level names the base's code imports]}.
# Self-contained: it also runs inside the runner image at build time.
SCAN = r"""
import ast, json, os, re, sys
from importlib.metadata import PackageNotFoundError, distribution
TOP_LEVEL = re.compile(rb"^(?:import|from)[ \t]+([A-Za-z_][A-Za-z0-9_]*)", re.M)
NESTED = re.compile(rb"^[ \t]+(?:import|from)[ \t]|import_module|__import__|importorskip|find_spec",
                    re.M)
SUFFIXES = (".py", ".pyc", ".so", ".pyd")
provides, base, imports = set(), set(), set()
def top(name):
    head = name.split(".")[0]
    return head if head.isidentifier() else None
def scan_file(path):
    # module-level imports by a line match; the file is parsed only when it imports elsewhere
    # (in a try block, a function: where optional imports are), which most files do not
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return
    imports.update(m.decode() for m in TOP_LEVEL.findall(data))
    if not NESTED.search(data):
        return
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports.update(filter(None, (top(a.name) for a in node.names)))
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            imports.update(filter(None, [top(node.module)]))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            fn = node.func
            called = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
            if called in ("import_module", "__import__", "importorskip", "find_spec",
                          "find_module", "load_module"):
                imports.update(filter(None, [top(node.args[0].value)]))
for folder in sys.argv[2:]:
    try:
        entries = os.listdir(folder)
    except OSError:
        continue
    for entry in entries:
        name = entry.split(".")[0]
        if not name.isidentifier() or entry.endswith((".dist-info", ".egg-info", ".pth")):
            continue
        if entry == name or entry.endswith(SUFFIXES):
            provides.add(name)
todo, seen = [n for n in sys.argv[1].split(",") if n], set()
while todo:
    wanted = todo.pop()
    key = re.sub(r"[-_.]+", "-", wanted).lower()
    if key in seen:
        continue
    seen.add(key)
    try:
        dist = distribution(wanted)
    except (PackageNotFoundError, ValueError):
        continue
    for req in dist.requires or ():
        if "extra ==" not in req:
            todo.append(re.split(r"[\s;<>=!~\[(]", req.strip(), maxsplit=1)[0])
    for rel in dist.files or ():
        parts = rel.parts
        if not parts or parts[0] == ".." or parts[0].endswith((".dist-info", ".data")):
            continue
        name = parts[0].split(".")[0]
        if name.isidentifier() and not name.startswith("__") and (len(parts) > 1 or
                                                               parts[0].endswith(SUFFIXES)):
            base.add(name)
        if rel.suffix == ".py":
            scan_file(str(dist.locate_file(rel)))
print(json.dumps({"provides": sorted(provides), "base": sorted(base),
                  "imports": sorted(imports)}))
"""


@dataclass(frozen=True)
class RunnerNames:
    """What the test runner's environment provides (top-level names), which of those are its
    base (:data:`BASE_DISTRIBUTIONS` and what they require) and what the base's code imports."""

    provides: frozenset[str]
    base: frozenset[str]
    imports: frozenset[str]

    @property
    def guarded(self) -> frozenset[str]:
        """Names that must never resolve into the repo for the runner's own imports: what its
        base provides or imports (``requests`` tries ``chardet``), the standard library aside."""
        return frozenset(n for n in self.base | self.imports if not is_stdlib(n))

    @classmethod
    def from_json(cls, text: str) -> RunnerNames:
        data = json.loads(text)
        if not isinstance(data, dict) or "base" not in data:
            raise ValueError("not a runner-names document")
        return cls(frozenset(map(str, data.get("provides", []))),
                   frozenset(map(str, data.get("base", []))),
                   frozenset(map(str, data.get("imports", []))))


def scan_command(python: str, site_packages: Iterable[str],
                 base: Iterable[str] = BASE_DISTRIBUTIONS) -> list[str]:
    """The command that runs :data:`SCAN` with the runner's interpreter."""
    return [python, "-I", "-c", SCAN, ",".join(base), *site_packages]


def _scan_venv(venv: Path) -> str:
    sites = [str(p) for p in sorted((venv / "lib").glob("python*/site-packages"))]
    return subprocess.run(scan_command(str(venv / "bin" / "python"), sites),
                          capture_output=True, text=True, timeout=300, check=True).stdout


def record_names(venv: Path) -> RunnerNames:
    """:data:`SCAN` of a local runner venv, written into it as :data:`NAMES_FILE` (done while
    it is built, before it is sealed: nothing a repo does can change it afterwards)."""
    out = _scan_venv(venv)
    names = RunnerNames.from_json(out)
    (venv / NAMES_FILE).write_text(out, encoding="utf-8")
    return names


_SCANNED: dict[str, RunnerNames] = {}


def runner_names(venv: Path) -> RunnerNames:
    """The names a local runner venv recorded when it was built (:func:`record_names`), or a
    scan when it has none (built before this was recorded: scanned once per process, never
    written into a sealed venv)."""
    try:
        return RunnerNames.from_json((venv / NAMES_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError, AttributeError):
        pass
    key = str(venv)
    if key not in _SCANNED:
        _SCANNED[key] = RunnerNames.from_json(_scan_venv(venv))
    return _SCANNED[key]


# -- the suite's imports -------------------------------------------------------------------

_IMPORT_CALLS = ("import_module", "__import__", "importorskip")


def suite_imports(tests_dir: Path | None) -> dict[str, str]:
    """Top-level names the suite's Python files import (statically; ``importlib.import_module``
    and ``pytest.importorskip`` of a literal too) -> the dotted name first seen for each."""
    out: dict[str, str] = {}
    for path in _py_files(tests_dir):
        try:
            tree = ast.parse(path.read_bytes())
        except (OSError, SyntaxError, ValueError, RecursionError):
            continue
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            elif isinstance(node, ast.Call) and node.args and \
                    isinstance(node.args[0], ast.Constant) and \
                    isinstance(node.args[0].value, str):
                fn = node.func
                called = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                if called in _IMPORT_CALLS:
                    names = [node.args[0].value]
            for name in names:
                head = name.split(".")[0]
                if head.isidentifier():
                    out.setdefault(head, name)
    return out


def suite_own_names(tests_dir: Path | None) -> set[str]:
    """Names the suite's own files and folders import as (``tests``, ``conftest``, helper
    modules next to the tests, wherever pytest may put them on ``sys.path``)."""
    names = {"tests", "conftest"}
    if tests_dir is None:
        return names
    for _folder, dirs, files in os.walk(tests_dir):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", ".pytest_cache")]
        names.update(d for d in dirs if d.isidentifier())
        names.update(f[:-3] for f in files if f.endswith(".py") and f[:-3].isidentifier())
    return names


def _py_files(tests_dir: Path | None) -> list[Path]:
    if tests_dir is None or not tests_dir.is_dir():
        return []
    out = []
    for folder, dirs, files in os.walk(tests_dir):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", ".pytest_cache"))
        out += [Path(folder) / f for f in sorted(files) if f.endswith(".py")]
    return out


def module_names(entries: Iterable[str]) -> set[str]:
    """Top-level import names that a folder's entries (file and folder names) provide: ``x.py``,
    ``x.cpython-311-x86_64-linux-gnu.so``, ``x.pyc``, a folder ``x`` (a package, or a namespace
    package: any folder is importable), ``x.pth`` (read by ``site``)."""
    out = set()
    for entry in entries:
        head, dot, _ = entry.partition(".")
        if not head.isidentifier() or head.startswith("__"):
            continue
        if not dot or entry.endswith((".py", ".pyc", ".so", ".pyd", ".pth")):
            out.add(head)
    return out


# -- the decision --------------------------------------------------------------------------

@dataclass(frozen=True)
class Reach:
    """What the golden runner may import from the repo: ``kind`` (see the module doc),
    ``white_box`` (the repo's modules the suite imports), ``libraries`` (names it needs from the
    repo's environment), ``preload`` (names of the runner's base it imports: loaded before the
    repo is importable) and ``guarded`` (never resolved into the repo for the runner's own code)."""

    kind: str
    white_box: tuple[str, ...] = ()
    libraries: tuple[str, ...] = ()
    preload: tuple[str, ...] = ()
    guarded: frozenset[str] = field(default_factory=frozenset)

    @property
    def root(self) -> bool:
        return self.kind == WHITE_BOX

    @property
    def site_packages(self) -> bool:
        return self.kind != BLACK_BOX

    def describe(self) -> str:
        if self.kind == BLACK_BOX:
            return ("black-box suite (it imports nothing of the repo's): the test runner gets no "
                    "path to the repo or its environment")
        if self.kind == LIBRARIES:
            return (f"the suite imports {', '.join(self.libraries)} (the test runner's where it "
                    "has them): the repo environment's site-packages stand behind them, not the "
                    "repo root; nothing the runner's base imports resolves there")
        return (f"white-box suite (imports {', '.join(self.white_box)}): the repo root and its "
                "environment are importable after the runner's own libraries, nothing the test "
                "runner itself imports resolves there")

    def plan(self) -> dict[str, object]:
        """The part of the golden runner's plan this decides (:func:`.golden.runner_command`)."""
        return {"preload": list(self.preload), "guarded": sorted(self.guarded),
                "lib_only": list(self.libraries)}


def classify(imports: dict[str, str], own: set[str], runner: RunnerNames,
             root_entries: Iterable[str]) -> Reach:
    """The suite's reach from its imports (:func:`suite_imports`), its own names
    (:func:`suite_own_names`), the runner's names and the repo root's entries.

    A suite that imports only its own modules, the standard library and the runner's base is
    black-box. Any other name it imports is a **repo module** when the repo root has it and it
    is not a well-known library (a root ``flask.py`` never stands in for Flask), else a
    **library**: the runner's own when it has it (a task's test requirement, pandas), else the
    repo environment's; either way the repo environment stands behind it, as in the stock
    harness's single image (pandas finds the repo's ``openpyxl``).
    """
    root = module_names(root_entries)
    white, libs, preload = [], [], []
    for head in sorted(imports):
        if head in own or is_stdlib(head):
            continue
        if head in runner.base:
            preload.append(head)
        elif head in root and head not in KNOWN_THIRD_PARTY and head not in runner.provides:
            white.append(head)
        else:
            libs.append(head)
    kind = WHITE_BOX if white else LIBRARIES if libs else BLACK_BOX
    return Reach(kind, tuple(white), tuple(libs), tuple(preload), runner.guarded)


def shadowing(reach: Reach, root_entries: Iterable[str]) -> list[str]:
    """Repo-root modules a white-box suite would reach that shadow a name the runner could
    import (none for another suite: the root is not on its path)."""
    if not reach.root:
        return []
    # tests/ is the golden suite's copy, put there by the harness
    return sorted((module_names(root_entries) - {"tests"}) & reach.guarded)


def shadow_finding(names: list[str], when: str) -> TamperFinding:
    """The deliberate finding for :func:`shadowing` (``when``: staged, after start.sh)."""
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    return TamperFinding(
        SHADOWING, names[0] if len(names) == 1 else "",
        f"the repo root holds {shown} ({when}), named as a module the test runner's own "
        "libraries import; this white-box suite would import it inside pytest, so the golden "
        "run was refused", True)


@dataclass
class ShadowGuard:
    """One deployment's golden runs and what refuses them: ``reach`` (None until decided),
    the repo-root listings seen (:meth:`check`: at staging, then before each run) and the
    findings that refuse every run from then on."""

    reach: Reach | None = None
    shadowed: set[str] = field(default_factory=set)
    refusals: list[TamperFinding] = field(default_factory=list)

    def check(self, entries: Iterable[str], when: str) -> TamperFinding | None:
        """A new finding when the root (``entries``) holds a shadowing module not yet
        reported; it refuses this and every later run."""
        if self.reach is None:
            return None
        names = [n for n in shadowing(self.reach, entries) if n not in self.shadowed]
        if not names:
            return None
        self.shadowed.update(names)
        found = shadow_finding(names, when)
        self.refusals.append(found)
        return found

    def runner_args(self, root: str, site_packages: list[str]
                    ) -> tuple[str | None, list[str] | None, dict[str, object] | None]:
        """``root``, ``site_packages`` and plan for :func:`.golden.runner_command`, as far as
        the reach allows (nothing of the repo while it is undecided)."""
        reach = self.reach
        if reach is None:
            return None, None, None
        return (root if reach.root else None, site_packages if reach.site_packages else None,
                reach.plan())


def list_root(folder: str) -> list[str]:
    """The names at the top of ``folder`` that could be imported: its files, and the folders
    holding Python code within two levels (a folder of static assets, ``js/``, imports as an
    empty namespace package and runs nothing); nothing when it cannot be read. Self-contained:
    the Docker sandbox runs this very function (:func:`list_root_script`)."""
    import os

    code = (".py", ".pyc", ".so", ".pth")

    def has_code(path: str, depth: int) -> bool:
        try:
            entries = list(os.scandir(path))
        except OSError:
            return False
        for e in entries:
            try:
                is_dir = e.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if not is_dir and e.name.endswith(code):
                return True
            if depth and is_dir and has_code(e.path, depth - 1):
                return True
        return False

    def is_dir(e: os.DirEntry[str]) -> bool:
        try:
            return e.is_dir()
        except OSError:
            return False

    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    return [e.name for e in entries if not is_dir(e) or has_code(e.path, 1)]


def list_root_script() -> str:
    """:func:`list_root` as a script: ``python3 -I -S -c SCRIPT FOLDER`` prints its JSON."""
    return (textwrap.dedent(inspect.getsource(list_root))
            + "\nimport json, sys\nprint(json.dumps(list_root(sys.argv[1])))\n")


def root_entries(repo: Path) -> list[str]:
    """:func:`list_root` of a repo folder."""
    return list_root(str(repo))
