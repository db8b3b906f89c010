"""A tab's contents, mounted the first time the tab is shown."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from textual.widget import Widget

from inspector.ui.focus import focus_now


class LazyPane(Widget):
    """A pane whose children (``build``) are mounted by ``ensure_built`` on first show, and
    whose table is refilled by ``fill`` only while it is built and marked ``dirty``."""

    DEFAULT_CSS = "LazyPane { height: auto; layout: vertical; }"

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.built = False
        self.dirty = True
        self._build_lock = asyncio.Lock()

    def build(self) -> Iterable[Widget]:
        """The pane's widgets (mounted once)."""
        return ()

    async def ensure_built(self) -> None:
        """Mount the pane's widgets unless they are already there. Callers racing (the tab's
        activation and a key typed right behind it) wait for the one build; ``built`` turns
        true once every widget is mounted."""
        async with self._build_lock:
            if self.built:
                return
            await self.mount_built()
            self.built = True
            self.on_built()

    async def mount_built(self) -> None:
        """Mount what ``build`` yields (a pane placing widgets around others overrides this)."""
        await self.mount_all(list(self.build()))

    def on_built(self) -> None:
        """Called once the widgets are mounted (set up columns, legends…)."""

    def refresh_if_dirty(self) -> None:
        """Refill the pane if its data changed since the last fill (and it is built)."""
        if self.built and self.dirty:
            self.dirty = False
            self.fill()

    def fill(self) -> None:
        """Show the pane's current data."""

    async def show(self) -> None:
        """The tab became visible: build, fill if needed and focus its main widget, unless
        the tab was left meanwhile or a key typed meanwhile already moved the focus into the
        pane (its filter, say)."""
        await self.ensure_built()
        self.refresh_if_dirty()
        if self.on_active_tab and not self.has_focus_within:
            self.focus_main()

    @property
    def on_active_tab(self) -> bool:
        """Whether the tab holding the pane is the one shown."""
        return self.parent is not None and bool(self.parent.display)

    def main_widget(self) -> Widget | None:
        """The widget the keys go to when the tab is shown (once built)."""
        return None

    def focus_main(self) -> None:
        """Focus the main widget at once. Deferred (``Widget.focus()``), a focus landing after
        the user changed tabs would switch the tab back (Textual shows the pane of a focused
        widget), and two such in flight switched the tabs back and forth endlessly."""
        widget = self.main_widget()
        if widget is not None:
            focus_now(widget)
