"""Ask for one line of text."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from inspector.ui.focus import focus_now
from inspector.ui.safe import plain


class PromptScreen(ModalScreen[str | None]):
    """Ask for one line of text."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    DEFAULT_CSS = """
    PromptScreen { align: center middle; }
    PromptScreen > Vertical { width: 80; max-width: 95%; height: auto; border: thick $primary;
        background: $surface; padding: 0 1; }
    """

    def __init__(self, title: str, value: str = "", placeholder: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(self.title_text))
            yield Input(self.value, placeholder=self.placeholder, id="prompt-input")

    def on_mount(self) -> None:
        focus_now(self.query_one(Input))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)
