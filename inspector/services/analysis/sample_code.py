"""One sample's generated-code metrics for the sample view, beside its task's reference.

The cache (:mod:`.cache`) is looked up here, so a second look at an unchanged repo only stats
its files. A repo not in the cache is measured, by default in one short-lived worker process
(:mod:`.measure_worker`; never a process pool): the app calls this from a thread, and
complexipy's native parser has crashed a whole process when run from a fresh thread
(SIGSEGV in its bundled allocator's per-thread set-up), so a crash must cost one
measurement, never the app. ``isolated=False`` measures in this process (a command-line
caller on its main thread).

The task's reference implementation (``ORACLE_DIR/<task>/`` or the task's own ``oracle/``
folder, :func:`.tasks.oracle_folder`) is measured the same way with the same tools, so the
two columns compare like with like; its RepoGenesis difficulty (the paper's own counts,
:mod:`.oracle`: pure Python) comes with it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from inspector.model.benchmark.difficulty import Difficulty, classify
from inspector.model.benchmark.task import Task
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

WORKER_TIMEOUT = 300.0  # seconds for one worker (a repo and its reference)
Measured = CodeMetrics | str  # the metrics, or an error naming the repo


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


def measure_isolated(jobs: list[tuple[Path, str]],
                     timeout: float = WORKER_TIMEOUT) -> list[Measured]:
    """Metrics of each (repo, language), measured in one worker process. A worker that
    crashes, hangs or answers nonsense gives every repo an error saying so."""
    if not jobs:
        return []
    env = dict(os.environ)
    package_parent = str(Path(__file__).resolve().parents[3])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH"))
                                        if p)
    payload = json.dumps([[str(repo), lang] for repo, lang in jobs])
    try:
        proc = subprocess.run([sys.executable, "-m", "inspector.services.analysis.measure_worker"],
                              input=payload.encode(), capture_output=True, timeout=timeout,
                              env=env, check=False)
    except subprocess.TimeoutExpired:
        return [f"{repo}: measuring took longer than {timeout:g} s" for repo, _ in jobs]
    except OSError as exc:
        return [f"cannot start the metrics worker ({exc.strerror or exc})"] * len(jobs)
    if proc.returncode != 0:
        how = f"signal {-proc.returncode}" if proc.returncode < 0 else \
            f"exit status {proc.returncode}"
        return [f"{repo}: the metrics tools crashed on this repository ({how})"
                for repo, _ in jobs]
    try:
        answers = json.loads(proc.stdout)
        out: list[Measured] = []
        for answer, _job in zip(answers, jobs, strict=True):
            if "metrics" in answer:
                out.append(CodeMetrics.from_json(answer["metrics"]))
            else:
                out.append(str(answer["error"]))
        return out
    except (ValueError, KeyError, TypeError, AttributeError):
        return [f"{repo}: the metrics worker answered nonsense" for repo, _ in jobs]


def _measure_here(jobs: list[tuple[Path, str]]) -> list[Measured]:
    out: list[Measured] = []
    for repo, lang in jobs:
        try:
            out.append(code_metrics_for(repo, lang))
        except OSError as exc:
            out.append(f"{repo}: cannot read ({exc.strerror or exc})")
    return out


def measure_repos(repos: list[tuple[Path, str | None]], cache: MetricsCache | None,
                  isolated: bool = True) -> list[tuple[Measured, bool]]:
    """(metrics or an error, served from ``cache``) per (repo, language); what is measured
    is put in ``cache`` (the caller saves it)."""
    results: list[tuple[Measured, bool] | None] = []
    todo: list[tuple[int, Path, str, str]] = []  # index, repo, language, cache key
    for i, (repo, language) in enumerate(repos):
        if not repo.is_dir() or repo.is_symlink():
            results.append((f"{repo}: not a folder", False))
            continue
        try:
            lang = _language(repo, language)
            key = fingerprint(repo, lang)
        except OSError as exc:
            results.append((f"{repo}: cannot read ({exc.strerror or exc})", False))
            continue
        hit = cache.get(key) if cache is not None else None
        results.append((hit, True) if hit is not None else None)
        if hit is None:
            todo.append((i, repo, lang, key))
    jobs = [(repo, lang) for _, repo, lang, _ in todo]
    measured = measure_isolated(jobs) if isolated else _measure_here(jobs)
    for (i, _, _, key), got in zip(todo, measured, strict=True):
        results[i] = (got, False)
        if cache is not None and isinstance(got, CodeMetrics):
            cache.put(key, got)
    return [r if r is not None else ("not measured", False) for r in results]


def sample_code_metrics(repo: Path | None, language: str | None, task: Task | None,
                        oracle_dir: Path | None = None, use_cache: bool = True,
                        cache_path: Path | None = None,
                        isolated: bool = True) -> SampleCodeMetrics:
    """``repo``'s code metrics and, when ``task`` has a reference implementation, the
    reference's (same tools) and its RepoGenesis difficulty. Never raises for bad input:
    unreadable repos become ``error``, unparseable files skipped files or notes."""
    start = time.perf_counter()
    language = language or (task.language if task else None)
    cache = MetricsCache(cache_path) if use_cache else None
    folder = oracle_folder(task, oracle_dir) if task is not None else None
    wanted: list[tuple[Path, str | None]] = []
    if repo is not None:
        wanted.append((repo, language))
    if folder is not None:
        wanted.append((folder, language))
    got = measure_repos(wanted, cache, isolated)
    if cache is not None:
        cache.save()
    mine, cached = got[0] if repo is not None else ("the sample names no repository", False)
    reference = got[-1][0] if folder is not None else None
    difficulty = None
    if folder is not None:
        try:
            difficulty = classify(oracle_metrics_for(folder, language,
                                                     task.readme if task else None))
        except OSError:
            difficulty = None
    return SampleCodeMetrics(
        repo, mine if isinstance(mine, CodeMetrics) else None,
        mine if isinstance(mine, str) else "", folder,
        reference if isinstance(reference, CodeMetrics) else None,
        reference if isinstance(reference, str) else "", difficulty, cached,
        time.perf_counter() - start)
