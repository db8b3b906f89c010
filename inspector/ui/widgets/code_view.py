"""A read-only, syntax-highlighted file view that can open at a line.

Line-API widget: only visible lines are rendered, so a file of 20,000 lines scrolls as
smoothly as one of 20. Highlighting (pygments) runs in a thread worker; plain text shows at
once. Text must already be sanitised (no terminal escape sequences).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual import work
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

if TYPE_CHECKING:
    from rich.syntax import PygmentsSyntaxTheme

DARK_SYNTAX = "monokai"
LIGHT_SYNTAX = "friendly"


class CodeView(ScrollView, can_focus=True):
    """Shows one file with line numbers; ``goto(line)`` scrolls to and marks a line."""

    BINDINGS = [
        Binding("up,k", "cursor(-1)", "Up", show=False),
        Binding("down,j", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown,space", "page(1)", "Page down", show=False),
        Binding("home,g", "edge(0)", "Top", show=False),
        Binding("end,G", "edge(1)", "Bottom", show=False),
    ]
    DEFAULT_CSS = """
    CodeView { background: $surface; }
    CodeView > .code-view--gutter { color: $text-muted; }
    CodeView > .code-view--cursor { background: $boost; }
    CodeView > .code-view--target { background: $accent 30%; }
    """
    COMPONENT_CLASSES = {"code-view--gutter", "code-view--cursor", "code-view--target"}

    cursor_line: reactive[int] = reactive(0, always_update=True)
    """0-based line under the cursor."""

    class Highlighted(Message):
        """Highlighting finished (tests wait for this)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.lines: list[str] = []
        self._segments: list[list[Segment]] | None = None
        self.lexer = "text"
        self.target_line: int | None = None
        self.path_label = ""
        self._want_y: int | None = None
        """Line to keep scrolled into view until the view is laid out (``goto``)."""

    # ------------------------------------------------------------------ public API

    def show(self, text: str, lexer: str = "text", label: str = "",
             line: int | None = None) -> None:
        """Display ``text`` (already sanitised); ``line`` (1-based) is scrolled to and marked."""
        self.lines = text.split("\n") if text else [""]
        if self.lines and self.lines[-1] == "" and len(self.lines) > 1:
            self.lines.pop()
        self.lexer = lexer
        self.path_label = label
        self._want_y = None
        self._segments = None
        self.target_line = line - 1 if line else None
        width = max((len(x) for x in self.lines), default=0) + self._gutter_width() + 1
        self.virtual_size = Size(min(width, 2000), len(self.lines))
        self.scroll_to(0, 0, animate=False)
        self.cursor_line = 0
        if line:
            self.call_after_refresh(self.goto, line)
        self.refresh()
        self._highlight(self.lines, lexer)

    def clear(self) -> None:
        """Show nothing (as before the first ``show``)."""
        self.lines = []
        self.lexer = "text"
        self.path_label = ""
        self._want_y = None
        self._segments = None
        self.target_line = None
        self.virtual_size = Size(0, 0)
        self.scroll_to(0, 0, animate=False)
        self.cursor_line = 0
        self.refresh()

    def goto(self, line: int) -> None:
        """Scroll so that 1-based ``line`` is near the middle, and mark it."""
        index = max(0, min(line - 1, len(self.lines) - 1))
        self.target_line = index
        self.cursor_line = index
        self._want_y = index
        self._apply_want()

    def _apply_want(self, tries: int = 5) -> None:
        """Scroll the wanted line to a third of the height; until the view is laid out the
        scroll range may still be zero (a busy machine), so try again after the refresh."""
        if self._want_y is None:
            return
        y = max(0, self._want_y - self.size.height // 3)
        self.scroll_to(y=y, animate=False)
        self.refresh()
        if tries and (not self.size.height or round(self.scroll_offset.y) != y):
            self.call_after_refresh(self._apply_want, tries - 1)

    def on_resize(self) -> None:
        if self._want_y is not None and self.cursor_line == self._want_y:
            self._apply_want()

    @property
    def highlighted(self) -> bool:
        return self._segments is not None

    # ------------------------------------------------------------------ highlighting

    def _syntax_theme(self) -> PygmentsSyntaxTheme:
        from rich.syntax import PygmentsSyntaxTheme  # pygments: loaded by the first highlight

        dark = self.app.current_theme.dark if self.app.current_theme else True
        return PygmentsSyntaxTheme(DARK_SYNTAX if dark else LIGHT_SYNTAX)

    @work(thread=True, exclusive=True, group="highlight")
    def _highlight(self, lines: list[str], lexer_name: str) -> None:
        from pygments.lexers import get_lexer_by_name
        from pygments.util import ClassNotFound

        if lexer_name in ("text", ""):
            return
        try:
            lexer = get_lexer_by_name(lexer_name, stripnl=False, ensurenl=False)
        except ClassNotFound:
            return
        theme = self._syntax_theme()
        cache: dict[object, Style] = {}
        out: list[list[Segment]] = [[]]
        for token_type, value in lexer.get_tokens("\n".join(lines)):
            style = cache.get(token_type)
            if style is None:
                s = theme.get_style_for_token(token_type)
                style = cache[token_type] = Style(color=s.color, bold=s.bold, italic=s.italic,
                                                  underline=s.underline)
            parts = value.split("\n")
            for i, part in enumerate(parts):
                if i:
                    out.append([])
                if part:
                    out[-1].append(Segment(part, style))
        if lines is self.lines:
            self.app.call_from_thread(self._set_segments, lines, out)

    def _set_segments(self, lines: list[str], segments: list[list[Segment]]) -> None:
        if lines is self.lines:
            self._segments = segments
            self.refresh()
            self.post_message(self.Highlighted())

    # ------------------------------------------------------------------ rendering

    def _gutter_width(self) -> int:
        return len(str(len(self.lines))) + 2

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if index >= len(self.lines):
            return Strip.blank(width, base)
        gutter_w = self._gutter_width()
        gutter_style = base + self.get_component_rich_style("code-view--gutter")
        line_style = base
        if index == self.target_line:
            line_style = base + self.get_component_rich_style("code-view--target")
        elif index == self.cursor_line and self.has_focus:
            line_style = base + self.get_component_rich_style("code-view--cursor")
        number = f"{index + 1:>{gutter_w - 2}}  "
        if self._segments is not None and index < len(self._segments):
            body = [Segment(s.text, line_style + s.style if s.style else line_style)
                    for s in self._segments[index]]
        else:
            body = [Segment(self.lines[index].expandtabs(4), line_style)]
        body = [Segment(s.text.expandtabs(4), s.style) for s in body]
        strip = Strip(body).crop(scroll_x, scroll_x + width - gutter_w)
        strip = Strip([Segment(number, gutter_style), *strip]).extend_cell_length(width,
                                                                                  line_style)
        return strip.crop(0, width)

    # ------------------------------------------------------------------ actions

    def watch_cursor_line(self, line: int) -> None:
        top = self.scroll_offset.y
        height = self.scrollable_content_region.height
        if height and line < top:
            self.scroll_to(y=line, animate=False)
        elif height and line >= top + height:
            self.scroll_to(y=line - height + 1, animate=False)
        self.refresh()

    def action_cursor(self, delta: int) -> None:
        self._want_y = None
        self.cursor_line = max(0, min(len(self.lines) - 1, self.cursor_line + delta))

    def action_page(self, direction: int) -> None:
        self.action_cursor(direction * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, end: int) -> None:
        self._want_y = None
        self.cursor_line = len(self.lines) - 1 if end else 0

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
