"""The runs overview: one row per run with its headline metrics; sortable and filterable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable

from inspector.model.results.entries import RunEntry
from inspector.model.results.filters import run_matches
from inspector.ui.safe import plain
from inspector.ui.styles import pct

COLUMNS: list[tuple[str, str, Callable[[RunEntry], Any]]] = [
    ("run", "run", lambda r: r.run_id),
    ("agent", "agent", lambda r: r.agent.lower()),
    ("model", "model", lambda r: r.model.lower()),
    ("lang", "lang", lambda r: r.language),
    ("format", "format", lambda r: r.short_format),
    ("samples", "samples", lambda r: r.metrics.get("samples", 0)),
    ("pass@1", "pass1", lambda r: r.metrics.get("pass_at_1") or 0.0),
    ("test pass", "tpr", lambda r: r.metrics.get("test_pass_ratio") or 0.0),
    ("AC", "ac", lambda r: r.metrics.get("api_coverage") or 0.0),
    ("DSR", "dsr", lambda r: r.metrics.get("dsr") or 0.0),
    ("not run", "notrun", lambda r: r.metrics.get("suites_not_run", 0)),
    ("unlabelled", "unlabelled", lambda r: r.failures),
]


class RunsTable(DataTable):
    """Runs with agent, model, language and metrics. ``s`` cycles the sort column, ``S``
    reverses; clicking a header sorts by it."""

    BINDINGS = [
        Binding("s", "cycle_sort", "Sort"),
        Binding("S", "reverse_sort", "Reverse", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.entries: list[RunEntry] = []
        self.shown: list[RunEntry] = []
        self.sort_index = 0
        self.sort_reverse = False
        self.filter_text = ""
        self.unlabelled: Callable[[RunEntry], int] = lambda r: r.failures

    def on_mount(self) -> None:
        for label, key, _ in COLUMNS:
            self.add_column(label, key=key)

    def set_runs(self, entries: list[RunEntry]) -> None:
        self.entries = entries
        self._rebuild()

    def set_filter(self, text: str) -> None:
        self.filter_text = text
        self._rebuild()

    def _rebuild(self) -> None:
        keep = self.current_key()
        key_fn = COLUMNS[self.sort_index][2]
        shown = [r for r in self.entries if run_matches(r, self.filter_text)]
        shown.sort(key=key_fn, reverse=self.sort_reverse)
        self.shown = shown
        self.clear()
        for i, (label, key, _) in enumerate(COLUMNS):
            arrow = (" ▼" if self.sort_reverse else " ▲") if i == self.sort_index else ""
            self.columns[key].label = Text(label + arrow)  # type: ignore[index]
        self.add_rows([self._cells(r) for r in shown])
        if keep is not None:
            self.select_key(keep)

    def _cells(self, r: RunEntry) -> list[Any]:
        m = r.metrics
        status = "" if r.status in (None, "complete") else f" ({r.status})"
        n_e = m.get("not_evaluable") or 0
        bad = m.get("unreadable", 0)  # samples whose files could not be read: never hidden
        if bad:
            status += " (unreadable)" if not m.get("samples_total", m.get("samples")) \
                else f" ({bad} unreadable)"
        n = m.get("samples", 0)
        total = m.get("samples_total", n) + bad
        samples = (f"{n} of {total}" if bad else str(n)) + (f" +{n_e} n/e" if n_e else "")
        # no evaluable sample: no figure (a 0 % would blame the model)
        fig = pct if n or not (n_e or bad) else (lambda _: pct(None))
        return [plain(r.run_id + status), plain(r.agent), plain(r.model), plain(r.language),
                plain(r.short_format), samples,
                fig(m.get("pass_at_1")), fig(m.get("test_pass_ratio")),
                fig(m.get("api_coverage")), fig(m.get("dsr")), str(m.get("suites_not_run", 0)),
                str(self.unlabelled(r))]

    def current(self) -> RunEntry | None:
        if 0 <= self.cursor_row < len(self.shown):
            return self.shown[self.cursor_row]
        return None

    def current_key(self) -> str | None:
        cur = self.current()
        return cur.key if cur else None

    def select_key(self, key: str) -> bool:
        for i, r in enumerate(self.shown):
            if r.key == key:
                self.move_cursor(row=i)
                return True
        return False

    def action_cycle_sort(self) -> None:
        self.sort_index = (self.sort_index + 1) % len(COLUMNS)
        self._rebuild()

    def action_reverse_sort(self) -> None:
        self.sort_reverse = not self.sort_reverse
        self._rebuild()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        index = event.column_index
        if index == self.sort_index:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_index, self.sort_reverse = index, False
        self._rebuild()
