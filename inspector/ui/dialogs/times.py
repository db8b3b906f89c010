"""Ask how many times to run the tests (flakiness check)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from inspector.ui.focus import focus_now
from inspector.ui.safe import plain

MAX_TIMES = 100
"""The most runs a flakiness check may ask for."""


class TimesScreen(ModalScreen[int | None]):
    """Ask how many times to run the tests (flakiness check)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    DEFAULT_CSS = """
    TimesScreen { align: center middle; }
    TimesScreen > Vertical { width: 60; max-width: 95%; height: auto; border: thick $primary;
        background: $surface; padding: 0 1; }
    TimesScreen #times-error { color: $error; height: auto; }
    """

    def __init__(self, default: int = 5) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(f"Run the tests how many times? (2 to {MAX_TIMES}; Enter runs, "
                               "Esc cancels)"))
            yield Input(str(self.default), id="times-input", type="integer")
            yield Static("", id="times-error")

    def on_mount(self) -> None:
        focus_now(self.query_one(Input))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            n = int(event.value.strip())
        except ValueError:
            n = 0
        if not 1 <= n <= MAX_TIMES:
            self.query_one("#times-error", Static).update(
                plain(f"Enter a whole number from 1 to {MAX_TIMES}."))
            return
        self.dismiss(n)
