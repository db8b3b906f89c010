"""A tab's contents, mounted the first time the tab is shown."""

from __future__ import annotations

from collections.abc import Iterable

from textual.widget import Widget


class LazyPane(Widget):
    """A pane whose children (``build``) are mounted by ``ensure_built`` on first show, and
    whose table is refilled by ``fill`` only while it is built and marked ``dirty``."""

    DEFAULT_CSS = "LazyPane { height: auto; layout: vertical; }"

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.built = False
        self.dirty = True

    def build(self) -> Iterable[Widget]:
        """The pane's widgets (mounted once)."""
        return ()

    async def ensure_built(self) -> None:
        """Mount the pane's widgets unless they are already there."""
        if not self.built:
            self.built = True
            await self.mount_all(list(self.build()))
            self.on_built()

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
        """The tab became visible: build, fill if needed and focus its main widget."""
        await self.ensure_built()
        self.refresh_if_dirty()
        self.focus_main()

    def focus_main(self) -> None:
        """Focus the pane's table."""
