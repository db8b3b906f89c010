"""Statistics for runs: McNemar's exact test, bootstrap CIs, Wilson intervals, pass@k, pass^k.

Pure functions over plain numbers (no run objects):

* :func:`mcnemar_exact` — McNemar's exact test on paired binary outcomes: under H0 each of the
  ``b + c`` discordant pairs goes either way with probability 1/2, so the two-sided p-value is
  ``min(1, 2 * P(X <= min(b, c)))`` for ``X ~ Binomial(b + c, 1/2)`` (McNemar 1947,
  Psychometrika 12:153-157; the exact form e.g. Fagerland, Lydersen & Laake 2013, BMC Med.
  Res. Methodol. 13:91). Computed exactly with :func:`math.comb` — the sums are integers, so
  no SciPy dependency is needed and the result is exact for any ``n``.
* :func:`paired_bootstrap_ci` — percentile bootstrap CI of the mean of paired differences
  (Efron & Tibshirani 1993, *An Introduction to the Bootstrap*, ch. 13): resample the pairs
  with replacement, keep the ``(1-level)/2`` and ``(1+level)/2`` quantiles of the resampled
  means. NumPy's ``default_rng(seed)`` makes it reproducible.
* :func:`pass_at_k` — the unbiased estimator ``1 - C(n-c, k) / C(n, k)`` of Chen et al. 2021,
  "Evaluating Large Language Models Trained on Code" (arXiv:2107.03374), eq. 1: the chance that
  at least one of ``k`` samples drawn without replacement from ``n`` (``c`` correct) passes.
* :func:`pass_hat_k` — pass^k, ``C(c, k) / C(n, k)``: the chance that *all* ``k`` samples
  drawn without replacement pass (Yao et al. 2024, "τ-bench", arXiv:2406.12045, §5.1): a
  consistency measure that falls as ``k`` grows where pass@k rises.

Every headline figure with its uncertainty (:func:`pass_at_1_interval`,
:func:`score_interval`, both from per-task data, so the caller decides which samples count):

* :func:`wilson_interval` — the Wilson score interval for a proportion (Wilson 1927, JASA
  22:209-212; recommended over the Wald interval by Brown, Cai & DasGupta 2001, Statist. Sci.
  16:101-133): with ``z`` the normal quantile, ``p = x/n``,
  ``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``. Used for pass@1 when every task
  has one sample (pass@1 is then a proportion of tasks).
* :func:`cluster_bootstrap_ci` — a percentile bootstrap over clusters (tasks): tasks are
  resampled with replacement, each carrying all its samples, so samples of one task are never
  treated as independent (Davison & Hinkley 1997, *Bootstrap Methods and their Application*,
  §3.8; Field & Welsh 2007, JRSS B 69:369-390). Used for pass@1 with several samples per task
  (statistic: the mean of per-task pass rates) and for test pass (statistic: the mean
  per-sample test score over all the resampled tasks' samples). Seeded: reproducible.
* :func:`minimum_detectable_difference` — the smallest difference between two pass rates over
  ``n`` tasks a two-sided test at ``alpha`` finds with probability ``power``, by the normal
  approximation for two proportions (e.g. Chow, Shao & Wang 2008, *Sample Size Calculations
  in Clinical Research*, §4.2): ``(z_{1-alpha/2} + z_{power}) * sqrt(2 p (1 - p) / n)`` at
  the pooled rate ``p``. It ignores the pairing of tasks, which with positively correlated
  outcomes (the usual case: hard tasks are hard for both runs) only lowers the true
  difference detectable: a conservative figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb, sqrt
from statistics import NormalDist

DEFAULT_RESAMPLES = 10_000
DEFAULT_SEED = 0


def _check_nk(n: int, c: int, k: int) -> None:
    if k <= 0 or n <= 0 or k > n:
        raise ValueError(f"need 0 < k <= n, got n={n} k={k}")
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got n={n} c={c}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task with ``n`` samples of which ``c`` passed (Chen et al. 2021)."""
    _check_nk(n, c, k)
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k for one task: the chance that all of ``k`` of its ``n`` samples (``c`` passed),
    drawn without replacement, pass — ``C(c, k) / C(n, k)`` (τ-bench, Yao et al. 2024)."""
    _check_nk(n, c, k)
    return comb(c, k) / comb(n, k)


@dataclass(frozen=True, slots=True)
class McNemar:
    """McNemar's exact test on paired binary outcomes.

    ``b``: pairs where only the first passed; ``c``: pairs where only the second passed.
    """

    b: int
    c: int
    p_value: float

    @property
    def discordant(self) -> int:
        return self.b + self.c


def mcnemar_exact(b: int, c: int) -> McNemar:
    """Two-sided exact McNemar test: ``min(1, 2 * sum_{i<=min(b,c)} C(b+c, i) / 2^(b+c))``.

    No discordant pair (``b == c == 0``) gives p = 1: the data say nothing either way.
    """
    if b < 0 or c < 0:
        raise ValueError(f"counts must be >= 0, got b={b} c={c}")
    n = b + c
    if n == 0:
        return McNemar(b, c, 1.0)
    tail = sum(comb(n, i) for i in range(min(b, c) + 1))
    # exact rational arithmetic up to one final division (2**n is exact as an int)
    return McNemar(b, c, min(1.0, 2 * tail / 2**n))


@dataclass(frozen=True, slots=True)
class BootstrapCI:
    """Mean paired difference ``mean(a - b)`` with its percentile bootstrap interval."""

    difference: float
    low: float
    high: float
    level: float
    resamples: int
    seed: int
    pairs: int

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high


def paired_bootstrap_ci(a: Sequence[float], b: Sequence[float], *,
                        resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                        level: float = 0.95) -> BootstrapCI:
    """Percentile bootstrap CI of ``mean(a) - mean(b)`` over paired values (same index = same
    task): the pairs are resampled together, so the interval reflects the pairing.

    Deterministic for a given ``seed``. Raises :class:`ValueError` for unpaired or empty input.
    """
    if len(a) != len(b):
        raise ValueError(f"paired values needed: {len(a)} vs {len(b)}")
    if not a:
        raise ValueError("no pairs to resample")
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples}")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
    import numpy as np  # here: only the bootstrap needs it (start-up time of the CLI and app)

    diffs = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    n = len(diffs)
    rng = np.random.default_rng(seed)
    means = np.empty(resamples, dtype=np.float64)
    chunk = max(1, 2_000_000 // n)  # bound the index matrix to ~16 MB whatever n is
    for start in range(0, resamples, chunk):
        stop = min(resamples, start + chunk)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = diffs[idx].mean(axis=1)
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return BootstrapCI(float(diffs.mean()), float(low), float(high), level, resamples, seed, n)


CI_LEVEL = 0.95
CI_RESAMPLES = 2_000
"""Resamples of the per-run intervals (the percentile ends move by < 0.5 pp beyond this)."""
NO_SCORED = "no interval: no sample counted a test"
WILSON = "Wilson"
BOOTSTRAP = "bootstrap over tasks"


def _z(level: float) -> float:
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


def wilson_interval(successes: int, n: int, level: float = CI_LEVEL) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``successes / n`` (Wilson 1927)."""
    if n <= 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n > 0, got {successes}/{n}")
    z = _z(level)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * sqrt(p * (1.0 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def cluster_bootstrap_ci(clusters: Sequence[Sequence[float]], *, mean_of_means: bool = False,
                         resamples: int = CI_RESAMPLES, seed: int = DEFAULT_SEED,
                         level: float = CI_LEVEL) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean of ``clusters``' values, resampling whole clusters
    (tasks) with replacement. The statistic: the mean over every value of the drawn clusters,
    or with ``mean_of_means`` the mean of the drawn clusters' own means. Deterministic for a
    ``seed``; raises :class:`ValueError` without a non-empty cluster."""
    kept = [c for c in clusters if len(c)]
    if not kept:
        raise ValueError("no cluster to resample")
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples}")
    _z(level)
    import numpy as np  # here: only the bootstrap needs it (start-up time of the CLI and app)

    sums = np.array([float(sum(c)) for c in kept])
    counts = np.array([float(len(c)) for c in kept])
    means = sums / counts
    n = len(kept)
    rng = np.random.default_rng(seed)
    stats = np.empty(resamples, dtype=np.float64)
    chunk = max(1, 2_000_000 // n)
    for start in range(0, resamples, chunk):
        stop = min(resamples, start + chunk)
        idx = rng.integers(0, n, size=(stop - start, n))
        stats[start:stop] = (means[idx].mean(axis=1) if mean_of_means
                             else sums[idx].sum(axis=1) / counts[idx].sum(axis=1))
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(stats, [alpha, 1.0 - alpha])
    return float(low), float(high)


@dataclass(frozen=True, slots=True)
class Interval:
    """A figure's ``level`` interval [``low``, ``high``], how it was made, over what."""

    low: float
    high: float
    method: str
    tasks: int
    samples: int
    level: float = CI_LEVEL

    def describe(self) -> str:
        """``95% CI 21.5–78.5%, Wilson, n=8 tasks`` (``, 24 samples`` when they differ)."""
        n = f"n={self.tasks} task{'s' * (self.tasks != 1)}"
        if self.samples != self.tasks:
            n += f", {self.samples} samples"
        return (f"{self.level * 100:.0f}% CI {self.low * 100:.1f}–{self.high * 100:.1f}%, "
                f"{self.method}, {n}")

    def __str__(self) -> str:
        return self.describe()


def figure_with_interval(value: float, ci: Interval | None, missing: str = "") -> str:
    """``50.0% (95% CI 21.5–78.5%, Wilson, n=8 tasks)``; without an interval the figure and
    ``(missing)`` when given."""
    if ci is not None:
        return f"{value * 100:.1f}% ({ci.describe()})"
    return f"{value * 100:.1f}%" + (f" ({missing})" if missing else "")


def pass_at_1_interval(per_task: Sequence[tuple[int, int]], *, level: float = CI_LEVEL,
                       resamples: int = CI_RESAMPLES, seed: int = DEFAULT_SEED
                       ) -> Interval | None:
    """The interval of pass@1 (the mean over tasks of ``c / n``) from each task's ``(n, c)``:
    Wilson when every task has one sample, else the bootstrap over tasks. None without a
    task."""
    tasks = [(n, c) for n, c in per_task if n > 0]
    if not tasks:
        return None
    samples = sum(n for n, _ in tasks)
    if all(n == 1 for n, _ in tasks):
        low, high = wilson_interval(sum(c for _, c in tasks), len(tasks), level)
        method = WILSON
    else:
        low, high = cluster_bootstrap_ci([[1.0] * c + [0.0] * (n - c) for n, c in tasks],
                                         mean_of_means=True, resamples=resamples, seed=seed,
                                         level=level)
        method = BOOTSTRAP
    return Interval(round(low, 4), round(high, 4), method, len(tasks), samples, level)


def score_interval(scores_by_task: Sequence[Sequence[float]], *,
                       level: float = CI_LEVEL, resamples: int = CI_RESAMPLES,
                       seed: int = DEFAULT_SEED) -> Interval | None:
    """The interval of the test pass figure (the mean per-sample test score over the scored
    samples) by the bootstrap over tasks, each with its samples' scores. None without one."""
    kept = [list(c) for c in scores_by_task if len(c)]
    if not kept:
        return None
    low, high = cluster_bootstrap_ci(kept, resamples=resamples, seed=seed, level=level)
    return Interval(round(low, 4), round(high, 4), BOOTSTRAP, len(kept),
                    sum(len(c) for c in kept), level)


def minimum_detectable_difference(n: int, rate: float, *, alpha: float = 0.05,
                                  power: float = 0.8) -> float:
    """The smallest difference of two pass rates near ``rate`` that ``n`` tasks detect
    (two-sided ``alpha``, ``power``): ``(z_{1-alpha/2} + z_power) sqrt(2 p(1-p) / n)``.
    ``rate`` 0 or 1 (no outcome varied) is taken as 0.5, the widest case."""
    if n <= 0:
        raise ValueError(f"need n > 0 tasks, got {n}")
    if not 0.0 <= rate <= 1.0 or not 0.0 < alpha < 1.0 or not 0.0 < power < 1.0:
        raise ValueError(f"need rate in [0, 1], alpha and power in (0, 1): {rate} {alpha} "
                         f"{power}")
    p = rate if 0.0 < rate < 1.0 else 0.5
    z = NormalDist().inv_cdf(1.0 - alpha / 2.0) + NormalDist().inv_cdf(power)
    return z * sqrt(2.0 * p * (1.0 - p) / n)
