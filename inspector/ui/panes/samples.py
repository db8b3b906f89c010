"""The samples tab: the filter row, the samples list and the highlighted sample's preview."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.text import Text
from textual import on
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Select, Static

from inspector.model.results.entries import RunEntry, SampleEntry
from inspector.model.results.filters import LabelState, SampleFilter, facet_values
from inspector.model.results.unreadable import unreadable_line
from inspector.model.results.verdict import Verdict
from inspector.ui.focus import focus_now
from inspector.ui.messages import OpenSample
from inspector.ui.panes.lazy import LazyPane
from inspector.ui.safe import plain, sanitize
from inspector.ui.widgets.samples_table import SamplesTable, UnreadableRow

OUTCOME_CHOICES = [("failing (any)", "failing"), ("passed", Verdict.PASSED.value),
                   ("tests failed", Verdict.TESTS_FAILED.value),
                   ("suite did not run", Verdict.SUITE_NOT_RUN.value),
                   ("did not deploy", Verdict.NOT_DEPLOYED.value),
                   ("not evaluable", Verdict.NOT_EVALUABLE.value)]
LABEL_CHOICES = [("unlabelled", "unlabelled"), ("labelled", "labelled")]
FACETS = ("language", "framework", "verdict", "phase", "label")


class SamplesPane(LazyPane):
    """Samples matching ``filter``; Enter posts :class:`OpenSample`. The list itself is
    mounted at once (the sample view steps through it); the filter row on first show."""

    DEFAULT_CSS = """
    SamplesPane .filter-row { height: 3; }
    SamplesPane .filter-row Input { width: 1fr; min-width: 20; }
    SamplesPane .filter-row Select { width: 24; }
    SamplesPane #samples-table { height: 1fr; }
    SamplesPane #samples-count { height: 1; padding: 0 1; color: $text-muted; }
    SamplesPane #sample-preview { height: auto; max-height: 6; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    """

    def __init__(self, label_state: LabelState, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.label_state = label_state
        self.filter = SampleFilter()
        self.runs: list[RunEntry] = []
        self.samples: list[SampleEntry] = []
        self.suspect_tasks: set[str] = set()
        self._filter_timer: Timer | None = None

    def compose(self) -> Iterable[Widget]:
        yield SamplesTable(id="samples-table")

    async def mount_built(self) -> None:
        row = Horizontal(
            Input(placeholder="text, -exclude, /regex/  (/)", id="sample-filter"),
            Select([], prompt="any language", id="f-language"),
            Select([], prompt="any framework", id="f-framework"),
            Select(OUTCOME_CHOICES, prompt="any outcome", id="f-verdict"),
            Select([], prompt="any phase", id="f-phase"),
            Select(LABEL_CHOICES, prompt="any label", id="f-label"),
            classes="filter-row")
        await self.mount(row, Static("", id="samples-count"), before=self.table)
        await self.mount(Static("", id="sample-preview"), after=self.table)

    def on_built(self) -> None:
        self._update_facets()

    @property
    def table(self) -> SamplesTable:
        return self.query_one(SamplesTable)

    # ------------------------------------------------------------------ data in

    def set_data(self, runs: list[RunEntry], samples: list[SampleEntry],
                 suspect_tasks: set[str]) -> None:
        """New runs/samples or health report: refill when next shown."""
        self.runs, self.samples, self.suspect_tasks = runs, samples, suspect_tasks
        self.dirty = True
        if self.built:
            self._update_facets()

    def set_filter(self, new: SampleFilter) -> None:
        """Show the samples ``new`` matches (at once if the pane is built and visible)."""
        self.filter = new
        self.dirty = True
        if self.is_visible_tab:
            self.refresh_if_dirty()

    def labels_changed(self) -> None:
        """A label was written: with a label filter the list may differ."""
        if self.filter.label:
            self.set_filter(self.filter)

    @property
    def is_visible_tab(self) -> bool:
        return self.built and self.on_active_tab

    def _update_facets(self) -> None:
        facets = facet_values(self.samples)
        for name in ("language", "framework", "phase"):
            select = self.query_one(f"#f-{name}", Select)
            values = facets[name]
            current = select.value
            select.set_options([(plain(v), v) for v in values])
            if isinstance(current, str) and current in values:
                select.value = current

    # ------------------------------------------------------------------ filling

    def fill(self) -> None:
        table = self.table
        table.suspect_tasks = self.suspect_tasks
        shown = self.filter.apply(self.samples, self.label_state)
        unreadable = self._unreadable_rows()
        table.set_samples(shown, unreadable)
        scope = ""
        if self.filter.run_key:
            run = next((r for r in self.runs if r.key == self.filter.run_key), None)
            scope = f" in {run.run_id}" if run else ""
        bad = f" + {len(unreadable)} unreadable" if unreadable else ""
        self.query_one("#samples-count", Static).update(plain(
            f"{len(shown)} of {len(self.samples)} samples{bad}{scope} · "
            f"{self.filter.describe()}"
            f"{' · a: all runs' if self.filter.run_key else ''} · x: clear filters"))
        self._highlighted()

    def _unreadable_rows(self) -> list[UnreadableRow]:
        """The unreadable samples of the runs in scope, unless the filter asks for something
        they cannot be (an outcome other than failing, a language, a label, …)."""
        f = self.filter
        if f.verdict not in ("", "failing") or f.label or f.language or f.framework \
                or f.phase:
            return []
        words = f.text.lower().split()
        rows = []
        for r in self.runs:
            if f.run_key and r.key != f.run_key:
                continue
            for u in r.metrics.get("unreadable_samples") or ():
                row = UnreadableRow(r.run_id, u.get("task") or "", u.get("sample"),
                                    unreadable_line(u))
                text = f"{row.run_id} {row.task} {row.line}".lower()
                if all(w in text for w in words if not w.startswith(("-", "/"))):
                    rows.append(row)
        return rows

    def main_widget(self) -> Widget | None:
        return self.table

    def focus_filter(self) -> None:
        focus_now(self.query_one("#sample-filter", Input))

    def queue_entries(self) -> list[SampleEntry] | None:
        """The samples a label queue starts from: those shown, or all that the filter
        matches if nothing was shown yet; ``None`` when an active filter matches nothing."""
        table = self.table
        if not table.shown and self.filter.active:
            return None
        return table.shown if table.shown else self.filter.apply(self.samples,
                                                                  self.label_state)

    def clear_filters(self) -> None:
        if self.built:
            self.query_one("#sample-filter", Input).value = ""
            for name in FACETS:
                self.query_one(f"#f-{name}", Select).clear()
        self.set_filter(SampleFilter())

    def select_options(self, **values: Any) -> None:
        """Set filter selects programmatically (used by the palette and tests)."""
        for name, value in values.items():
            self.query_one(f"#f-{name}", Select).value = value

    # ------------------------------------------------------------------ events

    @on(Input.Changed, "#sample-filter")
    def _text_changed(self, event: Input.Changed) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        value = event.value
        self._filter_timer = self.set_timer(
            0.15, lambda: self.set_filter(self.filter.with_(text=value)))

    @on(Input.Submitted, "#sample-filter")
    def _text_done(self, event: Input.Submitted) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self.set_filter(self.filter.with_(text=event.value))
        self.table.focus()

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        name = (event.select.id or "").removeprefix("f-")
        if name not in FACETS:
            return
        value = event.value if isinstance(event.value, str) else ""
        if getattr(self.filter, name) != value:
            self.set_filter(self.filter.with_(**{name: value}))

    @on(SamplesTable.RowHighlighted, "#samples-table")
    def _highlighted(self) -> None:
        e = self.table.current()
        box = self.query_one("#sample-preview", Static)
        u = self.table.current_unreadable()
        if u is not None:  # the whole reason, never cut
            box.update(Text.assemble((sanitize(f"{u.run_id} · unreadable sample\n"), "bold"),
                                     sanitize(u.line)))
            return
        if e is None:
            box.update("No sample matches the filter." if self.samples else "")
            return
        t = Text()
        t.append(sanitize(e.sample_id), style="bold")
        t.append(sanitize(f"   {e.language}/{e.framework}  tests {e.passed}/{e.total}"
                          f"{' of ' + str(e.expected) + ' expected' if e.expected else ''}"
                          f"  suite {e.suite_status}  {e.elapsed or 0:.1f}s\n"))
        if e.message:
            t.append(sanitize(e.message[:400]))
        box.update(t)

    @on(SamplesTable.RowSelected, "#samples-table")
    def _selected(self) -> None:
        e = self.table.current()
        if e is not None:
            self.post_message(OpenSample(e.key))
