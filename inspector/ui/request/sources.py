"""Where a request comes from: the task README's endpoints (templates) and the sample's
request history. Enter on either posts :class:`SourcesPane.Picked` to the screen."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from inspector.model import Endpoint
from inspector.model.benchmark.task import Task
from inspector.model.request.http_request import RequestSpec
from inspector.model.request.templates import body_note, suggested_params, template_for
from inspector.services.rerun.history import HistoryEntry
from inspector.ui.request.response import status_style
from inspector.ui.safe import plain, sanitize
from inspector.ui.styles import colour


def templates(task: Task) -> list[tuple[Endpoint, RequestSpec]]:
    """A request per HTTP endpoint of the README, its parameters filled with examples."""
    out = []
    for ep in task.required_endpoints:
        if ep.method.upper() == "FEATURE":
            continue
        try:
            spec = template_for(task, ep)
        except ValueError:
            continue
        out.append((ep, spec.with_params(suggested_params(task, ep))))
    return out


class SourcesPane(Vertical):
    """``#req-endpoints`` over ``#req-history`` (newest first)."""

    @dataclass
    class Picked(Message):
        """An endpoint's template or a history entry (``entry``) was picked."""

        spec: RequestSpec
        entry: HistoryEntry | None = None
        note: str = ""  # what the README's body leaves out (optional fields)

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's Widget id=
        super().__init__(id=id)
        self.templates: list[tuple[Endpoint, RequestSpec]] = []
        self.readme_task: Task | None = None
        self.entries: list[HistoryEntry] = []
        self.history_error: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("Endpoints · Enter fills", classes="req-label")
        yield OptionList(id="req-endpoints")
        yield Static("History", classes="req-label", id="req-history-label")
        yield OptionList(id="req-history")

    def show_endpoints(self, task: Task) -> None:
        """List ``task``'s endpoints; the first is highlighted."""
        self.readme_task = task
        self.templates = templates(task)
        endpoints = self.query_one("#req-endpoints", OptionList)
        endpoints.add_options([Option(Text.assemble((sanitize(f"{spec.method:<7}"), "bold"),
                                                    sanitize(ep.path)))
                               for ep, spec in self.templates])
        if self.templates:
            endpoints.highlighted = 0

    def focus_endpoints(self) -> None:
        self.query_one("#req-endpoints", OptionList).focus()

    def show_history(self, entries: list[HistoryEntry], error: str | None) -> None:
        """List ``entries`` newest first, or say why the history cannot be read."""
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

    @on(OptionList.OptionSelected, "#req-endpoints")
    def _endpoint_picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.templates):
            ep, spec = self.templates[event.option_index]
            self.post_message(self.Picked(spec, note=body_note(self.readme_task, ep)
                                          if self.readme_task is not None else ""))

    @on(OptionList.OptionSelected, "#req-history")
    def _history_picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        entries = list(reversed(self.entries))
        if 0 <= event.option_index < len(entries):
            entry = entries[event.option_index]
            self.post_message(self.Picked(entry.spec, entry))
