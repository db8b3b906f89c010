"""The runs tab: the runs overview with its filter box, the highlighted run's live progress
while it is evaluated, its figures and the problems found while loading."""

from __future__ import annotations

import os
import platform
import socket
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from inspector.model.results.entries import RunEntry
from inspector.model.results.unreadable import figures_basis, unreadable_line
from inspector.model.runs.progress import RunProgress, load_progress
from inspector.model.untrusted.errors import LoadError
from inspector.services.catalog.index import Catalog
from inspector.ui.focus import focus_now
from inspector.ui.messages import ShowRunSamples
from inspector.ui.panes.lazy import LazyPane
from inspector.ui.safe import plain, sanitize
from inspector.ui.styles import colour, pct
from inspector.ui.widgets.run_progress import RunProgressPanel
from inspector.ui.widgets.runs_table import RunsTable

POLL_SECONDS = 1.0
SHORT_LINES = 30
"""A terminal of fewer lines gives the run's detail and the problems less room (they
scroll), so the runs table keeps a few rows."""


def unreadable_banner(t: Text, m: dict, style: str) -> None:
    """Append the banner of a run some of whose files could not be read: over how many
    samples its figures are, and each file with its whole reason."""
    bad = m.get("unreadable_samples") or []
    if not bad:
        return
    basis = figures_basis(m.get("samples", 0), bad)
    t.append(f"⚠ {len(bad)} unreadable file(s): figures are {basis}\n"
             if not basis.startswith("no figures") else f"⚠ {basis}\n", style=f"bold {style}")
    for u in bad:
        t.append(f"  {sanitize(unreadable_line(u))}\n", style=style)


