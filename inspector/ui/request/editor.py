"""The request editor: method, path, query, headers and body. Send (the button) posts
:class:`RequestEditor.Send` to the screen."""

from __future__ import annotations

from typing import cast

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Select, Static, TextArea

from inspector.model.request.http_request import BODY_KINDS, BodyKind, Pairs, RequestSpec
from inspector.ui.focus import focus_now
from inspector.ui.request.fields import parse_headers, parse_query
from inspector.ui.safe import plain, sanitize

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


class RequestEditor(Vertical):
    """``#req-line`` (method, path, Send), query and headers, the body and ``#req-problems``."""

    class Send(Message):
        """The Send button was pressed."""

    class Login(Message):
        """The Log in button was pressed."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="req-line"):
            yield Select([(m, m) for m in METHODS], value="GET", allow_blank=False,
                         id="req-method")
            yield Input(placeholder="/path", id="req-path")
            yield Button("Send", id="req-send", variant="primary")
        with Horizontal(id="req-meta"):
            with Vertical():
                yield Static("query: one k=v per line", classes="req-label")
                yield TextArea(id="req-query", soft_wrap=False, placeholder="completed=true")
            with Vertical():
                yield Static("headers: one 'Name: value' per line", classes="req-label")
                yield TextArea(id="req-headers", soft_wrap=False,
                               placeholder="Accept: application/json")
        with Horizontal(id="req-kind-row"):
            yield Static("body", classes="req-label")
            yield Select([(k, k) for k in BODY_KINDS], value="none", allow_blank=False,
                         id="req-body-kind")
            yield Button("Log in", id="req-login")
            yield Static("", id="req-body-note")
        yield TextArea(id="req-body")
        yield Static("", id="req-problems")

    def fill(self, spec: RequestSpec, note: str = "") -> None:
        """Put ``spec`` into the editor (sanitised: templates come from the task README and
        the history from disk, and what the editor shows is what is sent). ``note``: what
        the body leaves out, shown beside it."""
        method = self.query_one("#req-method", Select)
        if spec.method.upper() not in METHODS:
            method.set_options([(plain(m), m) for m in (*METHODS, spec.method.upper())])
        method.value = spec.method.upper()
        self.query_one("#req-path", Input).value = sanitize(spec.path)
        self.query_one("#req-query", TextArea).text = sanitize(
            "\n".join(f"{k}={v}" for k, v in spec.query))
        self.query_one("#req-headers", TextArea).text = sanitize(
            "\n".join(f"{k}: {v}" for k, v in spec.headers))
        self.query_one("#req-body-kind", Select).value = spec.body_kind
        body = self.query_one("#req-body", TextArea)
        body.text = sanitize(spec.body)
        body.language = "json" if spec.body_kind == "json" else None
        self.query_one("#req-body-note", Static).update(plain(note))
        self.problems("")

    def set_headers(self, headers: Pairs) -> None:
        """Replace the headers (keeping everything else as typed)."""
        self.query_one("#req-headers", TextArea).text = sanitize(
            "\n".join(f"{k}: {v}" for k, v in headers))

    def composed(self) -> tuple[RequestSpec, list[str]]:
        """The request in the editor and what is wrong with it (nothing when sendable)."""
        method = self.query_one("#req-method", Select).value
        kind = self.query_one("#req-body-kind", Select).value
        body_kind: BodyKind = cast("BodyKind", kind) if kind in BODY_KINDS else "none"
        headers, problems = parse_headers(self.query_one("#req-headers", TextArea).text)
        spec = RequestSpec(str(method), self.query_one("#req-path", Input).value.strip(),
                           parse_query(self.query_one("#req-query", TextArea).text), headers,
                           body_kind,
                           self.query_one("#req-body", TextArea).text)
        return spec, problems + spec.validate()

    def problems(self, message: str) -> None:
        """Say what is wrong with the request (``""``: nothing)."""
        self.query_one("#req-problems", Static).update(plain(message) if message else "")

    def focus_path(self) -> None:
        focus_now(self.query_one("#req-path", Input))

    @on(Select.Changed, "#req-body-kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        self.query_one("#req-body", TextArea).language = "json" if event.value == "json" else None

    @on(Button.Pressed, "#req-send")
    def _send_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Send())

    @on(Button.Pressed, "#req-login")
    def _login_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Login())
