"""Group labelling: a root's label and the labels of the items that follow it.

Followers are *stored*, not derived: labelling a root writes the root's label and, for each
member of its group, a label with the root's category and ``follows`` = the root's key (so
every reader of label files — exports, agreement, scoring — sees them as they are). A member
the annotator labelled on its own (a label without ``follows``, or following another root) is
an override and is never touched by its root's edits. These functions are pure: they compute
the labels to write from the annotator's file as it is on disk.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from inspector.model.labels.label_file import ItemRef, Label, LabelFile


def followers(file: LabelFile, root_key: str) -> list[Label]:
    """Active labels in ``file`` that follow ``root_key``."""
    return [lb for lb in file.labels if lb.active and lb.follows == root_key]


def group_labels(file: LabelFile, root: Label, members: Iterable[ItemRef]) -> list[Label]:
    """The labels to write when ``root`` (a root label: ``follows`` is ``None``) is saved with
    its group: ``root`` itself, then one follower label for each of ``members`` that has no
    label of its own and for each label already following the root (its category becomes the
    root's; its note and evidence are kept). Members with their own label are left out.
    """
    key = root.item.key
    out = [replace(root, follows=None)]
    seen = {root.item}
    current = {lb.item: lb for lb in followers(file, key)}
    for item in [*members, *current]:
        if item in seen:
            continue
        seen.add(item)
        old = file.get(item)
        if old is not None and old.active and old.follows != key:
            continue  # the annotator's own label (or another root's follower): an override
        if old is not None and old.active:
            out.append(replace(old, category=root.category, follows=key))
        else:
            out.append(Label(item, root.category, root.confidence, follows=key))
    return out


def follow_label(file: LabelFile, item: ItemRef, root_key: str, category: str) -> Label:
    """The label making ``item`` follow ``root_key`` again (after an override), with the
    root's ``category``; an existing label keeps its note and evidence."""
    old = file.get(item)
    if old is None:
        return Label(item, category, follows=root_key)
    return replace(old, category=category, follows=root_key, retracted=False)


def retract_group(file: LabelFile, root: ItemRef) -> list[Label]:
    """The root's label and its followers' labels, retracted (the labels to write)."""
    out: list[Label] = []
    own = file.get(root)
    if own is not None and own.active:
        out.append(replace(own, retracted=True))
    out.extend(replace(lb, retracted=True) for lb in followers(file, root.key))
    return out
