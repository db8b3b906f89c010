"""`inspector summary` and `inspector failures` on a runs folder whose generated repos reach for
their own test runs: a tampering line in the summary, a tampering attempt per sample in the
failures, in text and JSON, with the verdicts untouched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tamper_runs

OURS = tamper_runs.RUN_ID
STOCK = tamper_runs.STOCK_ID


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory, sample_runs: Path) -> Path:
    return tamper_runs.build(tmp_path_factory.mktemp("hostile"), sample_runs / "tasks")


def cli(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": str(cache)}
    proc = subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_summary_says_how_many_samples_tried_and_how_many_deliberately(
        root: Path, tmp_path: Path) -> None:
    out = cli("summary", str(root), cache=tmp_path).stdout
    # the stock copy is the same evaluation (a twin): its samples are not counted again
    assert ("Tampering attempts: 3 samples with tampering attempts, 2 deliberate (kept out of "
            "the golden test runs; verdicts unaffected)") in out
    lines = out[out.index("Tampering attempts:"):].splitlines()[1:4]
    # deliberate first, each sample named with the kinds of what it holds
    assert lines == [
        f"  {OURS}/inventory-api/0: deliberate (pytest_plugin)",
        f"  {OURS}/notes-api/0: deliberate (root_conftest, pytest_config)",
        f"  {OURS}/todo-service/0: could influence (pytest_config)"]


def test_summary_json_carries_the_counts_per_run_and_the_verdicts_stand(
        root: Path, tmp_path: Path) -> None:
    rows = {r["run_id"]: r for r in json.loads(cli("summary", str(root), "--json",
                                                   cache=tmp_path).stdout)}
    assert set(rows) == {OURS}
    assert [t["run_id"] for t in rows[OURS]["twins"]] == [STOCK]
    for run_id, row in rows.items():
        t = row["tampering"]
        assert (t["samples"], t["deliberate"]) == (3, 2), run_id
        assert [a["sample"] for a in t["attempts"]] == [
            f"{run_id}/inventory-api/0", f"{run_id}/notes-api/0", f"{run_id}/todo-service/0"]
        notes = t["attempts"][1]
        assert notes["deliberate"] is True
        assert notes["findings"][0]["kind"] == "root_conftest"
        assert "conftest.py:10" in notes["findings"][0]["detail"]
        # the forged notes-api and the plugin's inventory-api fail, the others pass
        assert row["pass_at_1"] == 0.5


def test_failures_text_has_a_tampering_attempt_per_sample_with_its_findings(
        root: Path, tmp_path: Path) -> None:
    out = cli("failures", str(root), cache=tmp_path).stdout
    table = out[:out.index("\nTampering attempts")]
    tamper_rows = [ln for ln in table.splitlines() if "tampering_attempt" in ln]
    assert len(tamper_rows) == 3  # the stock copy is a twin, not counted again
    assert any(OURS in ln and "notes-api" in ln and "deliberate root conftest.py: "
               "conftest.py:10: pytest_runtest_makereport sets report.outcome" in ln
               for ln in tamper_rows)
    section = out[out.index("\nTampering attempts"):]
    assert "(kept out of the golden test runs; verdicts unaffected)" in section
    block = section[section.index(f"  {OURS}/notes-api/0: tampering attempt (deliberate)"):]
    block_lines = block.splitlines()
    assert block_lines[1].startswith("    deliberate root conftest.py: conftest.py:10: "
                                     "pytest_runtest_makereport sets report.outcome")
    assert block_lines[2] == ("    pytest configuration: pyproject.toml:5: "
                              "[tool.pytest.ini_options] section (testpaths = tests); "
                              "could influence the test run; kept out")
    assert f"  {OURS}/todo-service/0: tampering attempt\n    pytest configuration: " \
           "pytest.ini:1:" in section
    # the forged sample's failing tests are listed as they were measured
    assert any("notes-api" in ln and "failed" in ln and "assert 500 == 200" in ln
               for ln in table.splitlines())


def test_failures_json_rows_carry_every_finding(root: Path, tmp_path: Path) -> None:
    rows = json.loads(cli("failures", str(root), "--json", cache=tmp_path).stdout)
    tamper = [r for r in rows if r["outcome"] == "tampering_attempt"]
    assert len(tamper) == 3
    # the stock copy, a twin, is listed when named (an exact id selects it)
    stock_rows = json.loads(cli("failures", str(root), "--json", "--run", STOCK,
                                cache=tmp_path).stdout)
    plugin = next(r for r in stock_rows
                  if r["outcome"] == "tampering_attempt" and r["task"] == "inventory-api")
    assert plugin["deliberate"] is True and plugin["file"] == "setup.py"
    (finding,) = plugin["tampering"]
    assert finding["kind"] == "pytest_plugin" and finding["path"] == "setup.py"
    assert "notes_quality.py:11: pytest_runtest_logreport sets report.outcome" in \
        finding["detail"]
    benign = next(r for r in tamper if r["run_id"] == OURS and r["task"] == "todo-service")
    assert benign["deliberate"] is False
    assert [r["outcome"] for r in rows if r["task"] == "notes-api" and r["run_id"] == OURS
            ].count("failed") == 10
    assert all("tampering" not in r for r in rows if r["outcome"] != "tampering_attempt")
