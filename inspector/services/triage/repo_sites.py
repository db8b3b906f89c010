"""Where in the generated repo a status code comes from: the handler of an endpoint and the
lines in it that answer with that code (``return …, 400``, ``abort(400)``,
``HTTPException(status_code=400)``), so a model-side reason can quote ``file:line``."""

from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass
from pathlib import Path

from inspector.model.repo.generated_repo import SKIP_DIRS, read_text, walk_files

MAX_FILES = 200
MAX_BYTES = 512 * 1024
_SKIP = frozenset(SKIP_DIRS | {"tests", "test"})


@dataclass(frozen=True, slots=True)
class Site:
    """A line of the repo: path relative to the repo, 1-based line, its text."""

    file: str
    line: int
    text: str


def py_files(repo: Path) -> list[Path]:
    """The repo's own Python files (no tests, no vendored folders, symlinks not followed)."""
    return list(itertools.islice(walk_files(repo, (".py",), _SKIP), MAX_FILES))


def _segments(path: str) -> list[str]:
    return [s for s in path.strip("/").split("/") if s and "{" not in s and "<" not in s]


def _route_method(decorator: str, method: str) -> bool:
    text = decorator.lower()
    wanted = method.lower()
    if re.search(rf"\.{wanted}\(", text):
        return True
    listed = re.search(r"methods\s*=\s*[\[(]([^\])]*)", text)
    if listed:
        return wanted in listed.group(1)
    return wanted == "get" and bool(re.search(r"\.(route|api_route)\(", text))


def _route_rank(decorator: str, static: list[str], params: int) -> int:
    """How well a route decorator fits the request path: 2 names its last static segment,
    1 has as many path parameters, 0 neither."""
    text = decorator.lower()
    literal = re.findall(r"['\"]([^'\"]*)['\"]", text)
    route = literal[0] if literal else ""
    if static and static[-1].lower() in route:
        return 2
    if route.count("{") + route.count("<") == params:
        return 1
    return 0


def status_sites(repo: Path | None, code: int, method: str, path: str, limit: int = 2
                 ) -> list[Site]:
    """Lines answering ``code`` in the handler of ``method path`` (routes of that method, the
    best-fitting path first), else anywhere in the repo's Python files."""
    if repo is None or not repo.is_dir():
        return []
    pat = re.compile(rf"(?<![\w.]){code}(?![\w.])")
    static = _segments(path)
    params = path.count("{")
    ranked: list[tuple[int, Site]] = []
    anywhere: list[Site] = []
    for file in py_files(repo):
        text = read_text(file, MAX_BYTES)
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        lines = text.splitlines()
        rel = file.relative_to(repo).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            decos = [ast.get_source_segment(text, d) or "" for d in node.decorator_list]
            routes = [d for d in decos if "(" in d and _route_method(d, method)]
            if not routes:
                continue
            rank = max(_route_rank(d, static, params) for d in routes)
            end = node.end_lineno or node.lineno
            for no in range(node.lineno, end + 1):
                if pat.search(lines[no - 1]) and not lines[no - 1].lstrip().startswith("#"):
                    ranked.append((rank, Site(rel, no, lines[no - 1].strip()[:200])))
        for no, line in enumerate(lines, 1):
            if pat.search(line) and re.search(r"return|abort|raise|status", line):
                anywhere.append(Site(rel, no, line.strip()[:200]))
    if ranked:
        best = max(r for r, _ in ranked)
        return [site for r, site in ranked if r == best][:limit]
    return anywhere[:limit]
