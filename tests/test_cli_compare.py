"""`inspector compare` and `inspector analyze --runs` as a researcher scripts them: the JSON
shape, the figures on the bundled runs, and one clear error (with its exit code) for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.model.results.sample import Generation
from tests.analysis_runs import write_run

ATLAS = "repo_readme_1125_atlas_m2-large_Python"
ATLAS_TASKS = {"Multilingual", "StructuredDataConvertor", "UserManagement_2", "WebPan",
               "django-rest-framework-crud", "eve", "flask", "synapse"}
DASH = "repo_readme_1125_dash_m2-mini_Python"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "GENESIS_INSPECTOR_CACHE": str(tmp_path / "cache")}


def run_cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, timeout=120, env=env)


def test_compare_json_on_bundled_runs(env: dict[str, str], sample_runs: Path) -> None:
    proc = run_cli(env, "compare", ATLAS, str(sample_runs / "runs" / DASH), "--json",
                   "--resamples", "2000", "--seed", "5")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc) == {"a", "b", "common_tasks", "only_a", "only_b", "strict", "test_ratio",
                        "mcnemar", "ci_pass_at_1", "ci_test_ratio", "tasks", "by_tier",
                        "minimum_detectable_difference"}
    assert (doc["a"]["run_id"], doc["b"]["run_id"]) == (ATLAS, DASH)
    # tiers from the bundled READMEs: five low, two medium (UserManagement_2, synapse), WebPan
    # high; only Multilingual differs (atlas passes it): low 4/5 vs 3/5
    assert doc["by_tier"] == [
        {"tier": "spec low", "tasks": 5, "a_pass_at_1": 0.8, "b_pass_at_1": 0.6,
         "strict": {"wins": 1, "losses": 0, "ties": 4}},
        {"tier": "spec medium", "tasks": 2, "a_pass_at_1": 0.0, "b_pass_at_1": 0.0,
         "strict": {"wins": 0, "losses": 0, "ties": 2}},
        {"tier": "spec high", "tasks": 1, "a_pass_at_1": 0.0, "b_pass_at_1": 0.0,
         "strict": {"wins": 0, "losses": 0, "ties": 1}}]
    assert next(t for t in doc["tasks"] if t["task"] == "WebPan")["tier"] == "spec high"
    assert doc["common_tasks"] == 8 and doc["only_a"] == [] and doc["only_b"] == []
    assert doc["strict"] == {"wins": 1, "losses": 0, "ties": 7}
    assert doc["test_ratio"] == {"wins": 3, "losses": 1, "ties": 4}
    assert doc["mcnemar"]["a_only"] == 1 and doc["mcnemar"]["b_only"] == 0
    assert doc["mcnemar"]["p_value"] == 1.0
    ci = doc["ci_pass_at_1"]
    assert (ci["difference"], ci["low"], ci["resamples"], ci["seed"], ci["tasks"]) == \
        (0.125, 0.0, 2000, 5, 8)
    # (z_.975 + z_.8) * sqrt(2 p (1 - p) / 8) at p = (4/8 + 3/8) / 2 = 0.4375: 0.6949
    mdd = doc["minimum_detectable_difference"]
    assert (mdd["pass_at_1"], mdd["tasks"], mdd["alpha"], mdd["power"], mdd["at_rate"]) == \
        (0.6949, 8, 0.05, 0.8, 0.4375)
    assert doc["a"]["cost"]["status"] == "not recorded"
    multilingual = next(t for t in doc["tasks"] if t["task"] == "Multilingual")
    assert multilingual["strict"] == "win"
    assert multilingual["a"]["passed"] == 1 and multilingual["b"]["passed"] == 0


def test_compare_text_names_the_tasks_only_one_run_has(env: dict[str, str],
                                                       tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    gen = {("alpha", 0): Generation(cost_usd=0.02, seconds=12.0),
           ("beta", 0): Generation(cost_usd=0.04, seconds=20.0)}
    write_run(runs, "run-a", "AgentA", "m1", {"alpha": [(5, 5)], "beta": [(1, 3)]}, gen)
    write_run(runs, "run-b", "AgentB", "m2", {"alpha": [(2, 5)], "gamma": [(3, 3)]})
    proc = run_cli(env, "compare", "run-a", "run-b", "--root", str(runs))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Only in A (left out of the paired figures): beta" in out
    assert "Only in B (left out of the paired figures): gamma" in out
    assert "A wins 1, loses 0, ties 0" in out
    assert "two-sided p = 1.0000" in out
    # cost vs pass: A's two samples cost 0.06, one passed -> $0.06 per passing sample
    line = next(ln for ln in out.splitlines() if ln.startswith("A "))
    assert "$0.0300" in line and "$0.0600" in line and "16.0s" in line
    assert next(ln for ln in out.splitlines() if ln.startswith("B ")).count("not recorded")


def test_compare_says_a_30_task_run_cannot_tell_20_from_27_percent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 item 9: 8 of 30 tasks (26.7%) vs 6 of 30 (20.0%). By hand, at the mean rate
    p = 14/60: (1.959964 + 0.841621) * sqrt(2 * p * (1 - p) / 30) = 0.30595 -> 30.6 pp."""
    runs = tmp_path / "runs"
    tasks = [f"t{i:02}" for i in range(30)]
    write_run(runs, "run-a", "AgentA", "m1",
              {t: [(3, 3) if i < 8 else (1, 3)] for i, t in enumerate(tasks)})
    write_run(runs, "run-b", "AgentB", "m2",
              {t: [(3, 3) if i < 6 else (1, 3)] for i, t in enumerate(tasks)})
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))
    assert main(["compare", "run-a", "run-b", "--root", str(runs), "--resamples", "200"]) == 0
    assert ("Minimum detectable difference in pass@1 over these 30 tasks: 30.6 pp (two-sided "
            "alpha 0.05, power 0.8; normal approximation for two proportions at the runs' "
            "mean pass@1 23.3%): a smaller true difference would most often go unnoticed; the "
            "observed +6.7 pp is below it.") in capsys.readouterr().out


