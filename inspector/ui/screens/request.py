"""Compose HTTP requests against a deployed sample and read the responses.

The task's endpoints are listed on the left; picking one fills the composer from the README
(body, query and path-parameter examples). ``Ctrl+S`` sends: the first send deploys the
sample (a thread worker with progress; ``Esc`` cancels), later ones reuse the warm
deployment. Every exchange is kept in the sample's request history; ``y`` copies the request
as a curl command.
"""

from __future__ import annotations

import contextlib
import threading

from rich.console import RenderableType
from rich.syntax import Syntax
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, OptionList, Select, Static, TextArea
from textual.widgets.option_list import Option

from inspector import paths
from inspector.model import Endpoint
from inspector.model.http_request import BODY_KINDS, RequestSpec, ResponseRecord, to_curl
from inspector.model.request_templates import suggested_params, template_for
from inspector.services.deploy.warm import DeployError, Target
from inspector.services.rerun.history import (
    HistoryEntry,
    HistoryError,
    RequestHistory,
    history_path,
)
from inspector.services.rerun.http_client import RequestRefused, send
from inspector.ui.app_access import inspector_app
from inspector.ui.safe import plain, sanitize
from inspector.ui.styles import colour
from inspector.ui.widgets.progress_line import ProgressLine

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


def parse_query(text: str) -> tuple[tuple[str, str], ...]:
    """``k=v`` lines (blank lines skipped) as query pairs."""
    out = []
    for line in text.splitlines():
        if line.strip():
            key, _, value = line.partition("=")
            out.append((key.strip(), value.strip()))
    return tuple(out)


def parse_headers(text: str) -> tuple[tuple[tuple[str, str], ...], list[str]]:
    """``Name: value`` lines as header pairs, and a problem for each line without a colon."""
    out, problems = [], []
    for line in text.splitlines():
        if not line.strip():
            continue
        name, sep, value = line.partition(":")
        if not sep:
            problems.append(f"header line {line.strip()!r} must be 'Name: value'")
            continue
        out.append((name.strip(), value.strip()))
    return tuple(out), problems


def status_style(app: App, response: ResponseRecord) -> str:
    """2xx green, 3xx neutral, 4xx yellow, 5xx and network errors red."""
    if response.error or response.status >= 500 or response.status == 0:
        return f"bold {colour(app, 'outcome-error')}"
    if response.status >= 400:
        return f"bold {colour(app, 'outcome-fail')}"
    if response.status >= 300:
        return "bold"
    return f"bold {colour(app, 'outcome-pass')}"


