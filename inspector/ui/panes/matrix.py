"""The matrix tab: tasks x runs, a legend, and the highlighted cell's samples."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.widget import Widget
from textual.widgets import DataTable, Static

from inspector.model.results.entries import RunEntry, SampleEntry
from inspector.model.results.verdict import Verdict
from inspector.ui.messages import OpenSample
from inspector.ui.panes.lazy import LazyPane
from inspector.ui.safe import sanitize
from inspector.ui.styles import GLYPH, colour, verdict_style
from inspector.ui.widgets.matrix_table import MatrixTable

if TYPE_CHECKING:
    from inspector.services.figures.health import HealthReport


class MatrixPane(LazyPane):
    """Run x task matrix; Enter posts :class:`OpenSample` for the cell's first failure."""

    DEFAULT_CSS = """
    MatrixPane #matrix-table { height: 1fr; }
    MatrixPane #matrix-legend { height: auto; padding: 0 1; color: $text-muted; }
    MatrixPane #matrix-detail { height: auto; max-height: 10; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.runs: list[RunEntry] = []
        self.samples: list[SampleEntry] = []
        self.health: HealthReport | None = None
        self._want_task: str | None = None

    def build(self) -> Iterable[Widget]:
        yield Static(self.legend(), id="matrix-legend")
        yield MatrixTable(id="matrix-table")
        yield Static("", id="matrix-detail")

    @property
    def table(self) -> MatrixTable:
        return self.query_one(MatrixTable)

    def legend(self) -> Text:
        t = Text("cells: ")
        for v, label in ((Verdict.PASSED, "passed (tests passed/total)"),
                         (Verdict.TESTS_FAILED, "tests failed"),
                         (Verdict.SUITE_NOT_RUN, "suite did not run"),
                         (Verdict.NOT_DEPLOYED, "did not deploy (phase)"),
                         (Verdict.NOT_EVALUABLE, "not evaluable (infrastructure)")):
            t.append(f"{GLYPH[v]} {label}", style=verdict_style(self.app, v))
            t.append("   ")
        t.append("⚠ suspected benchmark defect", style=f"bold {colour(self.app, 'health-suspect')}")
        t.append("   Enter opens the sample")
        return t

    def set_data(self, runs: list[RunEntry], samples: list[SampleEntry],
                 health: HealthReport | None) -> None:
        """New runs/samples or health report: refill when next shown."""
        self.runs, self.samples, self.health = runs, samples, health
        self.dirty = True

    def restyle(self) -> None:
        if self.built:
            self.query_one("#matrix-legend", Static).update(self.legend())
        self.dirty = True

    def select_task(self, task: str) -> None:
        """Put the cursor on ``task``'s row (once the matrix is filled)."""
        self._want_task = task
        if self.built and not self.dirty:
            self._apply_want()

    def _apply_want(self) -> None:
        if self._want_task is not None:
            self.table.select_task(self._want_task)
            self._want_task = None

    def fill(self) -> None:
        table = self.table
        table.suspect_tasks = self.health.suspect_tasks() if self.health else set()
        table.set_data(self.runs, self.samples)
        self._moved()
        self._apply_want()

    def main_widget(self) -> Widget | None:
        return self.table

    @on(DataTable.CellHighlighted, "#matrix-table")
    def _moved(self) -> None:
        table = self.table
        samples = table.current_samples()
        task = table.current_task()
        box = self.query_one("#matrix-detail", Static)
        t = Text()
        if task:
            t.append(sanitize(task), style="bold")
            findings = self.health.by_task().get(task, []) if self.health else []
            for f in findings[:2]:
                t.append(f"\n⚠ {sanitize(f.detail)}", style=colour(self.app, "health-suspect"))
        for e in samples[:4]:
            t.append(f"\n{sanitize(e.sample_id)}: ")
            t.append(sanitize(e.message[:200]) or "all tests passed", style="dim")
        box.update(t)

    @on(DataTable.CellSelected, "#matrix-table")
    def _selected(self) -> None:
        samples = self.table.current_samples()
        if samples:
            self.post_message(OpenSample(samples[0].key))
