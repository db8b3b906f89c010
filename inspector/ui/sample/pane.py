"""One sample's generated repository, test results and deployment, as three tabs.

The sample screen shows one of these next to the task README, or two side by side when
comparing runs. Files open safely (binary, huge, undecodable and escaping files get a notice
and a capped preview) and at a line; traceback references open the file they name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
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
from textual.widgets.option_list import Option

from inspector.model import SampleResult, Task
from inspector.model.entries import SampleEntry
from inspector.model.outcomes import PHASE_ORDER
from inspector.model.pytest_output import exit_meaning
from inspector.model.tampering import TamperFinding
from inspector.model.testids import split_node_id
from inspector.services.repo.preview import list_repo_tree, preview_file
from inspector.services.repo.references import Ref, find_refs
from inspector.services.suite.cause import cause_of, cause_ref
from inspector.services.tamper.findings import KIND_LABELS
from inspector.ui.safe import plain, sanitize
from inspector.ui.styles import colour, outcome_text, verdict_text
from inspector.ui.widgets.code_view import CodeView

_FAILURE_ORDER = {"error": 0, "failed": 1, "skipped": 2, "passed": 3}


class SamplePane(Vertical):
    """Files, Tests and Deploy tabs for one loaded sample."""

    DEFAULT_CSS = """
    SamplePane { height: 1fr; }
    SamplePane .pane-title { height: 1; padding: 0 1; background: $boost; }
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

    class ReplayRequested(Message):
        """Enter on a phase of the Deploy tab: replay the log from that phase."""

        def __init__(self, phase: str) -> None:
            super().__init__()
            self.phase = phase

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
        self.cases = sorted(sample.tests.cases,
                            key=lambda c: (_FAILURE_ORDER.get(c.outcome.value, 9), c.id))
        self.refs: list[Ref] = []
        self.cause = cause_of(sample, task)  # why the suite did not run (fully), if it did not
        self.current_file: tuple[str, str] | None = None
        self._pending: tuple[str, str, int | None] | None = None

    @property
    def repo(self) -> Path | None:
        return self.sample.repo_path

    def _tamper_colour(self, deliberate: bool) -> str:
        if deliberate:
            return colour(self.app, "outcome-error")
        theme = self.app.current_theme
        return (theme.warning if theme is not None and theme.warning else "yellow")

    def _tamper_text(self, found: tuple[TamperFinding, ...]) -> Text:
        """What the repo did or holds to reach into its own test run (repo text as Text)."""
        n, m = len(found), sum(f.deliberate for f in found)
        t = Text()
        t.append(f"⚠ Tampering attempt: {n} finding{'' if n == 1 else 's'}"
                 f"{f', {m} deliberate' if m else ''}",
                 style=f"bold {self._tamper_colour(bool(m))}")
        t.append(" — kept out of the golden test run; the verdict stands.", style="dim")
        for f in found:
            t.append("\n")
            t.append("deliberate " if f.deliberate else "could influence ",
                     style=f"bold {self._tamper_colour(f.deliberate)}")
            t.append(KIND_LABELS.get(f.kind, f.kind.replace("_", " ")) + ": ", style="bold")
            t.append(sanitize(f.detail[:2000]))
        return t

    def compose(self) -> ComposeResult:
        t = Text()
        t.append(sanitize(self.pane_title or self.entry.sample_id), style="bold")
        t.append("  ")
        t.append_text(verdict_text(self.app, self.entry))
        found = self.sample.tampering or ()
        if found:
            deliberate = any(f.deliberate for f in found)
            t.append(f"  ⚠ {'deliberate ' if deliberate else ''}tampering attempt",
                     style=f"bold {self._tamper_colour(deliberate)}")
        yield Static(t, classes="pane-title")
        if found:
            with VerticalScroll(classes="tamper-box"):
                yield Static(self._tamper_text(found), classes="tamper-warning")
        with TabbedContent(classes="pane-tabs"):
            with TabPane("Files", classes="files-tab"):
                with Horizontal(classes="files-row"):
                    yield Tree("repo", classes="repo-tree")
                    with Vertical(classes="code-col"):
                        yield Static("", classes="file-label")
                        yield Static("", classes="file-notice")
                        yield CodeView(classes="code")
            with TabPane("Tests", classes="tests-tab"):
                yield DataTable(cursor_type="row", zebra_stripes=True, classes="tests-table")
                with VerticalScroll(classes="test-detail-box"):
                    yield Static("", classes="test-detail")
                yield OptionList(classes="refs")
            with TabPane("Deploy", classes="deploy-tab"):
                yield DataTable(cursor_type="row", classes="phases")
                with VerticalScroll():
                    yield Static("", classes="deploy-detail")

    def on_mount(self) -> None:
        self._fill_tests()
        self._fill_deploy()
        self.query_one(".refs", OptionList).display = False
        if self._pending is not None:
            root, rel, line = self._pending
            self._pending = None
            self.open_file(root, rel, line, focus=False, switch=False)
        if self.repo is None or not self.repo.is_dir():
            self.query_one(".file-notice", Static).update(plain(
                f"The generated repository is not available"
                f"{': ' + str(self.repo) if self.repo else ''}."))
        else:
            self.load_tree()

    # ------------------------------------------------------------------ tabs

    def show_tab(self, name: str) -> None:
        """``files``, ``tests`` or ``deploy``."""
        self._activate(f".{name}-tab")
        target = {"files": ".repo-tree", "tests": ".tests-table", "deploy": ".phases"}[name]
        self.query_one(target).focus()

    def _activate(self, selector: str) -> None:
        tabs = self.query_one(TabbedContent)
        pane_id = self.query_one(selector, TabPane).id or ""
        switcher = tabs.query_one(ContentSwitcher)
        if tabs.active != pane_id or switcher.current != pane_id:
            tabs.active = pane_id
            switcher.current = pane_id

    # ------------------------------------------------------------------ files

    @work(thread=True, exclusive=True, group="tree")
    def load_tree(self) -> None:
        assert self.repo is not None
        listing = list_repo_tree(self.repo)
        self.app.call_from_thread(self._fill_tree, listing)

    def _fill_tree(self, listing: Any) -> None:
        tree = self.query_one(".repo-tree", Tree)
        tree.clear()
        tree.root.set_label(plain(self.repo.name if self.repo else "repo"))
        _add_nodes(tree.root, listing.entries)
        tree.root.expand_all()
        notice = getattr(listing, "notice", "")
        if notice:
            self.query_one(".file-notice", Static).update(plain(notice))
        if self.current_file is None:
            first = _first_interesting(listing)
            if first:
                self.open_file("repo", first, None, focus=False, switch=False)

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
        label = self.query_one(".file-label", Static)
        notice = self.query_one(".file-notice", Static)
        code = self.query_one(CodeView)
        if base is None:
            notice.update(plain(f"{rel}: the {'repository' if root == 'repo' else 'task folder'} "
                                "is not available"))
            return
        preview = preview_file(base, rel)
        self.current_file = (root, rel)
        where = "" if root == "repo" else "task: "
        label.update(Text(f"{where}{sanitize(rel)}"
                          f"{':' + str(line) if line else ''}  ({preview.size} bytes"
                          f"{', ' + preview.lexer if preview.lexer != 'text' else ''})",
                          style="bold"))
        notice.update(plain(preview.notice or ""))
        code.show(preview.text, preview.lexer, rel, line)
        if switch:
            self._activate(".files-tab")
        if focus:
            code.focus()
        self.post_message(self.FileOpened(self, root, rel, line))

    # ------------------------------------------------------------------ tests

    def _fill_tests(self) -> None:
        table = self.query_one(".tests-table", DataTable)
        table.add_columns("outcome", "test", "time", "message")
        if not self.cases:
            s = self.sample
            why = ("the suite did not run" if s.tests.total == 0 else
                   "this format kept only counts, not individual tests")
            t = Text(f"No individual test results: {why}. Passed {s.tests.passed}, failed "
                     f"{s.tests.failed}, errors {s.tests.errors}, skipped {s.tests.skipped}.")
            if self.cause is not None:
                t.append_text(self._cause_text())
                ref = cause_ref(self.cause, self.repo, self.task_def)
                self.refs = [ref] if ref else []
                options = self.query_one(".refs", OptionList)
                options.clear_options()
                options.add_options([Option(plain(f"↪ {r.label}")) for r in self.refs])
                options.display = bool(self.refs)
            self.query_one(".test-detail", Static).update(t)
            return
        table.add_rows([
            [outcome_text(self.app, c.outcome.value), plain(c.id),
             f"{c.duration_seconds:.3f}s" if c.duration_seconds is not None else "—",
             plain(c.first_message_line[:100], no_wrap=True)]
            for c in self.cases])
        self._show_test(0)

    @on(DataTable.RowHighlighted, ".tests-table")
    def _test_moved(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_test(event.cursor_row)

    def _show_test(self, index: int) -> None:
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
        refs = find_refs(f"{c.message}\n{c.traceback}", self.repo,
                         self.task_def.root if self.task_def else None)
        if c.file and self.task_def and self.task_def.root:
            own = Ref("task", c.file, c.line or 1, f"{c.file}:{c.line}")
            if (own.root, own.rel, own.line) not in {(r.root, r.rel, r.line) for r in refs}:
                refs.append(own)
        self.refs = refs
        options = self.query_one(".refs", OptionList)
        options.clear_options()
        options.add_options([Option(plain(f"↪ {r.label}")) for r in refs])
        options.display = bool(refs)

    def select_test(self, test_id: str) -> bool:
        """Select ``test_id`` in the Tests tab."""
        file, names, _ = split_node_id(test_id)
        for i, c in enumerate(self.cases):
            # the same test, whatever class path or parameters the two ids spell out
            c_file, c_names, _ = split_node_id(c.id)
            if c.id == test_id or (c_file == file and c_names[-1:] == names[-1:]):
                self.show_tab("tests")
                self.query_one(".tests-table", DataTable).move_cursor(row=i)
                self._show_test(i)
                return True
        return False

    @on(OptionList.OptionSelected, ".refs")
    def _ref_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.open_ref(event.option_index)

    def open_ref(self, index: int = 0) -> bool:
        """Open the ``index``-th reference of the selected test at its line."""
        if not 0 <= index < len(self.refs):
            return False
        r = self.refs[index]
        self.open_file(r.root, r.rel, r.line)
        return True

    # ------------------------------------------------------------------ deploy

    @on(DataTable.RowSelected, ".phases")
    def _phase_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(PHASE_ORDER):
            self.post_message(self.ReplayRequested(PHASE_ORDER[event.cursor_row].value))

    def _cause_text(self) -> Text:
        """Why the suite did not run (fully): pytest's exit code and first cause line."""
        c = self.cause
        assert c is not None
        code = self.sample.exit_code
        t = Text("\n\nThe suite did not run" + (" fully" if self.sample.tests.total else ""),
                 style="bold")
        if code is not None or c.kind == "timeout":
            t.append(f" (pytest exit {code}: {exit_meaning(code)})", style="dim")
        t.append("\n")
        if c.context:
            t.append(sanitize(c.context) + "\n", style="dim")
        t.append(sanitize(c.text) + "\n", style=colour(self.app, "outcome-error"))
        if c.location:
            t.append(f"at {sanitize(c.location)}\n", style="dim")
        return t

    def _fill_deploy(self) -> None:
        table = self.query_one(".phases", DataTable)
        table.add_columns("phase", "status", "duration", "exit", "message")
        d = self.sample.deployment
        ok, bad = colour(self.app, "outcome-pass"), colour(self.app, "outcome-deploy")
        for phase in PHASE_ORDER:
            p = d.phase(phase)
            if p is None:
                table.add_row(plain(phase.value), Text("—", style="dim"), "", "", "")
                continue
            status = p.status.value
            style = ok if status == "ok" else ("dim" if status == "skipped" else bad)
            failed_here = d.failed_phase is phase
            table.add_row(Text(("▶ " if failed_here else "  ") + phase.value,
                               style="bold" if failed_here else ""),
                          Text(status, style=style),
                          f"{p.duration_seconds:.2f}s" if p.duration_seconds is not None else "—",
                          "" if p.exit_code is None else str(p.exit_code),
                          plain((p.message or "")[:100], no_wrap=True))
        t = Text()
        if d.success:
            t.append("Deployed", style=f"bold {ok}")
        else:
            where = d.failed_phase.value if d.failed_phase else "deployment"
            t.append(f"Failed in {where}", style=f"bold {bad}")
        if d.lenient_success is not None and d.lenient_success != d.success:
            t.append(f"  (the stock harness counts it as "
                     f"{'deployed' if d.lenient_success else 'not deployed'})", style="dim")
        t.append("\n")
        if d.message:
            t.append(sanitize(d.message[:20_000]) + "\n")
        s = self.sample
        for label, value in (("build error", s.build_error), ("error", s.error)):
            if value:
                t.append(f"\n{label}: ", style="bold")
                t.append(sanitize(value[:20_000]) + "\n")
        if s.logs:
            t.append("\nlogs: " + ", ".join(f"{k.value}" for k in s.logs)
                     + " — Enter on a phase or l replays the log", style="dim")
        if self.cause is not None:
            t.append_text(self._cause_text())
        for note in s.notes:
            t.append(f"\nnote: {sanitize(note)}", style="italic dim")
        self.query_one(".deploy-detail", Static).update(t)


def _add_nodes(node: Any, entries: Any) -> None:
    for child in entries:
        name = sanitize(child.name)
        if child.kind == "dir":
            label = Text(name + "/", style="bold")
            if child.error:
                label.append(f"  ({sanitize(child.error)})", style="dim")
            sub = node.add(label, expand=True)
            _add_nodes(sub, child.children)
        elif child.kind == "symlink":
            target = sanitize(child.link_target)
            if child.escapes:
                node.add_leaf(Text(f"{name} ↗ {target} (outside the repo, not followed)",
                                   style="dim italic"), data=child.rel_path)
            elif child.broken:
                node.add_leaf(Text(f"{name} → {target} (broken link)", style="dim italic"),
                              data=child.rel_path)
            else:
                node.add_leaf(Text(f"{name} → {target}"), data=child.rel_path)
        elif child.kind == "file":
            node.add_leaf(Text(name), data=child.rel_path)
        else:
            node.add_leaf(Text(f"{name} (special file)", style="dim"))


_PREFERRED = ("app.py", "main.py", "start.sh", "README.md")


def _first_interesting(listing: Any) -> str | None:
    files = [e.rel_path for _, e in listing.walk() if e.kind == "file"]
    for name in _PREFERRED:
        for f in files:
            if f.split("/")[-1] == name:
                return f
    return files[0] if files else None
