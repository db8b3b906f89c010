"""The main screen: runs overview, samples list with filters, run x task matrix, and
benchmark health — one tab each (keys 1-4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import (
    DataTable,
    Footer,
    Header,
    Input,
    ProgressBar,
    Select,
    Static,
    TabbedContent,
    TabPane,
)

from inspector.model.entries import RunEntry, SampleEntry
from inspector.model.filters import SampleFilter, facet_values
from inspector.model.verdict import Verdict
from inspector.ui.app_access import inspector_app
from inspector.ui.messages import CatalogProgress, CatalogUpdated, OpenSample
from inspector.ui.safe import plain, sanitize
from inspector.ui.styles import GLYPH, colour, pct, verdict_style
from inspector.ui.widgets.matrix_table import MatrixTable
from inspector.ui.widgets.runs_table import RunsTable
from inspector.ui.widgets.samples_table import SamplesTable

if TYPE_CHECKING:
    from inspector.services.health import HealthFinding, HealthReport
    from inspector.services.tamper.findings import TamperedSample

OUTCOME_CHOICES = [("failing (any)", "failing"), ("passed", Verdict.PASSED.value),
                   ("tests failed", Verdict.TESTS_FAILED.value),
                   ("suite did not run", Verdict.SUITE_NOT_RUN.value),
                   ("did not deploy", Verdict.NOT_DEPLOYED.value)]
LABEL_CHOICES = [("unlabelled", "unlabelled"), ("labelled", "labelled")]
HEALTH_TEST_WIDTH = 56


class MainScreen(Screen[None]):
    """Runs, samples, matrix and benchmark health of everything under the root folder."""

    BINDINGS = [
        Binding("1", "show_tab('runs-tab')", "Runs"),
        Binding("2", "show_tab('samples-tab')", "Samples"),
        Binding("3", "show_tab('matrix-tab')", "Matrix"),
        Binding("4", "show_tab('health-tab')", "Health"),
        Binding("slash", "focus_filter", "Filter"),
        Binding("L", "label_queue", "Label"),
        Binding("D", "disagreements", "Disagreements", show=False),
        Binding("x", "clear_filters", "Clear filters", show=False),
        Binding("a", "toggle_scope", "All runs/this run", show=False),
        Binding("escape", "escape", "Back/cancel", show=False),
    ]

    DEFAULT_CSS = """
    MainScreen #index-bar { height: auto; display: none; padding: 0 1; background: $boost; }
    MainScreen #index-bar.busy { display: block; }
    MainScreen #index-bar ProgressBar { width: 40; }
    MainScreen .filter-row { height: 3; }
    MainScreen .filter-row Input { width: 1fr; min-width: 20; }
    MainScreen .filter-row Select { width: 24; }
    MainScreen #runs-table { height: 1fr; }
    MainScreen #run-detail { height: auto; max-height: 12; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    MainScreen #problems { height: auto; max-height: 6; padding: 0 1; color: $warning; }
    MainScreen #samples-table { height: 1fr; }
    MainScreen #samples-count { height: 1; padding: 0 1; color: $text-muted; }
    MainScreen #sample-preview { height: auto; max-height: 6; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    MainScreen #matrix-table { height: 1fr; }
    MainScreen #matrix-legend, #health-summary { height: auto; padding: 0 1; color: $text-muted; }
    MainScreen #matrix-detail, #health-detail { height: auto; max-height: 10; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    MainScreen #health-table { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.runs: list[RunEntry] = []
        self.samples: list[SampleEntry] = []
        self.filter = SampleFilter()
        self.health: HealthReport | None = None
        self._samples_dirty = True
        self._matrix_dirty = True
        self._filter_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="index-bar"):
            yield Static("Indexing runs…", id="index-label")
            yield ProgressBar(id="index-progress", show_eta=False)
        with TabbedContent(initial="runs-tab", id="tabs"):
            with TabPane("Runs [1]", id="runs-tab"):
                yield Input(placeholder="filter runs by agent, model, language…  (/)",
                            id="runs-filter")
                yield RunsTable(id="runs-table")
                yield Static("", id="run-detail")
                yield Static("", id="problems")
            with TabPane("Samples [2]", id="samples-tab"):
                with Horizontal(classes="filter-row"):
                    yield Input(placeholder="text, -exclude, /regex/  (/)", id="sample-filter")
                    yield Select([], prompt="any language", id="f-language")
                    yield Select([], prompt="any framework", id="f-framework")
                    yield Select(OUTCOME_CHOICES, prompt="any outcome", id="f-verdict")
                    yield Select([], prompt="any phase", id="f-phase")
                    yield Select(LABEL_CHOICES, prompt="any label", id="f-label")
                yield Static("", id="samples-count")
                yield SamplesTable(id="samples-table")
                yield Static("", id="sample-preview")
            with TabPane("Matrix [3]", id="matrix-tab"):
                yield Static("", id="matrix-legend")
                yield MatrixTable(id="matrix-table")
                yield Static("", id="matrix-detail")
            with TabPane("Benchmark health [4]", id="health-tab"):
                yield Static("Analysing…", id="health-summary")
                yield DataTable(id="health-table", cursor_type="row", zebra_stripes=True)
                yield Static("", id="health-detail")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#health-table", DataTable)
        table.add_columns("kind", "task")
        # long test ids end in "…" (the detail below shows them whole): room for the error
        table.add_column("test", width=HEALTH_TEST_WIDTH)
        table.add_columns("samples", "runs", "common error")
        self.query_one("#matrix-legend", Static).update(self._legend())

    def _legend(self) -> Text:
        t = Text("cells: ")
        for v, label in ((Verdict.PASSED, "passed (tests passed/total)"),
                         (Verdict.TESTS_FAILED, "tests failed"),
                         (Verdict.SUITE_NOT_RUN, "suite did not run"),
                         (Verdict.NOT_DEPLOYED, "did not deploy (phase)")):
            t.append(f"{GLYPH[v]} {label}", style=verdict_style(self.app, v))
            t.append("   ")
        t.append("⚠ suspected benchmark defect", style=f"bold {colour(self.app, 'health-suspect')}")
        t.append("   Enter opens the sample")
        return t

    # ------------------------------------------------------------------ catalog events

    def on_catalog_progress(self, message: CatalogProgress) -> None:
        bar = self.query_one("#index-bar")
        busy = message.done < message.total
        bar.set_class(busy, "busy")
        self.query_one("#index-progress", ProgressBar).update(total=message.total,
                                                              progress=message.done)
        self.query_one("#index-label", Static).update(
            plain(f"Indexing runs {message.done}/{message.total}  (Esc cancels)  "))

    def on_catalog_updated(self, message: CatalogUpdated) -> None:
        self.query_one("#index-bar").remove_class("busy")
        self.reload_from_catalog()

    def reload_from_catalog(self) -> None:
        """Re-read runs and samples from the catalog and refresh whatever is visible."""
        catalog = inspector_app(self).catalog
        self.runs = catalog.runs()
        self.samples = catalog.samples()
        self.query_one(RunsTable).set_runs(self.runs)
        self._update_facets()
        self._samples_dirty = self._matrix_dirty = True
        self._refresh_visible()
        self._show_problems()
        self._update_title()
        self.analyse_health()

    def _update_title(self) -> None:
        n_runs, n_samples = len(self.runs), len(self.samples)
        failing = sum(e.verdict is not Verdict.PASSED for e in self.samples)
        root_label = inspector_app(self).root_label
        self.sub_title = (f"{root_label} — {n_runs} runs, {n_samples} samples, "
                          f"{failing} failing")
        if not self.runs:
            self.query_one("#run-detail", Static).update(plain(
                f"No runs found under {root_label}. "
                "Point the inspector at a run folder, a RepoGenesis output folder or a folder "
                "holding them: inspector PATH"))

    def _show_problems(self) -> None:
        app = inspector_app(self)
        issues = app.catalog.issues()
        box = self.query_one("#problems", Static)
        found = app.catalog.tasks_found
        where = (found.describe(app.display_path)
                 if found else "tasks: none found")
        lines = [where] + [f"{i.severity}: {i}" for i in issues[:4]]
        if len(issues) > 4:
            lines.append(f"… and {len(issues) - 4} more problems "
                         "(inspector summary PATH lists them)")
        box.update(plain("\n".join(lines)))

    def _update_facets(self) -> None:
        facets = facet_values(self.samples)
        for name in ("language", "framework", "phase"):
            select = self.query_one(f"#f-{name}", Select)
            values = facets[name]
            current = select.value
            select.set_options([(plain(v), v) for v in values])
            if isinstance(current, str) and current in values:
                select.value = current

    def labels_changed(self) -> None:
        """A label was written or the label files changed: the label filter may differ."""
        if self.filter.label:
            self._samples_dirty = True
            if self.is_current:
                self._refresh_visible()

    def action_label_queue(self) -> None:
        """Label the failing samples the samples list shows, from the highlighted one."""
        table = self.query_one(SamplesTable)
        if not table.shown and self.filter.active:
            self.notify("No samples match the filter.", severity="warning")
            return
        entries = table.shown if table.shown else self.filter.apply(
            self.samples, inspector_app(self).label_state)
        failing = [e for e in entries if e.verdict is not Verdict.PASSED]
        if not failing:
            self.notify("No failing samples to label here.", severity="warning")
            return
        current = table.current()
        start = failing.index(current) if current in failing else 0
        inspector_app(self).label_queue(failing, start)

    def action_disagreements(self) -> None:
        from inspector.ui.screens.adjudication import DisagreementScreen

        if inspector_app(self).labels is None:
            self.notify("Labelling is off.", severity="error")
            return
        self.app.push_screen(DisagreementScreen())

    def _refresh_visible(self) -> None:
        active = self.query_one(TabbedContent).active
        if active == "samples-tab" and self._samples_dirty:
            self._fill_samples()
        if active == "matrix-tab" and self._matrix_dirty:
            self._fill_matrix()

    @on(TabbedContent.TabActivated)
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self._refresh_visible()
        pane = event.pane.id
        target = {"runs-tab": "#runs-table", "samples-tab": "#samples-table",
                  "matrix-tab": "#matrix-table", "health-tab": "#health-table"}.get(pane or "")
        if target:
            self.query_one(target).focus()

    # ------------------------------------------------------------------ runs tab

    @on(Input.Changed, "#runs-filter")
    def _runs_filter(self, event: Input.Changed) -> None:
        self.query_one(RunsTable).set_filter(event.value)

    @on(Input.Submitted, "#runs-filter")
    def _runs_filter_done(self) -> None:
        self.query_one(RunsTable).focus()

    @on(DataTable.RowHighlighted, "#runs-table")
    def _run_highlighted(self) -> None:
        run = self.query_one(RunsTable).current()
        self.query_one("#run-detail", Static).update(self._run_detail(run) if run else "")

    def _run_detail(self, r: RunEntry) -> Text:
        m = r.metrics
        t = Text()
        t.append(f"{sanitize(r.run_id)}\n", style="bold")
        kind = "RepoGenesis report" if r.format == "repogenesis" else "Genesis Inspector run"
        t.append(sanitize(f"{r.agent} · {r.model} · {r.language} · {kind}"
                          f"{' · ' + r.status if r.status else ''}\n"))
        source = inspector_app(self).display_path(r.source_path)
        t.append(sanitize(f"source: {source}{' · ' + r.harness if r.harness else ''}\n"),
                 style="dim")
        pk = m.get("pass_at_k") or {}
        extra = "  ".join(f"pass@{k} {pct(v)}" for k, v in sorted(pk.items(),
                                                                   key=lambda kv: int(kv[0]))
                          if str(k) != "1")
        ac_stock = m.get("api_coverage_lenient")
        dsr_stock = m.get("dsr_lenient")
        t.append(f"pass@1 {pct(m.get('pass_at_1'))}  test pass {pct(m.get('test_pass_ratio'))}  "
                 f"AC {pct(m.get('api_coverage'))}"
                 + (f" (stock {pct(ac_stock)})" if ac_stock is not None else "")
                 + f"  DSR {pct(m.get('dsr'))}"
                 + (f" (stock {pct(dsr_stock)})" if dsr_stock is not None else "")
                 + f"  suites not run {m.get('suites_not_run', 0)}  {extra}\n")
        for warning in m.get("summary_warnings") or ():
            t.append(f"⚠ {sanitize(warning)}\n",
                     style=f"bold {colour(self.app, 'health-suspect')}")
        for note in r.notes:
            t.append(f"note: {sanitize(note)}\n", style="italic dim")
        t.append("Enter: this run's samples   s: sort   /: filter", style="dim")
        return t

    @on(DataTable.RowSelected, "#runs-table")
    def _run_selected(self) -> None:
        run = self.query_one(RunsTable).current()
        if run is None:
            return
        self.set_filter(self.filter.with_(run_key=run.key))
        self.query_one(TabbedContent).active = "samples-tab"

    # ------------------------------------------------------------------ samples tab

    def set_filter(self, new: SampleFilter) -> None:
        self.filter = new
        self._samples_dirty = True
        self._refresh_visible()

    def _fill_samples(self) -> None:
        self._samples_dirty = False
        table = self.query_one(SamplesTable)
        table.suspect_tasks = self.health.suspect_tasks() if self.health else set()
        label_state = inspector_app(self).label_state
        shown = self.filter.apply(self.samples, label_state)
        table.set_samples(shown)
        scope = ""
        if self.filter.run_key:
            run = next((r for r in self.runs if r.key == self.filter.run_key), None)
            scope = f" in {run.run_id}" if run else ""
        self.query_one("#samples-count", Static).update(plain(
            f"{len(shown)} of {len(self.samples)} samples{scope} · {self.filter.describe()}"
            f"{' · a: all runs' if self.filter.run_key else ''} · x: clear filters"))
        self._sample_highlighted()

    @on(Input.Changed, "#sample-filter")
    def _sample_filter(self, event: Input.Changed) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        value = event.value
        self._filter_timer = self.set_timer(
            0.15, lambda: self.set_filter(self.filter.with_(text=value)))

    @on(Input.Submitted, "#sample-filter")
    def _sample_filter_done(self, event: Input.Submitted) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self.set_filter(self.filter.with_(text=event.value))
        self.query_one(SamplesTable).focus()

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        name = (event.select.id or "").removeprefix("f-")
        if name not in ("language", "framework", "verdict", "phase", "label"):
            return
        value = event.value if isinstance(event.value, str) else ""
        if getattr(self.filter, name) != value:
            self.set_filter(self.filter.with_(**{name: value}))

    @on(DataTable.RowHighlighted, "#samples-table")
    def _sample_highlighted(self) -> None:
        e = self.query_one(SamplesTable).current()
        box = self.query_one("#sample-preview", Static)
        if e is None:
            box.update("No sample matches the filter." if self.samples else "")
            return
        t = Text()
        t.append(sanitize(e.sample_id), style="bold")
        t.append(sanitize(f"   {e.language}/{e.framework}  tests {e.passed}/{e.total}"
                          f"{' of ' + str(e.expected) + ' expected' if e.expected else ''}"
                          f"  suite {e.suite_status}  {e.elapsed or 0:.1f}s\n"))
        if e.message:
            t.append(sanitize(e.message[:400]))
        box.update(t)

    @on(DataTable.RowSelected, "#samples-table")
    def _sample_selected(self) -> None:
        e = self.query_one(SamplesTable).current()
        if e is not None:
            self.post_message(OpenSample(e.key))

    # ------------------------------------------------------------------ matrix tab

    def _fill_matrix(self) -> None:
        self._matrix_dirty = False
        table = self.query_one(MatrixTable)
        table.suspect_tasks = self.health.suspect_tasks() if self.health else set()
        table.set_data(self.runs, self.samples)
        self._matrix_moved()

    @on(DataTable.CellHighlighted, "#matrix-table")
    def _matrix_moved(self) -> None:
        table = self.query_one(MatrixTable)
        samples = table.current_samples()
        task = table.current_task()
        box = self.query_one("#matrix-detail", Static)
        t = Text()
        if task:
            t.append(sanitize(task), style="bold")
            findings = self.health.by_task().get(task, []) if self.health else []
            for f in findings[:2]:
                t.append(f"\n⚠ {sanitize(f.detail)}", style=colour(self.app, "health-suspect"))
        for e in samples[:4]:
            t.append(f"\n{sanitize(e.sample_id)}: ")
            t.append(sanitize(e.message[:200]) or "all tests passed", style="dim")
        box.update(t)

    @on(DataTable.CellSelected, "#matrix-table")
    def _matrix_selected(self) -> None:
        samples = self.query_one(MatrixTable).current_samples()
        if samples:
            self.post_message(OpenSample(samples[0].key))

    # ------------------------------------------------------------------ health tab

    @work(thread=True, exclusive=True, group="health")
    def analyse_health(self) -> None:
        report = inspector_app(self).catalog.health()
        self.app.call_from_thread(self._show_health, report)

    def _show_health(self, report: HealthReport) -> None:
        self.health = report
        table = self.query_one("#health-table", DataTable)
        table.clear()
        suspect = colour(self.app, "health-suspect")
        table.add_rows([
            [Text(f.kind.replace("_", " "), style=f"bold {suspect}"), plain(f.task),
             plain(f.test_id or "—", no_wrap=True, overflow="ellipsis"),
             str(f.samples), str(f.runs),
             Text(sanitize(f.common_error[:100]), no_wrap=True)]
            for f in report.findings])
        for t in report.tampering:
            first = t.findings[0]
            table.add_row(
                Text("tampering (deliberate)" if t.deliberate else "tampering",
                     style=f"bold {colour(self.app, 'outcome-error')}" if t.deliberate
                     else "bold"),
                Text(sanitize(t.task)),
                Text(sanitize(t.sample_id), no_wrap=True, overflow="ellipsis"), "1", "1",
                Text(sanitize(f"{first.path}: {first.detail}"[:100]), no_wrap=True))
        n = len(report.findings)
        summary = Text(
            f"{n} candidate benchmark defect{'s' if n != 1 else ''}: tests no sample of any run "
            "passes, and suites that did not really run. Check these before blaming agents. "
            "Enter opens an example sample." if n else
            "No candidate benchmark defects: every test passes in some sample, and every "
            "deployed suite ran.")
        if report.tampering:
            k = len(report.tampering)
            summary.append(
                f"\n⚠ {k} sample{'s' if k != 1 else ''} with tampering attempts, "
                f"{report.deliberate_tampering} deliberate (listed after the defects, "
                "deliberate first): kept out of the golden test runs, verdicts unaffected.",
                style=f"bold {colour(self.app, 'outcome-error')}"
                if report.deliberate_tampering else "bold")
        self.query_one("#health-summary", Static).update(summary)
        self._matrix_dirty = self._samples_dirty = True
        self._refresh_visible()
        self._health_moved()

    def _finding(self) -> HealthFinding | None:
        table = self.query_one("#health-table", DataTable)
        if self.health and 0 <= table.cursor_row < len(self.health.findings):
            return self.health.findings[table.cursor_row]
        return None

    def _tampered(self) -> TamperedSample | None:
        """The sample with tampering attempts under the cursor (rows after the defects)."""
        if self.health is None:
            return None
        row = self.query_one("#health-table", DataTable).cursor_row - len(self.health.findings)
        return self.health.tampering[row] if 0 <= row < len(self.health.tampering) else None

    @on(DataTable.RowHighlighted, "#health-table")
    def _health_moved(self) -> None:
        from inspector.services.tamper.findings import finding_line

        f = self._finding()
        box = self.query_one("#health-detail", Static)
        tampered = self._tampered() if f is None else None
        if tampered is not None:
            t = Text()
            t.append(f"{sanitize(tampered.sample_id)}: tampering attempt"
                     f"{' (deliberate)' if tampered.deliberate else ''}\n", style="bold")
            for finding in tampered.findings:
                t.append(sanitize(finding_line(finding)[:500]) + "\n")
            t.append("kept out of the golden test run; the verdict stands. Enter opens the "
                     "sample.", style="dim")
            box.update(t)
            return
        if f is None:
            box.update("")
            return
        t = Text()
        t.append(sanitize(f"{f.task}{' :: ' + f.test_id if f.test_id else ''}\n"), style="bold")
        t.append(sanitize(f.detail) + "\n")
        if f.common_error:  # a suite that counted no test may have no message to share
            t.append(f"common error ({f.share * 100:.0f}% of {f.samples} samples): ",
                     style="dim")
            t.append(sanitize(f.common_error[:300]) + "\n")
        t.append("examples: " + sanitize(", ".join(f.examples[:4])), style="dim")
        box.update(t)

    @on(DataTable.RowSelected, "#health-table")
    def _health_selected(self) -> None:
        f = self._finding()
        tampered = self._tampered() if f is None else None
        if tampered is not None:
            entry = inspector_app(self).catalog.find_sample(tampered.sample_id)
            if entry is not None:
                self.post_message(OpenSample(entry.key))
            return
        if f is None or not f.examples:
            return
        entry = inspector_app(self).catalog.find_sample(f.examples[0])
        if entry is not None:
            self.post_message(OpenSample(entry.key, test_id=f.test_id))

    # ------------------------------------------------------------------ actions

    def action_show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab

    def action_focus_filter(self) -> None:
        active = self.query_one(TabbedContent).active
        if active == "runs-tab":
            self.query_one("#runs-filter", Input).focus()
        else:
            if active != "samples-tab":
                self.query_one(TabbedContent).active = "samples-tab"
            self.query_one("#sample-filter", Input).focus()

    def action_clear_filters(self) -> None:
        self.query_one("#sample-filter", Input).value = ""
        for name in ("language", "framework", "verdict", "phase", "label"):
            self.query_one(f"#f-{name}", Select).clear()
        self.set_filter(SampleFilter())

    def action_toggle_scope(self) -> None:
        if self.filter.run_key:
            self.set_filter(self.filter.with_(run_key=""))
        else:
            run = self.query_one(RunsTable).current()
            if run is not None:
                self.set_filter(self.filter.with_(run_key=run.key))

    def action_escape(self) -> None:
        focused = self.focused
        if isinstance(focused, Input):
            table = "#runs-table" if focused.id == "runs-filter" else "#samples-table"
            self.query_one(table).focus()
            return
        inspector_app(self).action_cancel_indexing()

    def restyle(self) -> None:
        """Re-render coloured cells after a theme change."""
        self.query_one("#matrix-legend", Static).update(self._legend())
        self.query_one(RunsTable).set_runs(self.runs)
        self._samples_dirty = self._matrix_dirty = True
        self._refresh_visible()
        if self.health is not None:
            self._show_health(self.health)

    # ------------------------------------------------------------------ navigation API

    def show_run(self, key: str) -> None:
        self.query_one(TabbedContent).active = "runs-tab"
        self.query_one("#runs-filter", Input).value = ""
        self.query_one(RunsTable).set_filter("")
        self.query_one(RunsTable).select_key(key)

    def show_task(self, task: str) -> None:
        self.query_one(TabbedContent).active = "matrix-tab"
        self._refresh_visible()
        self.query_one(MatrixTable).select_task(task)

    def select_options(self, **values: Any) -> None:
        """Set filter selects programmatically (used by the palette and tests)."""
        for name, value in values.items():
            self.query_one(f"#f-{name}", Select).value = value
