"""The labelling screen's right side: the item (its header, suggestion, evidence and labels)
and the legend of category keys. It shows the item the screen hands it and writes its label:
category, confidence, note, evidence, retraction. A write is announced once it is on disk
(from the label writer's thread, by message); the pane then posts `DetailPane.Written`, and
`DetailPane.Labelled` when a new label should move the queue on. Enter on evidence opens it."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Input, Static

from inspector.model.labels.label_file import CONFIDENCES, Anchor, ItemRef, Label
from inspector.model.labels.taxonomy import Taxonomy
from inspector.model.results.entries import SampleEntry
from inspector.model.untrusted.errors import LoadError
from inspector.services.labels.queue import QueueSample
from inspector.services.labels.session import KEEP, LabelSession
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.focus import focus_now
from inspector.ui.labelling import item as items
from inspector.ui.labelling.confirm import ConfirmFinished, ConfirmFn, ConfirmRuns
from inspector.ui.labelling.saving import plan_save
from inspector.ui.messages import LabelsChanged, OpenSample
from inspector.ui.safe import sanitize
from inspector.ui.widgets.evidence_list import EvidenceList
from inspector.ui.widgets.failure_queue import QueueRow
from inspector.ui.widgets.item_header import ItemHeader
from inspector.ui.widgets.label_summary import LabelSummary
from inspector.ui.widgets.suggestion_panel import SuggestionPanel


@dataclass(frozen=True, slots=True)
class ItemView:
    """What the detail pane shows: queue sample ``entry`` (``loaded`` once read) at ``row``."""

    entry: SampleEntry
    loaded: QueueSample | None
    row: QueueRow
    roots: int  # the sample's root items (``t`` steps through them)
    per_test: bool  # per-test suggestions are available


def legend(taxonomy: Taxonomy) -> Text:
    """The category keys in their colours."""
    t = Text()
    for cat in taxonomy.categories:
        t.append(f" {sanitize(cat.key)} ", style="bold reverse")
        t.append(f" {sanitize(cat.name)}   ", style=f"bold {cat.colour}")
    return t


class DetailPane(Vertical):
    """``#item`` (header, suggestion, evidence, labels) over ``#legend``."""

    class Labelled(Message):
        """``row`` (labelling ``item``) got a new label: move on."""

        def __init__(self, row: QueueRow, item: ItemRef) -> None:
            super().__init__()
            self.row, self.item = row, item

    class Written(Message):
        """A label of ``sample`` was written (or failed to be)."""

        def __init__(self, sample: str) -> None:
            super().__init__()
            self.sample = sample

    class Left(Message):
        """The note was submitted: the queue takes the focus back."""

    class _Written(Message, bubble=False):
        def __init__(self, sample: str) -> None:
            super().__init__()
            self.sample = sample

    def __init__(self, session: LabelSession, confirm: ConfirmFn | None = None, *,
                 id: str | None = None) -> None:  # noqa: A002 - Textual's Widget id=
        super().__init__(id=id)
        self.session = session
        self.confirms = ConfirmRuns(self, confirm, lambda: self.panel, self._confirmed)
        self.view: ItemView | None = None
        """The item shown (what the keys write)."""
        self.confidence = "medium"
        """The confidence of a new label (``c`` cycles it)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="item"):
            yield ItemHeader(id="item-header")
            yield SuggestionPanel(self.session.taxonomy, id="suggestion-panel")
            yield Static("Evidence  (a attaches/detaches, Enter opens)", id="evidence-title")
            yield EvidenceList(id="evidence")
            yield LabelSummary(self.session.taxonomy, id="labels")
        yield Static(legend(self.session.taxonomy), id="legend")

    @property
    def header(self) -> ItemHeader:
        return self.query_one("#item-header", ItemHeader)

    @property
    def panel(self) -> SuggestionPanel:
        return self.query_one("#suggestion-panel", SuggestionPanel)

    @property
    def note(self) -> str:
        """The note as typed."""
        return self.query_one("#labels", LabelSummary).note

    @property
    def highlighted_anchor(self) -> Anchor | None:
        """The highlighted evidence."""
        return self.query_one("#evidence", EvidenceList).highlighted_anchor

    def attached(self, ref: ItemRef) -> list[Anchor]:
        """The evidence attached to ``ref``'s label (or kept for it until it is labelled)."""
        mine = self.session.mine(ref)
        return list(mine.evidence) if mine else self.session.pending_evidence(ref)

    def show(self, view: ItemView) -> None:
        """Everything about the item."""
        self.view = view
        self.header.show(view.entry, view.loaded.error if view.loaded is not None else "")
        self.show_scope(view)
        self.show_suggestion(view)
        self.show_evidence(view)
        self.show_labels(view)

    def show_loading(self, view: ItemView) -> None:
        """The item of a sample still being read: the keys act on it (and say so)."""
        self.view = view
        self.header.say(f"Loading {view.entry.sample_id}…")

    def show_scope(self, view: ItemView) -> None:
        self.header.show_scope(view.row, self.session.mine(view.row.ref), view.roots)

    def show_suggestion(self, view: ItemView) -> None:
        row, loaded = view.row, view.loaded
        group = items.group_of(row, loaded)
        if row.item is None:
            triage = loaded.triage if loaded else None
            groups = triage.groups if triage else ()
            self.panel.show_sample(loaded.suggestion if loaded else None,
                                   sum(len(g.items) for g in groups), len(groups), group)
            return
        assert group is not None
        self.panel.show_item(items.suggestion_for(row, loaded), group, row.is_member,
                             self.confirms.of(row),
                             note="" if view.per_test else
                             "per-test suggestions are not available")

    def show_evidence(self, view: ItemView) -> None:
        self.query_one("#evidence", EvidenceList).show(items.candidates(view.row, view.loaded),
                                                       self.attached(view.row.ref))

    def show_labels(self, view: ItemView) -> None:
        ref, s = view.row.ref, self.session
        self.query_one("#labels", LabelSummary).show(
            ref, s.mine(ref), self.confidence, len(s.followers(ref)), s.visible(ref),
            s.others(ref), s.adjudicated(ref))

    # ------------------------------------------------------------------ re-runs

    def confirm(self) -> None:
        """Re-run the item's remedy in a sandbox to confirm its suspected cause."""
        if self.view is not None:
            self.confirms.request(self.view.row, self.view.loaded)

    @on(ConfirmFinished)
    def _confirm_finished(self, event: ConfirmFinished) -> None:
        self.confirms.finished(event)

    def _confirmed(self) -> None:
        if self.view is not None:
            self.show_suggestion(self.view)

    # ------------------------------------------------------------------ writing the label

    def _done(self, saved: str = "") -> Callable[[Label | None, Exception | None], None]:
        """A label write's ``done``, called on the writer thread once the file is on disk (or
        the write failed): only then is ``saved`` announced (or the failure, naming the file)."""
        app = self.app

        def done(label: Label | None, error: Exception | None) -> None:
            sample = label.item.sample if label is not None else ""
            with suppress(RuntimeError):  # the app has exited: nothing left to tell
                if error is not None:  # App.notify only posts a message: thread-safe
                    app.notify(f"Not saved: {error}", severity="error", timeout=12)
                elif saved:
                    app.notify(saved, timeout=2)
                app.post_message(LabelsChanged(sample))
                self.post_message(self._Written(sample))

        return done

    @on(_Written)
    def _written(self, event: _Written) -> None:
        self.post_message(self.Written(event.sample))
        if self.view is not None:
            self.show_scope(self.view)
            self.show_labels(self.view)
            self.show_evidence(self.view)

    def label(self, category: str) -> None:
        """Label the item; a change of an existing label asks why (Enter skips)."""
        view = self.view
        if view is None or view.loaded is None:
            self.notify("Still loading this item's evidence; try again in a moment.",
                        severity="warning", timeout=3)
            return
        item, names = view.row.ref, self.session.taxonomy.name_of
        old = self.session.mine(item)
        if old is None or old.category == category:
            self._save(view, category, "", advance=old is None)
            return

        def after(reason: str | None) -> None:
            if reason is not None:
                self._save(view, category, reason, advance=False)

        self.app.push_screen(PromptScreen(
            f"Why change {names(old.category)} → {names(category)}? (Enter to skip, Esc "
            "cancels)", placeholder="reason, kept in the label's history"), after)

    def _save(self, view: ItemView, category: str, reason: str, advance: bool) -> None:
        row, loaded, s = view.row, view.loaded, self.session
        item = row.ref
        plan = plan_save(row, category, s.taxonomy.name_of(category),
                         per_test=items.suggestion_for(row, loaded),
                         sample_suggestion=loaded.suggestion if loaded else None,
                         confidence=self.confidence if s.mine(item) is None else None,
                         confirmation=self.confirms.of(row))
        done = self._done(plan.saved)
        try:
            if plan.group:
                s.save_group(item, plan.members, category, confidence=plan.confidence,
                             note=self.note, suggestion=plan.suggestion, reason=reason,
                             done=done)
            else:
                s.save(item, category, confidence=plan.confidence, note=self.note,
                       suggestion=plan.suggestion, reason=reason,
                       follows=None if plan.is_member else KEEP, done=done)
        except LoadError as exc:
            self.notify(f"Not saved: {exc}", severity="error", timeout=12)
            return
        if advance:
            self.post_message(self.Labelled(row, item))

    def take_suggestion(self) -> None:
        """Label the item with its suggestion's category (when there is one, and sure)."""
        view = self.view
        if view is None:
            return
        if view.row.item is None:
            suggestion = view.loaded.suggestion if view.loaded is not None else None
            if suggestion is None:
                self.notify("No suggestion for this item.", severity="warning", timeout=3)
            else:
                self.label(suggestion.category)
            return
        s = items.suggestion_for(view.row, view.loaded)
        if s is None or s.category is None:
            self.notify("The suggestion is unsure: pick a category with its key."
                        if s is not None and s.unsure else "No suggestion for this item.",
                        severity="warning", timeout=4)
            return
        self.label(s.category)

    def follow_root(self) -> None:
        """Drop a member's own label: it follows its root's label again."""
        row = self.view.row if self.view is not None else None
        if row is None or not row.is_member or row.root_ref is None:
            self.notify("Only a member of a group can follow its root.", severity="warning",
                        timeout=3)
            return
        try:
            self.session.follow(row.ref, row.root_ref, done=self._done("Follows its root"))
        except ValueError as exc:
            self.notify(str(exc), severity="warning", timeout=4)
        except LoadError as exc:
            self.notify(f"Not saved: {exc}", severity="error", timeout=12)

    def cycle_confidence(self) -> None:
        """The next confidence: of the label if there is one (saved), else of a new one."""
        if self.view is None:
            return
        ref = self.view.row.ref
        mine = self.session.mine(ref)
        current = mine.confidence if mine else self.confidence
        self.confidence = CONFIDENCES[(CONFIDENCES.index(current) + 1) % len(CONFIDENCES)]
        if mine is not None:
            self.session.save(ref, mine.category, confidence=self.confidence,
                              done=self._done())
        self.show_labels(self.view)

    def edit_note(self) -> None:
        focus_now(self.query_one("#note", Input))

    @on(Input.Submitted, "#note")
    def _note_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.view is not None:
            ref = self.view.row.ref
            mine = self.session.mine(ref)
            if mine is not None and event.value.strip() != mine.note:
                try:
                    self.session.save(ref, mine.category, note=event.value.strip(),
                                      done=self._done("Note saved."))
                except LoadError as exc:
                    self.notify(f"Not saved: {exc}", severity="error", timeout=12)
            elif mine is None:
                self.notify("The note is saved with your label (press a category key).",
                            timeout=3)
        self.post_message(self.Left())

    def toggle_evidence(self) -> None:
        """Attach the highlighted evidence to the label, or detach it."""
        anchor = self.highlighted_anchor
        if anchor is None or self.view is None:
            self.notify("No evidence to attach here.", severity="warning", timeout=3)
            return
        ref = self.view.row.ref
        if anchor in self.attached(ref):
            self.session.remove_evidence(ref, anchor, done=self._done())
        elif self.session.add_evidence(ref, anchor, done=self._done()) == "pending":
            self.notify("Evidence kept; it is saved with your label.", timeout=2)
        self.show_evidence(self.view)

    @on(EvidenceList.Opened, "#evidence")
    def _open_anchor(self, event: EvidenceList.Opened) -> None:
        if self.view is None:
            return
        a, key = event.anchor, self.view.entry.key
        if a.kind == "file":
            self.app.post_message(OpenSample(key, file=a.path, line=a.line))
        elif a.kind == "task":
            self.app.post_message(OpenSample(key, file=a.path, line=a.line, root="task"))
        elif a.kind == "log":
            self.app.post_message(OpenSample(key, phase=a.phase))
        else:
            self.app.post_message(OpenSample(key, test_id=a.test))

    def retract(self) -> None:
        """Retract the annotator's label (and its followers'), asking why."""
        ref = self.view.row.ref if self.view is not None else None
        if ref is None or self.session.mine(ref) is None:
            self.notify("You have no label on this item.", severity="warning", timeout=3)
            return
        n = len(self.session.followers(ref))
        also = f" (and the {n} following it)" if n else ""

        def after(reason: str | None) -> None:
            if reason is not None:
                self.session.retract(ref, reason, done=self._done())

        self.app.push_screen(PromptScreen(f"Retract your label{also}? Why (Enter to retract, "
                                          "Esc cancels)", placeholder="reason"), after)
