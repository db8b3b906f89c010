"""Small HTML building blocks over untrusted text: everything goes through :func:`esc`."""

from __future__ import annotations

import html
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from inspector.model.figures.percent import pct as pct  # a fraction as the CLI prints it
from inspector.model.untrusted.safe_text import sanitize
from inspector.model.untrusted.shown_paths import PathScope, shown_paths

_NO_SCOPE = PathScope()
_SCOPE: ContextVar[PathScope | None] = ContextVar("report_path_scope", default=None)


@contextmanager
def path_scope(scope: PathScope) -> Iterator[None]:
    """While the page is rendered, :func:`esc` shows paths relative to ``scope``."""
    token = _SCOPE.set(scope)
    try:
        yield
    finally:
        _SCOPE.reset(token)


def esc(text: object) -> str:
    """``text`` as HTML text or a quoted attribute value: the machine's absolute paths taken
    out (:func:`~inspector.model.untrusted.shown_paths.shown_paths`, relative to the page's
    :func:`path_scope`), control, bidi and invisible characters made visible
    (:func:`sanitize`), then ``& < > " '`` escaped."""
    return html.escape(sanitize(shown_paths(str(text), _SCOPE.get() or _NO_SCOPE)), quote=True)


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, cls: str = "",
          numeric_from: int = 1, numeric: Collection[int] | None = None) -> str:
    """A table; ``headers`` are escaped here, ``rows`` hold ready HTML (escape first).
    The ``numeric`` columns (default: from ``numeric_from`` on) are right-aligned."""
    attr = f' class="{cls}"' if cls else ""
    right = set(numeric) if numeric is not None else set(range(numeric_from, len(headers)))
    head = "".join(f'<th{" class=n" if i in right else ""}>{esc(h)}</th>'
                   for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f'<td{" class=n" if i in right else ""}>{c}</td>'
                                    for i, c in enumerate(r)) + "</tr>\n" for r in rows)
    return f'<div class="scroll"><table{attr}><thead><tr>{head}</tr></thead>' \
           f"<tbody>\n{body}</tbody></table></div>\n"


def note(text: str) -> str:
    """A visible note (``text`` is ready HTML)."""
    return f'<p class="note">{text}</p>\n'


def code(text: object) -> str:
    return f"<code>{esc(text)}</code>"
