"""The runs overview: one row per run with its headline metrics; sortable and filterable.

Where every column does not fit, the run id is elided in the middle first, then format and
language are left out, then model, then agent, while even a 28-cell run id leaves no room; an
80-column terminal gets the compact table: the run id, elided, then the four figures, then the
counts (agent, model, language and format are in the highlighted run's detail below)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widgets import DataTable

from inspector.model.results.entries import RunEntry
from inspector.model.results.filters import run_matches
from inspector.model.results.run_names import elide_middle
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
ALL_KEYS = [key for _, key, _ in COLUMNS]
COMPACT_KEYS = ["run", "pass1", "tpr", "ac", "dsr", "samples", "notrun", "unlabelled"]
NARROWER = [ALL_KEYS, ["run", "agent", "model", *COMPACT_KEYS[1:]],
            ["run", "agent", *COMPACT_KEYS[1:]]]
"""The layouts tried, widest first, before the compact one (each with an elided run id)."""
FIGURES = ("pass1", "tpr", "ac", "dsr")
MIN_RUN_WIDTH = 12
FULL_RUN_WIDTH = 28
"""The narrowest elided run id worth keeping every column for; narrower, the table turns compact."""
_INDEX = {key: i for i, key in enumerate(ALL_KEYS)}


class RunsTable(DataTable):
    """Runs with agent, model, language and metrics. ``s`` cycles the sort column, ``S``
    reverses; clicking a header sorts by it. Compact (see the module) where all columns do
    not fit its width."""

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
        self.layout_keys: list[str] = list(ALL_KEYS)  # the columns shown, in order
        self._laid_out_for = 0  # the width the layout was chosen for

    def on_mount(self) -> None:
        for key in self.layout_keys:
            self.add_column(Text(COLUMNS[_INDEX[key]][0]), key=key)

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._laid_out_for:
            self._rebuild()

    def _room(self) -> int:
        """Columns of cells the table can show without scrolling (0 before its layout)."""
        width = self.size.width
        return max(0, width - self.styles.scrollbar_size_vertical) if width else 0

    def _layout(self, labels: dict[str, str], rows: list[list[Any]]) -> tuple[list[str], int]:
        """The columns to show and the run cells' width (0: as they are)."""
        pad = 2 * self.cell_padding
        widths = {key: max([cell_len(labels[key])]
                           + [cell_len(row[i].plain if isinstance(row[i], Text) else row[i])
                              for row in rows]) + pad
                  for i, key in enumerate(ALL_KEYS)}
        room = self._room()
        if not room or sum(widths.values()) <= room:
            return list(ALL_KEYS), 0
        # elide the run id first; leave columns out (format and language, then model, then
        # agent) only while even a FULL_RUN_WIDTH run id does not fit
        for keys in NARROWER:
            run_width = room - pad - sum(widths[k] for k in keys if k != "run")
            if run_width >= FULL_RUN_WIDTH:
                return list(keys), run_width
        run_width = room - pad - sum(widths[k] for k in FIGURES)
        return list(COMPACT_KEYS), max(MIN_RUN_WIDTH, run_width)

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
        labels = {key: label + ((" ▼" if self.sort_reverse else " ▲")
                                if i == self.sort_index else "")
                  for i, (label, key, _) in enumerate(COLUMNS)}
        rows = [self._cells(r) for r in shown]
        keys, run_width = self._layout(labels, rows)
        self._laid_out_for = self.size.width
        if keys != self.layout_keys:
            self.layout_keys = keys
            self.clear(columns=True)
            for key in keys:
                self.add_column(Text(labels[key]), key=key)
        else:
            self.clear()
        for key in keys:
            self.columns[key].label = Text(labels[key])  # type: ignore[index]
        if run_width:
            for r, row in zip(shown, rows, strict=True):
                row[0] = self._run_cell(r, run_width)
        picked = [[row[_INDEX[key]] for key in keys] for row in rows]  # cells from _cells
        self.add_rows(picked)
        if keep is not None:
            self.select_key(keep)

    @staticmethod
    def _status(r: RunEntry) -> str:
        """What follows the run id: its status unless complete, its unreadable files."""
        m = r.metrics
        status = "" if r.status in (None, "complete") else f" ({r.status})"
        bad = m.get("unreadable", 0)  # samples whose files could not be read: never hidden
        if bad:
            status += " (unreadable)" if not m.get("samples_total", m.get("samples")) \
                else f" ({bad} unreadable)"
        return status

    def _run_cell(self, r: RunEntry, width: int) -> Text:
        """The run id elided in the middle to fit ``width`` with its status after it."""
        status = self._status(r)
        return plain(elide_middle(r.run_id, max(MIN_RUN_WIDTH, width - len(status))) + status)

    def _cells(self, r: RunEntry) -> list[Any]:
        """The row's cells in the order of :data:`COLUMNS`."""
        m = r.metrics
        status = self._status(r)
        n_e = m.get("not_evaluable") or 0
        bad = m.get("unreadable", 0)
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
        """Sort by the next column shown."""
        keys = self.layout_keys
        current = ALL_KEYS[self.sort_index]
        nxt = keys[(keys.index(current) + 1) % len(keys)] if current in keys else keys[0]
        self.sort_index = _INDEX[nxt]
        self._rebuild()

    def action_reverse_sort(self) -> None:
        self.sort_reverse = not self.sort_reverse
        self._rebuild()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        index = _INDEX[str(event.column_key.value)]
        if index == self.sort_index:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_index, self.sort_reverse = index, False
        self._rebuild()
