"""How failure-item labels roll up into the figures: one definition for every table.

An annotator labels *failure items*: the sample-level item (a failed deployment, a suite that
did not run or ran partially — or, in files written before per-test labelling, the whole
sample; ``test`` is ``None``) and each failing test. An item whose label carries ``follows``
shares the cause of the item it names (its *root*). From the final labels
(:meth:`LabelSet.final <inspector.model.labels.labelset.LabelSet.final>`) this module builds three
views (docs/labels.md states the same rules for readers):

* **per root** (:func:`root_labels`) — each root cause once: every labelled item whose final
  label follows no other item. A follower whose root has no active label, or whose chain of
  ``follows`` loops, counts as a root itself (nothing is hidden by a broken group).
* **per sample** (:func:`sample_rollups`) — each labelled sample once, with every category
  its roots carry (``categories``) and one *primary* category: the category carried by the
  most of its resolved roots; a tie goes to the category that comes first in the taxonomy
  (then unknown ids, sorted). Roots without a final category (annotators disagree, nobody
  adjudicated) do not vote; a sample none of whose roots is resolved is *unresolved*.
* **per test** (:func:`test_labels`, :func:`test_categories`) — each labelled test once; a
  follower takes its root's final category (its own when the root is unresolved).

Precedence of sample-level and test labels: a sample-level label is the label of the
sample's sample-level failure item, and rolls up like any other item — it is a root unless
it follows another item, and tests that follow it count under it. Neither kind overrides the
other: a sample with a sample-level root and test roots of other causes counts under every
one of their categories; only the primary category picks one (most roots). Files made only
of sample-level labels (the format before per-test labelling) thus give the same per-sample
figures as before.

"Labelled" (:func:`labelled_samples`): a sample is labelled when at least one of its failure
items has an active label (for one annotator in the labelling queue's progress; by anyone in
the tables, where every labelled sample is counted — unresolved when no root is resolved).

Pure: no I/O; the label files are never changed by rolling up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from inspector.model.labels.label_file import ItemRef
from inspector.model.labels.labelset import FinalLabel, LabelSet
from inspector.model.labels.roots import final_follows

VIEWS = ("sample", "root", "test")
"""The views a category table can show."""

DEFAULT_VIEW = "sample"
"""The tables' default: each failing sample once under its primary category (what a paper's
failure-category table reports)."""

DEFAULT_AGREEMENT_VIEW = "root"
"""Agreement's default: each root cause once (the unit annotators decide)."""

VIEW_TEXT = {
    "sample": "per sample: each labelled failing sample once, under its primary category "
              "(the category of most of its root causes; ties by taxonomy order)",
    "root": "per root cause: each labelled item that follows no other once (a group's "
            "followers left out)",
    "test": "per test: each labelled test once; a follower under its root's category",
}
"""One line saying what a table of each view counts."""

VIEW_SHORT = {"sample": "each sample once, under its primary category",
              "root": "each root cause once", "test": "each labelled test once"}
"""A few words saying what a table of each view counts (for narrow places)."""

VIEW_UNIT = {"sample": "samples", "root": "root causes", "test": "tests"}

_MAX_CHAIN = 64


def view_problem(view: str) -> str | None:
    """Why ``view`` is not one of :data:`VIEWS`, or ``None``."""
    return None if view in VIEWS else f"unknown view {view!r} (one of: {', '.join(VIEWS)})"


def parse_item_key(key: str) -> ItemRef:
    """The item an :attr:`ItemRef.key` names (``sample`` or ``sample::test``)."""
    sample, sep, test = key.partition("::")
    return ItemRef(sample, test if sep else None)


RootLabel = FinalLabel
"""One root cause: its item's final label (category ``None``: unresolved)."""


@dataclass(frozen=True, slots=True)
class TestLabel:
    """One labelled test: its final category (a follower's is its root's) and its root's key
    (``None`` when the test is a root itself)."""

    item: ItemRef
    category: str | None
    status: str
    ratings: dict[str, str]
    root: str | None


@dataclass(frozen=True, slots=True)
class SampleRollup:
    """One labelled sample: its roots, the categories they carry (taxonomy order, each once)
    and its primary category (``None``: no root resolved)."""

    sample: str
    roots: tuple[RootLabel, ...]
    categories: tuple[str, ...]
    primary: str | None

    @property
    def unresolved_roots(self) -> int:
        return sum(1 for r in self.roots if r.category is None)

    @property
    def status(self) -> str:
        """``unresolved``; the root's status for a one-root sample; else ``rolled-up``."""
        if self.primary is None:
            return "unresolved"
        return self.roots[0].status if len(self.roots) == 1 else "rolled-up"


def _labelled(labels: LabelSet, item: ItemRef) -> bool:
    return bool(labels.labels_for(item)) or labels.adjudicated(item) is not None


def root_of(labels: LabelSet, item: ItemRef) -> ItemRef:
    """The root item whose cause ``item`` shares (``item`` itself when it is a root).

    ``follows`` chains are followed; a chain that loops or reaches an item without an active
    label leaves ``item`` as its own root."""
    seen = {item}
    current = item
    for _ in range(_MAX_CHAIN):
        key = final_follows(labels, current)
        if key is None:
            return current
        nxt = parse_item_key(key)
        if nxt in seen or not _labelled(labels, nxt):
            return item
        seen.add(nxt)
        current = nxt
    return item


def _rank(order: Sequence[str]) -> dict[str, int]:
    return {c: i for i, c in enumerate(order)}


def sort_categories(categories: Iterable[str], order: Sequence[str]) -> list[str]:
    """``categories`` in taxonomy ``order``, then ids it does not know, sorted."""
    rank = _rank(order)
    return sorted(set(categories), key=lambda c: (rank.get(c, len(rank)), c))


