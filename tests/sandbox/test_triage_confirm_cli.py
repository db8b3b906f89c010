"""``inspector labels suggest --per-test --confirm``: a root's remedy tried in the real Docker
sandbox decides the suggestion again, and the recorded run stays as it was."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

RELAY = "repo_readme_1125_relay_open_coder-7b_Python"


def _copy(sample_runs: Path, tmp_path: Path) -> Path:
    root = tmp_path / "copy"
    shutil.copytree(sample_runs / "runs" / RELAY, root / "runs" / RELAY)
    shutil.copytree(sample_runs / "predictions" / RELAY, root / "predictions" / RELAY)
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    return root


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and "remedies" not in p.parts:
            h.update(p.relative_to(root).as_posix().encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def test_confirm_installs_the_missing_package_and_confirms_dependency(
        docker_client, sample_runs: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = _copy(sample_runs, tmp_path)
    before = _digest(root / "runs")
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": str(tmp_path / "cache")}
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "labels", "suggest", str(root / "runs"),
         "--per-test", "--json", "--confirm", "--confirm-max", "1", "--backend", "docker"],
        capture_output=True, text=True, timeout=900, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = json.loads(proc.stdout)
    ml = [r for r in rows if r["sample"] == f"{RELAY}/Multilingual/0"]
    root_row = next(r for r in ml if r["test_id"] is None)
    assert root_row["remedy"]["kind"] == "install_repo_package"
    confirmation = root_row["confirmation"]
    assert confirmation is not None and confirmation["supports"] is True, confirmation
    assert "the service starts" in confirmation["outcome"]
    assert root_row["category"] == "dependency"
    assert root_row["rule"].startswith("evidence/")  # the reading the re-run confirmed
    assert "babel" in root_row["reason"]
    assert "confirmed by a re-run" in root_row["reason"]
    # the followers take the confirmed decision; only one remedy ran (--confirm-max 1)
    followers = [r for r in ml if r["root"] == root_row["sample"]]
    assert len(followers) == 33 and all(r["category"] == "dependency" for r in followers)
    assert sum(1 for r in rows if r["confirmation"] and r["test_id"] is None) == 1
    assert _digest(root / "runs") == before
