"""The replayed log: a Line-API view over the revealed (and filtered) lines of a log.

Only the visible rows are read from disk, so a 1 GB log scrolls like a small one. Each row
shows the time since the log started, the stream and the text, coloured by level;
tracebacks get a tinted background, search matches are highlighted.
"""

from __future__ import annotations

import re

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.model.logs.levels import Level, pytest_test_ref
from inspector.services.logs.deployment_log import DeploymentLog, Record
from inspector.services.logs.filters import Rows
from inspector.ui.styles import colour

MAX_WIDTH = 4000


def format_time(t: float | None, *, inferred: bool = False) -> str:
    """``+1:02.345`` style offset from the log's start; ``~1:02.345`` when ``inferred`` (a
    log without timestamps: its times are a pace per line, not when the line was written)."""
    if t is None:
        return ""
    sign = "~" if inferred else "+"
    minutes, seconds = divmod(max(0.0, t), 60)
    if minutes >= 60:
        hours, minutes = divmod(minutes, 60)
        return f"{sign}{hours:.0f}:{minutes:02.0f}:{seconds:06.3f}"
    return f"{sign}{minutes:.0f}:{seconds:06.3f}"


class LogView(ScrollView, can_focus=True):
    """Rows ``0 … rows.count(revealed)`` of a log; follows the newest line unless scrolled up."""

    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("shift+up", "extend(-1)", "Select up", show=False),
        Binding("shift+down", "extend(1)", "Select down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("right,l", "screen.step(1)", "Step", show=False),
        Binding("left,h", "screen.step(-1)", "Step back", show=False),
        Binding("shift+right", "scroll_right", "Scroll right", show=False),
        Binding("shift+left", "scroll_left", "Scroll left", show=False),
        Binding("home", "edge(0)", "Top", show=False),
        Binding("end", "edge(1)", "Bottom", show=False),
    ]
    DEFAULT_CSS = """
    LogView { background: $surface; }
    LogView > .log-view--gutter { color: $text-muted; }
    LogView > .log-view--cursor { background: $boost; text-style: bold; }
    LogView > .log-view--selection { background: $primary 25%; }
    LogView > .log-view--match { background: $accent 45%; }
    LogView > .log-view--traceback { background: $error 12%; }
    LogView > .log-view--latest { background: $accent 12%; }
    """
    COMPONENT_CLASSES = {"log-view--gutter", "log-view--cursor", "log-view--selection",
                         "log-view--match", "log-view--traceback", "log-view--latest"}

    cursor_row: reactive[int] = reactive(0, always_update=True)

    class CursorMoved(Message):
        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    def __init__(self, log: DeploymentLog, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.deploy_log = log
        self.rows = Rows(None, len(log))
        self.revealed = 0
        """Lines [0, revealed) of the log are shown."""
        self.attached = True
        """Keep the newest revealed line in view (like a terminal)."""
        self.mark_row: int | None = None
        """Row where a selection started (``v``), or None."""
        self.search: re.Pattern[str] | None = None
        self.show_gutter = True
        self.show_stream = True
        self._batch: dict[int, Record] = {}
        """Records of the rows being painted, read in one go per frame."""
        self._style_table: dict[str, Style] | None = None
        self._inferred = False
        """The log has no timestamps (read once per paint): the gutter marks its times."""

    # ------------------------------------------------------------------ model

    @property
    def row_count(self) -> int:
        return self.rows.count(self.revealed)

    def set_rows(self, rows: Rows) -> None:
        """A new filter result; keeps the cursor on the same log line when possible."""
        line = self.cursor_line
        self.rows = rows
        self._resize()
        if line is not None:
            self.cursor_row = min(self.rows.row_at_or_before(line), max(0, self.row_count - 1))
        self.refresh()

    def set_revealed(self, revealed: int) -> None:
        """Lines [0, revealed) are now shown."""
        self.revealed = revealed
        self._resize()
        if self.attached or self.cursor_row >= self.row_count:
            self.cursor_row = max(0, self.row_count - 1)
        self.refresh()

    def _resize(self) -> None:
        self.virtual_size = Size(MAX_WIDTH, self.row_count)

    @property
    def cursor_line(self) -> int | None:
        """Global log line under the cursor."""
        if not self.row_count:
            return None
        return self.rows.line(min(self.cursor_row, self.row_count - 1))

    def cursor_record(self) -> Record | None:
        line = self.cursor_line
        return None if line is None else self.deploy_log.record(line)

    def selection(self) -> tuple[int, int]:
        """First and last selected row (the cursor row alone without a selection)."""
        if self.mark_row is None:
            return self.cursor_row, self.cursor_row
        return min(self.mark_row, self.cursor_row), max(self.mark_row, self.cursor_row)

    def selected_records(self) -> list[Record]:
        if not self.row_count:
            return []
        a, b = self.selection()
        b = min(b, self.row_count - 1)
        return [self.deploy_log.record(self.rows.line(r)) for r in range(a, b + 1)]

    def go_to_line(self, line: int) -> None:
        """Put the cursor on ``line`` (or the nearest shown line before it), centred."""
        self.attached = False
        self.cursor_row = self.rows.row_at_or_before(min(line, max(0, self.revealed - 1)))
        height = self.scrollable_content_region.height
        self._scroll_y(max(0, self.cursor_row - height // 3))

    # ------------------------------------------------------------------ rendering

    def _styles(self) -> dict[str, Style]:
        app = self.app
        theme = app.current_theme
        err = theme.error if theme and theme.error else "red"
        warn = theme.warning if theme and theme.warning else "yellow"
        sec = theme.secondary if theme and theme.secondary else "magenta"
        return {
            "error": Style.parse(f"bold {err}"),
            "traceback": Style.parse(err),
            "warning": Style.parse(warn),
            "meta": Style.parse(f"italic {sec}"),
            "pip": Style(dim=True),
            "passed": Style.parse(colour(app, "outcome-pass")),
            "failed": Style.parse(f"bold {colour(app, 'outcome-fail')}"),
            "errored": Style.parse(f"bold {colour(app, 'outcome-error')}"),
            "skipped": Style.parse(colour(app, "outcome-skip")),
            "err-stream": Style.parse(warn),
        }

    def _text_style(self, rec: Record, styles: dict[str, Style]) -> Style | None:
        level = rec.level
        if level & Level.PYTEST:
            ref = pytest_test_ref(rec.text)
            if ref is not None:
                outcome = ref[1].upper()
                return styles["passed" if outcome in ("PASSED", "XFAIL") else
                              "failed" if outcome in ("FAILED", "XPASS") else
                              "errored" if outcome == "ERROR" else "skipped"]
        if level & Level.TRACEBACK and not level & Level.ERROR:
            return styles["traceback"]
        if level & Level.ERROR:
            return styles["error"]
        if level & Level.WARNING:
            return styles["warning"]
        if level & Level.META:
            return styles["meta"]
        if level & Level.PIP:
            return styles["pip"]
        return None

    def render_lines(self, crop):  # type: ignore[no-untyped-def]
        self._style_table = self._styles()
        self._inferred = not self.deploy_log.timed
        self._batch = {}
        scroll_y = self.scroll_offset.y
        top = scroll_y + crop.y
        count = min(crop.height, max(0, self.row_count - top))
        if count > 0:
            lines = [self.rows.line(r) for r in range(top, top + count)]
            if self.rows.filtered:
                self._batch = {ln: self.deploy_log.record(ln) for ln in lines}
            else:
                self._batch = {r.line: r for r in self.deploy_log.records(lines[0], count)}
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if row >= self.row_count:
            return Strip.blank(width, base)
        line = self.rows.line(row)
        rec = self._batch.get(line) or self.deploy_log.record(line)
        styles = self._style_table or self._styles()
        line_style = base
        if rec.level & Level.TRACEBACK:
            line_style = base + self.get_component_rich_style("log-view--traceback")
        a, b = self.selection()
        if self.mark_row is not None and a <= row <= b:
            line_style = base + self.get_component_rich_style("log-view--selection")
        elif row == self.cursor_row and self.has_focus:
            line_style = line_style + self.get_component_rich_style("log-view--cursor")
        elif line == self.revealed - 1 and self.revealed < len(self.deploy_log):
            line_style = line_style + self.get_component_rich_style("log-view--latest")
        gutter: list[Segment] = []
        gutter_style = base + self.get_component_rich_style("log-view--gutter")
        if self.show_gutter:
            stamp = format_time(rec.time, inferred=self._inferred)
            gutter.append(Segment(f"{stamp:>12} ", gutter_style))
        if self.show_stream:
            stream_style = styles["err-stream"] if rec.stream == "err" else gutter_style
            gutter.append(Segment(f"{rec.stream:<4} ", base + stream_style))
        gutter_w = sum(len(s.text) for s in gutter)
        text = rec.text.expandtabs(4)
        if rec.cut_bytes:
            text += f" … [{_size(rec.cut_bytes)} more]"
        text_style = self._text_style(rec, styles)
        body_style = line_style + text_style if text_style else line_style
        body = self._highlight(text, body_style)
        strip = Strip(body).crop(scroll_x, scroll_x + max(0, width - gutter_w))
        strip = Strip([*gutter, *strip]).extend_cell_length(width, line_style)
        return strip.crop(0, width)

    def _highlight(self, text: str, style: Style) -> list[Segment]:
        if self.search is None or not text:
            return [Segment(text, style)]
        match_style = style + self.get_component_rich_style("log-view--match")
        out: list[Segment] = []
        pos = 0
        for m in self.search.finditer(text):
            if m.end() == m.start():
                continue
            if m.start() > pos:
                out.append(Segment(text[pos:m.start()], style))
            out.append(Segment(text[m.start():m.end()], match_style))
            pos = m.end()
        if pos < len(text):
            out.append(Segment(text[pos:], style))
        return out

    # ------------------------------------------------------------------ movement

    def watch_cursor_row(self, row: int) -> None:
        top = self.scroll_offset.y
        height = self.scrollable_content_region.height
        if height and row < top:
            self._scroll_y(row)
        elif height and row >= top + height:
            self._scroll_y(row - height + 1)
        self.refresh()
        self.post_message(self.CursorMoved(row))

    def _scroll_y(self, y: int) -> None:
        """Scroll to row ``y`` now, even before a layout has shown the scrollbar that the
        rows just revealed need (a jump from a few rows to many: Textual would ignore it)."""
        self.scroll_to(y=y, animate=False, force=True)

    def _move(self, row: int) -> None:
        last = max(0, self.row_count - 1)
        self.cursor_row = max(0, min(last, row))
        self.attached = self.cursor_row >= last

    def action_cursor(self, delta: int) -> None:
        """Move the cursor; after ``v`` this extends the selection (like vim's visual mode)."""
        self._move(self.cursor_row + delta)

    def action_extend(self, delta: int) -> None:
        if self.mark_row is None:
            self.mark_row = self.cursor_row
        self._move(self.cursor_row + delta)

    def action_page(self, direction: int) -> None:
        self._move(self.cursor_row + direction * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, end: int) -> None:
        self._move(self.row_count - 1 if end else 0)

    def toggle_selection(self) -> None:
        self.mark_row = None if self.mark_row is not None else self.cursor_row
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


def _size(n: int) -> str:
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.0f} KB"
    return f"{n} B"
