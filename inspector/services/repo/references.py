"""file:line references in tracebacks and messages, resolved to files of the generated repo
or of the task (golden tests), so the UI can open them at that line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from inspector.model.failures.text import FILE_LINE_ANYWHERE, JAVA_FRAME, PY_FRAME_ANYWHERE
from inspector.model.repo.generated_repo import GeneratedRepo

_PATTERNS = (PY_FRAME_ANYWHERE, FILE_LINE_ANYWHERE, JAVA_FRAME)
MAX_REFS = 50


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference found in text: ``root`` is "repo" or "task"; ``rel`` is relative to it."""

    root: str
    rel: str
    line: int
    text: str

    @property
    def label(self) -> str:
        where = "repo" if self.root == "repo" else "task"
        return f"{where}: {self.rel}:{self.line}"


def resolve_path(raw: str, roots: Mapping[str, Path | GeneratedRepo | None]
                 ) -> tuple[str, str] | None:
    """The (root name, relative path) that ``raw`` most plausibly names: the longest trailing
    part of it that is a file under one of ``roots`` (absolute temp-dir prefixes drop off). A
    ``tests/…`` path is looked up under the ``task`` root first."""
    repos = {name: r if isinstance(r, GeneratedRepo) else GeneratedRepo(r)
             for name, r in roots.items() if r is not None}
    parts = [p for p in PurePosixPath(raw.replace("\\", "/")).parts if p not in ("/", "", ".")]
    if not parts or ".." in parts:
        return None
    for start in range(len(parts)):
        rel = "/".join(parts[start:])
        # the task's golden tests replace the repo's tests/ when deployed: they come first
        order = sorted(repos.items(), key=lambda kv: kv[0] != "task") \
            if rel.startswith("tests/") else repos.items()
        for name, repo in order:
            if repo.is_file(rel):
                return name, rel
    return None


def find_refs(text: str, repo: Path | None, task_root: Path | None) -> list[Ref]:
    """Every resolvable file:line reference in ``text``, in order, without duplicates."""
    roots = {"repo": GeneratedRepo(repo), "task": GeneratedRepo(task_root)}
    seen: set[tuple[str, str, int]] = set()
    found: list[tuple[int, Ref]] = []
    java_index: dict[str, tuple[str, str]] | None = None
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            raw, line = m.group("path"), int(m.group("line"))
            hit = resolve_path(raw, roots)
            if hit is None and raw.endswith(".java"):
                if java_index is None:
                    # golden tests (task) first: they replace the repo's own src/test
                    java_index = {}
                    for name in ("repo", "task"):
                        java_index.update({k: (name, v)
                                           for k, v in _java_files(roots[name]).items()})
                hit = java_index.get(raw)
            if hit is None:
                continue
            key = (hit[0], hit[1], line)
            if key in seen:
                continue
            seen.add(key)
            found.append((m.start(), Ref(hit[0], hit[1], line, m.group(0))))
    return [r for _, r in sorted(found, key=lambda x: x[0])][:MAX_REFS]


def _java_files(repo: GeneratedRepo) -> dict[str, str]:
    """Java source file name -> its first path in the repo (walk order)."""
    out: dict[str, str] = {}
    if repo.root is not None:
        for p in repo.files((".java",)):
            out.setdefault(p.name, p.relative_to(repo.root).as_posix())
    return out
