"""Rule-based label suggestions: a failure category proposed from a failing sample's evidence.

:func:`suggest` reads what is on disk for one sample (its phase logs, its failing tests'
messages and tracebacks, the generated repository) and, when one of a short list of rules
recognises the failure, returns a :class:`~inspector.model.labels.label_file.Suggestion`: a category
of the RepoGenesis taxonomy, one sentence quoting the decisive line, the rule's stable id and
evidence anchors (log lines, repo files, tests). It is shown to annotators and never applied
by itself; when no rule fires it returns ``None`` rather than guess.

The rules, in order (the first that fires wins):

1. pip could not resolve the repo's requirements (install log or deployment message):
   ``dependency`` — or ``not-model`` when the index was unreachable (pip's output read
   closer by :mod:`.dependency_rules`: an import name given as a distribution, a name no index
   has, a pin no release matches, the requirements pip says conflict).
   Then a framework's missing optional distribution or code for another major version of a
   library, said by an exception -> ``dependency`` (:mod:`.dependency_rules`).
2. ``No module named 'X'``: the repo's own package lacks submodule X -> ``cross-file``; a
   golden test imports a module the task README never mentions -> ``not-model`` (one the
   README names -> ``other``; no README -> nothing: a golden test's own import statement is
   never the repo's cross-file error, nor in rule 3); the server
   was pointed at a module that does not exist -> ``architectural``; otherwise a third-party
   module is missing -> ``dependency``.
3. ``cannot import name 'N' from 'M'``: M is a repo module -> ``cross-file`` (N is not defined
   there; a similar name is mentioned); M is a library -> ``dependency`` (version mismatch).
4. ``NameError`` / ``AttributeError`` raised in repo code about another repo module or class
   -> ``cross-file``.
5. Framework wiring: a WSGI app served by an ASGI server (or the reverse), an app the server
   cannot load, an entry file that does not exist -> ``architectural``.
6. The deployment failed while the server listened on another port, start.sh started nothing,
   or there is no entry point -> ``architectural``.
7. (A start-up traceback in repo code that none of the above explains: no suggestion.)
8. A test's ``KeyError: 'field'`` on a response whose field name the repo's sources use ->
   ``cross-file``.
9. Several tests see created resources vanish (404 / empty lists) while POSTs succeed and the
   server logs no error -> ``architectural`` (state not kept between requests).
10. Harness problems (harness exception, test runner not installable, a golden fixture
    missing) -> ``not-model``.

A pure function of the files on disk: no network, no subprocess; logs are read up to
``MAX_LOG_BYTES`` / ``MAX_LOG_LINES`` per phase and unreadable or missing files are skipped.
"""

from __future__ import annotations

import ast
import difflib
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from inspector.model.failures.text import (
    LIBRARY_PATH,
    NO_MODULE,
    PY_FRAME,
    PYTEST_FRAME,
    SITE_PACKAGE,
)
from inspector.model.labels.label_file import Anchor, Suggestion
from inspector.model.logs.phase_logs import parse_log_line
from inspector.model.repo.generated_repo import GeneratedRepo
from inspector.model.results.outcomes import Phase
from inspector.model.results.sample import SampleResult, TestCase
from inspector.services.repo.pymodules import IMPORT_ALIASES as _IMPORT_ALIASES
from inspector.services.repo.pymodules import KNOWN_THIRD_PARTY, Requirement, parse_requirements
from inspector.services.repo.pymodules import norm_dist as _norm_dist
from inspector.services.suite.audit import SuiteAudit
from inspector.services.triage.dependency_rules import (
    install_detail,
    installed_versions,
    moved_note,
    repo_install_lines,
    rule_dependency_signs,
)

ARCHITECTURAL = "architectural"
DEPENDENCY = "dependency"
CROSS_FILE = "cross-file"
NOT_MODEL = "not-model"
OTHER = "other"

MAX_LOG_BYTES = 2 * 1024 * 1024
"""Read at most this much of each phase log."""
MAX_LOG_LINES = 20_000
"""... and at most this many of its lines."""
MAX_TEXT_CHARS = 200_000
"""Of one test's message plus traceback."""
MAX_SOURCE_BYTES = 512 * 1024
"""Repo source files larger than this are not read."""
MAX_REPO_FILES = 2_000
MAX_REPO_BYTES = 16 * 1024 * 1024
"""Repo sources read in all, per suggestion."""
MAX_PARSE_BYTES = 1024 * 1024
"""Repo sources parsed with :mod:`ast` in all; beyond it definitions are found by regex."""
MAX_FRAME_LOOKBACK = 400
"""Lines above an exception searched for its traceback frames."""
MIN_STATE_TESTS = 3
"""Rule 9 needs at least this many failing tests showing vanished resources."""
MAX_QUOTE = 200

_T = TypeVar("_T")

# --------------------------------------------------------------------------- text patterns

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_E_PREFIX = re.compile(r"^E\s+")
_EXC = re.compile(r"^(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt))"
                  r"(?::\s?(?P<msg>.*))?$")
_TB_STOP = ("Traceback", "The above exception", "During handling of the above exception")
_SECTION = re.compile(r"^(?:_{3,}|={3,}).*(?:_{3,}|={3,})$")

_CANNOT_IMPORT = re.compile(
    r"cannot import name '(?P<name>\w+)' from (?P<partial>partially initialized module )?"
    r"'(?P<mod>[\w.]+)'(?: \((?P<where>[^)]*)\))?")
_MOD_ATTR = re.compile(r"^module '(?P<mod>[\w.]+)' has no attribute '(?P<attr>\w+)'")
_OBJ_ATTR = re.compile(r"^(?:type object )?'(?P<cls>\w+)'(?: object)? has no attribute "
                       r"'(?P<attr>\w+)'")
_NAME_ERR = re.compile(r"^name '(?P<name>\w+)' is not defined")
_KEY = re.compile(r"""^(?P<q>['"])(?P<key>[^'"]{1,80})(?P=q)$""")

_PIP_NO_DIST = re.compile(r"No matching distribution found for (?P<req>\S+)")
_PIP_NO_VERSION = re.compile(r"Could not find a version that satisfies the requirement "
                             r"(?P<req>\S+)")
_PIP_CONFLICT = re.compile(r"ResolutionImpossible|conflicting dependencies|"
                           r"Cannot install .+ because these package versions have", re.I)
_PIP_BUILD = re.compile(r"Failed (?:building wheel for|to build) (?P<req>[\w.-]+)")
_PIP_NETWORK = re.compile(
    r"Temporary failure in name resolution|Network is unreachable|Could not fetch URL|"
    r"ProxyError|NewConnectionError|ConnectTimeoutError|Read timed out|Name or service not known"
    r"|SSLError|No route to host")
_PIP_INSTALLED = re.compile(r"Successfully installed (?P<pkgs>.+)")

_WSGI_ON_ASGI = re.compile(r"(?:(?P<cls>\w+)\.)?__call__\(\) missing 1 required positional "
                           r"argument: 'start_response'")
_ASGI_ON_WSGI = re.compile(r"(?:(?P<cls>\w+)\.)?__call__\(\) missing \d required positional "
                           r"arguments?: '(?:receive|send)'")
_APP_NOT_LOADABLE = re.compile(
    r"Error loading ASGI app|Failed to find attribute '\w+' in '[\w.]+'|"
    r"Failed to find (?:Flask )?application|Could not locate a Flask application|"
    r"Could not import module \"[\w.]+\"|Attribute \"\w+\" not found in module")
_NO_FILE = re.compile(r"can't open file '(?P<file>[^']+)': \[Errno 2\] No such file")
_CMD_NOT_FOUND = re.compile(r"(?P<cmd>[\w.-]+): command not found")
_SERVER_CMDS = {"uvicorn": "uvicorn", "gunicorn": "gunicorn", "hypercorn": "hypercorn",
                "flask": "flask", "waitress-serve": "waitress", "daphne": "daphne"}
