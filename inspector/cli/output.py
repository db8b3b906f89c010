"""Terminal-safe CLI output: untrusted text never reaches the user's terminal raw.

Run ids, agent and model names, file names, test ids, failure messages and streamed pytest
output come from run folders and generated repos. Printed raw, an OSC 52 sequence writes the
user's clipboard, OSC 0 sets the window title, CSI moves the cursor or clears the screen, and
bidi or zero-width characters make text read differently from what it is.

* When stdout (stderr) is a terminal, :func:`protect_terminal` replaces it with a
  :class:`SanitizingStream`: everything written to it goes through
  :func:`~inspector.model.untrusted.safe_text.sanitize` (``<ESC>``, ``<BEL>``, ``<U+200D>``…;
  newlines and tabs stay). Our own output holds no control characters, so only untrusted text
  changes.
* When piped or redirected, output is byte-exact: it is data for other programs, and a pager
  or editor shows control characters safely itself.
* JSON goes through :func:`print_json`. Piped: exactly ``text``. To a terminal: every
  non-ASCII character and DEL escaped the way JSON escapes them (``"\\u200d"``), which is the
  same document (``json.loads`` gives the same data) in printable ASCII. JSON already escapes
  C0 controls.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from inspector.model.untrusted.safe_text import sanitize

_NON_ASCII_OR_DEL = re.compile(r"[^\x00-\x7e]")


class SanitizingStream(io.TextIOBase):
    """A text stream that sanitises everything written to the terminal stream it wraps."""

    def __init__(self, raw: TextIO) -> None:
        super().__init__()
        self.raw = raw

    def write(self, s: str) -> int:
        self.raw.write(sanitize(s))
        return len(s)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.raw.fileno()

    def writable(self) -> bool:
        return True

    # typeshed declares TextIOBase.encoding/errors as plain attributes, but at runtime they are
    # read-only descriptors of the C base class: only a property can pass the wrapped values on
    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.raw.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.raw.errors


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


@contextmanager
def protect_terminal() -> Iterator[None]:
    """While active, ``sys.stdout``/``sys.stderr`` sanitise what they print when they are
    terminals (piped or redirected streams are left alone); restored afterwards."""
    saved = sys.stdout, sys.stderr
    if _is_terminal(sys.stdout) and not isinstance(sys.stdout, SanitizingStream):
        sys.stdout = SanitizingStream(sys.stdout)
    if _is_terminal(sys.stderr) and not isinstance(sys.stderr, SanitizingStream):
        sys.stderr = SanitizingStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def terminal_safe(text: str, stream: Any = None) -> str:
    """``text`` sanitised when ``stream`` (default ``sys.stdout``) is a terminal, else as is
    (for laying out tables before printing, so placeholders keep the columns aligned)."""
    return sanitize(text) if _is_terminal(sys.stdout if stream is None else stream) else text


def ascii_json(text: str) -> str:
    """JSON ``text`` with every non-ASCII character and DEL written as a JSON escape
    (they can only occur inside strings): the same document, in printable ASCII."""
    def escape(m: re.Match[str]) -> str:
        ch = m.group(0)
        return "\\u007f" if ch == "\x7f" else json.dumps(ch)[1:-1]

    return _NON_ASCII_OR_DEL.sub(escape, text)


def print_json(text: str) -> None:
    """Print a JSON document: exact when piped, escaped to printable ASCII on a terminal."""
    out = sys.stdout
    if isinstance(out, SanitizingStream):
        out.raw.write(ascii_json(text) + "\n")
        out.raw.flush()
    elif _is_terminal(out):
        out.write(ascii_json(text) + "\n")
    else:
        out.write(text + "\n")
