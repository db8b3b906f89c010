"""Every sample matching the active filter: failures first, with the telling message.

A Line-API list (like ``code_view``): setting 10,000 samples sorts them and measures the
columns from plain strings; cells are built and rendered only for the rows on screen. It
looks and behaves like the ``DataTable`` it replaced (same component classes and CSS, same
cell rendering, row cursor, keys, mouse, highlight/select messages).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual._segment_tools import line_crop
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.reactive import reactive
from textual.renderables.styled import Styled
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import DataTable
from textual.widgets._data_table import default_cell_formatter

from inspector.model.results.entries import SampleEntry
from inspector.model.results.verdict import Verdict
from inspector.ui.safe import plain
from inspector.ui.styles import colour, verdict_text

_ORDER = {Verdict.NOT_DEPLOYED: 0, Verdict.SUITE_NOT_RUN: 1, Verdict.TESTS_FAILED: 2,
          Verdict.PASSED: 3, Verdict.NOT_EVALUABLE: -1}  # n/e first: to evaluate again
RUN_WIDTH = 32
_RUN_PREFIX = "repo_readme_"  # every RepoGenesis predictions folder name starts so
MESSAGE_CHARS = 120
PADDING = 1
"""Cell padding each side (DataTable's default)."""
COLUMNS = [("run", RUN_WIDTH), ("task", None), ("#", None), ("outcome", None), ("AC", None),
           ("message", None)]
"""(label, fixed width or None for the widest cell)."""


@dataclass(frozen=True, slots=True)
class UnreadableRow:
    """A sample whose files could not be read: listed after the samples, never opened.
    ``line`` is ``<file>: <reason>``, whole (the preview shows it uncut)."""

    run_id: str
    task: str
    sample: int | None
    line: str


def _width(text: str) -> int:
    """Cells a one-row cell takes (DataTable measures the widest line)."""
    if "\n" in text or "\r" in text:
        return max((cell_len(line) for line in text.splitlines()), default=0)
    return cell_len(text)


class SamplesTable(ScrollView, can_focus=True):
    """Samples (one per row); Enter opens one. ``set_samples`` takes the whole list."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Select", show=False),
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("right", "scroll_right", "Scroll right", show=False),
        Binding("left", "scroll_left", "Scroll left", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("ctrl+home", "scroll_top", "Top", show=False),
        Binding("ctrl+end", "scroll_bottom", "Bottom", show=False),
        Binding("home", "scroll_home", "Home", show=False),
        Binding("end", "scroll_end", "End", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = set(DataTable.COMPONENT_CLASSES)
    DEFAULT_CSS = DataTable.DEFAULT_CSS.replace("DataTable", "SamplesTable")

    cursor_row: reactive[int] = reactive(0, always_update=True, init=False)
    """Index in ``shown`` of the highlighted sample."""

    @dataclass
    class RowHighlighted(Message):
        """The cursor moved to ``cursor_row``."""

        table: SamplesTable
        cursor_row: int

        @property
        def control(self) -> SamplesTable:
            return self.table

    @dataclass
    class RowSelected(Message):
        """Enter (or a second click) on ``cursor_row``."""

        table: SamplesTable
        cursor_row: int

        @property
        def control(self) -> SamplesTable:
            return self.table

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shown: list[SampleEntry] = []
        self.unreadable: list[UnreadableRow] = []  # rows after ``shown``
        self.suspect_tasks: set[str] = set()
        self.widths = [w or cell_len(label) for label, w in COLUMNS]
        self.labels = [Text.from_markup(label) for label, _ in COLUMNS]
        self.hover_row = 0
        self._show_hover = False
        self._generation = 0
        self._cells: dict[int, list[Any]] = {}
        self._lines: dict[tuple[Any, ...], Strip] = {}
        self._styles: Callable[..., tuple[Style, Style]] | None = None

    # ------------------------------------------------------------------ data

    @property
    def row_count(self) -> int:
        return len(self.shown) + len(self.unreadable)

    def set_samples(self, entries: list[SampleEntry],
                    unreadable: list[UnreadableRow] | None = None) -> None:
        """Show ``entries`` failures first, then the ``unreadable`` samples; the highlighted
        sample stays highlighted."""
        keep = self.current()
        entries = sorted(entries, key=lambda e: (_ORDER[e.verdict], e.task, e.run_id, e.sample))
        self.shown = entries
        self.unreadable = list(unreadable or ())
        self._generation += 1
        self._cells.clear()
        self._lines.clear()
        widths = [cell_len(label.plain) for label in self.labels]
        widths[0] = RUN_WIDTH
        suspect_extra = cell_len(" ⚠")
        suspect = self.suspect_tasks
        app = self.app
        # widths from plain strings, each distinct value measured once
        task_widths: dict[str, int] = {}
        message_widths: dict[str, int] = {}
        outcome_widths: dict[tuple[Any, ...], int] = {}
        for e in entries:
            task = task_widths.get(e.task)
            if task is None:
                task = task_widths[e.task] = _width(plain(e.task).plain) + (
                    suspect_extra if e.task in suspect else 0)
            message = e.message[:MESSAGE_CHARS]
            message_w = message_widths.get(message)
            if message_w is None:
                message_w = message_widths[message] = _width(plain(message).plain)
            outcome_key = (e.verdict, e.collection_errors, e.passed, e.total, e.failed_phase)
            outcome = outcome_widths.get(outcome_key)
            if outcome is None:  # verdict_text reads only these fields
                outcome = outcome_widths[outcome_key] = _width(verdict_text(app, e).plain)
            ac = len(f"{e.ac_implemented}/{e.ac_total}") if e.ac_total else 1
            cols = (task, len(str(e.sample)), outcome, ac, message_w)
            for i, w in enumerate(cols, 1):
                if w > widths[i]:
                    widths[i] = w
        for u in self.unreadable:
            cols = (_width(plain(u.task).plain), 1, len("unreadable"), 1,
                    _width(plain(u.line[:MESSAGE_CHARS]).plain))
            widths[1:] = [max(w, c) for w, c in zip(widths[1:], cols, strict=True)]
        self.widths = widths
        self.virtual_size = Size(self._table_width(), self.row_count + 1)
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.hover_row = 0
        row = 0
        if keep is not None:
            row = next((i for i, e in enumerate(entries) if e.key == keep.key), 0)
        self.cursor_row = row
        if row:
            self.call_after_refresh(self._scroll_cursor_into_view)
        self.refresh()

    def current(self) -> SampleEntry | None:
        if 0 <= self.cursor_row < len(self.shown):
            return self.shown[self.cursor_row]
        return None

    def current_unreadable(self) -> UnreadableRow | None:
        """The highlighted unreadable sample, when the cursor is on one."""
        index = self.cursor_row - len(self.shown)
        return self.unreadable[index] if 0 <= index < len(self.unreadable) else None

    def select(self, sample_key: int) -> bool:
        for i, e in enumerate(self.shown):
            if e.key == sample_key:
                self.move_cursor(row=i)
                return True
        return False

    def move_cursor(self, *, row: int | None = None, animate: bool = False,
                    scroll: bool = True) -> None:
        """Put the cursor on ``row`` (clamped) and, with ``scroll``, scroll it into view."""
        if row is not None:
            self.cursor_row = row
        if scroll:
            self._scroll_cursor_into_view(animate=animate)

    def _row_cells(self, index: int) -> list[Any]:
        cells = self._cells.get(index)
        if cells is None and index >= len(self.shown):
            u = self.unreadable[index - len(self.shown)]
            raw = [plain(_short(u.run_id, RUN_WIDTH)), plain(u.task or "—"),
                   "—" if u.sample is None else str(u.sample),
                   Text("unreadable", style=f"bold {colour(self.app, 'health-suspect')}"), "—",
                   plain(u.line[:MESSAGE_CHARS], no_wrap=True)]
            cells = [default_cell_formatter(c, wrap=False, height=1) for c in raw]
            self._cells[index] = cells
        if cells is None:
            e = self.shown[index]
            task = plain(e.task)
            if e.task in self.suspect_tasks:
                task.append(" ⚠", style=f"bold {colour(self.app, 'health-suspect')}")
            ac = f"{e.ac_implemented}/{e.ac_total}" if e.ac_total else "—"
            raw = [plain(_short(e.run_id, RUN_WIDTH)), task, str(e.sample),
                   verdict_text(self.app, e), ac,
                   plain(e.message[:MESSAGE_CHARS], no_wrap=True)]
            cells = [default_cell_formatter(c, wrap=False, height=1) for c in raw]
            if len(self._cells) > 512:
                self._cells.clear()
            self._cells[index] = cells
        return cells

    # ------------------------------------------------------------------ cursor

    def validate_cursor_row(self, row: int) -> int:
        return max(0, min(row, self.row_count - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        self.refresh()
        if self.row_count:
            self.post_message(self.RowHighlighted(self, new))

    def _body_height(self) -> int:
        return max(0, self.scrollable_content_region.height - 1)

    def _scroll_cursor_into_view(self, animate: bool = False) -> None:
        region = Region(int(self.scroll_x), self.cursor_row + 1, self._table_width(), 1)
        self.scroll_to_region(region, animate=animate, spacing=Spacing(1, 0, 0, 0),
                              force=True)

    def _set_hover(self, active: bool) -> None:
        if active != self._show_hover:
            self._show_hover = active
            self.refresh()

    def action_cursor_up(self) -> None:
        self._set_hover(False)
        self.move_cursor(row=self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self._set_hover(False)
        self.move_cursor(row=self.cursor_row + 1)

    def action_page_down(self) -> None:
        self._set_hover(False)
        height = self._body_height()
        rows = min(height + 1, self.row_count - self.cursor_row)
        self.scroll_relative(y=height, animate=False, force=True)
        self.move_cursor(row=self.cursor_row + rows - 1, scroll=False)

    def action_page_up(self) -> None:
        self._set_hover(False)
        height = self._body_height()
        rows = min(height + 1, self.cursor_row + 1)
        self.scroll_relative(y=-height, animate=False)
        self.move_cursor(row=self.cursor_row - rows + 1, scroll=False)

    def action_scroll_top(self) -> None:
        self._set_hover(False)
        self.move_cursor(row=0)

    def action_scroll_bottom(self) -> None:
        self._set_hover(False)
        self.move_cursor(row=self.row_count - 1)

    def action_scroll_home(self) -> None:
        self._set_hover(False)
        self.scroll_x = 0

    def action_scroll_end(self) -> None:
        self._set_hover(False)
        self.scroll_x = self.max_scroll_x

    def action_select_cursor(self) -> None:
        self._set_hover(False)
        if self.current() is not None:  # an unreadable row has nothing to open
            self.post_message(self.RowSelected(self, self.cursor_row))

    # ------------------------------------------------------------------ mouse

    def _on_mouse_move(self, event: events.MouseMove) -> None:
        meta = event.style.meta
        if not meta or "row" not in meta:
            self._set_hover(False)
            return
        self._set_hover(True)
        if meta["row"] != self.hover_row:
            self.hover_row = meta["row"]
            self.refresh()

    def _on_leave(self, _: events.Leave) -> None:
        self._set_hover(False)

    async def _on_click(self, event: events.Click) -> None:
        self._set_hover(True)
        meta = event.style.meta
        if "row" not in meta or "column" not in meta:
            return
        row = meta["row"]
        if row == -1:  # the header: nothing to sort here (the list has one order)
            return
        again = row == self.cursor_row
        self.cursor_row = row
        if again:
            self.action_select_cursor()
        self._scroll_cursor_into_view(animate=True)
        event.stop()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    # ------------------------------------------------------------------ rendering

    def _table_width(self) -> int:
        return sum(w + 2 * PADDING for w in self.widths)

    def _cell_styles(self, header: bool, hover: bool, cursor: bool) -> tuple[Style, Style]:
        """(pre, post) styles of a cell, as DataTable computes them (CSS cursor colours
        take priority over the cell's own)."""
        component = Style()
        if hover and self._show_hover:
            component += self.get_component_rich_style("datatable--hover")
            if header:
                component += self.get_component_rich_style("datatable--header-hover")
        if cursor:
            component += self.get_component_rich_style("datatable--cursor")
            if header:
                component += self.get_component_rich_style("datatable--header-cursor")
        post = Style.from_color(color=component.color) + Style.from_color(
            bgcolor=component.bgcolor)
        return component, post

    def _row_style(self, index: int) -> Style:
        if index == -1:
            return self.get_component_styles("datatable--header").rich_style
        name = "datatable--odd-row" if index % 2 else "datatable--even-row"
        return self.get_component_styles(name).rich_style

    def _render_row(self, index: int) -> list[Segment]:
        """Row ``index`` (-1: the header) at full table width plus the fill to the right."""
        cursor = index == self.cursor_row
        hover = index == self.hover_row
        row_style = self._row_style(index)
        cells = self.labels if index == -1 else self._row_cells(index)
        console = self.app.console
        segments: list[Segment] = []
        component, post = self._cell_styles(index == -1, hover, cursor)
        for column, (cell, width) in enumerate(zip(cells, self.widths, strict=True)):
            width += 2 * PADDING
            options = self.app.console_options.update_dimensions(width, 1).update(
                no_wrap=True)
            base = row_style + Style.from_meta({"row": index, "column": column})
            lines = console.render_lines(
                Styled(Padding(cell, (0, PADDING)), pre_style=base + component,
                       post_style=post), options)
            segments.extend(lines[0])
        remaining = max(0, self.size.width - self._table_width())
        extend, _ = self._cell_styles(index == -1, hover and self._show_hover, cursor)
        extend = row_style + extend + Style.from_meta(
            {"row": index, "column": 0, "out_of_bounds": True})
        segments.append(Segment(" " * remaining, extend))
        return segments

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        index = -1 if y == 0 else y - 1 + scroll_y
        base = self.rich_style
        if index >= self.row_count:
            return Strip.blank(width, base)
        key = (index, index == self.cursor_row, index == self.hover_row and self._show_hover,
               scroll_x, width, base, self._generation, self.get_pseudo_class_state())
        strip = self._lines.get(key)
        if strip is None:
            segments = line_crop(self._render_row(index), scroll_x, scroll_x + width, width)
            strip = Strip(segments).adjust_cell_length(width, base).simplify()
            if len(self._lines) > 1024:
                self._lines.clear()
            self._lines[key] = strip
        return strip


def _short(run_id: str, width: int) -> str:
    """``run_id`` in ``width`` columns: without the common prefix, elided in the middle so the
    date and agent at its start and a stock copy's stamp at its end both stay readable."""
    text = run_id.removeprefix(_RUN_PREFIX)
    if len(text) <= width:
        return text
    head = min(12, width // 2)
    return text[:head] + "…" + text[-(width - head - 1):]
