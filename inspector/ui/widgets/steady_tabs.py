"""Tabs that stay where the user put them."""

from __future__ import annotations

from textual.widgets import TabbedContent, TabPane


class SteadyTabbedContent(TabbedContent):
    """A ``TabbedContent`` that shows the pane of a newly focused widget only if the focus is
    still in that pane when the notice arrives.

    Textual shows the pane of any widget focused inside it, but it hears of the focus later,
    after other events. A focus that had already moved on then switched the tab back: in a
    browser session the focus restored to the old tab's table just before a tab key was
    pressed, or a table being hidden handing the focus to its neighbour in the same pane."""

    def on_tab_pane_focused(self, event: TabPane.Focused) -> None:
        if not event.tab_pane.has_focus_within:
            event.prevent_default()  # stale: Textual's own handler would switch the tab
            event.stop()
