"""Per-test labelling in the review queue, on a copy of the bundled runs: the queue lists each
sample's failure items by root group, a selected item shows its own suggestion (category or
unsure with the competing readings, confidence, reason, anchors, remedy), labelling a root
labels its group (the members' labels follow it, on disk), a member's own label overrides
the group, and the confirmation key says when there is no remedy to re-run.

The triage engine is the real one; the label files are read back from disk."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Static

from inspector.services.triage.engine import TriageContext, triage_sample
from inspector.ui.screens.labelling import LabelScreen
from inspector.ui.screens.replay import PromptScreen
from inspector.ui.widgets.evidence_list import EvidenceList

from .test_labelling import settle

RELAY = "repo_readme_1125_relay_open_coder-7b_Python"
ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
JAVA = "repo_readme_1125_dash_m2-mini_Java"
MULTILINGUAL = f"{RELAY}/Multilingual/0"  # babel missing: the service never starts, 33 tests
CONVERTOR = f"{ATLAS}/StructuredDataConvertor/0"  # pandas: 4 test files never collect
SIZE = (180, 50)


@pytest.fixture
def corpus(tmp_path: Path, sample_runs: Path) -> Path:
    """A private copy of the bundled runs (tasks, predictions, runs, labels)."""
    root = tmp_path / "corpus"
    shutil.copytree(sample_runs, root, ignore=shutil.ignore_patterns("repogenesis"))
    return root


@pytest.fixture(scope="module")
def engine(sample_runs: Path) -> TriageContext:
    return TriageContext.load(sample_runs)


def _labels(corpus: Path, name: str) -> dict[str, dict]:
    path = corpus / "labels" / "annotators" / f"{name}.json"
    if not path.exists():
        return {}
    doc = json.loads(path.read_text())
    return {(lb["sample"] + ("::" + lb["test"] if lb["test"] else "")): lb
            for lb in doc["labels"]}


def _text(screen: LabelScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def _open(app, pilot, sample_id: str) -> LabelScreen:  # type: ignore[no-untyped-def]
    await settle(app, pilot)
    await pilot.press("2", "L")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, LabelScreen)
    screen.go([e.sample_id for e in screen.entries].index(sample_id))
    await settle(app, pilot)
    return screen


async def _to_item(screen: LabelScreen, pilot, test_id: str | None,  # type: ignore[no-untyped-def]
                   kind: str | None = None, sample: str | None = None) -> None:
    """Walk the queue with the cursor keys to the row of ``test_id`` (or the sample-level
    item) of ``sample`` (by default the current one), opening groups on the way."""
    sample = sample or screen.entry.sample_id
    screen.go([e.sample_id for e in screen.entries].index(sample))  # from the sample's row
    await settle(screen.app, pilot)
    for _ in range(80):
        row = screen.row
        if row.item is not None and row.item.test_id == test_id and \
                (kind is None or row.item.kind == kind) and row.sample_id == sample:
            return
        node = screen.queue.cursor_node
        if node is not None and node.allow_expand and not node.is_expanded:
            await pilot.press("right")
        await pilot.press("down")
        await pilot.pause()
    raise AssertionError(f"no row for {test_id} under {screen.entry.sample_id}")


def _queue_rows(screen: LabelScreen) -> list[str]:
    """Every visible row of the queue as text (what the annotator reads)."""
    q = screen.queue
    return [str(q.get_node_at_line(i).label) for i in range(q.last_line + 1)]


# ---------------------------------------------------------------------------------- the queue

async def test_the_queue_lists_root_groups_with_their_members(make_app, corpus: Path,
                                                              engine: TriageContext) -> None:
    app = make_app(corpus, annotator="zoe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, MULTILINGUAL)
        rows = _queue_rows(screen)
        at = next(i for i, r in enumerate(rows) if "Relay Multilingual" in r)
        # the sample, then its one group: the failed deployment with the 33 tests it explains
        assert "0/34" in rows[at]
        assert "deployment failed" in rows[at + 1] and "+33 like it" in rows[at + 1]
        assert "test_" not in rows[at + 2]  # members stay folded until the group is opened
        await pilot.press("down", "right")
        await pilot.pause()
        rows = _queue_rows(screen)
        members = rows[at + 2: at + 35]
        assert len(members) == 33 and all(r.lstrip("├└ ").startswith("·") for r in members)
        assert any("test_translate.py::test_translate_long_text" in r for r in members)
        # sample-level items come first: atlas's convertor lists its suite before its test
        screen.go([e.sample_id for e in screen.entries].index(CONVERTOR))
        await settle(app, pilot)
        rows = _queue_rows(screen)
        at = next(i for i, r in enumerate(rows) if "Atlas StructuredDataConvertor" in r
                  and "@" not in r)
        assert "suite incomplete" in rows[at + 1] and "+4 like it" in rows[at + 1]
        assert "test_health.py::test_health_endpoint_headers" in rows[at + 2]


async def test_a_selected_test_shows_its_own_suggestion(make_app, corpus: Path,
                                                        engine: TriageContext) -> None:
    app = make_app(corpus, annotator="zoe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, CONVERTOR)
        sample = app.catalog.load_sample(screen.entry)
        expected = triage_sample(sample, engine)
        # the sample-level root: the suite that collected only partly
        await _to_item(screen, pilot, None, "suite_incomplete")
        s = expected.for_item(CONVERTOR)
        assert s is not None and s.category == "not-model"
        shown = screen.panel.text
        assert "Not a model failure" in shown and f"{s.confidence:.0%} confident" in shown
        assert "Root of 4 more like it" in shown
        assert "pandas" in shown
        # a test no rule recognises says so
        test = "tests/test_health.py::TestHealthEndpoint::test_health_endpoint_headers"
        await _to_item(screen, pilot, test)
        s = expected.for_item(f"{CONVERTOR}::{test}")
        assert s is not None and s.category is None and not s.competing
        assert "no rule recognises this failure" in screen.panel.text
        assert f"test {test}" in _text(screen, "#scope")
        # its anchors are offered as evidence: the suggestion's, then the test itself
        evidence = screen.query_one("#evidence", EvidenceList)
        assert any(a.kind == "test" and a.test == test for a in evidence.anchors)


async def test_an_unsure_suggestion_shows_its_readings_and_remedy(make_app, corpus: Path,
                                                                  engine: TriageContext
                                                                  ) -> None:
    target = f"{ATLAS}/UserManagement_2/0"
    test = "tests/test_user_api.py::TestUserAPI::test_user_registration_success"
    app = make_app(corpus, annotator="zoe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, target)
        await _to_item(screen, pilot, test)
        s = triage_sample(app.catalog.load_sample(screen.entry), engine).for_item(
            f"{target}::{test}")
        assert s is not None and s.unsure
        shown = screen.panel.text
        assert "unsure" in shown
        for reading in s.competing:
            name = app.labels.taxonomy.name_of(reading.category)
            assert f"{name}  {reading.weight:.2f}" in shown
        assert s.remedy is not None and s.remedy.describe() in shown
        assert "r re-runs with it to confirm" in shown
        assert f"test {test}" in _text(screen, "#scope")
        evidence = screen.query_one("#evidence", EvidenceList)
        assert evidence.anchors[:len(s.anchors)] == list(s.anchors)
        # "g" on an unsure suggestion labels nothing and says why
        await pilot.press("g")
        await settle(app, pilot)
        assert _labels(corpus, "zoe") == {}
        assert any("unsure" in n.message for n in app._notifications)


async def test_task_anchors_are_listed_and_open_the_task_file(make_app, corpus: Path,
                                                              engine: TriageContext) -> None:
    from inspector.ui.screens.sample import SampleScreen

    target = f"{DASH}/synapse/0"
    app = make_app(corpus, annotator="zoe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, target)
        test = "tests/test_api_contract.py::test_readme_present_and_sections"
        await _to_item(screen, pilot, test)
        s = triage_sample(app.catalog.load_sample(screen.entry), engine).for_item(
            f"{target}::{test}")
        assert s is not None
        task_anchors = [a for a in s.anchors if a.kind == "task"]
        assert task_anchors, "the engine points at the task's README or golden test"
        evidence = screen.query_one("#evidence", EvidenceList)
        first = task_anchors[0]
        evidence.highlighted = evidence.anchors.index(first)
        evidence.focus()
        await pilot.press("enter")
        await settle(app, pilot)
        opened = app.screen
        assert isinstance(opened, SampleScreen)
        label = str(opened.main_pane.query_one(".file-label", Static).render())
        assert label.startswith(f"task: {first.path}")


# ---------------------------------------------------------------------------- group labels

async def test_labelling_a_root_writes_the_root_and_its_followers(make_app,
                                                                  corpus: Path) -> None:
    app = make_app(corpus, annotator="zoe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, MULTILINGUAL)
        await _to_item(screen, pilot, None, "deploy_failed")
        assert "root of 33 more like it" in _text(screen, "#scope")
        await pilot.press("2")
        app.labels.flush()
        await settle(app, pilot)
        saved = _labels(corpus, "zoe")
        root = saved[MULTILINGUAL]
        assert root["category"] == "dependency" and "follows" not in root
        assert root["suggestion"]["category"] == "dependency"
        followers = {k: lb for k, lb in saved.items() if k.startswith(f"{MULTILINGUAL}::")}
        assert len(followers) == 33
        assert all(lb["category"] == "dependency" and lb["follows"] == MULTILINGUAL
                   and lb["history"][0]["changes"]["follows"] == [None, MULTILINGUAL]
                   for lb in followers.values())
        assert any("(+33 following)" in n.message for n in app._notifications)
        # the queue shows them following, and the sample as done
        rows = _queue_rows(screen)
        at = next(i for i, r in enumerate(rows) if "Relay Multilingual" in r)
        assert "✓" in rows[at] and "34/34" in rows[at]
        # the exports see every follower (and --per-root only the root)
        export = _export(corpus)
        mine = [r for r in export if r["sample"] == MULTILINGUAL]
        assert len(mine) == 34 and {r["category"] for r in mine} == {"dependency"}
        roots = [r for r in _export(corpus, "--per-root") if r["sample"] == MULTILINGUAL]
        assert [r["test"] for r in roots] == [None]


def _export(corpus: Path, *extra: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "inspector", "labels", "export", str(corpus),
                          "--format", "json", *extra], capture_output=True, text=True,
                         check=True, timeout=120)
    return json.loads(out.stdout)["rows"]  # type: ignore[no-any-return]


async def test_a_member_label_overrides_its_group_and_can_follow_again(make_app,
                                                                       corpus: Path) -> None:
    member = "tests/test_translate.py::test_translate_long_text"
    app = make_app(corpus, annotator="zoe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, MULTILINGUAL)
        await _to_item(screen, pilot, None, "deploy_failed")
        await pilot.press("2")  # the group: dependency
        app.labels.flush()
        await settle(app, pilot)
        await _to_item(screen, pilot, member, sample=MULTILINGUAL)
        assert screen.row.is_member
        assert "↳ follows the root's label" in _text(screen, "#scope")
        # a key on the member: its own label (asks why, as any change of a label does)
        await pilot.press("4")
        await settle(app, pilot)
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"times out on its own", "enter")
        app.labels.flush()
        await settle(app, pilot)
        saved = _labels(corpus, "zoe")
        own = saved[f"{MULTILINGUAL}::{member}"]
        assert own["category"] == "not-model" and "follows" not in own
        assert own["history"][-1]["changes"]["follows"] == [MULTILINGUAL, None]
        assert own["history"][-1]["reason"] == "times out on its own"
        assert "● own label" in _text(screen, "#scope")
        assert screen.queue.cursor_node is not None
        assert str(screen.queue.cursor_node.label).startswith("● ")
        # relabelling the root moves its followers, never the override
        await _to_item(screen, pilot, None, "deploy_failed", MULTILINGUAL)
        await pilot.press("1")
        await settle(app, pilot)
        await pilot.press("enter")  # no reason
        app.labels.flush()
        await settle(app, pilot)
        saved = _labels(corpus, "zoe")
        assert saved[MULTILINGUAL]["category"] == "architectural"
        others = [lb for k, lb in saved.items()
                  if k.startswith(f"{MULTILINGUAL}::") and not k.endswith(member)]
        assert len(others) == 32 and {lb["category"] for lb in others} == {"architectural"}
        assert saved[f"{MULTILINGUAL}::{member}"]["category"] == "not-model"
        # f: the member follows its root again
        await _to_item(screen, pilot, member, sample=MULTILINGUAL)
        await pilot.press("f")
        app.labels.flush()
        await settle(app, pilot)
        back = _labels(corpus, "zoe")[f"{MULTILINGUAL}::{member}"]
        assert back["category"] == "architectural" and back["follows"] == MULTILINGUAL
        # retracting the root retracts its followers with it
        await _to_item(screen, pilot, None, "deploy_failed", MULTILINGUAL)
        await pilot.press("x")
        await settle(app, pilot)
        await pilot.press(*"wrong group", "enter")
        app.labels.flush()
        await settle(app, pilot)
        saved = _labels(corpus, "zoe")
        group = [lb for k, lb in saved.items() if k.startswith(MULTILINGUAL)]
        assert len(group) == 34 and all(lb["retracted"] for lb in group)


async def test_sample_level_labels_of_the_synthetic_runs_still_work(make_app,
                                                                    corpus: Path) -> None:
    """ana's and ben's labels are of whole samples: the sample row still shows and writes
    them, without followers."""
    target = "repo_readme_1119_relay_open_coder-7b_Python/todo-service/0"
    app = make_app(corpus, annotator="ana")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, target)
        assert screen.row.item is None
        assert "Cross-file consistency" in _text(screen, "#mine")
        assert "ben:" in _text(screen, "#others")
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press(*"second look", "enter")
        app.labels.flush()
        await settle(app, pilot)
        saved = _labels(corpus, "ana")
        assert saved[target]["category"] == "dependency"
        assert not [k for k in saved if k.startswith(f"{target}::")]


# ---------------------------------------------------------------------------- confirmation

async def test_the_confirmation_key_says_when_there_is_no_remedy(make_app,
                                                                 corpus: Path) -> None:
    target = f"{JAVA}/javalin-task-manager/0"
    app = make_app(corpus, annotator="zoe")
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open(app, pilot, target)
        await _to_item(screen, pilot, None, "deploy_failed")
        await pilot.press("r")
        await settle(app, pilot)
        assert screen.confirm_cancel is None
        assert not [w for w in app.workers if w.group == "confirm"]
        assert any("No remedy to try" in n.message for n in app._notifications)