_ASGI_SERVERS = ("uvicorn", "hypercorn", "daphne", "granian")
_SERVER_PKGS = ("uvicorn", "gunicorn", "hypercorn", "waitress", "daphne")

_LISTENING = (
    re.compile(r"Uvicorn running on https?://[^\s:/]+:(?P<port>\d+)"),
    re.compile(r"Running on https?://[^\s:/]+:(?P<port>\d+)"),
    re.compile(r"Listening at:? https?://[^\s:/]+:(?P<port>\d+)"),
    re.compile(r"Serving on https?://[^\s:/]+:(?P<port>\d+)"),
    re.compile(r"(?:listening|running|serving|started)\s+(?:on|at)\s+(?:port\s+)?"
               r"(?:https?://[^\s:/]+:)?(?P<port>\d{2,5})\b", re.I),
)
_EXPECTED_PORT = (re.compile(r"port (?P<port>\d+) not open"),
                  re.compile(r"127\.0\.0\.1:(?P<port>\d+) to accept"))
_NO_ENTRY = re.compile(r"No service entry point found|no start\.sh and no fallback entry point")
_EXITED = re.compile(r"process exited with code (?P<code>-?\d+)")
_SERVER_ERROR_LOG = re.compile(r"^Traceback \(most recent call last\)|Exception in ASGI "
                               r"application|^Exception on /|Internal Server Error: /")
_POST_OK = re.compile(r'"POST \S+ HTTP/[\d.]+"\s+20[01]\b')
_NOT_FOUND = re.compile(r'"(?:GET|PUT|PATCH|DELETE) \S+ HTTP/[\d.]+"\s+404\b')
_VANISHED = (re.compile(r"^assert 404 == 20\d$"), re.compile(r"^assert .+ in \[\]$"))
_HARNESS_MSG = re.compile(r"\(harness problem\)|infrastructure problem|harness exception|"
                          r"could not create virtualenv|pytest internal error|"
                          r"pytest usage error", re.I)
_FIXTURE_MISSING = re.compile(r"fixture '(?P<name>\w+)' not found")


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE - 1] + "…"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --------------------------------------------------------------------------- texts

@dataclass(frozen=True, slots=True)
class _Frame:
    path: str
    line: int
    func: str
    code: str


@dataclass(frozen=True, slots=True)
class _Exc:
    index: int  # in the text's lines
    type: str
    message: str
    frames: tuple[_Frame, ...]  # outermost first

    @property
    def text(self) -> str:
        return f"{self.type}: {self.message}" if self.message else self.type

    @property
    def innermost(self) -> _Frame | None:
        return self.frames[-1] if self.frames else None


@dataclass
class _Text:
    """Lines to read: a phase log (``phase``, with each entry's line in the file), one test's
    message and traceback (``test``), or a message without an anchor."""

    lines: list[str]
    phase: Phase | None = None
    line_nos: list[int] | None = None
    test: TestCase | None = None
    _excs: list[_Exc] | None = field(default=None, repr=False)

    def excs(self) -> list[_Exc]:
        if self._excs is None:
            self._excs = _find_exceptions(self.lines)
        return self._excs


def _find_exceptions(lines: list[str]) -> list[_Exc]:
    out: list[_Exc] = []
    for i, raw in enumerate(lines):
        m = _exception_line(raw)
        if m is None:
            continue
        out.append(_Exc(i, m.group("type"), (m.group("msg") or "").strip(),
                        _frames_before(lines, i)))
    return out


_EXC_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def _exception_line(raw: str) -> re.Match[str] | None:
    """An exception line starts at column 0 (``E   `` prefixed in pytest's output); indented
    lines are traceback frames or code."""
    if not raw or raw[0] not in _EXC_START:
        return None
    return _EXC.match(_E_PREFIX.sub("", raw.rstrip()))


def _frames_before(lines: list[str], i: int) -> tuple[_Frame, ...]:
    frames: list[_Frame] = []
    j = i - 1
    while j >= 0 and i - j <= MAX_FRAME_LOOKBACK:
        s = lines[j].strip()
        if s.startswith(_TB_STOP) or _SECTION.match(s) or s.startswith("ERROR collecting"):
            break
        if _exception_line(lines[j]):
            break  # the end of an earlier traceback
        m = PY_FRAME.match(s) or PYTEST_FRAME.match(s)
        if m:
            code = ""
            if j + 1 < i:
                nxt = lines[j + 1].strip()
                if nxt and not PY_FRAME.match(nxt) and not PYTEST_FRAME.match(nxt) \
                        and not set(nxt) <= set("^~ ") and not nxt.startswith("E "):
                    code = nxt
            frames.append(_Frame(m.group("path"), int(m.group("line")), m.group("func") or "",
                                 code))
        j -= 1
    frames.reverse()
    return tuple(frames)


def _read_log(path: Path | None) -> _Text | None:
    """The first ``MAX_LOG_BYTES`` / ``MAX_LOG_LINES`` of a phase log, or None."""
    if path is None:
        return None
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_LOG_BYTES + 1)
    except OSError:
        return None
    truncated = len(data) > MAX_LOG_BYTES
    raw_lines = data[:MAX_LOG_BYTES].split(b"\n")
    if truncated and len(raw_lines) > 1:
        raw_lines.pop()  # cut in the middle
    elif raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()
    lines: list[str] = []
    nos: list[int] = []
    for no, raw in enumerate(raw_lines[:MAX_LOG_LINES], start=1):
        text = parse_log_line(raw.decode("utf-8", errors="replace")).text
        for part in _ANSI.sub("", text).split("\n"):  # a record may hold several lines
            lines.append(part.rstrip("\r"))
            nos.append(no)
    return _Text(lines, line_nos=nos)


def log_lines(path: Path) -> list[tuple[int, str]]:
    """The lines the rules read from a phase log, each with its 1-based line in the file (a
    multi-line record gives several), so every anchor into a log counts lines the same way."""
    text = _read_log(path)
    return list(zip(text.line_nos or [], text.lines, strict=True)) if text else []


def _test_text(case: TestCase) -> _Text:
    tb = (case.traceback or "")[:MAX_TEXT_CHARS]
    msg = (case.message or "")[:MAX_TEXT_CHARS]
    lines = _ANSI.sub("", tb).splitlines()
    first = next((ln.strip() for ln in msg.splitlines() if ln.strip()), "")
    if first and first != "collection failure" and first not in tb:
        lines.extend(_ANSI.sub("", msg).splitlines())
    return _Text(lines, test=case)


# --------------------------------------------------------------------------- the repo

@dataclass(frozen=True, slots=True)
class _Def:
    name: str
    line: int
    kind: str  # class | def | var | import


def _memo(method: Callable[[_Repo, str], _T]) -> Callable[[_Repo, str], _T]:
    """Cache a whole-repo scan per argument (tracebacks repeat the same names)."""
    name = method.__name__

    def wrapper(self: _Repo, arg: str) -> _T:
        key = (name, arg)
        if key not in self._memo:
            self._memo[key] = method(self, arg)
        found: _T = self._memo[key]
        return found

    wrapper.__name__ = name
    wrapper.__doc__ = method.__doc__
    return wrapper


class _BudgetSpent(Exception):
    """A reused repository ran out of read or parse budget: the call is run again on a fresh
    one, so sharing a repository between calls never changes what a call reads."""


