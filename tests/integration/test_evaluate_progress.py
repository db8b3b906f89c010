"""What ``inspector evaluate`` shows while it runs, and the ``progress.json`` it keeps: real
evaluations of bundled generated repos (local backend), on a pipe and on a pseudo-terminal."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rich.console import Console

from inspector.cli.progress import render_progress
from inspector.model.runs.progress import InFlight, NodeProgress, RunProgress, load_progress

ROOT = Path(__file__).resolve().parents[2]
PREDICTIONS = ROOT / "sample_runs" / "predictions" / "repo_readme_1118_forge_m1-large_Python"
TASKS = ROOT / "sample_runs" / "tasks"
FAST = ("notes-api", "url-shortener")

pytestmark = pytest.mark.slow


def _args(out: Path) -> list[str]:
    args = [sys.executable, "-m", "inspector", "evaluate", "--tasks", str(TASKS),
            "--predictions", str(PREDICTIONS), "--out", str(out), "--backend", "local",
            "--allow-local-exec"]
    for t in FAST:
        args += ["--task", t]
    return args


def test_a_piped_evaluation_prints_progress_lines_and_keeps_progress_json(
        tmp_path: Path, venv_cache: Path) -> None:
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": str(venv_cache.parent)}
    proc = subprocess.run(_args(tmp_path / "run"), capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if "progress: " in ln]
    assert len(lines) == 2, proc.stderr
    assert "progress: 1/2 done" in lines[0] and "1 queued" in lines[0] or \
        "1 running" in lines[0], lines[0]
    assert re.search(r"progress: 2/2 done \(2 passed\), 0 running, 0 queued, [\d.]+ "
                     r"samples/min", lines[1]), lines[1]
    p = load_progress(tmp_path / "run")
    assert p is not None
    assert (p.status, p.total, p.done, p.passed, p.running, p.queued) == (
        "complete", 2, 2, 2, 0, 0)
    assert p.executor == "local"
    assert [(n.node, n.done) for n in p.nodes] == [(socket.gethostname(), 2)]
    # a resumed evaluation with nothing left says so in its progress too
    again = subprocess.run(_args(tmp_path / "run"), capture_output=True, text=True, env=env,
                           timeout=300)
    assert again.returncode == 0, again.stderr
    p = load_progress(tmp_path / "run")
    assert p is not None and (p.total, p.resumed, p.done) == (0, 2, 0)
    assert json.loads((tmp_path / "run" / "run.json").read_text())["status"] == "complete"


def test_on_a_terminal_a_live_panel_shows_bar_counts_and_nodes(
        tmp_path: Path, venv_cache: Path) -> None:
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": str(venv_cache.parent),
           "COLUMNS": "140", "LINES": "40", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(_args(tmp_path / "run"), stdin=secondary, stdout=secondary,
                            stderr=secondary, env=env, close_fds=True)
    os.close(secondary)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([primary], [], [], 0.5)
            if ready:
                try:
                    data = os.read(primary, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(primary)
    screen = b"".join(chunks).decode(errors="replace")
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
    assert "━" in plain  # the bar
    assert re.search(r"2/2 \(2 passed\)\s+0 running\s+0 queued", plain), plain[-3000:]
    assert "100% complete" in plain
    assert re.search(r"node\s+running\s+done\s+passed", plain)
    assert "queued on the cluster" not in plain  # redundant beside the panel
    assert "done: PASS" in plain  # each sample's line is still printed above the panel
    assert "<ESC>" not in plain  # no control sequence was mangled into visible text


def test_the_panel_lists_every_node_and_what_runs_where() -> None:
    p = RunProgress(
        run_id="grid-1", executor="ray", driver_host="head", driver_pid=1,
        started_at="2026-11-26T10:00:00+00:00", updated_at="2026-11-26T10:05:00+00:00",
        status="running", total=120, resumed=30, done=40, passed=12, running=9, queued=70,
        retried=2, infra_failed=1, rate_per_min=8.0, eta_seconds=592.5,
        nodes=(NodeProgress("gpu-a/1a2b3c4d", 4, 20, 6, 0),
               NodeProgress("gpu-b/5e6f7a8b", 5, 19, 6, 2),
               NodeProgress("head/0000aaaa", 0, 1, 0, 0)),
        in_flight=tuple(InFlight(f"task{n}/0", "gpu-a/1a2b3c4d", "2026-11-26T10:04:00+00:00")
                        for n in range(9)))
    console = Console(record=True, width=120, color_system=None)
    console.print(render_progress(p))
    text = console.export_text()
    assert "41/120 (12 passed)  9 running  70 queued  2 retried  1 infrastructure-failed" in text
    assert "(+30 from before)" in text
    assert re.search(r"[━╸]+\s+34%\s+8\.0 samples/min  ETA 9m 52s", text), text
    rows = {ln.split()[0]: ln.split()[1:] for ln in text.splitlines()
            if ln.strip().startswith(("gpu-", "head/"))}
    assert rows == {"gpu-a/1a2b3c4d": ["4", "20", "6"], "gpu-b/5e6f7a8b": ["5", "19", "6", "2"],
                    "head/0000aaaa": ["0", "1", "0"]}
    assert "… and 3 more" in text
    assert "queued: 70 waiting for a free node" in text
