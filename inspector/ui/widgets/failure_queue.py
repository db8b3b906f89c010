"""The labelling queue: failing samples, each with its failure items grouped by root.

One row per sample (labels the whole sample, as before per-test labelling); under it, once
the sample is triaged, one row per root group (sample-level items first), showing "+N like
it"; the group's members sit under their root, collapsed until opened (→ or Space). A marker
says how each row is labelled: ``↳`` follows its root, ``●`` a label of its own, ``·`` none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from inspector.model.failures.triage import FailureItem, RootGroup, SampleTriage
from inspector.model.labels.label_file import ItemRef, Label
from inspector.model.labels.taxonomy import Taxonomy
from inspector.model.results.entries import SampleEntry
from inspector.ui.label_text import follow_marker, item_name, taxonomy_category_text
from inspector.ui.safe import sanitize


@dataclass(frozen=True, slots=True)
class QueueRow:
    """What one row of the queue stands for."""

    index: int  # the sample's position in the queue
    sample_id: str
    group: RootGroup | None = None  # the row's group (None: the sample row)
    item: FailureItem | None = None  # the row's item (None: the whole sample)

    @property
    def ref(self) -> ItemRef:
        """The item a category key labels on this row."""
        return self.item.ref if self.item is not None else ItemRef(self.sample_id)

    @property
    def is_member(self) -> bool:
        """A member of a group (not its root)."""
        return self.group is not None and self.item is not None and \
            self.item != self.group.root

    @property
    def root_ref(self) -> ItemRef | None:
        """The root of the row's group (``None`` for the sample row)."""
        return self.group.root.ref if self.group is not None else None


Lookup = Callable[[ItemRef], Label | None]
"""The annotator's active label of an item, or ``None``."""


