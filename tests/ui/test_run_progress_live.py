"""End to end: a real ``inspector evaluate`` runs while the app watches its runs folder; the
runs tab shows the evaluation's progress while it runs and its final state after."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.ui.widgets.runs_table import RunsTable

from .conftest import settle
from .test_hostile_text import screen_text
from .test_run_progress import SIZE, panel, wait_for

pytestmark = pytest.mark.slow

FORGE = "repo_readme_1118_forge_m1-large_Python"
TASKS = ("notes-api", "quote-board", "url-shortener")  # 2-3 s each with the local backend


async def test_the_runs_tab_follows_a_real_evaluation(make_app, tmp_path: Path,
                                                      sample_runs: Path,
                                                      venv_cache: Path) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    predictions = tmp_path / "predictions" / FORGE  # the run's repos beside its folder
    for task in TASKS:
        shutil.copytree(sample_runs / "predictions" / FORGE / task, predictions / task)
    args = [sys.executable, "-m", "inspector", "evaluate", "--tasks",
            str(sample_runs / "tasks"), "--predictions", str(predictions),
            "--backend", "local", "--allow-local-exec", "--jobs", "1",
            "--out", str(runs / "RUN")]
    for task in TASKS:
        args += ["--task", task]
    env = {**os.environ, "GENESIS_INSPECTOR_CACHE": str(venv_cache.parent)}
    app = make_app(runs, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for _ in range(50):  # the watcher must be up before the run folder appears
            if app.watcher is not None and app.watcher.mode != "stopped":
                break
            await pilot.pause(0.1)
        with (tmp_path / "evaluate.log").open("w") as log:
            driver = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)
            try:
                # while it runs: the run is listed as running and its live progress shows
                live = await wait_for(app, pilot, f"{FORGE} (running)",
                                      "Evaluating · local executor", "/3 settled",
                                      "samples/min · ETA", timeout=120)
                assert "Progress unavailable" not in live
                assert f"(pid {driver.pid})" in live
                rc = driver.wait(timeout=300)
            finally:
                if driver.poll() is None:
                    driver.kill()
                    driver.wait()
        assert rc == 0, (tmp_path / "evaluate.log").read_text()[-2000:]
        # after: one summary line, and the run no longer marked running
        final = await wait_for(app, pilot, "Evaluation complete: 3/3 done", timeout=15)
        assert "samples/min" not in final and "no update" not in final
        for _ in range(100):
            await pilot.pause(0.1)
            if app.main_screen.query_one(RunsTable).current().status == "complete":
                break
        assert app.main_screen.query_one(RunsTable).current().status == "complete"
        assert f"{FORGE} (running)" not in screen_text(app)
        assert panel(app).display
        if app.watcher is not None:  # no refresh may arrive while the app is torn down
            app.watcher.stop()
        await settle(app, pilot)
