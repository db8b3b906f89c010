"""Per-test suggestions measured against hand labels, per test and per root.

Every labelled failure item is one *unit*: its reference is its final label's category
(:meth:`LabelSet.final`), its suggestion the :class:`TestSuggestion` of the same item (``None``
when the engine abstained). Per test counts every such unit; per root only those whose final
label has no ``follows`` (:func:`~inspector.model.labels.roots.final_follows`).

Nothing is dropped silently: a labelled item the triage has no item for (its test passed, or
its sample is not among the runs) is *unmatched*; a labelled item whose annotators disagree and
nobody adjudicated is *unresolved*; a failure item of a labelled sample that nobody labelled is
*unlabelled*. Each is counted and listed.

With a ``split.json`` in the labels folder (``held_out_tasks``), every figure is reported for
the held-out tasks (never used to write or tune a rule), the dev tasks and all; a sample's
task is the middle part of its id (``run/task/index``).

Figures that cannot be computed (nothing to divide by, kappa's chance agreement already
perfect) are ``None``. Floats in :meth:`ScoreReport.to_json` are rounded to 4 decimals.

Uncertainty (:mod:`inspector.model.labels.score_stats`): kappa with abstention as a class and
each category's precision and recall carry a 95% percentile bootstrap interval over *tasks*
(the units of one task are resampled together: its roots share a README and a suite), seeded
so the output is deterministic; calibration is the expected calibration error over the
reliability bins and the Brier score; each category's prevalence is corrected for the measured
confusion (:meth:`UnitScore.corrected_prevalence` for a new batch of suggestions).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.model.failures.triage import SampleTriage, TestSuggestion
from inspector.model.labels.agreement import cohen_kappa
from inspector.model.labels.label_file import ItemRef
from inspector.model.labels.labelset import LabelSet
from inspector.model.labels.roots import final_follows
from inspector.model.labels.score_stats import (
    BootInterval,
    Prevalence,
    bootstrap_confusions,
    brier_score,
    corrected_prevalence,
    expected_calibration_error,
    kappa_interval,
    precision_interval,
    recall_interval,
)
from inspector.model.untrusted.errors import LoadError

SCORE_FORMAT = "genesis-inspector.triage-score"
SCORE_VERSION = 1
SPLIT_FORMAT = "genesis-inspector.label-split"
SPLIT_FILE = "split.json"
NOT_MODEL = "not-model"
NONE = "none"
"""The column of the confusion matrix (and kappa's extra class) for "no suggestion"."""
RELIABILITY_EDGES = (0.0, 0.55, 0.7, 0.85, 0.95, 1.0)
"""Confidence bins ``[lo, hi)`` (the last one closed) for the reliability table."""
SPLITS = ("held_out", "dev", "all")
UNITS = ("per_test", "per_root")


def task_of(sample_id: str) -> str:
    """The task of a sample id ``run/task/index`` (the run id may itself hold ``/``)."""
    parts = sample_id.rsplit("/", 2)
    return parts[-2] if len(parts) == 3 else ""


# ------------------------------------------------------------------------------------ split

@dataclass(frozen=True, slots=True)
class Split:
    """The held-out tasks of a labels folder (``split.json``)."""

    path: Path
    held_out_tasks: tuple[str, ...]
    rule: str = ""

    def name_of(self, sample_id: str) -> str:
        """``"held_out"`` or ``"dev"`` for a sample."""
        return "held_out" if task_of(sample_id) in self.held_out_tasks else "dev"


def load_split(labels_dir: Path) -> Split | None:
    """``labels_dir/split.json``, or ``None`` when there is none; :class:`LoadError` (naming
    the file and the field) when it cannot be used."""
    path = labels_dir / SPLIT_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_bytes()[: 4 * 1024 * 1024])
    except (OSError, ValueError) as exc:
        raise LoadError(path, f"cannot read the split: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SPLIT_FORMAT:
        raise LoadError(path, f"not a split file (format must be {SPLIT_FORMAT!r})", "format")
    tasks = data.get("held_out_tasks")
    if not isinstance(tasks, list) or not all(isinstance(t, str) and t for t in tasks):
        raise LoadError(path, "must be a list of task names", "held_out_tasks")
    rule = data.get("rule", "")
    return Split(path, tuple(tasks), rule if isinstance(rule, str) else "")


# ------------------------------------------------------------------------------------ units

@dataclass(frozen=True, slots=True)
class ScoredItem:
    """One labelled failure item with its reference and what was suggested for it."""

    key: str
    sample: str
    test: str | None
    reference: str
    suggested: str | None  # None: no suggestion (abstained, or unsure)
    confidence: float
    rule: str
    split: str  # "held_out" | "dev"; "all" when there is no split
    label_follows: str | None  # the final label's follows (None: a root)
    engine_root: str | None  # the suggestion's root (None: the engine calls it a root)
    unsure: bool = False
    top_reading: str | None = None  # the best competing reading when unsure

    @property
    def is_root(self) -> bool:
        return self.label_follows is None

    @property
    def correct(self) -> bool:
        return self.suggested == self.reference

    @property
    def cluster(self) -> str:
        """The bootstrap's cluster: the task (the sample when its id names none)."""
        return task_of(self.sample) or self.sample


def _rate(a: int, b: int) -> float | None:
    return a / b if b else None


def _f1(p: float | None, r: float | None) -> float | None:
    if p is None or r is None:
        return None
    return 2 * p * r / (p + r) if p + r else 0.0


def _r4(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _ci(ci: BootInterval | None) -> dict[str, Any] | None:
    return None if ci is None else ci.to_json()


@dataclass(frozen=True, slots=True)
class CategoryScore:
    """One category: ``tp`` suggested and right, ``suggested`` times suggested, ``reference``
    times it is the reference (abstentions included, so recall counts them as misses)."""

    category: str
    tp: int
    suggested: int
    reference: int
    precision_ci: BootInterval | None = None
    recall_ci: BootInterval | None = None

    @property
    def precision(self) -> float | None:
        return _rate(self.tp, self.suggested)

    @property
    def recall(self) -> float | None:
        return _rate(self.tp, self.reference)

    @property
    def f1(self) -> float | None:
        return _f1(self.precision, self.recall)

    def to_json(self) -> dict[str, Any]:
        return {"reference": self.reference, "suggested": self.suggested, "correct": self.tp,
                "precision": _r4(self.precision), "recall": _r4(self.recall),
                "f1": _r4(self.f1), "precision_interval": _ci(self.precision_ci),
                "recall_interval": _ci(self.recall_ci)}


@dataclass(frozen=True, slots=True)
class ReliabilityBin:
    """Covered units whose confidence is in ``[low, high)`` (the last bin includes 1.0)."""

    low: float
    high: float
    n: int
    correct: int
    confidence_sum: float

    @property
    def accuracy(self) -> float | None:
        return _rate(self.correct, self.n)

    @property
    def mean_confidence(self) -> float | None:
        return self.confidence_sum / self.n if self.n else None

    def to_json(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "n": self.n, "correct": self.correct,
                "accuracy": _r4(self.accuracy), "mean_confidence": _r4(self.mean_confidence)}


@dataclass(frozen=True, slots=True)
class UnitScore:
    """Every figure over one set of units (one split, per test or per root)."""

    n: int
    covered: int
    correct: int
    kappa_covered: float | None
    kappa_with_abstention: float | None
    rows: tuple[str, ...]  # confusion rows: reference categories
    columns: tuple[str, ...]  # confusion columns: suggested categories, then NONE
    matrix: tuple[tuple[int, ...], ...]
    categories: tuple[CategoryScore, ...]
    not_model: CategoryScore
    model: CategoryScore  # the binary question's other side: any model category
    binary_correct: int  # covered units where not-model vs model was answered right
    binary_kappa: float | None
    reliability: tuple[ReliabilityBin, ...]
    abstained: int
    unsure: int
    unsure_top_right: int  # unsure units whose best competing reading was the reference
    rules: dict[str, tuple[int, int]]  # rule -> (fired on covered units, correct)
    misses: tuple[ScoredItem, ...]  # wrong suggestions first, then abstentions
    kappa_with_abstention_ci: BootInterval | None = None
    brier: float | None = None  # covered units: mean (confidence - right)^2
    clusters: int = 0  # tasks among the units
    prevalence: Prevalence | None = None
    """The correction applied to the scored units themselves (a check: with an invertible
    confusion it gives back the reference shares)."""

    @property
    def ece(self) -> float | None:
        """Expected calibration error over the reliability bins (covered units)."""
        return expected_calibration_error((b.n, b.correct, b.confidence_sum)
                                          for b in self.reliability)

    def corrected_prevalence(self, suggestions: Iterable[str | None]) -> Prevalence:
        """Each reference category's share of a batch of ``suggestions`` (``None``: no
        suggestion), corrected for this score's confusion matrix; assumes the confusion
        measured here holds for the batch."""
        counts = Counter(NONE if s is None else s for s in suggestions)
        return corrected_prevalence(self.rows, self.columns, self.matrix,
                                    {c: float(n) for c, n in counts.items()})

    def prevalence_rows(self) -> list[tuple[str, float | None, float | None, float | None]]:
        """Per category (and ``none``): the suggested share, the corrected estimate on these
        units and the reference share; ``None`` where a figure does not apply."""
        prev = self.prevalence
        if not self.n or prev is None:
            return []
        refs = {r: sum(row) for r, row in zip(self.rows, self.matrix, strict=True)}
        out: list[tuple[str, float | None, float | None, float | None]] = []
        for c in _order(self.rows, self.columns[:-1]):
            out.append((c, prev.observed.get(c, 0.0), prev.estimate.get(c),
                        refs.get(c, 0) / self.n))
        out.append((NONE, prev.observed.get(NONE, 0.0), None, None))
        return out

    @property
    def coverage(self) -> float | None:
        return _rate(self.covered, self.n)

    @property
    def accuracy_covered(self) -> float | None:
        return _rate(self.correct, self.covered)

    @property
    def accuracy_all(self) -> float | None:
        """Abstentions count as wrong."""
        return _rate(self.correct, self.n)

    def cell(self, reference: str, suggested: str | None) -> int:
        col = NONE if suggested is None else suggested
        if reference not in self.rows or col not in self.columns:
            return 0
        return self.matrix[self.rows.index(reference)][self.columns.index(col)]

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n, "covered": self.covered, "coverage": _r4(self.coverage),
            "correct": self.correct, "accuracy_covered": _r4(self.accuracy_covered),
            "accuracy_all": _r4(self.accuracy_all),
            "kappa_covered": _r4(self.kappa_covered),
            "kappa_with_abstention": _r4(self.kappa_with_abstention),
            "confusion": {"rows": list(self.rows), "columns": list(self.columns),
                          "matrix": [list(r) for r in self.matrix]},
            "per_category": {c.category: c.to_json() for c in self.categories},
            "not_model": {**self.not_model.to_json(),
                          "binary_accuracy_covered": _r4(_rate(self.binary_correct,
                                                               self.covered)),
                          "binary_kappa_covered": _r4(self.binary_kappa),
                          "model": self.model.to_json()},
            "kappa_with_abstention_interval": _ci(self.kappa_with_abstention_ci),
            "reliability": [b.to_json() for b in self.reliability],
            "calibration": {"covered": self.covered, "ece": _r4(self.ece),
                            "brier": _r4(self.brier)},
            "prevalence": None if self.prevalence is None else {
                **self.prevalence.to_json(),
                "method": "adjusted classify-and-count: shares of the reference categories "
                          "minimising |P^T pi - q| on the simplex, P(suggested | reference) "
                          "from this confusion matrix; assumes the confusion transfers",
                "per_category": {c: {"suggested": _r4(sug), "corrected": _r4(cor),
                                     "reference": _r4(ref)}
                                 for c, sug, cor, ref in self.prevalence_rows()}},
            "abstentions": {"n": self.abstained, "unsure": self.unsure,
                            "unsure_top_reading_correct": self.unsure_top_right},
            "rules": {r: {"fired": f, "correct": c} for r, (f, c) in sorted(self.rules.items())},
            "misses": [{"item": m.key, "reference": m.reference, "suggested": m.suggested,
                        "rule": m.rule, "confidence": round(m.confidence, 3),
                        "split": m.split} for m in self.misses],
        }


def _order(categories: Sequence[str], seen: Iterable[str]) -> tuple[str, ...]:
    known = list(dict.fromkeys(categories))
    return tuple(known + sorted(set(seen) - set(known)))


def score_units(units: Sequence[ScoredItem], categories: Sequence[str]) -> UnitScore:
    """All figures for ``units``; ``categories`` (taxonomy order) name the rows and columns,
    and categories met in the units but not listed are appended, sorted."""
    boot = bootstrap_confusions([(u.cluster, u.reference, u.suggested or NONE)
                                 for u in units])
    covered = [u for u in units if u.suggested is not None]
    correct = sum(1 for u in covered if u.correct)
    rows = _order(categories, (u.reference for u in units))
    columns = (*_order(categories, (u.suggested for u in covered if u.suggested)), NONE)
    counts = Counter((u.reference, u.suggested or NONE) for u in units)
    matrix = tuple(tuple(counts[(r, c)] for c in columns) for r in rows)

    def cat(name: str, member: Any) -> CategoryScore:
        return CategoryScore(
            name, tp=sum(1 for u in covered if member(u.suggested) and member(u.reference)),
            suggested=sum(1 for u in covered if member(u.suggested)),
            reference=sum(1 for u in units if member(u.reference)))

    def with_ci(c: CategoryScore) -> CategoryScore:
        return CategoryScore(c.category, c.tp, c.suggested, c.reference,
                             precision_interval(boot, c.category, c.precision),
                             recall_interval(boot, c.category, c.recall))

    per_category = tuple(with_ci(cat(c, lambda x, c=c: x == c))
                         for c in _order(rows, columns[:-1]))
    not_model = cat(NOT_MODEL, lambda x: x == NOT_MODEL)
    model = cat("model", lambda x: x is not None and x != NOT_MODEL)
    binary = [(u.reference == NOT_MODEL, u.suggested == NOT_MODEL) for u in covered]
    bins = []
    edges = RELIABILITY_EDGES
    for i, (lo, hi) in enumerate(zip(edges, edges[1:], strict=False)):
        last = i == len(edges) - 2
        inside = [u for u in covered if lo <= u.confidence < hi or (last and u.confidence >= hi)]
        bins.append(ReliabilityBin(lo, hi, len(inside), sum(1 for u in inside if u.correct),
                                   sum(u.confidence for u in inside)))
    abstained = [u for u in units if u.suggested is None]
    rules: dict[str, tuple[int, int]] = {}
    for u in covered:
        fired, right = rules.get(u.rule, (0, 0))
        rules[u.rule] = (fired + 1, right + int(u.correct))
    misses = ([u for u in covered if not u.correct]
              + [u for u in abstained])
    kappa_none = cohen_kappa([(u.reference, u.suggested or NONE) for u in units])
    return UnitScore(
        n=len(units), covered=len(covered), correct=correct,
        kappa_covered=cohen_kappa([(u.reference, u.suggested or NONE) for u in covered]),
        kappa_with_abstention=kappa_none,
        rows=rows, columns=columns, matrix=matrix, categories=per_category,
        not_model=not_model, model=model,
        binary_correct=sum(1 for a, b in binary if a == b),
        binary_kappa=cohen_kappa([(str(a), str(b)) for a, b in binary]),
        reliability=tuple(bins), abstained=len(abstained),
        unsure=sum(1 for u in abstained if u.unsure),
        unsure_top_right=sum(1 for u in abstained if u.unsure and u.top_reading == u.reference),
        rules=rules, misses=tuple(misses),
        kappa_with_abstention_ci=kappa_interval(boot, kappa_none),
        brier=brier_score((u.confidence, u.correct) for u in covered),
        clusters=len({u.cluster for u in units}),
        prevalence=corrected_prevalence(rows, columns, matrix, {
            c: float(sum(row[j] for row in matrix)) for j, c in enumerate(columns)}))


# ----------------------------------------------------------------------------------- report

@dataclass(frozen=True, slots=True)
class Unmatched:
    """A labelled item the triage has no failure item for."""

    key: str
    reference: str | None
    reason: str
    split: str


@dataclass(frozen=True, slots=True)
class Grouping:
    """How the engine's roots compare with the labels' over matched, resolved items."""

    label_roots: int
    engine_also_root: int
    label_followers: int
    same_root: int  # followers the engine ties to the very root the label names

    def to_json(self) -> dict[str, Any]:
        return {"label_roots": self.label_roots, "engine_also_root": self.engine_also_root,
                "label_followers": self.label_followers, "same_root": self.same_root}


@dataclass
class ScoreReport:
    """Everything :func:`score_triage` found; see the module docstring."""

    categories: tuple[str, ...]
    split: Split | None
    items: list[ScoredItem] = field(default_factory=list)
    unmatched: list[Unmatched] = field(default_factory=list)
    unresolved: list[tuple[str, dict[str, str], str]] = field(default_factory=list)
    unlabelled: list[str] = field(default_factory=list)  # keys
    dangling_follows: list[tuple[str, str]] = field(default_factory=list)  # (item, follows)
    statuses: dict[str, int] = field(default_factory=dict)  # final-label status -> count

    def splits(self) -> list[str]:
        """The splits reported: held-out, dev and all with a split, else all alone."""
        return list(SPLITS) if self.split is not None else ["all"]

    def units(self, split: str, unit: str) -> list[ScoredItem]:
        chosen = [i for i in self.items if split == "all" or i.split == split]
        return [i for i in chosen if i.is_root] if unit == "per_root" else chosen

    def score(self, split: str, unit: str) -> UnitScore:
        return score_units(self.units(split, unit), self.categories)

    def grouping(self, split: str) -> Grouping:
        units = self.units(split, "per_test")
        roots = [u for u in units if u.is_root]
        followers = [u for u in units if not u.is_root]
        return Grouping(len(roots), sum(1 for u in roots if u.engine_root is None),
                        len(followers),
                        sum(1 for u in followers if u.engine_root == u.label_follows))

    def in_split(self, split: str, seq: Iterable[Any]) -> list[Any]:
        return [x for x in seq if split == "all" or x.split == split]

    def to_json(self) -> dict[str, Any]:
        scores: dict[str, dict[str, Any]] = {}
        for s in self.splits():
            scores[s] = {u: self.score(s, u).to_json() for u in UNITS}
            scores[s]["grouping"] = self.grouping(s).to_json()
            scores[s]["unmatched"] = len(self.in_split(s, self.unmatched))
        split = None if self.split is None else {
            "file": str(self.split.path), "held_out_tasks": list(self.split.held_out_tasks),
            "rule": self.split.rule,
            "note": "held-out figures are on tasks never used to write or tune a rule"}
        return {
            "format": SCORE_FORMAT, "version": SCORE_VERSION,
            "categories": list(self.categories), "split": split,
            "label_counts": {"items": len(self.items) + len(self.unmatched)
                             + len(self.unresolved),
                             "scored": len(self.items),
                             "statuses": dict(sorted(self.statuses.items()))},
            "scores": scores,
            "unmatched": [{"item": u.key, "reference": u.reference, "reason": u.reason,
                           "split": u.split} for u in self.unmatched],
            "unresolved": [{"item": k, "ratings": r, "split": s}
                           for k, r, s in self.unresolved],
            "unlabelled": self.unlabelled,
            "dangling_follows": [{"item": k, "follows": f} for k, f in self.dangling_follows],
        }


def _top_reading(s: TestSuggestion) -> str | None:
    return s.competing[0].category if s.competing else None


def score_triage(triages: Sequence[SampleTriage], labels: LabelSet,
                 categories: Sequence[str], split: Split | None = None) -> ScoreReport:
    """Compare every suggestion of ``triages`` with the final labels of ``labels``."""
    report = ScoreReport(tuple(categories), split)
    by_key: dict[str, TestSuggestion] = {}
    for t in triages:
        for sug in t.suggestions:
            by_key[sug.item.key] = sug
    samples = {t.sample for t in triages}
    labelled = labels.items()
    keys = {i.key for i in labelled}
    statuses: Counter[str] = Counter()

    def split_of(item: ItemRef) -> str:
        return split.name_of(item.sample) if split is not None else "all"

    for item in labelled:
        final = labels.final(item)
        statuses[final.status] += 1
        follows = final_follows(labels, item)
        if follows is not None and follows not in keys:
            report.dangling_follows.append((item.key, follows))
        s = by_key.get(item.key)
        if s is None:
            reason = ("not a failure item of its sample (the test passed or is not in the "
                      "report)" if item.sample in samples else "sample not among the runs")
            report.unmatched.append(Unmatched(item.key, final.category, reason,
                                              split_of(item)))
            continue
        if final.category is None:
            report.unresolved.append((item.key, dict(sorted(final.ratings.items())),
                                      split_of(item)))
            continue
        report.items.append(ScoredItem(
            key=item.key, sample=item.sample, test=item.test, reference=final.category,
            suggested=s.category, confidence=s.confidence, rule=s.rule,
            split=split_of(item), label_follows=follows, engine_root=s.root,
            unsure=s.unsure, top_reading=_top_reading(s)))
    labelled_samples = {i.sample for i in labelled}
    report.unlabelled = sorted(k for k, s in by_key.items()
                               if s.item.sample in labelled_samples and k not in keys)
    report.statuses = dict(statuses)
    return report
