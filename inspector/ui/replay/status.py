"""The replay's status line and its notices line."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from inspector.model.logs.levels import pytest_test_ref
from inspector.services.logs.filters import LogFilter
from inspector.ui.safe import plain, sanitize
from inspector.ui.widgets.log_view import LogView


@dataclass(frozen=True)
class StatusFields:
    """Everything the status line shows; equal fields mean nothing to redraw."""

    busy: str | None = None
    filter: str | None = None
    """The active filter's description, or None without a filter."""
    shown: int = 0
    hidden: int = 0
    search: str = ""
    selected: int | None = None
    """Lines selected with ``v``, or None."""
    test: str | None = None
    """The pytest test under the cursor (``⏎`` opens it)."""
    phase: str | None = None
    """The phase of the line under the cursor (when it is no test line)."""


def status_fields(view: LogView, flt: LogFilter, position: int, *, busy: str | None,
                  search: str) -> StatusFields:
    """The status line's fields for the log view's rows, cursor and selection."""
    rows = view.rows
    filtered = not flt.empty
    selected = None
    if view.mark_row is not None:
        a, b = view.selection()
        selected = b - a + 1
    rec = view.cursor_record()
    ref = pytest_test_ref(rec.text) if rec is not None else None
    return StatusFields(
        busy, flt.describe() if filtered else None,
        rows.count(position) if filtered else 0, rows.hidden(position) if filtered else 0,
        search, selected, ref[0] if ref is not None else None,
        rec.phase.value if rec is not None and rec.phase is not None else None)


class StatusLine(Static):
    """Busy work, filter counts, search, selection and what ``⏎`` does on this line."""

    fields: reactive[StatusFields] = reactive(StatusFields, layout=False)

    def render(self) -> Text:
        f = self.fields
        status = Text()
        if f.busy:
            status.append(sanitize(f.busy) + "   ", style="bold")
        if f.filter is not None:
            status.append(f"filter ‹{sanitize(f.filter)}›: ", style="bold")
            status.append(f"{f.shown:,} shown, {f.hidden:,} hidden   ")
        if f.search:
            status.append(f"search {sanitize(repr(f.search))} (n/N)   ")
        if f.selected is not None:
            status.append(f"{f.selected} lines selected (y copies)   ")
        if f.test is not None:
            status.append(f"⏎ opens {sanitize(f.test)} in the test results   ", style="italic")
        elif f.phase is not None:
            status.append(f"{f.phase}  ", style="dim")
        return status


class NoticesLine(Static):
    """Warnings about the log itself (no timestamps, deleted, rotated); hidden when none."""

    notices: reactive[str] = reactive("", init=True, layout=True)

    def watch_notices(self, notices: str) -> None:
        self.update(plain(notices))
        self.display = bool(notices)
