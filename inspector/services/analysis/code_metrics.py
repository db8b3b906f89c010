"""Generated-code metrics of one repository, by well-kept libraries (never our own parser):

* Python: SLOC from radon's raw metrics (``radon.raw.analyze``: lines holding code; blanks,
  comments and docstrings are not code), functions / methods / nested functions, classes and
  cyclomatic complexity from radon's ``ComplexityVisitor`` (McCabe: 1 + decision points per
  function), cognitive complexity from complexipy (SonarSource's definition, a Rust parser);
* Java: lizard (``nloc``: lines holding code; functions and their CCN; it is also what
  tokenises the source for the class count: ``class`` / ``interface`` / ``enum`` / ``record``
  tokens followed by a name, comments and strings excluded). Lizard has no cognitive
  complexity for Java, so it is ``None`` there.

``cyclomatic`` is the sum over functions (methods and nested functions included; module-level
code is not in a function and not counted), ``max_cyclomatic`` the worst function. Files are
read as text (bounded, :mod:`.sources`), never imported or run; a file that does not parse
still counts its SLOC and says so in ``notes``.
"""

from __future__ import annotations

import ast
import contextlib
import io
import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

import complexipy
import lizard  # type: ignore[import-untyped]  # lizard ships no type information
from lizard_languages import get_reader_for  # type: ignore[import-untyped]  # (lizard)
from radon.raw import analyze as radon_raw  # type: ignore[import-untyped]  # radon: untyped
from radon.visitors import ComplexityVisitor  # type: ignore[import-untyped]  # (radon)

from inspector.services.analysis.sources import Skipped, Source, collect_sources
from inspector.services.repo.files import iter_files

PYTHON, JAVA = "python", "java"
EXTENSIONS = {PYTHON: (".py",), JAVA: (".java",)}
_CLASS_WORDS = {"class", "interface", "enum", "record"}


@lru_cache(maxsize=1)
def tool_versions() -> dict[str, str]:
    return {name: version(name) for name in ("radon", "complexipy", "lizard")}


@dataclass(frozen=True, slots=True)
class FileMetrics:
    file: str
    sloc: int
    functions: int
    classes: int
    cyclomatic: int
    max_cyclomatic: int
    cognitive: int | None
    note: str = ""  # e.g. 'syntax error at line 3: SLOC only'

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "sloc": self.sloc, "functions": self.functions,
                "classes": self.classes, "cyclomatic": self.cyclomatic,
                "max_cyclomatic": self.max_cyclomatic, "cognitive": self.cognitive,
                "note": self.note}

    @classmethod
    def from_json(cls, d: dict[str, object]) -> FileMetrics:
        cog = d.get("cognitive")
        return cls(str(d["file"]), _int(d["sloc"]), _int(d["functions"]), _int(d["classes"]),
                   _int(d["cyclomatic"]), _int(d["max_cyclomatic"]),
                   None if cog is None else _int(cog), str(d.get("note", "")))


def _int(v: object) -> int:
    return int(v) if isinstance(v, int | float | str) else 0


