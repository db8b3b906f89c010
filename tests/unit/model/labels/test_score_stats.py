"""Prevalence corrected for a known confusion (inspector/model/labels/score_stats.py)."""

from __future__ import annotations

import pytest

from inspector.model.labels.score_stats import corrected_prevalence

ROWS = ("dependency", "not-model", "other")
COLUMNS = ("dependency", "not-model", "other", "none")
# P(suggested | true), each row from 100 scored units: the engine calls a fifth of true
# dependency failures "other", abstains on a fifth of not-model ones and often calls "other"
# not-model.
CONFUSION = ((80, 0, 20, 0),
             (0, 70, 10, 20),
             (10, 40, 40, 10))
TRUE = {"dependency": 0.5, "not-model": 0.3, "other": 0.2}


def observed_counts(true: dict[str, float], n: int = 1000) -> dict[str, float]:
    """What a batch of ``n`` units with the ``true`` shares is suggested as, in expectation:
    q_j = sum_i true_i * P(j | i)."""
    return {c: n * sum(true[r] * CONFUSION[i][j] / 100 for i, r in enumerate(ROWS))
            for j, c in enumerate(COLUMNS)}


def test_recovers_true_prevalence_from_a_known_confusion() -> None:
    q = observed_counts(TRUE)
    # the naive shares are off: dependency 420/1000 (true 500), not-model 290 (300),
    # other 210 (200), none 80
    assert q["dependency"] == pytest.approx(420) and q["not-model"] == pytest.approx(290)
    prev = corrected_prevalence(ROWS, COLUMNS, CONFUSION, q)
    assert prev.batch == 1000 and prev.rank == 3 and not prev.singular
    for c, share in TRUE.items():
        assert prev.estimate[c] == pytest.approx(share, abs=1e-6)
    assert prev.residual == pytest.approx(0.0, abs=1e-6)
    assert prev.notes == ()
    # another mix, with one category absent
    other_mix = {"dependency": 0.0, "not-model": 0.75, "other": 0.25}
    prev = corrected_prevalence(ROWS, COLUMNS, CONFUSION, observed_counts(other_mix))
    for c, share in other_mix.items():
        assert prev.estimate[c] == pytest.approx(share, abs=1e-6)


def test_estimates_stay_shares_when_the_batch_does_not_fit() -> None:
    # only abstentions: the unconstrained inverse would make not-model > 1 and others < 0
    prev = corrected_prevalence(ROWS, COLUMNS, CONFUSION, {"none": 50})
    assert all(0.0 <= v <= 1.0 for v in prev.estimate.values())
    assert sum(prev.estimate.values()) == pytest.approx(1.0)
    assert max(prev.estimate, key=prev.estimate.__getitem__) == "not-model"
    assert prev.residual > 0.1


def test_says_when_it_cannot_tell() -> None:
    # "other" and "not-model" are suggested alike: the matrix is singular
    alike = ((80, 0, 20, 0), (0, 50, 30, 20), (0, 50, 30, 20), (0, 0, 0, 0))
    rows = (*ROWS, "architectural")
    prev = corrected_prevalence(rows, COLUMNS, alike,
                                {"dependency": 8, "not-model": 5, "other": 5, "none": 2,
                                 "cross-file": 1})
    assert prev.singular and prev.rank == 2
    assert prev.no_reference == ("architectural",) and "architectural" not in prev.estimate
    assert prev.unexplained == ("cross-file",)
    notes = " | ".join(prev.notes)
    assert "singular (rank 2 of 3" in notes
    assert "no reference unit (not estimable, taken as 0): architectural" in notes
    assert "never on the scored units (unexplained): cross-file" in notes
    assert sum(prev.estimate.values()) == pytest.approx(1.0)
    empty = corrected_prevalence(ROWS, COLUMNS, CONFUSION, {})
    assert empty.estimate == {} and "the batch is empty" in empty.notes[0]
