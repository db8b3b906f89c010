"""Loader 2: our own run format (``genesis-inspector-run``, version 1).

Layout of a run folder (documented in ``docs/run-format.md``, JSON Schemas in
``inspector/schemas/``)::

    RUN_DIR/
      run.json                          run metadata, task list, sample index
      report.json                       RepoGenesis-compatible report (stock semantics)
      samples/<task>/<n>/result.json    everything about sample n of <task>
      samples/<task>/<n>/logs/<phase>.log   timestamped lines per phase
      samples/<task>/<n>/junit.xml      the raw JUnit XML pytest wrote

This module converts between files' JSON and the model; it does no writing.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Any

from inspector.model.benchmark.task import Endpoint, Task
from inspector.model.repo.tampering import TamperFinding
from inspector.model.results.not_evaluable import with_inference
from inspector.model.results.outcomes import Outcome, Phase, PhaseStatus
from inspector.model.results.run import Run, RunSource
from inspector.model.results.sample import (
    CAUSE_KINDS,
    NOT_EVALUABLE_KINDS,
    ApiCoverage,
    Deployment,
    EndpointCoverage,
    Evidence,
    Generation,
    NotEvaluable,
    PhaseResult,
    SampleResult,
    SuiteCause,
    TestCase,
    TestSummary,
)
from inspector.model.results.unreadable import UnreadableSample
from inspector.model.runs.ids import check_id, checked_name
from inspector.model.runs.realpaths import real_folder, resolve_below, within
from inspector.model.runs.repo_scope import REPO_REFUSED, RepoScope, run_scope
from inspector.model.suite.testids import id_repairer
from inspector.model.untrusted.errors import LoadError, LoadIssue
from inspector.model.untrusted.files import read_regular
from inspector.model.untrusted.jsonfields import MAX_INT, Fields, read_json

FORMAT_NAME = "genesis-inspector-run"
FORMAT_VERSION = 1
RUN_FILE = "run.json"
RESULT_FILE = "result.json"
INFRA_FILE = "infrastructure_failure.txt"
"""Left in a sample folder (instead of ``result.json``) when the infrastructure failed it for
good: never a model failure, and evaluated again when the run is resumed."""
GIVEN_UP_FIELD = "not_evaluable"
"""``run.json``'s list of the samples the infrastructure failed for good (no result)."""


def _safe_resolve(base: Path, raw: str) -> Path | None:
    """``base / raw`` resolved, or None when the OS cannot use that path (NUL byte, a name
    too long, a symlink loop)."""
    try:
        resolved = (base / raw).resolve()
        resolved.exists()  # raises for names the OS rejects
        return resolved
    except PermissionError:  # a usable path in a folder we may not enter: reading says so
        return resolved
    except (OSError, ValueError, RuntimeError):
        return None


def _resolve_below(base: Path, base_real: str | None, raw: str) -> Path | None:
    """:func:`_safe_resolve` when ``base_real`` is ``base`` already resolved: only ``raw``'s
    own components are looked at, unless they need the full resolution (see
    :mod:`.realpaths`)."""
    fast = resolve_below(base_real, raw) if base_real is not None else None
    return Path(fast) if fast is not None else _safe_resolve(base, raw)


def rel(path: Path, start: Path) -> str:
    """``path`` relative to ``start`` with '/' separators (so runs can be moved as a whole)."""
    return Path(os.path.relpath(path, start)).as_posix()


# ----------------------------------------------------------------------------- serialise

def task_to_json(task: Task, run_dir: Path) -> dict[str, Any]:
    return {
        "name": task.name,
        "language": task.language,
        "framework": task.framework,
        "port": task.port,
        "expected_tests": task.expected_tests,
        "root": rel(task.root, run_dir) if task.root else None,
        "endpoints": [
            {"method": e.method, "path": e.path, "description": e.description}
            for e in task.endpoints
        ],
        "spec_endpoints": [
            {"method": e.method, "path": e.path, "description": e.description,
             "readme_line": e.readme_line, "source": e.source, "note": e.note}
            for e in task.spec_endpoints
        ],
    }


