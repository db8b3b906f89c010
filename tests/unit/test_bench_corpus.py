"""The synthetic bench corpus (bench/make_corpus.py) at a small size.

It must load with the real loader without a single issue, hold exactly the requested number of
samples and test results, contain every kind of outcome, carry its deliberate benchmark
defects, validate against the published schema, and be exactly what the writer produces.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from inspector.model import Discovery, LoadIssue, Phase, SampleResult, SuiteStatus, discover_runs
from inspector.model.runs.runformat import parse_sample, sample_to_json

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "make_corpus.py"
SIZE = ["--samples", "60", "--tests", "1500", "--tasks", "6", "--runs", "4"]


def _generate(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, str(SCRIPT), str(out), *SIZE, *extra],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bench").resolve() / "corpus"
    _generate(out, "--seed", "7", "--jobs", "2")
    return out


@pytest.fixture(scope="module")
def found(corpus: Path) -> Discovery:
    return discover_runs(corpus)


def _samples(found: Discovery) -> list[SampleResult]:
    return [s for run in found.runs for s in run.samples]


def test_loads_without_issues(found: Discovery) -> None:
    assert found.errors == []
    assert found.issues == []
    assert len(found.runs) == 4
    assert len(found.tasks) == 6


def test_exact_totals(corpus: Path, found: Discovery) -> None:
    samples = _samples(found)
    assert len(samples) == 60
    assert sum(len(s.tests.cases) for s in samples) == 1500
    summary = json.loads((corpus / "corpus.json").read_text())
    assert summary["totals"]["samples"] == 60
    assert summary["totals"]["tests"] == 1500
    for s in samples:  # counts agree with the cases, as the loader recomputes them
        assert s.tests.passed + s.tests.failed + s.tests.errors == len(s.tests.cases)


def _kind(s: SampleResult) -> str:
    if not s.deployment.success:
        assert s.deployment.failed_phase is not None
        return f"not deployed: {s.deployment.failed_phase.value}"
    if s.tests.status is SuiteStatus.NOT_RUN:
        return "suite not run"
    if s.passed:
        return "passed"
    return "tests failed"


def test_outcome_mix_has_every_kind(found: Discovery) -> None:
    kinds = {_kind(s) for s in _samples(found)}
    assert {"passed", "tests failed", "not deployed: install", "not deployed: start",
            "not deployed: health", "suite not run"} <= kinds
    assert any(s.tests.collection_errors for s in _samples(found))
    assert {r.language for r in found.runs} == {"python", "java"}


def test_benchmark_defect_fails_in_every_sample(corpus: Path, found: Discovery) -> None:
    specials = json.loads((corpus / "corpus.json").read_text())["special_tasks"]
    assert specials["defect_tests"]
    by_task: dict[str, list[SampleResult]] = defaultdict(list)
    for s in _samples(found):
        by_task[s.task].append(s)
    python_runs = {r.id for r in found.runs if r.language == "python"}
    for defect in specials["defect_tests"]:
        samples = by_task[defect["task"]]
        assert {s.run_id for s in samples} == python_runs  # in every run
        messages = set()
        for s in samples:
            case = next(c for c in s.tests.cases if c.id == defect["test_id"])
            assert case.outcome.is_failure, s.sample_id
            messages.add(case.first_message_line)
        assert len(messages) == 1, messages
    for broken in specials["broken_suite"]:
        for s in by_task[broken["task"]]:
            errors = [c for c in s.tests.cases if c.id == broken["file"]]
            assert s.tests.collection_errors == 1 and len(errors) == 1, s.sample_id
            assert errors[0].first_message_line == \
                "ModuleNotFoundError: No module named 'jsonschema'"


def test_evidence_points_at_declaring_lines(found: Discovery) -> None:
    checked = 0
    for s in _samples(found):
        assert s.repo_path is not None and s.repo_path.is_dir()
        assert s.api_coverage is not None and s.api_coverage.endpoints
        for e in s.api_coverage.endpoints:
            assert e.implemented == bool(e.evidence)
            for ev in e.evidence:
                line = (s.repo_path / ev.file).read_text().splitlines()[ev.line - 1]
                assert line.strip() == ev.text
                checked += 1
    assert checked


def test_logs_follow_the_line_format(found: Discovery) -> None:
    from inspector.model.logs.phase_logs import parse_log_line

    for s in _samples(found)[:20]:
        assert set(s.logs) == set(Phase)
        for path in s.logs.values():
            for raw in path.read_text(encoding="utf-8").splitlines():
                assert parse_log_line(raw).timestamp is not None, (path, raw)


def _validator() -> Draft202012Validator:
    schema = json.loads((ROOT / "inspector" / "schemas" / "result.schema.json").read_text())
    return Draft202012Validator(schema, format_checker=FormatChecker())


def test_results_validate_and_are_what_the_writer_writes(corpus: Path, found: Discovery
                                                         ) -> None:
    validator = _validator()
    files = sorted(corpus.glob("runs/*/samples/*/*/result.json"))
    assert len(files) == 60
    for path in files:
        text = path.read_text(encoding="utf-8")
        doc: dict[str, Any] = json.loads(text)
        errors = sorted(validator.iter_errors(doc), key=str)
        assert not errors, f"{path}: {errors[0].message}"
        assert text == json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        issues: list[LoadIssue] = []
        parsed = parse_sample(doc, path, issues, found.tasks)
        assert issues == []
        assert sample_to_json(parsed, path.parent, doc["started_at"], doc["finished_at"]) == doc


def test_deterministic(corpus: Path, tmp_path: Path) -> None:
    other = tmp_path.resolve() / "again"
    _generate(other, "--seed", "7", "--jobs", "1")
    for name in ("result.json", "tests.log", "start.log"):
        a = sorted(corpus.glob(f"runs/**/{name}"))
        b = sorted(other.glob(f"runs/**/{name}"))
        assert [p.relative_to(corpus) for p in a] == [p.relative_to(other) for p in b]
        for pa, pb in zip(a, b, strict=True):
            assert pa.read_text().replace(str(corpus), "OUT") == \
                pb.read_text().replace(str(other), "OUT"), pa
