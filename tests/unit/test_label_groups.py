"""Group labels on disk: a root and the labels that follow it, written in one locked write;
overrides are never touched; retracting a root retracts its followers; a member can follow
again. Real label files in a temporary folder, read back as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.model.labels.label_file import ItemRef, Label
from inspector.services.labels.session import LabelSession
from inspector.services.labels.store import LabelStore

SAMPLE = "run/task/0"
ROOT = ItemRef(SAMPLE)  # a sample-level root (the failed deployment)
MEMBERS = [ItemRef(SAMPLE, f"tests/test_a.py::test_{i}") for i in range(5)]


def _on_disk(folder: Path, name: str = "zoe") -> dict[str, dict]:
    doc = json.loads((folder / "annotators" / f"{name}.json").read_text())
    return {(lb["sample"] + ("::" + lb["test"] if lb["test"] else "")): lb
            for lb in doc["labels"]}


@pytest.fixture
def session(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = LabelSession(tmp_path / "labels", "zoe")
    yield s
    s.close()


def test_a_root_and_its_members_are_written_together(session: LabelSession,
                                                     tmp_path: Path) -> None:
    session.save_group(ROOT, MEMBERS, "dependency", note="babel missing").result()
    saved = _on_disk(tmp_path / "labels")
    assert saved[SAMPLE]["category"] == "dependency" and "follows" not in saved[SAMPLE]
    assert saved[SAMPLE]["note"] == "babel missing"
    for m in MEMBERS:
        lb = saved[m.key]
        assert lb["category"] == "dependency" and lb["follows"] == SAMPLE
        assert lb["note"] == "" and [h["action"] for h in lb["history"]] == ["create"]
    assert len(session.followers(ROOT)) == 5


def test_an_override_survives_its_roots_changes(session: LabelSession, tmp_path: Path) -> None:
    session.save_group(ROOT, MEMBERS, "dependency").result()
    session.save(MEMBERS[2], "not-model", follows=None, reason="own cause").result()
    session.save_group(ROOT, MEMBERS, "architectural", reason="second look").result()
    saved = _on_disk(tmp_path / "labels")
    assert saved[MEMBERS[2].key]["category"] == "not-model"
    assert "follows" not in saved[MEMBERS[2].key]
    assert {saved[m.key]["category"] for m in MEMBERS if m != MEMBERS[2]} == {"architectural"}
    moved = saved[MEMBERS[0].key]["history"][-1]
    assert moved["changes"]["category"] == ["dependency", "architectural"]
    assert moved["reason"] == "second look"
    # a note on a follower keeps it following (only a category key overrides)
    session.save(MEMBERS[0], "architectural", note="same crash").result()
    assert _on_disk(tmp_path / "labels")[MEMBERS[0].key]["follows"] == SAMPLE


def test_followers_no_longer_in_the_group_still_move_with_their_root(
        session: LabelSession, tmp_path: Path) -> None:
    """The grouping may change between sessions: what follows a root follows it."""
    session.save_group(ROOT, MEMBERS, "dependency").result()
    session.save_group(ROOT, MEMBERS[:2], "cross-file").result()
    saved = _on_disk(tmp_path / "labels")
    assert {saved[m.key]["category"] for m in MEMBERS} == {"cross-file"}


def test_retracting_a_root_retracts_its_followers_and_a_member_can_follow_again(
        session: LabelSession, tmp_path: Path) -> None:
    session.save_group(ROOT, MEMBERS, "dependency").result()
    session.save(MEMBERS[0], "other", follows=None).result()
    session.follow(MEMBERS[0], ROOT).result()
    back = _on_disk(tmp_path / "labels")[MEMBERS[0].key]
    assert back["category"] == "dependency" and back["follows"] == SAMPLE
    session.retract(ROOT, "wrong group").result()
    saved = _on_disk(tmp_path / "labels")
    assert all(saved[k]["retracted"] for k in [SAMPLE, *(m.key for m in MEMBERS)])
    assert saved[MEMBERS[3].key]["history"][-1]["reason"] == "wrong group"
    with pytest.raises(ValueError, match="label the root first"):
        session.follow(MEMBERS[0], ROOT)


def test_a_group_write_keeps_what_another_inspector_wrote_meanwhile(
        session: LabelSession, tmp_path: Path) -> None:
    other = LabelStore(tmp_path / "labels")
    other.save("zoe", Label(ItemRef("run/other/0"), "other"))  # behind the session's back
    session.save_group(ROOT, MEMBERS, "dependency").result()
    saved = _on_disk(tmp_path / "labels")
    assert "run/other/0" in saved and len(saved) == 7
