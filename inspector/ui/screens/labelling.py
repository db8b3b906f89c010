"""The review queue: failing samples and their failure items, one keystroke per category.

Each sample row labels the whole sample (as the synthetic runs' labels do); under it, once the
sample is triaged, its failure items are grouped by root cause. A category key on a root
labels the root and its group: the members get labels that *follow* the root (stored with
``follows`` = the root's key, so exports and agreement see them); a key on a member gives it a
label of its own, overriding the group (``f`` makes it follow again). ``r`` re-runs the item's
remedy in a sandbox (a background worker; Esc cancels) to confirm the suspected cause.

The screen is composed of the status line (:class:`~inspector.ui.labelling.progress.LabelProgress`),
the queue (:class:`~inspector.ui.widgets.failure_queue.FailureQueue`, posting ``RowChanged``)
and the item (:class:`~inspector.ui.labelling.detail.DetailPane`); where keys go next and what
they write is plain logic in :mod:`inspector.ui.labelling`.
"""

from __future__ import annotations

import contextlib
import threading

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Footer, Header, Input
from textual.worker import get_current_worker

from inspector.model.failures.triage import Confirmation, TestSuggestion
from inspector.model.labels.label_file import CONFIDENCES, ItemRef, Label
from inspector.model.results.entries import SampleEntry
from inspector.model.untrusted.errors import LoadError
from inspector.services.labels.queue import QueueSample, QueueTriage
from inspector.services.labels.session import KEEP, LabelSession
from inspector.ui.app_access import inspector_app, open_label_session
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.focus import focus_now
from inspector.ui.label_text import item_name
from inspector.ui.labelling import item as items
from inspector.ui.labelling import navigation
from inspector.ui.labelling.confirm import ConfirmFn, ConfirmRuns
from inspector.ui.labelling.detail import DetailPane, ItemView
from inspector.ui.labelling.loader import QueueLoader
from inspector.ui.labelling.progress import LabelProgress, ProgressCounts
from inspector.ui.labelling.saving import plan_save, suggestion_json
from inspector.ui.messages import LabelsChanged, OpenSample
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.widgets.evidence_list import EvidenceList
from inspector.ui.widgets.failure_queue import FailureQueue, QueueRow
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
        self.index = self.entries.index(current) if current in self.entries else 0
        self.visited: list[int] = []
        self.confidence = "medium"
        self.loader = QueueLoader(self.entries, triage)
        self.row = QueueRow(self.index, self.entries[self.index].sample_id) \
            if self.entries else QueueRow(0, "")
        self._session = session
        self.triage = triage
        self.confirms = ConfirmRuns(self, confirm, lambda: self.panel, self._render_suggestion)
        self._descend: int | None = None  # sample whose first unlabelled root to go to

    @property
    def session(self) -> LabelSession:
        return self._session or open_label_session(self)

    @property
    def loaded(self) -> dict[int, QueueSample]:
        """The queue samples read so far, by position."""
        return self.loader.loaded

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        yield LabelProgress(id="progress-row")
        with Horizontal():
            yield FailureQueue(self.session.taxonomy, self.session.mine, id="queue")
            yield DetailPane(self.session, id="item-col")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Label failures"
        self.sub_title = (f"{self.session.annotator}"
                          f"{' · blind' if self.session.blind else ''}")
        if not self.entries:
            self.header.say("No failing samples here: nothing to label. Esc goes back.")
            return
        self.queue.set_entries(self.entries)
        self.queue.go_to(self.index)
        self.show(self.index)
        self.prefetch(self.index)
        self.queue.focus()
        if self.session.read_only:
            self.sub_title += " · read-only: nothing is written"
        elif not self.session.writable:
            self.notify("Your label file cannot be read, so nothing will be written to it: "
                        + "; ".join(self.session.problems), severity="error", timeout=15)

    @property
    def queue(self) -> FailureQueue:
        return self.query_one("#queue", FailureQueue)

    @property
    def detail(self) -> DetailPane:
        return self.query_one("#item-col", DetailPane)

    @property
    def header(self) -> ItemHeader:
        return self.detail.header

    @property
    def panel(self) -> SuggestionPanel:
        return self.detail.panel

    # ------------------------------------------------------------------ queue

    def _refresh_queue_row(self, i: int) -> None:
        self.queue.refresh_sample(i)
        self._update_progress()

    def _update_progress(self) -> None:
        done, total = self.session.progress(e.sample_id for e in self.entries)
        triaged = [lo for lo in self.loaded.values() if lo.triage is not None]
        refs = items.sample_refs(triaged)
        self.query_one(LabelProgress).counts = ProgressCounts(
            self.session.annotator, done, total, self.index + 1,
            sum(1 for r in refs if self.session.mine(r) is not None), len(refs), len(triaged))

    @on(FailureQueue.RowChanged, "#queue")
    def _row_changed(self, event: FailureQueue.RowChanged) -> None:
        row = event.row
        if row != self.queue.row:
            return  # stale: the cursor moved on since (a group opened above it, a jump)
        if row.index != self.index:
            self.visited.append(self.index)
            self.row = row
            self.show(row.index, move=False)
        elif row != self.row:
            self.row = row
            self._render_item()

    def go(self, index: int, remember: bool = True) -> None:
        """Show queue sample ``index`` (its sample row)."""
        if not 0 <= index < len(self.entries):
            return
        if remember and index != self.index:
            self.visited.append(self.index)
        self.show(index)

    def show(self, index: int, move: bool = True, ref: ItemRef | None = None) -> None:
        """Show sample ``index``: its row (``ref``'s row in it), its evidence and labels."""
        if move and index != self.index:
            self.queue.fold(self.index)  # a jump leaves the queue as short as it was
        self.index = index
        self.confidence = "medium"
        if move:
            self.row = self._row_for(index, ref)
            self.queue.go_to(index, ref if self.row.item is not None else None)
        self._update_progress()
        if index in self.loaded:
            self._render_item()
        else:
            self.header.say(f"Loading {self.entries[index].sample_id}…")
        self.load(index)

    def _row_for(self, index: int, ref: ItemRef | None) -> QueueRow:
        if ref is not None and index in self.queue.triages:
            for row in self.queue.rows(index):
                if row.item is not None and row.ref == ref:
                    return row
        return QueueRow(index, self.entries[index].sample_id)

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
        if loaded is None:
            return
        with contextlib.suppress(RuntimeError):  # the app has gone
            self.app.call_from_thread(self._loaded, i, loaded)

    def _loaded(self, index: int, loaded: QueueSample) -> None:
        self.loader.keep(index, loaded)
        if not self.is_attached:
            return
        if loaded.triage is not None:
            self.queue.set_triage(index, loaded.triage, expand=index == self.index)
            self._update_progress()
        if index == self.index:
            if self._descend == index and self.row.item is None:
                self._descend = None
                root = self._first_unlabelled_root(index)
                if root is not None:
                    self.row = root
                    self.queue.go_to(index, root.ref)
            elif self.row.item is not None:
                self.queue.go_to(index, self.row.ref)
            self._render_item()

    # ------------------------------------------------------------------ the item

    @property
    def entry(self) -> SampleEntry:
        return self.entries[self.index]

    @property
    def item(self) -> ItemRef:
        """What a category key labels now."""
        return self.row.ref

    @property
    def scope(self) -> str | None:
        """The failing test being labelled (``None``: the sample or a sample-level item)."""
        return items.scope(self.row)

    def _test_suggestion(self) -> TestSuggestion | None:
        return items.suggestion_for(self.row, self.loaded.get(self.index))

    def _failing_items(self) -> list[QueueRow]:
        """The current sample's root rows (what ``t`` steps through)."""
        if self.index not in self.queue.triages:
            return []
        return items.roots(self.queue.rows(self.index))

    def _view(self) -> ItemView:
        conf = self.confirmations.get(self.item.key)
        if conf is None and self.row.is_member and self.row.root_ref is not None:
            conf = self.confirmations.get(self.row.root_ref.key)  # the group's re-run
        return ItemView(self.entry, self.loaded.get(self.index), self.row,
                        len(self._failing_items()), self.confidence, conf,
                        self.triage is not None)

    def _render_item(self) -> None:
        self.detail.show(self._view())

    def _render_scope(self) -> None:
        self.detail.show_scope(self._view())

    def _render_suggestion(self) -> None:
        self.detail.show_suggestion(self._view())

    def _render_evidence(self) -> None:
        self.detail.show_evidence(self._view())

    def _render_labels(self) -> None:
        self.detail.show_labels(self._view())

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
        if self.index not in self.loaded:
            self.notify("Still loading this item's evidence; try again in a moment.",
                        severity="warning", timeout=3)
            return
        item = self.item
        old = self.session.mine(item)
        if old is not None and old.category != category:
            def after(reason: str | None) -> None:
                if reason is not None:
                    self._save(item, category, reason, advance=False)

            self.app.push_screen(PromptScreen(
                f"Why change {self.session.taxonomy.name_of(old.category)} → "
                f"{self.session.taxonomy.name_of(category)}? (Enter to skip, Esc cancels)",
                placeholder="reason, kept in the label's history"), after)
            return
        self._save(item, category, "", advance=old is None)

    def _save(self, item: ItemRef, category: str, reason: str, advance: bool) -> None:
        loaded = self.loaded.get(self.index)
        row = self.row
        plan = plan_save(row, category, self.session.taxonomy.name_of(category),
                         per_test=self._test_suggestion(),
                         sample_suggestion=loaded.suggestion if loaded else None,
                         confidence=self.confidence if self.session.mine(item) is None
                         else None)
        note = self.detail.note
        done = lambda lb, err: self._written(lb, err, plan.saved)  # noqa: E731
        try:
            if plan.group:
                self.session.save_group(item, plan.members, category,
                                        confidence=plan.confidence, note=note,
                                        suggestion=plan.suggestion, reason=reason, done=done)
            else:
                self.session.save(item, category, confidence=plan.confidence, note=note,
                                  suggestion=plan.suggestion, reason=reason,
                                  follows=None if plan.is_member else KEEP, done=done)
        except LoadError as exc:
            self.notify(f"Not saved: {exc}", severity="error", timeout=12)
            return
        if not advance:
            return
        if row.item is None:
            self.action_next_unlabelled(after_save=item.sample)
        elif not row.is_member:
            self._next_unlabelled_root(row)

    def _written(self, label: Label | None, error: Exception | None, saved: str = "") -> None:
        """Called on the label writer thread once the file is on disk (or the write failed):
        only then is the save announced (``saved``), or the failure, naming the file."""
        sample = label.item.sample if label is not None else ""
        self.app.call_from_thread(self._after_write, sample, error, saved)

    def _after_write(self, sample: str, error: Exception | None, saved: str = "") -> None:
        if error is not None:
            self.notify(f"Not saved: {error}", severity="error", timeout=12)
        elif saved:
            self.notify(saved, timeout=2)
        self.app.post_message(LabelsChanged(sample))
        if not self.is_attached:
            return
        for i, e in enumerate(self.entries):
            if e.sample_id == sample:
                self._refresh_queue_row(i)
        self._render_scope()
        self._render_labels()
        self._render_evidence()

    # ------------------------------------------------------------------ moving on

    def _first_unlabelled_root(self, index: int) -> QueueRow | None:
        return navigation.first_unlabelled_root(self.queue.rows(index), self.session.mine)

    def _rows_if_triaged(self, index: int) -> list[QueueRow] | None:
        return self.queue.rows(index) if index in self.queue.triages else None

    def _next_unlabelled_root(self, after: QueueRow) -> None:
        """After labelling a root: the next unlabelled root of this sample, else of the next
        sample with one (its row, until it is triaged)."""
        target = navigation.next_unlabelled_root(
            self.index, after, len(self.entries), self._rows_if_triaged,
            lambda i: self.session.state(self.entries[i].sample_id) == "unlabelled",
            self.session.mine)
        if target is None:
            self.notify("Every failure item triaged so far is labelled.", timeout=5)
        elif target.here and target.row is not None:
            self.row = target.row
            self.queue.go_to(self.index, target.row.ref)
            self._render_item()
        elif target.row is not None:
            self.visited.append(self.index)
            self.show(target.index, ref=target.row.ref)
        else:
            self._descend = target.index
            self.go(target.index)

    def action_next_unlabelled(self, after_save: str | None = None) -> None:
        """The next sample (after this one, wrapping) the annotator has not labelled."""
        i = navigation.next_unlabelled_sample(
            self.index, [e.sample_id for e in self.entries],
            lambda sid: self.session.state(sid) == "unlabelled", skip=after_save)
        if i is not None:
            self.go(i)
            return
        if after_save is not None or self.session.state(self.entry.sample_id) == "labelled":
            self.notify("Every sample in this queue is labelled. D shows disagreements.",
                        timeout=5)

    def action_skip(self) -> None:
        if self.index + 1 < len(self.entries):
            self.go(self.index + 1)
        else:
            self.notify("End of the queue.", timeout=2)

    def action_previous(self) -> None:
        if self.visited:
            self.show(self.visited.pop())
        elif self.index > 0:
            self.show(self.index - 1)

    def action_scope(self) -> None:
        """Step through the sample's failure items (roots), then back to the sample."""
        roots = self._failing_items()
        if not roots:
            self.notify("No individual failure items were recorded for this sample."
                        if self.index in self.loaded else "Still loading this sample.",
                        severity="warning", timeout=3)
            return
        nxt = navigation.next_scope(self.row, roots)
        self.row = nxt or QueueRow(self.index, self.entry.sample_id)
        self.queue.go_to(self.index, nxt.ref if nxt else None)
        self._render_item()

    # ------------------------------------------------------------------ label edits

    @refused_when_read_only(Write.LABEL)
    def action_take_suggestion(self) -> None:
        if self.row.item is None:
            loaded = self.loaded.get(self.index)
            if loaded is None or loaded.suggestion is None:
                self.notify("No suggestion for this item.", severity="warning", timeout=3)
                return
            self.label(loaded.suggestion.category)
            return
        s = self._test_suggestion()
        if s is None or s.category is None:
            self.notify("The suggestion is unsure: pick a category with its key."
                        if s is not None and s.unsure else "No suggestion for this item.",
                        severity="warning", timeout=4)
            return
        self.label(s.category)

    @refused_when_read_only(Write.LABEL)
    def action_follow_root(self) -> None:
        """Drop a member's own label: it follows its root's label again."""
        row = self.row
        if not row.is_member or row.root_ref is None:
            self.notify("Only a member of a group can follow its root.", severity="warning",
                        timeout=3)
            return
        try:
            self.session.follow(row.ref, row.root_ref,
                                done=lambda lb, err: self._written(lb, err, "Follows its root"))
        except ValueError as exc:
            self.notify(str(exc), severity="warning", timeout=4)
        except LoadError as exc:
            self.notify(f"Not saved: {exc}", severity="error", timeout=12)

    @refused_when_read_only(Write.LABEL)
    def action_confidence(self) -> None:
        mine = self.session.mine(self.item)
        current = mine.confidence if mine else self.confidence
        nxt = CONFIDENCES[(CONFIDENCES.index(current) + 1) % len(CONFIDENCES)]
        self.confidence = nxt
        if mine is not None:
            self.session.save(self.item, mine.category, confidence=nxt, done=self._written)
        self._render_labels()

    @refused_when_read_only(Write.LABEL)
    def action_edit_note(self) -> None:
        focus_now(self.query_one("#note", Input))

    @on(Input.Submitted, "#note")
    def _note_submitted(self, event: Input.Submitted) -> None:
        mine = self.session.mine(self.item)
        if mine is not None and event.value.strip() != mine.note:
            try:
                self.session.save(self.item, mine.category, note=event.value.strip(),
                                  done=lambda lb, err: self._written(lb, err, "Note saved."))
            except LoadError as exc:
                self.notify(f"Not saved: {exc}", severity="error", timeout=12)
        elif mine is None:
            self.notify("The note is saved with your label (press a category key).",
                        timeout=3)
        self.queue.focus()

    @refused_when_read_only(Write.LABEL)
    def action_toggle_evidence(self) -> None:
        anchor = self.detail.highlighted_anchor
        if anchor is None:
            self.notify("No evidence to attach here.", severity="warning", timeout=3)
            return
        if anchor in self.detail.attached(self.item):
            self.session.remove_evidence(self.item, anchor, done=self._written)
        else:
            state = self.session.add_evidence(self.item, anchor, done=self._written)
            if state == "pending":
                self.notify("Evidence kept; it is saved with your label.", timeout=2)
        self._render_evidence()

    @on(EvidenceList.Opened, "#evidence")
    def _open_anchor(self, event: EvidenceList.Opened) -> None:
        a = event.anchor
        key = self.entry.key
        if a.kind == "file":
            self.app.post_message(OpenSample(key, file=a.path, line=a.line))
        elif a.kind == "task":
            self.app.post_message(OpenSample(key, file=a.path, line=a.line, root="task"))
        elif a.kind == "log":
            self.app.post_message(OpenSample(key, phase=a.phase))
        else:
            self.app.post_message(OpenSample(key, test_id=a.test))

    @refused_when_read_only(Write.LABEL)
    def action_retract(self) -> None:
        if self.session.mine(self.item) is None:
            self.notify("You have no label on this item.", severity="warning", timeout=3)
            return
        n = len(self.session.followers(self.item))
        also = f" (and the {n} following it)" if n else ""

        def after(reason: str | None) -> None:
            if reason is not None:
                self.session.retract(self.item, reason, done=self._written)

        self.app.push_screen(PromptScreen(f"Retract your label{also}? Why (Enter to retract, "
                                          "Esc cancels)", placeholder="reason"), after)

    # ------------------------------------------------------------------ confirmation

    @property
    def confirmations(self) -> dict[str, Confirmation]:
        """This session's re-runs, by item key."""
        return self.confirms.results

    @property
    def confirm_cancel(self) -> threading.Event | None:
        """Set to cancel the running re-run (``None``: none runs)."""
        return self.confirms.cancel

    @property
    def confirming_key(self) -> str | None:
        """The item being confirmed."""
        return self.confirms.key

    @refused_when_read_only(Write.RERUN)
    def action_confirm(self) -> None:
        """Re-run the item's remedy in a sandbox to confirm its suspected cause."""
        loaded = self.loaded.get(self.index)
        s = self._test_suggestion()
        remedy = s.remedy if s is not None else None
        if loaded is None or loaded.sample is None:
            self.notify("Still loading this sample.", severity="warning", timeout=3)
            return
        if remedy is None:
            self.notify("No remedy to try for this item: nothing a re-run could confirm.",
                        severity="warning", timeout=5)
            return
        if self.confirms.cancel is not None:
            self.notify("A confirmation is already running (Esc cancels it).",
                        severity="warning", timeout=4)
            return
        if self.confirms.confirm_fn is None:
            self.notify("Causal re-runs are not available in this build.",
                        severity="error", timeout=6)
            return
        what = f"{remedy.describe()} — {item_name(self.row.item) if self.row.item else 'sample'}"
        self.confirms.start(remedy, loaded.sample, loaded.task, self.item.key, what)

    def cancel_confirmation(self) -> bool:
        """Cancel a running confirmation; ``False`` when none runs."""
        return self.confirms.stop()

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
        if self.confirms.cancel is not None:  # leaving: the sandbox stops too
            self.confirms.cancel.set()

    def on_screen_resume(self) -> None:
        if self.entries and self.is_mounted:
            for i in range(len(self.entries)):
                self.queue.refresh_sample(i)
            self._update_progress()
            if self.index in self.loaded:
                self._render_item()
