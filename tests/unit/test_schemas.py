"""The published JSON Schemas (inspector/schemas/) against the bundled runs and the writer.

* each schema is a valid draft 2020-12 schema with a title and description on every property;
* every run.json, result.json, report*.json and intermediate result in sample_runs/ validates;
* documents that break the format (unknown enum values, newer format versions, missing
  required fields, typos inside closed records, paths leaving the run) do not;
* the schemas' ``required`` lists match what the run-format reader cannot do without;
* what the writer produces for synthetic results (``sample_to_json``, ``write_run_json``,
  ``stock_report``) validates.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource

from inspector.model import (
    ApiCoverage,
    Deployment,
    Endpoint,
    EndpointCoverage,
    Evidence,
    LoadError,
    LoadIssue,
    Outcome,
    Phase,
    PhaseResult,
    PhaseStatus,
    SampleResult,
    Task,
    TestCase,
    TestSummary,
)
from inspector.model.logs.phase_logs import STREAMS
from inspector.model.runs.runformat import load_run, parse_sample, sample_to_json
from inspector.services.evaluate.run_writer import stock_report, stock_result, write_run_json

ROOT = Path(__file__).parents[2]
SAMPLE_RUNS = ROOT / "sample_runs"
SCHEMA_DIR = ROOT / "inspector" / "schemas"
ID_PREFIX = "https://genesis-inspector.dev/schemas/run-format/v1/"
SCHEMA_FILES = ("run.schema.json", "result.schema.json", "repogenesis-report.schema.json")


def _load_schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


SCHEMAS = {name: _load_schema(name) for name in SCHEMA_FILES}
REGISTRY: Registry = Registry().with_resources(
    (s["$id"], Resource.from_contents(s)) for s in SCHEMAS.values())
REPO_RESULT = {"$ref": SCHEMAS["repogenesis-report.schema.json"]["$id"] + "#/$defs/repo_result"}


def validator(schema: dict[str, Any]) -> Draft202012Validator:
    return Draft202012Validator(schema, registry=REGISTRY, format_checker=FormatChecker())


RUN = validator(SCHEMAS["run.schema.json"])
RESULT = validator(SCHEMAS["result.schema.json"])
REPORT = validator(SCHEMAS["repogenesis-report.schema.json"])
STOCK_RESULT = validator(REPO_RESULT)


def errors(v: Draft202012Validator, doc: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in v.iter_errors(doc)]


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def ids(paths: list[Path]) -> list[str]:
    return [p.relative_to(SAMPLE_RUNS).as_posix() for p in paths]


RUN_FILES = sorted(SAMPLE_RUNS.glob("runs/*/run.json"))
RESULT_FILES = sorted(SAMPLE_RUNS.glob("runs/*/samples/*/*/result.json"))
REPORT_FILES = sorted(SAMPLE_RUNS.rglob("report*.json"))
INTERMEDIATE_FILES = sorted(SAMPLE_RUNS.rglob("intermediate/**/*.json"))
LOG_FILES = sorted(SAMPLE_RUNS.glob("runs/*/samples/*/*/logs/*.log"))


# ------------------------------------------------------------------------------ the schemas

def _walk(node: Any, where: str = "") -> Iterator[tuple[str, Any]]:
    yield where, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, f"{where}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, f"{where}/{i}")


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = SCHEMAS[name]
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == ID_PREFIX + name
    assert schema["title"] and schema["description"]


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_every_property_has_a_title_and_description(name: str) -> None:
    missing = []
    for where, node in _walk(SCHEMAS[name]):
        if where.endswith("/properties") and isinstance(node, dict):
            for key, prop in node.items():
                if not (isinstance(prop, dict) and prop.get("title") and prop.get("description")):
                    missing.append(f"{where}/{key}")
    # properties inside if/then/else only restate constraints; everything else must be described
    missing = [m for m in missing if not re.search(r"/(if|then|else)/", m)]
    assert not missing, missing


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_every_local_reference_resolves(name: str) -> None:
    schema = SCHEMAS[name]
    for _, node in _walk(schema):
        if isinstance(node, dict) and isinstance(node.get("$ref"), str) \
                and node["$ref"].startswith("#/"):
            target: Any = schema
            for part in node["$ref"][2:].split("/"):
                target = target[part]
            assert isinstance(target, dict)


def test_format_version_is_const_1() -> None:
    for name in ("run.schema.json", "result.schema.json"):
        assert SCHEMAS[name]["properties"]["format_version"]["const"] == 1


# ------------------------------------------------------------------ the bundled sample data

def test_sample_data_is_there() -> None:
    """Guard against the parametrised tests below silently running on nothing."""
    assert len(RUN_FILES) >= 2
    assert len(RESULT_FILES) >= 12
    assert len(REPORT_FILES) >= 4
    assert len(INTERMEDIATE_FILES) >= 12
    assert len(LOG_FILES) >= 4 * len(RESULT_FILES)


@pytest.mark.parametrize("path", RUN_FILES, ids=ids(RUN_FILES))
def test_sample_run_json_validates(path: Path) -> None:
    assert errors(RUN, read(path)) == []


@pytest.mark.parametrize("path", RESULT_FILES, ids=ids(RESULT_FILES))
def test_sample_result_json_validates(path: Path) -> None:
    assert errors(RESULT, read(path)) == []


@pytest.mark.parametrize("path", REPORT_FILES, ids=ids(REPORT_FILES))
def test_sample_report_validates(path: Path) -> None:
    assert errors(REPORT, read(path)) == []


@pytest.mark.parametrize("path", INTERMEDIATE_FILES, ids=ids(INTERMEDIATE_FILES))
def test_sample_intermediate_result_validates(path: Path) -> None:
    assert errors(STOCK_RESULT, read(path)) == []


@pytest.mark.parametrize("path", RESULT_FILES, ids=ids(RESULT_FILES))
def test_sample_result_derived_figures_follow_the_documented_rules(path: Path) -> None:
    doc = read(path)
    t = doc["tests"]
    assert t["total"] == t["passed"] + t["failed"] + t["errors"]
    assert t["score"] == (round(t["passed"] / t["total"], 4) if t["total"] else 0.0)
    counted = {o: sum(c["outcome"] == o for c in t["cases"])
               for o in ("passed", "failed", "error", "skipped")}
    assert (counted["passed"], counted["failed"], counted["error"], counted["skipped"]) == \
        (t["passed"], t["failed"], t["errors"], t["skipped"])
    collection = sum(c["outcome"] == "error" and c["message"] == "collection failure"
                     for c in t["cases"])
    assert collection == t["collection_errors"]
    ac = doc["api_coverage"]
    if ac is not None:
        # endpoints[] is the README's spec list (spec_apis); total_apis stays the stock count
        assert ac.get("spec_apis", ac["total_apis"]) == len(ac["endpoints"])
        assert ac["implemented_apis"] == sum(e["implemented"] for e in ac["endpoints"])
        verifiable = len(ac["endpoints"]) - ac.get("unresolved_apis", 0)
        assert ac["score"] == (round(ac["implemented_apis"] / verifiable, 4)
                               if verifiable else 0.0)
    run_dir = path.parents[3]
    run = read(run_dir / "run.json")
    assert doc["run_id"] == run["run_id"]
    assert doc["sample_id"] == f"{doc['run_id']}/{doc['task']}/{doc['sample']}"
    assert path.parent == run_dir / "samples" / doc["task"] / str(doc["sample"])
    for rel in doc["logs"].values():
        assert (path.parent / rel).is_file(), rel
    assert (path.parent / doc["repo"]["path"]).is_dir()


@pytest.mark.parametrize("path", RUN_FILES, ids=ids(RUN_FILES))
def test_sample_run_index_points_at_every_result(path: Path) -> None:
    run = read(path)
    listed = {(s["task"], s["sample"]): s["path"] for s in run["samples"]}
    found = {p.parent.relative_to(path.parent).as_posix()
             for p in path.parent.glob("samples/*/*/result.json")}
    assert set(listed.values()) == found
    assert all(p == f"samples/{t}/{n}" for (t, n), p in listed.items())
    assert run["status"] == "complete" and run["finished_at"]


LINE = re.compile(r"^(?P<ts>[^\t]*)\t(?P<stream>[^\t]*)\t(?P<text>.*)$")


@pytest.mark.parametrize("path", LOG_FILES[:8] + LOG_FILES[-8:],
                         ids=ids(LOG_FILES[:8] + LOG_FILES[-8:]))
def test_sample_log_lines_follow_the_grammar(path: Path) -> None:
    for n, raw in enumerate(path.read_text(encoding="utf-8").split("\n")[:-1], 1):
        m = LINE.match(raw)
        assert m, f"line {n}: {raw!r}"
        assert m["stream"] in STREAMS
        assert datetime.fromisoformat(m["ts"]).utcoffset() is not None


def test_run_report_uses_sample_0_with_stock_semantics() -> None:
    for run_json in RUN_FILES:
        report = read(run_json.parent / "report.json")
        results = {r["repo_name"]: r for r in report["results"]}
        for rp in run_json.parent.glob("samples/*/0/result.json"):
            doc = read(rp)
            r = results[doc["task"]]
            lenient = doc["deployment"]["lenient_success"]
            assert r["dsr"]["success"] is (lenient if lenient is not None
                                           else doc["deployment"]["success"])
            assert r["pass_at_1"]["total"] == doc["tests"]["total"]
            assert r["pass_at_1"]["skipped"] == 0
            assert r["api_coverage"]["implemented_apis"] == \
                doc["api_coverage"]["lenient_implemented_apis"]


# ------------------------------------------------------------------------- negative tests

def _first_result() -> dict[str, Any]:
    return read(next(p for p in RESULT_FILES if "quote-board" in p.as_posix()))


def _first_run() -> dict[str, Any]:
    return read(RUN_FILES[0])


def _first_report() -> dict[str, Any]:
    return read(REPORT_FILES[0])


Mutation = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Mutation:
    """A mutation setting a '/'-separated path (list indexes as numbers)."""
    def apply(doc: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = doc
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        node[int(last) if isinstance(node, list) else last] = value
    return apply


def _del(path: str) -> Mutation:
    def apply(doc: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = doc
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        del node[last]
    return apply


BAD_RESULTS: dict[str, Mutation] = {
    "case outcome banana": _set("tests/cases/0/outcome", "banana"),
    "case outcome upper-case": _set("tests/cases/1/outcome", "PASSED"),
    "format_version 2": _set("format_version", 2),
    "format_version as string": _set("format_version", "1"),
    "no format_version": _del("format_version"),
    "no run_id": _del("run_id"),
    "no task": _del("task"),
    "no deployment": _del("deployment"),
    "no tests": _del("tests"),
    "no deployment.success": _del("deployment/success"),
    "unknown phase": _set("deployment/phases/0/phase", "deploy"),
    "unknown phase status": _set("deployment/phases/0/status", "passed"),
    "typo in a phase record": _set("deployment/phases/0/duraton_seconds", 1.0),
    "typo in a test case": _set("tests/cases/0/outcom", "passed"),
    "test case without id": _del("tests/cases/0/id"),
    "unknown suite status": _set("tests/status", "done"),
    "negative count": _set("tests/failed", -1),
    "count as float": _set("tests/passed", 4.5),
    "score above 1": _set("tests/score", 1.5),
    "lenient score below 0": _set("api_coverage/lenient_score", -0.1),
    "suite with no test marked ran": lambda d: d["tests"].update(total=0, status="ran"),
    "collection errors but status ran": _set("tests/status", "ran"),
    "not deployed but no failed phase": lambda d: d["deployment"].update(
        success=False, failed_phase=None),
    "deployed but install failed": lambda d: d["deployment"].update(
        success=True, failed_phase="install"),
    "misspelt log key": lambda d: d["logs"].update(instal="logs/install.log"),
    "absolute log path": _set("logs/tests", "/tmp/tests.log"),
    "implemented without evidence": _set("api_coverage/endpoints/0/evidence", []),
    "evidence line 0": _set("api_coverage/endpoints/0/evidence/0/line", 0),
    "typo in the repo record": _set("repo/digset", "sha256:00"),
    "digest without algorithm": _set("repo/digest", "0" * 64),
    "sample_id with a path": _set("sample_id", "runs/x/quote-board/0"),
    "task with a slash": _set("task", "a/b"),
    "timestamp not a date": _set("started_at", "yesterday"),
    "timestamp without offset": _set("deployment/phases/0/started_at", "2026-11-21T06:01:06"),
    "notes not strings": _set("notes", [1, 2]),
    "lenient_success as string": _set("deployment/lenient_success", "true"),
}


@pytest.mark.parametrize("mutate", BAD_RESULTS.values(), ids=BAD_RESULTS.keys())
def test_broken_result_json_fails(mutate: Mutation) -> None:
    doc = _first_result()
    assert errors(RESULT, doc) == []
    mutate(doc)
    assert errors(RESULT, doc), "should not validate"


BAD_RUNS: dict[str, Mutation] = {
    "format_version 2": _set("format_version", 2),
    "other format": _set("format", "repogenesis"),
    "no format": _del("format"),
    "no format_version": _del("format_version"),
    "no run_id": _del("run_id"),
    "no samples": _del("samples"),
    "run_id with a slash": _set("run_id", "a/b"),
    "unknown status": _set("status", "done"),
    "running yet finished": lambda d: d.update(status="running"),
    "complete yet unfinished": _set("finished_at", None),
    "sample path leaves the run": _set("samples/0/path", "../other/samples/x/0"),
    "absolute sample path": _set("samples/0/path", "/runs/x/samples/a/0"),
    "sample reference without path": _del("samples/0/path"),
    "typo in a sample reference": _set("samples/0/smaple", 0),
    "negative sample index": _set("samples/0/sample", -1),
    "task without name": _del("tasks/0/name"),
    "unknown task language": _set("tasks/0/language", "rust"),
    "unknown endpoint method": _set("tasks/0/endpoints/0/method", "get"),
    "typo in an endpoint": _set("tasks/0/endpoints/0/descrption", ""),
    "port out of range": _set("tasks/0/port", 70000),
    "zero jobs": _set("harness/settings/jobs", 0),
    "created_at not a date": _set("created_at", "21/11/2026"),
}


@pytest.mark.parametrize("mutate", BAD_RUNS.values(), ids=BAD_RUNS.keys())
def test_broken_run_json_fails(mutate: Mutation) -> None:
    doc = _first_run()
    assert errors(RUN, doc) == []
    mutate(doc)
    assert errors(RUN, doc), "should not validate"


def test_run_json_version_2_missing_fields_fails_on_several_counts() -> None:
    doc = {"format": "genesis-inspector-run", "format_version": 2, "agent": "x"}
    found = errors(RUN, doc)
    assert any("format_version" in e for e in found)
    assert any("'run_id' is a required property" in e for e in found)
    assert any("'samples' is a required property" in e for e in found)


BAD_REPORTS: dict[str, Mutation] = {
    "no results": _del("results"),
    "no metadata": _del("metadata"),
    "no summary": _del("summary"),
    "average above 1": _set("summary/avg_pass_at_1", 75.8),
    "no harness_version": _del("metadata/harness_version"),
    "result without pass_at_1": _del("results/0/pass_at_1"),
    "result without dsr": _del("results/0/dsr"),
    "typo in dsr": _set("results/0/dsr/succes", True),
    "typo in pass_at_1": _set("results/0/pass_at_1/passes", 1),
    "dsr.success as string": _set("results/0/dsr/success", "true"),
    "unknown lang": _set("results/0/lang", "Python"),
    "repo_name with a slash": _set("results/0/repo_name", "a/b"),
    "score above 1": _set("results/0/api_coverage/score", 2),
    "timestamp not a date": _set("metadata/timestamp", "26 Feb 2026"),
}


@pytest.mark.parametrize("mutate", BAD_REPORTS.values(), ids=BAD_REPORTS.keys())
def test_broken_report_fails(mutate: Mutation) -> None:
    doc = _first_report()
    assert errors(REPORT, doc) == []
    mutate(doc)
    assert errors(REPORT, doc), "should not validate"


def test_broken_intermediate_result_fails() -> None:
    doc = read(INTERMEDIATE_FILES[0])
    assert errors(STOCK_RESULT, doc) == []
    for mutate in (_del("repo_name"), _set("exit_code", "0"), _set("pass_at_1/total", -1)):
        bad = copy.deepcopy(doc)
        mutate(bad)
        assert errors(STOCK_RESULT, bad), bad


# ------------------------------------------------------------ open where it should be open

def test_additive_fields_are_allowed_at_top_level_and_in_open_sections() -> None:
    result = _first_result()
    result["future_field"] = {"anything": 1}
    result["tests"]["xfailed"] = 0
    result["deployment"]["restarts"] = 0
    result["api_coverage"]["micro"] = 0.5
    assert errors(RESULT, result) == []
    run = _first_run()
    run["future_field"] = []
    run["harness"]["settings"]["memory"] = "2g"
    run["tasks"][0]["difficulty"] = "Easy"
    assert errors(RUN, run) == []
    report = _first_report()
    report["metadata"]["generator"] = "genesis-inspector"
    report["results"][0]["build_error"] = "Build failed (exit 1): ..."
    assert errors(REPORT, report) == []


def test_stock_harness_shapes_validate() -> None:
    """Shapes the stock harness writes that our sample data does not show (reference §2)."""
    empty = {"metadata": {"total_elapsed_seconds": 0.1, "predictions_dir": "exps/repos/x",
                          "timestamp": "2026-02-26T15:39:29.827397", "harness_version": "1.0.0"},
             "summary": {"total_repos": 0, "evaluated": 0, "avg_pass_at_1": 0.0,
                         "avg_api_coverage": 0.0, "deployment_success_rate": 0.0},
             "results": []}
    assert errors(REPORT, empty) == []
    crashed = {"repo_name": "Blog", "lang": "python", "port": 8000, "framework": "fastapi",
               "exit_code": -99, "dsr": {"success": False, "message": "Evaluation error: boom"},
               "pass_at_1": {"passed": 0, "failed": 0, "errors": 0, "skipped": 0, "total": 0,
                             "score": 0.0},
               "error": "boom"}
    assert errors(STOCK_RESULT, crashed) == []
    skipped = dict(crashed, exit_code=None, dsr={"success": False,
                                                 "message": "Docker evaluation skipped"},
                   api_coverage={"total_apis": 0, "implemented_apis": 0, "score": 0.0})
    del skipped["error"]
    assert errors(STOCK_RESULT, skipped) == []


# -------------------------------------------- the schema's 'required' = what the reader needs

def _paths(doc: dict[str, Any]) -> Iterator[str]:
    """Every key of the document's objects, first list element only, as '/'-paths."""
    def walk(node: Any, prefix: str) -> Iterator[str]:
        if isinstance(node, dict):
            for k, v in node.items():
                if prefix.endswith("logs"):  # a map keyed by phase, not a record
                    continue
                yield f"{prefix}{k}"
                yield from walk(v, f"{prefix}{k}/")
        elif isinstance(node, list) and node:
            yield from walk(node[0], f"{prefix}0/")
    yield from walk(doc, "")