class _Repo(GeneratedRepo):
    """The generated repository as the rules read it: :class:`GeneratedRepo` plus sources
    read and parsed within byte budgets, module definitions and requirements."""

    def __init__(self, path: Path | None) -> None:
        super().__init__(path)
        self._text: dict[str, str | None] = {}
        self._defs: dict[str, list[_Def]] = {}
        self._trees: dict[str, ast.Module | None] = {}
        self._reqs: list[Requirement] | None = None
        self._reqs_read = False
        self._read = 0  # bytes of sources read so far
        self._parsed = 0  # ... and parsed
        self._classes: list[tuple[str, ast.ClassDef, list[str]]] | None = None
        self._memo: dict[tuple[str, str], Any] = {}
        self.reused = False  # set once a suggest() call has used it
        self.refused = False  # a budget refused a read: later calls need a fresh one

    def _spend(self) -> None:
        """A budget is exhausted: on a reused repository a fresh one could read more for
        this call (raise); on a fresh one the refusal stands, for this call only."""
        if self.reused:
            raise _BudgetSpent
        self.refused = True

    def rel_of(self, raw: str) -> str | None:
        """The repo-relative path a traceback path names, or None (see :meth:`relative`)."""
        return self.relative(raw)

    def py_files(self, limit: int = MAX_REPO_FILES) -> list[str]:
        """The repo's Python files (at most ``MAX_REPO_FILES``), outside dot-folders."""
        return super().py_files(limit)

    def text(self, rel: str) -> str | None:
        if rel not in self._text:
            content = None
            if self.is_file(rel) and self.root is not None:
                try:
                    path = self.root / rel
                    size = path.stat().st_size
                    if size <= MAX_SOURCE_BYTES and self._read + size > MAX_REPO_BYTES:
                        self._spend()
                    if size <= MAX_SOURCE_BYTES and self._read + size <= MAX_REPO_BYTES:
                        self._read += size
                        content = path.read_bytes().decode("utf-8", errors="replace")
                except OSError:
                    content = None
            self._text[rel] = content
        return self._text[rel]

    def tree(self, rel: str) -> ast.Module | None:
        if rel not in self._trees:
            src = self.text(rel)
            tree = None
            if src is not None and self._parsed + len(src) > MAX_PARSE_BYTES:
                self._spend()
            if src is not None and self._parsed + len(src) <= MAX_PARSE_BYTES:
                self._parsed += len(src)
                try:
                    tree = ast.parse(src)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    tree = None
            self._trees[rel] = tree
        return self._trees[rel]

    def defs(self, rel: str) -> list[_Def]:
        """Top-level names a module defines (classes, functions, variables, imports)."""
        if rel in self._defs:
            return self._defs[rel]
        out: list[_Def] = []
        tree = self.tree(rel)
        if tree is not None:
            for node in tree.body:
                if isinstance(node, ast.ClassDef):
                    out.append(_Def(node.name, node.lineno, "class"))
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    out.append(_Def(node.name, node.lineno, "def"))
                elif isinstance(node, ast.Assign):
                    out.extend(_Def(t.id, node.lineno, "var") for t in node.targets
                               if isinstance(t, ast.Name))
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    out.append(_Def(node.target.id, node.lineno, "var"))
                elif isinstance(node, ast.Import | ast.ImportFrom):
                    out.extend(_Def((a.asname or a.name).split(".")[0], node.lineno, "import")
                               for a in node.names if a.name != "*")
        else:
            for no, line in enumerate((self.text(rel) or "").splitlines(), start=1):
                m = re.match(r"(class|def|async def)\s+(\w+)", line)
                if m:
                    out.append(_Def(m.group(2), no, "class" if m.group(1) == "class" else "def"))
        self._defs[rel] = out
        return out

    @_memo
    def find_classes(self, name: str) -> list[tuple[str, ast.ClassDef]]:
        pat = re.compile(rf"^\s*class\s+{re.escape(name)}\b", re.M)
        out: list[tuple[str, ast.ClassDef]] = []
        for rel in self.py_files():
            src = self.text(rel)
            if not src or not pat.search(src):
                continue
            tree = self.tree(rel)
            if tree is None:
                continue
            out.extend((rel, node) for node in _classes_in(tree) if node.name == name)
        return out

    @_memo
    def find_top_level(self, name: str) -> list[tuple[str, _Def]]:
        """Modules defining ``name`` at top level (a class, function or variable)."""
        pat = re.compile(rf"^(?:(?:async\s+)?def|class)\s+{re.escape(name)}\b|"
                         rf"^{re.escape(name)}\s*[:=]", re.M)
        return [(rel, d) for rel in self.py_files() if pat.search(self.text(rel) or "")
                for d in self.defs(rel) if d.name == name and d.kind in ("class", "def", "var")]

    @_memo
    def files_using(self, word: str) -> list[tuple[str, int]]:
        """Repo sources that use ``word`` as a string key or an attribute: (file, first line)."""
        pat = re.compile(rf"""(['"]){re.escape(word)}\1|\.{re.escape(word)}\b""")
        out: list[tuple[str, int]] = []
        for rel in self.py_files():
            src = self.text(rel)
            if not src:
                continue
            m = pat.search(src)
            if m:
                out.append((rel, src.count("\n", 0, m.start()) + 1))
        return out

    def data_classes(self) -> list[tuple[str, ast.ClassDef, list[str]]]:
        """Classes with public data fields (dataclasses, models): (file, class, fields)."""
        if self._classes is None:
            found: list[tuple[str, ast.ClassDef, list[str]]] = []
            for rel in self.py_files():
                if "class " not in (self.text(rel) or ""):
                    continue
                tree = self.tree(rel)
                for node in _classes_in(tree) if tree is not None else ():
                    public = [f for f in _class_members(node)[0] if not f.startswith("_")]
                    if len(public) >= 2:
                        found.append((rel, node, public))
            self._classes = found
        return self._classes

    @_memo
    def builds_key(self, key: str) -> bool:
        """Whether some source writes ``key`` as a dict key (``"key": …``) or a keyword
        argument (``f(key=…)``); assignments to a variable or attribute do not count."""
        pat = re.compile(rf"""(['"]){re.escape(key)}\1\s*:|[(,]\s*{re.escape(key)}\s*=[^=]""")
        return any(pat.search(self.text(rel) or "") for rel in self.py_files())

    def requirements(self) -> list[Requirement] | None:
        """requirements.txt's entries, or None when the repo has none."""
        if not self._reqs_read:
            self._reqs_read = True
            src = self.text("requirements.txt") if self.is_file("requirements.txt") else None
            self._reqs = parse_requirements(src) if src is not None else None
        return self._reqs

    def requirement_for(self, module: str) -> Requirement | None:
        """The requirement that provides top-level import ``module``, if listed."""
        names = {_norm_dist(module)} | {_norm_dist(a) for a in _IMPORT_ALIASES.get(module, ())}
        return next((r for r in self.requirements() or [] if r.name in names), None)

    def start_line(self, pattern: re.Pattern[str]) -> tuple[int, str] | None:
        """The first line of start.sh matching ``pattern``."""
        src = self.text("start.sh") if self.is_file("start.sh") else None
        for no, line in enumerate((src or "").splitlines(), start=1):
            if not line.lstrip().startswith("#") and pattern.search(line):
                return no, line.strip()
        return None


def _classes_in(tree: ast.Module) -> list[ast.ClassDef]:
    """The classes of a module: top-level ones and those nested in them (not in functions)."""
    out: list[ast.ClassDef] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, ast.ClassDef):
            out.append(node)
            todo.extend(node.body)
        elif isinstance(node, ast.If | ast.Try):
            todo.extend(node.body)
    return out


def _class_members(node: ast.ClassDef) -> tuple[list[str], list[str]]:
    """(data fields, methods) of a class: annotated/assigned names and ``self.x =`` targets."""
    fields_: list[str] = []
    methods: list[str] = []
    for item in node.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            fields_.append(item.target.id)
        elif isinstance(item, ast.Assign):
            fields_.extend(t.id for t in item.targets if isinstance(t, ast.Name))
        elif isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            methods.append(item.name)
            for sub in ast.walk(item):
                targets = sub.targets if isinstance(sub, ast.Assign) else (
                    [sub.target] if isinstance(sub, ast.AnnAssign) else [])
                for t in targets:
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) \
                            and t.value.id == "self" and t.attr not in fields_:
                        fields_.append(t.attr)
    return fields_, methods


# --------------------------------------------------------------------------- context

@dataclass
class _Evidence:
    """What one pass of the rules reads: texts in order of preference, the failing tests it
    is about, and whether deployment-level rules (install, port, harness) apply."""

    texts: list[_Text]
    tests: list[TestCase]
    deployment: bool


