"""Loader 1: outputs of the public RepoGenesis harness, read exactly as they are.

Accepted layouts under one output folder:

* ``report.json`` or ``report_<YYYY-MM-DD_HH-MM-SS>.json`` (``metadata``, ``summary``,
  ``results``), and
* ``intermediate/<task>.json`` or ``intermediate/<run_id>/<task>.json`` (one per-repo result
  each), used when no report covers them (for instance a run that crashed before its report).

These files keep counts only: no per-test ids, no logs, no per-endpoint evidence. Every field may
be missing or malformed; a bad result is reported with file and field and the rest still loads.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from inspector.model.benchmark.predictions import parse_predictions_name
from inspector.model.benchmark.task import Task
from inspector.model.results.not_evaluable import with_inference
from inspector.model.results.outcomes import Phase
from inspector.model.results.run import Run, RunSource
from inspector.model.results.sample import (
    ApiCoverage,
    Deployment,
    NotEvaluable,
    SampleResult,
    TestSummary,
)
from inspector.model.results.unreadable import UnreadableSample
from inspector.model.runs.ids import check_id, checked_name
from inspector.model.runs.repo_scope import REPO_REFUSED, RepoScope, run_scope
from inspector.model.runs.stock_flaws import java_counts_doubled, run_java_notes
from inspector.model.runs.unreadable_run import unreadable_run
from inspector.model.untrusted.errors import LoadError, LoadIssue
from inspector.model.untrusted.jsonfields import Fields, read_json

FORMAT = "repogenesis"
REPORT_RE = re.compile(r"^report(?:_(\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}))?\.json$")
COUNTS_ONLY_NOTE = (
    "RepoGenesis report: counts only. The stock harness keeps no per-test results, no logs and "
    "no per-endpoint evidence; re-evaluate with `inspector evaluate` to get them."
)
SUMMARY_KEYS = ("avg_pass_at_1", "avg_api_coverage", "deployment_success_rate")
"""The figures of a report's ``summary`` that are checked against its ``results``."""
EXIT_CODES = {
    0: "container ran to the end (says nothing about tests)",
    -1: "container timed out",
    -2: "docker error",
    -3: "image build failed",
    -99: "harness exception",
}

_STOCK_NOT_EVALUABLE = {-2: "sandbox_unavailable", -99: "harness_exception"}
"""Stock exit codes that say the infrastructure, not the repo, stopped the sample."""


