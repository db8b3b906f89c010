"""``inspector report PATH --html OUT.html`` as a user runs it: the real command in a
subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_RUNS = ROOT / "sample_runs"


def inspector(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GENESIS_INSPECTOR_CONFIG=str(tmp_path / "config.toml"),
               GENESIS_INSPECTOR_CACHE=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, env=env, timeout=300, cwd=tmp_path)


def test_report_writes_one_page_and_the_same_bytes_twice(tmp_path: Path) -> None:
    first = inspector(tmp_path, "report", str(SAMPLE_RUNS), "--html", "a.html")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("wrote a.html: ") and "6 runs, 17 tasks" in first.stdout
    assert "report: reading runs…" in first.stderr
    second = inspector(tmp_path, "report", str(SAMPLE_RUNS), "--html", "b.html", "--quiet")
    assert second.returncode == 0 and second.stdout == "" and second.stderr == ""
    a, b = (tmp_path / "a.html").read_bytes(), (tmp_path / "b.html").read_bytes()
    assert a == b and a.startswith(b"<!DOCTYPE html>") and len(a) < 1_000_000
    assert b"repo_readme_1125_dash_m2-mini_Python/Multilingual/0" in a


def test_report_errors_are_one_clear_line(tmp_path: Path) -> None:
    missing = inspector(tmp_path, "report", str(tmp_path / "nope"), "--html", "x.html")
    assert missing.returncode == 2
    assert missing.stderr.strip() == f"inspector: error: {tmp_path / 'nope'}: no such file or " \
                                      "folder"
    out = inspector(tmp_path, "report", str(SAMPLE_RUNS), "--html", "no/such/x.html")
    assert out.returncode == 1 and out.stderr.strip() == \
        "inspector: error: no/such: no such folder (for --html no/such/x.html)"
    (tmp_path / "empty").mkdir()
    empty = inspector(tmp_path, "report", str(tmp_path / "empty"), "--html", "x.html",
                      "--quiet")
    assert empty.returncode == 1 and "no runs found" in empty.stderr
    assert len(empty.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.html").exists()
    need = inspector(tmp_path, "report", str(SAMPLE_RUNS))
    assert need.returncode == 2 and "--html" in need.stderr
