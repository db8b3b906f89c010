"""McNemar's exact test, the paired bootstrap, pass@k and pass^k against hand computation."""

from __future__ import annotations

from math import comb

import pytest

from inspector.model.figures.stats import (
    mcnemar_exact,
    paired_bootstrap_ci,
    pass_at_k,
    pass_hat_k,
)
from inspector.services.figures import metrics


@pytest.mark.parametrize(("b", "c", "p"), [
    # b=1, c=9: n=10, 2 * (C(10,0) + C(10,1)) / 2^10 = 22/1024
    (1, 9, 22 / 1024),
    (9, 1, 22 / 1024),
    # b=0, c=5: 2 * 1/32
    (0, 5, 0.0625),
    # b=2, c=8: 2 * (1 + 10 + 45) / 1024
    (2, 8, 112 / 1024),
    # balanced and empty: no evidence either way
    (3, 3, 1.0),
    (0, 0, 1.0),
    (1, 0, 1.0),
])
def test_mcnemar_exact_hand_values(b: int, c: int, p: float) -> None:
    result = mcnemar_exact(b, c)
    assert result.p_value == pytest.approx(p, abs=1e-12)
    assert (result.b, result.c, result.discordant) == (b, c, b + c)


def test_mcnemar_b1_c9_rounds_to_the_textbook_value() -> None:
    assert round(mcnemar_exact(1, 9).p_value, 4) == 0.0215


def test_mcnemar_is_exact_for_large_counts() -> None:
    # 2 * sum_{i<=300} C(700, i) / 2^700, checked with integer arithmetic independently
    tail = sum(comb(700, i) for i in range(301))
    assert mcnemar_exact(300, 400).p_value == pytest.approx(2 * tail / 2**700, rel=1e-12)
    assert mcnemar_exact(300, 400).p_value < 0.001


def test_mcnemar_rejects_negative_counts() -> None:
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 3)


def test_bootstrap_ci_matches_the_exact_bootstrap_distribution() -> None:
    # differences [1, 0, 0, 1, 0]: a resampled mean is X/5 with X ~ Binomial(5, 0.4).
    # P(X = 0) = 0.6^5 = 0.078 > 2.5 %, so the lower bound is 0; P(X <= 3) = 0.913 and
    # P(X <= 4) = 0.990, so the 97.5 % quantile is 4/5.
    a = [1.0, 1.0, 0.0, 1.0, 0.0]
    b = [0.0, 1.0, 0.0, 0.0, 0.0]
    ci = paired_bootstrap_ci(a, b, resamples=10_000, seed=7)
    assert ci.difference == pytest.approx(0.4)
    assert ci.low == 0.0
    assert ci.high == pytest.approx(0.8)
    assert ci.contains(0.4)
    assert (ci.pairs, ci.resamples, ci.seed, ci.level) == (5, 10_000, 7, 0.95)


def test_bootstrap_is_reproducible_with_its_seed() -> None:
    a = [0.9, 0.4, 0.75, 0.1, 0.6, 0.33, 0.8]
    b = [0.5, 0.5, 0.7, 0.0, 0.2, 0.4, 0.6]
    first = paired_bootstrap_ci(a, b, resamples=2_000, seed=3)
    again = paired_bootstrap_ci(a, b, resamples=2_000, seed=3)
    other = paired_bootstrap_ci(a, b, resamples=2_000, seed=4)
    assert first == again
    assert (first.low, first.high) != (other.low, other.high)
    true_difference = sum(a) / len(a) - sum(b) / len(b)
    assert first.low < true_difference < first.high


def test_bootstrap_of_identical_runs_is_a_point_at_zero() -> None:
    ci = paired_bootstrap_ci([0.5, 1.0, 0.0], [0.5, 1.0, 0.0], resamples=500)
    assert (ci.difference, ci.low, ci.high) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(("a", "b"), [([1.0], [1.0, 0.0]), ([], [])])
def test_bootstrap_needs_pairs(a: list[float], b: list[float]) -> None:
    with pytest.raises(ValueError):
        paired_bootstrap_ci(a, b)


@pytest.mark.parametrize(("n", "c", "k", "at", "hat"), [
    (5, 2, 1, 0.4, 0.4),
    # pass@2 = 1 - C(3,2)/C(5,2) = 1 - 3/10; pass^2 = C(2,2)/C(5,2) = 1/10
    (5, 2, 2, 0.7, 0.1),
    # pass@3 = 1 - C(3,3)/C(5,3) = 1 - 1/10; pass^3 = C(2,3) = 0
    (5, 2, 3, 0.9, 0.0),
    # k > n - c: every draw holds a pass
    (5, 2, 4, 1.0, 0.0),
    (3, 3, 3, 1.0, 1.0),
    (4, 0, 2, 0.0, 0.0),
    # pass^2 of 3 of 4: C(3,2)/C(4,2) = 3/6
    (4, 3, 2, 1.0, 0.5),
])
def test_pass_at_k_and_pass_hat_k_hand_values(n: int, c: int, k: int, at: float,
                                              hat: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(at)
    assert pass_hat_k(n, c, k) == pytest.approx(hat)


def test_metrics_uses_the_same_pass_at_k() -> None:
    assert metrics.pass_at_k is pass_at_k


@pytest.mark.parametrize(("n", "c", "k"), [(0, 0, 1), (3, 1, 0), (3, 1, 4), (3, 4, 1)])
def test_pass_at_k_rejects_impossible_arguments(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)
    with pytest.raises(ValueError):
        pass_hat_k(n, c, k)
