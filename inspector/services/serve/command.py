"""The command line of one session's app process: ``python -m inspector app PATH …``."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class AppCommand:
    """What every session's app is opened with."""

    root: Path
    read_only: bool = False
    theme: str | None = None

    def argv(self) -> list[str]:
        """The argument vector (run without a shell: no quoting of the path can go wrong)."""
        out = [sys.executable, "-m", "inspector", "app", str(self.root)]
        if self.read_only:
            out.append("--read-only")
        if self.theme:
            out += ["--theme", self.theme]
        return out
