"""Choose one of a few options."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from inspector.ui.safe import plain


class PickScreen(ModalScreen[int | None]):
    """Choose one of a few options (another run's sample, a test hitting an endpoint)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    DEFAULT_CSS = """
    PickScreen { align: center middle; }
    PickScreen > Vertical { width: 100; max-width: 95%; height: auto; max-height: 80%;
        border: thick $primary; background: $surface; padding: 0 1; }
    PickScreen OptionList { height: auto; max-height: 30; }
    """

    def __init__(self, title: str, options: list[Text | str]) -> None:
        super().__init__()
        self.title_text = title
        self.options = options

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(self.title_text))
            yield OptionList(*[Option(plain(o) if isinstance(o, str) else o)
                               for o in self.options])

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)