def sample_to_json(s: SampleResult, sample_dir: Path, started_at: str | None = None,
                   finished_at: str | None = None) -> dict[str, Any]:
    """The ``result.json`` document of one sample."""
    d = s.deployment
    t = s.tests
    out: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "sample_id": s.sample_id,
        "run_id": s.run_id,
        "task": s.task,
        "sample": s.sample,
        "language": s.language,
        "framework": s.framework,
        "port": s.port,
        "started_at": started_at,
        "finished_at": finished_at,
        "elapsed_seconds": s.elapsed_seconds,
        "exit_code": s.exit_code,
        "repo": {
            "path": rel(s.repo_path, sample_dir) if s.repo_path else None,
            "digest": s.repo_digest,
        },
        "deployment": {
            "success": d.success,
            "lenient_success": d.lenient_success,
            "message": d.message,
            "failed_phase": d.failed_phase.value if d.failed_phase else None,
            "phases": [
                {
                    "phase": p.phase.value, "status": p.status.value,
                    "started_at": p.started_at, "duration_seconds": p.duration_seconds,
                    "exit_code": p.exit_code, "message": p.message, "cached": p.cached,
                }
                for p in d.phases
            ],
        },
        "tests": {
            "passed": t.passed, "failed": t.failed, "errors": t.errors,
            "skipped": t.skipped, "total": t.total, "score": t.score,
            "expected": t.expected, "collection_errors": t.collection_errors,
            "status": t.status.value,
            "rootdir": t.rootdir,
            "cause": None if t.cause is None else {
                "kind": t.cause.kind, "text": t.cause.text, "context": t.cause.context,
                "file": t.cause.file, "line": t.cause.line,
            },
            "cases": [
                {
                    "id": c.id, "outcome": c.outcome.value,
                    "duration_seconds": c.duration_seconds, "file": c.file, "line": c.line,
                    "message": c.message, "traceback": c.traceback,
                }
                for c in t.cases
            ],
        },
        "api_coverage": None,
        "logs": {ph.value: rel(p, sample_dir) for ph, p in sorted(s.logs.items())},
        "build_error": s.build_error,
        "error": s.error,
        "notes": list(s.notes),
    }
    if s.tampering is not None:
        out["tampering"] = [f.to_json() for f in s.tampering]
    if s.generation is not None and not s.generation.is_empty:
        out["generation"] = generation_to_json(s.generation)
    # always written (null: evaluable) so readers infer a cause only for older files
    out["not_evaluable"] = not_evaluable_to_json(s.not_evaluable)
    ac = s.api_coverage
    if ac is not None:
        out["api_coverage"] = {
            "total_apis": ac.total_apis,
            "implemented_apis": ac.implemented_apis,
            "score": ac.score,
            "lenient_implemented_apis": ac.lenient_implemented_apis,
            "lenient_score": ac.lenient_score,
            "unresolved_apis": ac.unresolved_apis,
            "spec_only_apis": ac.spec_only_apis,
            "stock_only": list(ac.stock_only),
            "endpoints": [_endpoint_json(e) for e in (ac.endpoints or ())],
        }
        if ac.spec_apis is not None:
            out["api_coverage"]["spec_apis"] = ac.spec_apis
    return out


def generation_to_json(g: Generation) -> dict[str, Any]:
    """The optional ``generation`` object of ``result.json`` (only the recorded fields)."""
    out: dict[str, Any] = {}
    if g.seconds is not None:
        out["seconds"] = g.seconds
    if g.input_tokens is not None:
        out["input_tokens"] = g.input_tokens
    if g.output_tokens is not None:
        out["output_tokens"] = g.output_tokens
    if g.cost_usd is not None:
        out["cost_usd"] = g.cost_usd
    return out


def not_evaluable_to_json(n: NotEvaluable | None) -> dict[str, Any] | None:
    """The ``not_evaluable`` object of ``result.json`` (None: the sample has a verdict)."""
    if n is None:
        return None
    return {"kind": n.kind, "reason": n.reason, "inferred": n.inferred}


def _endpoint_json(e: EndpointCoverage) -> dict[str, Any]:
    out: dict[str, Any] = {
        "method": e.method, "path": e.path, "description": e.description,
        "implemented": e.implemented,
        "evidence": [{"file": v.file, "line": v.line, "text": v.text,
                      **({"note": v.note} if v.note else {})} for v in e.evidence],
    }
    if e.unresolved:
        out["unresolved"] = e.unresolved
    if e.readme_line:
        out["readme_line"] = e.readme_line
    if e.source:
        out["source"] = e.source
    if e.readme_note:
        out["readme_note"] = e.readme_note
    return out


# ----------------------------------------------------------------------------- parse

