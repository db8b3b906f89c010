"""pytest configuration and plugin registrations in a generated repo's own files.

Sections pytest reads: ``pytest.ini``/``.pytest.ini`` (any content), ``[pytest]`` in
``tox.ini``, ``[tool:pytest]`` in ``setup.cfg``, ``[tool.pytest.ini_options]`` (and pytest 9's
``[tool.pytest]``) in ``pyproject.toml``, ``[pytest]`` in ``pytest.toml``/``.pytest.toml``.
Settings that forge (the rest could merely influence the run):

* ``addopts`` with ``-p no:junitxml`` (no report), ``--junitxml``/``--junit-xml`` (the report
  written elsewhere), ``--deselect``, ``-k`` (tests left out by name), ``--ignore``/
  ``--ignore-glob`` of the tests, ``--co``/``--collect-only``/``--setup-only``/
  ``--setup-plan`` (nothing run);
* ``-p NAME`` plugins are returned so the caller can read the module when it is in the repo.

``pytest11`` entry points (pytest loads them automatically once the package is installed):
``setup.py`` (read with :mod:`ast`), ``[options.entry_points]`` in ``setup.cfg``,
``[project.entry-points.pytest11]`` and ``[tool.poetry.plugins.pytest11]`` in
``pyproject.toml``, and ``[pytest11]`` in an ``entry_points.txt`` (an ``*.egg-info`` or
``*.dist-info`` folder on ``sys.path`` registers it without installing anything).
"""

from __future__ import annotations

import ast
import configparser
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from typing import Any

from inspector.services.tamper.python_code import is_tests_path

_KILLED_PLUGINS = {"junitxml", "runner", "python", "terminal", "reports", "main", "skipping"}
_ONLY_COLLECT = {"--co", "--collect-only", "--setup-only", "--setup-plan"}


@dataclass
class PytestConfig:
    """One pytest configuration section found in a file."""

    line: int
    section: str
    options: dict[str, str]
    forges: list[tuple[int, str]] = field(default_factory=list)  # (line, what)
    plugins: list[str] = field(default_factory=list)  # -p NAME in addopts
    error: str = ""


@dataclass(frozen=True, slots=True)
class EntryPoint:
    """A ``pytest11`` entry point: ``name = module[:attr]``."""

    line: int
    name: str
    module: str


def _line_of(text: str, pattern: str) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(pattern, line.strip()):
            return i
    return 1


def _option_line(text: str, start: int, key: str) -> int:
    """The line of ``key = …`` at or after line ``start`` (``start`` if not found)."""
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*[=:]")
    for i, line in enumerate(text.splitlines()[start - 1:], start):
        if pattern.match(line):
            return i
    return start


def _section(text: str, section: str, line: int, options: dict[str, str]) -> PytestConfig:
    forges, plugins = judge_options(options)
    at = _option_line(text, line, "addopts")
    return PytestConfig(line, section, options, [(at, f) for f in forges], plugins)


class _CaseKeepingParser(configparser.ConfigParser):
    """Option names as written (ConfigParser lower-cases them by default)."""

    def optionxform(self, optionstr: str) -> str:
        return optionstr


def _ini(text: str) -> configparser.ConfigParser:
    cp = _CaseKeepingParser(interpolation=None, strict=False)
    cp.read_string(text)
    return cp


