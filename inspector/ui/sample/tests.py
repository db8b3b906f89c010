"""The Tests tab: the sample's test cases (failures first), the selected one's message and
traceback, and the file:line references found in them."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, OptionList, Static, TabPane
from textual.widgets.option_list import Option

from inspector.model import SampleResult, SuiteCause, Task
from inspector.model.suite.testids import split_node_id
from inspector.services.repo.references import Ref, find_refs
from inspector.services.suite.cause import cause_ref
from inspector.ui.safe import plain, sanitize
from inspector.ui.sample.text import cause_text
from inspector.ui.styles import colour, outcome_text

_FAILURE_ORDER = {"error": 0, "failed": 1, "skipped": 2, "passed": 3}


class TestsTab(TabPane):
    """Test cases of one sample; ``refs`` are the references of the selected one."""

    def __init__(self) -> None:
        super().__init__("Tests", classes="tests-tab")
        self.cases: list = []
        self.refs: list[Ref] = []
        self._repo: Path | None = None
        self._task_root: Path | None = None

    def compose(self) -> ComposeResult:
        yield DataTable(cursor_type="row", zebra_stripes=True, classes="tests-table")
        with VerticalScroll(classes="test-detail-box"):
            yield Static("", classes="test-detail")
        refs = OptionList(classes="refs")
        refs.display = False
        yield refs

    def show(self, sample: SampleResult, task: Task | None, cause: SuiteCause | None) -> None:
        """Fill the table for ``sample`` (replacing what was shown) and select the first."""
        self.cases = sorted(sample.tests.cases,
                            key=lambda c: (_FAILURE_ORDER.get(c.outcome.value, 9), c.id))
        self._repo = sample.repo_path
        self._task_root = task.root if task else None
        self._set_refs([])
        self.query_one(VerticalScroll).scroll_home(animate=False)
        table = self.query_one(".tests-table", DataTable)
        table.clear(columns=True)
        table.add_columns("outcome", "test", "time", "message")
        if not self.cases:
            s = sample
            why = ("the suite did not run" if s.tests.total == 0 else
                   "this format kept only counts, not individual tests")
            t = Text(f"No individual test results: {why}. Passed {s.tests.passed}, failed "
                     f"{s.tests.failed}, errors {s.tests.errors}, skipped {s.tests.skipped}.")
            if cause is not None:
                t.append_text(cause_text(self.app, sample, cause))
                ref = cause_ref(cause, self._repo, task)
                self._set_refs([ref] if ref else [])
            self.query_one(".test-detail", Static).update(t)
            return
        table.add_rows([
            [outcome_text(self.app, c.outcome.value), plain(c.id),
             f"{c.duration_seconds:.3f}s" if c.duration_seconds is not None else "—",
             plain(c.first_message_line[:100], no_wrap=True)]
            for c in self.cases])
        self.show_test(0)

    def _set_refs(self, refs: list[Ref]) -> None:
        self.refs = refs
        options = self.query_one(".refs", OptionList)
        options.clear_options()
        options.add_options([Option(plain(f"↪ {r.label}")) for r in refs])
        options.display = bool(refs)

    @on(DataTable.RowHighlighted, ".tests-table")
    def _test_moved(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.show_test(event.cursor_row)

    def show_test(self, index: int) -> None:
        """Show the ``index``-th case's message, traceback and references."""
        if not 0 <= index < len(self.cases):
            return
        c = self.cases[index]
        t = Text()
        t.append(sanitize(c.id) + "\n", style="bold")
        t.append_text(outcome_text(self.app, c.outcome.value))
        if c.duration_seconds is not None:
            t.append(f"  {c.duration_seconds:.3f}s")
        if c.file:
            t.append(f"  defined at {sanitize(c.file)}:{c.line or '?'}", style="dim")
        t.append("\n")
        if c.message:
            t.append("\n" + sanitize(c.message[:20_000]) + "\n",
                     style=colour(self.app, "outcome-error"))
        if c.traceback:
            t.append("\n" + sanitize(c.traceback[:60_000]))
        self.query_one(".test-detail", Static).update(t)
        refs = find_refs(f"{c.message}\n{c.traceback}", self._repo, self._task_root)
        if c.file and self._task_root:
            own = Ref("task", c.file, c.line or 1, f"{c.file}:{c.line}")
            if (own.root, own.rel, own.line) not in {(r.root, r.rel, r.line) for r in refs}:
                refs.append(own)
        self._set_refs(refs)

    def find(self, test_id: str) -> int | None:
        """Row of ``test_id``, whatever class path or parameters the two ids spell out."""
        file, names, _ = split_node_id(test_id)
        for i, c in enumerate(self.cases):
            c_file, c_names, _ = split_node_id(c.id)
            if c.id == test_id or (c_file == file and c_names[-1:] == names[-1:]):
                return i
        return None

    def select(self, index: int) -> None:
        """Move the cursor to row ``index`` and show that case."""
        self.query_one(".tests-table", DataTable).move_cursor(row=index)
        self.show_test(index)
