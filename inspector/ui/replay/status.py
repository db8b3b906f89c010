"""The replay's status line and its notices line."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from inspector.ui.safe import plain, sanitize


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
