"""A Plotext plot with the one-line caption that says what it shows and what it leaves out."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from inspector.ui.safe import plain


class PlotBox(Vertical):
    """A plot (``#<plot_id>``) and its caption; ``draw`` repaints both."""

    DEFAULT_CSS = """
    PlotBox { height: 1fr; }
    PlotBox PlotextPlot { height: 1fr; }
    PlotBox .caption { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, plot_id: str) -> None:
        super().__init__(id=f"{plot_id}-box")
        self.plot_id = plot_id

    def compose(self) -> Iterable[Widget]:
        from textual_plotext import PlotextPlot  # loaded with the tab, not at start-up

        yield PlotextPlot(id=self.plot_id)
        yield Static("", classes="caption")

    def draw(self, painter: Callable[..., str], *args: Any) -> None:
        """Clear the plot and let ``painter(plt, *args)`` draw it; show its caption."""
        from textual_plotext import PlotextPlot

        plot = self.query_one(f"#{self.plot_id}", PlotextPlot)
        caption = painter(plot.plt, *args)
        self.query_one(".caption", Static).update(plain(caption))
        plot.refresh()