def _is_dir(path: Path) -> bool:
    """``path.is_dir()`` that is False, not an exception, for names the OS rejects."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def is_repogenesis_dir(path: Path) -> bool:
    """True when ``path`` holds a RepoGenesis report or intermediate results."""
    if not path.is_dir():
        return False
    # a report that is not a regular file (a FIFO, a symlink loop) still marks the folder: its
    # loader then names what is wrong with it instead of the folder being passed over
    if any(REPORT_RE.match(p.name) and not _is_dir(p) for p in path.iterdir()):
        return not (path / "run.json").is_file()
    inter = path / "intermediate"
    return inter.is_dir() and not (path / "run.json").is_file()


def _failed_phase(exit_code: int | None, dsr_ok: bool, tests: TestSummary) -> Phase | None:
    if exit_code == -3:
        return Phase.INSTALL
    if not dsr_ok:
        return Phase.START
    if tests.total == 0 or tests.failed or tests.errors:
        return Phase.TESTS
    return None


def parse_result(obj: Any, path: Path, field: str, run_id: str, default_lang: str,
                 issues: list[LoadIssue], tasks: dict[str, Task] | None = None,
                 predictions: Path | None = None, scope: RepoScope | None = None
                 ) -> SampleResult:
    """One per-repo result object; raises :class:`LoadError` when it cannot be used.

    The repo is ``predictions/<repo_name>``; with ``scope``, one that resolves outside it (a
    symlink) is a problem and is not opened."""
    f = Fields(obj, path, field, issues)
    name = check_id(f.text("repo_name", required=True) or "", path, f._name("repo_name"),
                    "task name")
    lang = (f.text("lang", default_lang) or default_lang).lower()
    if lang not in ("python", "java"):
        issues.append(LoadIssue(path, f._name("lang"), f"unknown language {lang!r}", "warning"))
    exit_code = f.integer("exit_code")
    dsr = f.sub("dsr")
    dsr_ok = bool(dsr.boolean("success", False)) if dsr else False
    dsr_msg = (dsr.text("message", "") if dsr else "") or ""
    if dsr is None:
        issues.append(LoadIssue(path, f._name("dsr"), "missing; deployment counted as failed",
                                "warning"))
    p = f.sub("pass_at_1")
    task = (tasks or {}).get(name)
    if p is None:
        issues.append(LoadIssue(path, f._name("pass_at_1"), "missing; no tests counted",
                                "warning"))
        tests = TestSummary(expected=task.expected_tests if task else None)
    else:
        passed = p.integer("passed", 0, minimum=0) or 0
        failed = p.integer("failed", 0, minimum=0) or 0
        errors = p.integer("errors", 0, minimum=0) or 0
        skipped = p.integer("skipped", 0, minimum=0) or 0
        total = p.integer("total", None, minimum=0)
        score = p.number("score", None, lo=0.0, hi=1.0)
        if total is None:
            total = passed + failed + errors
        if score is None:
            score = round(passed / total, 4) if total else 0.0
        tests = TestSummary(
            passed=passed, failed=failed, errors=errors, skipped=skipped,
            expected=task.expected_tests if task else None,
            reported_total=total, reported_score=score,
        )
    ac = None
    a = f.sub("api_coverage")
    if a is not None:
        total_apis = a.integer("total_apis", 0, minimum=0) or 0
        impl = a.integer("implemented_apis", 0, minimum=0) or 0
        ac = ApiCoverage(total_apis=total_apis, implemented_apis=impl,
                         reported_score=a.number("score", None, lo=0.0, hi=1.0))
    notes = [COUNTS_ONLY_NOTE]
    doubled = java_counts_doubled(lang, tests, task)
    if doubled:
        notes.append(doubled)
    if exit_code in EXIT_CODES and exit_code != 0:
        notes.append(f"exit code {exit_code}: {EXIT_CODES[exit_code]}")
    elif exit_code is None and f.has("dsr") and dsr_msg == "Docker evaluation skipped":
        notes.append("Docker was skipped (AC only)")
    repo_path = predictions / name if predictions and _is_dir(predictions / name) else None
    if repo_path is not None and scope is not None and (outside := scope.check(
            repo_path, path, f._name("repo_name"), str(repo_path))) is not None:
        issues.append(outside)
        notes.append(f"{REPO_REFUSED}{outside.message}")
        repo_path = None
    result = SampleResult(
        run_id=run_id, task=name, sample=0, language=lang,
        deployment=Deployment(success=dsr_ok, message=dsr_msg,
                              failed_phase=_failed_phase(exit_code, dsr_ok, tests),
                              lenient_success=dsr_ok),
        tests=tests,
        framework=f.text("framework", "") or "",
        port=f.integer("port"),
        api_coverage=ac,
        elapsed_seconds=f.number("elapsed_seconds"),
        exit_code=exit_code,
        repo_path=repo_path,
        source_file=path,
        build_error=f.text("build_error"),
        error=f.text("error"),
        notes=tuple(notes),
    )
    if exit_code is not None and exit_code in _STOCK_NOT_EVALUABLE and not result.error:
        # the stock harness's own exit codes for its machinery failing
        return replace(result, not_evaluable=NotEvaluable(
            _STOCK_NOT_EVALUABLE[exit_code], f"exit code {exit_code}: {EXIT_CODES[exit_code]}",
            inferred=True))
    return with_inference(result)


def _resolve_predictions(raw: str | None, base: Path) -> Path | None:
    if not raw:
        return None
    candidate = Path(raw)
    if candidate.is_absolute():
        return candidate if _is_dir(candidate) else None
    for anchor in (base, *list(base.parents)[:4]):
        if _is_dir(anchor / candidate):
            return (anchor / candidate).resolve()
    return None


def _run_identity(meta: Fields | None, out_dir: str, stamp: str | None
                  ) -> tuple[str, str, str, str, str | None]:
    """Run id, agent, model, language and date token of a report.

    The id is ``<predictions folder>@<report stamp or output folder>`` so that two evaluations
    of the same predictions, or a RepoGenesis report next to our own run of the same
    predictions, never share an id.
    """
    pred = meta.text("predictions_dir") if meta else None
    parsed = parse_predictions_name(pred or out_dir)
    agent = (meta.text("agent_name") if meta else None) or parsed.agent or "unknown"
    model = (meta.text("model_name") if meta else None) or parsed.model or "unknown"
    base_id = Path(pred).name if pred else out_dir
    suffix = stamp or (out_dir if out_dir != base_id else "")
    run_id = f"{base_id}@{suffix}" if suffix else base_id
    return run_id, agent, model, parsed.language or "", parsed.date


def _samples_language(samples: list[SampleResult]) -> str:
    """The run's language when its samples agree, else ``mixed`` (``unknown`` when empty)."""
    langs = {s.language for s in samples}
    return langs.pop() if len(langs) == 1 else ("mixed" if langs else "unknown")


