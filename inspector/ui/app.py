"""The Genesis Inspector app: wires the catalog, themes, file watcher and screens together."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import App
from textual.binding import Binding
from textual.content import Content
from textual.worker import get_current_worker

from inspector import paths
from inspector.config import ConfigError, Settings, save_setting
from inspector.model.results.filters import LabelState, no_labels
from inspector.services.catalog.index import Catalog
from inspector.services.serve.command import EXPOSED_ENV, EXPOSED_TEXT
from inspector.ui.commands import InspectorCommands
from inspector.ui.messages import (
    CatalogProgress,
    CatalogUpdated,
    DiskChanged,
    LabelsChanged,
    OpenSample,
)
from inspector.ui.read_only import MARKER
from inspector.ui.safe import SafeTextApp
from inspector.ui.screens.main import MainScreen
from inspector.ui.styles import SEMANTIC_DEFAULTS
from inspector.ui.themes import install_themes

if TYPE_CHECKING:
    from inspector.model.results.entries import SampleEntry
    from inspector.services.catalog.watcher import RunsWatcher
    from inspector.services.deploy.warm import DeploymentPool
    from inspector.services.labels.session import LabelSession


class InspectorApp(SafeTextApp, App[None]):
    """Browse runs, tasks and generated repositories of RepoGenesis-style evaluations."""

    TITLE = "Genesis Inspector"
    COMMANDS = App.COMMANDS | {InspectorCommands}
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("ctrl+r", "reindex", "Reload", show=False),
        Binding("ctrl+t", "next_theme", "Theme", show=False),
        Binding("ctrl+d", "sandboxes", "Sandboxes", show=False),
    ]

    def __init__(self, root: Path, *, settings: Settings | None = None,
                 theme: str | None = None, db_path: Path | None = None, watch: bool = True,
                 label_state: LabelState | None = None, annotator: str | None = None,
                 blind: bool | None = None, labels_dir: Path | None = None,
                 read_only: bool = False, allow_local_exec: bool = False) -> None:
        self.settings = settings or Settings()
        self.local_exec_flag = allow_local_exec
        """Started with ``--allow-local-exec``: the local backend may be chosen."""
        if allow_local_exec:
            self.settings.allow_local_exec = True
        self.read_only = read_only
        """No re-runs, requests, label writes, exports or sandbox stops (:mod:`.read_only`)."""
        self.exposed = os.environ.get(EXPOSED_ENV) == "1"
        """Served beyond loopback with writes allowed (``inspector serve --allow-writes``)."""
        self.root = root.expanduser()
        self.catalog = Catalog(self.root, db_path)
        self.watch_disk = watch
        self.watcher: RunsWatcher | None = None
        self.labels: LabelSession | None = None
        """The annotator's labelling session (``None`` when the labels folder is unusable)."""
        self.label_problems: list[str] = []
        self._open_labels(annotator, blind, labels_dir)
        self.label_state: LabelState = label_state or (
            self.labels.state if self.labels is not None else no_labels)
        self.theme_failures: list[tuple[Path, str]] = []
        self._persist_theme = False
        self.rerun_backend: str | None = None
        """``docker`` or ``local`` to override the backend re-runs and requests deploy on."""
        self._default_backend: str | None = None
        self._pool: DeploymentPool | None = None
        self._pool_guard = threading.Lock()
        self._cancels: set[threading.Event] = set()
        self.exiting = False
        super().__init__()
        self.theme_failures = install_themes(self, theme or self.settings.theme)
        self.main_screen = MainScreen()

    def _open_labels(self, annotator: str | None, blind: bool | None,
                     labels_dir: Path | None) -> None:
        from inspector.services.labels.session import LabelSession
        from inspector.services.labels.store import default_annotator, find_labels_dir

        name = annotator or self.settings.annotator or default_annotator()
        folder = labels_dir or find_labels_dir(self.root)
        try:
            self.labels = LabelSession(
                folder, name, self.settings.blind_labels if blind is None else blind,
                read_only=self.read_only)
        except (ValueError, OSError) as exc:
            self.label_problems.append(f"Labelling is off: {exc}")
            return
        self.label_problems.extend(self.labels.problems)

    # ------------------------------------------------------------------ helpers for screens

    @property
    def root_label(self) -> str:
        """How the root folder is named on screen (short, stable across machines)."""
        try:
            if self.root.resolve() == paths.sample_runs().resolve():
                return "bundled sample_runs"
        except OSError:
            pass
        return str(self.root)

    def display_path(self, p: Path | str | None) -> str:
        """A path as shown: relative to the root folder when inside it."""
        if p is None:
            return "—"
        p = Path(p)
        for base in (self.root, self.root.parent):
            try:
                return p.resolve().relative_to(base.resolve()).as_posix()
            except (ValueError, OSError):
                continue
        return str(p)

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's title; a read-only or exposed session says so on every screen."""
        shown = super().format_title(title, sub_title)
        if self.exposed:  # first: a long title never elides it
            shown = Content.assemble((f" {EXPOSED_TEXT} ", "reverse bold $error"), ("  ", ""),
                                     shown)
        if not self.read_only:
            return shown
        return Content.assemble(shown, ("  ", ""), (f" {MARKER} ", "reverse bold"))

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **SEMANTIC_DEFAULTS}

    # ------------------------------------------------------------------ lifecycle

    def on_mount(self) -> None:
        self.push_screen(self.main_screen)
        for path, error in self.theme_failures:
            self.notify(f"{path}: {error}", title="Theme not loaded", severity="warning",
                        timeout=8)
        for problem in self.label_problems:
            self.notify(problem, title="Labels", severity="error", timeout=15)
        if not self.catalog.is_empty:
            self.main_screen.post_message(CatalogUpdated(None, first=True))
        self.refresh_catalog()  # the problems line of the first screen needs its tasks folder
        if self.watch_disk:  # not needed for the first screen: after it is painted
            self.call_after_refresh(self.start_watching)
        self._persist_theme = not self.read_only  # a read-only session writes no config
        if self.read_only:
            self.notify("Read-only session: browsing only (no re-runs, requests, label "
                        "writes, exports or sandbox stops).", title="Read-only", timeout=6)

    def on_unmount(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
        if self.labels is not None:
            self.labels.close()  # every label keystroke is on disk before we go
        self.exiting = True
        for cancel in list(self._cancels):
            cancel.set()
        pool = self._pool
        if pool is not None:  # tear down in a thread; wait a little so nothing outlives us
            closer = threading.Thread(target=pool.close, name="close-deployments", daemon=True)
            closer.start()
            closer.join(timeout=20)

    # ------------------------------------------------------------------ deployments

    def deployments(self) -> DeploymentPool:
        """The app's pool of warm deployments (created on first use, closed on exit)."""
        with self._pool_guard:
            if self._pool is None:
                from inspector.services.deploy.choose import backend_factory
                from inspector.services.deploy.warm import DeploymentPool

                self._pool = DeploymentPool(backend_factory(
                    self.settings.allow_local_exec,
                    any_source=self.settings.allow_any_package_source))
            return self._pool

    @property
    def has_deployments(self) -> bool:
        """True when the pool exists (something was deployed or asked for)."""
        return self._pool is not None

    def resolve_backend(self) -> str:
        """The backend to deploy on: :attr:`rerun_backend`, else the default (Docker when an
        engine answers). Blocks on the first call: call it from a thread worker."""
        if self.rerun_backend:
            return self.rerun_backend
        with self._pool_guard:
            if self._default_backend is None:
                from inspector.services.deploy.choose import default_backend

                self._default_backend = default_backend(self.settings.allow_local_exec)
            return self._default_backend

    def track_cancel(self, cancel: threading.Event, track: bool = True) -> None:
        """Remember (or forget) a running operation's cancel flag; all are set on exit."""
        if track:
            self._cancels.add(cancel)
            if self.exiting:
                cancel.set()
        else:
            self._cancels.discard(cancel)

    async def action_quit(self) -> None:
        """Quit; running deployments are stopped first (in a thread, with a notice)."""
        pool = self._pool
        if pool is None or not pool.list() or self.exiting:
            self.exit()
            return
        self.exiting = True
        for cancel in list(self._cancels):
            cancel.set()
        n = len(pool.list())
        self.notify(f"Stopping {n} deployment{'s' if n != 1 else ''} before quitting…",
                    timeout=10)
        self._close_then_exit(pool)

    @work(thread=True, exclusive=True, group="shutdown")
    def _close_then_exit(self, pool: DeploymentPool) -> None:
        try:
            pool.close()
        finally:
            self.call_from_thread(self.exit)

    def action_sandboxes(self) -> None:
        from inspector.ui.screens.sandboxes import SandboxesScreen

        if not isinstance(self.screen, SandboxesScreen):
            self.push_screen(SandboxesScreen())

    @work(thread=True, exclusive=True, group="watch")
    def start_watching(self) -> None:
        """Watch the root for runs appearing or changing (a benchmark in progress)."""
        from inspector.services.catalog.watcher import RunsWatcher

        if self.exiting:
            return
        self.watcher = RunsWatcher(self.root, lambda: self.post_message(DiskChanged()))
        mode = self.watcher.start()
        if mode == "off":
            self.notify(f"Live updates are off: {self.watcher.error}", severity="warning")

    def on_disk_changed(self, message: DiskChanged) -> None:
        self.refresh_catalog()
        if self.labels is not None:
            self.reload_labels()

    @work(thread=True, exclusive=True, group="labels-reload")
    def reload_labels(self) -> None:
        """Re-read the label files (another inspector, or git, changed them)."""
        assert self.labels is not None
        self.labels.reload()
        self.post_message(LabelsChanged(""))

    def on_labels_changed(self, message: LabelsChanged) -> None:
        if self.main_screen.is_mounted:
            self.main_screen.labels_changed()

    def label_queue(self, entries: list[SampleEntry], start: int = 0) -> None:
        """Open the review queue over ``entries`` (their failing samples), at ``start``."""
        from inspector.ui.screens.labelling import LabelScreen

        if self.labels is None:
            self.notify("Labelling is off: " + "; ".join(self.label_problems),
                        severity="error", timeout=10)
            return
        from inspector.services.labels.queue import QueueTriage, RemedyRunner

        runner = RemedyRunner(self.deployments) if RemedyRunner.available() else None
        self.push_screen(LabelScreen(entries, start, session=self.labels,
                                     triage=QueueTriage(self.root), confirm=runner))

    @work(thread=True, exclusive=True, group="catalog", exit_on_error=False)
    def refresh_catalog(self) -> None:
        """Bring the index up to date (a one-off build shows progress; Esc cancels)."""
        worker = get_current_worker()
        first = self.catalog.is_empty
        try:
            report = self.catalog.refresh(
                progress=lambda d, t, w: self.main_screen.post_message(CatalogProgress(d, t, w)),
                cancelled=lambda: worker.is_cancelled)
        except Exception as exc:  # noqa: BLE001 - the progress line must not hang on it
            self.main_screen.post_message(CatalogUpdated(None, first=first))
            self.notify(f"Indexing stopped: {type(exc).__name__}: {str(exc)[:300]}. Ctrl+R "
                        "retries.", severity="error", timeout=15)
            return
        if report.changed or first or report.cancelled:
            self.main_screen.post_message(CatalogUpdated(report, first=first))
        if report.cancelled:
            self.notify("Indexing cancelled: showing the runs indexed so far. Ctrl+R resumes.",
                        severity="warning")

    def action_cancel_indexing(self) -> None:
        self.workers.cancel_group(self, "catalog")

    def action_reindex(self) -> None:
        self.refresh_catalog()
        self.notify("Re-reading runs from disk…", timeout=2)

    # ------------------------------------------------------------------ navigation

    @on(OpenSample)
    def open_sample(self, message: OpenSample) -> None:
        from inspector.ui.screens.sample import open_sample_screen

        entry = self.catalog.sample(message.sample_key)
        if entry is None:
            self.notify("That sample is no longer in the index.", severity="error")
            return
        open_sample_screen(self, entry, test_id=message.test_id, file=message.file,
                           line=message.line, root=message.root, phase=message.phase)

    def action_help(self) -> None:
        from inspector.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))

    def action_next_theme(self) -> None:
        names = sorted(n for n in self.available_themes if not n.startswith("textual-ansi"))
        i = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(i + 1) % len(names)]
        self.notify(f"Theme: {self.theme}", timeout=2)

    def watch_theme(self, name: str) -> None:
        if not self._persist_theme or self.settings.path is None:
            return
        try:
            save_setting("theme", name, self.settings.path)
            self.settings.theme = name
        except (ConfigError, OSError) as exc:
            self.notify(f"Theme not saved: {exc}", severity="warning")
        if self.main_screen.is_mounted:
            self.main_screen.restyle()
