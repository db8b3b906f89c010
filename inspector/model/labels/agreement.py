"""Inter-annotator agreement on failure labels (nominal categories).

The input is ``ratings``: item key -> {annotator -> category id}. An item rated by one
annotator only counts toward that annotator's total but never toward agreement.

* :func:`cohen_kappa` — Cohen's kappa for one pair of annotators, each rater's own marginals.
* :func:`krippendorff_alpha` — nominal alpha over any number of annotators with missing
  values, computed from the coincidence matrix as in Krippendorff (2011), "Computing
  Krippendorff's Alpha-Reliability".
* :func:`category_alpha` — alpha on the data binarised to "this category or not".
* :func:`agreement` gathers all of them into an :class:`AgreementReport`;
  :func:`format_agreement` renders it as plain text for a terminal.

Figures that are undefined come back as ``None``: no shared items, or chance agreement that
is already perfect (every label the same category), where both statistics divide by zero.
Counting is exact (integers and :class:`~fractions.Fraction`); only the results are floats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from inspector.model.figures.percent import NA, pct

NA_NOTE = "n/a: undefined (no shared items, or every label the same category)"


# --------------------------------------------------------------------------- statistics

def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa for two raters over ``(a, b)`` category pairs.

    ``kappa = (po - pe) / (1 - pe)`` with ``po`` the share of pairs that agree and
    ``pe = sum_c p_a(c) * p_b(c)`` from each rater's own marginals.

    ``None`` when there are no pairs, and ``None`` when ``pe == 1``: both raters used one and
    the same category throughout, so there is no disagreement that chance could explain and
    kappa is 0/0 (undefined), not 1.
    """
    n = len(pairs)
    if n == 0:
        return None
    agreed = sum(1 for a, b in pairs if a == b)
    count_a = Counter(a for a, _ in pairs)
    count_b = Counter(b for _, b in pairs)
    # Scaled by n*n to stay in integers: po*n^2 = agreed*n, pe*n^2 = sum count_a*count_b.
    chance = sum(count_a[c] * count_b[c] for c in count_a)
    if chance == n * n:
        return None
    return (agreed * n - chance) / (n * n - chance)


def _coincidences(units: Iterable[Sequence[Hashable]]
                  ) -> tuple[dict[tuple[Hashable, Hashable], Fraction], Counter[Hashable]]:
    """The coincidence matrix ``o[(c, k)]`` and the marginals ``n_c`` of pairable values.

    Each unit is the list of values it received; units with fewer than two are skipped.
    A unit with ``m`` values adds ``1 / (m - 1)`` for every ordered pair of two of its values
    (from different raters), so each pairable value adds exactly 1 to its row: the row sums
    are the marginals ``n_c``.
    """
    o: dict[tuple[Hashable, Hashable], Fraction] = {}
    marginals: Counter[Hashable] = Counter()
    for values in units:
        m = len(values)
        if m < 2:
            continue
        counts = Counter(values)
        marginals.update(counts)
        for c, n_c in counts.items():
            for k, n_k in counts.items():
                pairs = n_c * (n_c - 1) if c == k else n_c * n_k
                if pairs:
                    o[(c, k)] = o.get((c, k), Fraction(0)) + Fraction(pairs, m - 1)
    return o, marginals


def _alpha(units: Iterable[Sequence[Hashable]]) -> tuple[float | None, int]:
    """Nominal alpha and the number ``n`` of pairable values."""
    o, marginals = _coincidences(units)
    n = sum(marginals.values())
    if n == 0:
        return None, 0
    observed = sum((v for (c, k), v in o.items() if c != k), Fraction(0))
    # sum_{c != k} n_c n_k = n^2 - sum_c n_c^2
    expected = n * n - sum(n_c * n_c for n_c in marginals.values())
    if expected == 0:
        return None, n
    return float(1 - (n - 1) * observed / expected), n


def _units(ratings: Mapping[str, Mapping[str, str]]) -> list[list[str]]:
    return [list(by.values()) for by in ratings.values()]


