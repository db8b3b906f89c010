"""Writing runs: our format (run.json, samples/…/result.json) and RepoGenesis reports."""

from __future__ import annotations

import platform
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from inspector import __version__
from inspector.model import Phase, SampleResult, Task
from inspector.model.results.sample import NotEvaluable
from inspector.model.runs.runformat import (
    FORMAT_NAME,
    FORMAT_VERSION,
    GIVEN_UP_FIELD,
    RESULT_FILE,
    RUN_FILE,
    rel,
    sample_to_json,
    task_to_json,
)
from inspector.model.runs.twins import (
    STOCK,
    TWINS_FIELD,
    stock_api_counts,
    stock_dsr_success,
    stock_exit_code,
)
from inspector.model.untrusted.jsonfields import read_json
from inspector.services.figures.metrics import repogenesis_summary
from inspector.services.storage.atomic import write_json_atomic

HARNESS_VERSION = "1.0.0"  # the RepoGenesis harness version whose report format we write


def sample_dir(run_dir: Path, task: str, sample: int) -> Path:
    return run_dir / "samples" / task / str(sample)


def write_sample(run_dir: Path, result: SampleResult, started_at: str | None,
                 finished_at: str | None) -> Path:
    d = sample_dir(run_dir, result.task, result.sample)
    write_json_atomic(d / RESULT_FILE, sample_to_json(result, d, started_at, finished_at))
    return d


def write_run_json(run_dir: Path, *, run_id: str, agent: str, model: str, language: str,
                   generation_date: str | None, created_at: str, finished_at: str | None,
                   status: str, predictions: list[Path], tasks_root: Path,
                   tasks: list[Task], samples: list[tuple[str, int]], backend: str,
                   settings: dict[str, Any], elapsed_seconds: float | None,
                   given_up: Sequence[tuple[str, int, NotEvaluable]] = ()) -> None:
    """``run.json``; rewritten after every sample so a run in progress can be watched.
    ``given_up``: samples the infrastructure failed for good (no ``result.json``): listed as
    ``not_evaluable`` so readers count them apart (docs/run-format.md, "Not evaluable")."""
    doc = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "run_id": run_id,
        "agent": agent,
        "model": model,
        "language": language,
        "generation_date": generation_date,
        "status": status,
        "created_at": created_at,
        "finished_at": finished_at,
        "elapsed_seconds": elapsed_seconds,
        "source": {
            "predictions_dir": rel(predictions[0], run_dir) if predictions else None,
            "predictions_dirs": [rel(p, run_dir) for p in predictions],
            "tasks_root": rel(tasks_root, run_dir),
        },
        "harness": {
            "name": "genesis-inspector",
            "version": __version__,
            "backend": backend,
            "python": platform.python_version(),
            "platform": f"{platform.system()} {platform.machine()}",
            "settings": settings,
        },
        "tasks": [task_to_json(t, run_dir) for t in sorted(tasks, key=lambda t: t.name)],
        "samples": [
            {"task": t, "sample": n, "path": f"samples/{t}/{n}"} for t, n in sorted(samples)
        ],
    }
    if given_up:
        doc[GIVEN_UP_FIELD] = [
            {"task": t, "sample": n, "kind": ne.kind, "reason": ne.reason}
            for t, n, ne in sorted(given_up, key=lambda g: (g[0], g[1]))]
    write_json_atomic(run_dir / RUN_FILE, doc)


def record_twins(run_dir: Path, reports: list[Path]) -> None:
    """Record in ``run.json`` that ``reports`` hold this evaluation in the stock layout
    (``"twins": [{"format": "repogenesis", "path": <relative>}]``, see model/twins.py)."""
    doc = read_json(run_dir / RUN_FILE)
    doc[TWINS_FIELD] = [{"format": STOCK, "path": rel(p, run_dir)} for p in reports]
    write_json_atomic(run_dir / RUN_FILE, doc)


# ------------------------------------------------------------------ RepoGenesis-compatible

def stock_dsr_message(s: SampleResult, startup_timeout: float) -> str:
    ok = s.deployment.lenient_success
    if ok is None:
        ok = s.deployment.success
    if ok:
        return "Service started successfully"
    if s.deployment.message == "No service entry point found":
        return "No service entry point found"
    return f"Service failed to start within {startup_timeout:.0f}s"


def stock_result(s: SampleResult, startup_timeout: float = 15.0) -> dict[str, Any]:
    """One per-repo result exactly as the stock harness lays it out (its lenient semantics)."""
    t = s.tests
    out: dict[str, Any] = {
        "repo_name": s.task,
        "lang": s.language,
        "port": s.port,
        "framework": s.framework or "any",
        "exit_code": stock_exit_code(s),
        "dsr": {
            "success": stock_dsr_success(s),
            "message": stock_dsr_message(s, startup_timeout),
        },
        "pass_at_1": {
            "passed": t.passed, "failed": t.failed, "errors": t.errors, "skipped": 0,
            "total": t.total, "score": t.score,
        },
    }
    api = stock_api_counts(s)
    if api is not None:
        total_apis, impl = api
        out["api_coverage"] = {
            "total_apis": total_apis, "implemented_apis": impl,
            "score": round(impl / total_apis, 4) if total_apis else 0.0,
        }
    if s.elapsed_seconds is not None:
        out["elapsed_seconds"] = round(s.elapsed_seconds, 2)
    if s.build_error:
        out["build_error"] = s.build_error
    if s.error:
        out["error"] = s.error
    return out


