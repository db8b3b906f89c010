"""The Analysis tab: plots of the runs' analysis, the tasks table (difficulty and spec
complexity, sortable and filterable) and the paired comparison of two runs.

The analysis (:func:`~inspector.services.analysis.overview_load.overview_from_catalog`) runs in
a thread worker the first time the tab is shown and again after the runs or labels change,
with a progress bar; Esc cancels it. Comparisons run in their own worker.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, ProgressBar, Static, TabPane
from textual.worker import get_current_worker

from inspector.ui.analysis.compare_view import CompareView
from inspector.ui.analysis.plot_box import PlotBox
from inspector.ui.analysis.tasks_view import TasksView
from inspector.ui.panes.lazy import LazyPane
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.safe import plain
from inspector.ui.widgets.steady_tabs import SteadyTabbedContent

if TYPE_CHECKING:  # the analyses load when the tab is first shown, not at start-up
    from inspector.services.analysis.compare import RunComparison
    from inspector.services.analysis.overview import LabelInput, Overview
    from inspector.services.catalog.index import Catalog

POLL_SECONDS = 0.1
PROGRESS_EVERY = 0.2  # seconds between progress updates of the same step
PLOT_IDS = ("tier-plot", "category-plot", "cost-plot", "framework-plot")


@dataclass
class AnalysisProgress(Message):
    """How far the analysis worker is (posted from its thread)."""

    what: str
    done: int
    total: int


class AnalysisViews(Vertical):
    """Plots, Tasks and Compare, one inner tab each."""

    DEFAULT_CSS = "AnalysisViews { height: 1fr; }"

    def compose(self) -> Iterable[Widget]:
        with SteadyTabbedContent(id="analysis-views"):
            with TabPane("Plots", id="analysis-plots"), Grid(id="plot-grid"):
                for pid in PLOT_IDS:
                    yield PlotBox(pid)
            with TabPane("Tasks", id="analysis-tasks"):
                yield TasksView()
            with TabPane("Compare two runs", id="analysis-compare"):
                yield CompareView()


class AnalysisPane(LazyPane):
    """Plots, tasks and the comparison of two runs, from one analysis of the catalog."""

    BINDINGS = [
        Binding("r", "reanalyse", "Re-analyse"),
        Binding("e", "export", "Export"),
        Binding("escape", "cancel", "Cancel analysis", show=False),
    ]

    DEFAULT_CSS = """
    AnalysisPane { height: 1fr; }
    AnalysisPane #analysis-status { height: auto; padding: 0 1; }
    AnalysisPane #analysis-summary { width: 1fr; height: auto; color: $text-muted; }
    AnalysisPane #analysis-progress { width: 40; display: none; }
    AnalysisPane #analysis-progress.busy { display: block; }
    AnalysisPane #analysis-views { height: 1fr; }
    AnalysisPane #plot-grid { grid-size: 2 2; height: 1fr; min-height: 24; }
    """

    def __init__(self, catalog: Catalog, root: Path,
                 labels: Callable[[], LabelInput | None], *,
                 indexing: Callable[[], bool] = lambda: False,
                 oracle_dir: Path | None = None, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.catalog = catalog
        self.indexing = indexing  # True while the run index is being refreshed
        self.root = root
        self.labels = labels
        self.oracle_dir = oracle_dir
        self.overview: Overview | None = None
        self.stale = True  # the runs or labels changed since the last analysis
        self.busy = False

    # ------------------------------------------------------------------ layout

    def build(self) -> Iterable[Widget]:
        yield Horizontal(Static("Not analysed yet.", id="analysis-summary"),
                         ProgressBar(id="analysis-progress", show_eta=False),
                         id="analysis-status")
        yield AnalysisViews()

    @property
    def tasks_view(self) -> TasksView:
        return self.query_one(TasksView)

    @property
    def compare_view(self) -> CompareView:
        return self.query_one(CompareView)

    @property
    def comparison(self) -> RunComparison | None:
        """The comparison shown in the Compare view."""
        return self.compare_view.comparison if self.built else None

    def main_widget(self) -> Widget | None:
        return next(iter(self.query("#analysis-views Tabs")), None)

    async def show(self) -> None:
        await super().show()
        if self.stale and not self.busy:
            self.analyse()

    # ------------------------------------------------------------------ data in

    def data_changed(self) -> None:
        """The runs or labels changed: analyse again now if shown, else when next shown."""
        self.stale = True
        if self.built and self.is_on_screen and not self.busy:
            self.analyse()

    # ------------------------------------------------------------------ the analysis worker

    def analyse(self) -> None:
        self.busy = True
        self.stale = False
        self.query_one("#analysis-progress", ProgressBar).add_class("busy")
        self._status("Analysing…")
        self._run_analysis()

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def _run_analysis(self) -> None:
        from inspector.services.analysis.overview import Cancelled
        from inspector.services.analysis.overview_load import overview_from_catalog

        worker = get_current_worker()

        last: dict[str, float] = {}

        def step(what: str, done: int, total: int) -> None:
            # never wait for the UI (call_from_thread would, once per task); a few per second
            now = time.monotonic()
            if now - last.get(what, -PROGRESS_EVERY) >= PROGRESS_EVERY:
                last[what] = now
                self.post_message(AnalysisProgress(what, done, total))

        while self.indexing() and not worker.is_cancelled:  # analyse the index once it is whole
            step("waiting for the run index", 0, 1)
            time.sleep(POLL_SECONDS)
        try:
            overview = overview_from_catalog(
                self.catalog, self.root, self.labels(), self.oracle_dir, step=step,
                cancelled=lambda: worker.is_cancelled)
        except Cancelled:
            self.app.call_from_thread(self._finished, None, "Analysis cancelled (r runs it "
                                                            "again).")
            return
        except Exception as exc:  # noqa: BLE001 - shown, never a traceback
            self.app.call_from_thread(self._finished, None, f"Analysis failed: {exc}")
            return
        self.app.call_from_thread(self._finished, overview, "")

    def on_analysis_progress(self, message: AnalysisProgress) -> None:
        if not self.busy:  # a late message of a finished analysis
            return
        self.query_one("#analysis-progress", ProgressBar).update(total=max(message.total, 1),
                                                                progress=message.done)
        self._status(f"Analysing: {message.what} {message.done}/{message.total}  "
                     "(Esc cancels)")

    def _finished(self, overview: Overview | None, message: str) -> None:
        self.busy = False
        self.query_one("#analysis-progress", ProgressBar).remove_class("busy")
        if overview is None:
            self._status(message)
            return
        self.overview = overview
        self.dirty = True
        self.refresh_if_dirty()
        if self.stale and self.is_on_screen:  # the runs or labels changed meanwhile
            self.analyse()

    def _status(self, text: str) -> None:
        self.query_one("#analysis-summary", Static).update(plain(text))

    # ------------------------------------------------------------------ showing it

    def fill(self) -> None:
        ov = self.overview
        if ov is None or not self.built:
            return
        cats = ov.categories
        n = 0 if cats is None else cats.labelled
        labelled = f", {n} labelled {cats.unit if n != 1 else cats.unit.removesuffix('s')}" \
            if cats is not None and n else ""
        note = ov.not_evaluable_note()
        self._status(f"{len(ov.runs)} runs, {ov.samples} samples, {len(ov.tasks)} tasks"
                     f"{labelled}. Tiers: {ov.tier_source}."
                     f"{' ' + note + '.' if note else ''} (r: analyse again)")
        from inspector.ui.analysis import plots

        for pid, painter in zip(PLOT_IDS, (plots.draw_tier_pass, plots.draw_category_mix,
                                           plots.draw_cost_vs_pass, plots.draw_framework_pass),
                                strict=True):
            self.query_one(f"#{pid}-box", PlotBox).draw(painter, ov)
        from inspector.ui.analysis.task_rows import task_rows

        self.tasks_view.set_rows(task_rows(ov))
        self.compare_view.set_overview(ov)

    def action_reanalyse(self) -> None:
        if not self.busy:
            self.analyse()

    @refused_when_read_only(Write.EXPORT)
    def action_export(self) -> None:
        """Write the analysis (and the comparison shown) as tables and figures to a folder."""
        from inspector.ui.dialogs.prompt import PromptScreen

        overview = self.overview
        if overview is None:
            self.notify("Nothing analysed yet.", severity="warning")
            return
        default = str(Path.cwd() / f"analysis-{self.root.resolve().name or 'runs'}")

        def chosen(value: str | None) -> None:
            if value and value.strip():
                self._export(overview, self.comparison, Path(value.strip()).expanduser())

        what = "the analysis and the comparison shown" if self.comparison else "the analysis"
        self.app.push_screen(PromptScreen(
            f"Export {what} (Markdown, CSV, JSON and LaTeX tables; SVG and PNG figures) "
            "to the folder:", value=default), chosen)

    @work(thread=True, exclusive=True, group="analysis-export", exit_on_error=False)
    def _export(self, overview: Overview, comparison: RunComparison | None,
                folder: Path) -> None:
        from inspector.services.analysis.export import ExportError, export_analysis

        self.app.call_from_thread(self.notify, f"Exporting to {folder}…", timeout=2)
        try:
            files = export_analysis(overview, folder, comparison)
        except (ExportError, OSError) as exc:
            self.app.call_from_thread(self.notify, f"Not exported: {exc}", severity="error",
                                      timeout=10)
            return
        self.app.call_from_thread(self.notify, f"Wrote {len(files)} files to {folder} "
                                               f"(see {files[-1].name}).", timeout=6)

    def action_cancel(self) -> None:
        self.workers.cancel_group(self, "analysis")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return self.busy
        if action in ("export", "reanalyse"):
            return not isinstance(self.app.focused, Input)
        return True
