"""The benchmark health tab: candidate benchmark defects and samples with tampering attempts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.widget import Widget
from textual.widgets import DataTable, Static

from inspector.model.results.entries import SampleEntry
from inspector.model.untrusted.safe_text import sanitize_field
from inspector.ui.messages import OpenSample
from inspector.ui.panes.lazy import LazyPane
from inspector.ui.safe import plain, sanitize
from inspector.ui.styles import colour

if TYPE_CHECKING:
    from inspector.services.figures.health import HealthFinding, HealthReport
    from inspector.services.tamper.findings import TamperedSample

HEALTH_TEST_WIDTH = 56


class HealthPane(LazyPane):
    """Findings table with the highlighted one's evidence; Enter posts :class:`OpenSample`
    for an example sample."""

    DEFAULT_CSS = """
    HealthPane #health-summary { height: auto; padding: 0 1; color: $text-muted; }
    HealthPane #health-detail { height: auto; max-height: 10; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    HealthPane #health-table { height: 1fr; }
    """

    def __init__(self, find_sample: Callable[[str], SampleEntry | None], *,
                 id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.find_sample = find_sample
        self.health: HealthReport | None = None

    def build(self) -> Iterable[Widget]:
        yield Static("Analysing…", id="health-summary")
        yield DataTable(id="health-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="health-detail")

    def on_built(self) -> None:
        table = self.table
        table.add_columns("kind", "task")
        # long test ids end in "…" (the detail below shows them whole): room for the error
        table.add_column("test", width=HEALTH_TEST_WIDTH)
        table.add_columns("samples", "runs", "common error")

    @property
    def table(self) -> DataTable:
        return self.query_one("#health-table", DataTable)

    def set_report(self, report: HealthReport) -> None:
        """A new analysis: show it when the tab is (next) shown."""
        self.health = report
        self.dirty = True
        if self.built:
            self.refresh_if_dirty()

    def restyle(self) -> None:
        self.dirty = True
        self.refresh_if_dirty()

    def main_widget(self) -> Widget | None:
        return self.table

    def fill(self) -> None:
        report = self.health
        if report is None:
            return
        table = self.table
        table.clear()
        suspect = colour(self.app, "health-suspect")
        table.add_rows([
            [Text(f.kind.replace("_", " "), style=f"bold {suspect}"), plain(f.task),
             plain(f.test_id or "—", no_wrap=True, overflow="ellipsis"),
             str(f.samples), str(f.runs),
             Text(sanitize(f.common_error[:100]), no_wrap=True)]
            for f in report.findings])
        for t in report.tampering:
            first = t.findings[0]
            table.add_row(
                Text("tampering (deliberate)" if t.deliberate else "tampering",
                     style=f"bold {colour(self.app, 'outcome-error')}" if t.deliberate
                     else "bold"),
                Text(sanitize(t.task)),
                Text(sanitize(t.sample_id), no_wrap=True, overflow="ellipsis"), "1", "1",
                Text(sanitize_field(f"{first.path}: {first.detail}", 100), no_wrap=True))
        n = len(report.findings)
        summary = Text(
            f"{n} candidate benchmark defect{'s' if n != 1 else ''}: tests no sample of any run "
            "passes, and suites that did not really run. Check these before blaming agents. "
            "Enter opens an example sample." if n else
            "No candidate benchmark defects: every test passes in some sample, and every "
            "deployed suite ran.")
        if report.tampering:
            # start-up: the tamper scanner's package only when a run has findings
            from inspector.services.tamper.findings import kept_out_note

            k = len(report.tampering)
            summary.append(
                f"\n⚠ {k} sample{'s' if k != 1 else ''} with tampering attempts, "
                f"{report.deliberate_tampering} deliberate (listed after the defects, "
                "deliberate first): "
                + kept_out_note(f for t in report.tampering for f in t.findings) + ".",
                style=f"bold {colour(self.app, 'outcome-error')}"
                if report.deliberate_tampering else "bold")
        if report.not_evaluable:
            summary.append(f"\n{report.not_evaluable_line()}.")
        self.query_one("#health-summary", Static).update(summary)
        self._moved()

    def _finding(self) -> HealthFinding | None:
        row = self.table.cursor_row
        if self.health and 0 <= row < len(self.health.findings):
            return self.health.findings[row]
        return None

    def _tampered(self) -> TamperedSample | None:
        """The sample with tampering attempts under the cursor (rows after the defects)."""
        if self.health is None:
            return None
        row = self.table.cursor_row - len(self.health.findings)
        return self.health.tampering[row] if 0 <= row < len(self.health.tampering) else None

    @on(DataTable.RowHighlighted, "#health-table")
    def _moved(self) -> None:
        from inspector.services.tamper.findings import finding_line

        f = self._finding()
        box = self.query_one("#health-detail", Static)
        tampered = self._tampered() if f is None else None
        if tampered is not None:
            t = Text()
            t.append(f"{sanitize(tampered.sample_id)}: tampering attempt"
                     f"{' (deliberate)' if tampered.deliberate else ''}\n", style="bold")
            for finding in tampered.findings:
                t.append(finding_line(finding, 500) + "\n")
            t.append("kept out of the golden test run; the verdict stands. Enter opens the "
                     "sample.", style="dim")
            box.update(t)
            return
        if f is None:
            box.update("")
            return
        t = Text()
        t.append(sanitize(f"{f.task}{' :: ' + f.test_id if f.test_id else ''}\n"), style="bold")
        t.append(sanitize(f.detail) + "\n")
        if f.common_error:  # a suite that counted no test may have no message to share
            t.append(f"common error ({f.share * 100:.0f}% of {f.samples} samples): ",
                     style="dim")
            t.append(sanitize(f.common_error[:300]) + "\n")
        t.append("examples: " + sanitize(", ".join(f.examples[:4])), style="dim")
        box.update(t)

    @on(DataTable.RowSelected, "#health-table")
    def _selected(self) -> None:
        f = self._finding()
        tampered = self._tampered() if f is None else None
        if tampered is not None:
            entry = self.find_sample(tampered.sample_id)
            if entry is not None:
                self.post_message(OpenSample(entry.key))
            return
        if f is None or not f.examples:
            return
        entry = self.find_sample(f.examples[0])
        if entry is not None:
            self.post_message(OpenSample(entry.key, test_id=f.test_id))
