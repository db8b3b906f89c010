"""A small app around one replay screen: ``inspector replay LOG`` (no runs folder needed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import App
from textual.binding import Binding

from inspector.config import Settings
from inspector.model.results.outcomes import Phase
from inspector.services.logs.deployment_log import DeploymentLog
from inspector.ui.safe import SafeTextApp
from inspector.ui.screens.help import HelpScreen
from inspector.ui.screens.replay import ReplayScreen
from inspector.ui.styles import SEMANTIC_DEFAULTS
from inspector.ui.themes import install_themes

if TYPE_CHECKING:
    from inspector.services.labels.session import LabelSession


class ReplayApp(SafeTextApp, App[None]):
    """Replays one log; leaving the replay screen quits."""

    TITLE = "Genesis Inspector — replay"
    BINDINGS = [
        Binding("q", "quit", "Quit"),
        Binding("question_mark,f1", "help", "Help"),
    ]

    def __init__(self, log: DeploymentLog, *, settings: Settings | None = None,
                 theme: str | None = None, speed: float | None = 1.0,
                 phase: Phase | None = None, play: bool = False, demo: bool = False,
                 follow: bool = False, idle_limit: float | None = None) -> None:
        self.settings = settings or Settings()
        self.labels: LabelSession | None = None
        """No label session here: a log replayed on its own cannot take evidence."""
        super().__init__()
        self.theme_failures = install_themes(self, theme or self.settings.theme)
        self.replay = ReplayScreen(log, speed=speed, phase=phase, play=play, demo=demo,
                                   follow=follow, idle_limit=idle_limit)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **SEMANTIC_DEFAULTS}

    def on_mount(self) -> None:
        self.push_screen(self.replay, callback=lambda _result: self.exit())
        for path, error in self.theme_failures:
            self.notify(f"{path}: {error}", title="Theme not loaded", severity="warning")

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.screen))
