"""Intervals for the headline figures (:mod:`inspector.model.figures.stats`): hand-checked values,
reproducibility, and coverage on simulated runs."""

from __future__ import annotations

import random

import pytest

from inspector.model.figures.stats import (
    BOOTSTRAP,
    WILSON,
    cluster_bootstrap_ci,
    figure_with_interval,
    minimum_detectable_difference,
    pass_at_1_interval,
    score_interval,
    wilson_interval,
)


@pytest.mark.parametrize(("x", "n", "low", "high"), [
    (4, 8, 0.2152, 0.7848),  # (0.5 ± 1.96/1.4802 * sqrt(0.03125 + 0.01501)) -> ±0.2848
    (0, 6, 0.0, 0.3903),  # z²/(n + z²) = 3.8415 / 9.8415
    (6, 6, 0.6097, 1.0),
    (1, 10, 0.0179, 0.4042),  # Brown, Cai & DasGupta 2001 style check, by hand
])
def test_wilson_by_hand(x: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(x, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_one_sample_per_task_is_a_proportion_with_wilson() -> None:
    ci = pass_at_1_interval([(1, 1)] * 4 + [(1, 0)] * 4)
    assert ci is not None and (ci.low, ci.high, ci.method, ci.tasks) == \
        (0.2152, 0.7848, WILSON, 8)
    assert figure_with_interval(0.5, ci) == "50.0% (95% CI 21.5–78.5%, Wilson, n=8 tasks)"
    assert pass_at_1_interval([]) is None and score_interval([[], []]) is None


def test_several_samples_per_task_bootstrap_over_tasks_reproducibly() -> None:
    per_task = [(3, 3), (3, 0), (3, 1), (3, 2), (3, 3), (3, 0)]
    a = pass_at_1_interval(per_task, resamples=500, seed=7)
    b = pass_at_1_interval(per_task, resamples=500, seed=7)
    assert a == b and a is not None and a.method == BOOTSTRAP
    assert (a.tasks, a.samples) == (6, 18)
    assert a.low < 0.5 < a.high
    assert a.describe().endswith("bootstrap over tasks, n=6 tasks, 18 samples")
    # clustered: a task's three samples move together, so the interval is wider than treating
    # the 18 samples as independent
    flat = cluster_bootstrap_ci([[float(x)] for n, c in per_task
                                 for x in [1] * c + [0] * (n - c)], resamples=500, seed=7)
    assert a.high - a.low > flat[1] - flat[0]


def test_a_task_that_is_always_right_or_wrong_gives_no_spread() -> None:
    assert cluster_bootstrap_ci([[1.0, 1.0], [1.0]], resamples=50) == (1.0, 1.0)
    ci = score_interval([[0.5, 1.0], [0.2]], resamples=300, seed=1)
    assert ci is not None and (ci.tasks, ci.samples) == (2, 3)
    assert 0.2 <= ci.low <= ci.high <= 1.0


def test_coverage_of_the_intervals_on_simulated_runs() -> None:
    """Near 95% of intervals over runs drawn with a known rate hold it (Wilson on 40 tasks;
    the task bootstrap, a little liberal on small samples, on 40 tasks of 3 samples)."""
    rng = random.Random(3)
    wilson_hits = boot_hits = 0
    trials = 150
    for i in range(trials):
        x = sum(rng.random() < 0.3 for _ in range(40))
        lo, hi = wilson_interval(x, 40)
        wilson_hits += lo <= 0.3 <= hi
        # tasks of differing difficulty: the true pass@1 is the mean difficulty, 0.4
        per_task = []
        for _ in range(40):
            p = rng.choice([0.1, 0.4, 0.7])
            per_task.append((3, sum(rng.random() < p for _ in range(3))))
        ci = pass_at_1_interval(per_task, resamples=400, seed=i)
        assert ci is not None
        boot_hits += ci.low <= 0.4 <= ci.high
    assert 0.89 <= wilson_hits / trials <= 0.995
    assert 0.85 <= boot_hits / trials <= 0.995


def test_minimum_detectable_difference_by_hand() -> None:
    # (1.959964 + 0.841621) * sqrt(2 * 0.5 * 0.5 / 30) = 2.801585 * 0.129099 = 0.36168
    assert minimum_detectable_difference(30, 0.5) == pytest.approx(0.36168, abs=1e-5)
    # at 20%: 2.801585 * sqrt(0.32 / 30) = 0.28935; 20% vs 27% is well inside it
    assert minimum_detectable_difference(30, 0.2) == pytest.approx(0.28935, abs=1e-5)
    assert minimum_detectable_difference(30, 0.0) == minimum_detectable_difference(30, 0.5)
    with pytest.raises(ValueError):
        minimum_detectable_difference(0, 0.5)