class RunsPane(LazyPane):
    """Runs overview; Enter posts :class:`ShowRunSamples` for the highlighted run; ``f``
    shows a run's stock-layout twin (the same evaluation in another format) and back."""

    BINDINGS = [Binding("f", "toggle_format", "Stock twin", show=False)]

    DEFAULT_CSS = """
    RunsPane #runs-table { height: 1fr; }
    RunsPane #run-progress { display: none; }
    RunsPane #run-progress.-shown { display: block; }
    RunsPane #run-detail { height: auto; max-height: 12; padding: 0 1; overflow-y: auto;
        border-top: solid $panel-lighten-2; }
    RunsPane #problems { height: auto; max-height: 6; padding: 0 1; color: $warning;
        overflow-y: auto; }
    RunsPane.-short #run-detail { max-height: 7; }
    RunsPane.-short #problems { max-height: 2; }
    """

    def __init__(self, catalog: Catalog, display_path: Callable[[Path | str | None], str],
                 *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.catalog = catalog
        self.display_path = display_path
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)
        """The time the progress panel measures ages against (tests fix it)."""
        self._progress_key: str | None = None  # the run whose progress is watched
        self._progress_live = False  # shown because the run is being evaluated
        self._poller: Timer | None = None
        self.twin_shown: set[str] = set()  # runs whose stock twin the detail shows

    def build(self) -> Iterable[Widget]:
        yield Input(placeholder="filter runs by agent, model, language…  (/)", id="runs-filter")
        yield RunsTable(id="runs-table")
        yield RunProgressPanel(id="run-progress")
        yield Static("", id="run-detail")
        yield Static("", id="problems")

    def on_resize(self) -> None:
        self.set_class(self.app.size.height < SHORT_LINES, "-short")

    def compose(self) -> Iterable[Widget]:  # shown first: not lazy
        self.built = True
        yield from self.build()

    @property
    def table(self) -> RunsTable:
        return self.query_one(RunsTable)

    def current(self) -> RunEntry | None:
        """The highlighted run."""
        return self.table.current()

    def set_runs(self, runs: list[RunEntry], root_label: str) -> None:
        """Show ``runs`` (and, with none, what to do)."""
        self.table.set_runs(runs)
        self._watch_progress(self.table.current())  # a run's status may have changed
        if not runs:
            self.query_one("#run-detail", Static).update(plain(
                f"No runs found under {root_label}. "
                "Point the inspector at a run folder, a RepoGenesis output folder or a folder "
                "holding them: inspector PATH"))

    def show_problems(self) -> None:
        """Where the tasks were found and the first problems met while loading."""
        issues = self.catalog.issues()
        found = self.catalog.tasks_found
        where = found.describe(self.display_path) if found else "tasks: none found"
        lines = [where] + [f"{i.severity}: {i}" for i in issues[:4]]
        if len(issues) > 4:
            lines.append(f"… and {len(issues) - 4} more problems "
                         "(inspector summary PATH lists them)")
        self.query_one("#problems", Static).update(plain("\n".join(lines)))

    def main_widget(self) -> Widget | None:
        return self.table

    def focus_filter(self) -> None:
        focus_now(self.query_one("#runs-filter", Input))

    def select_run(self, key: str) -> None:
        """Clear the filter and put the cursor on run ``key``."""
        self.query_one("#runs-filter", Input).value = ""
        self.table.set_filter("")
        self.table.select_key(key)

    @on(Input.Changed, "#runs-filter")
    def _filter(self, event: Input.Changed) -> None:
        self.table.set_filter(event.value)

    @on(Input.Submitted, "#runs-filter")
    def _filter_done(self) -> None:
        self.table.focus()

    @on(DataTable.RowHighlighted, "#runs-table")
    def _highlighted(self) -> None:
        run = self.table.current()
        self._show_detail(run)
        self._watch_progress(run)

    def _show_detail(self, run: RunEntry | None) -> None:
        twin = None
        if run is not None and run.twins and run.key in self.twin_shown:
            twin = self.catalog.run(run.twins[0][0])
        self.query_one("#run-detail", Static).update(
            self._detail(twin, of=run) if twin and run else self._detail(run) if run else "")

    def action_toggle_format(self) -> None:
        """Show the highlighted run's stock-layout twin in the detail, or the run again."""
        run = self.table.current()
        if run is None or not run.twins:
            self.notify("This run has no copy in the stock layout.", timeout=3)
            return
        self.twin_shown ^= {run.key}
        self._show_detail(run)

    def _detail(self, r: RunEntry, of: RunEntry | None = None) -> Text:
        m = r.metrics
        t = Text()
        t.append(f"{sanitize(r.run_id)}\n", style="bold")
        if of is not None:
            t.append(sanitize(f"stock twin: {of.run_id} in the stock layout (linked by "
                              f"{r.twin_how}; counted once, as {of.run_id})  "
                              "f: back to ours\n"),
                     style=f"bold {colour(self.app, 'health-suspect')}")
        kind = "RepoGenesis report" if r.format == "repogenesis" else "Genesis Inspector run"
        status = r.status or ""
        if m.get("unreadable"):  # never "complete" while files of it cannot be read
            status = f"{status + ', ' if status else ''}{m['unreadable']} file(s) unreadable"
        t.append(sanitize(f"{r.agent} · {r.model} · {r.language} · {kind}"
                          f"{' · ' + status if status else ''}\n"))
        source = self.display_path(r.source_path)
        t.append(sanitize(f"source: {source}{' · ' + r.harness if r.harness else ''}\n"),
                 style="dim")
        unreadable_banner(t, m, colour(self.app, "health-suspect"))
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
        n_e = m.get("not_evaluable") or 0
        if n_e:
            kinds: dict[str, int] = {}
            for row in m.get("not_evaluable_samples") or ():
                kinds[str(row.get("kind"))] = kinds.get(str(row.get("kind")), 0) + 1
            per = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
            t.append(sanitize(f"{n_e} of {m.get('samples_total', n_e)} samples not evaluable "
                              f"({per}): the infrastructure, not the agent; in no figure "
                              "above (`inspector summary` lists why)\n"),
                     style=f"bold {colour(self.app, 'health-suspect')}")
        for warning in m.get("summary_warnings") or ():
            t.append(f"⚠ {sanitize(warning)}\n",
                     style=f"bold {colour(self.app, 'health-suspect')}")
        for note in r.notes:
            t.append(f"note: {sanitize(note)}\n", style="italic dim")
        ci = _intervals(m)
        if ci:
            t.append(ci + "\n")
        for _, where in r.twins:
            t.append(sanitize(f"stock twin: also in the stock layout at "
                              f"{self.display_path(where)}  f: show it\n"), style="italic")
        t.append("Enter: this run's samples   s: sort   /: filter", style="dim")
        return t

    @on(DataTable.RowSelected, "#runs-table")
    def _selected(self) -> None:
        run = self.table.current()
        if run is not None:
            self.post_message(ShowRunSamples(run.key))

    # ------------------------------------------------------------------ live progress

    @property
    def progress_panel(self) -> RunProgressPanel:
        return self.query_one(RunProgressPanel)

    @property
    def polling(self) -> bool:
        """Whether the highlighted run's progress file is being re-read every second."""
        return self._poller is not None

    def _watch_progress(self, run: RunEntry | None) -> None:
        """Show the live progress of ``run`` (the highlighted one) while it is evaluated:
        its ``run.json`` says running, or its progress file does (read in a thread)."""
        if run is None or run.format != "genesis-inspector":
            self._hide_progress()
            return
        if run.key != self._progress_key:
            self._hide_progress()
            self._progress_key = run.key
            if run.status == "running":
                self._show_progress_panel()
                self.progress_panel.show_message("Reading this run's progress…")
        elif run.status == "running" and self._poller is None:
            self._show_progress_panel()  # evaluated again (a resume): watch once more
        self._read_progress()

    def _show_progress_panel(self) -> None:
        self._progress_live = True
        self.progress_panel.add_class("-shown")
        if self._poller is None:
            self._poller = self.set_interval(POLL_SECONDS, self._tick)

    def _stop_polling(self) -> None:
        if self._poller is not None:
            self._poller.stop()
            self._poller = None

    def _hide_progress(self) -> None:
        self._stop_polling()
        self._progress_key = None
        self._progress_live = False
        self.progress_panel.remove_class("-shown")
        self.workers.cancel_group(self, "run-progress")

    def _tick(self) -> None:
        """Re-read the file, unless the runs tab is out of sight (another tab or screen)."""
        if self.screen.is_current and self.region:
            self._read_progress()

    def _read_progress(self) -> None:
        run = self.table.current()
        if run is None or run.key != self._progress_key:
            return
        self.run_worker(lambda: self._load_progress(run), thread=True, exclusive=True,
                        group="run-progress", exit_on_error=False)

    def _load_progress(self, run: RunEntry) -> None:
        """(thread) Read the run's progress file and check its driver's process."""
        src = run.source_path
        run_dir = src.parent if src.suffix == ".json" else src
        alive: bool | None = None
        try:
            progress: RunProgress | LoadError | None = load_progress(run_dir)
        except LoadError as exc:
            progress = exc
        if isinstance(progress, RunProgress) and not progress.finished:
            alive = driver_alive(progress.driver_host, progress.driver_pid)
        self.app.call_from_thread(self._progress_read, run, progress, alive)

    def _progress_read(self, run: RunEntry, progress: RunProgress | LoadError | None,
                       alive: bool | None) -> None:
        if run.key != self._progress_key:
            return  # another run was highlighted meanwhile
        panel = self.progress_panel
        running = run.status == "running"
        if isinstance(progress, LoadError):
            if running or self._progress_live:
                self._show_progress_panel()
                issue = progress.issue  # its one line, the path as the app shows paths
                where = self.display_path(issue.path) + (
                    f": field '{issue.field}'" if issue.field else "")
                panel.show_message(f"Progress unavailable: {where}: {issue.message}",
                                   problem=True)
            return
        if progress is None:
            if running:
                panel.show_message("This run is marked running but has no progress file "
                                   "yet (or its evaluation wrote none).")
            else:
                self._hide_progress()
            return
        if not progress.finished:
            self._show_progress_panel()
        elif not (running or self._progress_live):
            self._hide_progress()  # a finished run highlighted afresh: nothing live
            return
        panel.show_progress(progress, self.clock(), alive)
        if progress.finished:
            self._stop_polling()


def _intervals(m: dict) -> str:
    """The run's 95% intervals in one line ("" for an index row from before they existed)."""
    from inspector.model.figures.stats import Interval

    parts = []
    for name, key in (("pass@1", "pass_at_1_ci"), ("test pass", "test_pass_ci")):
        d = m.get(key)
        if isinstance(d, dict):
            try:
                parts.append(f"{name} {Interval(**d).describe()}")
            except TypeError:
                continue
    return "; ".join(parts)


def driver_alive(host: str, pid: int) -> bool | None:
    """Whether the evaluation's driver process still runs; ``None`` when it runs on another
    machine (or names no process) and cannot be checked from here."""
    if pid <= 0 or host not in {socket.gethostname(), platform.node()}:
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie has ended; only its parent has not collected it yet
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True
