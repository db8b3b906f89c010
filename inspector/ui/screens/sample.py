"""The task/sample view: the task README (and its endpoints) beside the generated repository,
its test results and deployment; ``c`` puts the same task from another run alongside.

One screen serves every sample the user opens (:func:`open_sample_screen`): switching
samples refills its widgets instead of building a new screen. The parts live in
``inspector.ui.sample`` (README and Endpoints tabs, the sample pane and its tabs, loading).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import (
    DataTable,
    Header,
    LoadingIndicator,
    OptionList,
    Static,
    TabbedContent,
)

from inspector.model import Endpoint, SampleResult, Task
from inspector.model.labels.label_file import Anchor, ItemRef
from inspector.model.results.entries import SampleEntry
from inspector.model.results.verdict import Verdict
from inspector.model.untrusted.errors import LoadError
from inspector.ui.app_access import inspector_app
from inspector.ui.dialogs.pick import PickScreen
from inspector.ui.focus import focus_now
from inspector.ui.messages import OpenSample
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.safe import plain, sanitize
from inspector.ui.sample.deploy import ReplayRequested
from inspector.ui.sample.endpoints import EndpointsTab
from inspector.ui.sample.footer import SteadyFooter
from inspector.ui.sample.loading import SampleView, endpoint_refs, load_view
from inspector.ui.sample.pane import SamplePane
from inspector.ui.sample.readme import ReadmeTab
from inspector.ui.sample.target import deploy_target
from inspector.ui.save_notice import announce_save
from inspector.ui.styles import verdict_text
from inspector.ui.widgets.samples_table import SamplesTable
from inspector.ui.widgets.steady_tabs import SteadyTabbedContent

if TYPE_CHECKING:
    from inspector.services.deploy.warm import Target

NARROW_BELOW = 120
"""Terminals narrower than this give the README less room and the sample (its outcome,
test ids, phases) more."""

_REUSED: WeakKeyDictionary[App[Any], SampleScreen] = WeakKeyDictionary()


def open_sample_screen(app: App[Any], entry: SampleEntry, *, test_id: str | None = None,
                       file: str | None = None, line: int | None = None, root: str = "repo",
                       phase: str | None = None) -> None:
    """Show ``entry`` on the sample screen: switched in place when a sample screen is on top,
    else the app's one sample screen pushed (a new one only while that one is further down
    the stack, e.g. under a labelling screen that opened this sample)."""
    start: dict[str, Any] = {"test_id": test_id, "file": file, "line": line, "root": root,
                             "phase": phase}
    if isinstance(app.screen, SampleScreen):
        app.screen.show_sample(entry, **start)
        return
    screen = _REUSED.get(app)
    if screen is None:
        screen = _REUSED[app] = SampleScreen(entry, **start)
        app.install_screen(screen, "sample")
    elif screen in app.screen_stack:
        screen = SampleScreen(entry, **start)
    else:
        screen.show_sample(entry, **start)
        screen.push_when_loaded()
        return
    app.push_screen(screen)


class SampleScreen(Screen[None]):
    """README and endpoints on the left, the generated repo/tests/deploy on the right."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("f", "pane_tab('files')", "Files"),
        Binding("t", "pane_tab('tests')", "Tests"),
        Binding("d", "pane_tab('deploy')", "Deploy"),
        Binding("m", "pane_tab('code')", "Code metrics"),
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
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_BELOW, "-wide")]
    DEFAULT_CSS = """
    SampleScreen #left { width: 42%; min-width: 40; border-right: solid $panel-lighten-2; }
    SampleScreen.-narrow #left { width: 30%; min-width: 24; }
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
        self._generation = 0  # bumped per sample shown: late worker results are dropped
        self._push_timer: Timer | None = None  # see push_when_loaded
        self._set_entry(entry, test_id=test_id, file=file, line=line, root=root, phase=phase)

    def _set_entry(self, entry: SampleEntry, *, test_id: str | None, file: str | None,
                   line: int | None, root: str, phase: str | None) -> None:
        self.entry = entry
        self.sample: SampleResult | None = None
        self.task_def: Task | None = None
        self.start_test = test_id
        self.start_file = file
        self.start_line = line
        self.start_root = root  # repo | task: where start_file is
        self.start_phase = phase  # a phase whose log replay opens at once
        self.endpoints: list[Endpoint] = []
        self.compare_entry: SampleEntry | None = None
        self.readme_source = ""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            with Vertical(id="left"):
                with SteadyTabbedContent(id="left-tabs"):
                    yield ReadmeTab()
                    yield EndpointsTab()
            with Vertical(id="right"):
                yield LoadingIndicator()
        yield SteadyFooter()

    def on_mount(self) -> None:
        self._begin()

    def show_sample(self, entry: SampleEntry, *, test_id: str | None = None,
                    file: str | None = None, line: int | None = None, root: str = "repo",
                    phase: str | None = None) -> None:
        """Switch this screen to ``entry``: what the previous sample showed goes at once."""
        self._set_entry(entry, test_id=test_id, file=file, line=line, root=root, phase=phase)
        if self.is_mounted:
            self._begin()

    def push_when_loaded(self, wait: float = 0.1) -> None:
        """Push this (installed) screen once its sample is loaded, or after ``wait`` seconds
        with the loading indicator: a fast load paints the sample at once, without a
        loading frame first."""
        self._push_timer = self.set_timer(wait, self._push_now)

    def _push_now(self) -> None:
        timer, self._push_timer = self._push_timer, None
        if timer is not None:
            timer.stop()
            if self not in self.app.screen_stack:
                self.app.push_screen(self)

    def _begin(self) -> None:
        """Empty every part, show the loading indicator and load the sample in a worker."""
        self._generation += 1
        dark = self.app.current_theme.dark if self.app.current_theme else True
        self.load(self._generation, self.entry, dark)  # starts while the parts are emptied
        self.sub_title = self.entry.sample_id
        self.title = f"{self.entry.task} · {self.entry.agent} · {self.entry.model}"
        self.workers.cancel_group(self, "compare")
        self.workers.cancel_group(self, "endpoint-tests")
        self.query("#compare-pane").remove()
        self.query("#load-error").remove()
        left_tabs = self.query_one("#left-tabs", TabbedContent)
        left_tabs.display = True
        left_tabs.active = "readme-tab"
        self.query_one(ReadmeTab).show("")
        self.query_one(EndpointsTab).set_endpoints(None, [], {})
        for pane in self.query("#main-pane").results(SamplePane):
            pane.display = False
        self.query_one("#right LoadingIndicator").display = True

    @work(thread=True, exclusive=True, group="sample")
    def load(self, generation: int, entry: SampleEntry, dark: bool) -> None:
        try:
            view = load_view(inspector_app(self).catalog, entry, dark=dark)
        except LoadError as exc:
            self.app.call_from_thread(self._failed, generation, str(exc))
            return
        self.app.call_from_thread(self._loaded, generation, view)  # type: ignore[arg-type]  # async callback: mypy cannot solve Textual's return TypeVar

    def _failed(self, generation: int, message: str) -> None:
        if generation != self._generation:
            return
        self.query_one("#right LoadingIndicator").display = False
        self.query_one("#right").mount(
            Static(plain(f"Cannot open this sample: {message}"), id="load-error"))
        self._push_now()

    async def _loaded(self, generation: int, view: SampleView) -> None:
        if generation != self._generation:
            return
        self.sample, self.task_def = view.sample, view.task
        self.endpoints = view.endpoints
        self.readme_source = view.readme_source
        self.query_one(ReadmeTab).show(view.readme)
        self.query_one(EndpointsTab).set_endpoints(view.sample, view.endpoints, {})
        if self.query_one("#left-tabs", TabbedContent).active == "endpoints-tab":
            self.query_one(EndpointsTab).fill()
        self.query_one("#right LoadingIndicator").display = False
        found = self.query("#main-pane")
        if found:
            pane = found.first(SamplePane)
            pane.show(self.entry, view.sample, view.task)
            pane.display = True
            self._push_now()
            self._start_position(generation)  # in the same frame as the new contents
        else:
            await self.query_one("#right").mount(
                SamplePane(self.entry, view.sample, view.task, id="main-pane"))
            self.call_after_refresh(self._start_position, generation)

    def _start_position(self, generation: int) -> None:
        pane = self.main_pane
        if pane is None or generation != self._generation:
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
        # the golden tests per endpoint: read once the first tab is on screen
        self.call_after_refresh(self._endpoint_tests, generation, self.task_def,
                                self.endpoints)

    @work(thread=True, exclusive=True, group="endpoint-tests")
    def _endpoint_tests(self, generation: int, task: Task | None,
                        endpoints: list[Endpoint]) -> None:
        refs = endpoint_refs(task, endpoints)
        self.app.call_from_thread(self._endpoint_tests_read, generation, refs)

    def _endpoint_tests_read(self, generation: int, refs: dict[str, list[Any]]) -> None:
        if generation == self._generation:
            self.query_one(EndpointsTab).set_tests(refs)

    @property
    def endpoint_tests(self) -> dict[str, list[Any]]:
        """The golden tests that call each endpoint (empty until read)."""
        return self.query_one(EndpointsTab).tests

    @property
    def main_pane(self) -> SamplePane | None:
        """The loaded sample's pane; None while a sample loads."""
        if self.sample is None:
            return None
        found = self.query("#main-pane")
        return found.first(SamplePane) if found else None

    @on(TabbedContent.TabActivated, "#left-tabs")
    def _left_tab_shown(self, event: TabbedContent.TabActivated) -> None:
        if event.pane.id == "endpoints-tab":
            self.query_one(EndpointsTab).fill_if_stale()

    def _endpoint(self) -> Endpoint | None:
        return self.query_one(EndpointsTab).current()

    def _coverage(self, ep: Endpoint) -> Any:
        return self.query_one(EndpointsTab).coverage(ep)

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
        self._load_compare(self._generation, other)

    @work(thread=True, exclusive=True, group="compare")
    def _load_compare(self, generation: int, other: SampleEntry) -> None:
        catalog = inspector_app(self).catalog
        try:
            sample = catalog.load_sample(other)
        except LoadError as exc:
            self.notify(str(exc), severity="error")  # notify only posts: thread-safe
            return
        task = catalog.task(other.task, catalog.run(other.run_key))
        self.app.call_from_thread(self._mount_compare, generation, other, sample, task)  # type: ignore[arg-type]  # async callback, as above

    async def _mount_compare(self, generation: int, other: SampleEntry, sample: SampleResult,
                             task: Task | None) -> None:
        if generation != self._generation:  # another sample was opened meanwhile
            return
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
        focus_now(self.query_one("#endpoints" if tab == "endpoints-tab" else "#readme-scroll"))
        self.query_one("#left-tabs", TabbedContent).active = tab

    def action_open_ref(self) -> None:
        pane = self.main_pane
        if pane is None:
            return
        options = pane.query_one(".refs", OptionList)
        index = options.highlighted if options.highlighted is not None else 0
        if not pane.open_ref(index):
            self.notify("The selected test names no file of the repo or task.",
                        severity="warning")

    @on(ReplayRequested)
    def _replay_requested(self, event: ReplayRequested) -> None:
        self.action_replay(event.phase)

    def action_replay(self, phase: str | None = None) -> None:
        """Replay this sample's deployment log (at ``phase`` if given)."""
        from inspector.model.results.outcomes import Phase
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

    def _target(self) -> Target | None:
        """The deployable target of this sample, or None (after telling why)."""
        return deploy_target(self, self.entry, self.sample, self.task_def)

    def _selected_test(self) -> str | None:
        """The test highlighted in the Tests tab, else the first failing one."""
        pane = self.main_pane
        return pane.selected_test() if pane is not None else None

    @refused_when_read_only(Write.RERUN)
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

    @refused_when_read_only(Write.RERUN)
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
        failing = [e for e in shown if e.verdict.is_failure]
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
        if pane.on_task_file():
            self.notify("Only files of the generated repo can be evidence (this is the "
                        "task's file).", severity="warning")
            return None
        return pane.evidence()

    @refused_when_read_only(Write.LABEL)
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
        for node in pane.files():
            out.append((f"file {node}", "open in the file view",
                        lambda rel=node: pane.open_file("repo", rel, None)))
        for c in pane.cases:
            out.append((f"test {c.id}", c.outcome.value,
                        lambda tid=c.id: pane.select_test(tid)))
        return out
