"""The Endpoints tab: the endpoints strict AC was computed over, whether the repo implements
each (and where), and the golden tests that call it. Filled when first shown; the tests per
endpoint arrive later (a worker reads the golden suite)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import DataTable, Static, TabPane

from inspector.model import Endpoint, SampleResult
from inspector.model.suite.testids import leaf_name
from inspector.ui.safe import plain, sanitize
from inspector.ui.styles import colour


class EndpointsTab(TabPane):
    """Endpoints table and the highlighted endpoint's detail."""

    def __init__(self) -> None:
        super().__init__("Endpoints [e]", id="endpoints-tab")
        self.endpoints: list[Endpoint] = []
        self.tests: dict[str, list[Any]] = {}
        self._sample: SampleResult | None = None
        self._stale = False

    def compose(self) -> ComposeResult:
        yield DataTable(id="endpoints", cursor_type="row", zebra_stripes=True)
        yield Static("", id="endpoint-detail")

    def on_mount(self) -> None:
        self.query_one("#endpoints", DataTable).add_columns(
            "method", "path", "implemented", "handler", "tests")

    def set_endpoints(self, sample: SampleResult | None, endpoints: list[Endpoint],
                      tests: dict[str, list[Any]]) -> None:
        """Show these endpoints: the table is filled by ``fill`` (when the tab is shown) or
        on first use; ``sample`` None empties it at once (loading: nothing stale may show)."""
        self._sample, self.endpoints, self.tests = sample, endpoints, tests
        self._stale = True
        if sample is None:
            self.fill()

    def set_tests(self, tests: dict[str, list[Any]]) -> None:
        """The golden tests per endpoint, once read."""
        self.tests = tests
        if not self._stale:  # already shown: refresh the counts, keep the cursor
            row = self.query_one("#endpoints", DataTable).cursor_row
            self.fill()
            self.query_one("#endpoints", DataTable).move_cursor(row=row)

    def fill_if_stale(self) -> None:
        if self._stale:
            self.fill()

    def fill(self) -> None:
        """(Re)fill the table and detail from the endpoints set last."""
        self._stale = False
        table = self.query_one("#endpoints", DataTable)
        table.clear()
        ok, bad = colour(self.app, "outcome-pass"), colour(self.app, "outcome-deploy")
        for ep in self.endpoints:
            cov = self.coverage(ep)
            implemented = cov.implemented if cov else None
            handler = f"{cov.evidence[0].file}:{cov.evidence[0].line}" if cov and \
                cov.evidence else "—"
            n_tests = len(self.tests.get(ep.key, []))
            if cov is not None and cov.unresolved:
                verdict = Text("? unresolved", style="dim")
            elif implemented:
                verdict = Text("✔ yes", style=ok)
            else:
                verdict = Text("✘ no", style=bad) if implemented is False else Text("?")
            table.add_row(plain(ep.method), plain(ep.path), verdict,
                          plain(handler), str(n_tests) if n_tests else "—")
        self._moved()

    def coverage(self, ep: Endpoint) -> Any:
        """The sample's coverage record of ``ep``, or None."""
        cov = self._sample.api_coverage if self._sample else None
        if cov is None or not cov.endpoints:
            return None
        return next((c for c in cov.endpoints if c.method == ep.method and c.path == ep.path),
                    None)

    def current(self) -> Endpoint | None:
        """The endpoint under the cursor."""
        if self._stale:
            self.fill()
        row = self.query_one("#endpoints", DataTable).cursor_row
        return self.endpoints[row] if 0 <= row < len(self.endpoints) else None

    @on(DataTable.RowHighlighted, "#endpoints")
    def _moved(self) -> None:
        ep = self.current()
        box = self.query_one("#endpoint-detail", Static)
        if ep is None:
            box.update("This task lists no endpoints." if self._sample else "")
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
        cov = self.coverage(ep)
        if cov is not None and cov.unresolved:
            t.append(f"\nunresolved: {sanitize(cov.unresolved)} (left out of strict AC)",
                     style="bold")
        for ev in (cov.evidence if cov else ())[:3]:
            t.append(f"\nhandler {sanitize(ev.file)}:{ev.line}  ", style="dim")
            t.append(sanitize(ev.text[:100]))
            if ev.note:
                t.append(f"\n  {sanitize(ev.note[:160])}", style="dim")
        tests = self.tests.get(ep.key, [])
        if tests:
            t.append(f"\n{len(tests)} test(s): " + ", ".join(
                sanitize(leaf_name(r.test_id)) for r in tests[:5]), style="dim")
        t.append("\nEnter: open handler   T: tests that hit it", style="dim")
        box.update(t)
