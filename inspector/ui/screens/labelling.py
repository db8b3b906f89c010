"""The review queue: failing samples and their failure items, one keystroke per category.

Each sample row labels the whole sample (as the synthetic runs' labels do); under it, once the
sample is triaged, its failure items are grouped by root cause. A category key on a root
labels the root and its group: the members get labels that *follow* the root (stored with
``follows`` = the root's key, so exports and agreement see them); a key on a member gives it a
label of its own, overriding the group (``f`` makes it follow again). ``r`` re-runs the item's
remedy in a sandbox (a background worker; Esc cancels) to confirm the suspected cause.

The screen composes, binds keys and routes messages between its regions: the status line
(:class:`~inspector.ui.labelling.progress.LabelProgress`), the queue
(:class:`~inspector.ui.labelling.queue.ReviewQueue`: the current item, where keys go next, the
samples loading in workers; posts ``Moved`` and ``Counted``) and the item
(:class:`~inspector.ui.labelling.detail.DetailPane`: shows it, writes its label, runs re-runs;
posts ``Labelled`` and ``Written``); what keys write and where they go is plain logic in
:mod:`inspector.ui.labelling`.
"""

from __future__ import annotations

import threading

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Footer, Header, Input

from inspector.model.failures.triage import Confirmation
from inspector.model.labels.label_file import ItemRef
from inspector.model.results.entries import SampleEntry
from inspector.services.labels.queue import QueueSample, QueueTriage
from inspector.services.labels.session import LabelSession
from inspector.ui.app_access import open_label_session
from inspector.ui.labelling import item as items
from inspector.ui.labelling.confirm import ConfirmFn
from inspector.ui.labelling.detail import DetailPane, ItemView
from inspector.ui.labelling.progress import LabelProgress
from inspector.ui.labelling.queue import ReviewQueue
from inspector.ui.labelling.saving import suggestion_json
from inspector.ui.messages import OpenSample
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.widgets.failure_queue import QueueRow
from inspector.ui.widgets.item_header import ItemHeader
from inspector.ui.widgets.suggestion_panel import SuggestionPanel

__all__ = ["ConfirmFn", "LabelScreen", "suggestion_json"]


