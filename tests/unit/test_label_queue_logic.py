"""The labelling queue's plain logic (no Textual): where a key goes next, what a key writes
for a group, what the status line says."""

from __future__ import annotations

from inspector.model.failures.triage import (
    INSTALL_TEST_PACKAGE,
    FailureItem,
    Remedy,
    RootGroup,
    SampleTriage,
    TestSuggestion,
)
from inspector.model.labels.label_file import Anchor, ItemRef, Label
from inspector.services.labels.queue import QueueSample
from inspector.ui.labelling import item, navigation
from inspector.ui.labelling.progress import ProgressCounts, progress_text
from inspector.ui.labelling.saving import plan_save, suggestion_json
from inspector.ui.widgets.failure_queue import QueueRow

S = "run/task/0"


def _item(test: str | None, kind: str = "test_failed") -> FailureItem:
    return FailureItem(S, test, kind)


def _rows(index: int, sample: str, groups: list[RootGroup]) -> list[QueueRow]:
    out = [QueueRow(index, sample)]
    for g in groups:
        out.append(QueueRow(index, sample, g, g.root))
        out.extend(QueueRow(index, sample, g, m) for m in g.members)
    return out


ROOT_A = _item("t::a")
MEMBER_A = _item("t::a2")
ROOT_B = _item("t::b")
GROUP_A = RootGroup(ROOT_A, (MEMBER_A,), why="same fixture")
GROUP_B = RootGroup(ROOT_B, ())
ROWS = _rows(0, S, [GROUP_A, GROUP_B])


def _mine(labelled: set[str]):  # type: ignore[no-untyped-def]
    def mine(ref: ItemRef) -> Label | None:
        return object() if ref.key in labelled else None  # type: ignore[return-value]
    return mine


def test_roots_are_the_rows_a_key_labels_with_their_group() -> None:
    assert [r.item for r in item.roots(ROWS)] == [ROOT_A, ROOT_B]


def test_next_scope_cycles_roots_then_the_sample_and_a_member_goes_to_the_next_root() -> None:
    roots = item.roots(ROWS)
    assert navigation.next_scope(ROWS[0], roots) == roots[0]
    assert navigation.next_scope(roots[0], roots) == roots[1]
    assert navigation.next_scope(roots[1], roots) is None  # back to the sample row
    member = ROWS[2]
    assert member.is_member
    assert navigation.next_scope(member, roots) == roots[1]


def test_after_labelling_a_root_the_next_unlabelled_root_of_the_sample_comes_first() -> None:
    roots = item.roots(ROWS)
    target = navigation.next_unlabelled_root(
        0, roots[0], 2, lambda i: ROWS if i == 0 else None, lambda i: True,
        _mine({ROOT_A.key}))
    assert target == navigation.Target(0, roots[1], here=True)


def test_then_the_next_triaged_sample_with_one_or_an_untriaged_unlabelled_sample() -> None:
    other = "run/task/1"
    root_c = FailureItem(other, "t::c", "test_failed")
    rows1 = _rows(1, other, [RootGroup(root_c, ())])
    roots = item.roots(ROWS)
    done = {ROOT_A.key, ROOT_B.key}
    # sample 1 triaged, its root unlabelled: go there
    target = navigation.next_unlabelled_root(
        0, roots[1], 2, lambda i: [ROWS, rows1][i], lambda i: True, _mine(done))
    assert target == navigation.Target(1, rows1[1])
    # sample 1 not triaged yet but unlabelled as a whole: its sample row (descend later)
    target = navigation.next_unlabelled_root(
        0, roots[1], 2, lambda i: ROWS if i == 0 else None, lambda i: i == 1, _mine(done))
    assert target == navigation.Target(1, None)
    # everything labelled
    assert navigation.next_unlabelled_root(
        0, roots[1], 2, lambda i: [ROWS, rows1][i], lambda i: False,
        _mine(done | {root_c.key})) is None


def test_wrapping_round_to_an_earlier_root_of_the_same_sample_is_a_jump() -> None:
    roots = item.roots(ROWS)
    target = navigation.next_unlabelled_root(
        0, roots[1], 1, lambda i: ROWS, lambda i: False, _mine({ROOT_B.key}))
    assert target == navigation.Target(0, roots[0], here=False)


def test_next_unlabelled_sample_wraps_and_skips_the_one_just_saved() -> None:
    ids = ["a", "b", "c"]
    unlabelled = {"a", "b"}
    assert navigation.next_unlabelled_sample(1, ids, unlabelled.__contains__) == 0
    assert navigation.next_unlabelled_sample(2, ids, unlabelled.__contains__, skip="a") == 1
    assert navigation.next_unlabelled_sample(0, ids, set().__contains__) is None


def test_a_key_on_a_root_labels_its_members_too_and_keeps_the_suggestion() -> None:
    s = TestSuggestion(ROOT_A, "env", 0.8, "missing-module", "no module named x",
                       remedy=Remedy(INSTALL_TEST_PACKAGE, "x"))
    plan = plan_save(ROWS[1], "env", "Environment", per_test=s, sample_suggestion=None,
                     confidence="high")
    assert plan.group and plan.members == [MEMBER_A.ref] and not plan.is_member
    assert plan.saved == "task/0::t::a → Environment (+1 following)"
    assert plan.suggestion == suggestion_json(s)
    assert plan.suggestion["category"] == "env" and plan.suggestion["confidence"] == "0.80"
    assert "remedy" in plan.suggestion


def test_a_key_on_a_member_labels_it_alone() -> None:
    plan = plan_save(ROWS[2], "logic", "Logic", per_test=None, sample_suggestion=None,
                     confidence=None)
    assert not plan.group and plan.members == [] and plan.is_member
    assert plan.saved == "task/0::t::a2 → Logic" and plan.confidence is None


def test_the_sample_row_labels_the_sample_alone_with_the_sample_suggestion() -> None:
    plan = plan_save(ROWS[0], "env", "Environment", per_test=None, sample_suggestion=None,
                     confidence="medium")
    assert not plan.group and plan.item == ItemRef(S) and plan.saved == "task/0 → Environment"


def test_candidates_of_a_test_row_are_its_anchors_the_test_and_the_logs() -> None:
    readme = Anchor.file("app.py", 3)
    log = Anchor.log("tests", 3, "E   ModuleNotFoundError")
    triage = SampleTriage(S, (GROUP_A, GROUP_B),
                          (TestSuggestion(ROOT_A, "env", 0.5, "r", "why", anchors=(readme,)),))
    loaded = QueueSample(None, None, [], triage=triage, logs=[log])
    got = item.candidates(ROWS[1], loaded)
    assert got == [readme, Anchor.for_test("t::a"), log]
    assert item.candidates(ROWS[0], loaded) == []  # the sample row: the sample's evidence
    assert item.suggestion_for(ROWS[1], loaded) is triage.suggestions[0]
    assert item.group_of(ROWS[1], loaded) is GROUP_A
    assert item.candidates(ROWS[1], None) == []


def test_the_status_line_counts_samples_and_items() -> None:
    assert progress_text(ProgressCounts("zoe", 1, 44, 2)) == \
        "1 of 44 failing samples labelled by zoe (2%) · item 2/44"
    assert progress_text(ProgressCounts("zoe", 0, 4, 1, 3, 7, 2)).endswith(
        " · failure items 3/7 labelled in 2 triaged samples")
    assert progress_text(ProgressCounts("zoe")) == \
        "0 of 0 failing samples labelled by zoe · item 0/0"
