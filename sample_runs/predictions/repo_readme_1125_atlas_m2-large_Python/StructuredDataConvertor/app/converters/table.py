"""In-memory tabular representation shared by all formats."""
import datetime as _dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, List

_INT_RE = re.compile(r"^-?(0|[1-9][0-9]{0,14})$")
_FLOAT_RE = re.compile(r"^-?(0|[1-9][0-9]*)\.[0-9]+$")


@dataclass
class Table:
    """Rows of cells; when ``has_header`` is true the first row is the header."""

    rows: List[List[Any]] = field(default_factory=list)
    has_header: bool = True

    def __post_init__(self) -> None:
        self.rows = normalize_rows(self.rows)

    @property
    def columns_count(self) -> int:
        return max((len(r) for r in self.rows), default=0)

    @property
    def rows_count(self) -> int:
        """Number of data rows (the header row is not counted)."""
        if self.has_header and self.rows:
            return len(self.rows) - 1
        return len(self.rows)

    def padded_rows(self) -> List[List[Any]]:
        width = self.columns_count
        return [list(r) + [""] * (width - len(r)) for r in self.rows]

    def text_rows(self) -> List[List[str]]:
        return [[cell_to_text(c) for c in r] for r in self.padded_rows()]


def _is_empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip() == "")


def normalize_rows(rows: List[List[Any]]) -> List[List[Any]]:
    """Drop fully empty rows, trailing empty cells, and map ``None`` to ``""``."""
    out: List[List[Any]] = []
    for row in rows:
        cells = ["" if c is None else c for c in row]
        while cells and _is_empty(cells[-1]):
            cells.pop()
        if cells:
            out.append(cells)
    return out


def cell_to_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        if isinstance(value, _dt.datetime) and value.time() == _dt.time(0):
            return value.date().isoformat()
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value)


def infer_value(text: Any) -> Any:
    """Turn numeric strings into numbers when that is lossless (used for Excel output)."""
    if not isinstance(text, str):
        return text
    stripped = text.strip()
    if stripped != text or not stripped:
        return text
    if _INT_RE.match(stripped):
        return int(stripped)
    if _FLOAT_RE.match(stripped):
        try:
            number = float(stripped)
        except ValueError:
            return text
        # Integral floats such as "2.0" would come back as "2": keep them as text.
        if repr(number) == stripped and not number.is_integer():
            return number
    return text
