"""The panes the labelling and request screens are composed of, each in an app of its own:
the status line follows its counts, the editor round-trips a request and posts Send, the
response pane shows a response as a user reads it."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import ProgressBar, Static

from inspector.model.request.http_request import RequestSpec, ResponseRecord
from inspector.ui.labelling.progress import LabelProgress, ProgressCounts
from inspector.ui.request.editor import RequestEditor
from inspector.ui.request.response import ResponsePane


def _text(app: App, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


class _ProgressApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LabelProgress(id="progress-row")


async def test_the_status_line_follows_its_counts() -> None:
    app = _ProgressApp()
    async with app.run_test() as pilot:
        line = app.query_one(LabelProgress)
        line.counts = ProgressCounts("zoe", 3, 12, 4, 5, 9, 2)
        await pilot.pause()
        assert _text(app, "#progress-text") == (
            "3 of 12 failing samples labelled by zoe (25%) · item 4/12 · failure items 5/9 "
            "labelled in 2 triaged samples")
        bar = app.query_one("#progress", ProgressBar)
        assert (bar.progress, bar.total) == (3, 12)
        line.counts = ProgressCounts("zoe", 4, 12, 5)
        await pilot.pause()
        assert _text(app, "#progress-text").startswith("4 of 12 failing samples labelled")
        assert bar.progress == 4


class _EditorApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.sends = 0

    def compose(self) -> ComposeResult:
        yield RequestEditor(id="req-editor")
        yield ResponsePane(id="req-output")

    def on_request_editor_send(self, _: RequestEditor.Send) -> None:
        self.sends += 1


async def test_the_editor_round_trips_a_request_and_the_button_posts_send() -> None:
    app = _EditorApp()
    spec = RequestSpec("POST", "/todos", (("completed", "true"),),
                       (("Accept", "application/json"),), "json", '{"title": "x"}')
    async with app.run_test(size=(120, 50)) as pilot:
        editor = app.query_one(RequestEditor)
        editor.fill(spec)
        await pilot.pause()
        assert editor.composed() == (spec, [])
        app.query_one("#req-send").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.sends == 1
        editor.fill(RequestSpec("GET", ""))
        got, problems = editor.composed()
        assert got.method == "GET" and any("path is empty" in p for p in problems)


async def test_the_response_pane_shows_status_headers_and_pretty_json() -> None:
    app = _EditorApp()
    response = ResponseRecord(201, "Created", "HTTP/1.1",
                              (("Content-Type", "application/json"),), 12.4,
                              b'{"id":1,"title":"[bold]x"}', sent_at="2026-11-26T08:00:00Z")
    async with app.run_test(size=(120, 50)) as pilot:
        pane = app.query_one(ResponsePane)
        assert _text(app, "#req-status").startswith("No response yet")
        pane.show(RequestSpec("POST", "/todos"), response, "http://127.0.0.1:8000")
        await pilot.pause()
        status = _text(app, "#req-status")
        assert status.startswith("201 Created") and "POST http://127.0.0.1:8000/todos" in status
        assert "Content-Type: application/json" in _text(app, "#req-resp-headers")
        assert pane.response is response
        assert pane.body_text.splitlines()[0] == "{"  # pretty-printed
        pane.failed("Could not deploy (install): no\nlogs: /x")
        await pilot.pause()
        assert _text(app, "#req-status").startswith("Could not deploy (install)")
