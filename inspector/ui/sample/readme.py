"""The README tab: the task README, rendered."""

from __future__ import annotations

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static, TabPane


class ReadmeTab(TabPane):
    """The task README in one scrollable Static."""

    def __init__(self) -> None:
        super().__init__("README [r]", id="readme-tab")

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="readme-scroll"):
            yield Static("", id="readme")

    def show(self, readme: RenderableType) -> None:
        """Show ``readme`` (empty string: nothing, while a sample loads) from the top."""
        self.query_one("#readme", Static).update(readme)
        self.query_one("#readme-scroll", VerticalScroll).scroll_home(animate=False)
