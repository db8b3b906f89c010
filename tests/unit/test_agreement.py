"""Inter-annotator agreement: every figure checked against arithmetic done by hand below."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.model.labels.agreement import (
    NA_NOTE,
    AgreementReport,
    CategoryAgreement,
    Disagreement,
    PairAgreement,
    agreement,
    category_alpha,
    cohen_kappa,
    format_agreement,
    krippendorff_alpha,
)


def approx(value: float) -> object:
    return pytest.approx(value, abs=1e-9)


# --------------------------------------------------------------------------- Cohen's kappa

def test_kappa_classic_two_by_two() -> None:
    #              b=yes  b=no
    #   a=yes        20     5    -> a says yes 25/50 = 0.5
    #   a=no         10    15    -> a says no  25/50 = 0.5
    #   b: yes 30/50 = 0.6, no 20/50 = 0.4
    # po = (20 + 15) / 50 = 0.7
    # pe = 0.5*0.6 + 0.5*0.4 = 0.3 + 0.2 = 0.5
    # kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
    pairs = ([("yes", "yes")] * 20 + [("yes", "no")] * 5 + [("no", "yes")] * 10
             + [("no", "no")] * 15)
    assert cohen_kappa(pairs) == approx(0.4)


def test_kappa_three_categories() -> None:
    #            b=x  b=y  b=z | a
    #   a=x        3    1    0 | 4
    #   a=y        0    2    1 | 3
    #   a=z        1    0    2 | 3
    #   b          4    3    3 | n = 10
    # po = (3 + 2 + 2) / 10 = 0.7
    # pe = 0.4*0.4 + 0.3*0.3 + 0.3*0.3 = 0.16 + 0.09 + 0.09 = 0.34
    # kappa = (0.7 - 0.34) / (1 - 0.34) = 0.36 / 0.66 = 6/11 = 0.5454...
    pairs = ([("x", "x")] * 3 + [("x", "y")] + [("y", "y")] * 2 + [("y", "z")]
             + [("z", "x")] + [("z", "z")] * 2)
    assert cohen_kappa(pairs) == approx(6 / 11)


def test_kappa_edge_cases() -> None:
    # perfect agreement over two categories: po = 1, pe = 0.5*0.5 + 0.5*0.5 = 0.5 -> 1
    assert cohen_kappa([("x", "x"), ("y", "y")]) == approx(1.0)
    # no pairs: undefined
    assert cohen_kappa([]) is None
    # both raters always "x": po = 1, pe = 1*1 = 1 -> 0/0, undefined
    assert cohen_kappa([("x", "x")] * 5) is None
    # one rater always "x", the other not: pe = 1*0.5 = 0.5, po = 0.5 -> 0
    assert cohen_kappa([("x", "x"), ("x", "y")]) == approx(0.0)
    # total disagreement, swapped: po = 0, pe = 0.5*0.5*2 = 0.5 -> (0 - 0.5)/0.5 = -1
    assert cohen_kappa([("x", "y"), ("y", "x")]) == approx(-1.0)


# ------------------------------------------------------------------- Krippendorff's alpha

# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers,
# 12 units, values 1..5, "*" missing. Unit 12 has one value only, so it is not pairable.
_PAPER = {
    "A": "1 2 3 3 2 1 4 1 2 * * *",
    "B": "1 2 3 3 2 2 4 1 2 5 * 3",
    "C": "* 3 3 3 2 3 4 2 2 5 1 *",
    "D": "1 2 3 3 2 4 4 1 2 5 1 *",
}
PAPER = {
    f"u{unit + 1:02d}": {obs: row.split()[unit] for obs, row in _PAPER.items()
                         if row.split()[unit] != "*"}
    for unit in range(12)
}


def pairwise_alpha(ratings: dict[str, dict[str, str]]) -> float | None:
    """A second, independent formulation: average pairwise disagreement.

    Do = (1/n) * sum_u 1/(m_u - 1) * #(ordered pairs of values in u that differ)
    De = 1/(n(n-1)) * #(ordered pairs of pairable values, any units, that differ)
    """
    units = [list(by.values()) for by in ratings.values() if len(by) >= 2]
    values = [v for unit in units for v in unit]
    n = len(values)
    if n == 0:
        return None
    do = sum(sum(1 for x, y in permutations(unit, 2) if x != y) / (len(unit) - 1)
             for unit in units) / n
    de = sum(1 for x, y in permutations(values, 2) if x != y) / (n * (n - 1))
    return None if de == 0 else 1 - do / de


def test_alpha_paper_example() -> None:
    # Values per pairable unit: 3 + 4*8 + 3 + 2 = 40 = n (unit 12 drops out).
    # The paper's coincidence matrix has diagonal o_11..o_55 = 7, 10, 8, 4, 3 (sum 32) and
    # marginals n_c = 9, 13, 10, 5, 3 (sum 40), so
    #   sum_{c!=k} o_ck     = 40 - 32 = 8
    #   sum_{c!=k} n_c n_k  = 40^2 - (81 + 169 + 100 + 25 + 9) = 1600 - 384 = 1216
    #   alpha = 1 - (40 - 1) * 8 / 1216 = 1 - 312/1216 = 904/1216 = 0.74342...
    assert krippendorff_alpha(PAPER) == pytest.approx(0.743, abs=0.001)
    assert krippendorff_alpha(PAPER) == approx(904 / 1216)
    assert pairwise_alpha(PAPER) == approx(904 / 1216)
    report = agreement(PAPER, ["1", "2", "3", "4", "5"])
    assert report.alpha_values == 40
    assert report.items == 11 and report.total_items == 12


def test_alpha_tiny_example_by_hand() -> None:
    # u1: x x      m=2: ordered x-x pairs 2, /(2-1)  -> o_xx += 2
    # u2: x y      m=2: x-y 1, y-x 1, /1             -> o_xy += 1, o_yx += 1
    # u3: y y y    m=3: ordered y-y pairs 6, /(3-1)  -> o_yy += 3
    # n_x = 3, n_y = 4, n = 7
    # sum_{c!=k} o = 2;  sum_{c!=k} n_c n_k = 2 * 3 * 4 = 24
    # alpha = 1 - (7 - 1) * 2 / 24 = 1 - 0.5 = 0.5
    ratings = {"u1": {"a": "x", "b": "x"}, "u2": {"a": "x", "b": "y"},
               "u3": {"a": "y", "b": "y", "c": "y"}}
    assert krippendorff_alpha(ratings) == approx(0.5)
    assert pairwise_alpha(ratings) == approx(0.5)


def test_alpha_edge_cases() -> None:
    # perfect agreement over two categories: Do = 0 -> alpha = 1
    assert krippendorff_alpha({"u1": {"a": "x", "b": "x"}, "u2": {"a": "y", "b": "y"}}) == 1
    # every value the same category: De = 0 -> undefined
    assert krippendorff_alpha({"u1": {"a": "x", "b": "x"}, "u2": {"a": "x", "b": "x"}}) is None
    # no unit with two values: nothing pairable -> undefined
    assert krippendorff_alpha({"u1": {"a": "x"}, "u2": {"b": "y"}}) is None
    assert krippendorff_alpha({}) is None
    # one unit, two different values: n = 2, o_xy = o_yx = 1, sum n_c n_k = 2*1*1 = 2
    # alpha = 1 - 1 * 2 / 2 = 0
    assert krippendorff_alpha({"u1": {"a": "x", "b": "y"}}) == approx(0.0)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(
    st.text("uvw", min_size=1, max_size=3),
    st.dictionaries(st.sampled_from("abcd"), st.sampled_from("xyz"), max_size=4),
    max_size=8))
def test_alpha_matches_pairwise_formulation(ratings: dict[str, dict[str, str]]) -> None:
    ours, theirs = krippendorff_alpha(ratings), pairwise_alpha(ratings)
    assert (ours is None) == (theirs is None)
    if ours is not None:
        assert ours == approx(theirs)


# --------------------------------------------------------------------------- the report

# i1: ana=x ben=x    i2: ana=x ben=y    i3: ana=z ben=z    (shared)
# i4: ana=x (alone)  i5: cat=q (alone; q is not in the taxonomy)
SMALL = {
    "i3": {"ben": "z", "ana": "z"},
    "i1": {"ana": "x", "ben": "x"},
    "i2": {"ben": "y", "ana": "x"},
    "i4": {"ana": "x"},
    "i5": {"cat": "q"},
}
TAXONOMY = ["x", "y", "z", "w"]


def test_category_alpha_by_hand() -> None:
    # Shared units binarised to (is x?):  i1 (1,1)  i2 (1,0)  i3 (0,0)
    #   n_1 = 3, n_0 = 3, n = 6; o_10 = o_01 = 1 (from i2) -> sum_{c!=k} o = 2
    #   sum_{c!=k} n_c n_k = 2 * 3 * 3 = 18;  alpha = 1 - 5 * 2 / 18 = 4/9
    assert category_alpha(SMALL, "x") == approx(4 / 9)
    # (is y?): i1 (0,0) i2 (0,1) i3 (0,0): n_1 = 1, n_0 = 5; sum o = 2; 2*1*5 = 10
    #   alpha = 1 - 5 * 2 / 10 = 0
    assert category_alpha(SMALL, "y") == approx(0.0)
    # (is z?): i1 (0,0) i2 (0,0) i3 (1,1): no off-diagonal coincidences -> alpha = 1
    assert category_alpha(SMALL, "z") == approx(1.0)
    # (is w?): all 0 -> De = 0 -> undefined
    assert category_alpha(SMALL, "w") is None


def test_report_small() -> None:
    report = agreement(SMALL, TAXONOMY)
    assert report.annotators == {"ana": 4, "ben": 3, "cat": 1}
    assert list(report.annotators) == ["ana", "ben", "cat"]
    assert report.items == 3 and report.total_items == 5
    # ana/ben over i1..i3: (x,x) (x,y) (z,z); po = 2/3
    #   ana: x 2/3, z 1/3;  ben: x, y, z 1/3 each
    #   pe = 2/3*1/3 + 0*1/3 + 1/3*1/3 = 3/9 = 1/3
    #   kappa = (2/3 - 1/3) / (1 - 1/3) = 0.5
    assert report.pairs == [
        PairAgreement("ana", "ben", items=3, agreed=2, observed=approx(2 / 3),
                      kappa=approx(0.5)),
        PairAgreement("ana", "cat", items=0, agreed=0, observed=None, kappa=None),
        PairAgreement("ben", "cat", items=0, agreed=0, observed=None, kappa=None),
    ]
    # Overall alpha on the shared items: n_x = 3, n_y = 1, n_z = 2, n = 6
    #   sum_{c!=k} o = o_xy + o_yx = 2
    #   sum_{c!=k} n_c n_k = 2 * (3*1 + 3*2 + 1*2) = 22
    #   alpha = 1 - 5 * 2 / 22 = 12/22 = 6/11
    assert report.alpha == approx(6 / 11)
    assert report.alpha_values == 6
    # labels: ratings on shared items (i4's x does not count); items: >= 1 chose it;
    # agreed: all chose it. q is appended after the taxonomy's own ids.
    assert report.per_category == [
        CategoryAgreement("x", labels=3, items=2, agreed=1, alpha=approx(4 / 9)),
        CategoryAgreement("y", labels=1, items=1, agreed=0, alpha=approx(0.0)),
        CategoryAgreement("z", labels=2, items=1, agreed=1, alpha=approx(1.0)),
        CategoryAgreement("w", labels=0, items=0, agreed=0, alpha=None),
        CategoryAgreement("q", labels=0, items=0, agreed=0, alpha=None),
    ]
    assert report.disagreements == [Disagreement("i2", {"ana": "x", "ben": "y"})]
    assert list(report.disagreements[0].ratings) == ["ana", "ben"]


def test_unknown_categories_appended_sorted() -> None:
    ratings = {"i1": {"a": "zeta", "b": "beta"}, "i2": {"a": "x", "b": "alpha"}}
    report = agreement(ratings, ["x", "y"])
    assert [c.category for c in report.per_category] == ["x", "y", "alpha", "beta", "zeta"]


def test_perfect_agreement() -> None:
    ratings = {"i1": {"a": "x", "b": "x"}, "i2": {"a": "y", "b": "y"},
               "i3": {"a": "x", "b": "x"}}
    report = agreement(ratings, ["x", "y"])
    assert report.pairs[0].kappa == approx(1.0)
    assert report.pairs[0].observed == approx(1.0)
    assert report.alpha == approx(1.0)
    assert report.disagreements == []
    assert [c.alpha for c in report.per_category] == [approx(1.0), approx(1.0)]


def test_all_one_category_is_undefined() -> None:
    ratings = {"i1": {"a": "x", "b": "x"}, "i2": {"a": "x", "b": "x"}}
    report = agreement(ratings, ["x", "y"])
    assert report.pairs[0].observed == approx(1.0)
    assert report.pairs[0].kappa is None
    assert report.alpha is None and report.alpha_values == 4
    assert report.per_category[0] == CategoryAgreement("x", 4, 2, 2, None)
    assert report.per_category[1] == CategoryAgreement("y", 0, 0, 0, None)
    assert NA_NOTE in format_agreement(report)


def test_no_shared_items() -> None:
    ratings = {"i1": {"a": "x"}, "i2": {"b": "y"}}
    report = agreement(ratings, ["x", "y"])
    assert report.items == 0 and report.total_items == 2
    assert report.annotators == {"a": 1, "b": 1}
    assert report.pairs == [PairAgreement("a", "b", 0, 0, None, None)]
    assert report.alpha is None and report.alpha_values == 0
    assert report.disagreements == []
    assert all(c.alpha is None and c.labels == 0 for c in report.per_category)


def test_empty() -> None:
    report = agreement({}, [])
    assert report == AgreementReport({}, 0, 0, [], None, 0, [], [])
    text = format_agreement(report)
    assert text.startswith("0 shared items (0 labelled by anyone), 0 annotators\n")


def test_disagreements_sorted_by_item() -> None:
    ratings = {
        "s10": {"b": "x", "a": "y"},
        "s02": {"a": "x", "b": "x", "c": "y"},
        "s05": {"a": "x", "b": "x", "c": "x"},
        "s01": {"c": "z", "a": "x"},
        "s00": {"a": "x"},
    }
    report = agreement(ratings, ["x", "y", "z"])
    assert [d.item for d in report.disagreements] == ["s01", "s02", "s10"]
    assert report.disagreements[0].ratings == {"a": "x", "c": "z"}
    assert [list(d.ratings) for d in report.disagreements] == [
        ["a", "c"], ["a", "b", "c"], ["a", "b"]]


def test_to_json() -> None:
    data = agreement(SMALL, TAXONOMY).to_json()
    assert list(data) == ["items", "total_items", "annotators", "cohen_kappa",
                          "krippendorff_alpha", "disagreements"]
    assert data["items"] == 3 and data["total_items"] == 5
    assert data["annotators"] == {"ana": 4, "ben": 3, "cat": 1}
    # 2/3 -> 0.6667, 6/11 = 0.545454... -> 0.5455, 4/9 = 0.4444...
    assert data["cohen_kappa"][0] == {"a": "ana", "b": "ben", "items": 3, "agreed": 2,
                                      "observed": 0.6667, "kappa": 0.5}
    assert data["cohen_kappa"][1] == {"a": "ana", "b": "cat", "items": 0, "agreed": 0,
                                      "observed": None, "kappa": None}
    kalpha = data["krippendorff_alpha"]
    assert kalpha["overall"] == 0.5455 and kalpha["values"] == 6
    assert list(kalpha["per_category"]) == ["x", "y", "z", "w", "q"]
    assert kalpha["per_category"]["x"] == {"alpha": 0.4444, "labels": 3, "items": 2,
                                           "agreed": 1}
    assert kalpha["per_category"]["w"] == {"alpha": None, "labels": 0, "items": 0,
                                           "agreed": 0}
    assert data["disagreements"] == [{"item": "i2", "ratings": {"ana": "x", "ben": "y"}}]
    text = json.dumps(data)
    assert '"kappa": null' in text and "NaN" not in text


def test_format_agreement() -> None:
    report = agreement(SMALL, TAXONOMY)
    text = format_agreement(report, {"x": "Cross-file", "y": "Dependency", "z": "Other"})
    assert text == (
        "3 shared items (5 labelled by anyone), 3 annotators: ana (4), ben (3), cat (1)\n"
        "\n"
        "Cohen's kappa\n"
        "  pair       items  agreed  observed  kappa\n"
        "  ana / ben      3       2     66.7%  0.500\n"
        "  ana / cat      0       0       n/a    n/a\n"
        "  ben / cat      0       0       n/a    n/a\n"
        "\n"
        "Krippendorff's alpha: 0.545 (6 values)\n"
        "\n"
        "Per category\n"
        "  category    labels  items  all agree  alpha\n"
        "  Cross-file       3      2          1  0.444\n"
        "  Dependency       1      1          0  0.000\n"
        "  Other            2      1          1  1.000\n"
        "  w                0      0          0    n/a\n"
        "  q                0      0          0    n/a\n"
        "\n"
        "Disagreements (1)\n"
        "  i2: ana=x, ben=y\n"
        "\n"
        f"{NA_NOTE}\n"
    )


def test_format_agreement_plain_and_aligned() -> None:
    report = agreement(PAPER, ["1", "2", "3", "4", "5"])
    text = format_agreement(report)
    assert "\x1b" not in text
    assert text.splitlines()[0] == (
        "11 shared items (12 labelled by anyone), 4 annotators: A (9), B (11), C (10), D (11)")
    assert "Krippendorff's alpha: 0.743 (40 values)" in text
    assert "  u06: A=1, B=2, C=3, D=4" in text
    assert NA_NOTE not in text  # nothing undefined, so no footnote
    lines = text.splitlines()
    start = lines.index("Cohen's kappa") + 1
    table = lines[start:start + 7]
    assert len({len(line) for line in table}) == 1  # right-aligned columns end together
    assert table[0].split() == ["pair", "items", "agreed", "observed", "kappa"]


def test_labels_per_annotator_count_single_items() -> None:
    ratings = {"i1": {"a": "x", "b": "x"}, "i2": {"a": "y"}, "i3": {"a": "y"}}
    report = agreement(ratings, ["x", "y"])
    assert report.annotators == Counter(a=3, b=1)
    assert report.items == 1
