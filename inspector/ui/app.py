"""The inspector app. For now one screen: every run found under PATH, with its metrics and the
samples of the highlighted run."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Footer, Header, LoadingIndicator, Static

from inspector.model import Discovery, Run, SampleResult, discover_runs
from inspector.services.metrics import RunMetrics, compute_run_metrics


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f}%"


def sample_verdict(s: SampleResult) -> Text:
    """A short, coloured verdict for one sample."""
    if s.passed:
        return Text("passed", style="bold green")
    if not s.deployment.success:
        phase = s.deployment.failed_phase.value if s.deployment.failed_phase else "deploy"
        return Text(f"did not deploy ({phase})", style="bold red")
    if s.tests.total == 0:
        return Text("suite did not run", style="bold magenta")
    return Text(f"tests failed {s.tests.passed}/{s.tests.total}", style="yellow")


class RunsLoaded(Message):
    def __init__(self, discovery: Discovery, metrics: list[RunMetrics]) -> None:
        self.discovery = discovery
        self.metrics = metrics
        super().__init__()


class InspectorApp(App[None]):
    """Genesis Inspector."""

    TITLE = "Genesis Inspector"
    CSS = """
    #runs { height: 1fr; }
    #samples { height: 1fr; }
    #issues { height: auto; max-height: 8; color: $warning; padding: 0 1; }
    #status { height: 1; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("r", "reload", "Reload"),
        Binding("tab", "focus_next", "Next pane", show=False),
    ]

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self.runs: list[Run] = []

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static(f"Runs under {self.root}", id="status")
            yield LoadingIndicator(id="loading")
            yield DataTable(id="runs", cursor_type="row", zebra_stripes=True)
            yield DataTable(id="samples", cursor_type="row", zebra_stripes=True)
            yield Static("", id="issues")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = str(self.root)
        runs = self.query_one("#runs", DataTable)
        runs.add_columns("run", "agent", "model", "lang", "format", "tasks", "samples",
                         "pass@1", "test pass", "AC", "DSR", "suites not run")
        samples = self.query_one("#samples", DataTable)
        samples.add_columns("task", "#", "verdict", "tests", "AC", "failed phase", "message")
        self.load_runs()

    @work(thread=True, exclusive=True, group="load")
    def load_runs(self) -> None:
        found = discover_runs(self.root)
        metrics = [compute_run_metrics(r) for r in found.runs]
        self.post_message(RunsLoaded(found, metrics))

    def on_runs_loaded(self, message: RunsLoaded) -> None:
        self.query_one("#loading").display = False
        self.runs = message.discovery.runs
        table = self.query_one("#runs", DataTable)
        table.clear()
        table.add_rows(
            [m.run_id, m.agent, m.model, m.language,
             "ours" if m.format != "repogenesis" else "stock", str(m.tasks), str(m.samples),
             _pct(m.pass_at_1), _pct(m.test_pass_ratio), _pct(m.api_coverage), _pct(m.dsr),
             str(m.suites_not_run)]
            for m in message.metrics
        )
        n = len(self.runs)
        self.query_one("#status", Static).update(
            f"{n} run{'s' if n != 1 else ''} under {self.root}" if n else
            f"No runs found under {self.root}")
        issues = message.discovery.issues
        self.query_one("#issues", Static).update(
            "\n".join(f"{i.severity}: {i}" for i in issues[:6]) +
            (f"\n… and {len(issues) - 6} more" if len(issues) > 6 else ""))
        if self.runs:
            table.focus()
            self.show_samples(0)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "runs":
            self.show_samples(event.cursor_row)

    def show_samples(self, index: int) -> None:
        if not 0 <= index < len(self.runs):
            return
        run = self.runs[index]
        table = self.query_one("#samples", DataTable)
        table.clear()
        for s in sorted(run.samples, key=lambda s: (s.passed, s.task, s.sample)):
            ac = s.api_coverage
            table.add_row(
                s.task, str(s.sample), sample_verdict(s),
                f"{s.tests.passed}/{s.tests.total}",
                f"{ac.implemented_apis}/{ac.total_apis}" if ac else "—",
                s.deployment.failed_phase.value if s.deployment.failed_phase else "",
                Text(s.deployment.message[:80]),
            )

    def action_reload(self) -> None:
        self.query_one("#loading").display = True
        self.load_runs()