def primary_category(categories: Sequence[str | None], order: Sequence[str]) -> str | None:
    """The category most of ``categories`` (one per root) carry; ties by taxonomy ``order``;
    ``None`` entries (unresolved roots) do not vote."""
    counts = Counter(c for c in categories if c is not None)
    if not counts:
        return None
    rank = _rank(order)
    return min(counts, key=lambda c: (-counts[c], rank.get(c, len(rank)), c))


def _root_label(labels: LabelSet, item: ItemRef) -> RootLabel:
    final = labels.final(item)
    return FinalLabel(item, final.category, final.status, dict(sorted(final.ratings.items())))


def root_labels(labels: LabelSet) -> list[RootLabel]:
    """Every root cause once (per-root view), sorted by item."""
    return [_root_label(labels, item) for item in labels.items()
            if root_of(labels, item) == item]


def sample_rollups(labels: LabelSet, order: Sequence[str] = ()) -> dict[str, SampleRollup]:
    """Every labelled sample (per-sample view) by id: the distinct roots of its labelled
    items, their categories and the primary category (``order``: the taxonomy's ids)."""
    roots: dict[str, dict[ItemRef, RootLabel]] = {}
    cache: dict[ItemRef, RootLabel] = {}
    for item in labels.items():
        root = root_of(labels, item)
        if root not in cache:
            cache[root] = _root_label(labels, root)
        roots.setdefault(item.sample, {})[root] = cache[root]
    out: dict[str, SampleRollup] = {}
    for sample, found in sorted(roots.items()):
        rs = tuple(found[i] for i in sorted(found, key=ItemRef.sort_key))
        cats = [r.category for r in rs]
        out[sample] = SampleRollup(
            sample, rs, tuple(sort_categories((c for c in cats if c is not None), order)),
            primary_category(cats, order))
    return out


def test_view(labels: LabelSet, item: ItemRef) -> TestLabel:
    """One test item in the per-test view: a follower with its root's final category and
    status (its own when the root is unresolved)."""
    final = labels.final(item)
    ratings = dict(sorted(final.ratings.items()))
    root = root_of(labels, item)
    if root == item:
        return TestLabel(item, final.category, final.status, ratings, None)
    rfinal = labels.final(root)
    if rfinal.category is None:
        return TestLabel(item, final.category, final.status, ratings, root.key)
    return TestLabel(item, rfinal.category, rfinal.status, ratings, root.key)


def test_labels(labels: LabelSet) -> list[TestLabel]:
    """Every labelled test once (per-test view), sorted (see :func:`test_view`)."""
    return [test_view(labels, item) for item in labels.items() if item.test is not None]


def test_categories(labels: LabelSet) -> dict[ItemRef, str]:
    """Each labelled test with a final category (per-test view; a follower takes its root's):
    ``ItemRef(sample, test) -> category``. Unresolved tests are left out."""
    return {t.item: t.category for t in test_labels(labels) if t.category is not None}


test_labels.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
test_view.__test__ = False  # type: ignore[attr-defined]
test_categories.__test__ = False  # type: ignore[attr-defined]


def root_categories(labels: LabelSet) -> dict[ItemRef, str]:
    """Each resolved root cause: ``item -> category`` (per-root view)."""
    return {r.item: r.category for r in root_labels(labels) if r.category is not None}


def sample_categories(labels: LabelSet, order: Sequence[str] = ()) -> dict[str, str]:
    """Each labelled sample with a resolved root: ``sample id -> primary category``."""
    return {s: r.primary for s, r in sample_rollups(labels, order).items()
            if r.primary is not None}


def labelled_samples(labels: LabelSet, annotator: str | None = None) -> set[str]:
    """Samples with at least one labelled failure item (the sample-level item or a test): by
    ``annotator`` when given (the labelling queue's progress), else by anyone or the
    adjudicator (the samples the tables count)."""
    if annotator is not None:
        return labels.sample_labelled_by(annotator)
    return {item.sample for item in labels.items()}


def _own(labels: LabelSet, annotator: str) -> LabelSet:
    return LabelSet({annotator: labels.files[annotator]}) if annotator in labels.files \
        else LabelSet()


def sample_ratings(labels: LabelSet, order: Sequence[str] = ()) -> dict[str, dict[str, str]]:
    """``sample id -> {annotator: primary category}``: each annotator's own labels rolled up
    per sample (their roots, their ``follows``), for agreement per sample. The adjudication
    is not a rater."""
    out: dict[str, dict[str, str]] = {}
    for name in labels.annotators:
        for sample, category in sample_categories(_own(labels, name), order).items():
            out.setdefault(sample, {})[name] = category
    return dict(sorted(out.items()))


def test_ratings(labels: LabelSet) -> dict[str, dict[str, str]]:
    """:meth:`LabelSet.ratings` of the test items only, for agreement per test."""
    return {k: v for k, v in labels.ratings().items() if parse_item_key(k).test is not None}


test_ratings.__test__ = False  # type: ignore[attr-defined]


def view_ratings(labels: LabelSet, view: str, order: Sequence[str] = ()
                 ) -> dict[str, dict[str, str]]:
    """The ratings agreement is computed over in ``view`` (see :data:`VIEWS`): per root
    (:func:`~inspector.model.labels.roots.root_ratings`), per sample (:func:`sample_ratings`)
    or per test (:func:`test_ratings`)."""
    if view == "root":
        from inspector.model.labels.roots import root_ratings

        return root_ratings(labels)
    if view == "sample":
        return sample_ratings(labels, order)
    if view == "test":
        return test_ratings(labels)
    raise ValueError(view_problem(view))