def krippendorff_alpha(ratings: Mapping[str, Mapping[str, str]]) -> float | None:
    """Krippendorff's alpha for nominal data, any number of raters, values may be missing.

    ``alpha = 1 - Do / De = 1 - (n - 1) * sum_{c!=k} o_ck / sum_{c!=k} n_c * n_k`` over the
    coincidence matrix of the pairable values (items rated at least twice; ``n`` of them).

    ``None`` when no item is rated twice, and ``None`` when ``De == 0``: every pairable value
    is the same category, so expected disagreement is zero and alpha is undefined.
    """
    return _alpha(_units(ratings))[0]


def category_alpha(ratings: Mapping[str, Mapping[str, str]], category: str) -> float | None:
    """Alpha for one category: the data binarised to ``value == category`` or not.

    ``None`` in the same cases as :func:`krippendorff_alpha`, which includes a category that
    nobody used on a shared item (or that every pairable label used).
    """
    return _alpha([[v == category for v in by.values()] for by in ratings.values()])[0]


# --------------------------------------------------------------------------- the report

@dataclass(frozen=True, slots=True)
class PairAgreement:
    """Two annotators (``a < b`` by name) over the ``items`` they both rated."""

    a: str
    b: str
    items: int
    agreed: int
    observed: float | None
    """``agreed / items``; ``None`` without shared items."""
    kappa: float | None


