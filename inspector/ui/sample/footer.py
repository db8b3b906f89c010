"""A Footer that rebuilds only when the keys it shows change.

Textual's Footer recomposes (two dozen key widgets, each restyled) on every focus change; on
the sample screen a focus change rarely changes the keys shown, and opening a sample moves
the focus once or twice. What is shown is identical to Footer's.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class SteadyFooter(Footer):
    """Footer that skips recomposing when the shown bindings are unchanged."""

    _shown: tuple[object, ...] | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            super().bindings_changed(screen)
            return
        shown = tuple((key, binding.action, binding.description, binding.key_display,
                       binding.group, enabled, tooltip)
                      for key, (_, binding, enabled, tooltip)
                      in screen.active_bindings.items() if binding.show)
        if shown == self._shown:
            return
        self._shown = shown
        super().bindings_changed(screen)
