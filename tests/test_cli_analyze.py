"""`inspector analyze --tasks|--code`: output a user reads, JSON, and errors as one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from inspector.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path_factory.mktemp("cache")))


def test_tasks_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--tasks"]) == 0
    out = capsys.readouterr().out
    flask = next(line for line in out.splitlines() if line.startswith("flask "))
    assert flask.split()[1:6] == ["python", "221", "3", "5/0/0/0", "0"]
    assert flask.endswith("1.07        low        Unclassified (spec: low)")
    assert "22 of 22 tasks have no reference implementation" in out


def test_tasks_json_with_oracle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "o" / "eve").mkdir(parents=True)
    (tmp_path / "o" / "eve" / "app.py").write_text("class A:\n    pass\n")
    assert main(["analyze", str(ROOT / "sample_runs"), "--tasks", "--oracle",
                 str(tmp_path / "o"), "--json"]) == 0
    doc = {t["task"]: t for t in json.loads(capsys.readouterr().out)}
    assert doc["eve"]["difficulty"]["label"] == "Easy"
    assert doc["eve"]["difficulty"]["metrics"]["classes"] == 1
    assert doc["flask"]["difficulty"]["label"] == "Unclassified"
    assert doc["javalin-online-judge"]["spec"]["resources"]["collection"] == 1


@pytest.mark.parametrize("where", ["sample_runs/runs", "sample_runs/repogenesis/atlas",
                                   "sample_runs/tasks", "sample_runs/tasks/repo"])
def test_tasks_found_from_runs_and_tasks_folders(where: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(ROOT / where), "--tasks", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 22


def test_why_names_readme_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--tasks", "--why", "flask"]) == 0
    out = capsys.readouterr().out
    assert "README.md:15  GET /health" in out
    assert "README.md:43  length" in out
    assert "difficulty: Unclassified" in out


def test_code_table_and_skipped_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    run = tmp_path / "repo_readme_0101_zed_m1_Python"
    (run / "alpha").mkdir(parents=True)
    (run / "alpha" / "app.py").write_text("def f(x):\n    return x or 1\n")
    (run / "alpha" / "blob.py").write_bytes(b"\x00" * 10)
    (run / "alpha" / "out.py").symlink_to("/etc/passwd")
    assert main(["analyze", str(run), "--code"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("repo_readme_0101"))
    assert row.split()[1:11] == ["alpha", "python", "1", "2", "1", "0", "2", "2", "1", "2"]
    assert "skipped repo_readme_0101_zed_m1_Python/alpha: blob.py: binary file (NUL bytes)" \
        in out
    assert "out.py: symlink (not followed)" in out
    assert main(["analyze", str(run), "--code", "--json", "--files"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["cached"] == 1
    assert doc["samples"][0]["metrics"]["per_file"][0]["file"] == "app.py"


def test_code_on_bundled_runs_with_oracle(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    (tmp_path / "o" / "spark-dashboard-backend").mkdir(parents=True)
    (tmp_path / "o" / "spark-dashboard-backend" / "A.java").write_text(
        "class A { int a(int x) { return x > 0 ? 1 : 0; } }\n")
    assert main(["analyze", "--code", "--oracle", str(tmp_path / "o"), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if "spark-dashboard-backend" in line)
    # ref LOC 1, ref complexity 1 method + '?' = 2
    assert row.split()[-2:] == ["1", "2"]


@pytest.mark.parametrize(("argv", "code", "message"), [
    (["analyze", "--tasks", "/no/such/dir"], 2, "/no/such/dir: no such file or folder"),
    (["analyze", "--runs", "--code"], 1, "--runs goes alone"),
    (["analyze", "--tasks", "--why", "nope"], 1, "no task named 'nope'"),
    (["analyze", "--code", "--oracle", "/no/oracle"], 2, "/no/oracle: no such file"),
    (["analyze", "--code", "--jobs", "0"], 1, "--jobs must be at least 1"),
])
def test_errors_are_one_line(argv: list[str], code: int, message: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == code
    err = capsys.readouterr().err
    assert err.startswith("inspector: error: ") and message in err
    assert "Traceback" not in err


def test_empty_folder_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(tmp_path), "--code"]) == 1
    assert "no samples found" in capsys.readouterr().err
    assert main(["analyze", str(tmp_path), "--tasks"]) == 1
    assert "no tasks found" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []  # nothing written into the user's folder
