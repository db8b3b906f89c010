"""Generated-code metrics for every sample under a folder, with the task's reference metrics.

A folder is read as runs (``discover_runs``: each sample names its repo, task and language),
else as predictions: ``<run>/<task>/`` repos (a RepoGenesis predictions folder or a folder of
them, or a root holding ``predictions/``). A repo shared by several samples is measured once;
repos are measured in a process pool and cached by fingerprint (:mod:`.cache`).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from inspector.model.benchmark.difficulty import OracleMetrics
from inspector.model.benchmark.predictions import parse_predictions_name
from inspector.services.analysis.cache import MetricsCache, fingerprint
from inspector.services.analysis.code_metrics import CodeMetrics, code_metrics_for, detect_language

Progress = Callable[[int, int], None]  # (done, total)
POOL_MIN = 16  # fewer repos to measure than this: no pool (its start-up costs more)


@dataclass(frozen=True, slots=True)
class SampleRef:
    run_id: str
    task: str
    sample: int | None
    repo: Path | None
    language: str | None


@dataclass(frozen=True, slots=True)
class SampleCode:
    """One sample's code metrics (``error`` when its repo could not be measured)."""

    run_id: str
    task: str
    sample: int | None
    repo: Path | None
    metrics: CodeMetrics | None
    error: str = ""
    oracle: OracleMetrics | None = None

    def to_json(self, files: bool = False) -> dict[str, object]:
        return {"run": self.run_id, "task": self.task, "sample": self.sample,
                "repo": str(self.repo) if self.repo else None,
                "metrics": self.metrics.to_json(files) if self.metrics else None,
                "error": self.error or None,
                "oracle": self.oracle.to_json() if self.oracle else None}


@dataclass(frozen=True, slots=True)
class CodeReport:
    samples: tuple[SampleCode, ...]
    repos: int  # distinct repos
    cached: int  # of which served from the cache
    seconds: float
    issues: tuple[str, ...] = ()

    def to_json(self, files: bool = False) -> dict[str, object]:
        return {"samples": [s.to_json(files) for s in self.samples], "repos": self.repos,
                "cached": self.cached, "seconds": round(self.seconds, 3),
                "issues": list(self.issues)}


# -- finding samples --------------------------------------------------------------------------

def _has_files(folder: Path) -> bool:
    try:
        return any(not p.name.startswith(".") and p.is_file() and not p.is_symlink()
                   for p in folder.iterdir())
    except OSError:
        return False


def _dirs(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir()
                      if p.is_dir() and not p.is_symlink() and not p.name.startswith("."))
    except OSError:
        return []


def predictions_samples(path: Path) -> list[SampleRef]:
    """Repos under a predictions folder, a folder of them, or a root holding ``predictions/``."""
    root = path / "predictions" if (path / "predictions").is_dir() else path
    refs: list[SampleRef] = []
    for child in _dirs(root):
        if _has_files(child):  # root is one run's predictions: child is a repo
            refs.append(SampleRef(root.name, child.name, None, child,
                                  parse_predictions_name(root.name).language))
            continue
        lang = parse_predictions_name(child.name).language
        refs += [SampleRef(child.name, repo.name, None, repo, lang) for repo in _dirs(child)]
    return refs


def _is_run(folder: Path) -> bool:
    return (folder / "run.json").is_file() or (folder / "intermediate").is_dir() or \
        any(folder.glob("report*.json"))


def looks_like_predictions(path: Path) -> bool:
    """True when ``path`` is predictions, not runs: no run files in it or its children, and
    it is named ``predictions``, holds repos, or holds folders named like predictions."""
    kids = _dirs(path)
    if not kids or (path / "runs").is_dir() or _is_run(path) or \
            any(_is_run(k) for k in kids[:50]):
        return False
    return path.name == "predictions" or any(_has_files(k) for k in kids[:50]) or all(
        parse_predictions_name(k.name).language for k in kids)


def find_samples(path: Path) -> tuple[list[SampleRef], list[str]]:
    """Samples under ``path`` and problems worth saying: predictions folders directly, else
    the runs through the catalog's persistent index (the app's; a second look at an unchanged
    corpus of 10,000 samples takes about half a second instead of reloading every result)."""
    from inspector.services.catalog.index import Catalog

    if looks_like_predictions(path):  # no need to search it for runs
        return predictions_samples(path), []
    catalog = Catalog(path)
    try:
        catalog.refresh()
        runs = {r.key: r for r in catalog.runs()}
        refs = [SampleRef(s.run_id, s.task, s.sample, s.repo_path,
                          s.language or (runs[s.run_key].language if s.run_key in runs
                                         else None))
                for s in catalog.samples()]
        issues = [str(i) for i in catalog.issues() if i.severity == "error"]
    finally:
        catalog.close()
    if refs:
        return refs, issues
    return predictions_samples(path), []


