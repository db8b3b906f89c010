"""The filter and search inputs under the log."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input

from inspector.ui.focus import focus_now


class FilterBar(Horizontal):
    """Two inputs; Enter in either posts `FilterBar.Filter` or `FilterBar.Search`."""

    class Filter(Message):
        """The filter text was submitted."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Search(Message):
        """The search text was submitted."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter: text or /regex/ (Enter applies; E W B I Y M levels)",
                    id="log-filter")
        yield Input(placeholder="search: text or /regex/ (Enter, then n / N)",
                    id="log-search")

    def focus_filter(self) -> None:
        focus_now(self.query_one("#log-filter", Input))

    def focus_search(self) -> None:
        focus_now(self.query_one("#log-search", Input))

    def clear_filter(self) -> None:
        self.query_one("#log-filter", Input).value = ""

    @on(Input.Submitted, "#log-filter")
    def _filter(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Filter(event.value))

    @on(Input.Submitted, "#log-search")
    def _search(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Search(event.value))
