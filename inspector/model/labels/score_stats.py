"""The uncertainty of suggestion scores: bootstrap intervals, calibration, corrected prevalence.

Pure functions over plain counts (no label or triage objects):

* :func:`bootstrap_confusions` — a percentile bootstrap over clusters (tasks): the clusters
  are drawn with replacement, each carrying all its ``(reference, suggested)`` pairs, so units
  of one task (the roots of one task share its README and its suite) are never treated as
  independent (Davison & Hinkley 1997, *Bootstrap Methods and their Application*, §3.8).
  Seeded: the same input gives the same interval. :func:`kappa_interval`,
  :func:`recall_interval` and :func:`precision_interval` read the resampled confusion
  matrices; a resample where the figure is undefined (kappa's chance agreement perfect, no
  unit of the category) is left out and counted. Fewer than two clusters: no interval.
* :func:`expected_calibration_error` — ``sum_b n_b / N * |accuracy_b - mean confidence_b|``
  over the reliability bins (Naeini, Cooper & Hauskrecht 2015, AAAI; Guo et al. 2017, ICML);
  :func:`brier_score` — ``mean (confidence - correct)^2`` (Brier 1950).
* :func:`corrected_prevalence` — each reference category's share in a batch of suggestions,
  corrected for the measured confusion ("adjusted classify and count", Forman 2008, Data Min.
  Knowl. Disc. 17:164-206; the matrix method for misclassified categories): with
  ``P[i][j] = P(suggested j | reference i)`` from scored units and ``q`` the batch's observed
  suggestion shares (``none`` included), the estimate ``pi`` minimises ``|P^T pi - q|^2`` over
  the probability simplex (``pi >= 0``, ``sum pi = 1``). When ``P^T`` is invertible and the
  shares fit exactly this is ``pi = (P^T)^-1 q``. It assumes the confusion measured on the
  scored units holds for the batch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

BOOT_RESAMPLES = 2_000
BOOT_SEED = 0
BOOT_LEVEL = 0.95
CLUSTER = "task"


def _r4(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


# ------------------------------------------------------------------------------- bootstrap

@dataclass(frozen=True, slots=True)
class BootInterval:
    """A figure with its percentile bootstrap interval over ``clusters`` clusters."""

    value: float
    low: float
    high: float
    resamples: int
    undefined: int  # resamples where the figure was undefined, left out of the percentiles
    clusters: int
    level: float = BOOT_LEVEL
    cluster: str = CLUSTER

    def text(self, percent: bool = False) -> str:
        """``0.32 (0.12–0.51)``; with ``percent`` the interval of a share, ``(40.0–85.7%)``."""
        if percent:
            return f"({self.low * 100:.1f}–{self.high * 100:.1f}%)"
        return f"{self.value:.2f} ({self.low:.2f}–{self.high:.2f})"

    def to_json(self) -> dict[str, Any]:
        return {"value": _r4(self.value), "low": _r4(self.low), "high": _r4(self.high),
                "resamples": self.resamples, "undefined": self.undefined,
                "cluster": self.cluster, "clusters": self.clusters, "level": self.level}


@dataclass(frozen=True)
class Confusions:
    """Resampled confusion matrices: ``matrices[b][i][j]`` counts units of resample ``b``
    with reference ``labels[i]`` and suggestion ``labels[j]``."""

    labels: tuple[str, ...]
    matrices: np.ndarray
    clusters: int
    resamples: int

    def index(self, label: str) -> int | None:
        return self.labels.index(label) if label in self.labels else None


def bootstrap_confusions(units: Sequence[tuple[str, str, str]], *,
                         resamples: int = BOOT_RESAMPLES, seed: int = BOOT_SEED
                         ) -> Confusions | None:
    """Confusion matrices of ``resamples`` cluster resamples of ``units``, each
    ``(cluster, reference, suggested)``; ``None`` with fewer than two clusters (every
    resample would be the data itself)."""
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples}")
    clusters = list(dict.fromkeys(c for c, _r, _s in units))
    if len(clusters) < 2:
        return None
    import numpy as np  # here: only the bootstrap needs it (start-up time of the CLI and app)

    labels = tuple(dict.fromkeys(x for _c, r, s in units for x in (r, s)))
    k, size = len(clusters), len(labels)
    per_cluster = np.zeros((k, size * size))
    for c, r, s in units:
        per_cluster[clusters.index(c), labels.index(r) * size + labels.index(s)] += 1
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, k, size=(resamples, k))
    weights = np.zeros((resamples, k))
    np.add.at(weights, (np.arange(resamples)[:, None], drawn), 1.0)
    matrices = (weights @ per_cluster).reshape(resamples, size, size)
    return Confusions(labels, matrices, k, resamples)


def _interval(values: np.ndarray, value: float | None, boot: Confusions,
              level: float) -> BootInterval | None:
    import numpy as np

    if value is None:
        return None
    kept = values[np.isfinite(values)]
    if kept.size == 0:
        return None
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(kept, [alpha, 1.0 - alpha])
    return BootInterval(value, float(low), float(high), boot.resamples,
                        boot.resamples - int(kept.size), boot.clusters, level)


def kappa_interval(boot: Confusions | None, value: float | None,
                   level: float = BOOT_LEVEL) -> BootInterval | None:
    """Cohen's kappa of every resample (``(n*agreed - chance) / (n^2 - chance)``, chance
    ``sum_c rows_c * columns_c``), as an interval around ``value``."""
    if boot is None:
        return None
    import numpy as np

    m = boot.matrices
    n = m.sum(axis=(1, 2))
    agreed = np.trace(m, axis1=1, axis2=2)
    chance = (m.sum(axis=2) * m.sum(axis=1)).sum(axis=1)
    denom = n * n - chance
    with np.errstate(divide="ignore", invalid="ignore"):
        kappas = np.where(denom > 0, (agreed * n - chance) / denom, np.nan)
    return _interval(kappas, value, boot, level)


def _share_interval(boot: Confusions | None, category: str, value: float | None,
                    axis: int, level: float) -> BootInterval | None:
    if boot is None or value is None:
        return None
    import numpy as np

    i = boot.index(category)
    if i is None:
        return None
    m = boot.matrices
    # a row: every unit of this reference; a column: every unit given this suggestion
    total = m[:, i, :].sum(axis=1) if axis == 2 else m[:, :, i].sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        shares = np.where(total > 0, m[:, i, i] / total, np.nan)
    return _interval(shares, value, boot, level)


def recall_interval(boot: Confusions | None, category: str, value: float | None,
                    level: float = BOOT_LEVEL) -> BootInterval | None:
    """Recall of ``category`` (right / its reference units, abstentions included)."""
    return _share_interval(boot, category, value, 2, level)


def precision_interval(boot: Confusions | None, category: str, value: float | None,
                       level: float = BOOT_LEVEL) -> BootInterval | None:
    """Precision of ``category`` (right / the units it was suggested for)."""
    return _share_interval(boot, category, value, 1, level)


# ----------------------------------------------------------------------------- calibration

def expected_calibration_error(bins: Iterable[tuple[int, int, float]]) -> float | None:
    """ECE over reliability bins ``(n, correct, confidence_sum)``: the ``n``-weighted mean of
    ``|correct/n - confidence_sum/n|``; ``None`` without a unit."""
    rows = [b for b in bins if b[0] > 0]
    total = sum(n for n, _c, _s in rows)
    if not total:
        return None
    return sum(abs(c - s) for _n, c, s in rows) / total


def brier_score(outcomes: Iterable[tuple[float, bool]]) -> float | None:
    """Mean squared gap between a confidence and its outcome (1 right, 0 wrong)."""
    pairs = list(outcomes)
    if not pairs:
        return None
    return sum((p - float(ok)) ** 2 for p, ok in pairs) / len(pairs)


# ------------------------------------------------------------------------------ prevalence

@dataclass(frozen=True, slots=True)
class Prevalence:
    """Corrected shares of the reference categories in one batch (see the module doc)."""

    categories: tuple[str, ...]  # the estimated categories (each has reference units)
    estimate: dict[str, float]
    observed: dict[str, float]  # the batch's suggestion shares, "none" included
    batch: int  # units in the batch
    rank: int
    no_reference: tuple[str, ...]  # categories with no reference unit: not estimable
    unexplained: tuple[str, ...]  # suggested in the batch, never on the scored units
    residual: float  # |P^T pi - q|
    notes: tuple[str, ...] = field(default=())

    @property
    def singular(self) -> bool:
        return self.rank < len(self.categories)

    def to_json(self) -> dict[str, Any]:
        return {"estimate": {c: _r4(v) for c, v in self.estimate.items()},
                "observed": {c: _r4(v) for c, v in self.observed.items()},
                "batch": self.batch, "rank": self.rank, "singular": self.singular,
                "no_reference": list(self.no_reference),
                "unexplained": list(self.unexplained), "residual": _r4(self.residual),
                "notes": list(self.notes)}


def _project_simplex(v: np.ndarray) -> np.ndarray:
    """The nearest point of the probability simplex (Duchi et al. 2008, ICML, fig. 1)."""
    import numpy as np

    u = np.sort(v)[::-1]
    cum = np.cumsum(u) - 1.0
    ks = np.arange(1, len(v) + 1)
    rho = int(np.nonzero(u - cum / ks > 0)[0][-1])
    return np.asarray(np.maximum(v - cum[rho] / (rho + 1), 0.0))


def _simplex_least_squares(a: np.ndarray, q: np.ndarray, iterations: int = 20_000
                           ) -> np.ndarray:
    """``argmin |a x - q|^2`` over the simplex by accelerated projected gradient (FISTA)."""
    import numpy as np

    k = a.shape[1]
    lipschitz = float(np.linalg.norm(a, 2) ** 2) or 1.0
    x = y = np.full(k, 1.0 / k)
    t = 1.0
    for _ in range(iterations):
        nxt = _project_simplex(y - a.T @ (a @ y - q) / lipschitz)
        t_next = (1.0 + (1.0 + 4.0 * t * t) ** 0.5) / 2.0
        y = nxt + (t - 1.0) / t_next * (nxt - x)
        if float(np.abs(nxt - x).max()) < 1e-13:
            return np.asarray(nxt)
        x, t = nxt, t_next
    return np.asarray(x)


def corrected_prevalence(rows: Sequence[str], columns: Sequence[str],
                         matrix: Sequence[Sequence[int]], observed: Mapping[str, float]
                         ) -> Prevalence:
    """Each reference category's share of a batch whose suggestions (``observed``: column
    label -> count, ``"none"`` for no suggestion) came from an engine with the confusion
    ``matrix`` (rows: reference ``rows``, columns: suggested ``columns``) on scored units.

    Categories without a reference unit cannot be estimated (listed in ``no_reference``,
    left out); suggestions the scored units never produced are ``unexplained``; a rank below
    the number of estimated categories means many estimates fit equally (``singular``).
    """
    import numpy as np

    m = np.asarray(matrix, dtype=float).reshape(len(rows), len(columns))
    have = [i for i in range(len(rows)) if m[i].sum() > 0]
    no_reference = tuple(rows[i] for i in range(len(rows)) if i not in have)
    unexplained = tuple(c for c, v in observed.items() if v > 0 and c not in columns)
    labels = list(columns) + list(unexplained)
    batch = float(sum(observed.values()))
    notes = []
    shares = {c: (observed.get(c, 0.0) / batch if batch else 0.0) for c in labels}
    if not have or not batch:
        notes.append("nothing to estimate: " + ("no scored unit has a reference category"
                                                if not have else "the batch is empty"))
        return Prevalence((), {}, shares, int(batch), 0, no_reference, unexplained, 0.0,
                          tuple(notes))
    p = m[have] / m[have].sum(axis=1, keepdims=True)  # P(suggested j | reference i)
    p = np.hstack([p, np.zeros((len(have), len(unexplained)))])
    q = np.array([shares[c] for c in labels])
    rank = int(np.linalg.matrix_rank(p))
    pi = _simplex_least_squares(p.T, q)
    residual = float(np.linalg.norm(p.T @ pi - q))
    cats = tuple(rows[i] for i in have)
    if rank < len(have):
        notes.append(f"the confusion matrix is singular (rank {rank} of {len(have)} "
                     "categories): several corrected shares fit the suggestions equally; "
                     "this is one of them")
    if no_reference:
        notes.append("no reference unit (not estimable, taken as 0): "
                     + ", ".join(no_reference))
    if unexplained:
        notes.append("suggested in the batch but never on the scored units (unexplained): "
                     + ", ".join(unexplained))
    return Prevalence(cats, {c: float(v) for c, v in zip(cats, pi, strict=True)}, shares,
                      int(batch), rank, no_reference, unexplained, residual, tuple(notes))
