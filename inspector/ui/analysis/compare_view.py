"""The Compare view: two runs chosen in selects, their paired comparison (in a worker) as text
and the per-task differences plotted."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual import on, work
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Select, Static
from textual.worker import get_current_worker

from inspector.ui.analysis.plot_box import PlotBox
from inspector.ui.safe import plain

if TYPE_CHECKING:
    from inspector.services.analysis.compare import RunComparison
    from inspector.services.analysis.overview import Overview


class Compared(Message, bubble=False):
    """The comparison worker's result."""

    def __init__(self, comparison: RunComparison) -> None:
        super().__init__()
        self.comparison = comparison


class CompareView(Vertical):
    """Run A and run B, compared on their common tasks."""

    DEFAULT_CSS = """
    CompareView { height: 1fr; }
    CompareView #compare-pick { height: auto; }
    CompareView #compare-pick Select { width: 1fr; }
    CompareView #compare-stats { height: auto; padding: 0 1; }
    CompareView #paired-plot-box { height: 1fr; min-height: 12; }
    """

    def __init__(self) -> None:
        super().__init__(id="compare-view")
        self.overview: Overview | None = None
        self.comparison: RunComparison | None = None

    def compose(self) -> Iterable[Widget]:
        with Horizontal(id="compare-pick"):
            yield Select[str]([], prompt="run A", id="compare-a")
            yield Select[str]([], prompt="run B", id="compare-b")
        yield Static("Choose two runs.", id="compare-stats")
        yield PlotBox("paired-plot")

    def _say(self, text: str) -> None:
        self.query_one("#compare-stats", Static).update(plain(text))

    def set_overview(self, ov: Overview) -> None:
        """New runs to choose from: keep the chosen pair if both are still there, else the
        most informative pair (:meth:`Overview.pairable`)."""
        self.overview = ov
        options = [(f"{r.run_id}  ({r.label})", r.key) for r in ov.runs]
        pick_a = self.query_one("#compare-a", Select)
        pick_b = self.query_one("#compare-b", Select)
        old = (pick_a.value, pick_b.value)
        keys = {r.key for r in ov.runs}
        with self.prevent(Select.Changed):
            pick_a.set_options(options)
            pick_b.set_options(options)
        if old[0] in keys and old[1] in keys:
            a, b = str(old[0]), str(old[1])
        else:
            pairs = ov.pairable()
            if not pairs:
                self.comparison = None
                self._say("No two runs share a task: nothing to compare.")
                return
            a, b = pairs[0][0].key, pairs[0][1].key
        with self.prevent(Select.Changed):
            pick_a.value, pick_b.value = a, b
        self._compare(a, b)

    @on(Select.Changed, "#compare-a, #compare-b")
    def _pick_changed(self) -> None:
        a = self.query_one("#compare-a", Select).value
        b = self.query_one("#compare-b", Select).value
        if isinstance(a, str) and isinstance(b, str):
            self._compare(a, b)

    def _compare(self, a: str, b: str) -> None:
        if a == b:
            self._say("Choose two different runs.")
            return
        self._say("Comparing…")
        self._run_comparison(a, b)

    @work(thread=True, exclusive=True, group="analysis-compare", exit_on_error=False)
    def _run_comparison(self, a: str, b: str) -> None:
        from inspector.services.analysis.compare import compare_runs

        ov = self.overview
        runs = {r.key: r for r in ov.runs} if ov is not None else {}
        if ov is None or a not in runs or b not in runs:
            return
        result = compare_runs(runs[a], runs[b], tier_of=ov.tier_of)
        if not get_current_worker().is_cancelled:
            self.post_message(Compared(result))

    @on(Compared)
    def _show(self, event: Compared) -> None:
        c = event.comparison
        from inspector.services.analysis.comparison_wording import comparison_lines
        from inspector.ui.analysis import plots

        self.comparison = c
        self._say("\n".join(comparison_lines(c)))
        self.query_one("#paired-plot-box", PlotBox).draw(plots.draw_paired, c)
