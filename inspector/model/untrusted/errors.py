"""Load problems reported by the loaders: always name the file and the field."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class LoadIssue:
    """One problem found while reading a file; ``field`` is a dotted JSON path or ''."""

    path: Path
    field: str
    message: str
    severity: str = "error"  # "error" (item skipped) or "warning" (item kept, value defaulted)

    def __str__(self) -> str:
        where = f"{self.path}"
        if self.field:
            where += f": field '{self.field}'"
        return f"{where}: {self.message}"


class LoadError(Exception):
    """A file cannot be used at all. ``str()`` is one clear line naming file and field."""

    def __init__(self, path: Path | str, message: str, field: str = "") -> None:
        self.issue = LoadIssue(Path(path), field, message)
        super().__init__(str(self.issue))
