"""The filter and search inputs under the log, and the filter and search they stand for."""

from __future__ import annotations

import re

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input

from inspector.model.logs.levels import LEVEL_CHOICES
from inspector.services.logs.filters import FilterError, LogFilter, Query
from inspector.ui.focus import focus_now


class FilterBar(Horizontal):
    """Two inputs and the state they set: :attr:`filter` (text, levels, noise) and
    :attr:`search`. A valid change posts `FilterBar.Changed` or `FilterBar.Searched`; an
    invalid one is refused with a notice; Enter in either input also posts `FilterBar.Left`."""

    class Changed(Message):
        """The filter changed (it is valid)."""

        def __init__(self, flt: LogFilter) -> None:
            super().__init__()
            self.filter = flt

    class Searched(Message):
        """A search was submitted: ``pattern`` highlights it (``None``: no search)."""

        def __init__(self, query: str, pattern: re.Pattern[str] | None) -> None:
            super().__init__()
            self.query, self.pattern = query, pattern

    class Left(Message):
        """Enter in an input: the log takes the focus back."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's Widget id=
        super().__init__(id=id)
        self.filter = LogFilter()
        self.search = ""

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter: text or /regex/ (Enter applies; E W B I Y M levels)",
                    id="log-filter")
        yield Input(placeholder="search: text or /regex/ (Enter, then n / N)",
                    id="log-search")

    def focus_filter(self) -> None:
        focus_now(self.query_one("#log-filter", Input))

    def focus_search(self) -> None:
        focus_now(self.query_one("#log-search", Input))

    def set_filter(self, flt: LogFilter) -> None:
        """Take ``flt`` if it is valid (else say why)."""
        try:
            flt.check()
        except FilterError as exc:
            self.notify(str(exc), severity="error")
            return
        self.filter = flt
        self.post_message(self.Changed(flt))

    def toggle_level(self, name: str) -> None:
        """Keep (or stop keeping) the lines of level ``name`` (a key of ``LEVEL_CHOICES``)."""
        f = self.filter
        self.set_filter(LogFilter(f.query, f.levels ^ LEVEL_CHOICES[name], f.hide_noise))

    def clear_filter(self) -> None:
        """No text, no levels (the noise stays as it was)."""
        self.query_one("#log-filter", Input).value = ""
        self.set_filter(LogFilter(hide_noise=self.filter.hide_noise))

    @on(Input.Submitted, "#log-filter")
    def _filter(self, event: Input.Submitted) -> None:
        event.stop()
        self.set_filter(LogFilter(event.value, self.filter.levels, self.filter.hide_noise))
        self.post_message(self.Left())

    @on(Input.Submitted, "#log-search")
    def _search(self, event: Input.Submitted) -> None:
        event.stop()
        self.search = event.value
        self.post_message(self.Left())
        try:
            pattern = Query(self.search).compile() if self.search else None
        except FilterError as exc:
            self.notify(str(exc), severity="error")
            return
        self.post_message(self.Searched(self.search, pattern))
