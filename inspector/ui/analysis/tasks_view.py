"""The Tasks view: every analysed task's spec figures, tier, difficulty and pass@1, sorted by
any column (``s``/``S`` or a header click) and filtered by the words typed."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import DataTable, Input

from inspector.ui.analysis.task_rows import COLUMNS, TaskRow


class TasksView(Vertical):
    """A filter box over a sortable tasks table."""

    BINDINGS = [
        Binding("s", "sort_next", "Sort tasks"),
        Binding("S", "sort_reverse", "Reverse sort", show=False),
    ]
    DEFAULT_CSS = "TasksView { height: 1fr; } TasksView #tasks-table { height: 1fr; }"

    def __init__(self) -> None:
        super().__init__(id="tasks-view")
        self.rows: list[TaskRow] = []
        self.sort_column = "task"
        self.descending = False

    def compose(self) -> Iterable[Widget]:
        yield Input(placeholder="filter tasks by name, language, framework, tier…",
                    id="tasks-filter")
        yield DataTable(id="tasks-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.table
        for name in COLUMNS:  # two spaces keep room for the sort arrow
            table.add_column(f"{name}  ", key=name)

    @property
    def table(self) -> DataTable:
        return self.query_one("#tasks-table", DataTable)

    def set_rows(self, rows: list[TaskRow]) -> None:
        self.rows = rows
        self.refill()

    def refill(self) -> None:
        """Show the rows that match the filter, in the chosen order; mark the sort column."""
        from inspector.ui.analysis.task_rows import sorted_rows

        table = self.table
        text = self.query_one("#tasks-filter", Input).value
        table.clear()
        for r in sorted_rows(self.rows, self.sort_column, self.descending):
            if r.matches(text):
                table.add_row(*(Text(c) for c in r.cells()), key=r.task)
        arrow = "▼" if self.descending else "▲"
        for column in table.columns.values():
            name = str(column.key.value)
            column.label = Text(f"{name} {arrow}" if name == self.sort_column else f"{name}  ")
        table.refresh()

    @on(Input.Changed, "#tasks-filter")
    def _filter_changed(self) -> None:
        self.refill()

    @on(DataTable.HeaderSelected, "#tasks-table")
    def _header_selected(self, event: DataTable.HeaderSelected) -> None:
        name = str(event.column_key.value)
        self.descending = not self.descending if name == self.sort_column else False
        self.sort_column = name
        self.refill()

    def action_sort_next(self) -> None:
        i = COLUMNS.index(self.sort_column)
        self.sort_column = COLUMNS[(i + 1) % len(COLUMNS)]
        self.descending = False
        self.refill()
        self.notify(f"Tasks sorted by {self.sort_column}", timeout=1.5)

    def action_sort_reverse(self) -> None:
        self.descending = not self.descending
        self.refill()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("sort_next", "sort_reverse"):
            return not isinstance(self.app.focused, Input)  # typed into the filter instead
        return True