# -- measuring --------------------------------------------------------------------------------

def _measure(job: tuple[str, str]) -> CodeMetrics | str:
    repo, language = job
    try:
        return code_metrics_for(Path(repo), language)
    except OSError as exc:
        return f"{repo}: cannot read ({exc.strerror or exc})"


def code_metrics_many(repos: Sequence[tuple[Path, str | None]], jobs: int | None = None,
                      cache: MetricsCache | None = None, progress: Progress | None = None
                      ) -> tuple[dict[Path, CodeMetrics | str], int]:
    """Metrics of each (repo, language) (an error string for a repo that cannot be read),
    and how many came from ``cache``. ``jobs`` worker processes (default: CPU count)."""
    out: dict[Path, CodeMetrics | str] = {}
    todo: list[tuple[Path, str, str]] = []  # repo, language, key
    for repo, language in dict.fromkeys(repos):
        if not repo.is_dir():
            out[repo] = f"{repo}: not a folder"
            continue
        lang = (language or detect_language(repo)).lower()
        key = fingerprint(repo, "java" if lang == "java" else "python")
        hit = cache.get(key) if cache is not None else None
        if hit is not None:
            out[repo] = hit
        else:
            todo.append((repo, lang, key))
    cached = len(out) - sum(isinstance(v, str) for v in out.values())
    total, done = len(out) + len(todo), len(out)
    if progress:
        progress(done, total)
    jobs = jobs or multiprocessing.cpu_count()
    args = [(str(r), lang) for r, lang, _ in todo]
    if jobs > 1 and len(todo) >= POOL_MIN:
        done = _pooled(todo, args, jobs, out, cache, progress, done, total)
    for (repo, _, key), job in zip(todo, args, strict=True):
        if repo not in out:  # serial, or what a broken pool left
            done += 1
            _store(out, cache, repo, key, _measure(job), progress, done, total)
    if cache is not None:
        cache.save()
    return out, cached


def _pooled(todo: list[tuple[Path, str, str]], args: list[tuple[str, str]], jobs: int,
            out: dict[Path, CodeMetrics | str], cache: MetricsCache | None,
            progress: Progress | None, done: int, total: int) -> int:
    """Measure ``todo`` in ``jobs`` processes; a pool that cannot start or breaks (a killed
    worker, a ``__main__`` that spawn cannot re-import) leaves the rest to the caller."""
    ctx = multiprocessing.get_context("spawn")  # safe beside threads (the app)
    try:
        with ProcessPoolExecutor(jobs, mp_context=ctx) as pool:
            results = pool.map(_measure, args, chunksize=max(1, len(todo) // (jobs * 8)))
            for (repo, _, key), res in zip(todo, results, strict=True):
                done += 1
                _store(out, cache, repo, key, res, progress, done, total)
    except (BrokenProcessPool, OSError):
        pass
    return done


def _store(out: dict[Path, CodeMetrics | str], cache: MetricsCache | None, repo: Path,
           key: str, res: CodeMetrics | str, progress: Progress | None, done: int,
           total: int) -> None:
    out[repo] = res
    if cache is not None and isinstance(res, CodeMetrics):
        cache.put(key, res)
    if progress:
        progress(done, total)


def analyze_code(path: Path, oracle_dir: Path | None = None, jobs: int | None = None,
                 use_cache: bool = True, progress: Progress | None = None,
                 cache_path: Path | None = None) -> CodeReport:
    """Code metrics of every sample under ``path``; with ``oracle_dir`` (one folder per task)
    each sample carries its task's reference metrics."""
    from inspector.services.analysis.oracle import oracle_metrics_for

    start = time.perf_counter()
    refs, issues = find_samples(path)
    repos = [(r.repo, r.language) for r in refs if r.repo is not None]
    cache = MetricsCache(cache_path) if use_cache else None
    measured, cached = code_metrics_many(repos, jobs, cache, progress)
    oracles: dict[str, OracleMetrics | None] = {}
    rows = []
    for r in refs:
        oracle = None
        if oracle_dir is not None:
            if r.task not in oracles:
                folder = oracle_dir / r.task
                oracles[r.task] = oracle_metrics_for(folder, r.language) \
                    if folder.is_dir() and not folder.is_symlink() else None
            oracle = oracles[r.task]
        got = measured.get(r.repo) if r.repo is not None else None
        if isinstance(got, CodeMetrics):
            rows.append(SampleCode(r.run_id, r.task, r.sample, r.repo, got, oracle=oracle))
        else:
            rows.append(SampleCode(r.run_id, r.task, r.sample, r.repo, None,
                                   got or "the sample names no repository", oracle))
    return CodeReport(tuple(rows), len({r.repo for r in refs if r.repo}), cached,
                      time.perf_counter() - start, tuple(issues))
