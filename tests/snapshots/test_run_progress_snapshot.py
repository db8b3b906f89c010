"""Snapshot of the runs tab while a run is evaluated on a three-node Ray cluster.

Review changes with the HTML report pytest-textual-snapshot writes on failure; update with
``pytest tests/snapshots/test_run_progress_snapshot.py --snapshot-update`` only after looking.
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from inspector.config import load_settings
from inspector.model.runs.progress import InFlight, NodeProgress, RunProgress
from inspector.services.storage.atomic import write_json_atomic
from inspector.ui.app import InspectorApp
from inspector.ui.panes.runs import RunsPane

from .test_screens import FORGE, _settle

NOW = datetime(2026, 11, 26, 15, 30, 0, tzinfo=UTC)
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"


def _iso(seconds_ago: float) -> str:
    return (NOW - timedelta(seconds=seconds_ago)).isoformat(timespec="seconds")


def _progress() -> RunProgress:
    nodes = (NodeProgress("10.0.0.12/worker-a", 3, 7, 5, 0),
             NodeProgress("10.0.0.11/head", 2, 6, 5, 0),
             NodeProgress("10.0.0.13/worker-b", 3, 5, 3, 1))
    flights = tuple(InFlight(f"{task}/{n}", node, _iso(age)) for task, n, node, age in (
        ("notes-api", 3, "10.0.0.11/head", 84), ("quote-board", 1, "10.0.0.12/worker-a", 61),
        ("url-shortener", 2, "10.0.0.12/worker-a", 33),
        ("todo-service", 4, "10.0.0.13/worker-b", 20),
        ("inventory-api", 0, "10.0.0.13/worker-b", 6),
        ("notes-api", 4, "10.0.0.11/head", 5), ("quote-board", 2, "10.0.0.12/worker-a", 4),
        ("todo-service", 5, "10.0.0.13/worker-b", 2)))
    return RunProgress(
        run_id=FORGE, executor="ray", driver_host="head-node", driver_pid=31337,
        started_at=_iso(190), updated_at=_iso(1), status="running", total=40, resumed=6,
        done=18, passed=13, running=8, queued=14, retried=2, infra_failed=0,
        rate_per_min=5.7, eta_seconds=232.0, nodes=nodes, in_flight=flights)


@pytest.fixture
def runs_in_progress(tmp_path: Path, sample_runs: Path, monkeypatch: pytest.MonkeyPatch
                     ) -> Path:
    """``live/`` (relative: the title shows it as is) with the forge run being evaluated."""
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(tmp_path / "config.toml"))
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "live"
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    for run in (FORGE, RELAY):
        shutil.copytree(sample_runs / "runs" / run, root / "runs" / run)
    run_dir = root / "runs" / FORGE
    doc = json.loads((run_dir / "run.json").read_text())
    doc["status"] = "running"
    write_json_atomic(run_dir / "run.json", doc)
    write_json_atomic(run_dir / "progress.json", _progress().to_json())
    return Path("live")


def test_runs_tab_with_a_ray_evaluation_in_progress(snap_compare, runs_in_progress: Path
                                                    ) -> None:
    """The forge run highlighted: bar, counts, 5.7 samples/min, ETA 3m 52s, three nodes
    sorted, eight samples in flight: the six oldest and "… and 2 more"; no stale warning
    (the time is fixed)."""
    app = InspectorApp(runs_in_progress, settings=load_settings(), theme="genesis-dark",
                       watch=False)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        pilot.app.main_screen.query_one(RunsPane).clock = lambda: NOW
        await _settle(pilot)

    assert snap_compare(app, terminal_size=(160, 50), run_before=run_before)
