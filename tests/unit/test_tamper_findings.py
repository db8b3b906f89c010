"""Tampering findings as data: kept in result.json (schema-valid, read back the same), scanned
for runs that record none, indexed by the catalog, listed by benchmark health deliberate
first, listed by `failures` — and never part of a verdict or a metric."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import tamper_runs
from jsonschema import Draft202012Validator

from inspector.model import discover_runs
from inspector.model.repo.tampering import TamperFinding
from inspector.model.results.verdict import verdict_of
from inspector.model.runs.runformat import load_run, parse_sample
from inspector.model.untrusted.errors import LoadIssue
from inspector.services.catalog.index import INDEX_VERSION, Catalog
from inspector.services.figures.failures import list_failures
from inspector.services.figures.metrics import compute_run_metrics
from inspector.services.tamper.findings import sample_tampering

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "inspector" / "schemas"
                     / "result.schema.json").read_text())
OURS = tamper_runs.RUN_ID
STOCK = tamper_runs.STOCK_ID


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory, sample_runs: Path) -> Path:
    return tamper_runs.build(tmp_path_factory.mktemp("hostile"), sample_runs / "tasks")


def _result_json(root: Path, task: str) -> dict:
    return json.loads((root / "runs" / OURS / "samples" / task / "0" / "result.json")
                      .read_text())


def test_result_json_keeps_the_findings_and_validates(root: Path) -> None:
    doc = _result_json(root, "notes-api")
    Draft202012Validator(SCHEMA).validate(doc)
    kinds = [(f["kind"], f["path"], f["deliberate"]) for f in doc["tampering"]]
    assert kinds == [("root_conftest", "conftest.py", True),
                     ("pytest_config", "pyproject.toml", False)]
    assert "conftest.py:10: pytest_runtest_makereport sets report.outcome" in \
        doc["tampering"][0]["detail"]
    clean = _result_json(root, "url-shortener")
    Draft202012Validator(SCHEMA).validate(clean)
    assert clean["tampering"] == []  # scanned, nothing found
    older = _result_json(root, "todo-service")
    assert "tampering" not in older  # a run recorded before the field existed


def test_findings_read_back_the_same_and_older_runs_are_scanned(root: Path) -> None:
    run, issues = load_run(root / "runs" / OURS)
    assert not issues
    by_task = {s.task: s for s in run.samples}
    notes = by_task["notes-api"]
    assert notes.tampering is not None and notes.tampering[0] == TamperFinding.from_json(
        _result_json(root, "notes-api")["tampering"][0])
    assert by_task["url-shortener"].tampering == ()
    older = by_task["todo-service"]
    assert older.tampering is None
    (found,) = sample_tampering(older, run.tasks["todo-service"])
    assert (found.kind, found.path, found.deliberate) == ("pytest_config", "pytest.ini", False)


def test_stock_reports_get_their_findings_from_the_predictions(root: Path) -> None:
    stock = next(r for r in discover_runs(root).all_runs if r.id == STOCK)
    found = {s.task: sample_tampering(s, stock.tasks.get(s.task)) for s in stock.samples}
    assert [f.kind for f in found["notes-api"]] == ["root_conftest", "pytest_config"]
    assert found["inventory-api"][0].deliberate
    assert found["url-shortener"] == ()


@pytest.mark.parametrize("bad", ["not a list", [{"kind": "x"}, 7, {"detail": "d"}]])
def test_a_malformed_tampering_field_is_a_warning_not_a_failure(root: Path, tmp_path: Path,
                                                                 bad: object) -> None:
    doc = _result_json(root, "notes-api")
    doc["tampering"] = bad
    path = tmp_path / "result.json"
    path.write_text(json.dumps(doc))
    issues: list[LoadIssue] = []
    s = parse_sample(doc, path, issues)
    assert issues and all(i.severity == "warning" for i in issues)
    assert all(str(path) in str(i) for i in issues)
    assert s.tampering == (None if bad == "not a list" else ())


def test_findings_never_change_a_verdict_or_a_metric(root: Path) -> None:
    for run in discover_runs(root).runs:
        bare = replace(run, samples=tuple(replace(s, tampering=()) for s in run.samples))
        assert [verdict_of(s) for s in run.samples] == [verdict_of(s) for s in bare.samples]
        assert compute_run_metrics(run) == compute_run_metrics(bare)
        # the forged sample fails (what the golden run measured) whatever its findings say
        notes = next(s for s in run.samples if s.task == "notes-api")
        assert not notes.passed
        flipped = replace(notes, tampering=(TamperFinding("root_conftest", "conftest.py",
                                                          "forges", True),))
        assert verdict_of(flipped) == verdict_of(notes)


def test_failures_lists_one_tampering_row_per_sample_with_every_finding(root: Path) -> None:
    rows = [r for r in list_failures(discover_runs(root).all_runs)
            if r.outcome == "tampering_attempt"]
    assert sorted((r.run_id, r.task, r.deliberate) for r in rows) == [
        (OURS, "inventory-api", True), (OURS, "notes-api", True), (OURS, "todo-service", False),
        (STOCK, "inventory-api", True), (STOCK, "notes-api", True),
        (STOCK, "todo-service", False)]
    # the stock copy is a twin of our run: the runs counted list each sample once
    assert {r.run_id for r in list_failures(discover_runs(root).runs)} == {OURS}
    notes = next(r for r in rows if r.run_id == OURS and r.task == "notes-api")
    doc = notes.to_json()
    assert doc["deliberate"] is True and len(doc["tampering"]) == 2
    assert doc["message"].startswith("deliberate root conftest.py: conftest.py:10:")
    assert doc["message"].endswith("(+1 more)")
    other = next(r for r in list_failures(discover_runs(root).runs) if r.outcome == "failed")
    assert "tampering" not in other.to_json() and "deliberate" not in other.to_json()


def test_the_catalog_indexes_findings_and_health_lists_them_deliberate_first(
        root: Path, tmp_path: Path) -> None:
    assert INDEX_VERSION >= 9
    catalog = Catalog(root, tmp_path / "index.sqlite3")
    try:
        catalog.refresh()
        twins = [r.key for r in catalog.twin_runs()]
        entries = {e.sample_id: e for e in catalog.samples() + catalog.samples(twins)}
        stock_notes = entries[f"{STOCK}/notes-api/0"]
        assert [f.kind for f in stock_notes.tampering] == ["root_conftest", "pytest_config"]
        assert stock_notes.tampering_deliberate
        # a stock sample opened from the index carries the findings scanned when indexed
        assert catalog.load_sample(stock_notes).tampering == stock_notes.tampering
        assert entries[f"{OURS}/url-shortener/0"].tampering == ()
        report = catalog.health()
        # the stock copies duplicate our run's samples: counted once, like other evidence
        assert [(t.sample_id, t.deliberate) for t in report.tampering] == [
            (f"{OURS}/inventory-api/0", True), (f"{OURS}/notes-api/0", True),
            (f"{OURS}/todo-service/0", False)]
        assert report.deliberate_tampering == 2
    finally:
        catalog.close()
