"""One sample's generated-code metrics for the sample view, beside its task's reference.

The repo is measured in this process (the app calls it from a thread worker: never a process
pool) through the persistent cache (:mod:`.cache`), so a second look at an unchanged repo only
stats its files. The task's reference implementation (``ORACLE_DIR/<task>/`` or the task's own
``oracle/`` folder, :func:`.tasks.oracle_folder`) is measured the same way with the same tools,
so the two columns compare like with like; its RepoGenesis difficulty (the paper's own counts,
:mod:`.oracle`) comes with it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from inspector.model.difficulty import Difficulty, classify
from inspector.model.task import Task
from inspector.services.analysis.cache import MetricsCache, fingerprint
from inspector.services.analysis.code_metrics import (
    JAVA,
    PYTHON,
    CodeMetrics,
    FileMetrics,
    code_metrics_for,
    detect_language,
)
from inspector.services.analysis.oracle import oracle_metrics_for
from inspector.services.analysis.tasks import oracle_folder


@dataclass(frozen=True, slots=True)
class SampleCodeMetrics:
    """A repo's metrics (``error`` when it cannot be measured) and its task's reference's."""

    repo: Path | None
    metrics: CodeMetrics | None
    error: str = ""
    reference_folder: Path | None = None  # None: the task has no reference implementation
    reference: CodeMetrics | None = None
    reference_error: str = ""
    difficulty: Difficulty | None = None  # RepoGenesis difficulty of the reference
    cached: bool = False  # the repo's metrics came from the cache
    seconds: float = 0.0

    def top_files(self, n: int = 5) -> list[FileMetrics]:
        """The ``n`` most complex files: by cyclomatic sum, then SLOC, then name."""
        files = self.metrics.per_file if self.metrics else ()
        return sorted(files, key=lambda f: (-f.cyclomatic, -f.sloc, f.file))[:n]


def _language(repo: Path, language: str | None) -> str:
    lang = (language or detect_language(repo)).lower()
    return JAVA if lang == JAVA else PYTHON


def measure_repo(repo: Path, language: str | None,
                 cache: MetricsCache | None) -> tuple[CodeMetrics | str, bool]:
    """(metrics or an error naming ``repo``, served from ``cache``). Measured metrics are put
    in ``cache``; the caller saves it."""
    if not repo.is_dir() or repo.is_symlink():
        return f"{repo}: not a folder", False
    try:
        lang = _language(repo, language)
        key = fingerprint(repo, lang)
        hit = cache.get(key) if cache is not None else None
        if hit is not None:
            return hit, True
        metrics = code_metrics_for(repo, lang)
    except OSError as exc:
        return f"{repo}: cannot read ({exc.strerror or exc})", False
    if cache is not None:
        cache.put(key, metrics)
    return metrics, False


def sample_code_metrics(repo: Path | None, language: str | None, task: Task | None,
                        oracle_dir: Path | None = None, use_cache: bool = True,
                        cache_path: Path | None = None) -> SampleCodeMetrics:
    """``repo``'s code metrics and, when ``task`` has a reference implementation, the
    reference's (same tools) and its RepoGenesis difficulty. Never raises for bad input:
    unreadable repos become ``error``, unparseable files skipped files or notes."""
    start = time.perf_counter()
    language = language or (task.language if task else None)
    cache = MetricsCache(cache_path) if use_cache else None
    if repo is None:
        got: CodeMetrics | str = "the sample names no repository"
        cached = False
    else:
        got, cached = measure_repo(repo, language, cache)
    folder = oracle_folder(task, oracle_dir) if task is not None else None
    reference: CodeMetrics | str | None = None
    difficulty = None
    if folder is not None:
        reference, _ = measure_repo(folder, language, cache)
        try:
            difficulty = classify(oracle_metrics_for(folder, language,
                                                     task.readme if task else None))
        except OSError:
            difficulty = None
    if cache is not None:
        cache.save()
    return SampleCodeMetrics(
        repo, got if isinstance(got, CodeMetrics) else None,
        got if isinstance(got, str) else "", folder,
        reference if isinstance(reference, CodeMetrics) else None,
        reference if isinstance(reference, str) else "", difficulty, cached,
        time.perf_counter() - start)
