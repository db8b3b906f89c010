"""The review queue: a `FailureQueue` that owns which item is being labelled, where keys go
next, and the samples read and triaged in thread workers (which post messages to it).

It posts `ReviewQueue.Moved` when another item is current (the screen shows it) and
`ReviewQueue.Counted` when the progress counts may have changed.
"""

from __future__ import annotations

import contextlib

from textual import on, work
from textual.message import Message
from textual.worker import get_current_worker

from inspector.model.labels.label_file import ItemRef
from inspector.model.results.entries import SampleEntry
from inspector.services.labels.queue import QueueSample, QueueTriage
from inspector.services.labels.session import LabelSession
from inspector.ui.app_access import inspector_app
from inspector.ui.labelling import item as items
from inspector.ui.labelling import navigation
from inspector.ui.labelling.loader import QueueLoader
from inspector.ui.labelling.progress import ProgressCounts
from inspector.ui.widgets.failure_queue import FailureQueue, QueueRow


class ReviewQueue(FailureQueue):
    """The failing samples; :attr:`index` and :attr:`current` are what a key labels."""

    class Moved(Message):
        """Another item is current; ``sample``: a sample was shown afresh."""

        def __init__(self, sample: bool) -> None:
            super().__init__()
            self.sample = sample

    class Counted(Message):
        """A sample was triaged or relabelled: the progress counts may have changed."""

    class _Loaded(Message, bubble=False):
        def __init__(self, index: int, loaded: QueueSample) -> None:
            super().__init__()
            self.index, self.loaded = index, loaded

    def __init__(self, entries: list[SampleEntry], index: int, session: LabelSession,
                 triage: QueueTriage | None, *, id: str | None = None) -> None:  # noqa: A002 - Textual's Widget id=
        super().__init__(session.taxonomy, session.mine, id=id)
        self.session = session
        self.entries = entries
        self.index = index
        self.current = QueueRow(index, entries[index].sample_id) if entries else QueueRow(0, "")
        """The row a category key labels."""
        self.visited: list[int] = []
        self.loader = QueueLoader(entries, triage)
        self._descend: int | None = None  # sample whose first unlabelled root to go to

    @property
    def loaded(self) -> dict[int, QueueSample]:
        """The queue samples read so far, by position."""
        return self.loader.loaded

    @property
    def entry(self) -> SampleEntry:
        return self.entries[self.index]

    def start(self) -> None:
        """Fill the queue, show the first item, triage the rest in the background."""
        self.set_entries(self.entries)
        self.go_to(self.index)
        self.show(self.index)
        self.prefetch(self.index)
        self.focus()

    def counts(self) -> ProgressCounts:
        """What the progress line says."""
        s = self.session
        done, total = s.progress(e.sample_id for e in self.entries)
        triaged = [lo for lo in self.loaded.values() if lo.triage is not None]
        refs = items.sample_refs(triaged)
        return ProgressCounts(s.annotator, done, total, self.index + 1,
                              sum(1 for r in refs if s.mine(r) is not None), len(refs),
                              len(triaged))

    def roots(self) -> list[QueueRow]:
        """The current sample's root rows (what ``t`` steps through)."""
        return items.roots(self.rows(self.index)) if self.index in self.triages else []

    def relabelled(self, sample: str) -> None:
        """Redraw the rows of ``sample``, whose labels changed."""
        for i, e in enumerate(self.entries):
            if e.sample_id == sample:
                self.refresh_sample(i)
                self.post_message(self.Counted())

    # ------------------------------------------------------------------ showing

    @on(FailureQueue.RowChanged)
    def _row_changed(self, event: FailureQueue.RowChanged) -> None:
        event.stop()
        row = event.row
        if row != self.row:
            return  # stale: the cursor moved on since (a group opened above it, a jump)
        if row.index != self.index:
            self.visited.append(self.index)
            self.current = row
            self.show(row.index, move=False)
        elif row != self.current:
            self.current = row
            self.post_message(self.Moved(False))

    def go(self, index: int, remember: bool = True) -> None:
        """Show queue sample ``index`` (its sample row)."""
        if not 0 <= index < len(self.entries):
            return
        if remember and index != self.index:
            self.visited.append(self.index)
        self.show(index)

    def show(self, index: int, move: bool = True, ref: ItemRef | None = None) -> None:
        """Show sample ``index``: its row (``ref``'s row in it), and load it."""
        if move and index != self.index:
            self.fold(self.index)  # a jump leaves the queue as short as it was
        self.index = index
        if move:
            self.current = self._row_for(index, ref)
            self.go_to(index, ref if self.current.item is not None else None)
        self.post_message(self.Moved(True))
        self.load(index)

    def _row_for(self, index: int, ref: ItemRef | None) -> QueueRow:
        if ref is not None and index in self.triages:
            for row in self.rows(index):
                if row.item is not None and row.ref == ref:
                    return row
        return QueueRow(index, self.entries[index].sample_id)

    def _move_within(self, row: QueueRow | None) -> None:
        """To ``row`` of the current sample (``None``: its sample row)."""
        self.current = row or QueueRow(self.index, self.entry.sample_id)
        self.go_to(self.index, row.ref if row else None)
        self.post_message(self.Moved(False))

    # ------------------------------------------------------------------ loading

    @work(thread=True, group="label-load")
    def load(self, index: int) -> None:
        """Read and triage the sample and the next, compute their evidence candidates."""
        for i in (index, index + 1):
            self._load_into(i)

    @work(thread=True, exclusive=True, group="label-prefetch")
    def prefetch(self, start: int) -> None:
        """Triage the rest of the queue in the background (from ``start`` on, wrapping), so
        every sample row shows its items and the progress counts them."""
        worker = get_current_worker()
        n = len(self.entries)
        for step in range(n):
            if worker.is_cancelled:
                return
            self._load_into((start + step) % n)

    def _load_into(self, i: int) -> None:
        """Load sample ``i`` unless it is loaded or being loaded; hand it to the UI."""
        loaded = self.loader.load(inspector_app(self).catalog, i)
        if loaded is not None:
            with contextlib.suppress(RuntimeError):  # the app has gone
                self.post_message(self._Loaded(i, loaded))

    @on(_Loaded)
    def _loaded(self, event: _Loaded) -> None:
        index, loaded = event.index, event.loaded
        self.loader.keep(index, loaded)
        if loaded.triage is not None:
            self.set_triage(index, loaded.triage, expand=index == self.index)
            self.post_message(self.Counted())
        if index != self.index:
            return
        if self._descend == index and self.current.item is None:
            self._descend = None
            root = navigation.first_unlabelled_root(self.rows(index), self.session.mine)
            if root is not None:
                self.current = root
                self.go_to(index, root.ref)
        elif self.current.item is not None:
            self.go_to(index, self.current.ref)
        self.post_message(self.Moved(False))

    # ------------------------------------------------------------------ moving on

    def advance(self, row: QueueRow, item: ItemRef) -> None:
        """After a new label on ``row`` (``item``): the next unlabelled sample, or after a
        root the next unlabelled root."""
        if row.item is None:
            self.next_unlabelled(after_save=item.sample)
        elif not row.is_member:
            self._next_unlabelled_root(row)

    def _next_unlabelled_root(self, after: QueueRow) -> None:
        """The next unlabelled root of this sample, else of the next sample with one (its
        row, until it is triaged)."""
        target = navigation.next_unlabelled_root(
            self.index, after, len(self.entries),
            lambda i: self.rows(i) if i in self.triages else None,
            lambda i: self.session.state(self.entries[i].sample_id) == "unlabelled",
            self.session.mine)
        if target is None:
            self.notify("Every failure item triaged so far is labelled.", timeout=5)
        elif target.here and target.row is not None:
            self._move_within(target.row)
        elif target.row is not None:
            self.visited.append(self.index)
            self.show(target.index, ref=target.row.ref)
        else:
            self._descend = target.index
            self.go(target.index)

    def next_unlabelled(self, after_save: str | None = None) -> None:
        """The next sample (after this one, wrapping) the annotator has not labelled."""
        i = navigation.next_unlabelled_sample(
            self.index, [e.sample_id for e in self.entries],
            lambda sid: self.session.state(sid) == "unlabelled", skip=after_save)
        if i is not None:
            self.go(i)
        elif after_save is not None or self.session.state(self.entry.sample_id) == "labelled":
            self.notify("Every sample in this queue is labelled. D shows disagreements.",
                        timeout=5)

    def skip(self) -> None:
        if self.index + 1 < len(self.entries):
            self.go(self.index + 1)
        else:
            self.notify("End of the queue.", timeout=2)

    def previous(self) -> None:
        if self.visited:
            self.show(self.visited.pop())
        elif self.index > 0:
            self.show(self.index - 1)

    def next_scope(self) -> None:
        """Step through the sample's failure items (roots), then back to the sample."""
        roots = self.roots()
        if not roots:
            self.notify("No individual failure items were recorded for this sample."
                        if self.index in self.loaded else "Still loading this sample.",
                        severity="warning", timeout=3)
            return
        self._move_within(navigation.next_scope(self.current, roots))
