"""The labelling screen's right side: the item (its header, suggestion, evidence and labels)
and the legend of category keys. It shows what the screen hands it; Enter on evidence posts
:class:`~inspector.ui.widgets.evidence_list.EvidenceList.Opened`, a submitted note
``Input.Submitted`` (``#note``), both to the screen."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from inspector.model.failures.triage import Confirmation
from inspector.model.labels.label_file import Anchor, ItemRef
from inspector.model.labels.taxonomy import Taxonomy
from inspector.model.results.entries import SampleEntry
from inspector.services.labels.queue import QueueSample
from inspector.services.labels.session import LabelSession
from inspector.ui.labelling import item
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
    confidence: str  # for a new label
    confirmation: Confirmation | None  # this session's re-run of the item (or its root)
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

    def __init__(self, session: LabelSession, *, id: str | None = None) -> None:  # noqa: A002 - Textual's Widget id=
        super().__init__(id=id)
        self.session = session

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
        self.header.show(view.entry, view.loaded.error if view.loaded is not None else "")
        self.show_scope(view)
        self.show_suggestion(view)
        self.show_evidence(view)
        self.show_labels(view)

    def show_scope(self, view: ItemView) -> None:
        self.header.show_scope(view.row, self.session.mine(view.row.ref), view.roots)

    def show_suggestion(self, view: ItemView) -> None:
        row, loaded = view.row, view.loaded
        group = item.group_of(row, loaded)
        if row.item is None:
            triage = loaded.triage if loaded else None
            groups = triage.groups if triage else ()
            self.panel.show_sample(loaded.suggestion if loaded else None,
                                   sum(len(g.items) for g in groups), len(groups), group)
            return
        assert group is not None
        self.panel.show_item(item.suggestion_for(row, loaded), group, row.is_member,
                             view.confirmation,
                             note="" if view.per_test else
                             "per-test suggestions are not available")

    def show_evidence(self, view: ItemView) -> None:
        self.query_one("#evidence", EvidenceList).show(item.candidates(view.row, view.loaded),
                                                       self.attached(view.row.ref))

    def show_labels(self, view: ItemView) -> None:
        ref, s = view.row.ref, self.session
        self.query_one("#labels", LabelSummary).show(
            ref, s.mine(ref), view.confidence, len(s.followers(ref)), s.visible(ref),
            s.others(ref), s.adjudicated(ref))
