"""The runs tab shows the live progress of a run being evaluated, from its real
``progress.json`` (written the way the evaluation's driver writes it)."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from inspector.model.runs.progress import InFlight, NodeProgress, RunProgress
from inspector.services.storage.atomic import write_json_atomic
from inspector.ui.app import InspectorApp
from inspector.ui.panes.runs import RunsPane
from inspector.ui.widgets.run_progress import RunProgressPanel
from inspector.ui.widgets.runs_table import RunsTable

from .conftest import settle
from .test_hostile_text import screen_text

FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"
SIZE = (160, 50)


def iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def ray_progress(now: datetime, **changes: object) -> RunProgress:
    """A ray evaluation of 30 samples on three nodes, 12 done, 3 running."""
    fields: dict[str, object] = dict(
        run_id=FORGE, executor="ray", driver_host="head-node", driver_pid=4242,
        started_at=iso(now - timedelta(minutes=2)), updated_at=iso(now), status="running",
        total=30, resumed=4, done=12, passed=9, running=3, queued=15, retried=1,
        infra_failed=0, rate_per_min=6.0, eta_seconds=200.0,
        nodes=(NodeProgress("worker-b/2c4e", 1, 4, 3, 1), NodeProgress("head/9f1a", 1, 5, 4),
               NodeProgress("worker-a/77d0", 1, 3, 2)),
        in_flight=(InFlight("notes-api/0", "head/9f1a", iso(now - timedelta(seconds=42))),
                   InFlight("quote-board/0", "worker-a/77d0",
                            iso(now - timedelta(seconds=7))),
                   InFlight("url-shortener/0", "worker-b/2c4e",
                            iso(now - timedelta(seconds=15)))))
    fields.update(changes)
    return RunProgress(**fields)  # type: ignore[arg-type]


def live_root(tmp_path: Path, sample_runs: Path, status: str = "running") -> Path:
    """A runs folder with the forge run marked ``status`` and the relay run complete."""
    root = tmp_path / "live"
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    for run in (FORGE, RELAY):
        shutil.copytree(sample_runs / "runs" / run, root / "runs" / run)
    set_status(root / "runs" / FORGE, status)
    return root


def set_status(run_dir: Path, status: str) -> None:
    doc = json.loads((run_dir / "run.json").read_text())
    doc["status"] = status
    write_json_atomic(run_dir / "run.json", doc)


def write_progress(run_dir: Path, progress: RunProgress) -> None:
    write_json_atomic(run_dir / "progress.json", progress.to_json())


def panel(app: InspectorApp) -> RunProgressPanel:
    return app.main_screen.query_one(RunProgressPanel)


def pane(app: InspectorApp) -> RunsPane:
    return app.main_screen.query_one(RunsPane)


async def wait_for(app: InspectorApp, pilot, *texts: str, timeout: float = 3.0) -> str:  # type: ignore[no-untyped-def]
    """The screen once it shows every one of ``texts`` (fails after ``timeout`` s)."""
    shown = ""
    for _ in range(int(timeout / 0.1)):
        shown = screen_text(app)
        if all(t in shown for t in texts):
            return shown
        await pilot.pause(0.1)
    missing = [t for t in texts if t not in shown]
    raise AssertionError(f"{missing!r} not on screen:\n{shown}")


async def test_a_running_run_shows_its_progress_and_follows_the_file(
        make_app, tmp_path: Path, sample_runs: Path) -> None:
    root = live_root(tmp_path, sample_runs)
    run_dir = root / "runs" / FORGE
    write_progress(run_dir, ray_progress(datetime.now(UTC)))
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.main_screen.query_one(RunsTable).current().run_id == FORGE
        text = await wait_for(app, pilot, "Evaluating · ray executor · driver head-node "
                              "(pid 4242)", "12/30 settled (40%)", "4 more resumed",
                              "done 12 (passed 9) · running 3 · queued 15 · retried 1 · "
                              "infrastructure-failed 0", "6.0 samples/min · ETA 3m 20s",
                              "notes-api/0  on head/9f1a  running for 4")
        # one row per node, sorted by node
        rows = [line for line in text.splitlines()
                if any(n in line for n in ("head/9f1a", "worker-a/77d0", "worker-b/2c4e"))
                and "on " not in line]
        assert [r.split()[0] for r in rows] == ["head/9f1a", "worker-a/77d0", "worker-b/2c4e"]
        assert rows[2].split()[1:] == ["1", "4", "3", "1"]
        assert "no update" not in text

        # the driver writes again: the panel follows within ~2 s
        now = datetime.now(UTC)
        write_progress(run_dir, ray_progress(now, done=20, passed=15, running=2, queued=8,
                                             eta_seconds=80.0, rate_per_min=7.5))
        await wait_for(app, pilot, "20/30 settled (67%)", "done 20 (passed 15) · running 2",
                       "7.5 samples/min · ETA 1m 20s", timeout=2.5)

        # highlighting a complete run hides the panel: it takes no space
        await pilot.press("down")
        await settle(app, pilot)
        assert app.main_screen.query_one(RunsTable).current().run_id == RELAY
        assert not panel(app).display and panel(app).region.height == 0
        assert not pane(app).polling
        assert "Evaluating" not in screen_text(app)
        # back on the running run, it shows again
        await pilot.press("up")
        await wait_for(app, pilot, "20/30 settled (67%)")


async def test_a_quiet_driver_is_warned_about(make_app, tmp_path: Path,
                                              sample_runs: Path) -> None:
    root = live_root(tmp_path, sample_runs)
    write_progress(root / "runs" / FORGE,
                   ray_progress(datetime.now(UTC) - timedelta(seconds=45)))
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        shown = await wait_for(app, pilot, "no update from the evaluation's driver head-node "
                               "(pid 4242) for ", "is it still running?")
        # 45 s and counting: how long the app took to open on a loaded machine adds to it
        quiet = re.search(r"head-node \(pid 4242\) for (\d+)s", shown)
        assert quiet is not None and 45 <= int(quiet.group(1)) < 300


async def test_a_local_driver_that_died_is_said_to_have_ended(make_app, tmp_path: Path,
                                                              sample_runs: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # reaped: its pid names no process now
    root = live_root(tmp_path, sample_runs)
    host = socket.gethostname()
    write_progress(root / "runs" / FORGE,
                   ray_progress(datetime.now(UTC) - timedelta(seconds=40), executor="local",
                                driver_host=host, driver_pid=dead.pid))
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        text = await wait_for(app, pilot, f"driver process {host} (pid {dead.pid}) has "
                              "ended without finishing",
                              "resumable with the same command")
        assert "is it still running?" not in text


async def test_a_broken_progress_file_shows_one_line(make_app, tmp_path: Path,
                                                     sample_runs: Path) -> None:
    root = live_root(tmp_path, sample_runs)
    run_dir = root / "runs" / FORGE
    (run_dir / "progress.json").write_text('{"format": "genesis-inspector/progress", ')
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        text = await wait_for(app, pilot, "progress.json", "not valid JSON")
        assert "Traceback" not in text
        # a field with the wrong type names the field
        doc = ray_progress(datetime.now(UTC)).to_json()
        doc["done"] = "twelve"
        write_json_atomic(run_dir / "progress.json", doc)
        await wait_for(app, pilot, "progress.json", "done", "expected a whole number")
        # fixed by the next write: the live view is back
        write_progress(run_dir, ray_progress(datetime.now(UTC)))
        await wait_for(app, pilot, "12/30 settled (40%)")


async def test_a_finished_evaluation_shows_one_summary_line(make_app, tmp_path: Path,
                                                            sample_runs: Path) -> None:
    root = live_root(tmp_path, sample_runs)
    run_dir = root / "runs" / FORGE
    now = datetime.now(UTC)
    write_progress(run_dir, ray_progress(now))
    app = make_app(root, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        table = app.main_screen.query_one(RunsTable)
        await wait_for(app, pilot, "12/30 settled", f"{FORGE} (running)")
        for _ in range(50):  # the watcher must be up before run.json changes
            if app.watcher is not None and app.watcher.mode != "stopped":
                break
            await pilot.pause(0.1)
        write_progress(run_dir, ray_progress(now, status="incomplete", done=28, passed=22,
                                             running=0, queued=0, infra_failed=2,
                                             updated_at=iso(now + timedelta(minutes=5)),
                                             in_flight=()))
        set_status(run_dir, "incomplete")
        text = await wait_for(app, pilot, "Evaluation incomplete: 28/30 done, 22 passed, "
                              "2 given up (infrastructure), 4 resumed · took 7m 00s (ray) · "
                              "the same command resumes it",
                              f"{FORGE} (incomplete)", timeout=6)
        assert "samples/min" not in text and "in flight" not in text
        assert not pane(app).polling  # nothing more to follow
        assert table.current().status == "incomplete"


async def test_a_finished_run_highlighted_afresh_shows_no_panel(make_app, tmp_path: Path,
                                                                sample_runs: Path) -> None:
    root = live_root(tmp_path, sample_runs, status="complete")
    write_progress(root / "runs" / FORGE, ray_progress(datetime.now(UTC), status="complete"))
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.pause(1.5)
        assert not panel(app).display
        assert "Evaluation complete" not in screen_text(app)


async def test_a_progress_file_saying_running_shows_the_panel(make_app, tmp_path: Path,
                                                              sample_runs: Path) -> None:
    """run.json not yet rewritten (a resume just started): the progress file decides."""
    root = live_root(tmp_path, sample_runs, status="incomplete")
    write_progress(root / "runs" / FORGE, ray_progress(datetime.now(UTC)))
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await wait_for(app, pilot, "12/30 settled (40%)")
        assert panel(app).display


async def test_the_file_is_not_read_while_the_runs_tab_is_out_of_sight(
        make_app, tmp_path: Path, sample_runs: Path) -> None:
    root = live_root(tmp_path, sample_runs)
    run_dir = root / "runs" / FORGE
    write_progress(run_dir, ray_progress(datetime.now(UTC)))
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await wait_for(app, pilot, "12/30 settled (40%)")
        await pilot.press("2")  # the samples tab
        await settle(app, pilot)
        write_progress(run_dir, ray_progress(datetime.now(UTC), done=20))
        await pilot.pause(2.5)
        shown = panel(app).progress
        assert shown is not None and shown.done == 12
        await pilot.press("1")  # back: read again within a second or two
        await wait_for(app, pilot, "20/30 settled (67%)")


async def test_text_from_the_file_is_shown_as_text(make_app, tmp_path: Path,
                                                   sample_runs: Path) -> None:
    root = live_root(tmp_path, sample_runs)
    evil = "[/x]n[@click=app.quit]ode\x1b[2J"
    write_progress(root / "runs" / FORGE, ray_progress(
        datetime.now(UTC), driver_host="[bold]host[/bold]", nodes=(NodeProgress(evil, 1),),
        in_flight=(InFlight("[red]task[/red]/0", evil, iso(datetime.now(UTC))),)))
    app = make_app(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        text = await wait_for(app, pilot, "driver [bold]host[/bold] (pid 4242)",
                              "[/x]n[@click=app.quit]ode<ESC>[2J", "[red]task[/red]/0  on")
        assert "\x1b" not in text
        assert app.is_running
