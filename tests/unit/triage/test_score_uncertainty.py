"""The uncertainty of ``labels suggest --score``: kappa's bootstrap interval over tasks,
calibration (ECE, Brier) and prevalence corrected for the measured confusion.

Eight scored roots in four tasks, small enough to count by hand:

    unit  task  reference   suggested   confidence
    u1    A     not-model   not-model   0.90
    u2    A     not-model   not-model   0.80
    u3    B     not-model   — (none)    0.40
    u4    B     other       not-model   0.60
    u5    C     other       other       0.75
    u6    C     dependency  dependency  0.96
    u7    D     dependency  other       0.65
    u8    D     not-model   not-model   0.98
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli.score_text import format_score
from inspector.services.triage.score import NONE, ScoredItem, ScoreReport, score_units

CATS = ["architectural", "dependency", "cross-file", "not-model", "other"]
ROWS = [  # unit, task, reference, suggested, confidence
    ("u1", "A", "not-model", "not-model", 0.90),
    ("u2", "A", "not-model", "not-model", 0.80),
    ("u3", "B", "not-model", None, 0.40),
    ("u4", "B", "other", "not-model", 0.60),
    ("u5", "C", "other", "other", 0.75),
    ("u6", "C", "dependency", "dependency", 0.96),
    ("u7", "D", "dependency", "other", 0.65),
    ("u8", "D", "not-model", "not-model", 0.98),
]


def unit(name: str, task: str, reference: str, suggested: str | None,
         confidence: float) -> ScoredItem:
    sample = f"run-a/{task}/0"
    return ScoredItem(key=f"{sample}::t.py::test_{name}", sample=sample,
                      test=f"t.py::test_{name}", reference=reference, suggested=suggested,
                      confidence=confidence, rule=f"rule-{suggested}", split="all",
                      label_follows=None, engine_root=None)


def units(rows: list[tuple[str, str, str, str | None, float]] = ROWS) -> list[ScoredItem]:
    return [unit(*r) for r in rows]


def test_hand_computed_kappa_with_abstention_and_its_task_interval() -> None:
    s = score_units(units(), CATS)
    # kappa with "none" as a class over the 8 units, by hand:
    #   agree on u1 u2 u5 u6 u8: po = 5/8
    #   reference: not-model 4 (u1 u2 u3 u8), other 2 (u4 u5), dependency 2 (u6 u7), none 0
    #   suggested: not-model 4 (u1 u2 u4 u8), other 2 (u5 u7), dependency 1 (u6), none 1 (u3)
    #   pe * 64 = 4*4 + 2*2 + 2*1 + 0*1 = 22
    #   kappa = (5*8 - 22) / (64 - 22) = 18/42 = 3/7 = 0.428571...
    assert s.kappa_with_abstention == pytest.approx(3 / 7, abs=1e-12)
    ci = s.kappa_with_abstention_ci
    assert ci is not None
    assert ci.value == s.kappa_with_abstention
    assert ci.low <= 3 / 7 <= ci.high and ci.low < ci.high
    assert (ci.resamples, ci.clusters, ci.cluster, ci.level) == (2000, 4, "task", 0.95)
    # seeded: the same units give the same interval, to the last digit
    again = score_units(units(), CATS)
    assert again.kappa_with_abstention_ci == ci
    assert json.dumps(again.to_json()) == json.dumps(s.to_json())
    doc = s.to_json()["kappa_with_abstention_interval"]
    assert doc["value"] == round(3 / 7, 4) and doc["cluster"] == "task"
    assert {"value", "low", "high", "resamples"} <= doc.keys()
    # per category: not-model recall 3/4 (u3 abstained), precision 3/4 (u4)
    nm = next(c for c in s.categories if c.category == "not-model")
    assert nm.recall_ci is not None and nm.precision_ci is not None
    assert nm.recall_ci.low <= 0.75 <= nm.recall_ci.high
    assert nm.precision_ci.low <= 0.75 <= nm.precision_ci.high
    per_cat = s.to_json()["per_category"]["not-model"]
    assert per_cat["recall_interval"]["value"] == 0.75


def test_units_of_one_task_move_together() -> None:
    # the same eight units all in one task: one cluster, nothing to resample, no interval
    # (resampling the units one by one would pretend they were independent)
    one_task = [(u, "A", r, sug, c) for u, _t, r, sug, c in ROWS]
    s = score_units(units(one_task), CATS)
    assert s.kappa_with_abstention == pytest.approx(3 / 7)
    assert s.kappa_with_abstention_ci is None
    assert all(c.recall_ci is None for c in s.categories)
    assert s.to_json()["kappa_with_abstention_interval"] is None


def test_degenerate_sets_give_n_a_not_a_crash() -> None:
    # every unit the same class, answered the same: kappa is 0/0, in the data and in every
    # resample
    same = [(f"s{i}", "AB"[i % 2], "not-model", "not-model", 0.9) for i in range(6)]
    s = score_units(units(same), CATS)
    assert s.kappa_with_abstention is None and s.kappa_with_abstention_ci is None
    nm = next(c for c in s.categories if c.category == "not-model")
    assert nm.recall_ci is not None and (nm.recall_ci.low, nm.recall_ci.high) == (1.0, 1.0)
    # every unit abstained: kappa +none is 0 (po = pe = 0) in every resample; no covered
    # unit, so no calibration
    mute = [(f"m{i}", "AB"[i % 2], "other", None, 0.2) for i in range(4)]
    m = score_units(units(mute), CATS)
    assert m.kappa_with_abstention == 0.0 and m.ece is None and m.brier is None
    assert m.kappa_with_abstention_ci is not None
    assert (m.kappa_with_abstention_ci.low, m.kappa_with_abstention_ci.high) == (0.0, 0.0)
    empty = score_units([], CATS)
    assert empty.kappa_with_abstention_ci is None and empty.prevalence_rows() == []
    for score in (s, m, empty):
        json.dumps(score.to_json())
    text = format_score(ScoreReport(tuple(CATS), None, items=units(same)), Path("lab"),
                        Path("runs"), ["ana"])
    summary = next(ln for ln in text.splitlines() if ln.strip().startswith("all per root"))
    assert summary.split()[9] == "n/a"  # kappa +none


def test_hand_computed_ece_and_brier() -> None:
    s = score_units(units(), CATS)
    # covered units (u3 abstained) in the reliability bins:
    #   [0.55, 0.70): u4 0.60 wrong, u7 0.65 wrong  -> accuracy 0, mean conf 0.625: gap 0.625
    #   [0.70, 0.85): u2 0.80 right, u5 0.75 right  -> accuracy 1, mean conf 0.775: gap 0.225
    #   [0.85, 0.95): u1 0.90 right                 -> accuracy 1, mean conf 0.90:  gap 0.10
    #   [0.95, 1.00]: u6 0.96, u8 0.98, both right  -> accuracy 1, mean conf 0.97:  gap 0.03
    #   ECE = (2*0.625 + 2*0.225 + 1*0.10 + 2*0.03) / 7 = 1.86 / 7 = 0.265714...
    assert s.ece == pytest.approx(1.86 / 7, abs=1e-12)
    # Brier = mean (confidence - right)^2 over the 7 covered units:
    #   0.1^2 + 0.2^2 + 0.6^2 + 0.25^2 + 0.04^2 + 0.65^2 + 0.02^2
    #   = 0.01 + 0.04 + 0.36 + 0.0625 + 0.0016 + 0.4225 + 0.0004 = 0.897; / 7
    assert s.brier == pytest.approx(0.897 / 7, abs=1e-12)
    assert s.to_json()["calibration"] == {"covered": 7, "ece": round(1.86 / 7, 4),
                                          "brier": round(0.897 / 7, 4)}


def test_prevalence_on_the_scored_units_gives_back_the_reference() -> None:
    s = score_units(units(), CATS)
    rows = {c: (sug, cor, ref) for c, sug, cor, ref in s.prevalence_rows()}
    # naive: suggested not-model 4/8; corrected and reference: 4/8 (u1 u2 u3 u8)
    assert rows["not-model"][0] == pytest.approx(4 / 8)
    assert rows["other"] == pytest.approx((2 / 8, 2 / 8, 2 / 8))
    assert rows["dependency"][0] == pytest.approx(1 / 8)
    assert rows["dependency"][1] == pytest.approx(2 / 8, abs=1e-6)
    assert rows["dependency"][2] == pytest.approx(2 / 8)
    assert rows[NONE][0] == pytest.approx(1 / 8) and rows[NONE][1] is None
    assert rows["architectural"][1] is None  # no reference unit: not estimable
    prev = s.prevalence
    assert prev is not None and not prev.singular
    assert "architectural" in prev.no_reference
    # a new batch of 8 suggestions: 5 not-model, 2 other, 1 none. Measured on the units:
    #   true not-model -> suggested not-model 3/4, none 1/4
    #   true other     -> not-model 1/2, other 1/2
    #   true dependency-> dependency 1/2, other 1/2
    # half not-model, half other gives not-model 3/8 + 1/4 = 5/8, other 1/4, none 1/8: this
    # batch exactly, so the corrected shares are 1/2, 1/2, 0 (naive: 5/8, 2/8, 0)
    batch = s.corrected_prevalence(["not-model"] * 5 + ["other"] * 2 + [None])
    assert batch.batch == 8
    assert batch.estimate == pytest.approx({"not-model": 0.5, "other": 0.5, "dependency": 0.0},
                                           abs=1e-6)
    doc = s.to_json()["prevalence"]
    assert doc["per_category"]["other"] == {"suggested": 0.25, "corrected": 0.25,
                                            "reference": 0.25}
    assert "confusion" in doc["method"]


def test_text_shows_the_interval_the_ece_and_the_corrected_prevalence() -> None:
    report = ScoreReport(tuple(CATS), None, items=units())
    s = report.score("all", "per_root")
    ci = s.kappa_with_abstention_ci
    assert ci is not None
    text = format_score(report, Path("lab"), Path("runs"), ["ana"])
    summary = next(ln for ln in text.splitlines() if ln.strip().startswith("all per root"))
    assert f"0.429 ({ci.low:.2f}–{ci.high:.2f})" in summary
    assert "bootstrap interval, 2000 resamples of whole tasks" in text
    assert "Calibration: ECE 0.266" in text and "Brier 0.128" in text
    nm = next(ln for ln in text.splitlines() if ln.strip().startswith("not-model  ")
              and "%" in ln)
    assert "75.0% (" in nm
    assert "Prevalence (share of the 8 units)" in text
    dep = next(ln for ln in text.splitlines() if ln.split()[:1] == ["dependency"]
               and len(ln.split()) == 4)
    assert dep.split()[1:] == ["12.5%", "25.0%", "25.0%"]  # suggested, corrected, label
    assert "no reference unit (not estimable, taken as 0): architectural, cross-file" in text
