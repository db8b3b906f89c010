"""A reference (oracle) implementation's metrics, counted as RepoGenesis counts them for its
difficulty score (``analyze_difficulty.py`` / ``analyze_java_difficulty.py``; harness
reference §6), so our tiers match the paper's.

Python (the paper's rules exactly):

* files: ``.py`` files, test files included; folders ``venv``, ``__pycache__``, ``.git``,
  ``node_modules``, ``.pytest_cache``, ``data``, ``logs``, ``uploads`` skipped (and, beyond
  the paper, our walker's vendored folders: ``.venv``, ``build``, ``dist``, ``target``…);
* LOC: lines that are not blank and do not start with ``#`` (docstrings count);
* complexity: per function (``def`` and ``async def``, methods and nested functions
  included), 1 + the number of ``If``, ``While``, ``For``, ``ExceptHandler``, ``With``,
  ``Assert``, ``BoolOp`` and ``Compare`` nodes anywhere inside it, so a nested function's
  nodes count for it and for every function around it; a file that does not parse counts its
  LOC only. This is not radon's McCabe number: radon counts ``elif``/``else`` branches of loops,
  comprehension ``if``s, each extra operand of a boolean operator and ``match`` cases, but not
  ``with``, ``assert`` or comparisons, and never counts a nested function's branches for its
  parent (``tests/unit/test_oracle_metrics.py`` shows one function both ways);
* functions and classes: every ``def``/``async def`` and ``class``;
* tokens: whitespace-split words; test files: paths containing ``test`` (relative to the
  oracle folder; the paper looks at the absolute path).

Java: the paper uses regular expressions "without javalang/lizard"; we count the same things
on lizard's tokens (comments and string literals removed by a real lexer rather than
regexes): complexity = methods + occurrences of ``if``, ``for``, ``while``, ``case``,
``catch``, ``&&``, ``||``, ``?``; functions = lizard's function list (the paper's regex also
takes ``try (…) {`` and anonymous classes for methods); classes = ``class``/``interface``/
``enum`` followed by a name; LOC = lizard's ``nloc`` (lines holding code, like the paper's
comment-stripped non-blank lines); folders ``target``, ``build``, ``.git``, ``.idea``,
``node_modules`` skipped.

API endpoints: the paper's regex over the oracle's ``README.md``
(:func:`inspector.model.benchmark.difficulty.paper_endpoints`); the task's README when the oracle
has none.
"""

from __future__ import annotations

import ast
from pathlib import Path

from inspector.model.benchmark.difficulty import OracleMetrics, paper_endpoints
from inspector.services.analysis.code_metrics import (
    JAVA,
    PYTHON,
    detect_language,
    java_tokens,
    lizard_file,
)
from inspector.services.analysis.sources import (
    MAX_SOURCE_BYTES,
    Source,
    collect_sources,
    read_source,
)
from inspector.services.repo.files import SKIP_DIRS

PAPER_SKIP = {PYTHON: {"venv", "__pycache__", ".git", "node_modules", ".pytest_cache", "data",
                       "logs", "uploads"},
              JAVA: {"target", "build", ".git", ".idea", "node_modules"}}
_BRANCHES = (ast.If, ast.While, ast.For, ast.ExceptHandler, ast.With, ast.Assert, ast.BoolOp,
             ast.Compare)
_JAVA_DECISIONS = {"if", "for", "while", "case", "catch", "&&", "||", "?"}
_JAVA_TYPES = {"class", "interface", "enum"}


def paper_python_complexity(tree: ast.AST) -> tuple[int, int, int]:
    """(complexity, functions, classes) of a parsed module, by the paper's rule."""
    complexity = functions = classes = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            functions += 1
            complexity += 1 + sum(isinstance(n, _BRANCHES) for n in ast.walk(node))
        elif isinstance(node, ast.ClassDef):
            classes += 1
    return complexity, functions, classes


def _python(sources: list[Source]) -> dict[str, int]:
    out = {"loc": 0, "complexity": 0, "functions": 0, "classes": 0, "tokens": 0,
           "test_files": 0}
    for src in sources:
        out["test_files"] += "test" in src.file.lower()
        try:
            tree: ast.AST | None = ast.parse(src.text)
        except SyntaxError:
            tree = None  # the paper: LOC and tokens only
        except (ValueError, RecursionError, MemoryError):
            continue  # the paper: nothing at all for the file
        out["loc"] += sum(1 for line in src.text.split("\n")
                          if line.strip() and not line.strip().startswith("#"))
        out["tokens"] += len(src.text.split())
        if tree is None:
            continue
        c, f, k = paper_python_complexity(tree)
        out["complexity"] += c
        out["functions"] += f
        out["classes"] += k
    return out


def _java(sources: list[Source]) -> dict[str, int]:
    out = {"loc": 0, "complexity": 0, "functions": 0, "classes": 0, "tokens": 0,
           "test_files": 0}
    for src in sources:
        info, _ = lizard_file(src)
        if info is None:
            continue
        tokens = java_tokens(src.file, src.text)
        methods = len(info.function_list)
        out["loc"] += int(info.nloc)
        out["functions"] += methods
        # '?' inside a generic token ('<?>', '<? extends T>') is one for the paper's regex too
        out["complexity"] += methods + sum(1 if t in _JAVA_DECISIONS else t.count("?")
                                           for t in tokens)
        out["classes"] += sum(1 for i, t in enumerate(tokens[:-1]) if t in _JAVA_TYPES
                              and (i == 0 or tokens[i - 1] != ".")
                              and tokens[i + 1].isidentifier())
        out["test_files"] += "test" in src.file.lower()
    return out


def _readme(oracle: Path, task_readme: str | None) -> str:
    path = oracle / "README.md"
    if path.is_file() and not path.is_symlink():
        text, _ = read_source(path, MAX_SOURCE_BYTES * 2)
        if text is not None:
            return text
    return task_readme or ""


def oracle_metrics_for(oracle: Path, language: str | None = None,
                       task_readme: str | None = None) -> OracleMetrics:
    """The paper's metrics of the reference implementation in folder ``oracle``."""
    language = JAVA if (language or detect_language(oracle)).lower() == JAVA else PYTHON
    ext = (".java",) if language == JAVA else (".py",)
    sources, skipped = collect_sources(oracle, ext, frozenset(PAPER_SKIP[language] | SKIP_DIRS))
    counts = _java(sources) if language == JAVA else _python(sources)
    endpoints, lines = paper_endpoints(_readme(oracle, task_readme))
    return OracleMetrics(language, len(sources), counts["loc"], counts["complexity"],
                         counts["functions"], counts["classes"], endpoints, counts["tokens"],
                         counts["test_files"], lines,
                         tuple((s.file, s.reason) for s in skipped))