class FailureQueue(Tree[QueueRow]):
    """Samples and their failure items; posts :class:`RowChanged` when the cursor moves."""

    BINDINGS = [
        Binding("right", "open_group", "Open", show=False),
        Binding("left", "close_group", "Close", show=False),
    ]
    DEFAULT_CSS = """
    FailureQueue { scrollbar-size-vertical: 1; }
    """

    @dataclass
    class RowChanged(Message):
        """The cursor is on another row."""

        queue: FailureQueue
        row: QueueRow

        @property
        def control(self) -> FailureQueue:
            return self.queue

    def __init__(self, taxonomy: Taxonomy, mine: Lookup, *, id: str | None = None,  # noqa: A002 - Textual's Widget id=
                 classes: str | None = None) -> None:
        super().__init__("queue", id=id, classes=classes)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = False
        self.taxonomy = taxonomy
        self.mine = mine
        self.entries: list[SampleEntry] = []
        self.triages: dict[int, SampleTriage] = {}
        self._samples: list[TreeNode[QueueRow]] = []

    # ------------------------------------------------------------------ handlers

    def _on_tree_node_highlighted(self, event: Tree.NodeHighlighted[QueueRow]) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(self.RowChanged(self, event.node.data))

    # ------------------------------------------------------------------ actions

    def action_open_group(self) -> None:
        node = self.cursor_node
        if node is not None and node.allow_expand and not node.is_expanded:
            node.expand()
        elif node is not None and node.children:
            self.move_cursor(node.children[0])

    def action_close_group(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded and node.data and node.data.item:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)

    # ------------------------------------------------------------------ public API

    @property
    def row(self) -> QueueRow | None:
        """The row under the cursor."""
        node = self.cursor_node
        return node.data if node is not None else None

    def set_entries(self, entries: list[SampleEntry]) -> None:
        """One row per sample (items come with :meth:`set_triage`)."""
        self.clear()
        self.entries = list(entries)
        self.triages = {}
        self._samples = [
            self.root.add(self._sample_label(i), data=QueueRow(i, e.sample_id),
                          allow_expand=False)
            for i, e in enumerate(self.entries)]

    def set_triage(self, index: int, triage: SampleTriage, expand: bool = False) -> None:
        """Put the items of sample ``index`` under its row (opened when ``expand``)."""
        node = self._samples[index]
        self.triages[index] = triage
        node.remove_children()
        sid = self.entries[index].sample_id
        for group in triage.groups:
            root = node.add(self._item_label(QueueRow(index, sid, group, group.root)),
                            data=QueueRow(index, sid, group, group.root),
                            allow_expand=bool(group.members), expand=False)
            for member in group.members:
                row = QueueRow(index, sid, group, member)
                root.add_leaf(self._item_label(row), data=row)
        node.allow_expand = bool(triage.groups)
        if expand:
            node.expand()
        node.set_label(self._sample_label(index))

    def sample_text(self, index: int) -> str:
        """Sample ``index``'s row as shown (plain text)."""
        return str(self._samples[index].label)

    def rows(self, index: int) -> list[QueueRow]:
        """The rows of sample ``index``: the sample row, then each root and its members."""
        out: list[QueueRow] = []

        def walk(n: TreeNode[QueueRow]) -> None:
            if n.data is not None:
                out.append(n.data)
            for child in n.children:
                walk(child)

        walk(self._samples[index])
        return out

    def go_to(self, index: int, ref: ItemRef | None = None) -> None:
        """Put the cursor on sample ``index``'s row, or on the row of ``ref`` in it (opening
        its group when ``ref`` is a member)."""
        node = self._samples[index]
        if node.allow_expand and not node.is_expanded:
            node.expand()
        if ref is not None:
            found = self._find(node, ref)
            if found is not None:
                if found.parent is not None and found.parent is not node and \
                        not found.parent.is_expanded:
                    found.parent.expand()
                node = found
        if self.cursor_node is not node:
            self.get_node_at_line(0)  # lays out the lines now: an opened node has no line yet
            self.move_cursor(node)

    def fold(self, index: int) -> None:
        """Close sample ``index``'s row (its items stay, hidden)."""
        if 0 <= index < len(self._samples):
            self._samples[index].collapse()

    def refresh_sample(self, index: int) -> None:
        """Redraw sample ``index``'s rows (its labels changed)."""
        node = self._samples[index]
        node.set_label(self._sample_label(index))

        def walk(n: TreeNode[QueueRow]) -> None:
            for child in n.children:
                if child.data is not None:
                    child.set_label(self._item_label(child.data))
                walk(child)

        walk(node)

    # ------------------------------------------------------------------ rows

    def _find(self, node: TreeNode[QueueRow], ref: ItemRef) -> TreeNode[QueueRow] | None:
        for child in node.children:
            if child.data is not None and child.data.item is not None and \
                    child.data.item.ref == ref:
                return child
            deeper = self._find(child, ref)
            if deeper is not None:
                return deeper
        return None

    def _sample_label(self, index: int) -> Text:
        e = self.entries[index]
        mine = self.mine(ItemRef(e.sample_id))
        triage = self.triages.get(index)
        t = Text(no_wrap=True, overflow="ellipsis")
        labelled = mine is not None
        done = total = 0
        if triage is not None:
            items = [i for g in triage.groups for i in g.items]
            total = len(items)
            done = sum(1 for i in items if self.mine(i.ref) is not None)
            labelled = labelled or done > 0
        t.append("✓ " if labelled else "· ", style="bold green" if labelled else "dim")
        t.append(sanitize(f"{e.agent} {e.task}"))
        if e.sample:
            t.append(f" #{e.sample}")
        if "@" in e.run_id:  # a stock-format run of the same predictions: say which
            t.append(f"  @{sanitize(e.run_id.split('@', 1)[1][:12])}", style="dim")
        if mine is not None:
            t.append("  ")
            t.append_text(taxonomy_category_text(self.taxonomy, mine.category))
        if total:
            t.append(f"  {done}/{total}", style="dim")
        elif triage is None:
            t.append("  …", style="dim")
        return t

    def _item_label(self, row: QueueRow) -> Text:
        assert row.item is not None and row.group is not None
        label = self.mine(row.item.ref)
        root_key = row.group.root.key if row.is_member else None
        marker, style = follow_marker(label, root_key)
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(marker, style=style)
        t.append(sanitize(item_name(row.item)), style="" if row.is_member else "bold")
        if label is not None:
            t.append("  ")
            t.append_text(taxonomy_category_text(self.taxonomy, label.category,
                                                 dim=marker == "↳ "))
        if not row.is_member and row.group.members:
            n = len(row.group.members)
            t.append(f"  +{n} like it", style="italic dim")
        return t
