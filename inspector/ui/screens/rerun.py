"""Re-run tests of one sample against a fresh or warm deployment, live.

The re-run runs in a thread worker: deployment progress and pytest output stream in as they
come, then each test's recorded and new outcome sit side by side with how they compare. ``r``
runs again on the warm deployment, ``F`` redeploys first, ``N`` runs N times for flakiness;
``b`` switches the backend (Docker or local, local only when allowed; app-wide) for the next
run; ``Esc`` cancels a running re-run, or leaves when idle.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Footer, RichLog, Static

from inspector.model import TestCase
from inspector.model.suite.testids import leaf_name
from inspector.services.deploy.warm import DeployError, Target
from inspector.services.rerun.runner import RerunReport, rerun
from inspector.services.tamper.findings import finding_line
from inspector.ui.app_access import inspector_app
from inspector.ui.backend_choice import backend_label, choose_backend
from inspector.ui.dialogs.times import TimesScreen
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.safe import plain, sanitize
from inspector.ui.styles import colour, outcome_text
from inspector.ui.widgets.progress_line import ProgressLine

if TYPE_CHECKING:
    from textual.app import App

PENDING_LINES = 2000
"""Output lines shown per refresh (10 a second) at most: a flood shows its newest lines."""


def comparison_style(app: App, comparison: str) -> str:
    """Colour of a comparison: red when worse or different, green when fixed, else neutral."""
    if comparison == "now passes":
        return f"bold {colour(app, 'outcome-pass')}"
    if comparison in ("now fails", "different error"):
        return f"bold {colour(app, 'outcome-error')}"
    if comparison == "same":
        return f"bold {colour(app, 'outcome-fail')}"
    return colour(app, "outcome-skip")


def case_text(app: App, case: TestCase | None) -> Text:
    """``failed: KeyError: 'completed'``, coloured by outcome; ``—`` when absent."""
    if case is None:
        return Text("—", style="dim")
    t = outcome_text(app, case.outcome.value)
    msg = case.first_message_line
    if msg and case.outcome.value != "passed":
        t.append(": " + sanitize(msg[:120]))
    return t


class RerunScreen(Screen[None]):
    """Deploy (or reuse) a sample, run tests, and compare with the recorded outcomes."""

    BINDINGS = [
        Binding("escape", "back", "Cancel/back"),
        Binding("r", "again(False)", "Run again"),
        Binding("F", "again(True)", "Fresh redeploy"),
        Binding("N", "flaky", "Flakiness ×N"),
        Binding("b", "backend", "Backend"),
    ]
    DEFAULT_CSS = """
    RerunScreen #rerun-head { height: auto; padding: 0 1; background: $boost; }
    RerunScreen #rerun-output { height: 1fr; min-height: 5; border: round $panel-lighten-2;
        padding: 0 1; }
    RerunScreen #rerun-failure { height: auto; display: none; margin: 0 1; padding: 0 1;
        border: thick $error; color: $error; }
    RerunScreen #rerun-failure.shown { display: block; }
    RerunScreen #rerun-results { height: auto; max-height: 50%; }
    RerunScreen #rerun-timing { height: auto; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, target: Target, test_ids: list[str], backend: str | None = None,
                 times: int = 1) -> None:
        super().__init__()
        self.target = target
        self.test_ids = list(test_ids)
        self.backend = backend
        self.times = max(1, times)
        self.report: RerunReport | None = None
        self.error: str | None = None
        self.runs_started = 0
        self.cancel: threading.Event | None = None
        # what the worker streamed since the last flush; a flood keeps only the newest lines
        self._lines: deque[tuple[str, str]] = deque(maxlen=PENDING_LINES)
        self._skipped = 0
        self._flusher: Timer | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static("", id="rerun-head")
        yield ProgressLine(id="rerun-status")
        yield RichLog(id="rerun-output", max_lines=20_000, wrap=True, markup=False,
                      highlight=False, min_width=40)
        yield Static("", id="rerun-failure")
        yield DataTable(id="rerun-results", cursor_type="row", zebra_stripes=True)
        yield Static("", id="rerun-timing")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Re-run"
        self.sub_title = self.target.key
        self._head()
        self._flusher = self.set_interval(0.1, self._flush)
        self._start(fresh=False)

    def on_unmount(self) -> None:
        if self.cancel is not None:
            self.cancel.set()

    @property
    def running(self) -> bool:
        return self.cancel is not None

    def _head(self) -> None:
        t = Text()
        t.append("Re-run ", style="bold")
        t.append(sanitize(self.target.key), style="bold")
        t.append(f"  ·  {backend_label(inspector_app(self), self.backend)}", style="dim")
        n = len(self.test_ids)
        t.append(f"  ·  {n} test{'s' if n != 1 else ''}"
                 + (f" × {self.times} runs" if self.times > 1 else ""), style="dim")
        t.append("\n" + ", ".join(sanitize(leaf_name(i)) for i in self.test_ids[:8])
                 + (f" … (+{n - 8})" if n > 8 else ""))
        self.query_one("#rerun-head", Static).update(t)

    def _head_if_shown(self) -> None:
        if self.shown:
            self._head()

    # ------------------------------------------------------------------ running

    def _start(self, fresh: bool) -> None:
        if self.running:
            self.notify("A re-run is already running (Esc cancels it).", severity="warning")
            return
        self.runs_started += 1
        self.report = None
        self.error = None
        self.cancel = threading.Event()
        inspector_app(self).track_cancel(self.cancel)
        out = self.query_one("#rerun-output", RichLog)
        if self.runs_started > 1:
            out.write(Text(f"── run {self.runs_started}"
                           + (" (fresh deployment)" if fresh else "")
                           + (f", {self.times} times" if self.times > 1 else "") + " ──",
                           style="bold"))
        self.query_one("#rerun-failure", Static).remove_class("shown")
        self.query_one("#rerun-results", DataTable).clear(columns=True)
        self.query_one("#rerun-timing", Static).update("")
        self._head()
        self.query_one(ProgressLine).start(
            "redeploying from scratch" if fresh else "preparing the deployment")
        self._run(self.cancel, fresh, self.times)

    @work(thread=True, exclusive=True, group="rerun", exit_on_error=False)
    def _run(self, cancel: threading.Event, fresh: bool, times: int) -> None:
        app = inspector_app(self)
        report: RerunReport | None = None
        error: str | None = None
        try:
            backend = self.backend or app.resolve_backend()
            if backend != self.backend:
                self.backend = backend
                self._ui(self._head_if_shown)
            report = rerun(app.deployments(), self.target, self.test_ids,
                           backend, times=times, on_line=self._on_line,
                           say=lambda m: self._ui(self._say, m), cancel=cancel, fresh=fresh)
            if app.exiting:
                app.deployments().stop(self.target.key, backend)
        except DeployError as exc:
            error = str(exc)
        except Exception as exc:  # noqa: BLE001 - shown, never crashes the app
            error = f"{type(exc).__name__}: {exc}"
        finally:
            app.track_cancel(cancel, False)
        self._ui(self._finished, cancel, report, error)

    def _ui(self, fn: object, *args: object) -> None:
        """Run ``fn`` on the event loop; a no-op once the app has gone."""
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(fn, *args)  # type: ignore[arg-type]

    def _on_line(self, stream: str, text: str) -> None:
        if len(self._lines) == PENDING_LINES:
            self._skipped += 1
        self._lines.append((stream, text))

    @property
    def shown(self) -> bool:
        """Still on the screen stack (the worker may finish after the screen was closed)."""
        return self in self.app.screen_stack

    def _say(self, message: str) -> None:
        if not self.shown:
            return
        self.query_one(ProgressLine).say(message)
        self.query_one("#rerun-output", RichLog).write(Text(f"» {sanitize(message)}",
                                                            style="italic dim"))

    def _flush(self) -> None:
        if not self._lines:
            return
        out = self.query_one("#rerun-output", RichLog)
        skipped, self._skipped = self._skipped, 0
        if skipped:
            out.write(Text(f"… {skipped:,} lines not shown here (too many at once; the test "
                           "log has them)", style="italic dim"))
        while self._lines:
            stream, text = self._lines.popleft()
            clean = sanitize(text.rstrip("\n"))
            out.write(Text(clean, style="dim") if stream == "err" else Text(clean))

    def _finished(self, cancel: threading.Event, report: RerunReport | None,
                  error: str | None) -> None:
        if self.cancel is cancel:
            self.cancel = None
        if not self.shown:
            return
        self._flush()
        self.report, self.error = report, error
        status = self.query_one(ProgressLine)
        bad = colour(self.app, "outcome-error")
        failure = self.query_one("#rerun-failure", Static)
        if error is not None:
            status.stop(Text("Could not re-run", style=f"bold {bad}"))
            failure.update(Text(f"Could not deploy: {sanitize(error)}"))
            failure.add_class("shown")
            return
        assert report is not None
        if not report.deployed:
            status.stop(Text("Not deployed" + (" (cancelled)" if cancel.is_set() else ""),
                             style=f"bold {bad}"))
            phase = report.deploy_phase or "deploy"
            t = (Text(f"Deployment cancelled during {phase} ({sanitize(report.deploy_failure)})",
                      style="bold") if cancel.is_set() else
                 Text(f"Could not deploy ({phase}): {sanitize(report.deploy_failure)}",
                      style="bold"))
            if report.workdir is not None:
                t.append(sanitize(f"\nlogs: {report.workdir / 'logs'}"), style="")
            failure.update(t)
            failure.add_class("shown")
            self._timing(report)
            return
        self._fill(report)
        self._timing(report)
        if report.cancelled or (cancel.is_set() and not report.attempts):
            status.stop(Text("Cancelled", style=f"bold {colour(self.app, 'outcome-fail')}"))
        else:
            ok = report.exit_code == 0
            style = colour(self.app, "outcome-pass" if ok else "outcome-fail")
            status.stop(Text("All selected tests pass" if ok else "Some tests still fail",
                             style=f"bold {style}"))
        self.query_one("#rerun-results", DataTable).focus()

    def _fill(self, report: RerunReport) -> None:
        table = self.query_one("#rerun-results", DataTable)
        table.clear(columns=True)
        flaky = len(report.attempts) > 1
        table.add_columns("test", "recorded", "now", "comparison",
                          *(["flakiness"] if flaky else []))
        counts = report.failure_counts()
        for tid, old, new, comparison in report.results():
            row: list[object] = [plain(tid), case_text(self.app, old),
                                 case_text(self.app, new),
                                 Text(comparison, style=comparison_style(self.app, comparison))]
            if flaky:
                f, n = counts.get(tid, (0, 0))
                style = colour(self.app, "outcome-error" if 0 < f < n else "outcome-skip")
                row.append(Text(f"failed {f} of {n} ({f / n:.0%})" if n else "not run",
                                style=style))
            table.add_row(*row, key=tid)

    def _timing(self, report: RerunReport) -> None:
        a = report.attempts
        tests = sum(x.seconds for x in a)
        per = ("no tests run" if not a else f"tests {tests:.1f}s" if len(a) == 1
               else f"tests {tests / len(a):.1f}s per run × {len(a)}")
        t = Text(f"{'warm' if report.reused else 'cold'} {report.backend}: "
                 f"deploy {report.deploy_seconds:.1f}s, {per}, total {report.seconds:.1f}s")
        if report.workdir is not None:
            t.append(sanitize(f"  ·  logs: {report.workdir / 'logs'}"), style="dim")
        for f in report.all_tampering():
            t.append("\n⚠ tampering attempt: ", style=f"bold {colour(self.app, 'outcome-error')}"
                     if f.deliberate else "bold")
            t.append(finding_line(f, 300))
        t.append("\nr run again (warm) · F fresh redeploy · N flakiness check · b backend · "
                 "Esc back",
                 style="dim")
        self.query_one("#rerun-timing", Static).update(t)

    # ------------------------------------------------------------------ actions

    def action_back(self) -> None:
        if self.cancel is not None:
            if not self.cancel.is_set():
                self.cancel.set()
                self.query_one(ProgressLine).say("cancelling…")
            else:
                self.notify("Still cancelling: waiting for the deployment to stop.")
            return
        self.app.pop_screen()

    def action_backend(self) -> None:
        """Switch between Docker and local for the next run (app-wide; local only when
        allowed)."""
        if self.running:
            self.notify("A re-run is running: the backend changes once it is done.",
                        severity="warning")
            return
        chosen = choose_backend(self, self.backend)
        if chosen is not None:
            self.backend = chosen
        self._head()

    @refused_when_read_only(Write.RERUN)
    def action_again(self, fresh: bool) -> None:
        self.times = 1
        self._start(fresh=fresh)

    @refused_when_read_only(Write.RERUN)
    def action_flaky(self) -> None:
        if self.running:
            self.notify("A re-run is already running (Esc cancels it).", severity="warning")
            return

        def chosen(n: int | None) -> None:
            if n is not None:
                self.times = n
                self._start(fresh=False)

        self.app.push_screen(TimesScreen(5), chosen)
