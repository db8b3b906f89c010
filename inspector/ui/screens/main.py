"""The main screen: runs overview, samples list with filters, run x task matrix, benchmark
health and the analyses — one tab each (keys 1-5), each tab a pane from ``inspector.ui.panes``.

The screen keeps the layout, tab switching, the catalog's progress and updates (handed to the
panes) and the app-wide actions; each pane owns its table, filters, detail text and keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, ProgressBar, Static, TabbedContent, TabPane

from inspector.model.results.entries import RunEntry, SampleEntry
from inspector.model.results.filters import SampleFilter
from inspector.ui.app_access import inspector_app
from inspector.ui.focus import focus_key, skip_when_typing
from inspector.ui.messages import CatalogProgress, CatalogUpdated, ShowRunSamples
from inspector.ui.panes.analysis import AnalysisPane
from inspector.ui.panes.health import HealthPane
from inspector.ui.panes.lazy import LazyPane
from inspector.ui.panes.matrix import MatrixPane
from inspector.ui.panes.runs import RunsPane
from inspector.ui.panes.samples import SamplesPane
from inspector.ui.safe import plain
from inspector.ui.widgets.steady_tabs import SteadyTabbedContent

if TYPE_CHECKING:
    from inspector.services.analysis.overview import LabelInput
    from inspector.services.figures.health import HealthReport

TABS = ("runs-tab", "samples-tab", "matrix-tab", "health-tab", "analysis-tab")


class MainScreen(Screen[None]):
    """Runs, samples, matrix and benchmark health of everything under the root folder."""

    BINDINGS = [
        focus_key("1", "show_tab('runs-tab')", "Runs"),
        focus_key("2", "show_tab('samples-tab')", "Samples"),
        focus_key("3", "show_tab('matrix-tab')", "Matrix"),
        focus_key("4", "show_tab('health-tab')", "Health"),
        focus_key("5", "show_tab('analysis-tab')", "Analysis"),
        focus_key("slash", "focus_filter", "Filter"),
        Binding("L", "label_queue", "Label"),
        Binding("D", "disagreements", "Disagreements", show=False),
        Binding("x", "clear_filters", "Clear filters", show=False),
        Binding("a", "toggle_scope", "All runs/this run", show=False),
        Binding("escape", "escape", "Back/cancel", show=False),
    ]

    DEFAULT_CSS = """
    MainScreen #index-bar { height: auto; display: none; padding: 0 1; background: $boost; }
    MainScreen #index-bar.busy { display: block; }
    MainScreen #index-bar ProgressBar { width: 40; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[RunEntry] = []
        self.samples: list[SampleEntry] = []
        self.health: HealthReport | None = None

    def compose(self) -> ComposeResult:
        app = inspector_app(self)
        yield Header()
        with Horizontal(id="index-bar"):
            yield Static("Indexing runs…", id="index-label")
            yield ProgressBar(id="index-progress", show_eta=False)
        with SteadyTabbedContent(initial="runs-tab", id="tabs"):
            with TabPane("Runs [1]", id="runs-tab"):
                yield RunsPane(app.catalog, app.display_path, id="runs-pane")
            with TabPane("Samples [2]", id="samples-tab"):
                yield SamplesPane(app.label_state, id="samples-pane")
            with TabPane("Matrix [3]", id="matrix-tab"):
                yield MatrixPane(id="matrix-pane")
            with TabPane("Benchmark health [4]", id="health-tab"):
                yield HealthPane(app.catalog.find_sample, id="health-pane")
            with TabPane("Analysis [5]", id="analysis-tab"):
                yield AnalysisPane(app.catalog, app.root, self._label_input,
                                   indexing=self._indexing, id="analysis-pane")
        yield Footer()

    # ------------------------------------------------------------------ panes

    @property
    def runs_pane(self) -> RunsPane:
        return self.query_one(RunsPane)

    @property
    def samples_pane(self) -> SamplesPane:
        return self.query_one(SamplesPane)

    @property
    def matrix_pane(self) -> MatrixPane:
        return self.query_one(MatrixPane)

    @property
    def health_pane(self) -> HealthPane:
        return self.query_one(HealthPane)

    @property
    def analysis_pane(self) -> AnalysisPane:
        return self.query_one(AnalysisPane)

    def _pane(self, tab: str) -> LazyPane | None:
        panes: dict[str, LazyPane] = {"runs-tab": self.runs_pane,
                                      "samples-tab": self.samples_pane,
                                      "matrix-tab": self.matrix_pane,
                                      "health-tab": self.health_pane,
                                      "analysis-tab": self.analysis_pane}
        return panes.get(tab)

    def _indexing(self) -> bool:
        """Whether the app is bringing the run index up to date (read from any thread)."""
        return any(w.group == "catalog" and not w.is_finished for w in list(self.app.workers))

    def _label_input(self) -> LabelInput | None:
        """The labels as written to disk now (read in the analysis worker)."""
        from inspector.model.untrusted.errors import LoadError
        from inspector.services.analysis.overview_load import labels_folder_for, read_labels

        app = inspector_app(self)
        folder = app.labels.root if app.labels is not None else labels_folder_for(app.root)
        try:
            return read_labels(folder).input
        except LoadError:
            return None

    @property
    def filter(self) -> SampleFilter:
        """The samples list's filter."""
        return self.samples_pane.filter

    def set_filter(self, new: SampleFilter) -> None:
        self.samples_pane.set_filter(new)

    # ------------------------------------------------------------------ catalog events

    def on_catalog_progress(self, message: CatalogProgress) -> None:
        bar = self.query_one("#index-bar")
        busy = message.done < message.total
        bar.set_class(busy, "busy")
        self.query_one("#index-progress", ProgressBar).update(total=message.total,
                                                              progress=message.done)
        self.query_one("#index-label", Static).update(
            plain(f"Indexing runs {message.done}/{message.total}  (Esc cancels)  "))

    def on_catalog_updated(self, message: CatalogUpdated) -> None:
        try:
            self.query_one("#index-bar").remove_class("busy")
            self.reload_from_catalog()
        except NoMatches:
            if not self._quitting():
                raise
            # the app quit while a refresh was on its way: this screen's panes are gone

    def _quitting(self) -> bool:
        """Whether this screen (or the app) is closing, its widgets being removed."""
        return bool(getattr(self, "_closing", False) or getattr(self.app, "_closing", False)
                    or not self.is_attached)

    def reload_from_catalog(self) -> None:
        """Re-read runs and samples from the catalog and refresh whatever is visible."""
        app = inspector_app(self)
        self.runs = app.catalog.runs()
        self.samples = app.catalog.samples()
        self.runs_pane.set_runs(self.runs, app.root_label)
        self._hand_out_data()
        self._refresh_visible()
        self.runs_pane.show_problems()
        self._update_title()
        self.analyse_health()
        self.analysis_pane.data_changed()

    def _hand_out_data(self) -> None:
        """Give the samples and matrix panes the current runs, samples and health report."""
        suspect = self.health.suspect_tasks() if self.health else set()
        self.samples_pane.set_data(self.runs, self.samples, suspect)
        self.matrix_pane.set_data(self.runs, self.samples, self.health)

    def _update_title(self) -> None:
        n_runs, n_samples = len(self.runs), len(self.samples)
        failing = sum(e.verdict.is_failure for e in self.samples)
        self.sub_title = (f"{inspector_app(self).root_label} — {n_runs} runs, "
                          f"{n_samples} samples, {failing} failing")

    def labels_changed(self) -> None:
        """A label was written or the label files changed: the label filter may differ."""
        self.analysis_pane.data_changed()
        if self.is_current:
            self.samples_pane.labels_changed()
        elif self.filter.label:
            self.samples_pane.dirty = True

    def _refresh_visible(self) -> None:
        pane = self._pane(self.query_one(TabbedContent).active)
        if pane is not None:
            pane.refresh_if_dirty()

    @on(TabbedContent.TabActivated)
    async def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        pane = self._pane(event.pane.id or "")
        if pane is not None:
            await pane.show()

    @on(ShowRunSamples)
    def _show_run_samples(self, message: ShowRunSamples) -> None:
        self.set_filter(self.filter.with_(run_key=message.run_key))
        self.show_tab("samples-tab")

    # ------------------------------------------------------------------ health

    @work(thread=True, exclusive=True, group="health")
    def analyse_health(self) -> None:
        report = inspector_app(self).catalog.health()
        self.app.call_from_thread(self._show_health, report)

    def _show_health(self, report: HealthReport) -> None:
        self.health = report
        self.health_pane.set_report(report)
        self._hand_out_data()
        self._refresh_visible()

    # ------------------------------------------------------------------ actions

    def action_show_tab(self, tab: str) -> None:
        skip_when_typing(self)
        self.show_tab(tab)

    def show_tab(self, tab: str) -> None:
        """Show ``tab``, the focus moving with it at once. Left on the table of the tab being
        hidden, the focus would be handed (by Textual, as the table hides) to a sibling in that
        hidden pane, which shows that tab again."""
        tabs = self.query_one(TabbedContent)
        if tabs.active == tab:
            return
        pane = self._pane(tab)
        self.set_focus(pane.main_widget() if pane is not None and pane.built else None)
        tabs.active = tab

    async def action_focus_filter(self) -> None:
        skip_when_typing(self)
        tabs = self.query_one(TabbedContent)
        if tabs.active == "runs-tab":
            self.runs_pane.focus_filter()
            return
        self.show_tab("samples-tab")
        await self.samples_pane.ensure_built()
        self.samples_pane.focus_filter()

    def action_label_queue(self) -> None:
        """Label the failing samples the samples list shows, from the highlighted one."""
        pane = self.samples_pane
        entries = pane.queue_entries()
        if entries is None:
            self.notify("No samples match the filter.", severity="warning")
            return
        failing = [e for e in entries if e.verdict.is_failure]
        if not failing:
            self.notify("No failing samples to label here.", severity="warning")
            return
        current = pane.table.current()
        start = failing.index(current) if current in failing else 0
        inspector_app(self).label_queue(failing, start)

    def action_disagreements(self) -> None:
        from inspector.ui.screens.adjudication import DisagreementScreen

        if inspector_app(self).labels is None:
            self.notify("Labelling is off.", severity="error")
            return
        self.app.push_screen(DisagreementScreen())

    def action_clear_filters(self) -> None:
        self.samples_pane.clear_filters()

    def action_toggle_scope(self) -> None:
        if self.filter.run_key:
            self.set_filter(self.filter.with_(run_key=""))
        else:
            run = self.runs_pane.current()
            if run is not None:
                self.set_filter(self.filter.with_(run_key=run.key))

    def action_escape(self) -> None:
        focused = self.focused
        if isinstance(focused, Input):
            pane = self.runs_pane if focused.id == "runs-filter" else self.samples_pane
            pane.focus_main()
            return
        inspector_app(self).action_cancel_indexing()

    def restyle(self) -> None:
        """Re-render coloured cells after a theme change."""
        self.runs_pane.set_runs(self.runs, inspector_app(self).root_label)
        self.matrix_pane.restyle()
        self.samples_pane.dirty = True
        self._refresh_visible()
        self.health_pane.restyle()

    # ------------------------------------------------------------------ navigation API

    def show_run(self, key: str) -> None:
        self.show_tab("runs-tab")
        self.runs_pane.select_run(key)

    def show_task(self, task: str) -> None:
        self.show_tab("matrix-tab")
        self.matrix_pane.select_task(task)

    def select_options(self, **values: Any) -> None:
        """Set filter selects programmatically (used by the palette and tests)."""
        self.samples_pane.select_options(**values)
