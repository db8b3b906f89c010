"""`inspector analyze --runs --export DIR [--compare A B]` and `inspector compare A B --export
DIR` as a researcher runs them: files written, where they went, same bytes every time (in
separate processes), and one clear error for bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
FORGE = "repo_readme_1118_forge_m1-large_Python"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "GENESIS_INSPECTOR_CACHE": str(tmp_path / "cache")}


def run_cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, timeout=180, env=env)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_analyze_export_with_a_comparison_is_the_same_bytes_twice(
        env: dict[str, str], tmp_path: Path, sample_runs: Path) -> None:
    outs = []
    for name in ("one", "two"):
        out = tmp_path / name
        proc = run_cli(env, "analyze", str(sample_runs), "--runs", "--export", str(out),
                       "--compare", ATLAS, DASH, "--resamples", "500")
        assert proc.returncode == 0, proc.stderr
        assert f"inspector: wrote 51 files to {out}" in proc.stderr
        assert "Pass@1 by difficulty tier" in proc.stdout  # the text analysis still prints
        outs.append(_files(out))
    assert outs[0] == outs[1]
    assert {"figures/compare_differences.svg", "figures/pass_at_1_by_tier.png",
            "tables/compare_stats.tex", "tables/pass_at_1_by_tier.csv",
            "index.md"} <= set(outs[0])
    assert b"500 resamples" in outs[0]["tables/compare_stats.md"]


def test_compare_export_of_two_runs_without_a_common_task(env: dict[str, str],
                                                          tmp_path: Path) -> None:
    out = tmp_path / "pair"
    proc = run_cli(env, "compare", ATLAS, FORGE, "--export", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "No task in common" in proc.stdout
    files = _files(out)
    assert "figures/compare_differences.svg" not in files
    index = files["index.md"].decode()
    assert "`compare_differences` — " in index and "no task in common" in index
    tier = files["tables/pass_at_1_by_tier.csv"].decode().splitlines()
    assert [line.split(",")[0] for line in tier[1:]] == [ATLAS, FORGE]
    notes = files["tables/compare_tasks.md"].decode()
    assert "Only in A (left out): Multilingual" in notes
    assert b"svg" in files["figures/pass_at_1_by_tier.svg"][:400]


def test_compare_export_json_still_prints_json(env: dict[str, str], tmp_path: Path) -> None:
    proc = run_cli(env, "compare", ATLAS, DASH, "--json", "--export", str(tmp_path / "x"),
                   "--resamples", "200")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.lstrip().startswith("{")
    assert (tmp_path / "x" / "tables" / "compare_tasks.csv").is_file()


@pytest.mark.parametrize(("args", "message"), [
    (["analyze", "--runs", "--compare", ATLAS, DASH], "--compare goes with --export DIR"),
    (["analyze", "--tasks", "--export", "DIR"], "--export and --compare go with --runs"),
    (["analyze", "--runs", "--export", "DIR", "--compare", "1125_dash", ATLAS],
     "--compare 1125_dash: fits 2 runs"),
    (["analyze", "--runs", "--export", "DIR", "--compare", DASH, DASH], "name the same run"),
])
def test_bad_export_options_are_one_clear_line(env: dict[str, str], tmp_path: Path,
                                               args: list[str], message: str) -> None:
    args = [str(tmp_path / "out") if a == "DIR" else a for a in args]
    proc = run_cli(env, *args)
    assert proc.returncode == 1
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", [["analyze", "--runs"], ["compare", ATLAS, DASH]])
def test_export_onto_a_file_is_refused_and_the_file_kept(env: dict[str, str], tmp_path: Path,
                                                        command: list[str]) -> None:
    target = tmp_path / "results.txt"
    target.write_text("mine")
    proc = run_cli(env, *command, "--export", str(target))
    assert proc.returncode == 1
    assert f"inspector: error: {target}: exists and is a file, not a folder" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert target.read_text() == "mine"