def load_report(path: Path, tasks: dict[str, Task] | None = None, opened: Path | None = None
                ) -> tuple[Run, list[LoadIssue]]:
    """Load one ``report*.json``. Raises :class:`LoadError` if the file is unusable as a whole.

    Its ``predictions_dir`` is used only inside the report's neighbourhood or the folder the
    user ``opened`` (see :mod:`.repo_scope`)."""
    issues: list[LoadIssue] = []
    data = read_json(path)
    top = Fields(data, path, "", issues)
    meta = top.sub("metadata")
    if meta is None:
        issues.append(LoadIssue(path, "metadata", "missing; agent/model taken from folder names",
                                "warning"))
    m = REPORT_RE.match(path.name)
    stamp = m.group(1) if m else None
    run_id, agent, model, language, date = _run_identity(meta, path.parent.name, stamp)
    agent = checked_name(agent, path, "metadata.agent_name", issues)
    model = checked_name(model, path, "metadata.model_name", issues)
    check_id(run_id, path, "metadata.predictions_dir" if meta and meta.has("predictions_dir")
             else "", "run id")
    predictions = _resolve_predictions(meta.text("predictions_dir") if meta else None, path.parent)
    scope, outside = run_scope(path, [predictions] if predictions else [], opened, path,
                               "metadata.predictions_dir")
    issues.extend(outside)
    refused: tuple[str, ...] = ()
    if predictions is not None and not scope.admits(predictions):
        refused = tuple(f"{REPO_REFUSED}{i.message}" for i in outside[:1])
        predictions = None
    results = top.items("results", required=True)
    samples: list[SampleResult] = []
    unreadable: list[UnreadableSample] = []
    seen: set[str] = set()
    for i, item in enumerate(results):
        try:
            s = parse_result(item, path, f"results[{i}]", run_id, language or "python", issues,
                             tasks, predictions, scope)
        except LoadError as exc:
            issues.append(exc.issue)
            unreadable.append(UnreadableSample.of(exc.issue, _named_task(item), 0))
            continue
        if s.task in seen:
            issues.append(LoadIssue(path, f"results[{i}].repo_name",
                                    f"duplicate result for {s.task!r}; later one ignored",
                                    "warning"))
            continue
        seen.add(s.task)
        samples.append(replace(s, notes=s.notes + refused) if refused else s)
    if not language:
        language = _samples_language(samples)
    summary = top.sub("summary")
    reported = tuple((key, value) for key in SUMMARY_KEYS
                     if summary is not None and (value := summary.number(key)) is not None)
    run = Run(
        id=run_id, agent=agent, model=model, language=language,
        source=RunSource(FORMAT, path, meta.text("predictions_dir") if meta else None,
                         (meta.text("generated_by") or
                          f"RepoGenesis harness {meta.text('harness_version', '?')}")
                         if meta else "RepoGenesis harness"),
        date=(meta.text("timestamp") if meta else None) or date,
        samples=tuple(samples),
        tasks={k: v for k, v in (tasks or {}).items() if k in seen},
        notes=(COUNTS_ONLY_NOTE, *run_java_notes(samples, tasks or {})),
        reported_summary=reported,
        unreadable=tuple(unreadable),
    )
    return run, issues


def _named_task(item: Any) -> str:
    """The ``repo_name`` a result entry gives, when it gives a usable one ('' else)."""
    name = item.get("repo_name") if isinstance(item, dict) else None
    return name if isinstance(name, str) and name.strip() and len(name) <= 200 else ""