def stock_report(samples: list[SampleResult], predictions_dir: str, elapsed: float,
                 timestamp: datetime, agent: str | None = None, model: str | None = None,
                 startup_timeout: float = 15.0, backend: str = "local") -> dict[str, Any]:
    """A RepoGenesis report for these samples. ``metadata.generated_by`` (an extra key the
    stock tools ignore) says the figures come from Genesis Inspector's harness."""
    meta: dict[str, Any] = {}
    if model:
        meta["model_name"] = model
    if agent:
        meta["agent_name"] = agent
    meta.update({
        "total_elapsed_seconds": round(elapsed, 2),
        "predictions_dir": predictions_dir,
        "timestamp": timestamp.isoformat(),
        "harness_version": HARNESS_VERSION,
        "generated_by": f"genesis-inspector {__version__} ({backend} backend)",
    })
    ordered = sorted(samples, key=lambda s: (s.task, s.sample))
    return {
        "metadata": meta,
        "summary": repogenesis_summary(ordered),
        "results": [stock_result(s, startup_timeout) for s in ordered],
    }


CONTAINER_LOG_SUFFIX = ".log"


def container_transcript(s: SampleResult, startup_timeout: float = 15.0) -> str:
    """What the stock evaluation container prints for this sample (``--verbose``), untimed.

    The stock harness keeps this output in memory only; we write it next to each per-repo
    result so RepoGenesis-format runs have a log to replay. Lines come from our phase logs in
    order: install (the image build) before ``>>>>> DSR_START``, start and health check inside
    the DSR markers, tests inside the TEST markers, exactly where the entrypoint prints them.
    """
    from inspector.model.logs.phase_logs import parse_log_line

    def phase_lines(phase: Phase) -> list[str]:
        path = s.logs.get(phase)
        if path is None or not path.is_file():
            return []
        with path.open(encoding="utf-8", errors="replace") as fh:
            lines = [parse_log_line(raw) for raw in fh]
        return [line.text for line in lines if line.stream != "meta"]

    ok = s.deployment.lenient_success
    if ok is None:
        ok = s.deployment.success
    out = [*phase_lines(Phase.INSTALL), ">>>>> DSR_START",
           *phase_lines(Phase.START), *phase_lines(Phase.HEALTH),
           f"DSR_RESULT={'true' if ok else 'false'}",
           f"DSR_MESSAGE={stock_dsr_message(s, startup_timeout)}", ">>>>> DSR_END",
           ">>>>> TEST_START", *phase_lines(Phase.TESTS), "TEST_EXIT_CODE=0", ">>>>> TEST_END"]
    return "\n".join(out) + "\n"


def write_repogenesis_output(out: Path, samples: list[SampleResult], predictions: Path,
                             elapsed: float, timestamp: datetime, layout: str = "current",
                             agent: str | None = None, model: str | None = None,
                             startup_timeout: float = 15.0, backend: str = "local") -> Path:
    """Write the stock harness's output layout.

    ``current``: ``report_<stamp>.json`` + ``intermediate/<stamp>/<task>.json`` (today's code);
    ``flat``: ``report.json`` + ``intermediate/<task>.json`` (the committed data's layout).
    Beside each per-repo file, ``<task>.log`` holds the container output (see
    :func:`container_transcript`), which the stock harness does not keep.
    Per-repo files are written like the stock harness: 2-space JSON without trailing newline.
    """
    import json

    from inspector.services.storage.atomic import write_bytes_atomic

    report = stock_report(samples, rel(predictions, out), elapsed, timestamp, agent, model,
                          startup_timeout, backend)
    stamp = timestamp.strftime("%Y-%m-%d_%H-%M-%S")
    if layout == "flat":
        report_path, inter = out / "report.json", out / "intermediate"
    else:
        report_path, inter = out / f"report_{stamp}.json", out / "intermediate" / stamp
    for result in report["results"]:
        write_bytes_atomic(inter / f"{result['repo_name']}.json",
                           json.dumps(result, indent=2, ensure_ascii=False).encode())
    for s in samples:
        if s.logs:
            write_bytes_atomic(inter / f"{s.task}{CONTAINER_LOG_SUFFIX}",
                               container_transcript(s, startup_timeout).encode())
    write_bytes_atomic(report_path, json.dumps(report, indent=2, ensure_ascii=False).encode())
    return report_path