def _flatten(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def judge_options(options: dict[str, str]) -> tuple[list[str], list[str]]:
    """(what forges, ``-p`` plugins) in a section's settings."""
    forges: list[str] = []
    plugins: list[str] = []
    raw = options.get("addopts", "")
    try:
        words = shlex.split(raw)
    except ValueError:
        words = raw.split()
    i = 0
    while i < len(words):
        w = words[i]
        value = words[i + 1] if i + 1 < len(words) else ""
        flag, eq, inline = w.partition("=")
        if w == "-p" or (w.startswith("-p") and len(w) > 2 and not w.startswith("--")):
            name = value if w == "-p" else w[2:]
            i += 2 if w == "-p" else 1
            if name.startswith("no:"):
                if name[3:] in _KILLED_PLUGINS:
                    forges.append(f"addopts disables pytest's {name[3:]} plugin (-p {name})")
            elif name:
                plugins.append(name)
            continue
        if flag in ("--junitxml", "--junit-xml", "--junitprefix", "--junit-prefix"):
            forges.append(f"addopts redirects the JUnit report ({w}"
                          f"{'' if eq else ' ' + value})")
        elif flag == "--deselect":
            forges.append(f"addopts deselects tests ({w}{'' if eq else ' ' + value})")
        elif w == "-k" or (w.startswith("-k") and len(w) > 2 and not w.startswith("--")):
            forges.append(f"addopts selects tests by name ({w}{' ' + value if w == '-k' else ''})")
        elif flag in ("--ignore", "--ignore-glob"):
            target = inline if eq else value
            if is_tests_path(target) or target.rstrip("/") in ("tests", "test"):
                forges.append(f"addopts leaves the tests out ({flag} {target})")
        elif w in _ONLY_COLLECT:
            forges.append(f"addopts collects the tests without running them ({w})")
        i += 1
    return forges, plugins


def pytest_sections(name: str, text: str) -> list[PytestConfig]:
    """The pytest configuration sections a file named ``name`` holds."""
    found: list[PytestConfig] = []
    if name.endswith(".toml"):
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError) as exc:
            if name in ("pytest.toml", ".pytest.toml"):
                return [PytestConfig(1, "[pytest]", {}, error=f"unreadable TOML ({exc})")]
            return []
        tables: list[tuple[str, Any, str]] = []
        if name == "pyproject.toml":
            raw_tool = data.get("tool")
            tool = raw_tool if isinstance(raw_tool, dict) else {}
            pyt = tool.get("pytest") if isinstance(tool.get("pytest"), dict) else None
            if pyt is not None:
                ini = pyt.get("ini_options")
                if isinstance(ini, dict):
                    tables.append(("[tool.pytest.ini_options]", ini,
                                   r"\[\s*tool\.pytest\.ini_options\s*\]"))
                rest = {k: v for k, v in pyt.items() if k != "ini_options"}
                if rest or ini is None:
                    tables.append(("[tool.pytest]", rest, r"\[\s*tool\.pytest\s*\]"))
        else:
            table = data.get("pytest") if isinstance(data.get("pytest"), dict) else data
            tables.append(("[pytest]", table, r"\[\s*pytest\s*\]"))
        for section, table, pattern in tables:
            options = {str(k): _flatten(v) for k, v in table.items()}
            found.append(_section(text, section, _line_of(text, pattern), options))
        return found
    wanted = {"pytest.ini": "pytest", ".pytest.ini": "pytest", "tox.ini": "pytest",
              "setup.cfg": "tool:pytest"}.get(name)
    if wanted is None:
        return []
    try:
        cp = _ini(text)
    except configparser.Error as exc:
        if name in ("pytest.ini", ".pytest.ini"):
            first = str(exc).splitlines()[0]
            return [PytestConfig(1, "[pytest]", {}, error=f"unreadable as ini ({first})")]
        return []
    if not cp.has_section(wanted):
        if name in ("pytest.ini", ".pytest.ini"):  # pytest uses it even when empty
            return [PytestConfig(1, "a file without a [pytest]", {})]
        return []
    options = dict(cp.items(wanted))
    return [_section(text, f"[{wanted}]", _line_of(text, rf"\[\s*{re.escape(wanted)}\s*\]"),
                     options)]


def _ep_lines(lines: list[str], line: int) -> list[EntryPoint]:
    out = []
    for raw in lines:
        name, sep, target = raw.partition("=")
        if sep and target.strip():
            out.append(EntryPoint(line, name.strip(), target.strip().split(":")[0].strip()))
    return out


def _ep_in_ini(text: str, section: str, key: str | None) -> list[EntryPoint]:
    try:
        cp = _ini(text)
    except configparser.Error:
        return []
    if not cp.has_section(section):
        return []
    line = _line_of(text, rf"\[\s*{re.escape(section)}\s*\]")
    if key is None:
        return [EntryPoint(line, k, v.split(":")[0].strip()) for k, v in cp.items(section)]
    if not cp.has_option(section, key):
        return []
    return _ep_lines([x for x in cp.get(section, key).splitlines() if x.strip()],
                     _line_of(text, rf"{re.escape(key)}\s*[=:]"))


def _ep_in_setup_py(text: str) -> list[EntryPoint]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return []
    assigned: dict[str, ast.AST] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            for t in stmt.targets:
                if isinstance(t, ast.Name):
                    assigned[t.id] = stmt.value
    out: list[EntryPoint] = []

    def resolve(node: ast.AST) -> ast.AST:
        return assigned.get(node.id, node) if isinstance(node, ast.Name) else node

    def strings(node: ast.AST) -> list[str]:
        node = resolve(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return [e.value for e in node.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return []

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for kw in node.keywords:
            if kw.arg != "entry_points":
                continue
            value = resolve(kw.value)
            if isinstance(value, ast.Dict):
                for k, v in zip(value.keys, value.values, strict=True):
                    if isinstance(k, ast.Constant) and k.value == "pytest11":
                        out += _ep_lines(strings(v), v.lineno)
            elif isinstance(value, ast.Constant) and isinstance(value.value, str):
                for ep in _ep_in_ini(value.value, "pytest11", None):
                    out.append(EntryPoint(value.lineno + ep.line - 1, ep.name, ep.module))
    return out


def entry_points(name: str, text: str) -> list[EntryPoint]:
    """``pytest11`` entry points a packaging file named ``name`` declares."""
    if name == "setup.py":
        return _ep_in_setup_py(text)
    if name == "setup.cfg":
        return _ep_in_ini(text, "options.entry_points", "pytest11")
    if name == "entry_points.txt":
        return _ep_in_ini(text, "pytest11", None)
    if name == "pyproject.toml":
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError):
            return []
        out: list[EntryPoint] = []
        for path, pattern in ((("project", "entry-points", "pytest11"),
                               r"\[\s*project\.entry-points\.[\"']?pytest11"),
                              (("tool", "poetry", "plugins", "pytest11"),
                               r"\[\s*tool\.poetry\.plugins\.[\"']?pytest11")):
            node: Any = data
            for key in path:
                node = node.get(key) if isinstance(node, dict) else None
            if isinstance(node, dict):
                line = _line_of(text, pattern)
                out += [EntryPoint(line, str(k), str(v).split(":")[0].strip())
                        for k, v in node.items()]
        return out
    return []
