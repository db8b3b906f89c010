"""Every sample matching the active filter: failures first, with the telling message."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable

from inspector.model.entries import SampleEntry
from inspector.model.verdict import Verdict
from inspector.ui.safe import plain
from inspector.ui.styles import colour, verdict_text

_ORDER = {Verdict.NOT_DEPLOYED: 0, Verdict.SUITE_NOT_RUN: 1, Verdict.TESTS_FAILED: 2,
          Verdict.PASSED: 3}
RUN_WIDTH = 32
_RUN_PREFIX = "repo_readme_"  # every RepoGenesis predictions folder name starts so


class SamplesTable(DataTable):
    """Samples (one per row); Enter opens one. Rows are rebuilt in one batch."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        self.shown: list[SampleEntry] = []
        self.suspect_tasks: set[str] = set()

    def on_mount(self) -> None:
        self.add_column("run", key="run", width=RUN_WIDTH)
        self.add_column("task", key="task")
        self.add_column("#", key="n")
        self.add_column("outcome", key="outcome")
        self.add_column("AC", key="ac")
        self.add_column("message", key="message")

    def set_samples(self, entries: list[SampleEntry]) -> None:
        keep = self.current()
        entries = sorted(entries, key=lambda e: (_ORDER[e.verdict], e.task, e.run_id, e.sample))
        self.shown = entries
        self.clear()
        suspect = colour(self.app, "health-suspect")
        rows = []
        for e in entries:
            task = plain(e.task)
            if e.task in self.suspect_tasks:
                task.append(" ⚠", style=f"bold {suspect}")
            ac = f"{e.ac_implemented}/{e.ac_total}" if e.ac_total else "—"
            rows.append([plain(_short(e.run_id, RUN_WIDTH)), task, str(e.sample),
                         verdict_text(self.app, e), ac,
                         plain(e.message[:120], no_wrap=True)])
        self.add_rows(rows)
        if keep is not None:
            self.select(keep.key)

    def current(self) -> SampleEntry | None:
        if 0 <= self.cursor_row < len(self.shown):
            return self.shown[self.cursor_row]
        return None

    def select(self, sample_key: int) -> bool:
        for i, e in enumerate(self.shown):
            if e.key == sample_key:
                self.move_cursor(row=i)
                return True
        return False


def _short(run_id: str, width: int) -> str:
    """``run_id`` in ``width`` columns: without the common prefix, elided in the middle so the
    date and agent at its start and a stock copy's stamp at its end both stay readable."""
    text = run_id.removeprefix(_RUN_PREFIX)
    if len(text) <= width:
        return text
    head = min(12, width // 2)
    return text[:head] + "…" + text[-(width - head - 1):]
