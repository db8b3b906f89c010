"""Compose HTTP requests against a deployed sample and read the responses.

The task's endpoints are listed on the left; picking one fills the composer from the README
(body, query and path-parameter examples). ``Ctrl+S`` sends: the first send deploys the
sample (a thread worker with progress; ``Esc`` cancels), later ones reuse the warm
deployment. Every exchange is kept in the sample's request history; ``y`` copies the request
as a curl command. ``Ctrl+L`` (or the Log in button) sends the README's login request, its body
editable first, to the same deployment and fills ``Authorization: Bearer <token>`` from the
answer; ``Ctrl+B`` switches the backend between Docker and local (local only when allowed,
:mod:`inspector.ui.backend_choice`).

The screen is composed of :class:`~inspector.ui.request.sources.SourcesPane` (endpoints and
history), :class:`~inspector.ui.request.editor.RequestEditor` and
:class:`~inspector.ui.request.response.ResponsePane`; the panes post messages, the screen
deploys and sends.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import replace

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from inspector import paths
from inspector.model import Endpoint
from inspector.model.request.http_request import RequestSpec, ResponseRecord, to_curl
from inspector.model.request.login import find_token, login_endpoint, token_keys, with_bearer
from inspector.model.request.templates import body_note
from inspector.services.deploy.warm import DeployError, Target
from inspector.services.rerun.history import (
    HistoryEntry,
    HistoryError,
    RequestHistory,
    history_path,
)
from inspector.services.rerun.http_client import RequestRefused, send
from inspector.ui.app_access import inspector_app
from inspector.ui.backend_choice import backend_label, choose_backend
from inspector.ui.dialogs.prompt import PromptScreen
from inspector.ui.read_only import Write, refused_when_read_only
from inspector.ui.request.editor import METHODS, RequestEditor
from inspector.ui.request.fields import parse_headers, parse_query
from inspector.ui.request.response import ResponsePane, status_style
from inspector.ui.request.sources import SourcesPane
from inspector.ui.safe import sanitize
from inspector.ui.styles import colour
from inspector.ui.widgets.progress_line import ProgressLine

__all__ = ["METHODS", "RequestScreen", "parse_headers", "parse_query", "status_style"]


class RequestScreen(Screen[None]):
    """Endpoints and history on the left, the composer and the response on the right."""

    BINDINGS = [
        Binding("escape", "back", "Cancel/back"),
        Binding("ctrl+s", "send", "Send"),
        Binding("y", "copy_curl", "Copy as curl"),
        Binding("ctrl+l", "login", "Log in"),
        Binding("ctrl+b", "backend", "Backend"),
    ]
    DEFAULT_CSS = """
    RequestScreen #req-head { height: 1; padding: 0 1; background: $boost; }
    RequestScreen #req-left { width: 36; border-right: solid $panel-lighten-2; }
    RequestScreen .req-label { height: 1; padding: 0 1; color: $text-muted; }
    RequestScreen #req-endpoints { height: 1fr; min-height: 4; }
    RequestScreen #req-history { height: 1fr; min-height: 4; }
    RequestScreen #req-main { width: 1fr; }
    RequestScreen #req-editor { height: auto; }
    RequestScreen #req-output { height: 1fr; }
    RequestScreen #req-line { height: 3; }
    RequestScreen #req-method { width: 16; }
    RequestScreen #req-path { width: 1fr; }
    RequestScreen #req-send { width: 12; min-width: 8; }
    RequestScreen #req-login { width: 10; min-width: 8; }
    RequestScreen #req-meta { height: 7; }
    RequestScreen #req-meta > Vertical { width: 1fr; }
    RequestScreen #req-query, RequestScreen #req-headers { height: 6; }
    RequestScreen #req-kind-row { height: 3; }
    RequestScreen #req-kind-row .req-label { width: auto; height: 3; padding: 1 1; }
    RequestScreen #req-body-kind { width: 16; }
    RequestScreen #req-body-note { width: 1fr; height: 3; padding: 1 1; color: $text-muted; }
    RequestScreen #req-body { height: 8; }
    RequestScreen #req-problems { height: auto; padding: 0 1; color: $error; }
    RequestScreen #req-status { height: auto; padding: 0 1; background: $panel; }
    RequestScreen #req-response { height: 1fr; min-height: 4; padding: 0 1; }
    RequestScreen #req-resp-headers { color: $text-muted; }
    """

    def __init__(self, target: Target, backend: str | None = None) -> None:
        super().__init__()
        self.target = target
        self.backend = backend
        self.history = RequestHistory(history_path(paths.cache_root(), target.key))
        self.cancel: threading.Event | None = None
        self.phase = "idle"  # idle | deploying | sending
        self.base_url: str | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static("", id="req-head")
        with Horizontal():
            yield SourcesPane(id="req-left")
            with Vertical(id="req-main"):
                yield RequestEditor(id="req-editor")
                yield ResponsePane(id="req-output")
        yield ProgressLine(id="req-progress")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Requests"
        self.sub_title = self.target.key
        self._head()
        self.sources.show_endpoints(self.target.task)
        if self.templates:
            ep, spec = self.templates[0]
            self.editor.fill(spec, body_note(self.target.task, ep))
        else:
            self.editor.problems("The task README lists no HTTP endpoints: type a path.")
        self.query_one(ProgressLine).update(Text("Not deployed yet: the first send deploys "
                                                 "the sample.", style="dim"))
        self.sources.focus_endpoints()
        self._load_history()

    def on_unmount(self) -> None:
        if self.cancel is not None:
            self.cancel.set()

    def _head(self) -> None:
        t = Text()
        t.append("Requests ", style="bold")
        t.append(sanitize(self.target.key), style="bold")
        t.append(f"  ·  {backend_label(inspector_app(self), self.backend)}", style="dim")
        t.append(f"  ·  {self.base_url or 'not deployed yet'}", style="dim")
        self.query_one("#req-head", Static).update(t)

    # ------------------------------------------------------------------ the panes

    @property
    def sources(self) -> SourcesPane:
        return self.query_one("#req-left", SourcesPane)

    @property
    def editor(self) -> RequestEditor:
        return self.query_one("#req-editor", RequestEditor)

    @property
    def output(self) -> ResponsePane:
        return self.query_one("#req-output", ResponsePane)

    @property
    def templates(self) -> list[tuple[Endpoint, RequestSpec]]:
        """The README's endpoints and their requests."""
        return self.sources.templates

    @property
    def entries(self) -> list[HistoryEntry]:
        """The sample's request history, oldest first."""
        return self.sources.entries

    @property
    def response(self) -> ResponseRecord | None:
        """The response shown."""
        return self.output.response

    @property
    def body_text(self) -> str:
        """The response body shown (pretty-printed)."""
        return self.output.body_text

    def fill(self, spec: RequestSpec) -> None:
        """Put ``spec`` into the composer."""
        self.editor.fill(spec)

    def composed(self) -> tuple[RequestSpec, list[str]]:
        """The request in the composer and what is wrong with it (nothing when sendable)."""
        return self.editor.composed()

    @on(SourcesPane.Picked)
    def _picked(self, event: SourcesPane.Picked) -> None:
        self.editor.fill(event.spec, event.note)
        if event.entry is None:
            self.editor.focus_path()
        else:
            self.output.show(event.spec, event.entry.response, event.entry.base_url)

    # ------------------------------------------------------------------ history

    @work(thread=True, exclusive=True, group="history", exit_on_error=False)
    def _load_history(self) -> None:
        try:
            entries, error = self.history.load(), None
        except HistoryError as exc:
            entries, error = [], str(exc)
        self._ui(self._show_history, entries, error)

    def _show_history(self, entries: list[HistoryEntry], error: str | None) -> None:
        if self.shown:
            self.sources.show_history(entries, error)

    # ------------------------------------------------------------------ sending

    @on(RequestEditor.Send)
    def _send_pressed(self) -> None:
        self.action_send()

    @refused_when_read_only(Write.REQUEST)
    def action_send(self) -> None:
        """Validate the composer; deploy if needed and send in a worker."""
        spec, problems = self.composed()
        if problems:
            self.editor.problems("Not sent: " + "; ".join(problems))
            return
        self.editor.problems("")
        if self.cancel is not None:
            self.notify("Still busy with the previous request (Esc cancels it).",
                        severity="warning")
            return
        self.cancel = threading.Event()
        inspector_app(self).track_cancel(self.cancel)
        self.phase = "deploying"
        self.query_one(ProgressLine).start("preparing the deployment")
        self._send(spec, self.cancel)

    @on(RequestEditor.Login)
    def _login_pressed(self) -> None:
        self.action_login()

    @refused_when_read_only(Write.REQUEST)
    def action_login(self) -> None:
        """Ask for the login body (the README's, editable), then log in and fill the
        ``Authorization`` header from the token in the answer."""
        task = self.target.task
        ep = login_endpoint(task)
        if ep is None:
            self.notify("The README documents no login endpoint (POST …/login, …/token, "
                        "…/signin).", title="Log in", severity="warning")
            return
        if self.cancel is not None:
            self.notify("Still busy with the previous request (Esc cancels it).",
                        severity="warning")
            return
        found = next((s for e, s in self.templates if e.key == ep.key), None)
        if found is None:
            return
        spec = replace(found, headers=tuple((k, v) for k, v in found.headers
                                            if k.lower() != "authorization"))
        body = " ".join(spec.body.split()) if spec.body_kind == "json" else spec.body

        def chosen(value: str | None) -> None:
            if value is None:
                return
            login = replace(spec, body=value)
            problems = login.validate()
            if problems:
                self.editor.problems("Not logged in: " + "; ".join(problems))
                return
            self.editor.problems("")
            self.cancel = threading.Event()
            inspector_app(self).track_cancel(self.cancel)
            self.phase = "deploying"
            self.query_one(ProgressLine).start("preparing the deployment")
            self._send(login, self.cancel, token_keys(task, ep))

        self.app.push_screen(PromptScreen(
            f"Log in: {spec.method} {spec.path} with this body (edit it; Enter sends, Esc "
            "cancels). The token in the answer fills the Authorization header.", body),
            chosen)

    def action_backend(self) -> None:
        """Switch between Docker and local (app-wide; local only when allowed)."""
        if self.cancel is not None:
            self.notify("Busy: the backend changes once the request is done.",
                        severity="warning")
            return
        chosen = choose_backend(self, self.backend)
        if chosen is not None and chosen != self.backend:
            self.backend = chosen
            self.base_url = None  # the next send deploys on the chosen backend
        self._head()

    @work(thread=True, exclusive=True, group="request", exit_on_error=False)
    def _send(self, spec: RequestSpec, cancel: threading.Event,
              login: tuple[str, ...] | None = None) -> None:
        app = inspector_app(self)
        try:
            backend = self.backend or app.resolve_backend()
            self.backend = backend
            pool = app.deployments()
            live, _reused = pool.acquire(self.target, backend,
                                         say=lambda m: self._ui(self._say, m), cancel=cancel)
            if app.exiting:
                pool.stop(self.target.key, backend)
                return
            if not live.deployed:
                failed = live.outcome.failed
                phase = failed.phase.value if failed else "deploy"
                why = "cancelled" if cancel.is_set() else (live.failure or "not deployed")
                self._ui(self._failed, cancel, f"Could not deploy ({phase}): {why}\n"
                         f"logs: {live.workdir / 'logs'}")
                return
            base = live.base_url()
            self.phase = "sending"
            self._ui(self._say, f"sending {spec.method} {spec.path}")
            response = send(spec, base)
        except (DeployError, RequestRefused) as exc:
            self._ui(self._failed, cancel, str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - shown, never crashes the app
            self._ui(self._failed, cancel, f"{type(exc).__name__}: {exc}")
            return
        finally:
            app.track_cancel(cancel, False)
        entries, error = None, None
        try:
            entries = self.history.append(HistoryEntry(spec, response, base, backend))
        except (HistoryError, OSError) as exc:
            error = str(exc)
        self._ui(self._received, cancel, spec, response, base, entries, error, login)

    def _ui(self, fn: Callable[..., object], *args: object) -> None:
        """Run ``fn`` on the event loop; a no-op once the app has gone."""
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(fn, *args)

    @property
    def shown(self) -> bool:
        """Still on the screen stack (a worker may finish after the screen was closed)."""
        return self in self.app.screen_stack

    def _say(self, message: str) -> None:
        if self.shown:
            self.query_one(ProgressLine).say(message)

    def _done(self, cancel: threading.Event) -> bool:
        if self.cancel is cancel:
            self.cancel = None
        self.phase = "idle"
        return self.shown

    def _failed(self, cancel: threading.Event, message: str) -> None:
        if not self._done(cancel):
            return
        bad = colour(self.app, "outcome-error")
        self.query_one(ProgressLine).stop(Text(sanitize(message.splitlines()[0]),
                                               style=f"bold {bad}"))
        self.output.failed(message)

    def _received(self, cancel: threading.Event, spec: RequestSpec, response: ResponseRecord,
                  base: str, entries: list[HistoryEntry] | None, error: str | None,
                  login: tuple[str, ...] | None = None) -> None:
        if not self._done(cancel):
            return
        self.base_url = base
        self._head()
        self.query_one(ProgressLine).stop(Text(f"Deployed at {base} · Ctrl+S sends again · "
                                               "y copies as curl", style="dim"))
        self.output.show(spec, response, base)
        if login is not None:
            self._logged_in(spec, response, login)
        if entries is not None:
            self._show_history(entries, None)
        elif error is not None:
            self.notify(f"Not saved in the history: {error}", severity="warning")
        self.output.focus_body()

    def _logged_in(self, spec: RequestSpec, response: ResponseRecord,
                   keys: tuple[str, ...]) -> None:
        token = None if response.error else find_token(
            response.body.decode("utf-8", "replace"), keys)
        line = self.query_one(ProgressLine)
        if token is None:
            answer = response.error or f"HTTP {response.status}"
            message = (f"Not logged in: {spec.method} {spec.path} answered {answer} with no "
                       f"token (looked for {', '.join(keys[:4])}, …)")
            line.stop(Text(sanitize(message), style=f"bold {colour(self.app, 'outcome-error')}"))
            self.editor.problems(message)
            return
        current, _problems = self.composed()
        self.editor.set_headers(with_bearer(current.headers, token))
        shown = token if len(token) <= 24 else token[:20] + "…"
        line.stop(Text(sanitize(f"Logged in: Authorization: Bearer {shown} filled in · "
                                "Ctrl+S sends the request with it"), style="bold"))

    # ------------------------------------------------------------------ other actions

    def action_copy_curl(self) -> None:
        """Copy the composed request as a curl command."""
        spec, problems = self.composed()
        if problems:
            self.editor.problems("Not copied: " + "; ".join(problems))
            return
        base = self.base_url or f"http://127.0.0.1:{self.target.task.port or 80}"
        command = to_curl(spec, base)
        self.app.copy_to_clipboard(command)
        self.notify(command, title="Copied as curl", timeout=8)

    def action_back(self) -> None:
        if self.cancel is not None and self.phase == "deploying":
            if not self.cancel.is_set():
                self.cancel.set()
                self.query_one(ProgressLine).say("cancelling the deployment…")
            else:
                self.notify("Still cancelling: waiting for the deployment to stop.")
            return
        self.app.pop_screen()
