"""Labelling in the app: the review queue (one key per category, suggestion, evidence, note,
confidence, a failing test as the item, skip/back/next-unlabelled, progress), blind mode,
evidence picked in the sample view and the log replay, the disagreement queue with
adjudication, and the main screen's label filter. Every label lands in a real JSON file."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import Input, Static

from inspector.model.labels.label_file import ItemRef
from inspector.services.labels.store import read_label_file
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.messages import OpenSample
from inspector.ui.screens.adjudication import DisagreementScreen
from inspector.ui.screens.labelling import LabelScreen
from inspector.ui.screens.replay import ReplayScreen
from inspector.ui.screens.sample import SampleScreen
from inspector.ui.widgets.code_view import CodeView
from tests.settle import settle

FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"
FLUSH = 120.0  # seconds the label writer may take on a loaded machine (it is quick when not)


def _text(screen, selector: str) -> str:  # type: ignore[no-untyped-def]
    return str(screen.query_one(selector, Static).render())


async def _queue(app, pilot) -> LabelScreen:  # type: ignore[no-untyped-def]
    await settle(app, pilot)
    await pilot.press("2", "L")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, LabelScreen)
    return screen


def _labels(folder: Path, name: str) -> dict[str, dict]:
    path = folder / "annotators" / f"{name}.json"
    if not path.exists():
        return {}
    doc = json.loads(path.read_text())
    return {(lb["sample"] + ("::" + lb["test"] if lb["test"] else "")): lb
            for lb in doc["labels"]}


async def test_one_key_labels_with_note_evidence_and_suggestion_then_moves_on(
        make_app, tmp_path: Path) -> None:
    app = make_app(annotator="zoe")
    labels_dir = tmp_path / "labels"
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await _queue(app, pilot)
        first = screen.entry.sample_id
        assert "0 of 23 failing samples labelled by zoe" in _text(screen, "#progress-text")
        assert "Suggested:" in _text(screen, "#suggestion")
        # attach the highlighted evidence line, write a note, then one key labels
        await pilot.press("tab")  # focus moves off the queue: a is a screen key anyway
        screen.query_one("#queue").focus()
        await pilot.press("a")
        await pilot.press("e")
        assert isinstance(app.focused, Input)
        await pilot.press(*"pin missing", "escape")
        await pilot.press("c", "c")  # medium -> high -> low
        await pilot.press("3")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        saved = _labels(labels_dir, "zoe")[first]
        assert saved["category"] == "cross-file"
        assert saved["note"] == "pin missing"
        assert saved["confidence"] == "low"
        assert len(saved["evidence"]) == 1
        assert saved["suggestion"]["rule"]
        assert saved["history"][0]["action"] == "create"
        assert saved["history"][0]["by"] == "zoe"
        # the queue moved to the next unlabelled sample and counts the label
        assert screen.entry.sample_id != first
        assert "1 of 23" in _text(screen, "#progress-text")
        row = screen.queue.sample_text(0)
        assert row.startswith("✓") and "Cross-file consistency" in row


async def test_review_queue_skip_back_next_unlabelled_and_done(make_app, tmp_path) -> None:
    app = make_app(annotator="zoe")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await _queue(app, pilot)
        order = [e.sample_id for e in screen.entries]
        # 23: the stock copies are twins, the Java samples not evaluable (issue 28)
        assert len(order) == 23
        await pilot.press("s")
        assert screen.entry.sample_id == order[1]
        await pilot.press("s", "b")
        assert screen.entry.sample_id == order[1]
        await pilot.press("b")
        assert screen.entry.sample_id == order[0]
        # label items 0 and 2 (walk there by skipping), then n from 1 goes to 3
        await settle(app, pilot)
        await pilot.press("1")  # labels 0, jumps to 1 (unlabelled)
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        assert screen.entry.sample_id == order[1]
        await pilot.press("s")
        await settle(app, pilot)
        await pilot.press("2")  # labels 2, next unlabelled after it is 3
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        assert screen.entry.sample_id == order[3]
        await pilot.press("b", "b")
        assert screen.entry.sample_id == order[1]
        await pilot.press("n")
        assert screen.entry.sample_id == order[3]
        # label everything that is left
        for _ in range(21):
            await settle(app, pilot)
            await pilot.press("5")
            app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        assert "23 of 23" in _text(screen, "#progress-text")
        assert len(_labels(tmp_path / "labels", "zoe")) == 23


async def test_relabelling_asks_why_and_keeps_history(make_app, tmp_path) -> None:
    app = make_app(annotator="ana")  # ana labelled the bundled failures already
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await _queue(app, pilot)
        target = f"{RELAY}/todo-service/0"
        i = [e.sample_id for e in screen.entries].index(target)
        screen.go(i)
        await settle(app, pilot)
        assert "Cross-file consistency" in _text(screen, "#mine")
        await pilot.press("2")
        await settle(app, pilot)
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"second look", "enter")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        saved = _labels(tmp_path / "labels", "ana")[target]
        assert saved["category"] == "dependency"
        last = saved["history"][-1]
        assert last["action"] == "update" and last["reason"] == "second look"
        assert last["changes"]["category"] == ["cross-file", "dependency"]
        assert screen.entry.sample_id == target  # an edit does not move on
        # Esc at the prompt changes nothing
        await pilot.press("1", "escape")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        assert _labels(tmp_path / "labels", "ana")[target]["category"] == "dependency"
        # x retracts, kept in the file with its history
        await pilot.press("x")
        await settle(app, pilot)
        await pilot.press(*"wrong sample", "enter")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        saved = _labels(tmp_path / "labels", "ana")[target]
        assert saved["retracted"] is True and saved["history"][-1]["action"] == "retract"


async def test_a_failing_test_is_labelled_on_its_own(make_app, tmp_path) -> None:
    app = make_app(annotator="zoe")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await _queue(app, pilot)
        target = f"{FORGE}/todo-service/0"
        screen.go([e.sample_id for e in screen.entries].index(target))
        await settle(app, pilot)
        await pilot.press("t")
        assert "test tests/test_todos.py::" in _text(screen, "#scope")
        test_id = screen.scope
        await pilot.press("3")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        saved = _labels(tmp_path / "labels", "zoe")
        assert f"{target}::{test_id}" in saved and target not in saved
        assert screen.entry.sample_id == target  # a test label stays on the sample


async def test_take_suggestion_is_a_keystroke_and_never_automatic(make_app, tmp_path) -> None:
    app = make_app(annotator="zoe")
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await _queue(app, pilot)
        target = f"{RELAY}/quote-board/0"
        screen.go([e.sample_id for e in screen.entries].index(target))
        await settle(app, pilot)
        assert "Dependency management" in _text(screen, "#suggestion")
        assert "flask-quotes-toolkit" in _text(screen, "#suggestion")
        assert _labels(tmp_path / "labels", "zoe") == {}  # shown, not applied
        await pilot.press("g")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        saved = _labels(tmp_path / "labels", "zoe")[target]
        assert saved["category"] == "dependency"
        assert saved["suggestion"]["category"] == "dependency"


async def test_blind_mode_hides_others_until_labelled(make_app, tmp_path) -> None:
    app = make_app(annotator="zoe", blind=True)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await _queue(app, pilot)
        target = f"{RELAY}/notes-api/0"
        screen.go([e.sample_id for e in screen.entries].index(target))
        await settle(app, pilot)
        others = _text(screen, "#others")
        assert "hidden until you label" in others
        assert "ana:" not in others and "ben:" not in others
        await pilot.press("1")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        screen.go([e.sample_id for e in screen.entries].index(target))
        await settle(app, pilot)
        others = _text(screen, "#others")
        assert "ana:" in others and "ben:" in others and "Other  (medium)" in others
        # the disagreement queue lists only what zoe labelled
        await pilot.press("D")
        await settle(app, pilot)
        dis = app.screen
        assert isinstance(dis, DisagreementScreen)
        assert [i.sample for i in dis.items] == [target]


async def test_adjudication_sets_final_label_and_keeps_originals(make_app, tmp_path) -> None:
    app = make_app(annotator="carla")
    labels_dir = tmp_path / "labels"
    ana_before = (labels_dir / "annotators" / "ana.json").read_bytes()
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("2", "D")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, DisagreementScreen)
        assert len(screen.items) == 3
        assert "3 disagreements, 2 open" in _text(screen, "#summary")
        await pilot.press("u")  # only open ones
        assert len(screen.items) == 2
        target = screen.items[0]
        await pilot.press("1")
        await settle(app, pilot)
        await pilot.press(*"store per request", "enter")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        assert "3 disagreements, 1 open" in _text(screen, "#summary")
    adj = read_label_file(labels_dir / "adjudication.json")
    assert adj is not None
    final = adj.get(target)
    assert final is not None and final.category == "architectural"
    assert final.history[-1].reason == "store per request"
    assert set(final.originals or {}) == {"ana", "ben"}
    assert (labels_dir / "annotators" / "ana.json").read_bytes() == ana_before


async def test_label_filter_follows_new_labels(make_app, tmp_path) -> None:
    app = make_app(annotator="zoe")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        main = app.main_screen
        from inspector.model.results.filters import SampleFilter

        await pilot.press("2")
        main.set_filter(SampleFilter(label="unlabelled"))
        await settle(app, pilot)
        table = main.query_one("#samples-table")
        assert len(table.shown) == 23
        await pilot.press("L")
        await settle(app, pilot)
        await pilot.press("4")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
        await pilot.press("escape")
        await settle(app, pilot)
        assert len(table.shown) == 22


async def test_evidence_picked_in_sample_view_and_log_replay(make_app, tmp_path) -> None:
    app = make_app(annotator="zoe")
    target = f"{RELAY}/todo-service/0"
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        entry = app.catalog.find_sample(target)
        app.post_message(OpenSample(entry.key, file="routes.py", line=3))
        await settle(app, pilot)
        sample = app.screen
        assert isinstance(sample, SampleScreen)
        code = sample.main_pane.query_one(CodeView)
        code.focus()
        code.cursor_line = 2
        await pilot.press("a")  # the code line under the cursor
        await settle(app, pilot)
        await pilot.press("l")  # log replay; its cursor line becomes evidence too
        await settle(app, pilot)
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await pilot.press("e")  # first error line
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("escape")
        await pilot.pause(0.3)  # the replay's workers are cancelled as it closes
        await app.workers.wait_for_complete()
        pending = app.labels.pending_evidence(ItemRef(target))
        assert [a.describe() for a in pending][0] == "routes.py:3"
        await pilot.press("L")
        await settle(app, pilot)
        queue = app.screen
        assert isinstance(queue, LabelScreen) and queue.entry.sample_id == target
        await pilot.press("3")
        app.labels.flush(timeout=FLUSH)
        await settle(app, pilot)
    saved = _labels(tmp_path / "labels", "zoe")[target]
    kinds = [e["kind"] for e in saved["evidence"]]
    assert saved["evidence"][0] == {"kind": "file", "path": "routes.py", "line": 3}
    assert "log" in kinds
    log = next(e for e in saved["evidence"] if e["kind"] == "log")
    assert log["phase"] in ("start", "install", "health", "tests") and log["line"] >= 1
    assert log["phase"] == "start"  # the start log holds the ImportError's traceback
    assert "Traceback" in log["text"] or "Error" in log["text"]
