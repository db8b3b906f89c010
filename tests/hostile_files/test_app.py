"""The app meets files that are not what they claim: it starts and draws (a FIFO or /dev/zero
as a label file, in a memory-capped process with a timeout; unreadable folders, without
privileges), announces a label save only once it is on disk and names the label file when it
fails (a history nested 900 deep, a full disk), never opens a repo outside the run, and
replays around a task id holding '/'."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from textual.widgets import Static, Tree

from inspector.config import load_settings
from inspector.model.labels.label_file import ItemRef, Label
from inspector.services.labels.store import LabelStore
from inspector.ui.app import InspectorApp
from inspector.ui.messages import OpenSample
from inspector.ui.screens.labelling import LabelScreen
from inspector.ui.screens.replay import ReplayScreen
from inspector.ui.screens.sample import SampleScreen
from tests.settle import settle as settle_app

from .conftest import FORGE, RELAY, assert_denied, copy_fixture, fill, start_app

SIZE = (180, 50)


async def settle(app: InspectorApp, pilot) -> None:  # type: ignore[no-untyped-def]
    await settle_app(app, pilot, rounds=4)


def _app(root: Path, labels: Path) -> InspectorApp:
    return InspectorApp(root, settings=load_settings(), watch=False, annotator="ana",
                        labels_dir=labels)


def _messages(app: InspectorApp) -> list[str]:
    return [n.message for n in app._notifications]


async def _queue(app: InspectorApp, pilot) -> LabelScreen:  # type: ignore[no-untyped-def]
    await settle(app, pilot)
    await pilot.press("2", "L")
    await settle(app, pilot)
    assert isinstance(app.screen, LabelScreen)
    return app.screen


async def _open(app: InspectorApp, pilot, sample_id: str) -> SampleScreen:  # type: ignore[no-untyped-def]
    await settle(app, pilot)
    entry = app.catalog.find_sample(sample_id)
    assert entry is not None, sample_id
    app.post_message(OpenSample(entry.key))
    await settle(app, pilot)
    assert isinstance(app.screen, SampleScreen)
    return app.screen


# ------------------------------------------------------------------ start-up

@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_the_app_draws_when_a_label_file_is_a_fifo_or_dev_zero(corpus: Path, kind: str) -> None:
    ana = corpus / "labels" / "annotators" / "ana.json"
    ana.unlink()
    if kind == "fifo":
        os.mkfifo(ana)
        what = "a FIFO (named pipe)"
    else:
        ana.symlink_to("/dev/zero")
        what = "a character device, via a symlink to /dev/zero"
    shown = start_app(corpus, corpus / "labels", capped=True, timeout=120)
    assert shown["runs"] == [FORGE, RELAY] and shown["samples"] == 12
    assert f"{ana}: not a regular file ({what}); not read" in shown["notifications"]
    assert shown["labelling"] is False  # nothing is ever written over it


def test_the_app_names_unreadable_run_and_labels_folders(corpus: Path) -> None:
    run, labels = corpus / "runs" / RELAY, corpus / "labels"
    for folder in (run, labels):
        folder.chmod(0)
    try:
        assert_denied(run)
        shown = start_app(corpus, labels, unprivileged=True, timeout=120)
    finally:
        for folder in (run, labels):
            folder.chmod(0o755)
    assert shown["runs"] == [FORGE]
    assert f"error: {run}: cannot read this folder (permission denied); skipped" \
        in shown["problems"]
    assert f"error: {labels}: cannot read this folder (permission denied); skipped" \
        in shown["problems"]
    assert f"{labels}: cannot read the labels folder: permission denied" \
        in shown["notifications"]
    assert shown["labelling"] is False


# ------------------------------------------------------------------ saving labels

async def test_a_save_over_a_history_nested_900_deep_says_it_failed(corpus: Path) -> None:
    labels = corpus / "labels"
    ana = copy_fixture("deep_history.json", labels / "annotators" / "ana.json")
    before = ana.read_bytes()
    app = _app(corpus, labels)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _queue(app, pilot)
        first = screen.entry.sample_id
        await pilot.press("5")  # "other": one key labels the item
        app.labels.flush()  # type: ignore[union-attr]
        await settle(app, pilot)
        failed = [m for m in _messages(app) if m.startswith("Not saved:")]
        assert failed == [
            f"Not saved: {ana}: your label file cannot be read (field "
            "'labels[0].history[1].changes.note': value nested more than 8 levels deep (a "
            "label's history holds plain values)), so nothing is written to it"]
        assert not any("→" in m for m in _messages(app))  # never announced as saved
        assert app.labels.mine(ItemRef(first)) is None  # type: ignore[union-attr]
    assert ana.read_bytes() == before


async def test_a_full_disk_is_announced_as_a_failure_naming_the_label_file(corpus: Path,
                                                                         tiny_fs) -> None:
    disk = tiny_fs("64k")
    labels = disk / "labels"
    store = LabelStore(labels)
    store.save("ana", Label(ItemRef(f"{RELAY}/todo-service/0"), "dependency"))
    ana = store.path_for("ana")
    before = ana.read_bytes()
    assert fill(disk) > 0
    app = _app(corpus, labels)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _queue(app, pilot)
        first = screen.index
        item = screen.entry.sample_id
        await pilot.press("2")  # "dependency"
        app.labels.flush()  # type: ignore[union-attr]
        await settle(app, pilot)
        assert [m for m in _messages(app) if m.startswith("Not saved:")] == [
            f"Not saved: {ana}: not saved: the disk is full; the file is unchanged"]
        assert not any("→" in m for m in _messages(app))
        assert ana.read_bytes() == before
        assert sorted(p.name for p in ana.parent.iterdir()) == ["ana.json"]  # no temp file
        # room again: the same key saves, and only then says so
        (disk / "filler").unlink()
        screen.go(first)
        await settle(app, pilot)
        await pilot.press("2")
        app.labels.flush()  # type: ignore[union-attr]
        await settle(app, pilot)
        saved = [m for m in _messages(app) if "→" in m]
        assert saved == [f"{item.split('/', 1)[1]} → Dependency management"]
        on_disk = json.loads(ana.read_text())
        assert item in {lb["sample"] for lb in on_disk["labels"]}


# ------------------------------------------------------------------ repos and ids

async def test_files_never_lists_a_repo_outside_the_run(corpus: Path) -> None:
    result = corpus / "runs" / FORGE / "samples" / "todo-service" / "0" / "result.json"
    doc = json.loads(result.read_text())
    doc["repo"]["path"] = "/etc"
    result.write_text(json.dumps(doc))
    copy_fixture("report_predictions_root.json",
                 corpus / "repogenesis" / "mallory" / "report.json")
    app = _app(corpus, corpus / "labels")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        problems = str(app.main_screen.query_one("#problems", Static).render())
        assert "'/etc' is outside the places a repo may be" in problems
        assert "predictions folder '/' is outside" in problems
        for sample_id in (f"{FORGE}/todo-service/0", "@mallory/etc/0"):
            screen = await _open(app, pilot, sample_id)
            pane = screen.main_pane
            assert pane is not None and pane.repo is None
            tree = pane.query_one(".repo-tree", Tree)
            assert list(tree.root.children) == []  # /etc is never listed
            notice = str(pane.query_one(".file-notice", Static).render())
            assert "The generated repository is not available" in notice
            detail = str(pane.query_one(".deploy-detail", Static).render())
            assert "repo not opened:" in detail
            await pilot.press("escape")
            await settle(app, pilot)


async def test_l_replays_around_a_task_id_holding_a_slash(corpus: Path) -> None:
    result = corpus / "runs" / FORGE / "samples" / "todo-service" / "0" / "result.json"
    doc = json.loads(result.read_text())
    doc["task"], doc["logs"] = "a/b", {}
    result.write_text(json.dumps(doc))
    shutil.rmtree(result.parent / "logs")
    app = _app(corpus, corpus / "labels")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        problems = str(app.main_screen.query_one("#problems", Static).render())
        assert (f"error: {result}: field 'task': not a valid task name: 'a/b' contains a path "
                "separator") in problems
        assert not any("/" in e.task for e in app.catalog.samples())
        assert len(app.catalog.samples()) == 11
        await _open(app, pilot, f"{FORGE}/quote-board/0")
        await pilot.press("l")
        await settle(app, pilot)
        assert isinstance(app.screen, ReplayScreen)
        assert "quote-board" in app.screen.deploy_log.title


# ------------------------------------------------------------------ unreadable samples

async def test_a_run_with_an_unreadable_sample_shows_a_banner_and_a_row(corpus: Path) -> None:
    """Issue 28: the run is not "complete" with one sample fewer; it says 5 of 6, names the
    file with the whole reason, and the samples list has a row for it."""
    result = corpus / "runs" / FORGE / "samples" / "todo-service" / "0" / "result.json"
    result.write_bytes(result.read_bytes()[:300])
    app = _app(corpus, corpus / "labels")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        main = app.main_screen
        entry = next(r for r in main.runs if r.run_id == FORGE)
        pane = main.query_one("#runs-pane")
        pane.table.select_key(entry.key)  # type: ignore[attr-defined]
        await settle(app, pilot)
        cells = [str(c) for c in pane.table.get_row_at(pane.table.cursor_row)]  # type: ignore[attr-defined]
        assert f"{FORGE} (1 unreadable)" in cells and "5 of 6" in cells
        detail = str(main.query_one("#run-detail", Static).render())
        reason = ("truncated JSON: the file ends at line 10 inside a string that starts at "
                  "line 10 column 17")
        assert "⚠ 1 unreadable file(s): figures are over 5 of 6 samples; 1 unreadable" in detail
        assert "· complete, 1 file(s) unreadable" in detail and "· complete\n" not in detail
        assert f"samples/todo-service/0/result.json: {reason}" in detail
        await pilot.press("enter")  # this run's samples
        await settle(app, pilot)
        table = main.query_one("#samples-table")
        assert table.row_count == 6  # type: ignore[attr-defined]
        [row] = table.unreadable  # type: ignore[attr-defined]
        assert (row.task, row.sample) == ("todo-service", 0)
        table.move_cursor(row=5)  # type: ignore[attr-defined]
        await settle(app, pilot)
        preview = str(main.query_one("#sample-preview", Static).render())
        assert f"samples/todo-service/0/result.json: {reason}" in " ".join(preview.split())
        assert f"5 of 11 samples + 1 unreadable in {FORGE}" in str(
            main.query_one("#samples-count", Static).render())