def load_intermediate(folder: Path, tasks: dict[str, Task] | None = None,
                      run_id: str | None = None) -> tuple[Run, list[LoadIssue]]:
    """Load a folder of per-repo ``<task>.json`` results as one run (no report written)."""
    issues: list[LoadIssue] = []
    out_dir = folder.parent if folder.name == "intermediate" else folder.parent.parent
    stamp = None if folder.name == "intermediate" else folder.name
    ident = check_id(run_id or (f"{out_dir.name}@{stamp}" if stamp else out_dir.name),
                     folder, "", "run id")
    parsed = parse_predictions_name(out_dir.name)
    samples: list[SampleResult] = []
    unreadable: list[UnreadableSample] = []
    for file in sorted(folder.glob("*.json")):
        try:
            data = read_json(file)
            samples.append(parse_result(data, file, "", ident, parsed.language or "python",
                                        issues, tasks))
        except LoadError as exc:
            issues.append(exc.issue)
            unreadable.append(UnreadableSample.of(exc.issue, file.stem, 0))
    run = Run(
        id=ident, agent=parsed.agent or "unknown", model=parsed.model or "unknown",
        language=_samples_language(samples),
        source=RunSource(FORMAT, folder, None, "RepoGenesis harness (intermediate results)"),
        date=stamp or parsed.date, samples=tuple(samples),
        tasks={k: v for k, v in (tasks or {}).items() if any(s.task == k for s in samples)},
        notes=(COUNTS_ONLY_NOTE, "loaded from intermediate results: no report was written",
               *run_java_notes(samples, tasks or {})),
        unreadable=tuple(unreadable),
    )
    return run, issues


def _unreadable(folder: Path, exc: OSError) -> LoadIssue:
    why = "permission denied" if isinstance(exc, PermissionError) else \
        (exc.strerror or str(exc)).lower()
    return LoadIssue(folder, "", f"cannot read this folder ({why}); its results are not loaded")


def _has_results(folder: Path, issues: list[LoadIssue]) -> bool:
    """Whether ``folder`` holds per-repo ``*.json`` results; an unreadable folder is an issue
    naming it (not silently "no results")."""
    try:
        with os.scandir(folder) as it:
            return any(e.name.endswith(".json") for e in it)
    except OSError as exc:
        issues.append(_unreadable(folder, exc))
        return False


def load_output_dir(out: Path, tasks: dict[str, Task] | None = None,
                    opened: Path | None = None) -> tuple[list[Run], list[LoadIssue]]:
    """Every run in one RepoGenesis output folder: each report, plus intermediate folders that
    no report covers."""
    runs: list[Run] = []
    issues: list[LoadIssue] = []
    stamps: set[str | None] = set()
    broken: list[tuple[str | None, LoadIssue]] = []  # reports that could not be read
    for file in sorted(out.iterdir()):
        m = REPORT_RE.match(file.name)
        if not m or _is_dir(file):  # a FIFO, device or symlink loop is named by the loader
            continue
        try:
            run, found = load_report(file, tasks, opened)
        except LoadError as exc:
            issues.append(exc.issue)
            broken.append((m.group(1), exc.issue))
            continue
        stamps.add(m.group(1))
        runs.append(run)
        issues.extend(found)
    inter = out / "intermediate"
    covered: set[str | None] = set()
    if _is_dir(inter):
        folders = []
        try:
            with os.scandir(inter) as it:
                entries = list(it)
        except OSError as exc:
            issues.append(_unreadable(inter, exc))
            entries = []
        if None not in stamps and any(e.name.endswith(".json") for e in entries):
            folders.append(inter)
        folders += [sub for sub in sorted(Path(e.path) for e in entries if e.is_dir())
                    if sub.name not in stamps and _has_results(sub, issues)]
        for folder in folders:
            try:
                run, found = load_intermediate(folder, tasks)
            except LoadError as exc:
                issues.append(exc.issue)
                continue
            runs.append(run)
            issues.extend(found)
            covered.add(None if folder == inter else folder.name)
    # a report that could not be read is an unreadable run, unless its per-repo results
    # (the intermediate folder of its stamp) were loaded in its place
    runs.extend(unreadable_run(issue, out, FORMAT, stamp)
                for stamp, issue in broken if stamp not in covered)
    return runs, issues
