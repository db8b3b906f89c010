"""Command palette: find runs, tasks, samples, and (in a sample) files and tests by name."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from inspector.ui.app_access import inspector_app
from inspector.ui.messages import OpenSample
from inspector.ui.safe import plain_content, sanitize

MAX_HITS = 40


class InspectorCommands(Provider):
    """Runs, tasks and samples from the catalog; files and tests of the open sample."""

    def _candidates(self) -> list[tuple[str, str, object]]:
        """(text, help, action): text and help sanitised (file names, run ids and test ids
        come from untrusted data; the palette shows them as plain text, never markup)."""
        return [(sanitize(text), sanitize(help_text), action)
                for text, help_text, action in self._raw_candidates()]

    def _raw_candidates(self) -> list[tuple[str, str, object]]:
        app = self.app
        out: list[tuple[str, str, object]] = []
        screen = app.screen_stack[-2] if len(app.screen_stack) > 1 else app.screen
        provide = getattr(screen, "palette_candidates", None)
        if provide is not None:
            out.extend(provide())
        main = inspector_app(self).main_screen
        for r in main.runs:
            out.append((f"run {r.run_id}", f"{r.agent} · {r.model} · {r.language}",
                        partial(self._show_run, r.key)))
        for task in sorted({e.task for e in main.samples}):
            out.append((f"task {task}", "show this task across runs in the matrix",
                        partial(main.show_task, task)))
        for e in main.samples:
            out.append((f"sample {e.sample_id}", e.verdict.label,
                        partial(app.post_message, OpenSample(e.key))))
        return out

    def _show_run(self, key: str) -> None:
        from inspector.ui.screens.main import MainScreen

        while not isinstance(self.app.screen, MainScreen) and len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        inspector_app(self).main_screen.show_run(key)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        hits = []
        for text, help_text, action in self._candidates():
            score = matcher.match(text)
            if score > 0:
                hits.append((score, text, help_text, action))
        hits.sort(key=lambda h: -h[0])
        for score, text, help_text, action in hits[:MAX_HITS]:
            yield Hit(score, _highlight(matcher, text), action,  # type: ignore[arg-type]
                      text=text, help=plain_content(help_text))  # type: ignore[arg-type]

    async def discover(self) -> Hits:
        for text, help_text, action in self._candidates()[:20]:
            yield DiscoveryHit(plain_content(text), action,  # type: ignore[arg-type]
                               text=text, help=plain_content(help_text))  # type: ignore[arg-type]


def _highlight(matcher: Matcher, text: str) -> Content:
    """``text`` as plain content with the matched characters highlighted (Textual's
    ``Matcher.highlight`` would parse ``text`` as markup)."""
    content = Content(text)
    _, offsets = matcher.fuzzy_search.match(matcher.query, text)
    for offset in offsets:
        if not text[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
