"""The annotator's label of the current item (category, whether it follows a root, confidence,
history, how many follow it), its note, and the other annotators' labels (hidden in blind
mode until the annotator labels the item)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Static

from inspector.model.labels.label_file import ItemRef, Label
from inspector.model.labels.taxonomy import Taxonomy
from inspector.ui.label_text import taxonomy_category_text
from inspector.ui.safe import sanitize


class LabelSummary(Vertical):
    """``#mine``, the ``#note`` input and ``#others``."""

    DEFAULT_CSS = """
    LabelSummary { height: auto; }
    LabelSummary > Static { height: auto; margin-bottom: 1; }
    LabelSummary > #note { margin-bottom: 1; }
    """

    def __init__(self, taxonomy: Taxonomy, *, id: str | None = None,  # noqa: A002 - Textual's Widget id=
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.taxonomy = taxonomy
        self._note_item: ItemRef | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="mine")
        yield Input(placeholder="note — e to edit, Enter saves, Esc leaves", id="note")
        yield Static("", id="others")

    @property
    def note(self) -> str:
        """The note as typed."""
        return self.query_one("#note", Input).value.strip()

    def show(self, item: ItemRef, mine: Label | None, confidence: str, followers: int,
             visible: bool, others: dict[str, Label], adjudicated: Label | None) -> None:
        """Show ``item``'s labels; the note is reset only when the item changes."""
        t = Text("Your label: ", style="bold")
        if mine is None:
            t.append("none yet", style="dim")
            t.append(f"   confidence {confidence} (c)", style="dim")
        else:
            t.append_text(taxonomy_category_text(self.taxonomy, mine.category))
            if mine.follows is not None:
                t.append(f"  ↳ follows {sanitize(mine.follows.rsplit('::', 1)[-1])}",
                         style="bold")
            t.append(f"   confidence {sanitize(mine.confidence)} (c)   ", style="dim")
            t.append(f"{len(mine.history)} edit{'s' if len(mine.history) != 1 else ''}, last "
                     f"{sanitize(mine.updated.at)}", style="dim")
            if followers:
                t.append(f"\n  {followers} item{'s' if followers != 1 else ''} follow this "
                         "label", style="dim")
        self.query_one("#mine", Static).update(t)
        if self._note_item != item:
            self.query_one("#note", Input).value = sanitize(mine.note) if mine else ""
            self._note_item = item
        o = Text("Others: ", style="bold")
        if not visible:
            o.append("hidden until you label this item (blind mode)", style="italic dim")
        elif not others:
            o.append("no other labels", style="dim")
        for name, lb in others.items():
            o.append(f"\n  {sanitize(name)}: ")
            o.append_text(taxonomy_category_text(self.taxonomy, lb.category))
            o.append(f"  ({sanitize(lb.confidence)})", style="dim")
            if lb.follows:
                o.append("  ↳ follows", style="dim")
            if lb.note:
                o.append(f"  {sanitize(lb.note)[:160]}", style="italic")
        if adjudicated is not None:
            o.append("\nAdjudicated: ", style="bold")
            o.append_text(taxonomy_category_text(self.taxonomy, adjudicated.category))
            o.append(f"  by {sanitize(adjudicated.updated.by)}", style="dim")
        self.query_one("#others", Static).update(o)
