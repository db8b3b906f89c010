"""Scan a generated repo for what could reach into its own golden test run.

Reported (kind, and when a finding is **deliberate**):

* ``root_conftest`` / ``conftest``: a ``conftest.py`` at the repo root / anywhere else;
  deliberate when it forges (see :mod:`.python_code` for the hooks and patches checked);
* ``pytest_config``: a pytest configuration section (see :mod:`.config`) at the repo root or in
  its ``tests/`` folder; deliberate when its ``addopts`` forge, or a ``-p`` plugin it loads
  from the repo forges;
* ``pytest_plugin``: a ``pytest11`` entry point or a ``pytest_plugins`` declaration; deliberate
  when the plugin module, found in the repo, forges;
* ``sitecustomize``: a ``sitecustomize.py``/``usercustomize.py`` anywhere; deliberate when it
  imports pytest/pluggy or forges;
* ``pth_file``: a ``.pth`` file; deliberate when an executable line names pytest, pluggy,
  conftest or the tests;
* ``start_script``: ``start.sh`` (or a script it runs, or inline Python it runs) writing into the
  tests or onto a test report; always deliberate;
* ``plugin_injection``: any other repo module reaching pytest's live machinery (walking ``gc``
  or frames to it, registering hooks or plugins, patching reports; :mod:`.reach`); deliberate;
* ``hidden_payload``: any repo module running decoded or disguised code (``exec`` of a base64
  payload, builtins fetched by a computed name, …; :mod:`.reach`); deliberate;
* ``shadowing_module``: a module or package at the repo root (or ``src/``) named like something
  the test runner's libraries import when present (:mod:`.shadowing`); deliberate;
* a Java repo's Maven/Surefire/JUnit settings that skip, ignore, leave out or re-route the
  golden tests (``maven_*``, ``junit_*``; :mod:`.java`): in effect in the golden run, unlike the
  Python ones, except what the harness replaces (the repo's ``src/test``).

The walk is bounded: vendored and virtual-env folders are skipped, only regular files are read
(a symlink with one of these names is reported, never followed), files above
``MAX_FILE_BYTES`` are named but not parsed, and at most ``MAX_ENTRIES`` entries are visited.
The golden tests themselves (a file identical to the task's own under ``tests/``) are not
findings.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from inspector.model.repo.tampering import TamperFinding
from inspector.services.tamper.config import EntryPoint, entry_points, pytest_sections
from inspector.services.tamper.java import JavaFiles, java_findings
from inspector.services.tamper.python_code import (
    Forgery,
    PythonReport,
    analyse_python,
    is_tests_path,
)
from inspector.services.tamper.reach import analyse_reach, family
from inspector.services.tamper.shadowing import shadowing_findings
from inspector.services.tamper.shell import analyse_shell

KEPT_OUT = "could influence the test run; kept out"
FORGES = "an attempt to forge the test outcome; kept out of the golden run, the verdict stands"
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".mypy_cache",
                       ".pytest_cache", ".ruff_cache", ".tox", ".nox", "venv", ".venv",
                       ".idea", ".vscode", "target", ".gradle"})
CONFIG_FILES = frozenset({"pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg",
                          "pyproject.toml", "pytest.toml", ".pytest.toml"})
PACKAGING_FILES = frozenset({"setup.py", "setup.cfg", "pyproject.toml", "entry_points.txt"})
SITE_FILES = frozenset({"sitecustomize.py", "usercustomize.py"})
START_SCRIPTS = ("start.sh",)
MAX_FILE_BYTES = 256 * 1024
MAX_PARSED_BYTES = 2 * 1024 * 1024  # Python read with ast per repo
MAX_REACH_BYTES = 8 * 1024 * 1024  # every repo module, read for reach-ins and hidden payloads
MAX_ENTRIES = 20_000
MAX_DEPTH = 24
MAX_READ_BYTES = 32 * 1024 * 1024
MAX_SCRIPT_DEPTH = 4
MAX_REASONS = 6


@dataclass
class _Walk:
    conftests: list[str] = field(default_factory=list)
    configs: list[str] = field(default_factory=list)
    packaging: list[str] = field(default_factory=list)
    site: list[str] = field(default_factory=list)
    pth: list[str] = field(default_factory=list)
    python: list[str] = field(default_factory=list)
    symlinks: list[tuple[str, str]] = field(default_factory=list)  # rel, target
    java: JavaFiles = field(default_factory=JavaFiles)  # what the Maven scan reads
    truncated: bool = False


def _on_test_path(rel: str) -> bool:
    """Config in these folders applies to ``pytest tests``: the root and tests/ itself."""
    parent = rel.rpartition("/")[0]
    return parent in ("", "tests", "test")


def _walk(repo: Path) -> _Walk:
    found = _Walk()
    seen = 0
    stack: list[tuple[str, int]] = [("", 0)]
    while stack:
        rel_dir, depth = stack.pop()
        folder = repo / rel_dir if rel_dir else repo
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        if rel_dir and any(e.name == "pyvenv.cfg" for e in entries):
            continue  # a virtualenv
        subdirs = []
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES:
                found.truncated = True
                return found
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            name = entry.name
            try:
                if entry.is_symlink():
                    if found.java.wanted(rel):
                        found.java.symlinks.append((rel, _link_target(entry.path)))
                    elif _interesting(name, rel):
                        found.symlinks.append((rel, _link_target(entry.path)))
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if name not in SKIP_DIRS and depth < MAX_DEPTH:
                        subdirs.append((rel, depth + 1))
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue
            except OSError:
                continue
            if name == "conftest.py":
                found.conftests.append(rel)
            if name in CONFIG_FILES and _on_test_path(rel):
                found.configs.append(rel)
            if name in PACKAGING_FILES:
                found.packaging.append(rel)
            if name in SITE_FILES:
                found.site.append(rel)
            if name.endswith(".pth"):
                found.pth.append(rel)
            if name.endswith(".py"):
                found.python.append(rel)
            found.java.add(rel)
        stack.extend(reversed(subdirs))
    return found


def _interesting(name: str, rel: str) -> bool:
    return (name == "conftest.py" or name in SITE_FILES or name.endswith(".pth")
            or (name in CONFIG_FILES and _on_test_path(rel)) or name == "entry_points.txt"
            or (rel in START_SCRIPTS))


def _link_target(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"


class _Scanner:
    def __init__(self, repo: Path, golden_tests: Path | None,
                 shadow_names: frozenset[str] | None = None,
                 site_packages: Path | None = None) -> None:
        self.repo = repo
        self.golden = golden_tests
        self.shadow_names = shadow_names
        self.site_packages = site_packages
        self.reach_parsed = 0
        self._reach: dict[str, list[tuple[int, str]]] = {}
        self._plugins: set[str] = set()  # modules the repo declares as pytest plugins
        self.read_bytes = 0
        self.parsed = 0
        self.findings: list[TamperFinding] = []
        self._python: dict[str, PythonReport | None] = {}
        self._modules: set[str] = set()

    # ------------------------------------------------------------------ reading

    def text(self, rel: str) -> str | None:
        """The file's text, or None when it is not a regular file in the repo, too big, or
        the read budget is spent."""
        path = self.repo / rel
        try:
            st = path.lstat()
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
            return None
        if self.read_bytes + st.st_size > MAX_READ_BYTES:
            return None
        try:
            with path.open("rb") as fh:
                data = fh.read(MAX_FILE_BYTES + 1)
        except OSError:
            return None
        self.read_bytes += len(data)
        return data.decode("utf-8", errors="replace")

    def too_big(self, rel: str) -> bool:
        try:
            return (self.repo / rel).lstat().st_size > MAX_FILE_BYTES
        except OSError:
            return False

    def python(self, rel: str, strict: bool = True) -> PythonReport | None:
        """The file's analysis; None when it cannot be read or the parse budget is spent."""
        key = f"{rel}\0{strict}"
        if key not in self._python:
            text = self.text(rel)
            if text is not None and self.parsed + len(text) <= MAX_PARSED_BYTES:
                self.parsed += len(text)
                self._python[key] = analyse_python(text, strict)
            else:
                self._python[key] = None
        return self._python[key]

    def is_golden(self, rel: str) -> bool:
        if self.golden is None or not rel.startswith("tests/"):
            return False
        own = self.golden / rel.removeprefix("tests/")
        try:
            if not own.is_file() or own.is_symlink():
                return False
            return own.read_bytes() == (self.repo / rel).read_bytes()
        except OSError:
            return False

    def reach(self, rel: str) -> list[tuple[int, str]]:
        """:func:`.reach.analyse_reach` of a repo module (within the reach budget)."""
        if rel not in self._reach:
            text = self.text(rel)
            found: list[tuple[int, str]] = []
            if text is not None and self.reach_parsed + len(text) <= MAX_REACH_BYTES:
                self.reach_parsed += len(text)
                found = analyse_reach(text, _test_module(rel))
            self._reach[rel] = found
        return self._reach[rel]

    def reach_ins(self, rel: str) -> None:
        """Findings for a repo module that reaches into the test process or hides code."""
        by_kind: dict[str, list[str]] = {}
        for line, what in self.reach(rel):
            if rel in self._plugins and _HOOKISH.search(what):
                continue  # a declared plugin's hooks: judged by its pytest_plugin finding
            by_kind.setdefault(family(what), []).append(f"{rel}:{line}: {what}")
        for kind, reasons in by_kind.items():
            self.add(kind, rel, _joined(reasons) + f" — {FORGES}", True)

    def describe(self, rel: str) -> list[str]:
        """What a shadowing module does: its reach-ins and forgeries."""
        reasons = [f"{rel}:{line}: {what}" for line, what in self.reach(rel)]
        report = self.python(rel)
        return reasons + ([] if report is None else _reasons(rel, report))

    def add(self, kind: str, rel: str, detail: str, deliberate: bool = False) -> None:
        self.findings.append(TamperFinding(kind, rel, detail, deliberate))

    # ------------------------------------------------------------------ plugins

    def module_file(self, module: str) -> str | None:
        base = module.replace(".", "/")
        for cand in (f"{base}.py", f"{base}/__init__.py", f"src/{base}.py",
                     f"src/{base}/__init__.py"):
            if cand in self._modules:
                return cand
        return None

    def plugin_forgeries(self, module: str) -> list[str]:
        rel = self.module_file(module)
        if rel is None:
            return []
        self._plugins.add(rel)
        report = self.python(rel)
        return [] if report is None else _reasons(rel, report)

    # ------------------------------------------------------------------ the checks

    def conftest(self, rel: str) -> None:
        kind = "root_conftest" if rel == "conftest.py" else "conftest"
        if self.too_big(rel):
            self.add(kind, rel, f"{rel}: a conftest.py too large to read "
                                f"(over {MAX_FILE_BYTES // 1024} KiB); {KEPT_OUT}")
            return
        report = self.python(rel)
        if report is None:
            self.add(kind, rel, f"{rel}: a conftest.py that could not be read or analysed; "
                                f"{KEPT_OUT}")
            return
        reasons = _reasons(rel, report)
        for line, name in report.pytest_plugins:
            reasons += [f"{r} (plugin {name} declared at {rel}:{line})"
                        for r in self.plugin_forgeries(name)]
        if reasons:
            self.add(kind, rel, _joined(reasons) + f" — {FORGES}", True)
            return
        what = "a conftest.py"
        if report.hooks:
            what += " defining " + ", ".join(f"{n} ({rel}:{line})" for n, line in
                                             report.hooks[:MAX_REASONS])
        if report.pytest_plugins:
            what += "; pytest_plugins = " + ", ".join(n for _, n in report.pytest_plugins)
        if report.error:
            what += f" ({report.error})"
        where = "" if rel == "conftest.py" or rel.startswith("tests/") else \
            " (pytest loads it only when collecting its folder)"
        self.add(kind, rel, f"{rel}: {what}{where}; {KEPT_OUT}")

    def config(self, rel: str) -> None:
        name = rel.rsplit("/", 1)[-1]
        text = self.text(rel)
        if text is None:
            if name in ("pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml"):
                self.add("pytest_config", rel, f"{rel}: a pytest configuration file that "
                                               f"could not be read; {KEPT_OUT}")
            return
        for section in pytest_sections(name, text):
            where = f"{rel}:{section.line}"
            reasons = [f"{rel}:{line}: {f}" for line, f in section.forges]
            for plugin in section.plugins:
                reasons += [f"{r} (plugin {plugin} loaded by {where})"
                            for r in self.plugin_forgeries(plugin)]
            if reasons:
                self.add("pytest_config", rel, _joined(reasons) + f" — {FORGES}", True)
                continue
            if section.error:
                summary = section.error
            elif section.options:
                summary = ", ".join(f"{k} = {_short(v)}" for k, v in
                                    list(section.options.items())[:MAX_REASONS])
            else:
                summary = "no settings"
            self.add("pytest_config", rel, f"{where}: {section.section} section ({summary}); "
                                           f"{KEPT_OUT}")

    def packaging(self, rel: str) -> None:
        name = rel.rsplit("/", 1)[-1]
        text = self.text(rel)
        if text is None:
            return
        for ep in entry_points(name, text):
            self.entry_point(rel, ep)

    def entry_point(self, rel: str, ep: EntryPoint) -> None:
        where = f"{rel}:{ep.line}"
        reasons = self.plugin_forgeries(ep.module)
        auto = " (on sys.path, so pytest loads it without an install)" \
            if rel.rsplit("/", 1)[-1] == "entry_points.txt" else \
            " (pytest loads it automatically once the package is installed)"
        head = f"{where}: pytest11 entry point '{ep.name} = {ep.module}' registers a plugin"
        if reasons:
            self.add("pytest_plugin", rel, f"{head}; " + _joined(reasons) + f" — {FORGES}",
                     True)
        else:
            self.add("pytest_plugin", rel, f"{head}{auto}; {KEPT_OUT}")

    def pytest_plugins(self, rel: str) -> None:
        """``pytest_plugins`` declared outside a conftest (a test module or a plugin)."""
        text = self.text(rel)
        if text is None or "pytest_plugins" not in text:
            return
        report = self.python(rel)
        if report is None or not report.pytest_plugins:
            return
        reasons: list[str] = []
        for _, name in report.pytest_plugins:
            reasons += self.plugin_forgeries(name)
        line = report.pytest_plugins[0][0]
        names = ", ".join(n for _, n in report.pytest_plugins)
        head = f"{rel}:{line}: pytest_plugins = {names} loads plugins"
        if reasons:
            self.add("pytest_plugin", rel, f"{head}; " + _joined(reasons) + f" — {FORGES}",
                     True)
        else:
            self.add("pytest_plugin", rel, f"{head}; {KEPT_OUT}")

    def sitecustomize(self, rel: str) -> None:
        report = self.python(rel)
        runs = (f"{rel}: runs at every Python start-up once its folder is on sys.path")
        if report is None:
            self.add("sitecustomize", rel, f"{runs} (not readable); {KEPT_OUT}")
            return
        reasons = _reasons(rel, report)
        reasons += [f"{rel}:{line}: imports pytest's machinery at interpreter start-up"
                    for line in report.imports_pytest[:1]]
        if reasons:
            self.add("sitecustomize", rel, f"{runs}; " + _joined(reasons) + f" — {FORGES}",
                     True)
        else:
            self.add("sitecustomize", rel, f"{runs}; {KEPT_OUT}")

    def pth(self, rel: str) -> None:
        text = self.text(rel)
        if text is None:
            self.add("pth_file", rel, f"{rel}: a .pth file (not readable); {KEPT_OUT}")
            return
        lines = [(i, ln.strip()) for i, ln in enumerate(text.splitlines(), 1) if ln.strip()
                 and not ln.lstrip().startswith("#")]
        code = [(i, ln) for i, ln in lines if ln.startswith(("import ", "import\t"))]
        suspicious = [(i, ln) for i, ln in code
                      if any(w in ln for w in ("pytest", "pluggy", "conftest", "junit",
                                               "tests"))]
        head = (f"{rel}: a .pth file ({len(lines) - len(code)} path line(s), {len(code)} "
                "executable line(s) Python runs at start-up from site-packages)")
        if suspicious:
            reasons = [f"{rel}:{i}: runs {_short(ln)}" for i, ln in suspicious]
            self.add("pth_file", rel, f"{head}; " + _joined(reasons) + f" — {FORGES}", True)
        else:
            self.add("pth_file", rel, f"{head}; {KEPT_OUT}")

    def start_script(self, rel: str) -> None:
        reasons: list[str] = []
        self._script(rel, "shell", reasons, set(), 0)
        if reasons:
            self.add("start_script", rel, _joined(reasons) + " — writes into the golden "
                     "tests or the test report; kept out of the golden run, the verdict stands",
                     True)

    def _script(self, rel: str, kind: str, reasons: list[str], seen: set[str],
                depth: int) -> None:
        if rel in seen or depth > MAX_SCRIPT_DEPTH:
            return
        seen.add(rel)
        text = self.text(rel)
        if text is None:
            return
        if kind == "shell":
            self._shell(rel, text, 0, reasons, seen, depth)
        else:
            report = self.python(rel, strict=False)
            if report is not None:
                self._python_script(rel, report, 0, reasons, seen, depth)

    def _shell(self, rel: str, text: str, offset: int, reasons: list[str], seen: set[str],
               depth: int) -> None:
        report = analyse_shell(text, offset)
        reasons += [f"{rel}:{w.line}: {w.what}" for w in report.writes]
        for line, code in report.python:
            self._python_script(rel, analyse_python(code, strict=False), line - 1, reasons,
                                seen, depth, inline=True)
        for line, code in report.shell:
            if depth < MAX_SCRIPT_DEPTH:
                self._shell(rel, code, line - 1, reasons, seen, depth + 1)
        for line, kind, target in report.scripts:
            script = self._resolve_script(rel, kind, target)
            if script is not None:
                found: list[str] = []
                self._script(script, "python" if kind in ("python", "module") else "shell",
                             found, seen, depth + 1)
                reasons += [f"{r} (run by {rel}:{line})" for r in found]

    def _python_script(self, rel: str, report: PythonReport, offset: int, reasons: list[str],
                       seen: set[str], depth: int, inline: bool = False) -> None:
        for f in (*report.forgeries, *report.writes):
            reasons.append(f"{rel}:{f.line + offset}: {f.what}")
        for line, command in report.shell:
            if depth < MAX_SCRIPT_DEPTH:
                self._shell(rel, command, line + offset - 1, reasons, seen, depth + 1)

    def _resolve_script(self, rel: str, kind: str, target: str) -> str | None:
        if kind == "module":
            return self.module_file(target)
        if "$" in target or "\0" in target:
            return None
        target = target.removeprefix("./")
        if target.startswith("/") or ".." in target.split("/"):
            return None
        here = rel.rpartition("/")[0]
        for cand in (target, f"{here}/{target}" if here else target):
            try:
                path = (self.repo / cand)
                if path.is_file() and not path.is_symlink():
                    return cand
            except OSError:
                continue
        return None

    # ------------------------------------------------------------------ all of it

    def run(self) -> list[TamperFinding]:
        walk = _walk(self.repo)
        self._modules = set(walk.python)
        for rel, target in walk.symlinks:
            name = rel.rsplit("/", 1)[-1]
            kind = ("root_conftest" if rel == "conftest.py" else "conftest"
                    if name == "conftest.py" else "sitecustomize" if name in SITE_FILES
                    else "pth_file" if name.endswith(".pth") else "start_script"
                    if rel in START_SCRIPTS else "pytest_config" if name in CONFIG_FILES
                    else "pytest_plugin")
            self.add(kind, rel, f"{rel}: a symlink to {target} (not followed); {KEPT_OUT}")
        for rel in walk.conftests:
            if not self.is_golden(rel):
                self.conftest(rel)
        for rel in walk.configs:
            if not self.is_golden(rel):
                self.config(rel)
        for rel in walk.packaging:
            self.packaging(rel)
        conftests = set(walk.conftests)
        for rel in walk.python:
            if rel not in conftests and not self.is_golden(rel):
                self.pytest_plugins(rel)
        for rel in walk.site:
            self.sitecustomize(rel)
        for rel in walk.pth:
            self.pth(rel)
        for rel in START_SCRIPTS:
            path = self.repo / rel
            if path.is_file() and not path.is_symlink():
                self.start_script(rel)
        site = set(walk.site)
        for rel in walk.python:
            if rel not in conftests and rel not in site and not self.is_golden(rel):
                self.reach_ins(rel)
        self.findings += shadowing_findings(self.repo, self.shadow_names, self.site_packages,
                                            self.describe)
        self.findings += java_findings(walk.java, self.golden, self.text)
        return self.findings