class RequestScreen(Screen[None]):
    """Endpoints and history on the left, the composer and the response on the right."""

    BINDINGS = [
        Binding("escape", "back", "Cancel/back"),
        Binding("ctrl+s", "send", "Send"),
        Binding("y", "copy_curl", "Copy as curl"),
    ]
    DEFAULT_CSS = """
    RequestScreen #req-head { height: 1; padding: 0 1; background: $boost; }
    RequestScreen #req-left { width: 36; border-right: solid $panel-lighten-2; }
    RequestScreen .req-label { height: 1; padding: 0 1; color: $text-muted; }
    RequestScreen #req-endpoints { height: 1fr; min-height: 4; }
    RequestScreen #req-history { height: 1fr; min-height: 4; }
    RequestScreen #req-main { width: 1fr; }
    RequestScreen #req-line { height: 3; }
    RequestScreen #req-method { width: 16; }
    RequestScreen #req-path { width: 1fr; }
    RequestScreen #req-send { width: 12; min-width: 8; }
    RequestScreen #req-meta { height: 7; }
    RequestScreen #req-meta > Vertical { width: 1fr; }
    RequestScreen #req-query, RequestScreen #req-headers { height: 6; }
    RequestScreen #req-kind-row { height: 3; }
    RequestScreen #req-kind-row .req-label { width: auto; height: 3; padding: 1 1; }
    RequestScreen #req-body-kind { width: 16; }
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
        self.templates: list[tuple[Endpoint, RequestSpec]] = []
        self.history = RequestHistory(history_path(paths.cache_root(), target.key))
        self.entries: list[HistoryEntry] = []
        self.history_error: str | None = None
        self.cancel: threading.Event | None = None
        self.phase = "idle"  # idle | deploying | sending
        self.base_url: str | None = None
        self.response: ResponseRecord | None = None
        self.body_text = ""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static("", id="req-head")
        with Horizontal():
            with Vertical(id="req-left"):
                yield Static("Endpoints · Enter fills", classes="req-label")
                yield OptionList(id="req-endpoints")
                yield Static("History", classes="req-label", id="req-history-label")
                yield OptionList(id="req-history")
            with Vertical(id="req-main"):
                with Horizontal(id="req-line"):
                    yield Select([(m, m) for m in METHODS], value="GET", allow_blank=False,
                                 id="req-method")
                    yield Input(placeholder="/path", id="req-path")
                    yield Button("Send", id="req-send", variant="primary")
                with Horizontal(id="req-meta"):
                    with Vertical():
                        yield Static("query: one k=v per line", classes="req-label")
                        yield TextArea(id="req-query", soft_wrap=False,
                                       placeholder="completed=true")
                    with Vertical():
                        yield Static("headers: one 'Name: value' per line", classes="req-label")
                        yield TextArea(id="req-headers", soft_wrap=False,
                                       placeholder="Accept: application/json")
                with Horizontal(id="req-kind-row"):
                    yield Static("body", classes="req-label")
                    yield Select([(k, k) for k in BODY_KINDS], value="none", allow_blank=False,
                                 id="req-body-kind")
                yield TextArea(id="req-body")
                yield Static("", id="req-problems")
                yield Static("No response yet: Ctrl+S sends (the first send deploys the "
                             "sample).", id="req-status")
                with VerticalScroll(id="req-response"):
                    yield Static("", id="req-resp-headers")
                    yield Static("", id="req-resp-body")
        yield ProgressLine(id="req-progress")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Requests"
        self.sub_title = self.target.key
        self._head()
        task = self.target.task
        for ep in task.required_endpoints:
            if ep.method.upper() == "FEATURE":
                continue
            try:
                spec = template_for(task, ep)
            except ValueError:
                continue
            self.templates.append((ep, spec.with_params(suggested_params(task, ep))))
        endpoints = self.query_one("#req-endpoints", OptionList)
        endpoints.add_options([Option(Text.assemble((sanitize(f"{spec.method:<7}"), "bold"),
                                                    sanitize(ep.path)))
                               for ep, spec in self.templates])
        if self.templates:
            self.fill(self.templates[0][1])
            endpoints.highlighted = 0
        else:
            self.query_one("#req-problems", Static).update(
                "The task README lists no HTTP endpoints: type a path.")
        self.query_one(ProgressLine).update(Text("Not deployed yet: the first send deploys "
                                                 "the sample.", style="dim"))
        endpoints.focus()
        self._load_history()

    def on_unmount(self) -> None:
        if self.cancel is not None:
            self.cancel.set()

    def _head(self) -> None:
        t = Text()
        t.append("Requests ", style="bold")
        t.append(sanitize(self.target.key), style="bold")
        t.append(f"  ·  backend {self.backend or 'default'}", style="dim")
        t.append(f"  ·  {self.base_url or 'not deployed yet'}", style="dim")
        self.query_one("#req-head", Static).update(t)

    # ------------------------------------------------------------------ composer

    def fill(self, spec: RequestSpec) -> None:
        """Put ``spec`` into the composer (sanitised: templates come from the task README and
        the history from disk, and what the composer shows is what is sent)."""
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
        self.query_one("#req-problems", Static).update("")

    def composed(self) -> tuple[RequestSpec, list[str]]:
        """The request in the composer and what is wrong with it (nothing when sendable)."""
        method = self.query_one("#req-method", Select).value
        kind = self.query_one("#req-body-kind", Select).value
        headers, problems = parse_headers(self.query_one("#req-headers", TextArea).text)
        spec = RequestSpec(str(method), self.query_one("#req-path", Input).value.strip(),
                           parse_query(self.query_one("#req-query", TextArea).text), headers,
                           kind if kind in BODY_KINDS else "none",  # type: ignore[arg-type]
                           self.query_one("#req-body", TextArea).text)
        return spec, problems + spec.validate()

    @on(Select.Changed, "#req-body-kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        self.query_one("#req-body", TextArea).language = "json" if event.value == "json" else None

    @on(OptionList.OptionSelected, "#req-endpoints")
    def _endpoint_picked(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.templates):
            self.fill(self.templates[event.option_index][1])
            self.query_one("#req-path", Input).focus()

    @on(OptionList.OptionSelected, "#req-history")
    def _history_picked(self, event: OptionList.OptionSelected) -> None:
        entries = list(reversed(self.entries))
        if 0 <= event.option_index < len(entries):
            entry = entries[event.option_index]
            self.fill(entry.spec)
            self._show_response(entry.spec, entry.response, entry.base_url)

    # ------------------------------------------------------------------ history

    @work(thread=True, exclusive=True, group="history", exit_on_error=False)
    def _load_history(self) -> None:
        try:
            entries, error = self.history.load(), None
        except HistoryError as exc:
            entries, error = [], str(exc)
        self._ui(self._show_history, entries, error)

    def _show_history(self, entries: list[HistoryEntry], error: str | None) -> None:
        if not self.shown:
            return
        self.entries = entries
        if error is not None:
            self.history_error = error
        label = self.query_one("#req-history-label", Static)
        if self.history_error:
            label.update(Text(f"History unavailable: {sanitize(self.history_error)}",
                              style=colour(self.app, "outcome-error")))
        else:
            label.update(plain(f"History ({len(entries)}) · Enter restores"))
        options = self.query_one("#req-history", OptionList)
        options.clear_options()
        for e in reversed(entries):
            r = e.response
            t = Text(no_wrap=True, overflow="ellipsis")
            t.append(f"{r.status if r.status else 'ERR':<4}", style=status_style(self.app, r))
            t.append(sanitize(f"{e.spec.method} {e.spec.path}"))
            t.append(sanitize(f" · {r.sent_at[11:19]}"), style="dim")
            options.add_option(Option(t))

    # ------------------------------------------------------------------ sending

    @on(Button.Pressed, "#req-send")
    def _send_pressed(self) -> None:
        self.action_send()

    def action_send(self) -> None:
        """Validate the composer; deploy if needed and send in a worker."""
        spec, problems = self.composed()
        box = self.query_one("#req-problems", Static)
        if problems:
            box.update(plain("Not sent: " + "; ".join(problems)))
            return
        box.update("")
        if self.cancel is not None:
            self.notify("Still busy with the previous request (Esc cancels it).",
                        severity="warning")
            return
        self.cancel = threading.Event()
        inspector_app(self).track_cancel(self.cancel)
        self.phase = "deploying"
        self.query_one(ProgressLine).start("preparing the deployment")
        self._send(spec, self.cancel)

    @work(thread=True, exclusive=True, group="request", exit_on_error=False)
    def _send(self, spec: RequestSpec, cancel: threading.Event) -> None:
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
        self._ui(self._received, cancel, spec, response, base, entries, error)

    def _ui(self, fn: object, *args: object) -> None:
        """Run ``fn`` on the event loop; a no-op once the app has gone."""
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(fn, *args)  # type: ignore[arg-type]

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
        self.query_one("#req-status", Static).update(Text(sanitize(message),
                                                          style=f"bold {bad}"))

    def _received(self, cancel: threading.Event, spec: RequestSpec, response: ResponseRecord,
                  base: str, entries: list[HistoryEntry] | None, error: str | None) -> None:
        if not self._done(cancel):
            return
        self.base_url = base
        self._head()
        self.query_one(ProgressLine).stop(Text(f"Deployed at {base} · Ctrl+S sends again · "
                                               "y copies as curl", style="dim"))
        self._show_response(spec, response, base)
        if entries is not None:
            self._show_history(entries, None)
        elif error is not None:
            self.notify(f"Not saved in the history: {error}", severity="warning")
        self.query_one("#req-response").focus()

    def _show_response(self, spec: RequestSpec, response: ResponseRecord, base: str) -> None:
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
                "json" in response.content_type or _is_json(text)):
            dark = self.app.current_theme.dark if self.app.current_theme else True
            return Syntax(sanitize(text), "json", theme="monokai" if dark else "friendly",
                          word_wrap=True, background_color="default")
        return Text(sanitize(text))

    # ------------------------------------------------------------------ other actions

    def action_copy_curl(self) -> None:
        """Copy the composed request as a curl command."""
        spec, problems = self.composed()
        if problems:
            self.query_one("#req-problems", Static).update(
                plain("Not copied: " + "; ".join(problems)))
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


def _is_json(text: str) -> bool:
    import json

    try:
        json.loads(text)
    except ValueError:
        return False
    return True