def _check_version(f: Fields, path: Path, key: str = "format_version") -> None:
    version = f.integer(key, required=True)
    if version is None or version < 1:
        raise LoadError(path, f"unsupported format version {version!r}", key)
    if version > FORMAT_VERSION:
        raise LoadError(
            path,
            f"written by a newer Genesis Inspector (format version {version}, this one reads "
            f"up to {FORMAT_VERSION}); upgrade genesis-inspector",
            key,
        )


def _enum(f: Fields, key: str, enum: type[Enum], default: Any, required: bool = False) -> Any:
    raw = f.text(key, None, required=required)
    if raw is None:
        return default
    try:
        return enum(raw)
    except ValueError:
        allowed = ", ".join(m.value for m in enum)
        if required:
            raise LoadError(f.path, f"{raw!r} is not one of: {allowed}", f._name(key)) from None
        f.issues.append(LoadIssue(f.path, f._name(key), f"{raw!r} is not one of: {allowed}",
                                  "warning"))
        return default


def parse_task(obj: Any, path: Path, field: str, run_dir: Path,
               issues: list[LoadIssue]) -> Task:
    f = Fields(obj, path, field, issues)
    name = check_id(f.text("name", required=True) or "", path, f._name("name"), "task name")
    root_raw = f.text("root")
    root = _safe_resolve(run_dir, root_raw) if root_raw else None
    if root_raw and root is None:
        issues.append(LoadIssue(path, f._name("root"), "not a usable path", "warning"))
    readme = ""
    try:
        if root and (root / "README.md").is_file():
            raw = read_regular(root / "README.md", 2_000_000, truncate=True) or b""
            readme = raw.decode("utf-8", "replace")
    except (OSError, LoadError):
        readme = ""
    endpoints: dict[str, list[Endpoint]] = {"endpoints": [], "spec_endpoints": []}
    for key, found in endpoints.items():
        for i, e in enumerate(f.items(key)):
            try:
                ef = Fields(e, path, f"{field}.{key}[{i}]", issues)
                found.append(Endpoint(ef.text("method", required=True) or "",
                                      ef.text("path", required=True) or "",
                                      ef.text("description", "") or "",
                                      readme_line=ef.integer("readme_line", 0, minimum=0) or 0,
                                      source=ef.text("source", "") or "",
                                      note=ef.text("note", "") or ""))
            except LoadError as exc:
                issues.append(LoadIssue(exc.issue.path, exc.issue.field, exc.issue.message,
                                        "warning"))
    tests_dir = root / "tests" if root and (root / "tests").is_dir() else None
    return Task(
        name=name, language=f.text("language", "python") or "python",
        framework=f.text("framework", "any") or "any", port=f.integer("port"), readme=readme,
        root=root, tests_dir=tests_dir, expected_tests=f.integer("expected_tests", minimum=0),
        endpoints=tuple(endpoints["endpoints"]), spec_endpoints=tuple(endpoints["spec_endpoints"]),
    )


def repo_scope(run_dir: Path, doc: Any, opened: Path | None = None
               ) -> tuple[RepoScope, list[LoadIssue]]:
    """Where the generated repos of the run at ``run_dir`` (``doc`` is its ``run.json``) may
    be: see :mod:`.repo_scope`; plus a warning per declared predictions folder outside it."""
    source = doc.get("source") if isinstance(doc, dict) else None
    declared: list[str] = []
    if isinstance(source, dict):
        many = source.get("predictions_dirs")
        declared = [p for p in many if isinstance(p, str) and p] if isinstance(many, list) \
            else []
        one = source.get("predictions_dir")
        if isinstance(one, str) and one and one not in declared:
            declared.insert(0, one)
    folders = [p for raw in declared if (p := _safe_resolve(run_dir, raw)) is not None]
    return run_scope(run_dir, folders, opened, run_dir / RUN_FILE, "source.predictions_dir")


_OUTCOMES = {o.value: o for o in Outcome}


