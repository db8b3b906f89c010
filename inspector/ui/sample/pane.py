"""One sample's generated repository, test results, deployment and code metrics, as tabs.

The sample screen shows one of these next to the task README, or two side by side when
comparing runs. ``show`` switches the pane to another sample, replacing everything it showed
(the sample screen is reused from one sample to the next). Traceback references open the file
they name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import (
    ContentSwitcher,
    DataTable,
    OptionList,
    Static,
    TabbedContent,
    TabPane,
    Tree,
)

from inspector.model import SampleResult, Task
from inspector.model.labels.label_file import Anchor
from inspector.model.results.entries import SampleEntry
from inspector.services.repo.references import Ref
from inspector.services.suite.cause import cause_of
from inspector.ui.focus import focus_now
from inspector.ui.safe import sanitize
from inspector.ui.sample.code import CodeTab
from inspector.ui.sample.deploy import DeployTab, ReplayRequested
from inspector.ui.sample.files import FilesTab
from inspector.ui.sample.tests import TestsTab
from inspector.ui.sample.text import tamper_colour, tamper_text
from inspector.ui.styles import verdict_text
from inspector.ui.widgets.code_view import CodeView
from inspector.ui.widgets.steady_tabs import SteadyTabbedContent


class SamplePane(Vertical):
    """Files, Tests, Deploy and Code tabs for one loaded sample."""

    DEFAULT_CSS = """
    SamplePane { height: 1fr; }
    SamplePane .pane-title { height: auto; max-height: 3; padding: 0 1; background: $boost; }
    SamplePane .tamper-box { height: auto; max-height: 8; border-bottom: solid $warning; }
    SamplePane .tamper-warning { height: auto; padding: 0 1; }
    SamplePane .files-row { height: 1fr; }
    SamplePane Tree { width: 32; min-width: 20; height: 1fr; border-right: solid $panel-lighten-2; }
    SamplePane .code-col { width: 1fr; }
    SamplePane .file-notice { height: auto; padding: 0 1; color: $warning; }
    SamplePane .file-label { height: 1; padding: 0 1; color: $text-muted; }
    SamplePane CodeView { height: 1fr; }
    SamplePane .tests-table { height: 1fr; min-height: 5; }
    SamplePane .test-detail-box { height: 1fr; border-top: solid $panel-lighten-2; }
    SamplePane .test-detail { padding: 0 1; }
    SamplePane .refs { height: auto; max-height: 7; border-top: solid $panel-lighten-2; }
    SamplePane .phases { height: auto; max-height: 8; }
    SamplePane .deploy-detail { padding: 0 1; }
    """

    ReplayRequested = ReplayRequested

    class FileOpened(Message):
        """A file was shown (``root`` is "repo" or "task")."""

        def __init__(self, pane: SamplePane, root: str, rel: str, line: int | None) -> None:
            self.pane = pane
            self.root = root
            self.rel = rel
            self.line = line
            super().__init__()

    def __init__(self, entry: SampleEntry, sample: SampleResult, task: Task | None,
                 *, title: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entry = entry
        self.sample = sample
        self.task_def = task
        self.pane_title = title
        self.cause = cause_of(sample, task)  # why the suite did not run (fully), if it did not
        self.current_file: tuple[str, str] | None = None
        self._pending: tuple[str, str, int | None] | None = None

    @property
    def repo(self) -> Path | None:
        return self.sample.repo_path

    @property
    def cases(self) -> list:
        """The test cases, failures first (the Tests tab's rows)."""
        return self.query_one(TestsTab).cases if self.is_mounted else []

    @property
    def refs(self) -> list[Ref]:
        return self.query_one(TestsTab).refs

    def compose(self) -> ComposeResult:
        yield Static("", classes="pane-title")
        with SteadyTabbedContent(classes="pane-tabs"):
            yield FilesTab()
            yield TestsTab()
            yield DeployTab()
            yield CodeTab()

    def on_mount(self) -> None:
        self._fill()

    def show(self, entry: SampleEntry, sample: SampleResult, task: Task | None) -> None:
        """Switch to another sample: everything shown before is replaced."""
        self.entry, self.sample, self.task_def = entry, sample, task
        self.cause = cause_of(sample, task)
        self.current_file = None
        self._pending = None
        self._fill()

    def _fill(self) -> None:
        t = Text()
        t.append(sanitize(self.pane_title or self.entry.sample_id), style="bold")
        t.append("  ")
        t.append_text(verdict_text(self.app, self.entry))
        found = self.sample.tampering or ()
        if found:
            deliberate = any(f.deliberate for f in found)
            t.append(f"  ⚠ {'deliberate ' if deliberate else ''}tampering attempt",
                     style=f"bold {tamper_colour(self.app, deliberate)}")
        self.query_one(".pane-title", Static).update(t)
        self.query(".tamper-box").remove()
        if found:
            self.mount(VerticalScroll(Static(tamper_text(self.app, found),
                                             classes="tamper-warning"), classes="tamper-box"),
                       after=self.query_one(".pane-title"))
        self.query_one(TestsTab).show(self.sample, self.task_def, self.cause)
        self.query_one(DeployTab).show(self.sample, self.cause)
        self.query_one(CodeTab).show(self.repo, self.entry.language or None, self.task_def,
                                     active=self._on_tab("code-tab"))
        files = self.query_one(FilesTab)
        files.show_repo(self.repo)
        if self._pending is not None:
            root, rel, line = self._pending
            self._pending = None
            self.open_file(root, rel, line, focus=False, switch=False)
        if self.repo is None or not self.repo.is_dir():
            files.notice(f"The generated repository is not available"
                         f"{': ' + str(self.repo) if self.repo else ''}.")

    # ------------------------------------------------------------------ tabs

    def show_tab(self, name: str) -> None:
        """``files``, ``tests``, ``deploy`` or ``code``; the focus moves first, at once (see
        :func:`~inspector.ui.focus.focus_now`), so the tab being left cannot take it back."""
        target = {"files": ".repo-tree", "tests": ".tests-table", "deploy": ".phases",
                  "code": ".code-summary"}[name]
        focus_now(self.query_one(target))
        self._activate(f".{name}-tab")

    def _activate(self, selector: str) -> None:
        tabs = self.query_one(TabbedContent)
        pane_id = self.query_one(selector, TabPane).id or ""
        switcher = tabs.query_one(ContentSwitcher)
        if tabs.active != pane_id or switcher.current != pane_id:
            tabs.active = pane_id
            switcher.current = pane_id
        if selector == ".code-tab":
            self.query_one(CodeTab).measure_if_stale()

    def _on_tab(self, css_class: str) -> bool:
        tabs = self.query_one(TabbedContent)
        return tabs.active_pane is not None and css_class in tabs.active_pane.classes

    @on(TabbedContent.TabActivated, ".pane-tabs")
    def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        """The Code tab measures when first shown for a sample (clicked or keyed)."""
        if isinstance(event.pane, CodeTab):
            event.pane.measure_if_stale()

    # ------------------------------------------------------------------ files

    @on(FilesTab.TreeFilled)
    def _tree_filled(self, event: FilesTab.TreeFilled) -> None:
        event.stop()
        if self.current_file is None and event.first:
            self.open_file("repo", event.first, None, focus=False, switch=False)

    @on(Tree.NodeSelected, ".repo-tree")
    def _tree_selected(self, event: Tree.NodeSelected) -> None:
        event.stop()
        data = event.node.data
        if isinstance(data, str):
            self.open_file("repo", data, None)

    def open_file(self, root: str, rel: str, line: int | None, focus: bool = True,
                  switch: bool = True) -> None:
        """Show ``rel`` (under the repo or the task folder), at ``line`` if given."""
        if not self.query(".file-label"):  # not composed yet: open once mounted
            self._pending = (root, rel, line)
            return
        base = self.repo if root == "repo" else (self.task_def.root if self.task_def else None)
        files = self.query_one(FilesTab)
        if base is None:
            files.notice(f"{rel}: the {'repository' if root == 'repo' else 'task folder'} "
                         "is not available")
            return
        self.current_file = (root, rel)
        files.show_file(base, root, rel, line)
        if focus:
            focus_now(self.query_one(CodeView))
        if switch:
            self._activate(".files-tab")
        self.post_message(self.FileOpened(self, root, rel, line))

    def files(self) -> list[str]:
        """Every file of the repo tree, sorted."""
        return self.query_one(FilesTab).files()

    # ------------------------------------------------------------------ tests

    def select_test(self, test_id: str) -> bool:
        """Select ``test_id`` in the Tests tab."""
        tests = self.query_one(TestsTab)
        index = tests.find(test_id)
        if index is None:
            return False
        self.show_tab("tests")
        tests.select(index)
        return True

    def selected_test(self) -> str | None:
        """The test highlighted in the Tests tab, else the first failing one."""
        cases = self.cases
        if not cases:
            return None
        row = self.query_one(".tests-table", DataTable).cursor_row
        if 0 <= row < len(cases):
            return str(cases[row].id)
        failing = [c for c in cases if c.outcome.is_failure]
        return str((failing or cases)[0].id)

    def _on_files_tab(self) -> bool:
        return self._on_tab("files-tab")

    def on_task_file(self) -> bool:
        """The Files tab is shown with a file of the task (not of the repo) open."""
        return (self._on_files_tab() and self.current_file is not None
                and self.current_file[0] != "repo")

    def evidence(self) -> Anchor | None:
        """The repo's code line under the cursor (Files tab), else the highlighted test."""
        if self._on_files_tab() and self.current_file is not None:
            root, rel = self.current_file
            return Anchor.file(rel, self.query_one(CodeView).cursor_line + 1) \
                if root == "repo" else None
        test = self.selected_test() if self.cases else None
        return Anchor.for_test(test) if test else None

    @on(OptionList.OptionSelected, ".refs")
    def _ref_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.open_ref(event.option_index)

    def open_ref(self, index: int = 0) -> bool:
        """Open the ``index``-th reference of the selected test at its line."""
        refs = self.refs
        if not 0 <= index < len(refs):
            return False
        r = refs[index]
        self.open_file(r.root, r.rel, r.line)
        return True



