"""Run x task matrix: tasks as rows, runs as columns, each cell the outcome at a glance."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rich.text import Text
from textual.widgets import DataTable

from inspector.model.results.entries import RunEntry, SampleEntry
from inspector.model.results.run_names import disambiguate
from inspector.model.results.verdict import Verdict
from inspector.ui.safe import plain
from inspector.ui.styles import GLYPH, colour, suite_label, suite_style, verdict_style

_WORST = [Verdict.NOT_DEPLOYED, Verdict.SUITE_NOT_RUN, Verdict.TESTS_FAILED, Verdict.PASSED,
          Verdict.NOT_EVALUABLE]


def cell_text(app: Any, samples: list[SampleEntry]) -> Text:
    """One cell: the sample's outcome (or, with several samples, how many passed)."""
    if not samples:
        return Text("·", style="dim")
    if len(samples) == 1:
        e = samples[0]
        v = e.verdict
        suite = suite_label(e)
        if suite is not None:  # did not run / collection error: never "✘ 0/3"
            return Text(f"{suite[0]} {suite[1]}", style=suite_style(app))
        label = {Verdict.PASSED: f"{e.passed}/{e.total}",
                 Verdict.TESTS_FAILED: f"{e.passed}/{e.total}",
                 Verdict.SUITE_NOT_RUN: "did not run",
                 Verdict.NOT_DEPLOYED: e.failed_phase or "deploy",
                 Verdict.NOT_EVALUABLE: "n/e"}[v]
        return plain(f"{GLYPH[v]} {label}", style=verdict_style(app, v))
    passed = sum(e.verdict is Verdict.PASSED for e in samples)
    worst = next(v for v in _WORST if any(e.verdict is v for e in samples))
    n = sum(e.verdict is not Verdict.NOT_EVALUABLE for e in samples)  # n/e: in no count
    v = Verdict.PASSED if n and passed == n else worst
    return Text(f"{GLYPH[v]} {passed}/{n} pass", style=verdict_style(app, v))


def run_headers(runs: list[RunEntry]) -> list[str]:
    """One header per run: agent·model, and for runs sharing it the part of the run id
    that tells them apart (``Relay·coder 1119``, ``Relay·coder 1125``)."""
    labels = [f"{r.agent}·{r.model}{' ·stock' if r.format == 'repogenesis' else ''}"
              for r in runs]
    return disambiguate(labels, [r.run_id for r in runs],
                        [f"{r.date or ''} {r.location}" for r in runs])


class MatrixTable(DataTable):
    """Cell cursor over tasks x runs, the task column kept in view while scrolling right;
    Enter opens the cell's (first failing) sample."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="cell", zebra_stripes=False, fixed_columns=1, **kwargs)
        self.tasks: list[str] = []
        self.runs: list[RunEntry] = []
        self.cells: dict[tuple[str, str], list[SampleEntry]] = {}
        self.suspect_tasks: set[str] = set()

    def set_data(self, runs: list[RunEntry], samples: list[SampleEntry]) -> None:
        cells: dict[tuple[str, str], list[SampleEntry]] = defaultdict(list)
        for e in samples:
            cells[(e.task, e.run_key)].append(e)
        self.cells = dict(cells)
        self.runs = runs
        self.tasks = sorted({e.task for e in samples})
        keep = self.cursor_coordinate
        self.clear(columns=True)
        self.add_column("task", key="task")
        for i, header in enumerate(run_headers(runs)):
            self.add_column(plain(header), key=f"r{i}")
        suspect = colour(self.app, "health-suspect")
        rows = []
        for t in self.tasks:
            label = plain(t)
            if t in self.suspect_tasks:
                label.append(" ⚠", style=f"bold {suspect}")
            row: list[Any] = [label]
            for r in runs:
                row.append(cell_text(self.app, sorted(cells.get((t, r.key), []),
                                                      key=lambda e: e.sample)))
            rows.append(row)
        self.add_rows(rows)
        if rows:
            self.move_cursor(row=min(keep.row, len(rows) - 1),
                             column=max(1, min(keep.column, len(runs))))

    def current_samples(self) -> list[SampleEntry]:
        row, col = self.cursor_coordinate
        if not (0 <= row < len(self.tasks)) or not (1 <= col <= len(self.runs)):
            return []
        return sorted(self.cells.get((self.tasks[row], self.runs[col - 1].key), []),
                      key=lambda e: (not e.verdict.is_failure, e.sample))

    def current_task(self) -> str | None:
        row = self.cursor_coordinate.row
        return self.tasks[row] if 0 <= row < len(self.tasks) else None

    def select_task(self, task: str) -> bool:
        if task in self.tasks:
            self.move_cursor(row=self.tasks.index(task), column=max(1, self.cursor_column))
            return True
        return False
