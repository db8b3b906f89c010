"""The task/sample view: the task README (and its endpoints) beside the generated repository,
its test results and deployment; ``c`` puts the same task from another run alongside."""

from __future__ import annotations

from typing import Any

from rich.markdown import Markdown as RichMarkdown
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    DataTable,
    Footer,
    Header,
    LoadingIndicator,
    OptionList,
    Static,
    TabbedContent,
    TabPane,
)

from inspector.model import Endpoint, SampleResult, Task
from inspector.model.entries import SampleEntry
from inspector.model.errors import LoadError
from inspector.model.labels import Anchor, ItemRef
from inspector.model.testids import leaf_name
from inspector.model.verdict import Verdict
from inspector.services.suite.endpoint_tests import tests_for_endpoints
from inspector.ui.app_access import inspector_app
from inspector.ui.dialogs.pick import PickScreen
from inspector.ui.messages import OpenSample
from inspector.ui.safe import plain, sanitize
from inspector.ui.save_notice import announce_save
from inspector.ui.styles import colour, verdict_text
from inspector.ui.widgets.code_view import CodeView
from inspector.ui.sample.pane import SamplePane
from inspector.ui.widgets.samples_table import SamplesTable


class SampleScreen(Screen[None]):
    """README and endpoints on the left, the generated repo/tests/deploy on the right."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("f", "pane_tab('files')", "Files"),
        Binding("t", "pane_tab('tests')", "Tests"),
        Binding("d", "pane_tab('deploy')", "Deploy"),
        Binding("r", "left_tab('readme-tab')", "README"),
        Binding("e", "left_tab('endpoints-tab')", "Endpoints"),
        Binding("l", "replay", "Log replay"),
        Binding("c", "compare", "Compare run"),
        Binding("o", "open_ref", "Open ref"),
        Binding("n", "step(1)", "Next sample"),
        Binding("p", "step(-1)", "Prev sample"),
        Binding("T", "endpoint_tests", "Endpoint tests", show=False),
        Binding("R", "rerun_test", "Re-run test"),
        Binding("A", "rerun_failures", "Re-run failures"),
        Binding("Q", "request", "Request"),
        Binding("L", "label", "Label"),
        Binding("a", "add_evidence", "Add evidence", show=False),
    ]
    DEFAULT_CSS = """
    SampleScreen #left { width: 42%; min-width: 40; border-right: solid $panel-lighten-2; }
    SampleScreen #right { width: 1fr; }
    SampleScreen #endpoints { height: 1fr; }
    SampleScreen #endpoint-detail { height: auto; max-height: 8; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    SampleScreen #readme-scroll { height: 1fr; }
    SampleScreen #readme { padding: 0 1; }
    SampleScreen #load-error { padding: 1 2; color: $error; }
    """

    def __init__(self, entry: SampleEntry, *, test_id: str | None = None,
                 file: str | None = None, line: int | None = None, root: str = "repo",
                 phase: str | None = None) -> None:
        super().__init__()
        self.entry = entry
        self.sample: SampleResult | None = None
        self.task_def: Task | None = None
        self.start_test = test_id
        self.start_file = file
        self.start_line = line
        self.start_root = root  # repo | task: where start_file is
        self.start_phase = phase  # a phase whose log replay opens at once
        self.endpoints: list[Endpoint] = []
        self.endpoint_tests: dict[str, list[Any]] = {}
        self.compare_entry: SampleEntry | None = None
        self.readme_source = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            with Vertical(id="left"):
                with TabbedContent(id="left-tabs"):
                    with TabPane("README [r]", id="readme-tab"):
                        with VerticalScroll(id="readme-scroll"):
                            yield Static("", id="readme")
                    with TabPane("Endpoints [e]", id="endpoints-tab"):
                        yield DataTable(id="endpoints", cursor_type="row", zebra_stripes=True)
                        yield Static("", id="endpoint-detail")
            with Vertical(id="right"):
                yield LoadingIndicator()
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.entry.sample_id
        self.title = f"{self.entry.task} · {self.entry.agent} · {self.entry.model}"
        self.query_one("#endpoints", DataTable).add_columns(
            "method", "path", "implemented", "handler", "tests")
        self.load()

    @work(thread=True, exclusive=True, group="sample")
    def load(self) -> None:
        catalog = inspector_app(self).catalog
        try:
            sample = catalog.load_sample(self.entry)
        except LoadError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        task = catalog.task(self.entry.task, catalog.run(self.entry.run_key))
        endpoints = _endpoint_list(sample, task)
        refs: dict[str, list[Any]] = {}
        if task and task.tests_dir:
            try:
                result = tests_for_endpoints(task.tests_dir, endpoints)
                refs = result[0] if isinstance(result, tuple) else result
            except (OSError, ValueError, SyntaxError):
                refs = {}
        self.app.call_from_thread(self._loaded, sample, task, endpoints, refs)

    def _failed(self, message: str) -> None:
        right = self.query_one("#right")
        right.remove_children()
        right.mount(Static(plain(f"Cannot open this sample: {message}"), id="load-error"))

    async def _loaded(self, sample: SampleResult, task: Task | None,
                      endpoints: list[Endpoint], refs: dict[str, list[Any]]) -> None:
        self.sample, self.task_def = sample, task
        self.endpoints, self.endpoint_tests = endpoints, refs
        readme = task.readme if task and task.readme else (
            "*The task README is not available for this run.*")
        self.readme_source = sanitize(readme)
        # Rich's Markdown in one Static renders a README in a few ms; Textual's Markdown
        # widget builds a widget per block and takes hundreds.
        dark = self.app.current_theme.dark if self.app.current_theme else True
        code_theme = "monokai" if dark else "friendly"
        self.query_one("#readme", Static).update(RichMarkdown(
            self.readme_source, code_theme=code_theme, inline_code_lexer="text",
            inline_code_theme=code_theme))
        self._fill_endpoints()
        right = self.query_one("#right")
        await right.remove_children()
        pane = SamplePane(self.entry, sample, task, id="main-pane")
        await right.mount(pane)
        self.call_after_refresh(self._start_position)

    def _start_position(self) -> None:
        pane = self.main_pane
        if pane is None:
            return
        if self.start_phase:
            pane.show_tab("deploy")
            self.action_replay(self.start_phase)
        elif self.start_file:
            pane.open_file(self.start_root, self.start_file, self.start_line)
        elif self.start_test and pane.select_test(self.start_test):
            pass
        elif not self.entry.deployed:
            pane.show_tab("deploy")
        elif self.entry.verdict.is_failure and pane.cases and \
                pane.cases[0].outcome.is_failure:
            pane.show_tab("tests")
        else:
            pane.show_tab("files")

    @property
    def main_pane(self) -> SamplePane | None:
        found = self.query("#main-pane")
        return found.first(SamplePane) if found else None

    # ------------------------------------------------------------------ endpoints

    def _coverage(self, ep: Endpoint) -> Any:
        cov = self.sample.api_coverage if self.sample else None
        if cov is None or not cov.endpoints:
            return None
        return next((c for c in cov.endpoints if c.method == ep.method and c.path == ep.path),
                    None)

    def _fill_endpoints(self) -> None:
        table = self.query_one("#endpoints", DataTable)
        table.clear()
        ok, bad = colour(self.app, "outcome-pass"), colour(self.app, "outcome-deploy")
        for ep in self.endpoints:
            cov = self._coverage(ep)
            implemented = cov.implemented if cov else None
            handler = f"{cov.evidence[0].file}:{cov.evidence[0].line}" if cov and \
                cov.evidence else "—"
            n_tests = len(self.endpoint_tests.get(ep.key, []))
            if cov is not None and cov.unresolved:
                verdict = Text("? unresolved", style="dim")
            elif implemented:
                verdict = Text("✔ yes", style=ok)
            else:
                verdict = Text("✘ no", style=bad) if implemented is False else Text("?")
            table.add_row(plain(ep.method), plain(ep.path), verdict,
                          plain(handler), str(n_tests) if n_tests else "—")
        self._endpoint_moved()

    def _endpoint(self) -> Endpoint | None:
        row = self.query_one("#endpoints", DataTable).cursor_row
        return self.endpoints[row] if 0 <= row < len(self.endpoints) else None

    @on(DataTable.RowHighlighted, "#endpoints")
    def _endpoint_moved(self) -> None:
        ep = self._endpoint()
        box = self.query_one("#endpoint-detail", Static)
        if ep is None:
            box.update("This task lists no endpoints.")
            return
        t = Text()
        t.append(sanitize(f"{ep.method} {ep.path}"), style="bold")
        if ep.description:
            t.append(f"  {sanitize(ep.description)}")
        if ep.readme_line:
            t.append(f"\nREADME line {ep.readme_line}", style="dim")
            if ep.source == "spec":
                t.append(" · the stock extraction misses it (not in the stock AC)", style="dim")
        if ep.note:
            t.append(f"\n  {sanitize(ep.note[:160])}", style="dim")
        cov = self._coverage(ep)
        if cov is not None and cov.unresolved:
            t.append(f"\nunresolved: {sanitize(cov.unresolved)} (left out of strict AC)",
                     style="bold")
        for ev in (cov.evidence if cov else ())[:3]:
            t.append(f"\nhandler {sanitize(ev.file)}:{ev.line}  ", style="dim")
            t.append(sanitize(ev.text[:100]))
            if ev.note:
                t.append(f"\n  {sanitize(ev.note[:160])}", style="dim")
        tests = self.endpoint_tests.get(ep.key, [])
        if tests:
            t.append(f"\n{len(tests)} test(s): " + ", ".join(
                sanitize(leaf_name(r.test_id)) for r in tests[:5]), style="dim")
        t.append("\nEnter: open handler   T: tests that hit it", style="dim")
        box.update(t)

    @on(DataTable.RowSelected, "#endpoints")
    def _endpoint_selected(self) -> None:
        ep = self._endpoint()
        cov = self._coverage(ep) if ep else None
        pane = self.main_pane
        if pane is None or ep is None:
            return
        if cov is None or not cov.evidence:
            self.notify(f"No handler found for {ep} in this repository.", severity="warning")
            return
        ev = cov.evidence[0]
        pane.open_file("repo", ev.file, ev.line)

    def action_endpoint_tests(self) -> None:
        ep = self._endpoint()
        if ep is None:
            return
        refs = self.endpoint_tests.get(ep.key, [])
        if not refs:
            self.notify(f"No golden test calls {ep}.", severity="warning")
            return

        def chosen(index: int | None) -> None:
            if index is None or self.main_pane is None:
                return
            ref = refs[index]
            if not self.main_pane.select_test(ref.test_id):
                self.main_pane.open_file("task", ref.file, ref.line)

        self.app.push_screen(
            PickScreen(f"Tests that call {ep}:",
                       [plain(f"{r.test_id}  ({r.file}:{r.line})  {r.call}") for r in refs]),
            chosen)

    # ------------------------------------------------------------------ compare

    def action_compare(self) -> None:
        left_tabs = self.query_one("#left-tabs")
        existing = self.query("#compare-pane")
        if existing:
            existing.remove()
            left_tabs.display = True
            self.compare_entry = None
            return
        catalog = inspector_app(self).catalog
        others = [e for e in catalog.samples() if e.task == self.entry.task
                  and e.key != self.entry.key]
        if not others:
            self.notify("No other run has this task.", severity="warning")
            return
        if len(others) == 1:
            self._show_compare(others[0])
            return
        self.app.push_screen(
            PickScreen(f"Compare {self.entry.task} with:",
                       [Text.assemble(sanitize(f"{e.run_id} #{e.sample}  "),
                                      verdict_text(self.app, e))
                        for e in others]),
            lambda i: self._show_compare(others[i]) if i is not None else None)

    def _show_compare(self, other: SampleEntry) -> None:
        self.compare_entry = other
        self._load_compare(other)

    @work(thread=True, exclusive=True, group="compare")
    def _load_compare(self, other: SampleEntry) -> None:
        catalog = inspector_app(self).catalog
        try:
            sample = catalog.load_sample(other)
        except LoadError as exc:
            self.app.call_from_thread(self.notify, str(exc), severity="error")
            return
        task = catalog.task(other.task, catalog.run(other.run_key))
        self.app.call_from_thread(self._mount_compare, other, sample, task)

    async def _mount_compare(self, other: SampleEntry, sample: SampleResult,
                             task: Task | None) -> None:
        self.query_one("#left-tabs").display = False
        await self.query("#compare-pane").remove()
        pane = SamplePane(other, sample, task, id="compare-pane",
                          title=f"{other.run_id} #{other.sample}")
        await self.query_one("#left").mount(pane)
        main = self.main_pane
        if main is not None and main.current_file is not None:
            root, rel = main.current_file
            self.call_after_refresh(pane.open_file, root, rel, None, False)

    @on(SamplePane.FileOpened)
    def _file_opened(self, event: SamplePane.FileOpened) -> None:
        """Keep the compared repo on the same file, so the two versions sit side by side."""
        if event.pane.id != "main-pane":
            return
        for other in self.query("#compare-pane").results(SamplePane):
            base = other.repo if event.root == "repo" else None
            if base is not None and (base / event.rel).is_file():
                other.open_file(event.root, event.rel, None, focus=False)

    # ------------------------------------------------------------------ actions

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_pane_tab(self, name: str) -> None:
        if self.main_pane is not None:
            self.main_pane.show_tab(name)

    def action_left_tab(self, tab: str) -> None:
        if self.compare_entry is not None:
            self.action_compare()
        self.query_one("#left-tabs", TabbedContent).active = tab
        self.query_one("#endpoints" if tab == "endpoints-tab" else "#readme-scroll").focus()

    def action_open_ref(self) -> None:
        pane = self.main_pane
        if pane is None:
            return
        options = pane.query_one(".refs", OptionList)
        index = options.highlighted if options.highlighted is not None else 0
        if not pane.open_ref(index):
            self.notify("The selected test names no file of the repo or task.",
                        severity="warning")

    @on(SamplePane.ReplayRequested)
    def _replay_requested(self, event: SamplePane.ReplayRequested) -> None:
        self.action_replay(event.phase)

    def action_replay(self, phase: str | None = None) -> None:
        """Replay this sample's deployment log (at ``phase`` if given)."""
        from inspector.model.outcomes import Phase
        from inspector.services.logs.deployment_log import NoLogError, open_sample_log
        from inspector.ui.screens.replay import ReplayScreen

        pane = self.main_pane
        if pane is None:
            return
        folder = self.entry.result_path.parent if self.entry.result_path else None
        try:
            log = open_sample_log(pane.sample, folder)
        except NoLogError as exc:
            self.notify(str(exc), severity="warning", timeout=8)
            return
        self.app.push_screen(ReplayScreen(log, phase=Phase(phase) if phase else None,
                                          open_test=pane.select_test,
                                          sample_id=self.entry.sample_id))

    # ------------------------------------------------------------------ re-run and requests

    def _target(self) -> Any:
        """The deployable target of this sample, or None (after telling why)."""
        from inspector.services.deploy.warm import DeployError, Target

        if self.sample is None:
            self.notify("The sample is still loading.", severity="warning")
            return None
        if self.task_def is None:
            self.notify(f"{self.entry.sample_id}: the task (README and golden tests) is not "
                        "available, so the sample cannot be deployed.", severity="error")
            return None
        try:
            return Target.from_result(self.sample, self.task_def)
        except DeployError as exc:
            self.notify(str(exc), title="Cannot deploy", severity="error", timeout=10)
            return None

    def _selected_test(self) -> str | None:
        """The test highlighted in the Tests tab, else the first failing one."""
        pane = self.main_pane
        if pane is None or not pane.cases:
            return None
        row = pane.query_one(".tests-table", DataTable).cursor_row
        if 0 <= row < len(pane.cases):
            return pane.cases[row].id
        failing = [c for c in pane.cases if c.outcome.is_failure]
        return (failing or pane.cases)[0].id

    def action_rerun_test(self) -> None:
        """Redeploy this sample and run the selected test again."""
        from inspector.ui.screens.rerun import RerunScreen

        target = self._target()
        if target is None:
            return
        test_id = self._selected_test()
        if test_id is None:
            self.notify("No individual tests were recorded for this sample; A re-runs its "
                        "whole suite.", severity="warning")
            return
        self.app.push_screen(RerunScreen(target, [test_id],
                                         inspector_app(self).rerun_backend))

    def action_rerun_failures(self) -> None:
        """Redeploy this sample once and run every recorded failure again."""
        from inspector.services.rerun.runner import resolve_tests
        from inspector.ui.screens.rerun import RerunScreen

        target = self._target()
        if target is None:
            return
        self.app.push_screen(RerunScreen(target, resolve_tests(target, ["failures"]),
                                         inspector_app(self).rerun_backend))

    def action_request(self) -> None:
        """Compose HTTP requests against this sample, deployed on first send."""
        from inspector.ui.screens.request import RequestScreen

        target = self._target()
        if target is None:
            return
        self.app.push_screen(RequestScreen(target,
                                           inspector_app(self).rerun_backend))

    # ------------------------------------------------------------------ labels

    def action_label(self) -> None:
        """Open the review queue at this sample (the queue is the samples list's failures)."""
        if self.entry.verdict is Verdict.PASSED:
            self.notify("This sample passed: only failures are labelled.", severity="warning")
            return
        main = inspector_app(self).main_screen
        shown = main.query_one("#samples-table", SamplesTable).shown or main.samples
        failing = [e for e in shown if e.verdict is not Verdict.PASSED]
        keys = [e.key for e in failing]
        if self.entry.key not in keys:
            failing, keys = [self.entry], [self.entry.key]
        inspector_app(self).label_queue(failing, keys.index(self.entry.key))

    def evidence_here(self) -> Anchor | None:
        """What the user is looking at, as evidence: the code line under the cursor in the
        generated repo, else the highlighted test."""
        pane = self.main_pane
        if pane is None:
            return None
        code = pane.query_one(CodeView)
        tabs = pane.query_one(TabbedContent)
        on_files = (tabs.active_pane is not None and "files-tab" in tabs.active_pane.classes)
        if on_files and pane.current_file is not None:
            root, rel = pane.current_file
            if root != "repo":
                self.notify("Only files of the generated repo can be evidence (this is the "
                            "task's file).", severity="warning")
                return None
            return Anchor.file(rel, code.cursor_line + 1)
        if pane.cases:
            test = self._selected_test()
            return Anchor.for_test(test) if test else None
        return None

    def action_add_evidence(self) -> None:
        """Attach what the user is looking at to their label of this sample."""
        session = inspector_app(self).labels
        if session is None:
            self.notify("Labelling is off.", severity="error")
            return
        anchor = self.evidence_here()
        if anchor is None:
            self.notify("Nothing here to point at: open a file of the repo (f) or a test (t).",
                        severity="warning")
            return
        item = ItemRef(self.entry.sample_id)
        try:
            state = session.add_evidence(item, anchor, done=announce_save(
                self.app, f"Evidence added to your label: {anchor.describe()}"))
        except LoadError as exc:
            self.notify(f"Not saved: {exc}", severity="error", timeout=12)
            return
        if state != "saved":  # a save is announced once it is on disk
            self.notify({"pending": f"Evidence kept for your label (L to label): "
                                    f"{anchor.describe()}",
                         "present": f"Already evidence: {anchor.describe()}"}[state], timeout=3)

    def action_step(self, delta: int) -> None:
        """Next/previous sample in the samples list (the triage order)."""
        main = inspector_app(self).main_screen
        shown = main.query_one("#samples-table", SamplesTable).shown or main.samples
        keys = [e.key for e in shown]
        if self.entry.key not in keys:
            return
        i = keys.index(self.entry.key) + delta
        if 0 <= i < len(keys):
            main.query_one("#samples-table", SamplesTable).select(keys[i])
            self.post_message(OpenSample(keys[i]))

    # ------------------------------------------------------------------ palette

    def palette_candidates(self) -> list[tuple[str, str, object]]:
        out: list[tuple[str, str, object]] = []
        pane = self.main_pane
        if pane is None:
            return out
        for node in _tree_files(pane):
            out.append((f"file {node}", "open in the file view",
                        lambda rel=node: pane.open_file("repo", rel, None)))
        for c in pane.cases:
            out.append((f"test {c.id}", c.outcome.value,
                        lambda tid=c.id: pane.select_test(tid)))
        return out


def _tree_files(pane: SamplePane) -> list[str]:
    from textual.widgets import Tree

    tree = pane.query_one(".repo-tree", Tree)
    out: list[str] = []
    stack = [tree.root]
    while stack:
        node = stack.pop()
        if isinstance(node.data, str) and not node.children:
            out.append(node.data)
        stack.extend(node.children)
    return sorted(out)


def _endpoint_list(sample: SampleResult, task: Task | None) -> list[Endpoint]:
    """The endpoints strict AC was computed over (the sample's own list when it has one),
    with the README line and origin the task's spec list knows."""
    known = {e.key: e for e in (task.required_endpoints if task else ())}
    cov = (sample.api_coverage.endpoints or ()) if sample.api_coverage else ()
    if not cov:
        return list(known.values())
    out = []
    for e in cov:
        k = known.get(f"{e.method}:{e.path}")
        out.append(Endpoint(e.method, e.path, e.description,
                            readme_line=e.readme_line or (k.readme_line if k else 0),
                            source=e.source or (k.source if k else ""),
                            note=e.readme_note or (k.note if k else "")))
    return out
