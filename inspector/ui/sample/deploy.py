"""The Deploy tab: one row per deployment phase, the deployment's messages below; Enter on a
phase asks for the log replay from there."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Static, TabPane

from inspector.model import SampleResult, SuiteCause
from inspector.model.results.outcomes import PHASE_ORDER
from inspector.ui.safe import plain, sanitize
from inspector.ui.sample.text import cause_text
from inspector.ui.styles import colour


class ReplayRequested(Message):
    """Enter on a phase of the Deploy tab: replay the log from that phase."""

    def __init__(self, phase: str) -> None:
        super().__init__()
        self.phase = phase


class DeployTab(TabPane):
    """Deployment phases and messages of one sample."""

    def __init__(self) -> None:
        super().__init__("Deploy", classes="deploy-tab")

    def compose(self) -> ComposeResult:
        yield DataTable(cursor_type="row", classes="phases")
        with VerticalScroll():
            yield Static("", classes="deploy-detail")

    def show(self, sample: SampleResult, cause: SuiteCause | None) -> None:
        """Fill the phases table and the detail for ``sample`` (replacing what was shown)."""
        table = self.query_one(".phases", DataTable)
        table.clear(columns=True)
        table.add_columns("phase", "status", "duration", "exit", "message")
        d = sample.deployment
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
        for label, value in (("build error", sample.build_error), ("error", sample.error)):
            if value:
                t.append(f"\n{label}: ", style="bold")
                t.append(sanitize(value[:20_000]) + "\n")
        if sample.logs:
            t.append("\nlogs: " + ", ".join(f"{k.value}" for k in sample.logs)
                     + " — Enter on a phase or l replays the log", style="dim")
        if cause is not None:
            t.append_text(cause_text(self.app, sample, cause))
        for note in sample.notes:
            t.append(f"\nnote: {sanitize(note)}", style="italic dim")
        self.query_one(".deploy-detail", Static).update(t)
        self.query_one(VerticalScroll).scroll_home(animate=False)

    @on(DataTable.RowSelected, ".phases")
    def _phase_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(PHASE_ORDER):
            self.post_message(ReplayRequested(PHASE_ORDER[event.cursor_row].value))