@dataclass(frozen=True, slots=True)
class CodeMetrics:
    """One repository's metrics (sums over its files of ``language``)."""

    language: str
    files: int
    sloc: int
    functions: int
    classes: int
    cyclomatic: int
    max_cyclomatic: int
    cognitive: int | None  # None: no library gives it for this language
    per_file: tuple[FileMetrics, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    tools: str = ""
    notes: tuple[str, ...] = field(default=())

    @property
    def mean_cyclomatic(self) -> float | None:
        return round(self.cyclomatic / self.functions, 2) if self.functions else None

    def to_json(self, files: bool = True) -> dict[str, object]:
        doc: dict[str, object] = {
            "language": self.language, "files": self.files, "sloc": self.sloc,
            "functions": self.functions, "classes": self.classes,
            "cyclomatic": self.cyclomatic, "max_cyclomatic": self.max_cyclomatic,
            "mean_cyclomatic": self.mean_cyclomatic, "cognitive": self.cognitive,
            "tools": self.tools, "notes": list(self.notes),
            "skipped": [{"file": s.file, "reason": s.reason} for s in self.skipped]}
        if files:
            doc["per_file"] = [f.to_json() for f in self.per_file]
        return doc

    @classmethod
    def from_json(cls, d: dict[str, object]) -> CodeMetrics:
        per = d.get("per_file", [])
        skipped = d.get("skipped", [])
        notes = d.get("notes", [])
        cog = d.get("cognitive")
        return cls(str(d["language"]), _int(d["files"]), _int(d["sloc"]), _int(d["functions"]),
                   _int(d["classes"]), _int(d["cyclomatic"]), _int(d["max_cyclomatic"]),
                   None if cog is None else _int(cog),
                   tuple(FileMetrics.from_json(f) for f in per if isinstance(f, dict))
                   if isinstance(per, list) else (),
                   tuple(Skipped(str(s["file"]), str(s["reason"])) for s in skipped
                         if isinstance(s, dict)) if isinstance(skipped, list) else (),
                   str(d.get("tools", "")),
                   tuple(str(n) for n in notes) if isinstance(notes, list) else ())


def detect_language(repo: Path) -> str:
    """``java`` when the repo has a Maven/Gradle build file or more .java than .py files."""
    if any((repo / f).is_file() for f in ("pom.xml", "build.gradle", "build.gradle.kts")):
        return JAVA
    counts = {".py": 0, ".java": 0}
    for path in itertools.islice(iter_files(repo, (".py", ".java")), 200):
        counts[path.suffix] += 1
    return JAVA if counts[".java"] > counts[".py"] else PYTHON


# -- Python -----------------------------------------------------------------------------------

def _python_functions(visitor: ComplexityVisitor) -> list[int]:
    """Cyclomatic complexity of every function, method and nested function radon found."""
    out: list[int] = []

    def walk(fn: object) -> None:
        out.append(int(getattr(fn, "complexity", 0)))
        for inner in getattr(fn, "closures", []):
            walk(inner)

    def walk_class(cls: object) -> None:
        for m in getattr(cls, "methods", []):
            walk(m)
        for inner in getattr(cls, "inner_classes", []):
            walk_class(inner)

    for fn in visitor.functions:
        walk(fn)
    for cls in visitor.classes:
        walk_class(cls)
    return out


def _count_classes(visitor: ComplexityVisitor) -> int:
    def count(cls: object) -> int:
        return 1 + sum(count(c) for c in getattr(cls, "inner_classes", []))

    return sum(count(c) for c in visitor.classes)


def _broken(exc: BaseException, text: str) -> str:
    line = getattr(exc, "lineno", None)
    if not line:  # radon's tokenizer may not say where: the compiler's parser does
        try:
            ast.parse(text)
        except SyntaxError as err:
            line = err.lineno
        except (ValueError, RecursionError, MemoryError):
            pass
    kind = "syntax error" if isinstance(exc, SyntaxError) else \
        f"cannot parse ({type(exc).__name__})"
    return f"{kind}{f' at line {line}' if line else ''}: SLOC only"


def python_file_metrics(src: Source) -> FileMetrics:
    """radon + complexipy on one Python file's text (never imported or run). A file that
    does not parse counts its non-blank, non-comment lines as SLOC and says why."""
    try:
        sloc = int(radon_raw(src.text).sloc)
        visitor = ComplexityVisitor.from_code(src.text)
    except Exception as exc:  # radon raises SyntaxError, tokenize errors, ValueError...
        sloc = sum(1 for line in src.text.splitlines()
                   if line.strip() and not line.strip().startswith("#"))
        return FileMetrics(src.file, sloc, 0, 0, 0, 0, None, _broken(exc, src.text))
    ccs = _python_functions(visitor)
    try:
        cognitive: int | None = int(
            complexipy.code_complexity(src.text, with_plans=False).complexity)
    except ValueError:
        cognitive = None
    return FileMetrics(src.file, sloc, len(ccs), _count_classes(visitor), sum(ccs),
                       max(ccs, default=0), cognitive)


# -- Java -------------------------------------------------------------------------------------

def java_tokens(file: str, text: str) -> list[str]:
    """lizard's Java tokens of ``text`` without whitespace, comments and literals."""
    reader = get_reader_for(file) or get_reader_for("x.java")
    out = []
    for tok in reader.generate_tokens(text):
        t = str(tok)
        if not t.strip() or t.startswith(("//", "/*", '"', "'")):
            continue
        out.append(t)
    return out


def count_java_classes(tokens: list[str]) -> int:
    """``class``/``interface``/``enum``/``record`` declarations: the keyword followed by a
    name and not preceded by ``.`` (``Foo.class``) or ``@`` (``@interface`` is counted)."""
    n = 0
    for i, t in enumerate(tokens[:-1]):
        if t in _CLASS_WORDS and (i == 0 or tokens[i - 1] != ".") and \
                tokens[i + 1].isidentifier():
            n += 1
    return n


def lizard_file(src: Source) -> tuple[Any, str]:
    """lizard's ``FileInformation`` of one file and a note ('' when all went well). Lizard
    stops at pathological nesting with a line on stderr: that line becomes the note."""
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said):
            info = lizard.analyze_file.analyze_source_code(src.file, src.text)
    except Exception as exc:  # lizard's readers raise IndexError and others on odd input
        return None, f"lizard cannot read it ({type(exc).__name__}): not counted"
    note = "nesting too deep for lizard: partial figures" if said.getvalue() else ""
    return info, note


def java_file_metrics(src: Source) -> FileMetrics:
    info, note = lizard_file(src)
    if info is None:
        return FileMetrics(src.file, 0, 0, 0, 0, 0, None, note)
    ccs = [int(f.cyclomatic_complexity) for f in info.function_list]
    classes = count_java_classes(java_tokens(src.file, src.text))
    return FileMetrics(src.file, int(info.nloc), len(ccs), classes, sum(ccs),
                       max(ccs, default=0), None, note)


# -- one repository ---------------------------------------------------------------------------

def code_metrics_for(repo: Path, language: str | None = None) -> CodeMetrics:
    """Metrics of the generated repository ``repo`` (``language`` guessed when None)."""
    language = (language or detect_language(repo)).lower()
    language = JAVA if language == JAVA else PYTHON
    sources, skipped = collect_sources(repo, EXTENSIONS[language])
    per_file = [java_file_metrics(s) if language == JAVA else python_file_metrics(s)
                for s in sources]
    cognitive = None
    if language == PYTHON:
        cogs = [f.cognitive for f in per_file if f.cognitive is not None]
        cognitive = sum(cogs) if cogs or not per_file else None
    tools = ", ".join(f"{k} {v}" for k, v in tool_versions().items()
                      if (k == "lizard") == (language == JAVA))
    return CodeMetrics(
        language, len(per_file), sum(f.sloc for f in per_file),
        sum(f.functions for f in per_file), sum(f.classes for f in per_file),
        sum(f.cyclomatic for f in per_file), max((f.max_cyclomatic for f in per_file),
                                                 default=0),
        cognitive, tuple(per_file), tuple(skipped), tools,
        tuple(f"{f.file}: {f.note}" for f in per_file if f.note))