def _plain_case(raw: Any, repair: Callable[[str], str]) -> TestCase | None:
    """The test case ``raw`` when every field is present with its plain type and in range
    (what :class:`Fields` would read without a word); None sends it the field-by-field way,
    which reports what is wrong. About 30 cases a sample: this is most of the parsing."""
    if type(raw) is not dict:
        return None
    test_id = raw.get("id")
    raw_outcome = raw.get("outcome")
    outcome = _OUTCOMES.get(raw_outcome) if type(raw_outcome) is str else None
    duration = raw.get("duration_seconds")
    message = raw.get("message")
    traceback = raw.get("traceback")
    file = raw.get("file")
    line = raw.get("line")
    if (type(test_id) is not str or outcome is None
            or not (duration is None or (type(duration) is float and 0.0 <= duration < math.inf))
            or not (message is None or type(message) is str)
            or not (traceback is None or type(traceback) is str)
            or not (file is None or type(file) is str)
            or not (line is None or (type(line) is int and 0 <= line <= MAX_INT))):
        return None
    return TestCase(id=repair(test_id), outcome=outcome, duration_seconds=duration,
                    message=message or "", traceback=traceback or "",
                    file=repair(file) if file else file, line=line)


def parse_sample(obj: Any, path: Path, issues: list[LoadIssue],
                 tasks: dict[str, Task] | None = None,
                 scope: RepoScope | None = None, folder_real: str | None = None
                 ) -> SampleResult:
    """Parse one ``result.json``; raises :class:`LoadError` if unusable.

    With ``scope`` (what :func:`load_run` and the catalog pass), a ``repo.path`` outside it is
    a problem and the repo is not opened. ``folder_real``: the sample folder when the caller
    has it resolved already (:func:`.realpaths.real_folder`'s answer)."""
    f = Fields(obj, path, "", issues)
    _check_version(f, path)
    run_id = check_id(f.text("run_id", required=True) or "", path, "run_id", "run id")
    task = check_id(f.text("task", required=True) or "", path, "task", "task name")
    sample = f.integer("sample", 0, minimum=0) or 0
    deployment = _deployment(f, path, issues)
    tests = _tests(f, path, issues, (tasks or {}).get(task))
    coverage = _api_coverage(f, path, issues)
    folder = _SampleFolder(path.parent, folder_real)
    logs = _logs(f, path, issues, folder)
    repo_path, repo_digest, refused = _repo(f, path, issues, folder, scope)
    result = SampleResult(
        run_id=run_id, task=task, sample=sample,
        language=f.text("language", "python") or "python",
        deployment=deployment, tests=tests,
        framework=f.text("framework", "") or "",
        port=f.integer("port"),
        api_coverage=coverage,
        elapsed_seconds=f.number("elapsed_seconds", lo=0.0),
        exit_code=f.integer("exit_code"),
        logs=logs, repo_path=repo_path, repo_digest=repo_digest, source_file=path,
        build_error=f.text("build_error"), error=f.text("error"),
        notes=tuple(str(n) for n in f.items("notes") if isinstance(n, str)) + refused,
        tampering=_tampering(f, path, issues),
        generation=_generation(f),
        not_evaluable=_not_evaluable(f, path, issues),
    )
    # files written before the field: the cause read back from the harness's messages
    return result if "not_evaluable" in f.obj else with_inference(result)


def _warn(issues: list[LoadIssue], exc: LoadError) -> None:
    """A bad entry of a list is dropped with a warning naming it; the sample still loads."""
    issues.append(LoadIssue(exc.issue.path, exc.issue.field, exc.issue.message, "warning"))


def _deployment(f: Fields, path: Path, issues: list[LoadIssue]) -> Deployment:
    """``deployment``: whether it came up, and each phase."""
    dep = f.sub("deployment", required=True)
    assert dep is not None
    phases = []
    for i, raw in enumerate(dep.items("phases")):
        try:
            pf = Fields(raw, path, f"deployment.phases[{i}]", issues)
            phases.append(PhaseResult(
                phase=_enum(pf, "phase", Phase, None, required=True),
                status=_enum(pf, "status", PhaseStatus, PhaseStatus.SKIPPED),
                started_at=pf.text("started_at"),
                duration_seconds=pf.number("duration_seconds", lo=0.0),
                exit_code=pf.integer("exit_code"),
                message=pf.text("message", "") or "",
                cached=bool(pf.boolean("cached", False)),
            ))
        except LoadError as exc:
            _warn(issues, exc)
    return Deployment(
        success=bool(dep.boolean("success", required=True)),
        message=dep.text("message", "") or "",
        failed_phase=_enum(dep, "failed_phase", Phase, None),
        phases=tuple(phases),
        lenient_success=dep.boolean("lenient_success"),
    )


