"""One evaluation, one run (issue 28, items 4-6), on copies of the bundled runs.

The bundled folder holds six runs of ours and, for four of them, the same evaluation in the
stock layout (``repogenesis/``): counted, analysed and compared as six runs, the stock copy
shown as the same run in another format. An exact run id selects its run in every command.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.model import discover_runs
from inspector.model.runs.runformat import load_run
from inspector.services.analysis.overview_load import overview_of_folder
from inspector.services.analysis.source import resolve_runs
from inspector.services.catalog.index import Catalog
from inspector.services.evaluate.run_writer import write_repogenesis_output
from inspector.services.logs.deployment_log import locate_sample_log
from inspector.ui.analysis.task_rows import task_rows

ATLAS = "repo_readme_1125_atlas_m2-large_Python"
ATLAS_STOCK = f"{ATLAS}@2026-11-25_18-41-39"
DASH = "repo_readme_1125_dash_m2-mini_Python"
FORGE = "repo_readme_1118_forge_m1-large_Python"


def _copy(sample_runs: Path, tmp: Path) -> Path:
    """runs/, repogenesis/, tasks/ and predictions/ of the bundled folder."""
    root = tmp / "sample_runs"
    for part in ("runs", "repogenesis", "tasks", "predictions"):
        shutil.copytree(sample_runs / part, root / part, symlinks=True)
    return root


@pytest.fixture(scope="module")
def shared_copy(sample_runs: Path, tmp_path_factory: pytest.TempPathFactory
                ) -> Iterator[Path]:
    """A copy the tests only read, with a cache (the index) of its own."""
    tmp = tmp_path_factory.mktemp("twins")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GENESIS_INSPECTOR_CACHE", str(tmp / "cache"))
        yield _copy(sample_runs, tmp)


@pytest.fixture
def runs_copy(shared_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(shared_copy.parent / "cache"))
    return shared_copy


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def _cli(*args: str) -> Ran:
    """``inspector ARGS`` in this process (as the console script runs it)."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return Ran(code, out.getvalue(), err.getvalue())


def test_the_bundled_folder_counts_six_runs_with_four_stock_twins(runs_copy: Path) -> None:
    out = _cli("summary", str(runs_copy), "--json")
    assert out.returncode == 0, out.stderr
    docs = json.loads(out.stdout)
    assert len(docs) == 6 and all(d["format"] != "repogenesis" for d in docs)
    twins = {d["run_id"]: [t["run_id"] for t in d["twins"]] for d in docs}
    assert twins[ATLAS] == [ATLAS_STOCK]
    assert sum(map(len, twins.values())) == 4
    text = _cli("summary", str(runs_copy)).stdout
    assert text.count("also in the stock layout at") == 4
    assert f"{ATLAS}: also in the stock layout at " in text
    catalog = Catalog(runs_copy)
    try:
        catalog.refresh()
        assert len(catalog.runs()) == 6 and len(catalog.twin_runs()) == 4
        assert catalog.counts()[:2] == (6, 39)
        assert {e.run_id for e in catalog.samples()} == {d["run_id"] for d in docs}
    finally:
        catalog.close()


def test_a_task_tried_by_three_runs_counts_three_in_the_analysis(runs_copy: Path) -> None:
    overview = overview_of_folder(runs_copy)
    assert len(overview.runs) == 6
    rows = {r.task: r for r in task_rows(overview)}
    assert rows["Multilingual"].runs == 3  # atlas, dash, relay (two with a stock copy)
    assert rows["notes-api"].runs == 2  # forge and relay (both with a stock copy)
    # the comparison offered first is two different agents, never a run and its twin
    a, b, _ = overview.pairable()[0]
    assert {a.run_id, b.run_id} & {ATLAS_STOCK} == set()
    assert all("@" not in r.run_id for r in overview.runs)


