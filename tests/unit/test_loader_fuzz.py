"""Fuzzing the loaders: arbitrary JSON, arbitrary bytes and mutations of valid files.

Whatever the input, ``discover_runs`` never raises; it returns runs plus issues, and every
issue names the file it is about. Whatever loads must also survive the metrics and, for our
format, the ``sample_to_json`` round trip.
"""

from __future__ import annotations

import copy
import json
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.model import discover_runs
from inspector.model.runs.runformat import parse_sample, sample_to_json
from inspector.services.figures.metrics import compute_run_metrics, repogenesis_summary

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VALID_REPORT = json.loads((FIXTURES / "repogenesis" / "summary_rules" / "report.json")
                          .read_text(encoding="utf-8"))
OURS = FIXTURES / "runs" / "ours_missing_result"
VALID_RESULT = json.loads((OURS / "samples" / "gamma" / "0" / "result.json")
                          .read_text(encoding="utf-8"))

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

scalars = (st.none() | st.booleans() | st.integers() | st.floats()
           | st.integers(min_value=-(10 ** 400), max_value=10 ** 400)
           | st.text(max_size=30)
           | st.sampled_from(["", "..", "../../etc", "/", "a/b", "\u0000", "x" * 300, "yes",
                              "12", "--5", "\u00b2", "python", "java", "install", "failed"]))
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=25,
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def fresh(base: Path) -> Path:
    return Path(tempfile.mkdtemp(dir=base))


def dump(value: Any) -> str:
    return json.dumps(value, indent=1)


def paths_of(doc: Any, prefix: tuple = ()) -> list[tuple]:
    """Every location inside a JSON document (not the root itself)."""
    out: list[tuple] = []
    if isinstance(doc, dict):
        items = list(doc.items())
    elif isinstance(doc, list):
        items = list(enumerate(doc))
    else:
        return out
    for key, value in items:
        out.append((*prefix, key))
        out.extend(paths_of(value, (*prefix, key)))
    return out


def mutate(data: st.DataObject, doc: Any, max_mutations: int = 4) -> Any:
    """Drop keys / list items or replace values with random JSON, a few times."""
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, max_mutations), label="mutations")):
        locations = paths_of(doc)
        if not locations:
            break
        where = data.draw(st.sampled_from(locations), label="where")
        parent = doc
        for key in where[:-1]:
            parent = parent[key]
        if data.draw(st.booleans(), label="drop"):
            del parent[where[-1]]
        else:
            parent[where[-1]] = data.draw(json_values, label="value")
    return doc


def check(found, files: list[Path]) -> None:
    """Issues name one of the files; runs survive the metrics."""
    names = [str(f) for f in files] + [f.name for f in files]
    for issue in found.issues:
        text = str(issue)
        assert any(n in text for n in names), text
    for run in found.runs:
        compute_run_metrics(run)
        repogenesis_summary(list(run.samples))


def check_roundtrip(found) -> None:
    for run in found.runs:
        for s in run.samples:
            assert s.source_file is not None
            doc = json.loads(json.dumps(sample_to_json(s, s.source_file.parent)))
            issues: list = []
            back = parse_sample(doc, s.source_file, issues)
            assert issues == []
            assert replace(back, source_file=s.source_file) == s


# ----------------------------------------------------------------------------- RepoGenesis

@FUZZ
@given(value=json_values)
def test_arbitrary_json_as_report(base: Path, value: Any) -> None:
    out = fresh(base)
    path = out / "report.json"
    path.write_text(dump(value), encoding="utf-8")
    found = discover_runs(out)
    check(found, [path])
    found = discover_runs(path)
    check(found, [path])


@FUZZ
@given(results=st.lists(json_values, max_size=5))
def test_arbitrary_results(base: Path, results: list) -> None:
    out = fresh(base)
    path = out / "report_2026-01-01_00-00-00.json"
    path.write_text(dump({"metadata": {}, "results": results}), encoding="utf-8")
    found = discover_runs(out)
    check(found, [path])
    assert len(found.runs) == 1
    assert len(found.runs[0].samples) <= len(results)


@FUZZ
@given(data=st.data())
def test_mutated_valid_report(base: Path, data: st.DataObject) -> None:
    out = fresh(base)
    path = out / "report.json"
    path.write_text(dump(mutate(data, VALID_REPORT)), encoding="utf-8")
    found = discover_runs(out)
    check(found, [path])


@FUZZ
@given(values=st.lists(json_values, min_size=1, max_size=3), data=st.data())
def test_arbitrary_intermediate_files(base: Path, values: list, data: st.DataObject) -> None:
    out = fresh(base)
    inter = out / "intermediate" / "2026-01-01_00-00-00"
    inter.mkdir(parents=True)
    files = []
    for i, value in enumerate(values):
        if data.draw(st.booleans(), label="mutate a valid result"):
            value = mutate(data, VALID_REPORT["results"][i], max_mutations=2)
        files.append(inter / f"task{i}.json")
        files[-1].write_text(dump(value), encoding="utf-8")
    found = discover_runs(out)
    check(found, files)


@FUZZ
@given(content=st.binary(max_size=200))
def test_arbitrary_bytes(base: Path, content: bytes) -> None:
    out = fresh(base)
    path = out / "report.json"
    path.write_bytes(content)
    check(discover_runs(out), [path])
    (out / "run.json").write_bytes(content)
    check(discover_runs(out), [out / "run.json"])


# ----------------------------------------------------------------------------- our format

def copy_run(base: Path) -> Path:
    run_dir = fresh(base) / "run"
    for src in OURS.rglob("*"):
        if src.is_file():
            dst = run_dir / src.relative_to(OURS)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(src.read_bytes())
    return run_dir


def json_files(run_dir: Path) -> list[Path]:
    return [run_dir / "run.json", *run_dir.resolve().rglob("result.json"),
            # listed but missing; issues name the resolved path of this file
            (run_dir / "samples" / "beta" / "0" / "result.json").resolve()]


@FUZZ
@given(data=st.data())
def test_mutated_run_json(base: Path, data: st.DataObject) -> None:
    run_dir = copy_run(base)
    doc = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    (run_dir / "run.json").write_text(dump(mutate(data, doc)), encoding="utf-8")
    found = discover_runs(run_dir)
    issues_are_about_run_files(found)
    check_roundtrip(found)


@FUZZ
@given(data=st.data())
def test_mutated_result_json(base: Path, data: st.DataObject) -> None:
    run_dir = copy_run(base)
    result = run_dir / "samples" / "gamma" / "0" / "result.json"
    if data.draw(st.booleans(), label="arbitrary json"):
        value = data.draw(json_values, label="result")
    else:
        value = mutate(data, VALID_RESULT)
    result.write_text(dump(value), encoding="utf-8")
    found = discover_runs(run_dir)
    check(found, json_files(run_dir))
    assert len(found.runs) == 1
    # alpha always loads; gamma loads unless its result.json became unusable
    assert "alpha" in found.runs[0].task_names
    check_roundtrip(found)


def issues_are_about_run_files(found) -> None:
    for issue in found.issues:
        assert issue.path.name in ("run.json", "result.json"), str(issue)
        assert str(issue).startswith(str(issue.path))
    for run in found.runs:
        compute_run_metrics(run)
