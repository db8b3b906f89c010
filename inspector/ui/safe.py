"""The one way untrusted text reaches a widget: sanitised, as plain text, never as markup.

File and folder names, repo paths, test ids, agent/model/run ids, failure messages, log lines,
label notes and load problems come from generated repos, run folders and label files. They may
hold Textual/Rich markup (``[/x]`` raises ``MarkupError`` and kills the app, ``[@click=app.quit]``
turns a click into an action, ``[bold]`` restyles what follows) and control, bidi or invisible
characters. Textual parses a ``str`` as markup almost everywhere: ``Static``/``Label`` content
and ``update()``, ``DataTable`` cells and column labels, ``Tree`` labels, ``OptionList`` and
``Select`` prompts, ``notify()`` messages, command palette prompts and help.

So every untrusted string is given to a widget as :func:`plain` (a Rich ``Text`` of
:func:`~inspector.model.untrusted.safe_text.sanitize`'d text: never parsed, controls shown as
``<ESC>``, ``<U+200D>``…), or appended to a ``Text`` as ``sanitize(value)``. Notifications and
screen titles go through :class:`SafeTextApp`, so ``notify(str)``, ``title`` and ``sub_title`` are
safe with any string. ``tests/ui/test_hostile_text.py`` drives every screen with hostile data
and fails if any of it reaches a markup parser.
"""

from __future__ import annotations

from typing import Any

from rich.style import StyleType
from rich.text import Text
from textual.content import Content

from inspector.model.untrusted.safe_text import sanitize

__all__ = ["SafeTextApp", "plain", "sanitize"]


def plain(text: object, style: StyleType = "", *, no_wrap: bool | None = None,
          overflow: Any = None, end: str = "\n") -> Text:
    """``text`` (untrusted) as a Rich ``Text`` widgets show as-is: sanitised, never markup.

    ``no_wrap``, ``overflow`` and ``end`` are passed to ``Text``. ``None`` shows as ``""``."""
    return Text(sanitize("" if text is None else str(text)), style=style, no_wrap=no_wrap,
                overflow=overflow, end=end)


def plain_content(text: object) -> Content:
    """``text`` (untrusted) as Textual ``Content`` (for APIs that take no Rich ``Text``)."""
    return Content(sanitize("" if text is None else str(text)))


class SafeTextApp:
    """Mixin for the apps: notifications and the header's title never parse markup.

    Every ``notify()`` (the app's, a screen's or a widget's, also from threads) is shown as
    plain sanitised text, whatever ``markup`` the caller passed: no message of ours uses markup,
    and many carry file names or error text. Screen titles are sanitised on display."""

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        super().notify(sanitize(str(message)), title=sanitize(str(title)),  # type: ignore[misc]
                       severity=severity, timeout=timeout, markup=False)

    def format_title(self, title: str, sub_title: str) -> Content:
        return super().format_title(sanitize(title), sanitize(sub_title))  # type: ignore[misc]
