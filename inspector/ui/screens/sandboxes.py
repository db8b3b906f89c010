"""The deployments this app keeps warm, and other sandbox containers on the Docker engine.

Refreshed every 2 seconds. ``s`` (or Delete) stops the selected one, ``S`` stops all of this
app's deployments; stopping runs in a thread worker.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from inspector.services.deploy.warm import LiveDeployment
from inspector.ui.app_access import inspector_app
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.safe import plain
from inspector.ui.styles import colour

REFRESH_SECONDS = 2.0


def duration(seconds: float) -> str:
    """``42s``, ``3m05s``, ``1h02m``."""
    s = max(0, int(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


@dataclass(frozen=True)
class Row:
    """One line of the table: a deployment of this app's pool or a container on the engine."""

    kind: str  # "pool" | "engine"
    key: str  # sample key (pool) or container id (engine)
    backend: str
    cells: tuple[Any, ...]

    @property
    def row_key(self) -> str:
        return f"{self.kind}:{self.backend}:{self.key}"


def base_url_if_started(live: LiveDeployment) -> str:
    """The loopback URL when it needs no new port forward (local, or docker already forwarded)."""
    if live.backend == "local":
        return live.base_url()
    forward = getattr(live, "_forward", None)
    return str(getattr(forward, "base_url", "")) or "—"


