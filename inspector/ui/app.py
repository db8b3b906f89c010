"""The Genesis Inspector app: wires the catalog, themes, file watcher and screens together."""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import App
from textual.binding import Binding
from textual.worker import get_current_worker

from inspector import paths
from inspector.config import ConfigError, Settings, save_setting
from inspector.model.filters import LabelState, no_labels
from inspector.services.catalog import Catalog
from inspector.services.watcher import RunsWatcher
from inspector.ui.commands import InspectorCommands
from inspector.ui.messages import CatalogProgress, CatalogUpdated, DiskChanged, OpenSample
from inspector.ui.screens.help import HelpScreen
from inspector.ui.screens.main import MainScreen
from inspector.ui.styles import SEMANTIC_DEFAULTS
from inspector.ui.themes import install_themes


class InspectorApp(App[None]):
    """Browse runs, tasks and generated repositories of RepoGenesis-style evaluations."""

    TITLE = "Genesis Inspector"
    COMMANDS = App.COMMANDS | {InspectorCommands}
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("ctrl+r", "reindex", "Reload", show=False),
        Binding("ctrl+t", "next_theme", "Theme", show=False),
    ]

    def __init__(self, root: Path, *, settings: Settings | None = None,
                 theme: str | None = None, db_path: Path | None = None, watch: bool = True,
                 label_state: LabelState | None = None) -> None:
        self.settings = settings or Settings()
        self.root = root.expanduser()
        self.catalog = Catalog(self.root, db_path)
        self.watch_disk = watch
        self.watcher: RunsWatcher | None = None
        self.label_state: LabelState = label_state or no_labels
        self.theme_failures: list[tuple[Path, str]] = []
        self._persist_theme = False
        super().__init__()
        self.theme_failures = install_themes(self, theme or self.settings.theme)
        self.main_screen = MainScreen()

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

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **SEMANTIC_DEFAULTS}

    # ------------------------------------------------------------------ lifecycle

    def on_mount(self) -> None:
        self.push_screen(self.main_screen)
        for path, error in self.theme_failures:
            self.notify(f"{path}: {error}", title="Theme not loaded", severity="warning",
                        timeout=8)
        if not self.catalog.is_empty:
            self.main_screen.post_message(CatalogUpdated(None, first=True))
        self.refresh_catalog()
        if self.watch_disk:
            self.start_watching()
        self._persist_theme = True

    def on_unmount(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()

    @work(thread=True, exclusive=True, group="watch")
    def start_watching(self) -> None:
        """Watch the root for runs appearing or changing (a benchmark in progress)."""
        self.watcher = RunsWatcher(self.root, lambda: self.post_message(DiskChanged()))
        mode = self.watcher.start()
        if mode == "off":
            self.call_from_thread(self.notify, f"Live updates are off: {self.watcher.error}",
                                  severity="warning")

    def on_disk_changed(self, message: DiskChanged) -> None:
        self.refresh_catalog()

    @work(thread=True, exclusive=True, group="catalog", exit_on_error=False)
    def refresh_catalog(self) -> None:
        """Bring the index up to date (a one-off build shows progress; Esc cancels)."""
        worker = get_current_worker()
        first = self.catalog.is_empty
        report = self.catalog.refresh(
            progress=lambda d, t, w: self.main_screen.post_message(CatalogProgress(d, t, w)),
            cancelled=lambda: worker.is_cancelled)
        if report.changed or first or report.cancelled:
            self.main_screen.post_message(CatalogUpdated(report, first=first))
        if report.cancelled:
            self.call_from_thread(self.notify, "Indexing cancelled: showing the runs indexed "
                                  "so far. Ctrl+R resumes.", severity="warning")

    def action_cancel_indexing(self) -> None:
        self.workers.cancel_group(self, "catalog")

    def action_reindex(self) -> None:
        self.refresh_catalog()
        self.notify("Re-reading runs from disk…", timeout=2)

    # ------------------------------------------------------------------ navigation

    @on(OpenSample)
    def open_sample(self, message: OpenSample) -> None:
        from inspector.ui.screens.sample import SampleScreen

        entry = self.catalog.sample(message.sample_key)
        if entry is None:
            self.notify("That sample is no longer in the index.", severity="error")
            return
        if isinstance(self.screen, SampleScreen):
            self.pop_screen()
        self.push_screen(SampleScreen(entry, test_id=message.test_id, file=message.file,
                                      line=message.line))

    def action_help(self) -> None:
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
