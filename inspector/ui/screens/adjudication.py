"""The disagreement queue: items annotators labelled differently, and the adjudicator's
final category (written to ``adjudication.json``; the annotators' files stay as they are)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.events import Key
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from inspector.model.labels.agreement import agreement
from inspector.model.labels.label_file import ItemRef, Label
from inspector.services.labels.session import LabelSession
from inspector.ui.app_access import inspector_app, open_label_session
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.label_text import category_text
from inspector.ui.messages import LabelsChanged, OpenSample
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.safe import plain, sanitize


class DisagreementScreen(Screen[None]):
    """Every visible disagreement; a category key sets the final label (asks why)."""

    BINDINGS = [
        Binding("escape,q", "back", "Back"),
        Binding("u", "toggle_open", "Only open / all"),
        Binding("o", "open_sample", "Open sample"),
        Binding("ctrl+r", "reload", "Reload labels", show=False),
    ]
    DEFAULT_CSS = """
    DisagreementScreen #summary { height: auto; padding: 0 1; }
    DisagreementScreen #disputes { height: 1fr; }
    DisagreementScreen #detail-box { height: 14; border-top: solid $panel-lighten-2;
        padding: 0 1; }
    DisagreementScreen #legend { height: auto; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.only_open = False
        self.items: list[ItemRef] = []

    @property
    def session(self) -> LabelSession:
        return open_label_session(self)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="summary")
        yield DataTable(id="disputes", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="detail-box"):
            yield Static("", id="detail")
        yield Static("", id="legend")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Disagreements"
        self.sub_title = f"adjudicating as {self.session.annotator}"
        legend = Text("Set the final category: ")
        for cat in self.session.taxonomy.categories:
            legend.append(f" {sanitize(cat.key)} ", style="bold reverse")
            legend.append(f" {sanitize(cat.name)}  ", style=f"bold {cat.colour}")
        self.query_one("#legend", Static).update(legend)
        self.fill()
        self.query_one("#disputes", DataTable).focus()

    def fill(self) -> None:
        session = self.session
        labels = session.labels
        annotators = labels.annotators
        disputed = session.disagreements()
        n_open = sum(1 for i in disputed if labels.adjudicated(i) is None)
        items = disputed
        if self.only_open:
            items = [i for i in items if labels.adjudicated(i) is None]
        self.items = items
        table = self.query_one("#disputes", DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        table.add_columns("item", *(plain(a) for a in annotators), "final")
        for item in items:
            ratings = labels.labels_for(item)
            cells: list[Text | str] = [plain(_short(item))]
            cells += [category_text(session, ratings[n].category) if n in ratings
                      else Text("—", style="dim") for n in annotators]
            adj = labels.adjudicated(item)
            cells.append(category_text(session, adj.category) if adj else
                         Text("open", style="bold yellow"))
            table.add_row(*cells)
        if items:
            table.move_cursor(row=min(row, len(items) - 1))
        report = agreement(labels.ratings(), list(session.taxonomy.ids))
        kappas = ", ".join(
            f"{p.a}/{p.b} κ={p.kappa:.2f}" if p.kappa is not None else f"{p.a}/{p.b} κ=n/a"
            for p in report.pairs)
        alpha = "n/a" if report.alpha is None else f"{report.alpha:.2f}"
        blind = ("  (blind mode: only items you labelled are listed)" if session.blind
                 else "")
        self.query_one("#summary", Static).update(plain(
            f"{len(disputed)} disagreements, {n_open} open · "
            f"{report.items} shared items · {kappas or 'fewer than two annotators'} · "
            f"Krippendorff's α={alpha}{blind}"))
        self._show_detail()

    @property
    def current(self) -> ItemRef | None:
        row = self.query_one("#disputes", DataTable).cursor_row
        return self.items[row] if 0 <= row < len(self.items) else None

    @on(DataTable.RowHighlighted, "#disputes")
    def _moved(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        item = self.current
        detail = self.query_one("#detail", Static)
        if item is None:
            detail.update("No disagreements to show." if not self.items else "")
            return
        t = plain(f"{item.key}\n", style="bold")
        for name, lb in self.session.labels.labels_for(item).items():
            t.append(f"{sanitize(name)}: ")
            t.append_text(category_text(self.session, lb.category))
            t.append(sanitize(f" ({lb.confidence}, {lb.updated.at})"), style="dim")
            if lb.note:
                t.append(f"\n    {sanitize(lb.note)}", style="italic")
            for a in lb.evidence:
                t.append(f"\n    • {sanitize(a.describe())[:150]}", style="dim")
            t.append("\n")
        adj = self.session.labels.adjudicated(item)
        if adj is not None:
            t.append("final: ", style="bold")
            t.append_text(category_text(self.session, adj.category))
            why = adj.history[-1].reason if adj.history else ""
            t.append(sanitize(f"  by {adj.updated.by} {adj.updated.at}"
                              f"{' — ' + why if why else ''}"), style="dim")
        detail.update(t)

    def on_key(self, event: Key) -> None:
        if not event.character:
            return
        cat = self.session.taxonomy.by_key(event.character)
        item = self.current
        if cat is None or item is None:
            return
        event.stop()
        event.prevent_default()
        self.adjudicate(item, cat.id, cat.name)

    @refused_when_read_only(Write.LABEL)
    def adjudicate(self, item: ItemRef, category: str, name: str) -> None:
        """Ask why, then set the final category of ``item``."""
        def after(reason: str | None) -> None:
            if reason is None:
                return
            self.session.adjudicate(item, category, reason, done=self._written)

        self.app.push_screen(PromptScreen(
            f"Final category for {_short(item)}: {name}. Why? (Enter confirms, Esc "
            "cancels)", placeholder="reason, kept with the adjudication"), after)

    def _written(self, label: Label | None, error: Exception | None) -> None:
        self.app.call_from_thread(self._after_write, label, error)

    def _after_write(self, label: Label | None, error: Exception | None) -> None:
        if error is not None:
            self.notify(f"Not saved: {error}", severity="error", timeout=12)
            return
        if label is not None:
            self.notify(f"Final: {self.session.taxonomy.name_of(label.category)}", timeout=2)
            self.app.post_message(LabelsChanged(label.item.sample))
        if self.is_attached:
            self.fill()

    def action_toggle_open(self) -> None:
        self.only_open = not self.only_open
        self.fill()

    def action_reload(self) -> None:
        self.session.reload()
        self.fill()

    def action_open_sample(self) -> None:
        item = self.current
        if item is None:
            return
        catalog = inspector_app(self).catalog
        entry = catalog.find_sample(item.sample)
        if entry is None:
            self.notify(f"{item.sample} is not among the loaded runs.", severity="warning")
            return
        self.app.post_message(OpenSample(entry.key, test_id=item.test))

    def action_back(self) -> None:
        self.dismiss(None)


def _short(item: ItemRef) -> str:
    """``run id`` shortened: the task and sample, after an ellipsis of the run id."""
    run, _, rest = item.sample.partition("/")
    run = run if len(run) <= 28 else run[:12] + "…" + run[-14:]
    key = f"{run}/{rest}"
    return f"{key} :: {item.test.rsplit('::', 1)[-1]}" if item.test else key
