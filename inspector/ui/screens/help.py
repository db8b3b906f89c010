"""Help: the keys of the screen underneath (its own first, then the app's, the generic
editing and scrolling keys last), and how to get around."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import DataTable, Static

INTRO = (
    "Genesis Inspector — triage generated repositories.\n"
    "Ctrl+P opens the command palette: find runs, tasks, samples, files and tests by name, "
    "and change the theme. Tab moves between panes; the mouse works everywhere.\n"
    "In a sample, R re-runs the selected test, A all its failures (on one deployment), Q "
    "opens the request composer; Ctrl+D lists the running sandboxes."
)


GROUPS = ("this screen", "app-wide", "text fields, lists and scrolling")


def _textual(cls: type) -> bool:
    """Whether ``cls`` is one of Textual's own (generic) widgets rather than the app's."""
    return cls.__module__.split(".", 1)[0] == "textual"


def _shown(node: DOMNode) -> bool:
    """Whether ``node`` is on its screen: it and every container above it displayed."""
    return all(n.display for n in node.ancestors_with_self if isinstance(n, Widget))


def _own_bindings(node: DOMNode) -> list[tuple[type, Binding]]:
    """``node``'s bindings, each with the class that declares it (most derived first)."""
    out = []
    for cls in type(node).__mro__:
        for b in cls.__dict__.get("BINDINGS", ()):
            if isinstance(b, Binding):
                out.append((cls, b))
    return out


def key_rows(app: App[Any], under: Screen[Any]) -> list[tuple[int, str, str, str]]:
    """(group, keys, what they do, where) for the keys active on ``under``: the focused
    widget's and its containers' first, then the rest of the screen's (group 0), the app's
    (group 1), Textual's generic editing, list and scrolling keys last (group 2)."""
    focused = under.focused
    chain: list[DOMNode] = list(focused.ancestors_with_self) if focused is not None else []
    chain = [n for n in chain if n is not app]
    rest = [n for n in under.query("*") if n not in chain and _shown(n)]
    if under not in chain:
        rest.append(under)
    nodes: list[DOMNode] = [*chain, *rest, app]
    seen: set[tuple[str, str]] = set()
    rows = []
    for node in nodes:
        for cls, binding in _own_bindings(node):
            if binding.action in ("focus_next", "focus_previous"):
                continue
            group = 1 if node is app else 2 if _textual(cls) else 0
            desc = binding.description or binding.action.replace("_", " ")
            keys = ", ".join(app.get_key_display(Binding(k, binding.action))
                             for k in binding.key.split(","))
            if (keys, desc) in seen:
                continue
            seen.add((keys, desc))
            rows.append((group, keys, desc, type(node).__name__))
    rows.sort(key=lambda r: r[0])  # stable: the focus chain's order within each group
    return rows


class HelpScreen(ModalScreen[None]):
    """Lists the keys active on the screen it was opened from: the screen's own first, then
    the app's, then the generic keys of text fields and lists; how to get around below."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical { width: 90; max-width: 95%; height: 85%; border: thick $primary;
        background: $surface; padding: 0 1; }
    HelpScreen #help-intro { height: auto; max-height: 35%; padding: 1 0 0 0;
        overflow-y: auto; border-top: solid $panel-lighten-2; }
    HelpScreen #help-keys { height: 1fr; }
    """

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        with Vertical():
            yield DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)
            yield Static(INTRO, id="help-intro")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("key", "does", "where")
        rows: list[tuple[Text | str, ...]] = []
        last = -1
        for group, keys, desc, where in key_rows(self.app, self.under):
            if group != last:
                rows.append(("", Text(f"— {GROUPS[group]} —", style="bold italic"), ""))
                last = group
            rows.append((Text(keys, style="bold"), desc, where))
        table.add_rows(rows)
        table.focus()
