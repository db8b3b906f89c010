"""The replay's status line and its notices line."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from inspector.model.logs.levels import pytest_test_ref
from inspector.services.logs.filters import LogFilter
from inspector.services.logs.matches import Matches
from inspector.ui.safe import plain, sanitize
from inspector.ui.widgets.log_view import LogView

UNTIMED_NOTE = "timing inferred: this transcript has no timestamps"


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
    matches: int | None = None
    """How many lines match the search, once counted."""
    match: int | None = None
    """Which of them the cursor is on (1-based), or None when it is on no match."""
    untimed: bool = False
    """The log has no timestamps: its replay timing is inferred (a pace per line)."""


def status_fields(view: LogView, flt: LogFilter, position: int, *, busy: str | None,
                  search: str, matches: Matches | None = None) -> StatusFields:
    """The status line's fields for the log view's rows, cursor and selection, and the
    search's ``matches`` once counted."""
    rows = view.rows
    filtered = not flt.empty
    selected = None
    if view.mark_row is not None:
        a, b = view.selection()
        selected = b - a + 1
    rec = view.cursor_record()
    ref = pytest_test_ref(rec.text) if rec is not None else None
    log = view.deploy_log
    found = matches if matches is not None and matches.covers(search, len(log)) else None
    return StatusFields(
        busy, flt.describe() if filtered else None,
        rows.count(position) if filtered else 0, rows.hidden(position) if filtered else 0,
        search, selected, ref[0] if ref is not None else None,
        rec.phase.value if rec is not None and rec.phase is not None else None,
        None if found is None else len(found),
        None if found is None else found.number(view.cursor_line),
        bool(len(log)) and not log.timed)


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
            status.append(f"search {sanitize(repr(f.search))}")
            if f.matches == 0:
                status.append(": no match   ")
            elif f.matches is None:
                status.append(" (n/N)   ")
            elif f.match is not None:
                status.append(f": match {f.match:,} of {f.matches:,} (n/N)   ")
            else:
                status.append(f": {f.matches:,} matches (n/N)   ")
        if f.selected is not None:
            status.append(f"{f.selected} lines selected (y copies)   ")
        if f.test is not None:
            status.append(f"⏎ opens {sanitize(f.test)} in the test results   ", style="italic")
        elif f.phase is not None:
            status.append(f"{f.phase}  ", style="dim")
        if f.untimed:
            status.append(("  " if status else "") + UNTIMED_NOTE, style="bold")
        return status


class NoticesLine(Static):
    """Warnings about the log itself (no timestamps, deleted, rotated); hidden when none."""

    notices: reactive[str] = reactive("", init=True, layout=True)

    def watch_notices(self, notices: str) -> None:
        self.update(plain(notices))
        self.display = bool(notices)