@dataclass(frozen=True, slots=True)
class CategoryAgreement:
    """One category over the shared items: how often it was used and how reliably."""

    category: str
    labels: int
    """Individual ratings on shared items that chose it."""
    items: int
    """Shared items where at least one annotator chose it."""
    agreed: int
    """Shared items where every annotator chose it."""
    alpha: float | None


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A shared item whose annotators did not all choose the same category."""

    item: str
    ratings: dict[str, str]
    """annotator -> category, keys sorted."""


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass(frozen=True, slots=True)
class AgreementReport:
    """Everything :func:`agreement` found; :meth:`to_json` is its machine-readable form."""

    annotators: dict[str, int]
    """Labels per annotator (every item, shared or not), sorted by name."""
    items: int
    """Items rated by two annotators or more."""
    total_items: int
    """Items rated by anyone."""
    pairs: list[PairAgreement]
    alpha: float | None
    alpha_values: int
    """The pairable values behind ``alpha`` (Krippendorff's ``n``)."""
    per_category: list[CategoryAgreement]
    disagreements: list[Disagreement]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; floats rounded to 4 decimals, undefined figures ``None``."""
        return {
            "items": self.items,
            "total_items": self.total_items,
            "annotators": dict(self.annotators),
            "cohen_kappa": [
                {"a": p.a, "b": p.b, "items": p.items, "agreed": p.agreed,
                 "observed": _round(p.observed), "kappa": _round(p.kappa)}
                for p in self.pairs
            ],
            "krippendorff_alpha": {
                "overall": _round(self.alpha),
                "values": self.alpha_values,
                "per_category": {
                    c.category: {"alpha": _round(c.alpha), "labels": c.labels,
                                 "items": c.items, "agreed": c.agreed}
                    for c in self.per_category
                },
            },
            "disagreements": [
                {"item": d.item, "ratings": dict(d.ratings)} for d in self.disagreements
            ],
        }


def _category_order(ratings: Mapping[str, Mapping[str, str]],
                     categories: Sequence[str]) -> list[str]:
    order = list(dict.fromkeys(categories))
    known = set(order)
    seen = {c for by in ratings.values() for c in by.values()}
    return order + sorted(seen - known)


def agreement(ratings: Mapping[str, Mapping[str, str]],
              categories: Sequence[str]) -> AgreementReport:
    """Agreement between the annotators of ``ratings`` (item -> {annotator -> category}).

    ``categories`` is the taxonomy's ids in order; categories found in ``ratings`` but not in
    it are appended, sorted. Every category is reported, used or not.
    """
    counts = Counter(name for by in ratings.values() for name in by)
    annotators = {name: counts[name] for name in sorted(counts)}
    shared = {item: by for item, by in ratings.items() if len(by) >= 2}

    pairs = []
    for a, b in combinations(annotators, 2):
        both = [(by[a], by[b]) for by in shared.values() if a in by and b in by]
        agreed = sum(1 for x, y in both if x == y)
        pairs.append(PairAgreement(
            a=a, b=b, items=len(both), agreed=agreed,
            observed=agreed / len(both) if both else None, kappa=cohen_kappa(both)))

    alpha, alpha_values = _alpha(_units(shared))

    per_category = []
    for category in _category_order(ratings, categories):
        chosen = [sum(1 for v in by.values() if v == category) for by in shared.values()]
        per_category.append(CategoryAgreement(
            category=category,
            labels=sum(chosen),
            items=sum(1 for k in chosen if k),
            agreed=sum(1 for k, by in zip(chosen, shared.values(), strict=True)
                       if k == len(by)),
            alpha=category_alpha(shared, category)))

    disagreements = [
        Disagreement(item=item, ratings={name: by[name] for name in sorted(by)})
        for item, by in sorted(shared.items())
        if len(set(by.values())) > 1
    ]
    return AgreementReport(
        annotators=annotators, items=len(shared), total_items=len(ratings), pairs=pairs,
        alpha=alpha, alpha_values=alpha_values, per_category=per_category,
        disagreements=disagreements)


# --------------------------------------------------------------------------- plain text

def _stat(value: float | None) -> str:
    return NA if value is None else f"{value:.3f}"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows under a header, two-space indented; first column left-aligned, others right."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(headers, *rows,
                                                                          strict=True)]

    def line(cells: Sequence[str]) -> str:
        parts = [cell.ljust(w) if i == 0 else cell.rjust(w)
                 for i, (cell, w) in enumerate(zip(cells, widths, strict=True))]
        return ("  " + "  ".join(parts)).rstrip()

    return [line(headers), *(line(row) for row in rows)]


def format_agreement(report: AgreementReport, names: Mapping[str, str] | None = None) -> str:
    """The report as plain text (no colours), columns aligned; ``names`` maps category ids
    to display names for the per-category table. Undefined figures read ``n/a``."""
    names = names or {}
    who = ", ".join(f"{name} ({count})" for name, count in report.annotators.items())
    k = len(report.annotators)
    header = (f"{report.items} shared items ({report.total_items} labelled by anyone), "
              f"{k} annotator{'' if k == 1 else 's'}" + (f": {who}" if who else ""))
    lines = [header, ""]
    na = False

    lines.append("Cohen's kappa")
    if report.pairs:
        rows = []
        for p in report.pairs:
            na |= p.observed is None or p.kappa is None
            rows.append([f"{p.a} / {p.b}", str(p.items), str(p.agreed),
                         pct(p.observed, NA), _stat(p.kappa)])
        lines += _table(["pair", "items", "agreed", "observed", "kappa"], rows)
    else:
        lines.append("  (fewer than two annotators)")
    lines.append("")

    na |= report.alpha is None
    lines.append(f"Krippendorff's alpha: {_stat(report.alpha)} "
                 f"({report.alpha_values} values)")
    lines.append("")

    lines.append("Per category")
    rows = []
    for c in report.per_category:
        na |= c.alpha is None
        rows.append([names.get(c.category, c.category), str(c.labels), str(c.items),
                     str(c.agreed), _stat(c.alpha)])
    if rows:
        lines += _table(["category", "labels", "items", "all agree", "alpha"], rows)
    else:
        lines.append("  (no categories)")
    lines.append("")

    if report.disagreements:
        lines.append(f"Disagreements ({len(report.disagreements)})")
        for d in report.disagreements:
            said = ", ".join(f"{name}={category}" for name, category in d.ratings.items())
            lines.append(f"  {d.item}: {said}")
    else:
        lines.append("Disagreements: none")

    if na:
        lines += ["", NA_NOTE]
    return "\n".join(lines) + "\n"
