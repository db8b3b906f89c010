"""Evidence an annotator can attach to a label or open: the suggestion's anchors (README and
golden-test lines, repo files, log lines), the failing tests, telling log lines."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.model.labels.label_file import Anchor
from inspector.ui.safe import sanitize

_KIND = {"task": "task", "file": "repo", "log": "log", "test": "test"}


class EvidenceList(OptionList):
    """``[x]`` attached, ``[ ]`` not; Enter posts :class:`Opened` for the highlighted one."""

    @dataclass
    class Opened(Message):
        """Enter on an anchor: open it where it points."""

        evidence: EvidenceList
        anchor: Anchor

        @property
        def control(self) -> EvidenceList:
            return self.evidence

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:  # noqa: A002 - Textual's Widget id=
        super().__init__(id=id, classes=classes)
        self.anchors: list[Anchor] = []

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.anchors):
            self.post_message(self.Opened(self, self.anchors[event.option_index]))

    @property
    def highlighted_anchor(self) -> Anchor | None:
        """The highlighted anchor."""
        i = self.highlighted
        return self.anchors[i] if i is not None and 0 <= i < len(self.anchors) else None

    def show(self, candidates: list[Anchor], attached: list[Anchor]) -> None:
        """List ``candidates`` (plus attached anchors not among them), marking the attached."""
        anchors = list(candidates) + [a for a in attached if a not in candidates]
        highlighted = self.highlighted
        self.clear_options()
        options = []
        for a in anchors:
            on = a in attached
            t = Text("[x] " if on else "[ ] ", style="bold green" if on else "dim")
            t.append(f"{_KIND.get(a.kind, a.kind):<5}", style="dim")
            t.append(sanitize(a.describe().removeprefix("task ").removeprefix("test "))[:200])
            options.append(Option(t))
        self.add_options(options)
        self.anchors = anchors
        if anchors:
            self.highlighted = min(highlighted or 0, len(anchors) - 1)
