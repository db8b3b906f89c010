"""The CLI as a researcher scripts it: summary, failures, errors in one line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli import main


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, timeout=120, env=env)


def test_summary_json_on_bundled_data_matches_hand_count(sample_runs: Path) -> None:
    proc = run_cli("summary", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["run_id"]: r for r in json.loads(proc.stdout)}
    # six runs in our format, and the stock copies of four of them (repogenesis/<agent>/: a
    # stamped report_<stamp>.json keeps its stamp in the id, a plain report.json its folder)
    ours = ["repo_readme_1118_forge_m1-large_Python", "repo_readme_1119_relay_open_coder-7b_Python",
            "repo_readme_1125_atlas_m2-large_Python", "repo_readme_1125_dash_m2-mini_Java",
            "repo_readme_1125_dash_m2-mini_Python", "repo_readme_1125_relay_open_coder-7b_Python"]
    stock = []
    for folder in ("atlas", "dash", "forge", "relay"):
        (report,) = (sample_runs / "repogenesis" / folder).glob("report*.json")
        run = Path(json.loads(report.read_text())["metadata"]["predictions_dir"]).name
        suffix = folder if report.stem == "report" else report.stem.removeprefix("report_")
        stock.append(f"{run}@{suffix}")
    # the stock copies are the same evaluations (twins): one run each, named as a twin
    assert sorted(rows) == sorted(ours)
    assert sorted(t["run_id"] for r in rows.values() for t in r["twins"]) == sorted(stock)
    for r in rows.values():
        for key in ("run_id", "agent", "model", "language", "tasks", "samples", "pass_at_1",
                    "test_pass_ratio", "api_coverage", "dsr", "suites_not_run"):
            assert key in r
    forge = rows["repo_readme_1118_forge_m1-large_Python"]
    # Hand count from sample_runs/runs/forge/samples/*/0/result.json:
    # notes-api 10/10, url-shortener 8/8, inventory-api 10/10 pass; todo-service 9/12,
    # quote-board 4/5 (one test file fails to collect), unit-converter 0/8 (never deployed).
    assert forge["tasks"] == 6 and forge["samples"] == 6
    assert forge["pass_at_1"] == 0.5
    assert forge["test_pass_ratio"] == round((1 + 1 + 1 + 9 / 12 + 4 / 5 + 0) / 6, 4)
    assert forge["dsr"] == round(5 / 6, 4)
    assert forge["dsr_lenient"] == 1.0  # uvicorn alive on the wrong port: stock says deployed
    assert forge["suites_not_run"] == 1  # quote-board's collection error
    relay = rows["repo_readme_1119_relay_open_coder-7b_Python"]
    assert relay["pass_at_1"] == 0.0
    assert relay["dsr"] == 0.5  # notes-api, inventory-api, unit-converter deployed
    # Hand count from sample_runs/runs/<dash Python>/samples/*/0/result.json: all 8 deploy;
    # django 2/2, eve 2/2, flask 7/7 pass; Multilingual 29/33, StructuredDataConvertor 38/42,
    # UserManagement_2 11/31, synapse 0/5; WebPan skipped all 22 (counts 0/0, not run).
    dash = rows["repo_readme_1125_dash_m2-mini_Python"]
    assert (dash["tasks"], dash["samples"], dash["language"]) == (8, 8, "python")
    assert dash["pass_at_1"] == 3 / 8
    # the ratio averages the repos with at least one test counted, as the stock harness does:
    # WebPan's 0/0 is left out
    assert dash["test_pass_ratio"] == round((29 / 33 + 38 / 42 + 11 / 31 + 1 + 1 + 1 + 0) / 7,
                                            4)
    assert dash["dsr"] == 1.0
    assert dash["suites_not_run"] == 1  # WebPan
    # dash's Java repos never install (no Maven repository reachable): not evaluable, in no
    # figure, counted and listed apart
    java = rows["repo_readme_1125_dash_m2-mini_Java"]
    assert (java["language"], java["samples"], java["samples_total"], java["not_evaluable"],
            java["suites_not_run"]) == ("java", 0, 3, 3, 0)


def test_summary_on_repogenesis_report_equals_its_own_summary(sample_runs: Path) -> None:
    report = next((sample_runs / "repogenesis" / "forge").glob("report_*.json"))
    stock = json.loads(report.read_text())["summary"]
    proc = run_cli("summary", str(report.parent), "--json")
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)
    assert row["test_pass_ratio"] == stock["avg_pass_at_1"]
    assert row["api_coverage"] == stock["avg_api_coverage"]
    assert row["dsr"] == stock["deployment_success_rate"]


EDITED = Path(__file__).parent / "fixtures" / "repogenesis" / "summary_edited"


def test_a_report_whose_summary_disagrees_with_its_results_is_flagged() -> None:
    """summary_edited is summary_rules with two summary figures edited by hand."""
    proc = run_cli("summary", str(EDITED))
    assert proc.returncode == 0, proc.stderr
    assert "WARNING: reports whose own summary disagrees with their results" in proc.stdout
    assert "says avg_pass_at_1 85.00%, but its results give 77.00%" in proc.stdout
    assert "says deployment_success_rate 100.00%, but its results give 66.67%" in proc.stdout
    assert "avg_api_coverage" not in proc.stdout  # that figure was left as is
    proc = run_cli("summary", str(EDITED), "--json")
    (row,) = json.loads(proc.stdout)
    # recomputed figures are the ones shown; the report's own stay next to them
    assert (row["test_pass_ratio"], row["dsr"]) == (0.77, 0.6667)
    assert row["reported_summary"] == {"avg_pass_at_1": 0.85, "avg_api_coverage": 0.8125,
                                       "deployment_success_rate": 1.0}
    assert len(row["summary_warnings"]) == 2
    # the untouched original raises no warning
    proc = run_cli("summary", str(EDITED.parent / "summary_rules"), "--json")
    (row,) = json.loads(proc.stdout)
    assert row["summary_warnings"] == [] and row["reported_summary"]["avg_pass_at_1"] == 0.77


def test_summary_text_mentions_where_strict_differs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["summary"]) == 0
    out = capsys.readouterr().out
    assert "repo_readme_1118_forge_m1-large_Python" in out
    assert "stock harness would report 100.00%" in out
    tasks_line = next(line for line in out.splitlines() if line.startswith("tasks: "))
    assert tasks_line.endswith("/run.json tasks_root)") and "sample_runs/tasks" in tasks_line


def test_summary_gives_pass_at_1_and_test_pass_with_95_percent_intervals(
        sample_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 item 9, on a copy of a bundled run: atlas passed 4 of its 8 tasks (one sample
    each), so pass@1 50.0% with the Wilson interval 0.2152-0.7848 (by hand: centre 0.5,
    half-width 1.96/(1 + 1.96^2/8) * sqrt(0.25/8 + 1.96^2/256) = 0.2848)."""
    atlas = "repo_readme_1125_atlas_m2-large_Python"
    copy = tmp_path / "runs" / atlas
    shutil.copytree(sample_runs / "runs" / atlas, copy)
    assert main(["summary", str(copy)]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.startswith(f"  {atlas}: pass@1 "))
    assert line.startswith(f"  {atlas}: pass@1 50.0% (95% CI 21.5–78.5%, Wilson, n=8 tasks); "
                           "test pass 75.5% (95% CI ")
    assert line.endswith(", bootstrap over tasks, n=8 tasks)")
    assert main(["summary", str(copy), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["pass_at_1_ci"] == {"low": 0.2152, "high": 0.7848, "method": "Wilson",
                                   "tasks": 8, "samples": 8, "level": 0.95}
    t = row["test_pass_ci"]
    assert t["method"] == "bootstrap over tasks" and (t["tasks"], t["samples"]) == (8, 8)
    assert t["low"] < row["test_pass_ratio"] < t["high"]


def test_failures_json_lists_failing_tests_and_failed_deployments() -> None:
    proc = run_cli("failures", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    for r in rows:
        assert {"run_id", "task", "sample", "test_id", "outcome", "message"} <= set(r)
    ids = {(r["run_id"], r["task"], r["test_id"], r["outcome"]) for r in rows}
    forge = "repo_readme_1118_forge_m1-large_Python"
    assert (forge, "todo-service", "tests/test_todos.py::test_create_defaults", "failed") in ids
    assert (forge, "unit-converter", None, "deploy_failed") in ids
    relay_url = [r for r in rows if r["run_id"] == "repo_readme_1119_relay_open_coder-7b_Python"
                 and r["task"] == "url-shortener" and r["outcome"] == "deploy_failed"]
    assert relay_url and "exited with code 1" in relay_url[0]["message"]
    # a collection error says what failed to import, not pytest's generic "collection failure"
    (defect,) = [r for r in rows if r["run_id"] == forge and
                 r["test_id"] == "tests/test_quote_model.py"]
    assert defect["outcome"] == "error"
    assert defect["message"] == "ModuleNotFoundError: No module named 'app.models'"
    # no passing test is ever listed
    assert not any(r["test_id"] == "tests/test_notes.py::test_health" for r in rows
                   if r["run_id"] == forge)


def test_path_without_runs_is_one_clear_line(tmp_path: Path) -> None:
    proc = run_cli("summary", str(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.strip().count("\n") == 0
    assert "no runs found" in proc.stderr and "Traceback" not in proc.stderr


def test_missing_path_is_one_clear_line(tmp_path: Path) -> None:
    proc = run_cli("failures", str(tmp_path / "nope"))
    assert proc.returncode != 0
    assert "no such file or folder" in proc.stderr and "Traceback" not in proc.stderr


def test_malformed_report_is_reported_and_other_runs_still_load(tmp_path: Path,
                                                                sample_runs: Path) -> None:
    import shutil

    shutil.copytree(sample_runs / "repogenesis" / "relay", tmp_path / "good")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "report.json").write_text('{"metadata": {}, "results": [ {"repo_name": 3')
    proc = run_cli("summary", str(tmp_path), "--json")
    assert proc.returncode == 3  # the broken report is an unreadable run (docs/unreadable.md)
    runs = json.loads(proc.stdout)
    assert [(r["run_id"], r["unreadable"]) for r in runs] == [
        ("bad", 1), ("repo_readme_1119_relay_open_coder-7b_Python@good", 0)]
    assert "report.json" in proc.stderr and "truncated JSON" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_evaluate_refuses_local_exec_without_permission(tmp_path: Path,
                                                         sample_runs: Path) -> None:
    import os

    env = {k: v for k, v in os.environ.items() if k != "GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC"}
    env["GENESIS_INSPECTOR_CONFIG"] = str(tmp_path / "no-config.toml")
    env_free = run_cli("evaluate", "--tasks", str(sample_runs / "tasks"), "--predictions",
                       str(sample_runs / "predictions" /
                           "repo_readme_1118_forge_m1-large_Python"),
                       "--out", str(tmp_path / "run"), env=env)
    assert env_free.returncode == 1
    assert "--allow-local-exec" in env_free.stderr
    assert "Traceback" not in env_free.stderr
    assert not (tmp_path / "run").exists()


def test_evaluate_refuses_a_run_id_that_cannot_name_a_folder(tmp_path: Path) -> None:
    forge = Path(__file__).parent / "fixtures" / "hostile" / "forge"
    for bad in ("x\x1b]0;title\x07", "../up", ".hidden"):
        proc = run_cli("evaluate", "--tasks", str(forge / "tasks"), "--predictions",
                       str(forge / "repos"), "--out", str(tmp_path / "run"), "--run-id", bad,
                       "--backend", "local", "--allow-local-exec")
        assert proc.returncode == 1, proc.stderr
        assert "run id" in proc.stderr and "not usable" in proc.stderr
        assert "Traceback" not in proc.stderr
        assert not (tmp_path / "run").exists()


def test_app_command_passes_theme_and_watch_flags(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """`inspector --theme high-contrast --no-watch` opens the app with those choices."""
    import inspector.ui.app as app_module

    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(tmp_path / "config.toml"))
    opened: dict[str, object] = {}

    class FakeApp:
        def __init__(self, root: Path, **kwargs: object) -> None:
            opened.update(root=root, **kwargs)

        def run(self) -> None:
            opened["ran"] = True

    monkeypatch.setattr(app_module, "InspectorApp", FakeApp)
    assert main(["--theme", "high-contrast", "--no-watch"]) == 0
    assert opened["theme"] == "high-contrast" and opened["watch"] is False and opened["ran"]


def test_app_with_a_corrupt_config_is_one_clear_line(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("theme = [unterminated")
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(config))
    assert main([]) == 1
    err = capsys.readouterr().err
    assert str(config) in err and "Traceback" not in err


def _conftest_error_run(tmp_path: Path, sample_runs: Path, *, stored: bool) -> Path:
    """A copy of a bundled run where todo-service's suite died on a conftest ImportError: the
    tests log is pytest's real output for such a suite (exit 4, no JUnit report)."""
    forge = "repo_readme_1118_forge_m1-large_Python"
    root = tmp_path / "sample_runs"
    (root / "runs").mkdir(parents=True)
    for name in ("tasks", "predictions"):
        (root / name).symlink_to(sample_runs / name)
    shutil.copytree(sample_runs / "runs" / forge, root / "runs" / forge)
    suite = tmp_path / "suite"
    (suite / "tests").mkdir(parents=True)
    (suite / "tests" / "conftest.py").write_text("import os\nimport pandas_not_installed_xyz\n")
    (suite / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    proc = subprocess.run([sys.executable, "-m", "pytest", "tests", "-v", "--tb=short"],
                          cwd=suite, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 4
    sample = root / "runs" / forge / "samples" / "todo-service" / "0"
    (sample / "logs" / "tests.log").write_text("".join(
        f"2026-11-21T06:01:28.000000+00:00\tout\t{line}\n"
        for line in (proc.stdout + proc.stderr).splitlines()))
    (sample / "junit.xml").unlink()
    doc = json.loads((sample / "result.json").read_text())
    doc["exit_code"] = 4
    doc["tests"].update(passed=0, failed=0, errors=0, skipped=0, total=0, score=0.0,
                        status="not_run", cases=[], collection_errors=0)
    if stored:
        doc["tests"]["cause"] = {
            "kind": "conftest_error",
            "text": "ModuleNotFoundError: No module named 'pandas_not_installed_xyz'",
            "context": "ImportError while loading conftest tests/conftest.py",
            "file": "tests/conftest.py", "line": 2}
    (sample / "result.json").write_text(json.dumps(doc))
    return root / "runs" / forge


@pytest.mark.parametrize("stored", [True, False], ids=["recorded", "derived-from-log"])
def test_failures_json_gives_the_cause_of_a_suite_that_did_not_run(
        tmp_path: Path, sample_runs: Path, stored: bool) -> None:
    run = _conftest_error_run(tmp_path, sample_runs, stored=stored)
    proc = run_cli("failures", "--json", str(run))
    assert proc.returncode == 0, proc.stderr
    (row,) = [r for r in json.loads(proc.stdout) if r["task"] == "todo-service"]
    assert row["outcome"] == "suite_not_run"
    assert row["message"] == "ModuleNotFoundError: No module named 'pandas_not_installed_xyz'"
    assert row["context"] == "ImportError while loading conftest tests/conftest.py"
    assert (row["file"], row["line"], row["cause"], row["exit_code"]) == \
        ("tests/conftest.py", 2, "conftest_error", 4)
    text = run_cli("failures", str(run)).stdout
    assert "No module named 'pandas_not_installed_xyz'" in text
    summary = run_cli("summary", str(run)).stdout
    assert "Suites that did not run" in summary
    assert "repo_readme_1118_forge_m1-large_Python/todo-service/0: not run [pytest exit 4: " \
        "pytest usage error" in summary
    assert "ImportError while loading conftest tests/conftest.py: ModuleNotFoundError: No " \
        "module named 'pandas_not_installed_xyz' (tests/conftest.py:2)" in summary
