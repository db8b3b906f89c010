"""Statistics for comparing runs: McNemar's exact test, a paired bootstrap CI, pass@k, pass^k.

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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

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
