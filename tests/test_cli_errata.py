"""Corrected figures (issue 28, item 10) on copies of two bundled real runs (dash and relay,
1125, Python: 8 tasks, one sample each) with a small labels folder written here.

The labels (figures checked by hand from the runs' result.json files):

* synapse: ana labels the file ``tests/test_api_contract.py`` of dash's sample not-model; it
  holds all 5 tests of the suite -> synapse is dropped from both runs;
* StructuredDataConvertor: ana and ben agree that dash's 4 failing tests are not-model; relay
  fails the same 4 -> both samples keep 38 of 38 and pass;
* UserManagement_2: ana labels ``test_access_other_user_data`` (failed in dash, passed in
  relay) not-model -> left out of both: dash 11/30, relay 11/30 (one passed test fewer);
* Multilingual: ana says not-model, ben says other -> unresolved, nothing left out;
* WebPan: a sample-level not-model label -> leaves no test out.

Official: pass@1 3/8 = 37.5 % for both; test pass 73.41 % (dash), 61.31 % (relay).
Corrected: 7 tasks; pass@1 4/7 = 57.14 % (drf, eve, flask, SDC) for both; test pass
dash mean(0.8788, 1, 0.3667, 1, 1, 1) = 87.42 %, relay mean(0, 1, 0.3667, 1, 1, 1) = 72.78 %.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from inspector.cli import main
from inspector.model.labels.label_file import ItemRef, Label, LabelFile, apply_edit, dumps_labels

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "sample_runs" / "runs"
SCHEMAS = ROOT / "inspector" / "schemas"
DASH = "repo_readme_1125_dash_m2-mini_Python"
RELAY = "repo_readme_1125_relay_open_coder-7b_Python"
SDC_FAILS = ("tests/test_convert.py::TestConvertEndpoint::test_large_file_conversion",
             "tests/test_convert_batch.py::TestConvertBatchEndpoint::"
             "test_batch_conversion_with_failures",
             "tests/test_health.py::TestHealthEndpoint::test_health_endpoint_headers",
             "tests/test_integration.py::TestIntegration::test_performance_under_realistic_load")
UM2_TEST = "tests/test_edge_cases.py::TestEdgeCases::test_access_other_user_data"
ML_TEST = "tests/test_translate.py::test_translate_english_to_chinese"
EXPECTED = {DASH: {"pass_at_1": 0.5714, "test_pass_ratio": 0.8742, "tasks": 7, "samples": 7,
                   "tests_left_out": 5, "failures_left_out": 5},
            RELAY: {"pass_at_1": 0.5714, "test_pass_ratio": 0.7278, "tasks": 7, "samples": 7,
                    "tests_left_out": 5, "failures_left_out": 4}}


def _label(run: str, task: str, test: str | None, category: str, by: str) -> Label:
    made = apply_edit(None, Label(ItemRef(f"{run}/{task}/0", test), category,
                                  note=f"{by}: {category}"), by, at="2026-01-01T00:00:00Z")
    assert made is not None
    return made


def _write_labels(folder: Path) -> None:
    ana = [_label(DASH, "synapse", "tests/test_api_contract.py", "not-model", "ana"),
           *(_label(DASH, "StructuredDataConvertor", t, "not-model", "ana") for t in SDC_FAILS),
           _label(DASH, "UserManagement_2", UM2_TEST, "not-model", "ana"),
           _label(DASH, "Multilingual", ML_TEST, "not-model", "ana"),
           _label(DASH, "WebPan", None, "not-model", "ana")]
    ben = [*(_label(DASH, "StructuredDataConvertor", t, "not-model", "ben") for t in SDC_FAILS),
           _label(DASH, "Multilingual", ML_TEST, "other", "ben")]
    (folder / "annotators").mkdir(parents=True)
    for name, labels in (("ana", ana), ("ben", ben)):
        doc = LabelFile(name, taxonomy="repogenesis", labels=tuple(labels)).to_json()
        (folder / "annotators" / f"{name}.json").write_text(dumps_labels(doc))


def _copy_runs(dest: Path) -> Path:
    for run in (DASH, RELAY):
        shutil.copytree(RUNS / run, dest / run)
    return dest


@pytest.fixture
def labelled(tmp_path: Path) -> Path:
    """Copies of the two runs with the labels above in ``labels/``."""
    root = _copy_runs(tmp_path / "ours")
    _write_labels(root / "labels")
    return root


def _summary(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(["summary", *argv, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else None, err


def _figures(doc: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    keys = ("pass_at_1", "test_pass_ratio", "tasks", "samples", "tests_left_out",
            "failures_left_out")
    return {d["run_id"]: {k: d["corrected"][k] for k in keys} for d in doc}


def test_corrected_figures_from_labels_beside_the_official(
        labelled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc, err = _summary(capsys, str(labelled))
    assert code == 0, err
    official = {d["run_id"]: (d["pass_at_1"], d["test_pass_ratio"]) for d in doc}
    assert official == {DASH: (0.375, 0.7341), RELAY: (0.375, 0.6131)}  # unchanged
    got = _figures(doc)
    for run, want in EXPECTED.items():
        assert got[run] == pytest.approx(want, abs=1e-4), run
        assert doc[[d["run_id"] for d in doc].index(run)]["corrected"]["tasks_dropped"] == \
            ["synapse"]
    source = doc[0]["corrected"]["source"]
    assert source["kind"] == "labels" and source["annotators"] == ["ana", "ben"]
    assert source["entries"] == 6 and source["dropped_tasks"] == ["synapse"]

    assert main(["summary", str(labelled)]) == 0
    text = capsys.readouterr().out
    assert "Corrected figures" in text and "task dropped): synapse" in text
    dash_row = next(line for line in text.splitlines()
                    if line.startswith(DASH) and "7 of 8" in line)
    assert dash_row.split()[7:11] == ["37.5%", "57.1%", "73.4%", "87.4%"]


def test_errata_export_then_applied_to_other_runs_gives_the_same_figures(
        labelled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    errata = tmp_path / "errata.json"
    assert main(["labels", "errata", str(labelled), "--out", str(errata)]) == 0
    err = capsys.readouterr().err
    assert "6 test(s) of 3 task(s); whole suite: synapse" in err
    assert "1 test item(s) labelled 'not-model' by someone are unresolved" in err
    doc = json.loads(errata.read_text())
    entries = {(e["task"], e["test"]): e for e in doc["entries"]}
    assert set(entries) == {("synapse", "tests/test_api_contract.py"),
                            ("UserManagement_2", UM2_TEST),
                            *(("StructuredDataConvertor", t) for t in SDC_FAILS)}
    sdc = entries[("StructuredDataConvertor", SDC_FAILS[0])]
    assert sdc["status"] == "agreed"
    assert sdc["annotators"] == {"ana": "not-model", "ben": "not-model"}
    assert sdc["reason"] == "ana: not-model"
    assert entries[("UserManagement_2", UM2_TEST)]["status"] == "single"
    tasks = {t["task"]: t for t in doc["tasks"]}
    assert tasks["synapse"]["whole_suite"] and len(tasks["synapse"]["suite"]) == 5
    assert tasks["UserManagement_2"]["language"] == "python"

    other = _copy_runs(tmp_path / "other-lab")  # no labels folder at all
    code, applied, err = _summary(capsys, str(other), "--errata", str(errata))
    assert code == 0, err
    assert _figures(applied) == _figures(_summary(capsys, str(labelled))[1])
    for run, want in EXPECTED.items():
        assert _figures(applied)[run] == pytest.approx(want, abs=1e-4), run
    assert applied[0]["corrected"]["source"]["kind"] == "errata"


def test_errata_file_matches_its_schema_and_round_trips(
        labelled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from inspector.model.labels.errata import parse_errata

    errata = tmp_path / "errata.json"
    assert main(["labels", "errata", str(labelled), "--out", str(errata)]) == 0
    capsys.readouterr()
    doc = json.loads(errata.read_text())
    schemas = [json.loads((SCHEMAS / n).read_text())
               for n in ("errata.schema.json", "labels.schema.json")]
    registry: Registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas)
    validator = Draft202012Validator(schemas[0], registry=registry)
    assert list(validator.iter_errors(doc)) == []
    assert parse_errata(doc, errata).to_json() == doc
    broken = {**doc, "entries": [{**doc["entries"][0], "status": "unresolved"}]}
    assert list(validator.iter_errors(broken))


def _valid_doc() -> dict[str, Any]:
    return {"format": "genesis-inspector.errata", "version": 1, "category": "not-model",
            "entries": [{"task": "synapse", "test": "tests/test_api_contract.py",
                         "category": "not-model", "status": "single"}]}


@pytest.mark.parametrize(("content", "message"), [
    (b'{"format": "genesis-inspector.errata", "vers',
     "not an errata file: truncated JSON: the file ends"),
    (b"", "file is empty"),
    (json.dumps({**_valid_doc(), "format": "genesis-inspector.labels"}).encode(),
     "not an errata file (format must be 'genesis-inspector.errata'"),
    (json.dumps({**_valid_doc(), "version": 2}).encode(), "written by a newer inspector"),
    (json.dumps({**_valid_doc(), "entries": [{"task": "synapse"}]}).encode(),
     "field 'entries[0].test': must be a string, not null"),
    (json.dumps({**_valid_doc(), "entries": _valid_doc()["entries"] * 2}).encode(),
     "a second entry for synapse tests/test_api_contract.py"),
])
def test_broken_errata_file_is_one_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes,
        message: str) -> None:
    runs = _copy_runs(tmp_path / "runs")
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    assert main(["summary", str(runs), "--errata", str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"inspector: error: {bad}: ")
    assert message in lines[0]


def test_entries_naming_tasks_or_tests_not_in_the_runs_are_counted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = _copy_runs(tmp_path / "runs")
    doc = _valid_doc()
    doc["entries"] += [{"task": "no-such-task", "test": "tests/test_x.py::test_a",
                        "category": "not-model", "status": "agreed"},
                       {"task": "synapse", "test": "tests/test_gone.py::test_b",
                        "category": "not-model", "status": "single"}]
    errata = tmp_path / "errata.json"
    errata.write_text(json.dumps(doc))
    code, applied, err = _summary(capsys, str(runs), "--errata", str(errata))
    assert code == 0, err
    source = applied[0]["corrected"]["source"]
    assert source["tasks_not_in_runs"] == ["no-such-task"]
    assert source["tests_not_seen"] == ["synapse::tests/test_gone.py::test_b"]
    assert main(["summary", str(runs), "--errata", str(errata)]) == 0
    assert ("not in these runs: 1 task(s) (no-such-task), 1 test(s) no result of their task "
            "holds") in capsys.readouterr().out


def test_report_shows_corrected_figures_beside_the_official(labelled: Path) -> None:
    from inspector.model import discover_runs
    from inspector.services.figures.corrected import apply_errata
    from inspector.services.labels.errata import errata_from_labels
    from inspector.services.labels.store import LabelStore
    from inspector.services.report.load import assemble
    from inspector.services.report.page import render

    runs = discover_runs(labelled).runs
    data = assemble("copy", str(labelled), runs)
    assert 'id="corrected"' not in render(data)
    labels = LabelStore(labelled / "labels").load().labels
    data.corrected = apply_errata(runs, errata_from_labels(labels, runs))
    page = render(data)
    section = page[page.index('id="corrected"'):page.index('id="matrix"')]
    assert "37.5%" in section and "57.1%" in section and "87.4%" in section
    assert "Tasks dropped (every test left out): synapse" in section


@pytest.mark.parametrize(("excluded", "test_id", "covered"), [
    ("tests/t.py", "tests/t.py::C::test_a[1]", True),
    ("tests/t.py::C::test_a", "tests/t.py::C::test_a[1]", True),
    ("tests/t.py::C::test_a", "tests/t.py::C::test_ab", False),
    ("tests/t.py", "tests/t.py2::test_a", False),
    ("com.x.FooTest", "com.x.FooTest::testBar", True),
])
def test_an_entry_covers_the_tests_inside_what_it_names(excluded: str, test_id: str,
                                                        covered: bool) -> None:
    from inspector.model.labels.errata import covers

    assert covers(excluded, test_id) is covered