def _tests(f: Fields, path: Path, issues: list[LoadIssue], known_task: Task | None
           ) -> TestSummary:
    """``tests``: the counts, every test case, and why the suite did not run (fully)."""
    tf = f.sub("tests", required=True)
    assert tf is not None
    repair = id_repairer(known_task.root if known_task else None,
                         known_task.tests_dir if known_task else None)
    return TestSummary(
        passed=tf.integer("passed", 0, minimum=0) or 0,
        failed=tf.integer("failed", 0, minimum=0) or 0,
        errors=tf.integer("errors", 0, minimum=0) or 0,
        skipped=tf.integer("skipped", 0, minimum=0) or 0,
        expected=tf.integer("expected", known_task.expected_tests if known_task else None,
                            minimum=0),
        cases=_test_cases(tf, path, issues, repair),
        has_cases=True,
        collection_errors=tf.integer("collection_errors", 0, minimum=0) or 0,
        cause=_suite_cause(tf, path, issues),
        rootdir=tf.text("rootdir"),
    )


def _test_cases(tf: Fields, path: Path, issues: list[LoadIssue],
                repair: Callable[[str], str]) -> tuple[TestCase, ...]:
    """``tests.cases``: the plain way first (most cases), field by field when it is not."""
    cases = []
    for i, raw in enumerate(tf.items("cases")):
        case = _plain_case(raw, repair)
        if case is not None:
            cases.append(case)
            continue
        try:
            cf = Fields(raw, path, f"tests.cases[{i}]", issues)
            file = cf.text("file")
            cases.append(TestCase(
                # runs recorded before ids were repo-relative: tests/pytest.ini made them
                # relative to tests/
                id=repair(cf.text("id", required=True) or ""),
                outcome=_enum(cf, "outcome", Outcome, None, required=True),
                duration_seconds=cf.number("duration_seconds", lo=0.0),
                message=cf.text("message", "") or "",
                traceback=cf.text("traceback", "") or "",
                file=repair(file) if file else file,
                line=cf.integer("line", minimum=0),
            ))
        except LoadError as exc:
            _warn(issues, exc)
    return tuple(cases)


def _suite_cause(tf: Fields, path: Path, issues: list[LoadIssue]) -> SuiteCause | None:
    """``tests.cause``: why the suite did not run (fully), when it did not."""
    causef = tf.sub("cause")
    if causef is None:
        return None
    for key in ("kind", "text"):
        if causef.obj.get(key) is None:
            issues.append(LoadIssue(path, f"tests.cause.{key}", "missing", "warning"))
    kind = causef.text("kind", "crashed") or "crashed"
    if kind not in CAUSE_KINDS:
        issues.append(LoadIssue(path, "tests.cause.kind", f"unknown kind {kind!r}", "warning"))
    return SuiteCause(kind, causef.text("text", "") or "", causef.text("context", "") or "",
                      causef.text("file"), causef.integer("line", minimum=0))


def _api_coverage(f: Fields, path: Path, issues: list[LoadIssue]) -> ApiCoverage | None:
    """``api_coverage``: each endpoint with its evidence, and the totals."""
    af = f.sub("api_coverage")
    if af is None:
        return None
    eps = []
    for i, raw in enumerate(af.items("endpoints")):
        try:
            eps.append(_endpoint(Fields(raw, path, f"api_coverage.endpoints[{i}]", issues),
                                 path, issues, f"api_coverage.endpoints[{i}]"))
        except LoadError as exc:
            _warn(issues, exc)
    return ApiCoverage(
        total_apis=af.integer("total_apis", len(eps), minimum=0) or 0,
        implemented_apis=af.integer("implemented_apis", sum(e.implemented for e in eps),
                                    minimum=0) or 0,
        endpoints=tuple(eps),
        lenient_implemented_apis=af.integer("lenient_implemented_apis", minimum=0),
        unresolved_apis=af.integer("unresolved_apis", sum(bool(e.unresolved) for e in eps),
                                   minimum=0) or 0,
        spec_apis=af.integer("spec_apis", minimum=0),
        stock_only=tuple(x for x in af.items("stock_only") if isinstance(x, str)),
    )