class SampleContext:
    """What the rules read about one sample, read once and shared by every :func:`suggest`
    call about it (the sample, then each failing test): its logs, messages, tests' texts and
    the generated repository. Pass it as ``suggest(..., context=...)``."""

    def __init__(self, result: SampleResult, readme: str | None = None,
                 audit: SuiteAudit | None = None) -> None:
        self.result = result
        self.readme = readme
        self.audit = audit
        self.repo = _Repo(result.repo_path)
        self._logs: dict[Phase, _Text | None] = {}
        self._messages: list[_Text] | None = None
        self._tests: dict[str, _Text] = {}

    def is_for(self, result: SampleResult, readme: str | None,
               audit: SuiteAudit | None) -> bool:
        """Whether this context was made for this sample, README and audit."""
        return self.result is result and self.readme == readme and self.audit is audit

    def fresh_repo(self) -> None:
        """Start over on the repository (its read budgets whole again)."""
        self.repo = _Repo(self.result.repo_path)

    def test_text(self, case: TestCase) -> _Text:
        """``case``'s message and traceback as the rules read them."""
        text = self._tests.get(case.id)
        if text is None or text.test is not case:
            text = self._tests[case.id] = _test_text(case)
        return text

    def log(self, phase: Phase) -> _Text | None:
        if phase not in self._logs:
            text = _read_log(self.result.logs.get(phase)) if self.result.logs else None
            if text is not None:
                text.phase = phase
            self._logs[phase] = text
        return self._logs[phase]

    def messages(self) -> list[_Text]:
        """Deployment message, build error, harness error and phase messages (no anchors)."""
        if self._messages is None:
            r = self.result
            seen: set[str] = set()
            out: list[_Text] = []
            for msg in (r.deployment.message, r.build_error, r.error,
                        *(p.message for p in r.deployment.phases)):
                if msg and msg not in seen:
                    seen.add(msg)
                    out.append(_Text(_ANSI.sub("", msg[:MAX_TEXT_CHARS]).splitlines()))
            self._messages = out
        return list(self._messages)

    def deployment_texts(self) -> list[_Text]:
        logs = [self.log(Phase.START), self.log(Phase.HEALTH)]
        return [t for t in logs if t is not None] + self.messages()

    # ---- anchors
    def anchors(self, text: _Text, i: int) -> list[Anchor]:
        if text.phase is not None and text.line_nos is not None:
            return [Anchor.log(text.phase.value, text.line_nos[i], text.lines[i].strip())]
        if text.test is not None:
            out = [Anchor.for_test(text.test.id)]
            found = self.tests_log_anchor(text.test, text.lines[i])
            if found is not None:
                out.append(found)
            return out
        return []

    def tests_log_anchor(self, case: TestCase, line: str) -> Anchor | None:
        """The line of the tests log showing ``line`` in ``case``'s section."""
        log = self.log(Phase.TESTS)
        target = line.strip()
        if log is None or log.line_nos is None or not target:
            return None
        parts = case.id.split("::")
        names = {f" {parts[-1]} ", f" {'.'.join(parts[1:])} "} if len(parts) > 1 else set()
        start = 0
        for k, t in enumerate(log.lines):
            s = t.strip()
            if (s.startswith("_") and any(n in s for n in names)) \
                    or s == f"ERROR collecting {case.id}" \
                    or (case.file and s.startswith(f"ERROR collecting {case.file}")):
                start = k
                break
        for k in range(start, len(log.lines)):
            if log.lines[k].strip() == target:
                return Anchor.log(Phase.TESTS.value, log.line_nos[k], target)
        return None

    def frame_anchors(self, exc: _Exc, limit: int = 2) -> list[Anchor]:
        """File anchors for the innermost frames of ``exc`` that are in the repo."""
        out: list[Anchor] = []
        for fr in reversed(exc.frames):
            rel = self.repo.rel_of(fr.path)
            if rel is not None:
                out.append(Anchor.file(rel, fr.line))
                if len(out) >= limit:
                    break
        return out

    def innermost_repo_frame(self, exc: _Exc) -> tuple[str, _Frame] | None:
        for fr in reversed(exc.frames):
            rel = self.repo.rel_of(fr.path)
            if rel is not None:
                return rel, fr
        return None

    def is_golden_path(self, raw: str) -> bool:
        """A frame in the task's test suite (not the repo, not a library)."""
        p = raw.replace("\\", "/")
        if LIBRARY_PATH.search(p) or self.repo.rel_of(p) is not None:
            return False
        parts = [x for x in p.split("/") if x]
        if not parts:
            return False
        return bool({"tests", "test"} & set(parts[:-1])) or bool(
            re.match(r"^(?:test_.*|.*_test|conftest)\.py$", parts[-1]))

    def installed_version(self, package: str) -> tuple[str, Anchor | None] | None:
        """The version of ``package`` the sample's install log shows installed, with the
        line saying so (see :func:`.dependency_rules.installed_versions`)."""
        log = self.log(Phase.INSTALL)
        if log is None or log.line_nos is None:
            return None
        found = installed_versions(log.lines).get(_norm_dist(package))
        if found is None:
            return None
        ver, k = found
        return ver, Anchor.log(Phase.INSTALL.value, log.line_nos[k], log.lines[k].strip())


def _suggestion(category: str, rule: str, reason: str, anchors: Iterable[Anchor]) -> Suggestion:
    seen: set[Anchor] = set()
    uniq: list[Anchor] = []
    for a in anchors:
        if a not in seen:
            seen.add(a)
            uniq.append(a)
    return Suggestion(category, reason, rule, tuple(uniq))


def _mentioned(name: str, text: str) -> bool:
    path = name.replace(".", "/")
    return any(re.search(rf"(?<![\w./]){re.escape(c)}(?!\w)", text)
               for c in {name, path, f"{path}.py"})


def _similar(name: str, candidates: Iterable[str]) -> str | None:
    cands = sorted(set(candidates) - {name})
    match = difflib.get_close_matches(name, cands, n=1, cutoff=0.5)
    if match:
        return match[0]
    prefixed = [c for c in cands if len(os.path.commonprefix([c, name])) >= 4]
    return prefixed[0] if len(prefixed) == 1 else None


def _lib_pkg(path: str) -> str | None:
    """The installed package a library path belongs to (``…/site-packages/flask/x.py``)."""
    m = SITE_PACKAGE.search(path.replace("\\", "/"))
    return m.group("pkg") if m else None


def _short_import_error(text: str) -> str:
    """The exception line without the trailing ``(/long/path.py)``."""
    return re.sub(r"\s+\((?:/|[A-Za-z]:\\|unknown location)[^)]*\)\s*$", "", text)


# --------------------------------------------------------------------------- rules

_Rule = Callable[[SampleContext, _Evidence], Suggestion | None]