class LabelScreen(Screen[None]):
    """Label failing samples, or their failure items root group by root group.

    A category key labels the row's item (a root: with its group) and moves on to the next
    unlabelled one; ``g`` takes the suggestion; ``a`` attaches the highlighted evidence and
    Enter on it opens it; ``r`` confirms a suggestion by re-running its remedy.
    """

    BINDINGS = [
        Binding("escape,q", "back", "Back"),
        Binding("g", "take_suggestion", "Take suggestion"),
        Binding("c", "confidence", "Confidence"),
        Binding("e", "edit_note", "Note"),
        Binding("a", "toggle_evidence", "Evidence"),
        Binding("t", "scope", "Next item"),
        Binding("f", "follow_root", "Follow root", show=False),
        Binding("r", "confirm", "Confirm (re-run)"),
        Binding("n", "next_unlabelled", "Next unlabelled"),
        Binding("s", "skip", "Skip"),
        Binding("b", "previous", "Back one"),
        Binding("x", "retract", "Retract", show=False),
        Binding("o", "open_sample", "Open sample"),
        Binding("D", "disagreements", "Disagreements"),
    ]
    DEFAULT_CSS = """
    LabelScreen #progress-row { height: 1; padding: 0 1; }
    LabelScreen #progress-text { width: 1fr; }
    LabelScreen #progress { width: 32; }
    LabelScreen #queue { width: 56; min-width: 30; height: 1fr;
        border-right: solid $panel-lighten-2; }
    LabelScreen #item { width: 1fr; height: 1fr; padding: 0 1; }
    LabelScreen #item > Static { height: auto; margin-bottom: 1; }
    LabelScreen #evidence { height: auto; max-height: 12; border: round $panel-lighten-2; }
    LabelScreen #legend { dock: bottom; height: auto; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    """

    def __init__(self, entries: list[SampleEntry], start: int = 0, *,
                 session: LabelSession | None = None, triage: QueueTriage | None = None,
                 confirm: ConfirmFn | None = None) -> None:
        super().__init__()
        self.entries = [e for e in entries if e.verdict.is_failure]
        current = entries[start] if 0 <= start < len(entries) else None
        self._start = self.entries.index(current) if current in self.entries else 0
        self._session = session
        self._triage = triage
        self._confirm = confirm

    @property
    def session(self) -> LabelSession:
        return self._session or open_label_session(self)

    def compose(self) -> ComposeResult:
        yield Header()
        yield LabelProgress(id="progress-row")
        self.queue = ReviewQueue(self.entries, self._start, self.session, self._triage,
                                 id="queue")
        self.detail = DetailPane(self.session, self._confirm, id="item-col")
        with Horizontal():
            yield self.queue
            yield self.detail
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Label failures"
        self.sub_title = (f"{self.session.annotator}"
                          f"{' · blind' if self.session.blind else ''}")
        if not self.entries:
            self.header.say("No failing samples here: nothing to label. Esc goes back.")
            return
        self.queue.start()
        if self.session.read_only:
            self.sub_title += " · read-only: nothing is written"
        elif not self.session.writable:
            self.notify("Your label file cannot be read, so nothing will be written to it: "
                        + "; ".join(self.session.problems), severity="error", timeout=15)

    # ------------------------------------------------------------------ the parts

    @property
    def header(self) -> ItemHeader:
        return self.detail.header

    @property
    def panel(self) -> SuggestionPanel:
        return self.detail.panel

    @property
    def index(self) -> int:
        """The queue sample shown."""
        return self.queue.index

    @property
    def row(self) -> QueueRow:
        """The row a category key labels."""
        return self.queue.current

    @property
    def entry(self) -> SampleEntry:
        return self.queue.entry

    @property
    def loaded(self) -> dict[int, QueueSample]:
        """The queue samples read so far, by position."""
        return self.queue.loaded

    @property
    def item(self) -> ItemRef:
        """What a category key labels now."""
        return self.row.ref

    @property
    def scope(self) -> str | None:
        """The failing test being labelled (``None``: the sample or a sample-level item)."""
        return items.scope(self.row)

    def go(self, index: int, remember: bool = True) -> None:
        """Show queue sample ``index`` (its sample row)."""
        self.queue.go(index, remember)

    # ------------------------------------------------------------------ what the parts post

    @on(ReviewQueue.Moved)
    def _moved(self, event: ReviewQueue.Moved) -> None:
        if event.sample:
            self.detail.confidence = "medium"
        self._update_progress()
        if self.index in self.loaded:
            self._render_item()
        else:
            self.detail.show_loading(self._view())

    @on(ReviewQueue.Counted)
    def _update_progress(self) -> None:
        self.query_one(LabelProgress).counts = self.queue.counts()

    @on(DetailPane.Labelled)
    def _labelled(self, event: DetailPane.Labelled) -> None:
        self.queue.advance(event.row, event.item)

    @on(DetailPane.Written)
    def _written(self, event: DetailPane.Written) -> None:
        self.queue.relabelled(event.sample)

    @on(DetailPane.Left)
    def _left_note(self) -> None:
        self.queue.focus()

    def _view(self) -> ItemView:
        return ItemView(self.entry, self.loaded.get(self.index), self.row,
                        len(self.queue.roots()), self._triage is not None)

    def _render_item(self) -> None:
        self.detail.show(self._view())

    # ------------------------------------------------------------------ keys

    def on_key(self, event: Key) -> None:
        if isinstance(self.focused, Input) or not event.character:
            return
        cat = self.session.taxonomy.by_key(event.character)
        if cat is not None and self.entries:
            event.stop()
            event.prevent_default()
            self.label(cat.id)

    @refused_when_read_only(Write.LABEL)
    def label(self, category: str) -> None:
        """Label the current item; a change of an existing label asks why (Enter skips)."""
        self.detail.label(category)

    def action_next_unlabelled(self) -> None:
        self.queue.next_unlabelled()

    def action_skip(self) -> None:
        self.queue.skip()

    def action_previous(self) -> None:
        self.queue.previous()

    def action_scope(self) -> None:
        self.queue.next_scope()

    @refused_when_read_only(Write.LABEL)
    def action_take_suggestion(self) -> None:
        self.detail.take_suggestion()

    @refused_when_read_only(Write.LABEL)
    def action_follow_root(self) -> None:
        self.detail.follow_root()

    @refused_when_read_only(Write.LABEL)
    def action_confidence(self) -> None:
        self.detail.cycle_confidence()

    @refused_when_read_only(Write.LABEL)
    def action_edit_note(self) -> None:
        self.detail.edit_note()

    @refused_when_read_only(Write.LABEL)
    def action_toggle_evidence(self) -> None:
        self.detail.toggle_evidence()

    @refused_when_read_only(Write.LABEL)
    def action_retract(self) -> None:
        self.detail.retract()

    # ------------------------------------------------------------------ confirmation

    @property
    def confirmations(self) -> dict[str, Confirmation]:
        """This session's re-runs, by item key."""
        return self.detail.confirms.results

    @property
    def confirm_cancel(self) -> threading.Event | None:
        """Set to cancel the running re-run (``None``: none runs)."""
        return self.detail.confirms.cancel

    @property
    def confirming_key(self) -> str | None:
        """The item being confirmed."""
        return self.detail.confirms.key

    @refused_when_read_only(Write.RERUN)
    def action_confirm(self) -> None:
        """Re-run the item's remedy in a sandbox to confirm its suspected cause."""
        self.detail.confirm()

    def cancel_confirmation(self) -> bool:
        """Cancel a running confirmation; ``False`` when none runs."""
        return self.detail.confirms.stop()

    # ------------------------------------------------------------------ elsewhere

    def action_open_sample(self) -> None:
        self.app.post_message(OpenSample(self.entry.key, test_id=self.scope))

    def action_disagreements(self) -> None:
        from inspector.ui.screens.adjudication import DisagreementScreen

        self.app.push_screen(DisagreementScreen())

    def action_back(self) -> None:
        if isinstance(self.focused, Input):
            self.queue.focus()
            return
        if self.cancel_confirmation():
            return
        self.dismiss(None)

    def on_unmount(self) -> None:
        if self.confirm_cancel is not None:  # leaving: the sandbox stops too
            self.confirm_cancel.set()

    def on_screen_resume(self) -> None:
        if self.entries and self.is_mounted:
            for i in range(len(self.entries)):
                self.queue.refresh_sample(i)
            self._update_progress()
            if self.index in self.loaded:
                self._render_item()