@pytest.mark.parametrize(("args", "code", "message"), [
    (["compare", "no-such-run", DASH], 1, "no-such-run: no run with that id under"),
    (["compare", "./missing/run", DASH], 2, "./missing/run: no such file or folder"),
    (["compare", "1125_dash", ATLAS], 1, "1125_dash: fits 2 runs"),
    (["compare", DASH, DASH], 1, "name the same run"),
    (["compare", ATLAS, DASH, "--resamples", "0"], 2, "must be at least 1"),
    (["analyze", "/no/such/folder", "--runs"], 2, "/no/such/folder: no such file or folder"),
])
def test_errors_are_one_clear_line(env: dict[str, str], args: list[str], code: int,
                                   message: str) -> None:
    proc = run_cli(env, *args)
    assert proc.returncode == code
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("args", [["compare", ATLAS, DASH], ["analyze", "--runs"]])
def test_an_unusable_index_folder_is_one_clear_error(env: dict[str, str], tmp_path: Path,
                                                     args: list[str]) -> None:
    not_a_folder = tmp_path / "cache-file"
    not_a_folder.write_text("")
    proc = run_cli({**env, "GENESIS_INSPECTOR_CACHE": str(not_a_folder)}, *args)
    assert proc.returncode == 1
    assert f"cannot use the run index in {not_a_folder}" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_analyze_runs_json_on_bundled_runs(env: dict[str, str], sample_runs: Path) -> None:
    proc = run_cli(env, "analyze", str(sample_runs), "--runs", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert set(doc) == {"root", "runs", "pass_at_1", "categories", "cost", "tiers",
                        "tier_source", "not_evaluable"}
    assert len(doc["runs"]) == 6  # the four stock copies are twins of four of them
    # no reference implementation is bundled: every tier is the spec tier, and says so
    assert doc["tiers"] and all(t.startswith("spec ") for t in doc["tiers"].values())
    assert "spec complexity" in doc["tier_source"]
    atlas = [g for g in doc["pass_at_1"]["by_tier"]
             if g["run_id"] == "repo_readme_1125_atlas_m2-large_Python"]
    assert sum(g["samples"] for g in atlas) == 8  # the run's eight tasks, each in one tier
    for g in atlas:  # each group's tasks are the run's tasks of that tier
        assert g["tasks"] == sum(1 for t, tier in doc["tiers"].items()
                                 if tier == g["group"] and t in ATLAS_TASKS)
    forge = {g["group"]: g for g in doc["pass_at_1"]["by_framework"]
             if g["run_id"] == "repo_readme_1118_forge_m1-large_Python"}
    assert forge["fastapi"]["pass_at_1"] == 0.6667 and forge["flask"]["pass_at_1"] == 0.3333
    # the Java run's 3 samples are not evaluable (no Maven repository reachable): no group
    assert not [g for g in doc["pass_at_1"]["by_language"] if g["group"] == "java"]
    assert doc["not_evaluable"] == 3
    cats = doc["categories"]
    assert cats["labels"].endswith("labels") and cats["outside"] == 0
    assert set(cats) >= {"by_agent", "by_run", "by_framework"}
    dep = next(r for r in cats["by_framework"]["rows"] if r["category"] == "dependency")
    assert dep["counts"]["flask"]["n"] == 2 and dep["counts"]["fastapi"]["n"] == 1
    assert all(c["status"] == "not recorded" for c in doc["cost"])


def test_analyze_runs_text_without_labels(env: dict[str, str], tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    write_run(runs, "run-a", "AgentA", "m1", {"alpha": [(5, 5)], "delta": [(0, 4)]},
              {("alpha", 0): Generation(cost_usd=0.5)})
    proc = run_cli(env, "analyze", str(runs), "--runs")
    assert proc.returncode == 0, proc.stderr
    assert "Failure categories: no labels found" in proc.stdout
    assert "Pass@1 by framework" in proc.stdout and "springboot" in proc.stdout
    assert "Generation cost vs pass:" in proc.stdout and "$0.5000" in proc.stdout


def test_analyze_without_a_flag_is_the_run_analysis(env: dict[str, str],
                                                     sample_runs: Path) -> None:
    """`inspector analyze PATH` alone prints what `--runs` prints (the issue's spelling)."""
    bare = run_cli(env, "analyze", str(sample_runs))
    runs = run_cli(env, "analyze", str(sample_runs), "--runs")
    assert bare.returncode == runs.returncode == 0, bare.stderr
    assert bare.stdout == runs.stdout
    assert "Pass@1 by difficulty tier" in bare.stdout
