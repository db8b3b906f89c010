"""Scoring per-test suggestions against hand labels (inspector/services/triage/score.py).

The fixture is small enough to count by hand: ten labelled roots (R1–R10) and three
followers of R1, in task ``Alpha`` (dev: R1–R8 and the followers) and ``Beta`` (held out:
R9, R10). The labels and the suggestions are real model objects; nothing is stubbed.

    unit  reference      suggested      confidence
    R1    not-model      not-model      0.95
    R2    not-model      not-model      0.90
    R3    not-model      other          0.60
    R4    dependency     dependency     0.97
    R5    dependency     dependency     0.80
    R6    architectural  architectural  0.72
    R7    other          not-model      0.58
    R8    other          other          0.86
    R9    not-model      — (unsure: not-model | other)   0.40
    R10   architectural  — (no reading at all)           0.30
    F1-F3 not-model, follow R1; suggested not-model (the engine ties them to R1)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.model.failures.triage import TEST, FailureItem, Reading, SampleTriage, TestSuggestion
from inspector.model.labels.label_file import ItemRef, Label, LabelFile
from inspector.model.labels.labelset import LabelSet
from inspector.model.labels.roots import final_follows, is_final_root, root_ratings
from inspector.model.untrusted.errors import LoadError
from inspector.services.triage.listing import format_per_test, suggestion_rows, verdict
from inspector.services.triage.score import (
    NONE,
    Split,
    load_split,
    score_triage,
    task_of,
)
from inspector.services.triage.score_text import format_score

CATS = ["architectural", "dependency", "cross-file", "not-model", "other"]
DEV = "lab/run-a/Alpha/0"  # a run id holding a slash: the task is still the middle part
HELD = "run-a/Beta/0"
ROWS = [  # unit, sample, reference, suggested, confidence
    ("R1", DEV, "not-model", "not-model", 0.95),
    ("R2", DEV, "not-model", "not-model", 0.90),
    ("R3", DEV, "not-model", "other", 0.60),
    ("R4", DEV, "dependency", "dependency", 0.97),
    ("R5", DEV, "dependency", "dependency", 0.80),
    ("R6", DEV, "architectural", "architectural", 0.72),
    ("R7", DEV, "other", "not-model", 0.58),
    ("R8", DEV, "other", "other", 0.86),
    ("R9", HELD, "not-model", None, 0.40),
    ("R10", HELD, "architectural", None, 0.30),
]
FOLLOWERS = ("F1", "F2", "F3")


def tid(unit: str) -> str:
    return f"tests/test_x.py::test_{unit.lower()}"


def key(sample: str, unit: str) -> str:
    return f"{sample}::{tid(unit)}"


def suggestion(sample: str, unit: str, category: str | None, confidence: float,
               root: str | None = None, competing: tuple[Reading, ...] = ()
               ) -> TestSuggestion:
    return TestSuggestion(FailureItem(sample, tid(unit), TEST), category, confidence,
                          rule=f"rule-{category or 'none'}", reason="because", root=root,
                          competing=competing)


def triages(extra: tuple[TestSuggestion, ...] = ()) -> list[SampleTriage]:
    by_sample: dict[str, list[TestSuggestion]] = {DEV: [], HELD: []}
    for unit, sample, _ref, sug, conf in ROWS:
        competing = ((Reading("not-model", 0.4, "r", "a"), Reading("other", 0.35, "r", "b"))
                     if unit == "R9" else ())
        by_sample[sample].append(suggestion(sample, unit, sug, conf, competing=competing))
    for f in FOLLOWERS:
        by_sample[DEV].append(suggestion(DEV, f, "not-model", 0.95, root=key(DEV, "R1")))
    for s in extra:
        by_sample[s.item.sample].append(s)
    return [SampleTriage(sample, (), tuple(sugs)) for sample, sugs in by_sample.items()]


def label(sample: str, test: str | None, category: str, follows: str | None = None) -> Label:
    return Label(ItemRef(sample, test), category, follows=follows)


def labelset(extra: tuple[Label, ...] = (), ben: tuple[Label, ...] = ()) -> LabelSet:
    labels = [label(sample, tid(unit), ref) for unit, sample, ref, _s, _c in ROWS]
    labels += [label(DEV, tid(f), "not-model", follows=key(DEV, "R1")) for f in FOLLOWERS]
    labels += list(extra)
    files = {"ana": LabelFile("ana", labels=tuple(labels))}
    if ben:
        files["ben"] = LabelFile("ben", labels=ben)
    return LabelSet(files)


SPLIT = Split(Path("split.json"), ("Beta",))


def test_task_of_is_the_middle_part() -> None:
    assert task_of("run-a/Beta/0") == "Beta"
    assert task_of("lab/run-a/Alpha/12") == "Alpha"
    assert task_of("nonsense") == ""


def test_hand_computed_kappa_and_coverage_per_root() -> None:
    s = score_triage(triages(), labelset(), CATS).score("all", "per_root")
    assert (s.n, s.covered, s.correct) == (10, 8, 6)
    assert s.coverage == pytest.approx(0.8)
    assert s.accuracy_covered == pytest.approx(0.75)
    assert s.accuracy_all == pytest.approx(0.6)  # abstentions count as wrong
    # Kappa on the 8 covered roots (R1-R8), by hand:
    #   observed po = 6/8 (R1 R2 R4 R5 R6 R8 agree) = 48/64
    #   reference marginals: not-model 3, dependency 2, architectural 1, other 2
    #   suggested marginals: not-model 3 (R1 R2 R7), dependency 2, architectural 1,
    #                        other 2 (R3 R8)
    #   expected pe = (3*3 + 2*2 + 1*1 + 2*2) / 8**2 = 18/64
    #   kappa = (48 - 18) / (64 - 18) = 30/46 = 15/23 = 0.652173...
    assert s.kappa_covered == pytest.approx(15 / 23, abs=1e-12)
    # Kappa with "none" as its own class, all 10 roots:
    #   po = 6/10; reference: not-model 4, dependency 2, architectural 2, other 2, none 0
    #   suggested: not-model 3, dependency 2, architectural 1, other 2, none 2
    #   pe = (4*3 + 2*2 + 2*1 + 2*2 + 0*2) / 100 = 22/100
    #   kappa = (60 - 22) / (100 - 22) = 38/78 = 19/39 = 0.487179...
    assert s.kappa_with_abstention == pytest.approx(19 / 39, abs=1e-12)


def test_precision_recall_with_abstentions() -> None:
    s = score_triage(triages(), labelset(), CATS).score("all", "per_root")
    # not-model: suggested on R1 R2 R7, right on R1 R2; the reference on R1 R2 R3 R9 (R9
    # abstained: a miss for recall, nothing for precision)
    nm = s.not_model
    assert (nm.tp, nm.suggested, nm.reference) == (2, 3, 4)
    assert nm.precision == pytest.approx(2 / 3) and nm.recall == pytest.approx(0.5)
    # the binary question's model side: suggested a model category on R3 R4 R5 R6 R8, the
    # reference is one on R4 R5 R6 R8 (and R7 R10)
    assert (s.model.tp, s.model.suggested, s.model.reference) == (4, 5, 6)
    # binary on covered: agree on 6 of 8; ref not-model 3 / model 5, sug 3 / 5:
    #   pe = (3*3 + 5*5) / 64 = 34/64, kappa = (48 - 34) / (64 - 34) = 14/30
    assert s.binary_correct == 6
    assert s.binary_kappa == pytest.approx(7 / 15)
    per = {c.category: c for c in s.categories}
    assert (per["architectural"].precision, per["architectural"].recall) == (1.0, 0.5)
    assert per["architectural"].f1 == pytest.approx(2 / 3)
    assert (per["other"].precision, per["other"].recall, per["other"].f1) == (0.5, 0.5, 0.5)
    assert per["cross-file"].precision is None and per["cross-file"].recall is None
    assert per["cross-file"].f1 is None
    # confusion: rows the reference, columns the suggestion plus "none"
    assert s.columns[-1] == NONE
    assert s.cell("not-model", "not-model") == 2
    assert s.cell("not-model", "other") == 1
    assert s.cell("not-model", None) == 1
    assert s.cell("architectural", None) == 1
    assert sum(map(sum, s.matrix)) == 10
    # abstentions: R9 is unsure and its best reading was right; R10 had no reading
    assert (s.abstained, s.unsure, s.unsure_top_right) == (2, 1, 1)
    # misses: the two wrong ones, then the two abstentions (each in item-key order)
    assert [m.key for m in s.misses] == [key(DEV, "R3"), key(DEV, "R7"), key(HELD, "R10"),
                                         key(HELD, "R9")]


def test_reliability_bins() -> None:
    s = score_triage(triages(), labelset(), CATS).score("all", "per_root")
    got = {(b.low, b.high): (b.n, b.correct) for b in s.reliability}
    assert got == {(0.0, 0.55): (0, 0), (0.55, 0.7): (2, 0), (0.7, 0.85): (2, 2),
                   (0.85, 0.95): (2, 2), (0.95, 1.0): (2, 2)}
    assert s.reliability[1].mean_confidence == pytest.approx((0.60 + 0.58) / 2)
    assert s.reliability[0].accuracy is None


def test_followers_count_per_test_not_per_root() -> None:
    report = score_triage(triages(), labelset(), CATS)
    per_test, per_root = report.score("all", "per_test"), report.score("all", "per_root")
    assert (per_test.n, per_test.covered, per_test.correct) == (13, 11, 9)
    assert (per_root.n, per_root.covered, per_root.correct) == (10, 8, 6)
    g = report.grouping("all")
    assert (g.label_roots, g.engine_also_root, g.label_followers, g.same_root) == (10, 10, 3, 3)


def test_split_reports_held_out_and_dev_separately() -> None:
    report = score_triage(triages(), labelset(), CATS, SPLIT)
    assert report.splits() == ["held_out", "dev", "all"]
    held = report.score("held_out", "per_root")
    assert (held.n, held.covered, held.coverage) == (2, 0, 0.0)
    assert held.accuracy_covered is None and held.kappa_covered is None
    dev = report.score("dev", "per_root")
    assert (dev.n, dev.covered, dev.correct) == (8, 8, 6)
    assert report.score("dev", "per_test").n == 11
    assert report.score("all", "per_test").n == 13
    doc = report.to_json()
    assert list(doc["scores"]) == ["held_out", "dev", "all"]
    assert doc["split"]["held_out_tasks"] == ["Beta"]
    assert doc["scores"]["held_out"]["per_root"]["coverage"] == 0.0
    assert doc["scores"]["all"]["per_root"]["kappa_covered"] == round(15 / 23, 4)
    # without a split there is only "all"
    assert list(score_triage(triages(), labelset(), CATS).to_json()["scores"]) == ["all"]


def test_unmatched_unresolved_and_unlabelled_are_listed_not_dropped() -> None:
    gone = label(DEV, "tests/test_x.py::test_passed_in_the_run", "other")
    elsewhere = label("run-z/Gamma/0", None, "dependency")
    split_ana = label(DEV, tid("U1"), "other")
    split_ben = label(DEV, tid("U1"), "not-model")
    labels = labelset((gone, elsewhere, split_ana), ben=(split_ben,))
    extra = (suggestion(DEV, "U1", "other", 0.9), suggestion(DEV, "NOBODY", "other", 0.9))
    report = score_triage(triages(extra), labels, CATS, SPLIT)
    by_key = {u.key: u for u in report.unmatched}
    assert set(by_key) == {gone.item.key, elsewhere.item.key}
    assert "not a failure item" in by_key[gone.item.key].reason
    assert "not among the runs" in by_key[elsewhere.item.key].reason
    assert [k for k, _r, _s in report.unresolved] == [key(DEV, "U1")]
    assert report.unlabelled == [key(DEV, "NOBODY")]
    assert report.score("all", "per_test").n == 13  # none of them scored
    doc = report.to_json()
    assert doc["label_counts"] == {"items": 16, "scored": 13,
                                   "statuses": {"single": 15, "unresolved": 1}}
    assert doc["scores"]["held_out"]["unmatched"] == 0  # Gamma is not held out
    assert doc["scores"]["dev"]["unmatched"] == 2 and doc["scores"]["all"]["unmatched"] == 2
    assert {u["item"] for u in doc["unmatched"]} == set(by_key)
    json.dumps(doc)  # JSON-ready
    text = format_score(report, Path("labels-real"), Path("runs"), ["ana", "ben"])
    assert "Unmatched labels (2" in text and gone.item.key in text
    assert "Unresolved labels (1" in text and "ana=other, ben=not-model" in text
    assert key(DEV, "NOBODY") in text


def test_text_report_names_the_split_and_the_figures() -> None:
    report = score_triage(triages(), labelset(), CATS, SPLIT)
    text = format_score(report, Path("labels-real"), Path("runs"), ["ana"])
    assert "Labels: labels-real (annotators: ana; 13 labelled items: 13 single)" in text
    assert "tasks never used to write or tune a rule" in text
    assert "held-out tasks: Beta" in text
    summary = next(ln for ln in text.splitlines() if ln.strip().startswith("all per root"))
    assert "80.0%" in summary and "75.0%" in summary and "0.652" in summary
    assert "0.487" in summary
    assert f"[held-out] {key(HELD, 'R9')}: label not-model, unsure (best reading " \
           "not-model)" in text
    no_split = format_score(score_triage(triages(), labelset(), CATS), Path("lab"),
                            Path("runs"), ["ana"])
    assert "Split: none" in no_split


def test_final_follows_adjudication_and_ties() -> None:
    root = key(DEV, "R1")
    item = ItemRef(DEV, tid("X"))
    ana = LabelFile("ana", labels=(label(DEV, tid("X"), "other", follows=root),))
    ben = LabelFile("ben", labels=(label(DEV, tid("X"), "other"),))
    tie = LabelSet({"ana": ana, "ben": ben})
    assert final_follows(tie, item) is None  # a tie counts it as a root
    cara = LabelFile("cara", labels=(label(DEV, tid("X"), "other", follows=root),))
    majority = LabelSet({"ana": ana, "ben": ben, "cara": cara})
    assert final_follows(majority, item) == root and not is_final_root(majority, item)
    adj = LabelFile("adj", kind="adjudication", labels=(
        Label(item, "other", originals={"ana": "other"}),))
    assert final_follows(LabelSet({"ana": ana, "ben": ben, "cara": cara}, adj), item) is None
    # per-root agreement: kept when anyone called it a root, dropped when all followed
    assert list(root_ratings(tie)) == [item.key]
    assert root_ratings(LabelSet({"ana": ana, "cara": cara})) == {}


def test_load_split(tmp_path: Path) -> None:
    assert load_split(tmp_path) is None
    (tmp_path / "split.json").write_text(json.dumps(
        {"format": "genesis-inspector.label-split", "version": 1,
         "held_out_tasks": ["WebPan"], "rule": "r"}))
    split = load_split(tmp_path)
    assert split is not None and split.held_out_tasks == ("WebPan",)
    assert split.name_of("run/WebPan/0") == "held_out" and split.name_of("r/X/0") == "dev"
    (tmp_path / "split.json").write_text('{"format": "genesis-inspector.label-split", '
                                         '"held_out_tasks": "WebPan"}')
    with pytest.raises(LoadError, match="split.json.*held_out_tasks"):
        load_split(tmp_path)
    (tmp_path / "split.json").write_text("{not json")
    with pytest.raises(LoadError, match="split.json"):
        load_split(tmp_path)


def test_per_test_listing_groups_by_root_and_shows_unsure() -> None:
    ts = triages()
    text = format_per_test(ts)
    lines = text.splitlines()
    assert lines[0] == f"{DEV}  (11 failure items, 8 roots)"
    r1 = lines.index(f"  {tid('R1')}")
    assert lines[r1 + 1].strip() == "not-model  0.95  [rule-not-model]"
    assert lines[r1 + 3].strip() == f"↳ {tid('F1')}  not-model"
    assert "unsure: not-model | other  0.40" in text
    assert "no suggestion  0.30" in text
    rows = suggestion_rows(ts)
    assert len(rows) == 13 and rows[0]["sample"] == DEV
    assert {"sample", "test_id", "category", "rule", "reason", "confidence", "anchors",
            "root", "competing", "remedy", "confirmation"} <= rows[0].keys()
    assert verdict(ts[1].suggestions[0]) == "unsure: not-model | other"