def _rule_install(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """1. pip could not resolve the repo's requirements."""
    if not ev.deployment:
        return None
    texts: list[_Text] = []
    log = ctx.log(Phase.INSTALL)
    if log is not None:
        texts.append(log)
    texts.extend(ctx.messages())
    for text in texts:
        repo_lines = repo_install_lines(text.lines)
        network = next((k for k in repo_lines if _PIP_NETWORK.search(text.lines[k])), None)
        for pattern, rule in ((_PIP_NO_DIST, "pip-no-distribution"),
                              (_PIP_NO_VERSION, "pip-no-distribution"),
                              (_PIP_CONFLICT, "pip-conflict"),
                              (_PIP_BUILD, "pip-build-failed")):
            hit = next((k for k in repo_lines if pattern.search(text.lines[k])), None)
            if hit is None:
                continue
            line = text.lines[hit].strip()
            anchors = ctx.anchors(text, hit)
            if network is not None and rule == "pip-no-distribution":
                return _suggestion(
                    NOT_MODEL, "install-network-failure",
                    f"{_quote(line)} — pip could not reach the package index "
                    f"('{_quote(text.lines[network].strip())}'), an infrastructure problem",
                    [*anchors, *ctx.anchors(text, network)])
            m = pattern.search(line)
            req = (m.groupdict().get("req") or "") if m else ""
            name = re.split(r"[<>=!~;\[ ]", req, maxsplit=1)[0] if req else ""
            listed = next((r for r in ctx.repo.requirements() or []
                           if name and r.name == _norm_dist(name)), None)
            asked = ""
            if listed is not None:
                anchors.append(Anchor.file("requirements.txt", listed.line))
                asked = f", which requirements.txt asks for (line {listed.line})"
            detail = install_detail(text.lines, repo_lines, rule, name, req, asked)
            if detail is not None:
                for k in detail.lines:
                    anchors.extend(ctx.anchors(text, k))
                for dist in detail.dists:
                    named = ctx.repo.requirement_for(dist)
                    if named is not None:
                        anchors.append(Anchor.file("requirements.txt", named.line))
                return _suggestion(DEPENDENCY, detail.rule, f"{_quote(line)} — {detail.why}",
                                   anchors)
            if rule == "pip-no-distribution":
                why = f"pip cannot find '{req}' on the package index{asked}"
            elif rule == "pip-conflict":
                why = "the repo's requirements cannot be installed together"
            else:
                why = f"the package '{name}'{asked.replace(', which', ' that')} does not build " \
                      "in this environment"
            return _suggestion(DEPENDENCY, rule, f"{_quote(line)} — {why}", anchors)
    return None


def _rule_missing_module(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """2. ``No module named 'X'`` (and a server command that is not installed)."""
    for text in ev.texts:
        for exc in text.excs():
            if exc.type not in ("ModuleNotFoundError", "ImportError"):
                continue
            m = NO_MODULE.search(exc.message)
            if m is None:
                continue
            found = _missing_module(ctx, text, exc, m.group("name"), m.group("rest"))
            if found is not None:
                return found
    log = ctx.log(Phase.START) if ev.deployment and ctx.repo.available else None
    for k, line in enumerate(log.lines if log is not None else []):
        m = _CMD_NOT_FOUND.search(line)
        if m is None or log is None:
            continue
        cmd = m.group("cmd")
        pkg = _SERVER_CMDS.get(cmd)
        if pkg is None or ctx.repo.requirement_for(pkg) is not None:
            continue
        anchors = ctx.anchors(log, k)
        if ctx.repo.is_file("requirements.txt"):
            anchors.append(Anchor.file("requirements.txt"))
            why = f"requirements.txt does not provide {pkg}"
        else:
            why = "the repo has no requirements.txt"
        return _suggestion(DEPENDENCY, "server-not-installed",
                           f"{_quote(line.strip())} — start.sh runs {cmd}, but {why}", anchors)
    return None


def _missing_module(ctx: SampleContext, text: _Text, exc: _Exc, name: str,
                    rest: str) -> Suggestion | None:
    top = name.split(".")[0]
    quote = _quote(_short_import_error(exc.text))
    anchors = ctx.anchors(text, exc.index)
    inner = exc.innermost
    golden = inner is not None and ctx.is_golden_path(inner.path)
    imported = _golden_import(ctx, exc, name)
    issue = ctx.audit.for_module(imported[1]) if imported and ctx.audit else None
    if imported is not None and issue is not None:
        fr, mod = imported
        return _suggestion(
            NOT_MODEL, "golden-suite-" + issue.cause.replace(" ", "-").lower(),
            f"{quote} — the task's test {fr.path} imports {mod}: {issue.cause}: "
            f"{issue.summary} (a benchmark defect, not the model's)",
            [*anchors, *(Anchor.file(e.file, e.line) for e in issue.evidence[:3]
                         if e.file.startswith("tests/"))])
    stmt = _golden_statement(ctx, exc)
    if imported is not None and _suite_module(imported[1], stmt is not None):
        fr, mod = imported
        return _suggestion(
            NOT_MODEL, "golden-suite-harness-convention",
            f"{quote} — the task's test {fr.path} imports its own {mod} as a module, which "
            "works only with tests/ on sys.path (a root pytest.ini's pythonpath, which the "
            "harness never copies): a benchmark defect, not the model's", anchors)
    if imported is not None and ctx.readme is not None and not _mentioned(imported[1],
                                                                           ctx.readme):
        fr, mod = imported
        lead = "" if mod == name else "raised while "
        return _suggestion(
            NOT_MODEL, "golden-test-undocumented-import",
            f"{quote} — {lead}the task's test {fr.path} imports {mod}, which the task README "
            "never mentions (a benchmark defect, not the model's)", anchors)
    repo = ctx.repo
    if stmt is not None and imported is not None and top not in sys.stdlib_module_names \
            and top not in KNOWN_THIRD_PARTY:
        # the golden suite's own import statement failed: never the repo's cross-file error
        if ctx.readme is None:
            return None  # cannot tell whether the README asks for that module
        fr, mod = imported
        return _suggestion(
            OTHER, "readme-module-missing",
            f"{quote} — the task's test {fr.path} imports {mod}, which the task README "
            "names, and the repo does not provide it: the repo does not follow the README's "
            "layout", anchors)
    if not repo.available:
        return None
    anchors.extend(ctx.frame_anchors(exc))
    if not golden and any(_lib_pkg(f.path) in _SERVER_PKGS for f in exc.frames) \
            and ctx.innermost_repo_frame(exc) is None:
        hit = repo.start_line(re.compile(rf"\b{re.escape(top)}\b"))
        if hit is not None:
            anchors.append(Anchor.file("start.sh", hit[0]))
        return _suggestion(
            ARCHITECTURAL, "entry-module-missing",
            f"{quote} — the server was told to load module '{name}', which the repo does "
            "not have", anchors)
    if top in repo.top_modules():
        if "is not a package" in rest:
            own = repo.module_file(top) or f"{top}.py"
            return _suggestion(
                CROSS_FILE, "repo-submodule-missing",
                f"{quote} — the code imports {name} as a package, but the repo's {own} is a "
                "plain module", [*anchors, Anchor.file(own)])
        if repo.module_exists(name):
            return None  # it exists: an import-path problem, not a missing module
        parent = name.rsplit(".", 1)[0] if "." in name else top
        parent_file = repo.module_file(parent)
        if parent_file is not None:
            anchors.append(Anchor.file(parent_file))
        kind = "package" if "." in name else "module"
        return _suggestion(
            CROSS_FILE, "repo-submodule-missing",
            f"{quote} — '{top}' is the repo's own {kind}, but the module {name} "
            f"({name.replace('.', '/')}.py) does not exist", anchors)
    reqs = repo.requirements()
    req = repo.requirement_for(top)
    if top in sys.stdlib_module_names:
        tail = "it is a standard-library module this Python lacks"
    elif reqs is None:
        tail = "the repo has no requirements.txt"
    elif req is not None:
        anchors.append(Anchor.file("requirements.txt", req.line))
        tail = (f"requirements.txt lists {req.raw} (line {req.line}), yet it was not "
                "importable")
    else:
        anchors.append(Anchor.file("requirements.txt"))
        tail = "requirements.txt does not provide it"
    dists = _IMPORT_ALIASES.get(top)
    if dists and req is None and top not in sys.stdlib_module_names:
        tail += f" (the distribution that provides '{top}' is {dists[0]})"
    return _suggestion(DEPENDENCY, "missing-third-party-module",
                       f"{quote} — '{top}' is not a module of the repo and {tail}", anchors)


_IMPORT_STMT = re.compile(r"^(?:from\s+(?P<a>[\w.]+)\s+import\b|import\s+(?P<b>[\w.]+))")


def _golden_import(ctx: SampleContext, exc: _Exc, name: str) -> tuple[_Frame, str] | None:
    """(frame, module) when the failing import started at an import line of a task's test
    file: the innermost such frame and the module that line imports."""
    golden = [f for f in exc.frames if ctx.is_golden_path(f.path)]
    if not golden:
        return None
    fr = golden[-1]
    if fr is exc.innermost:
        return fr, name
    m = _IMPORT_STMT.match(fr.code)
    return (fr, m.group("a") or m.group("b")) if m else None


def _golden_statement(ctx: SampleContext, exc: _Exc) -> _Frame | None:
    """The task test's frame whose import statement failed: the innermost frame outside
    libraries and the interpreter is in the golden suite (None otherwise)."""
    for fr in reversed(exc.frames):
        if LIBRARY_PATH.search(fr.path.replace("\\", "/")):
            continue
        return fr if ctx.is_golden_path(fr.path) else None
    return None


def _suite_module(module: str, golden_statement: bool) -> bool:
    """A module of the task's suite itself: its conftest, or (imported by a golden test's own
    statement) its tests package, importable only with the suite's layout on sys.path."""
    top = module.split(".")[0]
    return top == "conftest" or (golden_statement and top in ("tests", "test"))


def _golden_cannot_import(ctx: SampleContext, fr: _Frame, name: str, mod: str, quote: str,
                          anchors: list[Anchor]) -> Suggestion | None:
    """``cannot import name`` raised by a golden test's own import statement of a module
    that is not a library: the suite's layout, an undocumented name, or the README's layout
    not followed; never cross-file."""
    issue = ctx.audit.for_module(mod) if ctx.audit else None
    if issue is not None:
        return _suggestion(
            NOT_MODEL, "golden-suite-" + issue.cause.replace(" ", "-").lower(),
            f"{quote} — the task's test {fr.path} imports {name} from {mod}: {issue.cause}: "
            f"{issue.summary} (a benchmark defect, not the model's)",
            [*anchors, *(Anchor.file(e.file, e.line) for e in issue.evidence[:3]
                         if e.file.startswith("tests/"))])
    if _suite_module(mod, True):
        return _suggestion(
            NOT_MODEL, "golden-suite-harness-convention",
            f"{quote} — the task's test {fr.path} imports {name} from its own {mod}, which "
            "resolves to another module under the harness's layout (the suite's directory is "
            "not on sys.path): a benchmark defect, not the model's", anchors)
    if ctx.readme is None:
        return None  # cannot tell whether the README describes that module
    missing = [w for w, said in ((mod, _mentioned(mod, ctx.readme)),
                                 (name, _mentioned(name, ctx.readme))) if not said]
    if missing:
        return _suggestion(
            NOT_MODEL, "golden-test-undocumented-import",
            f"{quote} — the task's test {fr.path} imports {name} from {mod}, and the task "
            f"README never mentions {' or '.join(missing)} (a benchmark defect, not the "
            "model's)", anchors)
    return _suggestion(
        OTHER, "readme-name-missing",
        f"{quote} — the task's test {fr.path} imports {name} from {mod}, both named by the "
        "task README, and the repo does not provide it: the repo does not follow the "
        "README's layout", anchors)


def _rule_cannot_import(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """3. ``cannot import name 'N' from 'M'``."""
    repo = ctx.repo
    for text in ev.texts:
        for exc in text.excs():
            if exc.type != "ImportError":
                continue
            m = _CANNOT_IMPORT.search(exc.message)
            if m is None:
                continue
            name, mod, where = m.group("name"), m.group("mod"), m.group("where") or ""
            top = mod.split(".")[0]
            is_lib = bool(LIBRARY_PATH.search(where.replace("\\", "/")))
            mod_rel = (repo.rel_of(where) if where and not is_lib else None) \
                or (repo.module_file(mod) if repo.available else None)
            anchors = ctx.anchors(text, exc.index)
            quote = _quote(_short_import_error(exc.text))
            user = ctx.innermost_repo_frame(exc)
            stmt = _golden_statement(ctx, exc) if not is_lib else None
            if stmt is not None:
                found = _golden_cannot_import(ctx, stmt, name, mod, quote, anchors)
                if found is not None:
                    return found
                continue
            if mod_rel is not None:
                anchors.extend(ctx.frame_anchors(exc))
                user_part = f"{user[0]} imports {name}, but " if user else ""
                if m.group("partial") or "circular import" in exc.message:
                    return _suggestion(
                        CROSS_FILE, "repo-circular-import",
                        f"{quote} — {user_part}{mod_rel} is only partly initialised: a "
                        "circular import between the repo's modules",
                        [*anchors, Anchor.file(mod_rel)])
                defs = repo.defs(mod_rel)
                kinds = ("class",) if name[:1].isupper() else ("def", "var")
                similar = _similar(name, [d.name for d in defs if d.kind in kinds]) or \
                    _similar(name, [d.name for d in defs if d.kind != "import"])
                sim_def = next((d for d in defs if d.name == similar), None)
                anchors.append(Anchor.file(mod_rel, sim_def.line if sim_def else None))
                also = f" ({mod_rel} defines {similar})" if similar else ""
                return _suggestion(
                    CROSS_FILE, "repo-name-missing",
                    f"{quote} — {user_part}{mod_rel} does not define {name}{also}", anchors)
            if not is_lib and (not repo.available or top in repo.top_modules()):
                continue  # cannot tell where M lives
            return _version_mismatch(ctx, text, exc, name, mod, quote, anchors)
    return None


def _version_mismatch(ctx: SampleContext, text: _Text, exc: _Exc, name: str, mod: str, quote: str,
                      anchors: list[Anchor]) -> Suggestion:
    repo = ctx.repo
    pkg = mod.split(".")[0]
    anchors.extend(ctx.frame_anchors(exc, limit=1))
    importer = ""
    inner = exc.innermost
    if inner is not None:
        lib = _lib_pkg(inner.path)
        rel = repo.rel_of(inner.path)
        if lib and lib != pkg:
            importer = lib
        elif rel:
            importer = rel
    if pkg in sys.stdlib_module_names:
        what = f"this Python's {pkg} does not provide {name}"
    else:
        inst = ctx.installed_version(pkg)
        if inst is not None and inst[1] is not None:
            anchors.append(inst[1])
        what = f"the installed {pkg}{' ' + inst[0] if inst else ''} does not provide {name}"
    if importer:
        what += f" (imported by {importer})"
    note = moved_note(mod, name)
    if note:
        what += f": {note}"
    reqs = repo.requirements()
    req = repo.requirement_for(pkg)
    if req is not None:
        anchors.append(Anchor.file("requirements.txt", req.line))
        pin = f"requirements.txt has {req.raw}"
    elif reqs is None:
        pin = "the repo has no requirements.txt" if repo.available else ""
    else:
        ireq = repo.requirement_for(importer) if importer and "/" not in importer else None
        pin = f"requirements.txt does not pin {pkg}"
        if ireq is not None:
            anchors.append(Anchor.file("requirements.txt", ireq.line))
            pin += f" (it lists {ireq.raw})"
    reason = f"{quote} — version mismatch: {what}" + (f"; {pin}" if pin else "")
    return _suggestion(DEPENDENCY, "library-version-mismatch", reason, anchors)


def _rule_repo_attribute(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """4. NameError / AttributeError in repo code about another repo module or class."""
    repo = ctx.repo
    if not repo.available:
        return None
    for text in ev.texts:
        for exc in text.excs():
            if exc.type not in ("AttributeError", "NameError"):
                continue
            inner = exc.innermost
            if inner is None or repo.rel_of(inner.path) is None:
                continue
            user = repo.rel_of(inner.path) or ""
            quote = _quote(exc.text)
            anchors = [*ctx.anchors(text, exc.index), *ctx.frame_anchors(exc)]
            m = _MOD_ATTR.match(exc.message)
            if m and exc.type == "AttributeError":
                mod_rel = repo.module_file(m.group("mod"))
                if mod_rel is None or mod_rel == user:
                    continue
                defs = [d.name for d in repo.defs(mod_rel) if d.kind != "import"]
                similar = _similar(m.group("attr"), defs)
                also = f" (it defines {similar})" if similar else ""
                return _suggestion(
                    CROSS_FILE, "repo-attribute-missing",
                    f"{quote} — {user} uses {m.group('mod')}.{m.group('attr')}, which {mod_rel} "
                    f"does not define{also}", [*anchors, Anchor.file(mod_rel)])
            m = _OBJ_ATTR.match(exc.message)
            if m and exc.type == "AttributeError":
                cls, attr = m.group("cls"), m.group("attr")
                found = [(rel, node) for rel, node in repo.find_classes(cls) if rel != user]
                if not found:
                    continue
                rel, node = found[0]
                fields_, methods = _class_members(node)
                if attr in fields_ or attr in methods:
                    continue
                listing = f" (its fields: {', '.join(fields_[:6])})" if fields_ else ""
                return _suggestion(
                    CROSS_FILE, "repo-attribute-missing",
                    f"{quote} — {user} uses {cls}.{attr}, but class {cls} in {rel} has no "
                    f"attribute '{attr}'{listing}", [*anchors, Anchor.file(rel, node.lineno)])
            m = _NAME_ERR.match(exc.message)
            if m and exc.type == "NameError":
                tops = [(rel, d) for rel, d in repo.find_top_level(m.group("name"))
                        if rel != user]
                if not tops:
                    continue
                rel, d = tops[0]
                return _suggestion(
                    CROSS_FILE, "repo-name-not-imported",
                    f"{quote} — {user} uses {d.name}, which {rel} defines but {user} never "
                    "imports", [*anchors, Anchor.file(rel, d.line)])
    return None


def _rule_framework_wiring(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """5. The app and the server that runs it do not fit together."""
    repo = ctx.repo
    for text in ev.texts:
        for k, line in enumerate(text.lines):
            s = _E_PREFIX.sub("", line.strip())
            if not s:
                continue
            m = _WSGI_ON_ASGI.search(s)
            if m:
                anchors = ctx.anchors(text, k)
                server = repo.start_line(re.compile(r"\b(?:" + "|".join(_ASGI_SERVERS) + r")\b"))
                via = ""
                if server is not None:
                    anchors.append(Anchor.file("start.sh", server[0]))
                    via = f" (start.sh line {server[0]}: {_quote(server[1])})"
                app = f"{m.group('cls')} " if m.group("cls") else ""
                return _suggestion(
                    ARCHITECTURAL, "wsgi-app-on-asgi-server",
                    f"{_quote(s)} — a WSGI {app}app is served by an ASGI server{via}, so every "
                    "request fails", anchors)
            m = _ASGI_ON_WSGI.search(s)
            if m:
                anchors = ctx.anchors(text, k)
                server = repo.start_line(re.compile(r"\b(?:gunicorn|waitress|flask)\b"))
                if server is not None:
                    anchors.append(Anchor.file("start.sh", server[0]))
                app = f"{m.group('cls')} " if m.group("cls") else ""
                return _suggestion(
                    ARCHITECTURAL, "asgi-app-on-wsgi-server",
                    f"{_quote(s)} — an ASGI {app}app is served by a WSGI server", anchors)
            if _APP_NOT_LOADABLE.search(s):
                anchors = ctx.anchors(text, k)
                server = repo.start_line(re.compile(
                    r"\b(?:" + "|".join((*_ASGI_SERVERS, "gunicorn", "flask")) + r")\b"))
                if server is not None:
                    anchors.append(Anchor.file("start.sh", server[0]))
                return _suggestion(
                    ARCHITECTURAL, "app-not-loadable",
                    f"{_quote(s)} — the server command does not name a loadable app of the repo",
                    anchors)
            m = _NO_FILE.search(s)
            if m and ev.deployment:
                anchors = ctx.anchors(text, k)
                base = os.path.basename(m.group("file"))
                hit = repo.start_line(re.compile(re.escape(base)))
                if hit is not None:
                    anchors.append(Anchor.file("start.sh", hit[0]))
                return _suggestion(
                    ARCHITECTURAL, "entry-file-missing",
                    f"{_quote(s)} — the start command runs {base}, which the repo does not have",
                    anchors)
    return None


def _rule_port_or_start(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """6. The server listened elsewhere, nothing was started, or there is no entry point."""
    r = ctx.result
    if not ev.deployment or r.deployment.success:
        return None
    start = ctx.log(Phase.START)
    health = ctx.log(Phase.HEALTH)
    msgs = ctx.messages()
    status_texts = [t for t in (start, health) if t is not None] + msgs
    for text in status_texts:
        for k, line in enumerate(text.lines):
            if _NO_ENTRY.search(line):
                return _suggestion(
                    ARCHITECTURAL, "no-entry-point",
                    f"{_quote(line.strip())} — the repo has no start.sh and no recognised entry "
                    "point", ctx.anchors(text, k))
    # the port the harness waited for, and the line saying it never opened
    expected = r.port
    closed: tuple[_Text, int] | None = None
    for text in [t for t in (health,) if t is not None] + msgs:
        for k, line in enumerate(text.lines):
            for pat in _EXPECTED_PORT:
                m = pat.search(line)
                if m:
                    expected = expected or int(m.group("port"))
                    if "not open" in line and closed is None:
                        closed = (text, k)
    listening: tuple[int, int] | None = None
    if start is not None:
        for k, line in enumerate(start.lines):
            port = next((int(m.group("port")) for p in _LISTENING if (m := p.search(line))), None)
            if port is not None:
                listening = (k, port)
                break
    if start is not None and listening is not None and expected and listening[1] != expected:
        k, port = listening
        anchors = ctx.anchors(start, k)
        if closed is not None:
            anchors.extend(ctx.anchors(*closed))
        server = ctx.repo.start_line(re.compile(
            r"\b(?:uvicorn|gunicorn|hypercorn|flask|waitress|daphne|python3?)\b"))
        if server is not None:
            anchors.append(Anchor.file("start.sh", server[0]))
        asks = "the README asks for" if ctx.readme and re.search(
            rf"(?<!\d){expected}(?!\d)", ctx.readme) else "the harness expects"
        who = "start.sh starts" if ctx.repo.is_file("start.sh") else "the entry point starts"
        return _suggestion(
            ARCHITECTURAL, "wrong-port",
            f"{_quote(start.lines[k].strip())} — {who} the server on {port}, {asks} "
            f"{expected}", anchors)
    # start.sh returned at once without a server
    has_exc = start is not None and bool(start.excs())
    for text in [t for t in (health,) if t is not None] + msgs:
        for k, line in enumerate(text.lines):
            m = _EXITED.search(line)
            if m and m.group("code") == "0" and listening is None and not has_exc:
                anchors = ctx.anchors(text, k)
                if ctx.repo.is_file("start.sh"):
                    anchors.append(Anchor.file("start.sh"))
                return _suggestion(
                    ARCHITECTURAL, "start-launches-nothing",
                    f"{_quote(line.strip())} — start.sh returned without leaving a server "
                    "running", anchors)
    return None


def _rule_response_field(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """8. A test's KeyError on a response field that the repo's code does use."""
    if not ctx.repo.available:
        return None
    for text in ev.texts:
        if text.test is None:
            continue
        for exc in text.excs():
            if exc.type != "KeyError":
                continue
            m = _KEY.match(exc.message)
            inner = exc.innermost
            if m is None or inner is None or not ctx.is_golden_path(inner.path):
                continue
            key = m.group("key")
            users = ctx.repo.files_using(key)
            classes = ctx.repo.data_classes()
            # the repo uses the name, yet no model has that field and nothing builds it as a
            # dict key: the modules disagree (an error body lacking 'id' does not qualify)
            if not users or not classes or ctx.repo.builds_key(key) or any(
                    key in fields_ for _, _, fields_ in classes):
                continue
            user_files = {rel for rel, _ in users}
            rel, node, fields_ = max(classes, key=lambda c: (
                any(_imports_module(ctx.repo.text(u) or "", c[0]) for u in user_files),
                len(c[2])))
            names = ", ".join(u for u, _ in users[:3])
            return _suggestion(
                CROSS_FILE, "response-field-missing",
                f"{_quote(exc.text)} — the response lacks '{key}', which {names} "
                f"use{'s' if len(users) == 1 else ''}, while class {node.name} in {rel} has no "
                f"such field (its fields: {', '.join(fields_[:6])})",
                [*ctx.anchors(text, exc.index),
                 *(Anchor.file(u, line) for u, line in users[:3]),
                 Anchor.file(rel, node.lineno)])
    return None


def _imports_module(src: str, rel: str) -> bool:
    """Whether source ``src`` imports the module stored at ``rel``."""
    mod = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    mod = mod.removeprefix("src.")
    leaf = re.escape(mod.rsplit(".", 1)[-1])
    return bool(re.search(rf"^\s*(?:from\s+[\w.]*\b{leaf}\s+import|import\s+[\w.]*\b{leaf}\b)",
                          src, re.M))


def _vanished(case: TestCase) -> bool:
    first = case.first_message_line
    return any(p.match(first) for p in _VANISHED)


def _rule_state_lost(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """9. Resources created by POST vanish in several tests; the server logs no error."""
    if not ev.tests:
        return None
    focus = [c for c in ev.tests if _vanished(c)]
    if not focus:
        return None
    failures = ctx.result.failing_tests
    matched = [c for c in failures if _vanished(c)]
    if len(matched) < MIN_STATE_TESTS or 2 * len(matched) < len(failures):
        return None
    start = ctx.log(Phase.START)
    if start is None:
        return None
    if any(_SERVER_ERROR_LOG.search(line.strip()) for line in start.lines):
        return None
    post = next((k for k, line in enumerate(start.lines) if _POST_OK.search(line)), None)
    if post is None:
        return None
    gone = next((k for k in range(post + 1, len(start.lines))
                 if _NOT_FOUND.search(start.lines[k])), None)
    anchors = [Anchor.for_test(c.id) for c in (focus if len(ev.tests) == 1 else matched)[:5]]
    anchors.extend(ctx.anchors(start, post))
    if gone is not None:
        anchors.extend(ctx.anchors(start, gone))
    examples = []
    for c in matched:
        line = c.first_message_line
        if line not in examples:
            examples.append(line)
    shown = ", ".join(f"'{_quote(e)}'" for e in examples[:2])
    return _suggestion(
        ARCHITECTURAL, "state-not-kept",
        f"{len(matched)} of {_plural(len(failures), 'failing test')} find created resources "
        f"gone ({shown}) although POSTs succeed ('{_quote(start.lines[post].strip())}') and the "
        "server logs no error — state is not kept between requests", anchors)


def _rule_harness(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    """10. The harness, not the repo, failed."""
    r = ctx.result
    for text in ev.texts:
        if text.test is None:
            continue
        for k, line in enumerate(text.lines):
            m = _FIXTURE_MISSING.search(line)
            if m:
                return _suggestion(
                    NOT_MODEL, "golden-fixture-missing",
                    f"{_quote(_E_PREFIX.sub('', line.strip()))} — the task's test suite uses "
                    "a fixture it does not define", ctx.anchors(text, k))
    if not ev.deployment:
        return None
    if r.error:
        anchors: list[Anchor] = []
        tests_log = ctx.log(Phase.TESTS)
        if tests_log is not None:
            at = next((k for k, line in enumerate(tests_log.lines)
                       if line.startswith("harness exception")), None)
            if at is not None:
                anchors = ctx.anchors(tests_log, at)
        return _suggestion(NOT_MODEL, "harness-error",
                           f"harness error: {_quote(r.error)} — the evaluation itself failed",
                           anchors)
    install = ctx.log(Phase.INSTALL)
    if install is not None:
        section_tests = False
        for k, line in enumerate(install.lines):
            s = line.strip()
            if s.startswith("$ ") and " pip install" in s:
                section_tests = not ("-r" in s.split() and "tests/requirements" not in s)
            elif section_tests and s.startswith("ERROR:"):
                return _suggestion(
                    NOT_MODEL, "test-runner-install-failed",
                    f"{_quote(s)} — the harness could not install the task's test runner",
                    ctx.anchors(install, k))
    texts = [t for t in (ctx.log(Phase.START), ctx.log(Phase.HEALTH)) if t is not None]
    for text in [*texts, *ctx.messages()]:
        for k, line in enumerate(text.lines):
            if _HARNESS_MSG.search(line):
                return _suggestion(
                    NOT_MODEL, "harness-problem",
                    f"{_quote(line.strip())} — a harness or infrastructure problem",
                    ctx.anchors(text, k))
    return None


RULES: tuple[tuple[str, _Rule], ...] = (
    ("install", _rule_install),
    ("dependency-signs", rule_dependency_signs),
    ("missing-module", _rule_missing_module),
    ("cannot-import", _rule_cannot_import),
    ("repo-attribute", _rule_repo_attribute),
    ("framework-wiring", _rule_framework_wiring),
    ("port-or-start", _rule_port_or_start),
    ("response-field", _rule_response_field),
    ("state-lost", _rule_state_lost),
    ("harness", _rule_harness),
)
"""The rules in the order they are tried (rule 7 is the absence of a suggestion)."""


def _run(ctx: SampleContext, ev: _Evidence) -> Suggestion | None:
    for _, rule in RULES:
        found = rule(ctx, ev)
        if found is not None:
            return found
    return None


def suggest(result: SampleResult, test_id: str | None = None,
            task_readme: str | None = None, audit: SuiteAudit | None = None,
            context: SampleContext | None = None) -> Suggestion | None:
    """A category proposed for a failing sample (or, with ``test_id``, one failing test).

    With ``test_id`` the test's own message and traceback are read first, then the sample's
    deployment evidence (start and health logs, deployment messages). ``task_readme`` (the
    task's README text) lets the engine tell undocumented golden-test imports apart and say
    which port the README asks for; the task's suite ``audit`` says why a golden test's import
    fails (a file the harness does not copy, an undeclared test dependency, an undocumented
    module) with its evidence. Returns None when no rule fires, for a passing sample and
    for a test that did not fail.

    ``context`` (a :class:`SampleContext` for the same sample, README and audit; another one
    is not used) keeps what was read for the next call: asking about each failing test of a
    sample reads its logs and repository once. The answer is the same with or without it.
    """
    ctx = context if context is not None and context.is_for(result, task_readme, audit) \
        else SampleContext(result, task_readme, audit)
    if ctx.repo.refused:
        ctx.fresh_repo()  # a refused read must not carry over into this call
    try:
        return _suggest(ctx, result, test_id)
    except _BudgetSpent:
        ctx.fresh_repo()
        return _suggest(ctx, result, test_id)
    finally:
        ctx.repo.reused = True


def _suggest(ctx: SampleContext, result: SampleResult, test_id: str | None
             ) -> Suggestion | None:
    if test_id is not None:
        case = next((c for c in result.tests.cases if c.id == test_id), None)
        if case is not None:
            if not case.outcome.is_failure:
                return None
            found = _run(ctx, _Evidence([ctx.test_text(case)], [case], deployment=False))
            if found is not None:
                return found
        return _run(ctx, _Evidence(ctx.deployment_texts(), [], deployment=True))
    failures = result.failing_tests
    if result.passed and result.deployment.success:
        return None
    logs = (ctx.log(Phase.START), ctx.log(Phase.HEALTH))
    texts = [t for t in logs if t is not None]
    texts.extend(ctx.test_text(c) for c in failures)
    tests_log = ctx.log(Phase.TESTS)
    if tests_log is not None:
        texts.append(tests_log)
    texts.extend(ctx.messages())
    return _run(ctx, _Evidence(texts, failures, deployment=True))


__all__ = ["ARCHITECTURAL", "CROSS_FILE", "DEPENDENCY", "NOT_MODEL", "OTHER", "RULES",
           "SampleContext", "suggest"]