def _endpoint(ef: Fields, path: Path, issues: list[LoadIssue], where: str
              ) -> EndpointCoverage:
    """One ``api_coverage.endpoints`` entry; raises :class:`LoadError` when unusable."""
    evidence = []
    for j, ev in enumerate(ef.items("evidence")):
        vf = Fields(ev, path, f"{where}.evidence[{j}]", issues)
        evidence.append(Evidence(vf.text("file", required=True) or "",
                                 vf.integer("line", 0, minimum=0) or 0,
                                 vf.text("text", "") or "",
                                 vf.text("note", "") or ""))
    return EndpointCoverage(
        method=ef.text("method", required=True) or "",
        path=ef.text("path", required=True) or "",
        implemented=bool(ef.boolean("implemented", False)),
        description=ef.text("description", "") or "",
        evidence=tuple(evidence),
        unresolved=ef.text("unresolved", "") or "",
        readme_line=ef.integer("readme_line", 0, minimum=0) or 0,
        source=ef.text("source", "") or "",
        readme_note=ef.text("readme_note", "") or "",
    )


class _SampleFolder:
    """The sample folder, resolved at most once and only when a path needs it."""

    def __init__(self, path: Path, real: str | None) -> None:
        self.path = path
        self._real = real
        self._known = real is not None
        self._resolved: str | None = None  # as Path.resolve() gives it

    def real(self) -> str | None:
        """The folder's real path (:func:`.realpaths.real_folder`), None when unusable."""
        if not self._known:
            self._real, self._known = real_folder(self.path), True
        return self._real

    def resolved(self) -> str:
        """``str(path.resolve())``, for paths the fast resolution could not place."""
        if self._resolved is None:
            self._resolved = str(self.path.resolve())
        return self._resolved


def _logs(f: Fields, path: Path, issues: list[LoadIssue], folder: _SampleFolder
          ) -> dict[Phase, Path]:
    """``logs``: each phase's log file, kept only when it is inside the sample folder."""
    logs: dict[Phase, Path] = {}
    lf = f.sub("logs")
    if lf is None:
        return logs
    for key, value in lf.obj.items():
        try:
            phase = Phase(key)
        except ValueError:
            issues.append(LoadIssue(path, f"logs.{key}", "unknown phase", "warning"))
            continue
        if not (isinstance(value, str) and value):
            issues.append(LoadIssue(path, f"logs.{key}", "expected a path", "warning"))
            continue
        base = folder.real()
        fast = resolve_below(base, value) if base is not None else None
        resolved = Path(fast) if fast is not None else _safe_resolve(folder.path, value)
        if resolved is None:
            issues.append(LoadIssue(path, f"logs.{key}", "not a usable path", "warning"))
            continue
        # what sample_dir.resolve() gives for an existing real folder
        contain = base if fast is not None and base is not None else folder.resolved()
        if not within(str(resolved), contain):
            issues.append(LoadIssue(path, f"logs.{key}",
                                    "points outside the sample folder; ignored", "warning"))
            continue
        logs[phase] = resolved
    return logs


def _repo(f: Fields, path: Path, issues: list[LoadIssue], folder: _SampleFolder,
          scope: RepoScope | None) -> tuple[Path | None, str | None, tuple[str, ...]]:
    """``repo``: the generated repo's path (refused outside ``scope``), its digest, and the
    note a refusal adds."""
    rf = f.sub("repo")
    if rf is None:
        return None, None, ()
    repo_path = None
    refused: tuple[str, ...] = ()
    raw_repo = rf.text("path")
    if raw_repo:
        repo_path = _resolve_below(folder.path, folder.real(), raw_repo)
        if repo_path is None:
            issues.append(LoadIssue(path, "repo.path", "not a usable path", "warning"))
        elif scope is not None and (outside := scope.check(
                repo_path, path, "repo.path", raw_repo, resolved=True)) is not None:
            issues.append(outside)
            refused = (f"{REPO_REFUSED}{outside.message}",)
            repo_path = None
    return repo_path, rf.text("digest"), refused


def _not_evaluable(f: Fields, path: Path, issues: list[LoadIssue]) -> NotEvaluable | None:
    """The recorded cause of a sample without a verdict; a bad record is a warning and the
    sample is read as evaluable."""
    nf = f.sub("not_evaluable")
    if nf is None:
        return None
    try:
        kind = nf.text("kind", required=True) or ""
        if kind not in NOT_EVALUABLE_KINDS:
            issues.append(LoadIssue(path, "not_evaluable.kind", f"unknown kind {kind!r}",
                                    "warning"))
        return NotEvaluable(kind, nf.text("reason", "") or "",
                            bool(nf.boolean("inferred", False)))
    except LoadError as exc:
        issues.append(LoadIssue(exc.issue.path, exc.issue.field, exc.issue.message, "warning"))
        return None


