"""Text tables for the CLI, laid out by :class:`rich.table.Table`: no box, no colour.

Columns are two spaces apart and as wide as the terminal shows their widest cell. A cell's text
is printed as given (no markup, no control character removed: piped output stays exact; on a
terminal the caller sanitises it first, :func:`inspector.cli.output.terminal_safe`).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from typing import Literal

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.rule import Rule
from rich.segment import Segment
from rich.table import Table

from inspector.cli.output import terminal_safe

Justify = Literal["left", "right"]


class _Cell:
    """A cell's text, exactly: rich's ``Text`` would drop control characters."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        if options.justify == "right":
            yield Segment(" " * (options.max_width - self.__rich_measure__(console, options)
                                 .maximum) + self.text)
        else:
            yield Segment(self.text)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = max((cell_len(line) for line in self.text.split("\n")), default=0)
        return Measurement(width, width)


def _render(headers: Sequence[str], rows: Sequence[Sequence[str | Rule]], justify: list[Justify],
            indent: str = "") -> list[str]:
    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 1), expand=False)
    for header, how in zip(headers, justify, strict=True):
        table.add_column(_Cell(header), justify=how, no_wrap=True, overflow="ignore")
    for row in rows:
        table.add_row(*(_Cell(c) if isinstance(c, str) else c for c in row))
    out = io.StringIO()
    console = Console(file=out, width=1_000_000, color_system=None, force_terminal=False,
                      force_jupyter=False, legacy_windows=False, highlight=False,
                      markup=False, emoji=False)
    console.print(table)
    return [(indent + line).rstrip() for line in out.getvalue().split("\n")[:-1]]


def text_table(headers: list[str], rows: list[list[str]]) -> str:
    """Rows under headers and a dashed rule, in left-aligned columns; each cell made safe for
    the terminal (``summary``, ``failures``, ``analyze``, ``compare``)."""
    safe = [[terminal_safe(c) for c in r] for r in rows]  # laid out as the terminal shows it
    rule = [Rule(characters="-", style="none", end="") for _ in headers]
    return "\n".join(_render(headers, [rule, *safe], ["left"] * len(headers)))


def aligned_table(headers: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "  "
                  ) -> list[str]:
    """Rows under a header, each line after ``indent``; the first column left-aligned, the
    others right-aligned (the label reports: agreement, suggestion scores); each cell made
    safe for the terminal first, so a marker such as ``<ESC>`` is laid out at its width."""
    justify: list[Justify] = ["left" if i == 0 else "right" for i in range(len(headers))]
    safe = [[terminal_safe(c) for c in r] for r in rows]
    return _render(headers, safe, justify, indent)