def _reader_accepts_result(doc: dict[str, Any], path: Path) -> bool:
    issues: list[LoadIssue] = []
    try:
        parse_sample(doc, path, issues)
    except LoadError:
        return False
    return not issues


@pytest.mark.parametrize("path", RESULT_FILES[:3], ids=ids(RESULT_FILES[:3]))
def test_result_schema_requires_exactly_what_the_reader_needs(path: Path) -> None:
    """Dropping any one field: the schema rejects it iff the reader fails or warns."""
    base = read(path)
    mismatches = []
    for field in _paths(base):
        doc = copy.deepcopy(base)
        _del(field)(doc)
        schema_ok = not errors(RESULT, doc)
        if schema_ok != _reader_accepts_result(doc, path):
            mismatches.append(f"{field}: schema {'accepts' if schema_ok else 'rejects'}")
    assert not mismatches, mismatches


def test_run_schema_requires_exactly_what_the_reader_needs(tmp_path: Path) -> None:
    src = RUN_FILES[0].parent
    base = read(src / "run.json")
    mismatches = []
    for field in _paths(base):
        run_dir = tmp_path / field.replace("/", "_")
        shutil.copytree(src, run_dir, ignore=shutil.ignore_patterns("*.log", "junit.xml"))
        doc = copy.deepcopy(base)
        _del(field)(doc)
        (run_dir / "run.json").write_text(json.dumps(doc), encoding="utf-8")
        schema_ok = not errors(RUN, doc)
        try:
            _, issues = load_run(run_dir)
            reader_ok = not issues
        except LoadError:
            reader_ok = False
        if schema_ok != reader_ok:
            mismatches.append(f"{field}: schema {'accepts' if schema_ok else 'rejects'}")
    assert not mismatches, mismatches