def _generation(f: Fields) -> Generation | None:
    """The optional ``generation`` object; a bad field is a warning and left unrecorded."""
    gf = f.sub("generation")
    if gf is None:
        return None
    g = Generation(seconds=gf.number("seconds", lo=0.0),
                   input_tokens=gf.integer("input_tokens", minimum=0),
                   output_tokens=gf.integer("output_tokens", minimum=0),
                   cost_usd=gf.number("cost_usd", lo=0.0))
    return None if g.is_empty else g


def _tampering(f: Fields, path: Path, issues: list[LoadIssue]
               ) -> tuple[TamperFinding, ...] | None:
    """The recorded tampering findings; None when the file records none (older runs)."""
    if f.obj.get("tampering") is None:
        return None
    if not isinstance(f.obj["tampering"], list):
        f.items("tampering")  # records the warning; the repo is scanned instead
        return None
    found = []
    for i, raw in enumerate(f.items("tampering")):
        try:
            tf = Fields(raw, path, f"tampering[{i}]", issues)
            found.append(TamperFinding(tf.text("kind", required=True) or "",
                                       tf.text("path", "") or "",
                                       tf.text("detail", required=True) or "",
                                       bool(tf.boolean("deliberate", False))))
        except LoadError as exc:
            issues.append(LoadIssue(exc.issue.path, exc.issue.field, exc.issue.message,
                                    "warning"))
    return tuple(found)


def is_run_dir(path: Path) -> bool:
    return (path / RUN_FILE).is_file()


def load_run(run_dir: Path, opened: Path | None = None) -> tuple[Run, list[LoadIssue]]:
    """Load one run folder. Raises :class:`LoadError` if ``run.json`` is unusable; a bad
    sample is reported and skipped while the rest of the run loads. ``opened`` is the folder
    the user opened (repos inside it may be opened: see :mod:`.repo_scope`)."""
    issues: list[LoadIssue] = []
    path = run_dir / RUN_FILE
    doc = read_json(path)
    top = Fields(doc, path, "", issues)
    fmt = top.text("format", required=True)
    if fmt != FORMAT_NAME:
        raise LoadError(path, f"not a Genesis Inspector run (format {fmt!r})", "format")
    _check_version(top, path)
    run_id = check_id(top.text("run_id", required=True) or run_dir.name, path, "run_id",
                      "run id")
    tasks: dict[str, Task] = {}
    for i, raw in enumerate(top.items("tasks")):
        try:
            t = parse_task(raw, path, f"tasks[{i}]", run_dir, issues)
            tasks[t.name] = t
        except LoadError as exc:
            issues.append(exc.issue)
    scope, scope_issues = repo_scope(run_dir, doc, opened)
    issues.extend(scope_issues)
    run_real: str | None = None  # the run folder as Path.resolve() gives it
    run_base = real_folder(run_dir)
    samples: list[SampleResult] = []
    unreadable: list[UnreadableSample] = []
    seen: set[tuple[str, int]] = set()
    for i, raw in enumerate(top.items("samples", required=True)):
        duplicate = False
        try:
            sf = Fields(raw, path, f"samples[{i}]", issues)
            rel_path = sf.text("path", required=True) or ""
            fast = resolve_below(run_base, f"{rel_path}/{RESULT_FILE}") \
                if run_base is not None and rel_path else None
            result_path = Path(fast) if fast is not None else \
                _safe_resolve(run_dir / rel_path, RESULT_FILE)
            if result_path is None:
                raise LoadError(path, "not a usable path", f"samples[{i}].path")
            if fast is not None and run_base is not None:
                contain = run_base  # what run_dir.resolve() gives for an existing real folder
            else:
                if run_real is None:
                    run_real = str(run_dir.resolve())
                contain = run_real
            if not within(str(result_path), contain):
                raise LoadError(path, "sample path points outside the run folder",
                                f"samples[{i}].path")
            try:
                listed = result_path.is_file()
            except OSError as exc:
                raise LoadError(result_path, f"cannot read: {exc.strerror or exc}") from None
            if not listed:
                raise LoadError(result_path, "missing (listed in run.json)")
            # a result.json reached through real folders only: its folder is real too
            s = parse_sample(read_json(result_path), result_path, issues, tasks, scope,
                             os.path.dirname(fast) if fast is not None else None)
            if s.run_id != run_id:
                issues.append(LoadIssue(result_path, "run_id",
                                        f"{s.run_id!r} differs from run.json's {run_id!r}; "
                                        "using run.json's", "warning"))
                s = replace(s, run_id=run_id)
            if (s.task, s.sample) in seen:
                duplicate = True  # read already: not unreadable, a second copy left out
                raise LoadError(result_path, f"duplicate sample {s.task}#{s.sample}", "sample")
            seen.add((s.task, s.sample))
            samples.append(s)
        except LoadError as exc:
            issues.append(exc.issue)
            if not duplicate:
                unreadable.append(UnreadableSample.of(exc.issue, *_listed(raw)))
    language = top.text("language", "python") or "python"
    samples += _given_up(top, path, run_id, run_dir, tasks, language, seen, issues)
    src = top.sub("source")
    harness = top.sub("harness")
    return Run(
        id=run_id,
        agent=checked_name(top.text("agent", "unknown") or "unknown", path, "agent", issues),
        model=checked_name(top.text("model", "unknown") or "unknown", path, "model", issues),
        language=language,
        source=RunSource("genesis-inspector", path,
                         src.text("predictions_dir") if src else None,
                         (f"genesis-inspector {harness.text('version', '?')} "
                          f"({harness.text('backend', '?')} backend)") if harness else ""),
        date=top.text("generation_date") or top.text("created_at"),
        samples=tuple(samples),
        tasks=tasks,
        status=top.text("status"),
        unreadable=tuple(unreadable),
    ), issues