def test_an_evaluation_written_in_both_layouts_reads_back_as_one_run(runs_copy: Path,
                                                                     tmp_path: Path) -> None:
    """What ``evaluate --repogenesis-out`` writes (the same run_writer calls), read back:
    one run, linked both ways (recorded in run.json; by content from the stock side)."""
    from inspector.services.evaluate.run_writer import record_twins

    lab = tmp_path / "lab"
    shutil.copytree(runs_copy / "runs" / FORGE, lab / "runs" / FORGE)
    run, _ = load_run(lab / "runs" / FORGE)
    stock = write_repogenesis_output(lab / "stock", [s for s in run.samples if s.sample == 0],
                                     runs_copy / "predictions" / FORGE, 12.0,
                                     datetime(2026, 12, 1, tzinfo=UTC), "current",
                                     run.agent, run.model)
    record_twins(lab / "runs" / FORGE, [stock])
    doc = json.loads((lab / "runs" / FORGE / "run.json").read_text())
    assert doc["twins"] == [{"format": "repogenesis",
                             "path": "../../stock/report_2026-12-01_00-00-00.json"}]
    found = discover_runs(lab)
    assert [r.id for r in found.runs] == [FORGE]
    assert [(t.run.source.path, t.how) for t in found.twins] == [(stock.resolve(), "recorded")]
    alone = discover_runs(lab / "stock")  # met alone: a run of its own
    assert len(alone.runs) == 1 and not alone.twins
    # a stock report whose results differ is not a twin, however it is named
    report = json.loads(stock.read_text())
    report["results"][0]["pass_at_1"]["passed"] += 1
    stock.write_text(json.dumps(report))
    found = discover_runs(lab)
    assert len(found.runs) == 2 and not found.twins
    assert any("results differ" in i.message for i in found.issues)


def test_a_repo_changed_between_two_loads_is_read_again_by_index_and_cli(
        sample_runs: Path, tmp_path: Path, tamper_fixture: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))
    runs_copy = _copy(sample_runs, tmp_path)
    catalog = Catalog(runs_copy)
    try:
        catalog.refresh()
        assert not [e for e in catalog.samples() if e.tampering]
    finally:
        catalog.close()
    repo = runs_copy / "predictions" / FORGE / "notes-api"
    shutil.copy(tamper_fixture / "forged_conftest" / "conftest.py", repo / "conftest.py")
    catalog = Catalog(runs_copy)  # a restart: the same index, the disk changed
    try:
        catalog.refresh()
        index_side = sorted(e.sample_id for e in catalog.samples() if e.tampering)
        health = [t.sample_id for t in catalog.health().tampering]
    finally:
        catalog.close()
    out = _cli("summary", str(runs_copy), "--json")
    cli_side = sorted(a["sample"] for d in json.loads(out.stdout)
                      for a in d["tampering"]["attempts"])
    assert index_side == cli_side == health == [f"{FORGE}/notes-api/0"]


@pytest.fixture
def tamper_fixture() -> Path:
    return Path(__file__).parent / "fixtures" / "hostile" / "tamper"


def test_an_exact_run_id_selects_that_run_in_every_command(runs_copy: Path) -> None:
    # rerun: the exact id is not "ambiguous" beside its twin's; the twin's own id selects it
    for run_id in (ATLAS, ATLAS_STOCK):
        out = _cli("rerun", str(runs_copy), "Multilingual", "no_such_test", "--run", run_id)
        assert out.returncode == 1
        assert f"error: {run_id}/Multilingual/0: no recorded test 'no_such_test'" \
            in out.stderr, out.stderr
    # replay picks the same way
    for run_id in (ATLAS, ATLAS_STOCK):
        log = locate_sample_log(runs_copy, "Multilingual", run=run_id)
        assert log.sample is not None and log.sample.run_id == run_id
    # failures --run: only that run
    out = _cli("failures", str(runs_copy), "--run", ATLAS, "--json")
    assert out.returncode == 0, out.stderr
    assert {r["run_id"] for r in json.loads(out.stdout)} == {ATLAS}
    out = _cli("failures", str(runs_copy), "--run", ATLAS_STOCK, "--json")
    assert {r["run_id"] for r in json.loads(out.stdout)} == {ATLAS_STOCK}
    # compare: exact ids, a twin's included; a part of an id fitting a run and its twin
    # names the run
    a, b = resolve_runs([ATLAS, ATLAS_STOCK], runs_copy)
    assert (a.run_id, b.run_id) == (ATLAS, ATLAS_STOCK)
    (only,) = resolve_runs(["atlas"], runs_copy)
    assert only.run_id == ATLAS