def test_reader_refuses_a_newer_format_version_with_a_clear_message(tmp_path: Path) -> None:
    src = RUN_FILES[0].parent
    run_dir = tmp_path / "run"
    shutil.copytree(src, run_dir)
    doc = read(run_dir / "run.json")
    doc["format_version"] = 2
    (run_dir / "run.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(LoadError, match="newer Genesis Inspector.*upgrade"):
        load_run(run_dir)


# ------------------------------------------------------------- the writer's own output

NOW = "2026-11-21T06:01:04.078364+00:00"


def _synthetic_sample(sample_dir: Path, repo: Path, deployed: bool = True) -> SampleResult:
    phases = [
        PhaseResult(Phase.INSTALL, PhaseStatus.OK, NOW, 4.2, 0, "dependencies installed"),
        PhaseResult(Phase.START, PhaseStatus.OK, NOW, 0.004, None, "started (start.sh), pid 7"),
    ]
    if deployed:
        phases += [PhaseResult(Phase.HEALTH, PhaseStatus.OK, NOW, 0.8, None,
                               "port 18080 open after 0.6s; GET /health -> 200"),
                   PhaseResult(Phase.TESTS, PhaseStatus.FAILED, NOW, 1.0, 1,
                               "some tests failed")]
    else:
        phases += [PhaseResult(Phase.START, PhaseStatus.FAILED, NOW, 0.4, 1,
                               "process exited with code 1 after 0.4s"),
                   PhaseResult(Phase.TESTS, PhaseStatus.FAILED, NOW, 1.0, 1,
                               "some tests failed"),
                   PhaseResult(Phase.HEALTH, PhaseStatus.SKIPPED)]
    cases = (
        TestCase("tests/test_todos.py::test_health", Outcome.PASSED, 0.01,
                 file="tests/test_todos.py", line=5),
        TestCase("tests/test_todos.py::TestCrud::test_create", Outcome.FAILED, 0.02,
                 "AssertionError: assert 500 == 201", "tests/test_todos.py:12: in test_create",
                 "tests/test_todos.py", 12),
        TestCase("tests/test_todos.py::test_later", Outcome.SKIPPED, 0.0, "not yet"),
        TestCase("tests/test_models.py", Outcome.ERROR, 0.0,
                 "collection failure", "ImportError: ...", "tests/test_models.py"),
    )
    coverage = ApiCoverage(
        total_apis=2, implemented_apis=1, lenient_implemented_apis=2,
        endpoints=(
            EndpointCoverage("GET", "/health", True, "returns:",
                             (Evidence("app.py", 11, '@app.get("/health")'),)),
            EndpointCoverage("DELETE", "/todos/{id}", False, "returns 204"),
        ))
    return SampleResult(
        run_id="repo_readme_1118_forge_m1-large_Python", task="todo-service", sample=1,
        language="python",
        deployment=Deployment(
            success=deployed,
            message="Service started successfully" if deployed
            else "process exited with code 1 after 0.4s",
            failed_phase=Phase.TESTS if deployed else Phase.START,
            phases=tuple(phases), lenient_success=deployed),
        tests=TestSummary(passed=1, failed=1, errors=1, skipped=1, expected=12, cases=cases,
                          has_cases=True, collection_errors=1),
        framework="flask", port=18080, api_coverage=coverage, elapsed_seconds=7.5,
        exit_code=1, logs={ph: sample_dir / "logs" / f"{ph.value}.log" for ph in Phase},
        repo_path=repo, repo_digest="sha256:" + "ab" * 32,
        notes=("synthetic",),
    )


@pytest.mark.parametrize("deployed", [True, False], ids=["deployed", "not-deployed"])
def test_sample_to_json_of_a_synthetic_sample_validates(tmp_path: Path, deployed: bool) -> None:
    sample_dir = tmp_path / "run" / "samples" / "todo-service" / "1"
    repo = tmp_path / "predictions" / "todo-service"
    s = _synthetic_sample(sample_dir, repo, deployed)
    doc = sample_to_json(s, sample_dir, NOW, NOW)
    assert errors(RESULT, doc) == []
    assert doc["tests"]["status"] == "incomplete"
    assert doc["repo"]["path"] == "../../../../predictions/todo-service"
    assert doc["logs"]["tests"] == "logs/tests.log"
    assert errors(STOCK_RESULT, stock_result(s)) == []


def test_sample_to_json_variants_validate(tmp_path: Path) -> None:
    sample_dir = tmp_path / "samples" / "t" / "0"
    bare = SampleResult(run_id="r", task="t", sample=0, language="python",
                        deployment=Deployment(success=False, message="No service entry point "
                                              "found", failed_phase=Phase.START),
                        tests=TestSummary())
    doc = sample_to_json(bare, sample_dir)
    assert errors(RESULT, doc) == []
    assert doc["api_coverage"] is None and doc["tests"]["status"] == "not_run"
    crashed = SampleResult(run_id="r", task="t", sample=0, language="python",
                           deployment=Deployment(success=False, message="harness exception",
                                                 failed_phase=Phase.INSTALL),
                           tests=TestSummary(), error="RuntimeError: boom",
                           api_coverage=ApiCoverage(total_apis=0, implemented_apis=0,
                                                    endpoints=()))
    assert errors(RESULT, sample_to_json(crashed, sample_dir, NOW, None)) == []


def test_write_run_json_and_stock_report_validate(tmp_path: Path) -> None:
    run_dir = tmp_path / "runs" / "r1"
    preds = tmp_path / "predictions" / "repo_readme_1118_forge_m1-large_Python"
    task = Task(name="todo-service", language="python", framework="flask", port=18080,
                readme="", root=tmp_path / "tasks" / "repo" / "todo-service",
                expected_tests=12,
                endpoints=(Endpoint("GET", "/health", "returns:"), Endpoint("FEATURE", "Login")))
    common: dict[str, Any] = dict(
        run_id="r1", agent="Forge", model="m1-large", language="python",
        generation_date="1118", created_at=NOW, predictions=[preds, preds.with_name("p1")],
        tasks_root=tmp_path / "tasks", tasks=[task], backend="local",
        settings={"jobs": 2, "install_timeout": 600.0, "startup_timeout": 15.0,
                  "test_timeout": 300.0})
    write_run_json(run_dir, finished_at=None, status="running", samples=[],
                   elapsed_seconds=0.0, **common)
    doc = read(run_dir / "run.json")
    assert errors(RUN, doc) == []
    assert doc["source"]["tasks_root"] == "../../tasks"
    write_run_json(run_dir, finished_at=NOW, status="complete",
                   samples=[("todo-service", 1), ("todo-service", 0)], elapsed_seconds=9.5,
                   **common)
    doc = read(run_dir / "run.json")
    assert errors(RUN, doc) == []
    assert [s["path"] for s in doc["samples"]] == ["samples/todo-service/0",
                                                    "samples/todo-service/1"]

    samples = [_synthetic_sample(run_dir / "samples" / "todo-service" / "1",
                                 preds / "todo-service", deployed)
               for deployed in (True, False)]
    stamp = datetime(2026, 11, 21, 6, 1, 24, tzinfo=UTC)
    report = stock_report(samples, str(preds), 12.3, stamp, "Forge", "m1-large")
    assert errors(REPORT, report) == []
    assert errors(REPORT, stock_report([], str(preds), 0.0, stamp)) == []


# ------------------------------------------------------------- the documentation's examples

def test_examples_in_the_format_documentation_validate() -> None:
    text = (ROOT / "docs" / "run-format.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]
    by_kind = {"run": RUN, "result": RESULT, "report": REPORT}
    seen = set()
    for doc in blocks:
        kind = "run" if "format" in doc else "result" if "deployment" in doc else "report"
        assert errors(by_kind[kind], doc) == [], kind
        seen.add(kind)
    assert seen == set(by_kind)
