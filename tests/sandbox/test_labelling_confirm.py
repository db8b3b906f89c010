"""The review queue's confirmation key in the real Docker sandbox: ``r`` re-runs the selected
item's remedy in a worker (the queue stays usable meanwhile), the outcome is shown with the
item's suggestion, and Esc cancels a running re-run (its sandbox torn down). A copy of the
bundled runs; no engine is a failure (the ``docker_client`` fixture), never a skip."""

from __future__ import annotations

import asyncio
import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from inspector.config import load_settings
from inspector.services.sandbox.engine import LABEL_OWNER, LABEL_SAMPLE, owner_label
from inspector.ui.app import InspectorApp
from inspector.ui.screens.labelling import LabelScreen
from tests.settle import until

RELAY = "repo_readme_1125_relay_open_coder-7b_Python"
SYNAPSE = f"{RELAY}/synapse/0"  # the suite reads README.md, which the harness never copies
MULTILINGUAL = f"{RELAY}/Multilingual/0"  # babel missing from the requirements
SIZE = (180, 50)


@pytest.fixture
def app(tmp_path: Path, sample_runs: Path, monkeypatch: pytest.MonkeyPatch,
        docker_client) -> InspectorApp:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("GENESIS_INSPECTOR_CONFIG", str(tmp_path / "config" / "config.toml"))
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path / "cache"))
    root = tmp_path / "corpus"
    shutil.copytree(sample_runs, root, ignore=shutil.ignore_patterns("repogenesis"))
    return InspectorApp(root, settings=load_settings(), watch=False, annotator="zoe")


async def _until(pilot, condition: Callable[[], object], what: str,  # type: ignore[no-untyped-def]
                 timeout: float = 600.0) -> None:
    await until(pilot, condition, what, timeout)


async def _queue_at(app: InspectorApp, pilot, sample_id: str) -> LabelScreen:  # type: ignore[no-untyped-def]
    await _until(pilot, lambda: not app.catalog.is_empty, "the index")
    await pilot.press("2", "L")
    await _until(pilot, lambda: isinstance(app.screen, LabelScreen), "the queue")
    screen = app.screen
    assert isinstance(screen, LabelScreen)
    i = [e.sample_id for e in screen.entries].index(sample_id)
    screen.go(i)
    await _until(pilot, lambda: i in screen.loaded and i in screen.queue.triages,
                 "the sample's triage")
    await pilot.press("t")  # its first root item
    await pilot.pause()
    return screen


def _label(app: InspectorApp, key: str) -> dict | None:
    """zoe's label of item ``key`` as written in her label file (None: not there)."""
    path = app.labels.store.path_for("zoe")
    if not path.is_file():
        return None
    for lb in json.loads(path.read_text())["labels"]:
        if lb["sample"] + ("::" + lb["test"] if lb["test"] else "") == key:
            return lb
    return None


def _running(app: InspectorApp) -> list[object]:
    return [w for w in app.workers if w.group == "confirm" and not w.is_finished]


async def test_the_confirmation_runs_in_a_worker_and_shows_with_the_suggestion(
        app: InspectorApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await _queue_at(app, pilot, SYNAPSE)
        test = "tests/test_api_contract.py::test_readme_present_and_sections"
        assert screen.scope == test
        assert "add the task's README.md" in screen.panel.text
        before = screen.loaded[screen.index].triage.for_item(f"{SYNAPSE}::{test}")
        assert before is not None and before.confirmation is None
        before_confidence = before.confidence
        await pilot.press("r")
        await pilot.pause()
        assert _running(app), "the re-run is a worker"
        assert screen.panel.progress.running
        assert screen.confirming_key == f"{SYNAPSE}::{test}"
        # the queue stays usable while it runs
        before = screen.row
        await pilot.press("down")
        await pilot.pause()
        assert screen.row != before
        await pilot.press("up")
        await pilot.pause()
        await _until(pilot, lambda: not _running(app), "the re-run")
        assert screen.confirm_cancel is None and not screen.panel.progress.running
        assert screen.row == before
        shown = screen.panel.text
        assert "Confirmed: with the task's README.md added, 2 of 5 tests pass" in shown
        c = screen.confirmations[f"{SYNAPSE}::{test}"]
        run_dir = app.root / "runs" / RELAY
        assert c.log is not None and (run_dir / c.log).is_file()
        assert "done (shown with its suggestion)" in str(screen.panel.progress.render())
        # the outcome is evidence: the item is decided again with it (issue 30, item 7) ...
        key = f"{SYNAPSE}::{test}"
        after = screen.loaded[screen.index].triage.for_item(key)
        assert after is not None and after.confirmation == c
        assert after.category == "not-model" and after.confidence > before_confidence
        assert "confirmed by a re-run" in after.reason
        assert "confirmed by a re-run" in screen.panel.text
        # ... and taking the suggestion keeps the confirmation with the label
        await pilot.press("g")
        app.labels.flush()
        await _until(pilot, lambda: _label(app, key) is not None, "the label on disk")
        kept = _label(app, key)["suggestion"]
        assert kept["category"] == "not-model" and kept["confirmation"] == "supports"
        assert "2 of 5 tests pass" in kept["confirmation_outcome"]
        assert kept["confirmation_log"] == c.log
        # r again starts a new re-run; Esc cancels it (and does not leave the queue)
        await pilot.press("r")
        await pilot.pause()
        assert _running(app)
        await pilot.press("escape")
        await _until(pilot, lambda: not _running(app), "the cancelled re-run")
        assert isinstance(app.screen, LabelScreen), "Esc cancelled; it did not leave"


async def test_esc_cancels_a_running_confirmation_and_its_sandbox_goes(
        app: InspectorApp, docker_client) -> None:  # type: ignore[no-untyped-def]
    async with app.run_test(size=SIZE) as pilot:
        screen = await _queue_at(app, pilot, MULTILINGUAL)
        assert screen.row.item is not None and screen.row.item.kind == "deploy_failed"
        assert "install babel" in screen.panel.text
        await pilot.press("r")
        await pilot.pause()
        assert _running(app)
        started = time.monotonic()
        await asyncio.sleep(2)
        await pilot.press("escape")
        await pilot.pause()
        assert "cancelling" in str(screen.panel.progress.render())
        await _until(pilot, lambda: not _running(app), "the cancelled re-run", timeout=120)
        assert time.monotonic() - started < 90
        assert isinstance(app.screen, LabelScreen)
        assert "cancelled: nothing to compare" in str(screen.panel.progress.render())
        assert MULTILINGUAL not in screen.confirmations
        key = MULTILINGUAL
        left = docker_client.containers.list(all=True, filters={"label": [  # of this process
            f"{LABEL_SAMPLE}={key}", f"{LABEL_OWNER}={owner_label()}"]})
        assert not left, [c.name for c in left]
