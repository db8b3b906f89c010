"""Help: every key of the screen underneath, the app's global keys, and how to get around."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Static

INTRO = (
    "Genesis Inspector — triage generated repositories.\n"
    "Ctrl+P opens the command palette: find runs, tasks, samples, files and tests by name, "
    "and change the theme. Tab moves between panes; the mouse works everywhere.\n"
    "In a sample, R re-runs the selected test, A all its failures (on one deployment), Q "
    "opens the request composer; Ctrl+D lists the running sandboxes."
)


class HelpScreen(ModalScreen[None]):
    """Lists the keys active on the screen it was opened from."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 90; max-width: 95%; height: 85%; border: thick $primary;
        background: $surface; padding: 0 1; }
    HelpScreen #help-intro { height: auto; padding: 1 0; }
    HelpScreen #help-keys { height: 1fr; }
    """

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(INTRO, id="help-intro")
            yield DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("key", "does", "where")
        seen: set[tuple[str, str]] = set()
        rows = []
        nodes = [*self.under.query("*"), self.under, self.app]
        for node in nodes:
            for binding in getattr(node, "BINDINGS", []):
                if not isinstance(binding, Binding):
                    continue
                where = type(node).__name__
                desc = binding.description or binding.action.replace("_", " ")
                keys = ", ".join(self.app.get_key_display(Binding(k, binding.action))
                                 for k in binding.key.split(","))
                if (keys, desc) in seen or binding.action in ("focus_next", "focus_previous"):
                    continue
                seen.add((keys, desc))
                rows.append((Text(keys, style="bold"), desc, where))
        table.add_rows(rows)
        table.focus()
