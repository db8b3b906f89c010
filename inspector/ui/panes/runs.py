"""The runs tab: the runs overview with its filter box, the highlighted run's figures and the
problems found while loading."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from rich.text import Text
from textual import on
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from inspector.model.entries import RunEntry
from inspector.services.catalog import Catalog
from inspector.ui.messages import ShowRunSamples
from inspector.ui.panes.lazy import LazyPane
from inspector.ui.safe import plain, sanitize
from inspector.ui.styles import colour, pct
from inspector.ui.widgets.runs_table import RunsTable


class RunsPane(LazyPane):
    """Runs overview; Enter posts :class:`ShowRunSamples` for the highlighted run."""

    DEFAULT_CSS = """
    RunsPane #runs-table { height: 1fr; }
    RunsPane #run-detail { height: auto; max-height: 12; padding: 0 1;
        border-top: solid $panel-lighten-2; }
    RunsPane #problems { height: auto; max-height: 6; padding: 0 1; color: $warning; }
    """

    def __init__(self, catalog: Catalog, display_path: Callable[[Path | str | None], str],
                 *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.catalog = catalog
        self.display_path = display_path

    def build(self) -> Iterable[Widget]:
        yield Input(placeholder="filter runs by agent, model, language…  (/)", id="runs-filter")
        yield RunsTable(id="runs-table")
        yield Static("", id="run-detail")
        yield Static("", id="problems")

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

    def focus_main(self) -> None:
        self.table.focus()

    def focus_filter(self) -> None:
        self.query_one("#runs-filter", Input).focus()

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
        self.query_one("#run-detail", Static).update(self._detail(run) if run else "")

    def _detail(self, r: RunEntry) -> Text:
        m = r.metrics
        t = Text()
        t.append(f"{sanitize(r.run_id)}\n", style="bold")
        kind = "RepoGenesis report" if r.format == "repogenesis" else "Genesis Inspector run"
        t.append(sanitize(f"{r.agent} · {r.model} · {r.language} · {kind}"
                          f"{' · ' + r.status if r.status else ''}\n"))
        source = self.display_path(r.source_path)
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
    def _selected(self) -> None:
        run = self.table.current()
        if run is not None:
            self.post_message(ShowRunSamples(run.key))
