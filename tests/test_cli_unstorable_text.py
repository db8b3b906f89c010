"""Text no encoding can store never stops the index (issue 27, part 5): a lone surrogate in a
task name (``"\\ud800"`` in result.json) is shown as U+FFFD, and a run folder whose name is not
valid UTF-8 is reported by name and skipped; ``analyze --runs`` and ``failures`` finish without a
traceback, in a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import unstorable_runs

ROOT = Path(__file__).resolve().parents[1]


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GENESIS_INSPECTOR_CACHE=str(tmp_path / "cache"),
               GENESIS_INSPECTOR_CONFIG=str(tmp_path / "config.toml"), COLUMNS="200")
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, errors="backslashreplace", env=env, timeout=120,
                          cwd=ROOT, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("command", [["analyze", "--runs"], ["failures"]])
def test_a_lone_surrogate_and_an_undecodable_folder_are_indexed_or_named(
        tmp_path: Path, command: list[str]) -> None:
    root = unstorable_runs.build(tmp_path / "data")
    done = _cli(tmp_path, *command, str(root))
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 0, done.stderr
    if command == ["failures"]:  # read without the index: the surrogate's sample is listed
        assert unstorable_runs.SHOWN_TASK in done.stdout
        return
    # the index: the undecodable folder is one line naming it and why; the other run is there
    named = [ln for ln in done.stderr.splitlines() if "not indexed" in ln]
    assert len(named) == 1 and "x\\udcff" in named[0] and "not valid UTF-8" in named[0], \
        done.stderr
    assert "1 runs under" in done.stdout
