"""Switching tabs by key moves the focus with the tab, at once: the tab stays switched and
the new tab's table has the keys. Seen in browser sessions (one time in three): the focus
stayed on the old tab's table until the new one was ready; when that table was told it was
hidden first, Textual handed the focus to a sibling in the hidden pane, which showed that tab
again, and the two tabs took turns without end, every key lost. And a focus restored to the
old tab's table (the browser tab regaining focus) just before the key switched the tab back."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import TabbedContent

from .conftest import settle

SIZE = (160, 45)
STEPS = (("2", "samples-tab"), ("1", "runs-tab"), ("3", "matrix-tab"), ("2", "samples-tab"),
         ("4", "health-tab"), ("1", "runs-tab"))


async def watch_tabs(app, pilot, seconds: float) -> list[str]:  # type: ignore[no-untyped-def]
    """The active tab, sampled every 10 ms for ``seconds``."""
    tabs = app.screen.query_one(TabbedContent)
    seen = []
    for _ in range(int(seconds / 0.01)):
        seen.append(tabs.active)
        await pilot.pause(0.01)
    return seen


@pytest.mark.parametrize("race", ["none", "hidden-first", "focus-restored"],
                         ids=["in-order", "old-table-told-it-is-hidden-first",
                              "focus-restored-just-before"])
async def test_a_tab_key_switches_once_and_the_focus_follows(
        make_app, race: str) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        main = app.screen
        for key, tab in STEPS:
            before = main.focused
            if race == "focus-restored" and before is not None:
                main.set_focus(None)  # the browser tab lost the focus, then regains it:
                main.set_focus(before)  # Textual puts it back, then hears of it later
            app.post_message(events.Key(key, key))
            if race == "hidden-first" and before is not None:
                before.post_message(events.Hide())
            seen = await watch_tabs(app, pilot, 0.6)
            settled = seen[seen.index(tab):] if tab in seen else []
            assert settled and set(settled) == {tab}, (key, seen)
            pane = main.query_one(f"#{tab}")
            focused = main.focused
            assert focused is not None and pane in focused.ancestors, (key, focused)
            assert "Table" in type(focused).__name__, (key, focused)
