"""The label roll-up's rules (:mod:`inspector.model.labels.rollup`), hand-checked."""

from __future__ import annotations

from inspector.model.labels import rollup as rollup
from inspector.model.labels.label_file import ItemRef, Label, LabelFile
from inspector.model.labels.labelset import LabelSet

S = "run/task/0"
ORDER = ("architectural", "dependency", "cross-file", "not-model", "other")


def lb(test: str | None, category: str, follows: str | None = None,
       sample: str = S) -> Label:
    return Label(ItemRef(sample, test), category, follows=follows)


def one(*labels: Label, name: str = "ana") -> LabelSet:
    return LabelSet({name: LabelFile(name, labels=tuple(labels))})


def test_followers_take_their_roots_category_and_count_once() -> None:
    labels = one(lb("t1", "dependency"), lb("t2", "dependency", f"{S}::t1"),
                 lb("t3", "dependency", f"{S}::t1"), lb("t4", "other"))
    assert [r.item.test for r in rollup.root_labels(labels)] == ["t1", "t4"]
    (s,) = rollup.sample_rollups(labels, ORDER).values()
    assert s.categories == ("dependency", "other") and s.primary == "dependency"
    assert rollup.test_categories(labels) == {ItemRef(S, "t1"): "dependency",
                                              ItemRef(S, "t2"): "dependency",
                                              ItemRef(S, "t3"): "dependency",
                                              ItemRef(S, "t4"): "other"}


def test_primary_is_the_most_roots_then_taxonomy_order() -> None:
    tie = one(lb("t1", "other"), lb("t2", "dependency"))
    assert rollup.sample_categories(tie, ORDER) == {S: "dependency"}
    most = one(lb("t1", "other"), lb("t2", "other"), lb("t3", "dependency"))
    assert rollup.sample_categories(most, ORDER) == {S: "other"}


def test_a_sample_level_label_is_a_root_like_any_item() -> None:
    # the sample-level item (deployment failed) as the root of its tests
    grouped = one(lb(None, "architectural"), lb("t1", "dependency", S),
                  lb("t2", "dependency", S))
    assert [r.item for r in rollup.root_labels(grouped)] == [ItemRef(S)]
    assert rollup.test_categories(grouped) == {ItemRef(S, "t1"): "architectural",
                                               ItemRef(S, "t2"): "architectural"}
    # beside test roots of other causes: neither overrides the other
    both = one(lb(None, "not-model"), lb("t1", "other"))
    (s,) = rollup.sample_rollups(both, ORDER).values()
    assert s.categories == ("not-model", "other") and s.primary == "not-model"


def test_a_broken_group_hides_nothing() -> None:
    dangling = one(lb("t1", "other", f"{S}::gone"))
    assert [r.item.test for r in rollup.root_labels(dangling)] == ["t1"]
    loop = one(lb("t1", "other", f"{S}::t2"), lb("t2", "other", f"{S}::t1"))
    assert [r.item.test for r in rollup.root_labels(loop)] == ["t1", "t2"]


def test_unresolved_roots_do_not_vote() -> None:
    labels = LabelSet({"ana": LabelFile("ana", labels=(lb("t1", "other"), lb("t2", "other"))),
                       "ben": LabelFile("ben", labels=(lb("t1", "dependency"),
                                                       lb("t2", "other")))})
    (s,) = rollup.sample_rollups(labels, ORDER).values()
    assert s.unresolved_roots == 1 and s.primary == "other"
    only = LabelSet({"ana": LabelFile("ana", labels=(lb("t1", "other"),)),
                     "ben": LabelFile("ben", labels=(lb("t1", "dependency"),))})
    assert rollup.sample_rollups(only, ORDER)[S].primary is None
    assert rollup.sample_categories(only, ORDER) == {}


def test_labelled_and_per_sample_ratings() -> None:
    other = "run/task/1"
    labels = LabelSet({"ana": LabelFile("ana", labels=(lb("t1", "other"),
                                                       lb("t2", "dependency", f"{S}::t1"))),
                       "ben": LabelFile("ben", labels=(lb("t1", "dependency"),
                                                       lb(None, "other", sample=other)))})
    assert rollup.labelled_samples(labels, "ana") == {S}
    assert rollup.labelled_samples(labels) == {S, other}
    assert rollup.sample_ratings(labels, ORDER) == {
        S: {"ana": "other", "ben": "dependency"}, other: {"ben": "other"}}
    assert set(rollup.view_ratings(labels, "test", ORDER)) == {f"{S}::t1", f"{S}::t2"}
