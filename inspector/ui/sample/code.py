"""The Code tab: the generated repository's code metrics (files, SLOC, functions, classes,
cyclomatic and cognitive complexity) beside the task's reference implementation's, its most
complex files and the files left out and why.

Measured only when the tab is shown (opening a sample stays fast), in a thread worker through
the metrics cache; a result for a sample no longer shown is dropped.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static, TabbedContent, TabPane

from inspector.model import Task
from inspector.ui.safe import plain, sanitize

if TYPE_CHECKING:  # the service imports radon, complexipy and lizard: loaded when measuring
    from inspector.services.analysis.code_metrics import CodeMetrics
    from inspector.services.analysis.sample_code import SampleCodeMetrics

TOP_FILES = 5
MAX_SKIPPED_SHOWN = 30
MEASURING = "Measuring…"
_DASH = "—"


def _num(value: int | float | None) -> str:
    return _DASH if value is None else f"{value:,}" if isinstance(value, int) else f"{value:g}"


class CodeTab(TabPane):
    """Code metrics of one sample's repository, measured when first shown."""

    DEFAULT_CSS = """
    CodeTab .code-status { height: auto; padding: 0 1; }
    CodeTab .code-summary { height: auto; margin: 1 0 0 0; }
    CodeTab .code-files-title { height: auto; padding: 0 1; margin: 1 0 0 0; }
    CodeTab .code-files { height: auto; }
    CodeTab .code-notes { height: auto; padding: 0 1; margin: 1 0 0 0; }
    """

    def __init__(self) -> None:
        super().__init__("Code", classes="code-tab")
        self.repo: Path | None = None
        self.language: str | None = None
        self.task_def: Task | None = None
        self.generation = 0  # bumped per sample shown: late results are dropped
        self.measured = False  # the figures shown are this sample's (or being measured)
        self.result: SampleCodeMetrics | None = None  # the figures shown, once measured

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("", classes="code-status")
            yield DataTable(cursor_type="row", classes="code-summary")
            yield Static("", classes="code-files-title")
            yield DataTable(cursor_type="row", classes="code-files")
            yield Static("", classes="code-notes")

    def show(self, repo: Path | None, language: str | None, task: Task | None,
             active: bool) -> None:
        """Switch to another sample: empty everything; measure now only if ``active``."""
        self.repo, self.language, self.task_def = repo, language, task
        self.generation += 1
        self.measured = False
        self.result = None
        self._clear()
        if active:  # still shown once the new sample has picked its first tab?
            self.call_after_refresh(self._measure_if_shown, self.generation)

    def _measure_if_shown(self, generation: int) -> None:
        tabs = next((a for a in self.ancestors if isinstance(a, TabbedContent)), None)
        if generation == self.generation and tabs is not None and tabs.active == self.id:
            self.measure_if_stale()

    def measure_if_stale(self) -> None:
        """Start measuring the current sample unless it is measured (or being measured)."""
        if self.measured:
            return
        self.measured = True
        self._status(Text(MEASURING, style="italic"))
        self._measure(self.generation, self.repo, self.language, self.task_def)

    def _clear(self) -> None:
        self._status(Text(""))
        for selector in (".code-summary", ".code-files"):
            self.query_one(selector, DataTable).clear(columns=True)
        self.query_one(".code-files-title", Static).update("")
        self.query_one(".code-notes", Static).update("")

    def _status(self, text: Text) -> None:
        self.query_one(".code-status", Static).update(text)

    @work(thread=True, exclusive=True, group="code-metrics")
    def _measure(self, generation: int, repo: Path | None, language: str | None,
                 task: Task | None) -> None:
        from inspector.services.analysis.sample_code import sample_code_metrics

        try:
            result: SampleCodeMetrics | str = sample_code_metrics(repo, language, task)
        except Exception as exc:  # never a traceback in the view: say what went wrong
            result = f"cannot measure this repository ({type(exc).__name__}: {exc})"
        self.app.call_from_thread(self._measured, generation, result)

    def _measured(self, generation: int, result: SampleCodeMetrics | str) -> None:
        if generation != self.generation:  # another sample was shown meanwhile
            return
        self._clear()
        if isinstance(result, str):
            self._status(plain(result))
            return
        self.result = result
        self._fill(result)

    # ------------------------------------------------------------------ painting

    def _fill(self, r: SampleCodeMetrics) -> None:
        m, ref = r.metrics, r.reference
        if m is None:
            self._status(plain(f"The repository cannot be measured: {r.error}"))
            return
        lang = "Java" if m.language == "java" else "Python"
        status = Text()
        status.append(f"{lang} code of this repository", style="bold")
        status.append(f"  ({'from the cache' if r.cached else 'measured'} in "
                      f"{r.seconds:.2f} s; {sanitize(m.tools)})", style="dim")
        if r.reference_folder is None:
            status.append("\nThere is no reference implementation for this task "
                          "(an oracle/ folder in the task): the reference column is empty.",
                          style="dim")
        self._status(status)

        summary = self.query_one(".code-summary", DataTable)
        summary.add_columns("metric", "this repo", "reference")
        rows: list[tuple[str, int | float | None, int | float | None]] = [
            ("files", m.files, ref.files if ref else None),
            ("SLOC", m.sloc, ref.sloc if ref else None),
            ("functions", m.functions, ref.functions if ref else None),
            ("classes", m.classes, ref.classes if ref else None),
            ("cyclomatic (sum)", m.cyclomatic, ref.cyclomatic if ref else None),
            ("cyclomatic (max)", m.max_cyclomatic, ref.max_cyclomatic if ref else None),
            ("cyclomatic (mean)", m.mean_cyclomatic, ref.mean_cyclomatic if ref else None),
            ("cognitive", m.cognitive, ref.cognitive if ref else None),
        ]
        for name, mine, theirs in rows:
            summary.add_row(name, _num(mine), _num(theirs))

        top = r.top_files(TOP_FILES)
        self.query_one(".code-files-title", Static).update(
            Text(f"Most complex files (top {len(top)} of {m.files} by cyclomatic)",
                 style="bold") if top else Text("No source files to measure.", style="dim"))
        files = self.query_one(".code-files", DataTable)
        if top:
            files.add_columns("file", "SLOC", "functions", "classes", "cyclomatic", "max",
                              "cognitive")
            for f in top:
                files.add_row(plain(f.file, no_wrap=True), _num(f.sloc), _num(f.functions),
                              _num(f.classes), _num(f.cyclomatic), _num(f.max_cyclomatic),
                              _num(f.cognitive))
        self.query_one(".code-notes", Static).update(self._notes(r, m))

    @staticmethod
    def _notes(r: SampleCodeMetrics, m: CodeMetrics) -> Text:
        t = Text()
        problems = [(s.file, s.reason) for s in m.skipped] + \
            [(f.file, f.note) for f in m.per_file if f.note]
        if problems:
            t.append(f"Skipped or partly counted files ({len(problems)}):\n", style="bold")
            for file, reason in problems[:MAX_SKIPPED_SHOWN]:
                t.append(f"  {sanitize(file)}: ")
                t.append(f"{sanitize(reason)}\n", style="dim")
            if len(problems) > MAX_SKIPPED_SHOWN:
                t.append(f"  … and {len(problems) - MAX_SKIPPED_SHOWN} more\n", style="dim")
        else:
            t.append("No file skipped.\n", style="dim")
        if r.reference_folder is not None:
            t.append("\nReference: ", style="bold")
            t.append(sanitize(str(r.reference_folder)))
            if r.reference_error:
                t.append(f"\n  cannot be measured: {sanitize(r.reference_error)}", style="dim")
            d = r.difficulty
            if d is not None and d.score is not None:
                t.append(f"\n  RepoGenesis difficulty: {d.label} ({d.score:.2f})")
        t.append("\n\nCyclomatic: McCabe per function, summed (module-level code is in no "
                 "function); cognitive: SonarSource's definition (Python only).", style="dim")
        return t
