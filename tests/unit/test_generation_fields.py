"""The optional ``generation`` record (time, tokens, cost) in our run format: written by the
real writer, validated by the schema, read back by the loader and the catalog; files without
it load as before; a bad value is a warning, never a failed load."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.model.results.sample import Generation
from inspector.model.runs.runformat import load_run
from inspector.services.catalog.index import Catalog
from tests.analysis_runs import write_run
from tests.unit.test_schemas import RESULT, errors

GEN = Generation(seconds=42.5, input_tokens=12000, output_tokens=3400, cost_usd=0.0731)


def test_generation_round_trips_through_the_files_and_the_catalog(tmp_path: Path) -> None:
    run_dir = write_run(tmp_path, "run-g", "A", "m", {"alpha": [(2, 2), (1, 2)]},
                        {("alpha", 0): GEN, ("alpha", 1): Generation(cost_usd=0.01)})
    doc = json.loads((run_dir / "samples/alpha/0/result.json").read_text())
    assert doc["generation"] == {"seconds": 42.5, "input_tokens": 12000,
                                 "output_tokens": 3400, "cost_usd": 0.0731}
    assert errors(RESULT, doc) == []
    run, issues = load_run(run_dir)
    assert issues == []
    by_sample = {s.sample: s for s in run.samples}
    assert by_sample[0].generation == GEN
    assert by_sample[1].generation == Generation(cost_usd=0.01)
    catalog = Catalog(tmp_path, tmp_path / "index.sqlite3")
    try:
        catalog.refresh()
        entries = {e.sample: e for e in catalog.samples()}
    finally:
        catalog.close()
    assert entries[0].generation == GEN and entries[1].generation == Generation(cost_usd=0.01)


def test_files_without_generation_load_as_before(sample_runs: Path) -> None:
    run, issues = load_run(sample_runs / "runs" / "repo_readme_1125_dash_m2-mini_Python")
    assert not [i for i in issues if "generation" in i.field]
    assert all(s.generation is None for s in run.samples)
    doc = json.loads(next((sample_runs / "runs").glob("*/samples/*/0/result.json")).read_text())
    assert "generation" not in doc


def test_a_bad_generation_value_is_a_warning(tmp_path: Path) -> None:
    run_dir = write_run(tmp_path, "run-g", "A", "m", {"alpha": [(2, 2)]},
                        {("alpha", 0): GEN})
    path = run_dir / "samples/alpha/0/result.json"
    doc = json.loads(path.read_text())
    doc["generation"] = {"seconds": -3, "input_tokens": "many", "cost_usd": 0.5}
    assert errors(RESULT, doc)  # the schema rejects it too
    path.write_text(json.dumps(doc))
    run, issues = load_run(run_dir)
    (s,) = run.samples
    assert s.generation == Generation(cost_usd=0.5)
    fields = sorted(i.field for i in issues)
    assert fields == ["generation.input_tokens", "generation.seconds"]
    assert all(i.severity == "warning" and i.path == path for i in issues)
