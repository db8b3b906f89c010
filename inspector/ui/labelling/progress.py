"""The labelling screen's status line: samples labelled, where the queue is, failure items
labelled in the triaged samples, and a bar (reactive: set :attr:`LabelProgress.counts`)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import ProgressBar, Static

from inspector.ui.safe import plain


@dataclass(frozen=True, slots=True)
class ProgressCounts:
    """What the status line says."""

    annotator: str = ""
    done: int = 0  # failing samples the annotator labelled
    total: int = 0  # failing samples in the queue
    position: int = 0  # the queue sample shown (1-based)
    items_done: int = 0  # failure items labelled, in the triaged samples
    items: int = 0  # failure items of the triaged samples
    triaged: int = 0  # samples triaged so far


def progress_text(c: ProgressCounts) -> str:
    """The status line as text."""
    pct = f" ({c.done * 100 // c.total}%)" if c.total else ""
    text = (f"{c.done} of {c.total} failing samples labelled by {c.annotator}{pct}"
            f" · item {c.position}/{c.total}")
    if c.items:
        text += (f" · failure items {c.items_done}/{c.items} labelled in {c.triaged} "
                 "triaged samples")
    return text


class LabelProgress(Horizontal):
    """``#progress-text`` and the ``#progress`` bar, redrawn when :attr:`counts` changes."""

    counts: reactive[ProgressCounts] = reactive(ProgressCounts, init=False)

    def compose(self) -> ComposeResult:
        yield Static("", id="progress-text")
        yield ProgressBar(total=1, show_eta=False, id="progress")

    def watch_counts(self, counts: ProgressCounts) -> None:
        self.query_one("#progress-text", Static).update(plain(progress_text(counts)))
        self.query_one("#progress", ProgressBar).update(total=max(1, counts.total),
                                                        progress=counts.done)
