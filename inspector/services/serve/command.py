"""The command line of one session's app process: ``python -m inspector app PATH …``."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

EXPOSED_ENV = "GENESIS_INSPECTOR_EXPOSED"
"""Set to ``1`` in the app processes of a writable server beyond loopback: the app's header
warns that anyone with the link can re-run generated code."""
EXPOSED_TEXT = "EXPOSED: anyone with the link can re-run generated code"


@dataclass(frozen=True)
class AppCommand:
    """What every session's app is opened with."""

    root: Path
    read_only: bool = False
    theme: str | None = None
    exposed: bool = False
    """Served beyond loopback with writes allowed (``--allow-writes``)."""

    def argv(self, annotator: str | None = None) -> list[str]:
        """The argument vector (run without a shell: no quoting of the path can go wrong);
        ``annotator``: the tab's name in label files (already validated)."""
        out = [sys.executable, "-m", "inspector", "app", str(self.root)]
        if self.read_only:
            out.append("--read-only")
        if self.theme:
            out += ["--theme", self.theme]
        if annotator:
            out += ["--annotator", annotator]
        return out

    def env(self) -> dict[str, str]:
        """Variables the app process gets beyond the server's own."""
        return {EXPOSED_ENV: "1"} if self.exposed else {}
