"""Roots and followers among labels: which labelled items are causes of their own.

An annotator labels the root item of a cause and marks every other item of that cause with
``follows`` = the root's key (:attr:`Label.follows
<inspector.model.labels.label_file.Label.follows>`).
Counting per root keeps a group of 23 errors from one fixture crash from weighing 23 times.

* :func:`final_follows` — the ``follows`` of an item's final label (adjudicated, or what the
  annotators who chose the final category said);
* :func:`root_ratings` — :meth:`LabelSet.ratings` restricted to items somebody labelled as a
  root, for agreement per root.
"""

from __future__ import annotations

from collections import Counter

from inspector.model.labels.label_file import ItemRef
from inspector.model.labels.labelset import LabelSet


def final_follows(labels: LabelSet, item: ItemRef) -> str | None:
    """The root key ``item``'s final label follows, or ``None`` when it is a root itself.

    Adjudicated: the adjudication's ``follows``. Otherwise the most common ``follows`` among
    the annotators whose category is the final one (all annotators when it is unresolved);
    a tie counts the item as a root, so grouping doubts never hide an item from per-root
    figures.
    """
    adj = labels.adjudicated(item)
    if adj is not None:
        return adj.follows
    by = labels.labels_for(item)
    final = labels.final(item).category
    chosen = [lb.follows for lb in by.values() if final is None or lb.category == final]
    if not chosen:
        return None
    counts = Counter(chosen).most_common()
    if len(counts) > 1 and counts[0][1] == counts[1][1]:
        return None
    return counts[0][0]


def is_final_root(labels: LabelSet, item: ItemRef) -> bool:
    """Whether ``item``'s final label has no ``follows``."""
    return final_follows(labels, item) is None


def root_ratings(labels: LabelSet) -> dict[str, dict[str, str]]:
    """``item key -> {annotator: category}`` for the items at least one annotator (or the
    adjudicator) labelled as a root (no ``follows``).

    Items every annotator marked as followers are left out, so a group's followers do not
    inflate agreement; an item one annotator calls a root and another a follower stays in
    with both ratings, so disagreement about grouping is not hidden either.
    """
    out: dict[str, dict[str, str]] = {}
    for item in labels.items():
        by = labels.labels_for(item)
        adj = labels.adjudicated(item)
        if any(lb.follows is None for lb in by.values()) or (adj is not None
                                                             and adj.follows is None):
            ratings = {name: lb.category for name, lb in by.items()}
            if ratings:
                out[item.key] = ratings
    return out