def _reasons(rel: str, report: PythonReport) -> list[str]:
    items: list[Forgery] = [*report.forgeries, *report.writes]
    return [f"{rel}:{f.line}: {f.what}" for f in sorted(items, key=lambda f: f.line)]


def _joined(reasons: list[str]) -> str:
    unique = list(dict.fromkeys(reasons))
    shown = "; ".join(unique[:MAX_REASONS])
    more = len(unique) - MAX_REASONS
    return shown + (f"; and {more} more" if more > 0 else "")


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


_HOOKISH = re.compile(r"^(defines|names|installs) the pytest hook|^marks .* as a pytest hook|"
                      r"^uses pytest's hook marker")


def _test_module(rel: str) -> bool:
    """The repo's own test code (``tests/…``, ``test_*.py``, ``*_test.py``)."""
    return is_tests_path(rel) or rel.split("/")[0] in ("tests", "test")


def scan_repo(repo: Path, golden_tests: Path | None = None,
              shadow_names: frozenset[str] | None = None,
              site_packages: Path | None = None) -> list[TamperFinding]:
    """Everything in ``repo`` that could influence (or forge) its own golden test run.

    ``golden_tests`` is the task's ``tests/`` folder: repo files identical to it are not
    reported. ``shadow_names``: module names the test runner's environment could import
    (default: :func:`.shadowing.optional_imports` of ``site_packages``, else of this
    interpreter). Never raises for the repo's content; an unreadable repo gives no findings."""
    try:
        if not repo.is_dir():
            return []
    except OSError:
        return []
    return _Scanner(repo, golden_tests, shadow_names, site_packages).run()