class SandboxesScreen(Screen[None]):
    """Every live deployment: which sample, where, for how long; stop one or all."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("s,delete", "stop_selected", "Stop selected"),
        Binding("S", "stop_all", "Stop all"),
    ]
    DEFAULT_CSS = """
    SandboxesScreen #sb-head { height: auto; padding: 0 1; background: $boost; }
    SandboxesScreen #sb-table { height: 1fr; }
    SandboxesScreen #sb-empty { height: auto; padding: 1 2; color: $text-muted; }
    SandboxesScreen #sb-note { height: auto; padding: 0 1; color: $text-muted; }
    """

    COLUMNS = ("sample", "backend", "state", "up for", "idle for", "runs", "container",
               "base URL")

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Row] = []
        self.engine_rows: list[Row] = []
        self.engine_note = ""
        self._client: Any = None
        self._engine_checked = False
        self._scanning = False

    def compose(self) -> ComposeResult:
        yield Static("", id="sb-head")
        yield Static("", id="sb-empty")
        yield DataTable(id="sb-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="sb-note")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Sandboxes"
        self.query_one("#sb-table", DataTable).add_columns(*self.COLUMNS)
        self.refresh_rows()
        self.set_interval(REFRESH_SECONDS, self._tick)
        self._tick()
        self.query_one("#sb-table", DataTable).focus()

    def _tick(self) -> None:
        self.refresh_rows()
        if not self._scanning:
            self._scanning = True
            self._scan_engine()

    # ------------------------------------------------------------------ rows

    def _pool_rows(self) -> list[Row]:
        app = inspector_app(self)
        if not app.has_deployments:
            return []
        now = time.monotonic()
        rows = []
        for live in app.deployments().list():
            busy = live.lock.locked()
            state = Text("running tests" if busy else "idle",
                         style=colour(app, "outcome-fail" if busy else "outcome-pass"))
            cid = live.container_id
            try:
                url = base_url_if_started(live)
            except Exception:  # noqa: BLE001 - a vanished sandbox has no URL
                url = "—"
            rows.append(Row("pool", live.key, live.backend, (
                plain(live.key), live.backend, state, duration(now - live.created),
                duration(now - live.last_used), str(live.runs), cid[:12] if cid else "—",
                plain(url))))
        return rows

    def refresh_rows(self) -> None:
        """Rebuild the table from the pool and the last engine scan, keeping the cursor."""
        table = self.query_one("#sb-table", DataTable)
        pool_rows = self._pool_rows()
        ours = {r.cells[6] for r in pool_rows if r.cells[6] != "—"}
        engine = [r for r in self.engine_rows if r.key[:12] not in ours]
        rows = pool_rows + engine
        selected = self.selected()
        table.clear()
        for r in rows:
            table.add_row(*r.cells, key=r.row_key)
        self.rows = rows
        if selected is not None:
            for i, r in enumerate(rows):
                if r.row_key == selected.row_key:
                    table.move_cursor(row=i)
                    break
        empty = self.query_one("#sb-empty", Static)
        empty.display = not rows
        empty.update("Nothing is deployed. R, A or Q in a sample view deploys one; it stays "
                     "warm for re-runs and requests until it is stopped, idle for 10 "
                     "minutes, or the app quits.")
        n = len(pool_rows)
        self.query_one("#sb-head", Static).update(Text.assemble(
            ("Sandboxes", "bold"),
            f"  ·  {n} deployment{'s' if n != 1 else ''} of this app"
            + (f"  ·  {len(engine)} other sandbox container{'s' if len(engine) != 1 else ''}"
               if engine else ""),
            ("  ·  s/Delete stops the selected one, S stops all of this app's", "dim")))
        self.query_one("#sb-note", Static).update(plain(self.engine_note))

    def selected(self) -> Row | None:
        table = self.query_one("#sb-table", DataTable)
        row = table.cursor_row
        return self.rows[row] if 0 <= row < len(self.rows) and table.row_count else None

    # ------------------------------------------------------------------ engine

    @work(thread=True, exclusive=True, group="engine", exit_on_error=False)
    def _scan_engine(self) -> None:
        """Sandbox containers on the Docker engine (only when Docker is the backend in use)."""
        rows: list[Row] = []
        note = self.engine_note
        try:
            rows, note = self._engine_rows()
        except Exception as exc:  # noqa: BLE001 - the engine went away
            self._client = None
            note = f"Docker engine: {type(exc).__name__}: {exc}"
        finally:
            self._ui(self._engine_scanned, rows, note)

    def _engine_rows(self) -> tuple[list[Row], str]:
        app = inspector_app(self)
        pool_docker = app.has_deployments and any(
            d.backend == "docker" for d in app.deployments().list())
        if not pool_docker and app.resolve_backend() != "docker":
            return [], ""
        from inspector.services.sandbox.cleanup import list_sandboxes
        from inspector.services.sandbox.engine import EngineUnavailable, connect, owner_label

        if self._client is None:
            if self._engine_checked:
                return [], self.engine_note
            self._engine_checked = True
            try:
                self._client = connect(timeout=5)
            except EngineUnavailable as exc:
                return [], f"Other sandboxes are not listed: {exc}"
        me = owner_label()
        rows = []
        for info in list_sandboxes(self._client):
            whose = ("leftover" if info.leftover else "this inspector" if info.owner == me
                     else "other inspector")
            rows.append(Row("engine", info.id, "docker", (
                plain(info.sample or info.name), "docker",
                plain(f"{info.status} · {info.kind} · {whose}",
                      style=colour(app, "outcome-error" if info.leftover else "outcome-skip")),
                plain("since " + info.created.replace("T", " ")), "—", "—", info.id[:12],
                "—")))
        return rows, ""

    def _ui(self, fn: object, *args: object) -> None:
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(fn, *args)  # type: ignore[arg-type]

    def _engine_scanned(self, rows: list[Row], note: str) -> None:
        self._scanning = False
        if self not in self.app.screen_stack:
            return
        self.engine_rows, self.engine_note = rows, note
        self.refresh_rows()

    # ------------------------------------------------------------------ actions

    @refused_when_read_only(Write.SANDBOX)
    def action_stop_selected(self) -> None:
        row = self.selected()
        if row is None:
            self.notify("Nothing to stop.", severity="warning")
            return
        self.notify(f"Stopping {row.key if row.kind == 'pool' else row.key[:12]}…", timeout=3)
        self._stop(row)

    @refused_when_read_only(Write.SANDBOX)
    def action_stop_all(self) -> None:
        if not inspector_app(self).has_deployments or not inspector_app(self).deployments().list():
            self.notify("This app has no deployment running.", severity="warning")
            return
        self.notify("Stopping every deployment of this app…", timeout=3)
        self._stop(None)

    @work(thread=True, group="stop", exit_on_error=False)
    def _stop(self, row: Row | None) -> None:
        pool = inspector_app(self).deployments()
        try:
            if row is None:
                n = pool.stop_all()
                message = f"Stopped {n} deployment{'s' if n != 1 else ''}."
            elif row.kind == "pool":
                n = pool.stop(row.key, row.backend)
                message = f"Stopped {row.key}." if n else f"{row.key} was already stopped."
            else:
                from inspector.services.sandbox.cleanup import remove_container

                if self._client is None:
                    raise RuntimeError("the Docker engine is not connected")
                gone = remove_container(self._client, row.key)
                message = (f"Removed container {row.key[:12]}." if gone
                           else f"Container {row.key[:12]} was already gone.")
            self._ui(self._stopped, message, "information", row)
        except Exception as exc:  # noqa: BLE001 - shown, never crashes the app
            self._ui(self._stopped, f"Could not stop: {exc}", "error", None)

    def _stopped(self, message: str, severity: SeverityLevel, row: Row | None) -> None:
        self.notify(message, severity=severity)
        if row is not None and row.kind == "engine":
            self.engine_rows = [r for r in self.engine_rows if r.key != row.key]
        if self in self.app.screen_stack:
            self.refresh_rows()

    def action_back(self) -> None:
        self.app.pop_screen()