def _given_up(top: Fields, path: Path, run_id: str, run_dir: Path, tasks: dict[str, Task],
              language: str, seen: set[tuple[str, int]], issues: list[LoadIssue]
              ) -> list[SampleResult]:
    """Samples the infrastructure failed for good (no ``result.json``) as not-evaluable
    samples: from ``run.json``'s ``not_evaluable`` list, or for runs written before it, from
    an ``infrastructure_failure.txt`` left in a sample folder of an unfinished run (inferred).
    A sample with a result is never one of them."""
    found: list[tuple[str, int, NotEvaluable]] = []
    for i, raw in enumerate(top.items(GIVEN_UP_FIELD)):
        try:
            gf = Fields(raw, path, f"{GIVEN_UP_FIELD}[{i}]", issues)
            task = gf.text("task", required=True) or ""
            n = gf.integer("sample", required=True)
            kind = gf.text("kind", required=True) or ""
            found.append((task, n or 0, NotEvaluable(kind, gf.text("reason", "") or "")))
        except LoadError as exc:
            issues.append(LoadIssue(exc.issue.path, exc.issue.field, exc.issue.message,
                                    "warning"))
    if not found and top.text("status") in ("incomplete", "cancelled", "running"):
        for marker in sorted((run_dir / "samples").glob(f"*/*/{INFRA_FILE}")):
            task, n_text = marker.parent.parent.name, marker.parent.name
            if not n_text.isdigit() or (marker.parent / RESULT_FILE).exists():
                continue
            try:
                reason = " ".join(marker.read_text(encoding="utf-8", errors="replace")
                                  .split())[:2000]
            except OSError as exc:
                reason = f"(cannot read {INFRA_FILE}: {exc.strerror or exc})"
            found.append((task, int(n_text), NotEvaluable(_given_up_kind(reason), reason,
                                                          inferred=True)))
    out = []
    for task, n, ne in found:
        if (task, n) in seen:
            continue
        seen.add((task, n))
        t = tasks.get(task)
        out.append(SampleResult(
            run_id=run_id, task=task, sample=n, language=t.language if t else language,
            deployment=Deployment(False, message=ne.reason), tests=TestSummary(),
            framework=t.framework if t else "", port=t.port if t else None,
            error=ne.reason, not_evaluable=ne))
    return out


def _given_up_kind(reason: str) -> str:
    """The kind of a given-up sample from the reason an older evaluator wrote."""
    low = reason.lower()
    if "port" in low and ("held" in low or "in use" in low):
        return "port_held"
    if any(w in low for w in ("worker", "node", "actor", "ray")):
        return "worker_lost"
    return "harness_exception"


def _listed(raw: Any) -> tuple[str, int | None]:
    """The task and sample number a ``run.json`` sample index entry names ('', None when it
    does not say)."""
    if not isinstance(raw, dict):
        return "", None
    task, n = raw.get("task"), raw.get("sample")
    return (task if isinstance(task, str) else "",
            n if isinstance(n, int) and not isinstance(n, bool) else None)

