"""How labels, categories and failure items read on screen (shared by the labelling widgets)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from inspector.model.failures.triage import (
    DEPLOY_FAILED,
    SUITE_INCOMPLETE,
    SUITE_NOT_RUN,
    FailureItem,
)
from inspector.model.labels.label_file import Label
from inspector.model.labels.taxonomy import Taxonomy
from inspector.model.suite.testids import leaf_name
from inspector.ui.safe import plain, sanitize

if TYPE_CHECKING:
    from inspector.services.labels.session import LabelSession

KIND_NAMES = {DEPLOY_FAILED: "deployment failed", SUITE_NOT_RUN: "suite did not run",
              SUITE_INCOMPLETE: "suite incomplete"}
"""Sample-level item kinds as the queue names them."""


def taxonomy_category_text(taxonomy: Taxonomy, category: str | None, *,
                           key: bool = False, dim: bool = False) -> Text:
    """A category's name in its colour (``—`` for none); ``dim`` for a follower's."""
    if category is None:
        return Text("—", style="dim")
    cat = taxonomy.get(category)
    if cat is None:
        return plain(category, style="italic", end="")
    t = Text()
    if key:
        t.append(f"{sanitize(cat.key)} ", style="bold reverse")
    t.append(sanitize(cat.name), style=f"{'dim ' if dim else 'bold '}{cat.colour}")
    return t


def item_name(item: FailureItem) -> str:
    """``deployment failed`` for a sample-level item, else the test's file and name."""
    if item.test_id is None:
        return KIND_NAMES.get(item.kind, item.kind.replace("_", " "))
    leaf = leaf_name(item.test_id)
    file = item.test_id.split("::", 1)[0]
    return leaf if leaf == file else f"{file.rsplit('/', 1)[-1]}::{leaf}"


def follow_marker(label: Label | None, root_key: str | None) -> tuple[str, str]:
    """(marker, style) for an item's label: ``↳`` following its root, ``●`` a label of its
    own (for a member: an override), ``·`` none."""
    if label is None:
        return "· ", "dim"
    if label.follows is not None and label.follows == root_key:
        return "↳ ", "dim"
    return "● ", "bold"


def category_text(session: LabelSession, category: str | None, *, key: bool = False) -> Text:
    """A category's name in its colour (``— `` for none), in the session's taxonomy."""
    return taxonomy_category_text(session.taxonomy, category, key=key)
