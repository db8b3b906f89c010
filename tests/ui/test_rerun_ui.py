"""Re-runs, the request composer and the sandboxes screen, against real local deployments.

Each app deploys the forge todo-service sample as a local process (a cached virtualenv,
``start.sh`` in its own process group, port 18080) through its own pool; nothing is mocked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, OptionList, Select, Static

from inspector.services.host.ports import port_open
from inspector.ui.app import InspectorApp
from inspector.ui.screens.request import RequestScreen
from inspector.ui.screens.rerun import RerunScreen
from inspector.ui.screens.sandboxes import SandboxesScreen
from tests.settle import until

from .conftest import open_sample, settle

pytestmark = pytest.mark.slow

FORGE = "repo_readme_1118_forge_m1-large_Python"
SAMPLE = f"{FORGE}/todo-service/0"
KEY = f"{FORGE}/todo-service/0"
PORT = 18080
CREATE_DEFAULTS = "tests/test_todos.py::test_create_defaults"
SIZE = (180, 50)
TIMEOUT = 120.0


@pytest.fixture
def app(make_app: Callable[..., InspectorApp], tmp_path: Path, venv_cache: Path,
        monkeypatch: pytest.MonkeyPatch) -> Iterator[InspectorApp]:
    """An app allowed to deploy locally, whose virtualenvs come from the session cache."""
    venv_cache.mkdir(parents=True, exist_ok=True)
    cache = tmp_path / "cache"  # the cache root tests/ui/conftest.py points the app at
    cache.mkdir(parents=True, exist_ok=True)
    (cache / "venvs").symlink_to(venv_cache, target_is_directory=True)
    monkeypatch.setenv("GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC", "1")
    inspector = make_app()
    assert inspector.settings.allow_local_exec
    inspector.rerun_backend = "local"
    yield inspector
    if inspector.has_deployments:
        inspector.deployments().close()


async def wait_for(pilot, condition: Callable[[], object],  # type: ignore[no-untyped-def]
                   timeout: float = TIMEOUT, what: str = "condition") -> None:
    """Poll ``condition`` while the app runs (workers keep posting, so no settle here)."""
    await until(pilot, condition, what, timeout, step=0.2)


async def finished(pilot, screen: RerunScreen, runs: int = 1) -> None:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: screen.runs_started == runs and not screen.running
                   and (screen.report is not None or screen.error is not None),
                   what=f"re-run {runs}")
    assert screen.error is None, screen.error
    assert screen.report is not None and screen.report.deployed, screen.report


def rows(table: DataTable) -> list[list[str]]:
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


def text_of(widget: Static) -> str:
    return str(widget.render())


async def rerun_selected(app: InspectorApp, pilot) -> RerunScreen:  # type: ignore[no-untyped-def]
    sample = await open_sample(app, pilot, SAMPLE)
    assert sample.main_pane is not None and sample.main_pane.select_test(CREATE_DEFAULTS)
    await pilot.press("R")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, RerunScreen)
    assert screen.test_ids == [CREATE_DEFAULTS]
    await finished(pilot, screen)
    return screen


async def test_rerun_selected_test_cold_then_warm(app: InspectorApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await rerun_selected(app, pilot)
        assert "local" in text_of(screen.query_one("#rerun-head", Static))
        table = screen.query_one("#rerun-results", DataTable)
        [[test, recorded, now, comparison]] = rows(table)
        assert test == CREATE_DEFAULTS and comparison == "same"
        assert recorded == "failed: KeyError: 'completed'" == now
        timing = text_of(screen.query_one("#rerun-timing", Static))
        assert timing.startswith("cold local: deploy ") and "total" in timing
        assert screen.report is not None and not screen.report.reused
        assert screen.report.exit_code == 1
        assert screen.query_one("#rerun-output").lines  # pytest output streamed in

        await pilot.press("r")
        await finished(pilot, screen, runs=2)
        assert screen.report.reused
        timing = text_of(screen.query_one("#rerun-timing", Static))
        assert timing.startswith("warm local: deploy 0.0s")
        assert rows(table)[0][3] == "same"


async def test_rerun_all_failures_on_one_deployment(app: InspectorApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await open_sample(app, pilot, SAMPLE)
        await pilot.press("A")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RerunScreen)
        await finished(pilot, screen)
        got = rows(screen.query_one("#rerun-results", DataTable))
        assert [r[0].split("::")[-1] for r in got] == [
            "test_create_defaults", "test_list_filter_completed", "test_patch_completed"]
        assert {r[3] for r in got} == {"same"}
        assert len(app.deployments().list()) == 1


async def test_flakiness_check_runs_n_times(app: InspectorApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await rerun_selected(app, pilot)
        await pilot.press("N")
        await pilot.pause()
        field = app.screen.query_one("#times-input", Input)
        field.value = "3"
        await pilot.press("enter")
        await finished(pilot, screen, runs=2)
        [[_, _, _, comparison, flaky]] = rows(screen.query_one("#rerun-results", DataTable))
        assert comparison == "same" and flaky == "failed 3 of 3 (100%)"
        assert len(screen.report.attempts) == 3


async def test_request_composer_sends_and_keeps_history(app: InspectorApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await open_sample(app, pilot, SAMPLE)
        await pilot.press("Q")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, RequestScreen)
        labels = [f"{spec.method} {ep.path}" for ep, spec in screen.templates]
        assert labels[:2] == ["GET /health", "POST /todos"]
        endpoints = screen.query_one("#req-endpoints", OptionList)
        endpoints.focus()
        endpoints.highlighted = labels.index("POST /todos")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.query_one("#req-method", Select).value == "POST"
        assert screen.query_one("#req-path", Input).value == "/todos"
        assert screen.query_one("#req-body-kind", Select).value == "json"

        # an invalid request is explained, not sent
        path = screen.query_one("#req-path", Input)
        path.value = ""
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "path is empty" in text_of(screen.query_one("#req-problems", Static))
        assert screen.cancel is None and screen.response is None
        path.value = "/todos"

        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: screen.response is not None and screen.cancel is None,
                       what="the response")
        assert screen.response is not None and screen.response.status == 201
        assert text_of(screen.query_one("#req-status", Static)).startswith("201 ")
        body = json.loads(screen.body_text)
        assert body["title"] == "Write report" and body["id"] >= 1
        assert screen.base_url == f"http://127.0.0.1:{PORT}"
        assert len(screen.entries) == 1
        assert screen.query_one("#req-history", OptionList).option_count == 1
        assert screen.history.path.is_file()

        await pilot.press("y")
        await pilot.pause()
        assert app.clipboard.startswith("curl -X POST")
        assert f"http://127.0.0.1:{PORT}/todos" in app.clipboard
        assert "--data-raw" in app.clipboard


async def test_sandboxes_screen_lists_and_stops_the_deployment(app: InspectorApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await rerun_selected(app, pilot)
        await pilot.press("ctrl+d")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SandboxesScreen)
        table = screen.query_one("#sb-table", DataTable)
        [row] = rows(table)
        assert row[0] == KEY and row[1] == "local" and row[2] == "idle"
        assert row[5] == "1" and row[7] == f"http://127.0.0.1:{PORT}"
        assert not screen.query_one("#sb-empty", Static).display
        await pilot.press("s")
        await wait_for(pilot, lambda: not app.deployments().list() and table.row_count == 0,
                       timeout=30, what="the deployment to stop")
        assert screen.query_one("#sb-empty", Static).display
        assert not port_open(PORT)


async def test_quitting_stops_every_deployment(app: InspectorApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await rerun_selected(app, pilot)
        pool = app.deployments()
        assert len(pool.list()) == 1 and port_open(PORT)
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, timeout=30, what="the app to exit")
    assert pool.list() == []
    assert not port_open(PORT)
