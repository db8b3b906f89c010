"""Keys that move the focus (to a tab, to a text field), so that what is typed right behind
them (type-ahead: a fast typist, a busy app, a laggy ``inspector serve`` connection) lands
where the user meant and not in the table the focus is leaving.

Textual routes each key to the widget focused *when the key is read*, before the binding of an
earlier key has run, and ``Widget.focus()`` moves the focus later still. So "/forge" read in
one go sends "forge" to the table. A :func:`focus_key` binding is a priority binding, run as
the key is read; its action moves the focus with :func:`focus_now`, and gives the key back
(:func:`skip_when_typing`) when the user is already typing in a text field, where "/", "s"
or "2" is text.
"""

from __future__ import annotations

from typing import Any

from textual.actions import SkipAction
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Select, TextArea


def focus_key(key: str, action: str, description: str) -> Binding:
    """A binding for a key that moves the focus (see the module)."""
    return Binding(key, action, description, priority=True)


def skip_when_typing(screen: Screen[Any]) -> None:
    """Raise :class:`SkipAction` (the key goes on as text) when a text field has the focus."""
    focused = screen.focused
    if focused is None:
        return
    if isinstance(focused, (Input, TextArea)) or any(
            isinstance(a, Select) for a in focused.ancestors):  # an open select's list
        raise SkipAction()


def focus_now(widget: Widget) -> None:
    """Give ``widget`` the focus before the next key is routed (``Widget.focus()`` waits
    behind whatever is already queued)."""
    widget.screen.set_focus(widget)
