"""The response pane: the status line (or why nothing came back), then the headers and the
body (JSON highlighted)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.syntax import Syntax
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from inspector.model.request.http_request import RequestSpec, ResponseRecord
from inspector.ui.request.fields import is_json
from inspector.ui.safe import sanitize
from inspector.ui.styles import colour


def status_style(app: App, response: ResponseRecord) -> str:
    """2xx green, 3xx neutral, 4xx yellow, 5xx and network errors red."""
    if response.error or response.status >= 500 or response.status == 0:
        return f"bold {colour(app, 'outcome-error')}"
    if response.status >= 400:
        return f"bold {colour(app, 'outcome-fail')}"
    if response.status >= 300:
        return "bold"
    return f"bold {colour(app, 'outcome-pass')}"


class ResponsePane(Vertical):
    """``#req-status`` over ``#req-response`` (``#req-resp-headers``, ``#req-resp-body``)."""

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's Widget id=
        super().__init__(id=id)
        self.response: ResponseRecord | None = None
        self.body_text = ""

    def compose(self) -> ComposeResult:
        yield Static("No response yet: Ctrl+S sends (the first send deploys the sample).",
                     id="req-status")
        with VerticalScroll(id="req-response"):
            yield Static("", id="req-resp-headers")
            yield Static("", id="req-resp-body")

    def failed(self, message: str) -> None:
        """Nothing came back: say why in the status line."""
        bad = colour(self.app, "outcome-error")
        self.query_one("#req-status", Static).update(Text(sanitize(message),
                                                          style=f"bold {bad}"))

    def focus_body(self) -> None:
        self.query_one("#req-response").focus()

    def show(self, spec: RequestSpec, response: ResponseRecord, base: str) -> None:
        """``response`` to ``spec`` sent to ``base``: status, timing, headers, body."""
        self.response = response
        t = Text()
        style = status_style(self.app, response)
        if response.status:
            t.append(f"{response.status} {sanitize(response.reason)}", style=style)
        if response.error:
            t.append(("  " if response.status else "") + f"✘ {sanitize(response.error)}",
                     style=style)
        t.append(f"  ·  {response.elapsed_ms:.0f} ms", style="bold")
        if response.http_version:
            t.append(f"  ·  {sanitize(response.http_version)}", style="dim")
        t.append(f"  ·  {len(response.body):,} bytes  ·  "
                 + sanitize(f"{spec.method} {spec.url(base)}"), style="dim")
        if response.sent_at:
            t.append(f"  ·  sent {sanitize(response.sent_at[:19].replace('T', ' '))} UTC",
                     style="dim")
        self.query_one("#req-status", Static).update(t)
        h = Text()
        for name, value in response.headers:
            h.append(f"{sanitize(name)}: ", style="bold")
            h.append(sanitize(value) + "\n")
        self.query_one("#req-resp-headers", Static).update(h)
        self.body_text = response.pretty_body()
        self.query_one("#req-resp-body", Static).update(self._body_renderable(response))

    def _body_renderable(self, response: ResponseRecord) -> RenderableType:
        text = self.body_text
        if not text:
            return Text("(empty body)", style="dim")
        if not response.looks_binary() and text.lstrip()[:1] in ("{", "[") and (
                "json" in response.content_type or is_json(text)):
            dark = self.app.current_theme.dark if self.app.current_theme else True
            return Syntax(sanitize(text), "json", theme="monokai" if dark else "friendly",
                          word_wrap=True, background_color="default")
        return Text(sanitize(text))
