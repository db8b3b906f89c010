"""Untrusted text never crashes the app and never reaches the terminal raw (issue 14, part 3).

The data is ``tests/fixtures/hostile/text`` (a real run of a service written to attack the
inspector's terminal: Textual markup, OSC 52/OSC 0/CSI, BEL, C1, a zero-width joiner and bidi
controls in its run id, agent, model, failure messages, logs, file and folder names) plus what
``tests/hostile_text.py`` makes at test time: file, symlink and folder names holding control
characters, a load problem naming such a folder, and label files (notes, evidence, taxonomy
names) written through the label store. Every screen is driven over it; each check asserts:

* no untrusted string reached a markup parser (``markup_probe``: a string with a hostile marker
  passed to Rich's or Textual's markup parser fails the test, crash or not);
* what the app would write to the terminal holds none of the hostile sequences, and the visible
  placeholders (``<ESC>``, ``<U+200D>``) are on screen instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import rich.markup
import textual.markup
from hostile_text import (
    CONTROL_DIR,
    CONTROL_FILE,
    CONTROL_LINK,
    FIXTURE,
    GREET,
    PREDICTIONS,
    RAW,
    SAMPLE_0,
    SAMPLE_1,
    SHOWN_RUN_ID,
    hostile_root,
)
from textual.widgets import DataTable, OptionList, RichLog, Static, TabbedContent, Tree

from inspector.ui.app import InspectorApp
from inspector.ui.dialogs.pick import PickScreen
from inspector.ui.replay_app import ReplayApp
from inspector.ui.screens.adjudication import DisagreementScreen
from inspector.ui.screens.labelling import LabelScreen
from inspector.ui.screens.replay import ReplayScreen
from inspector.ui.screens.request import RequestScreen
from inspector.ui.screens.rerun import RerunScreen
from inspector.ui.screens.sandboxes import SandboxesScreen
from tests.settle import until

from .conftest import open_sample, settle

SIZE = (200, 60)
#: Text that only hostile data (raw or sanitised) holds: none of it may be parsed as markup.
MARKERS = ("\x1b", "\u200d", "\u202e", "<ESC>", "<BEL>", "<U+", "[/x]", "[bold", "[link=",
           "[@click")


@pytest.fixture
def markup_probe(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string with a hostile marker that reaches Rich's or Textual's markup parser."""
    parsed: list[str] = []

    def watch(parse: Callable[..., object]) -> Callable[..., object]:
        def parse_and_record(markup: object, *args: object, **kwargs: object) -> object:
            if isinstance(markup, str) and any(m in markup for m in MARKERS):
                parsed.append(markup)
            return parse(markup, *args, **kwargs)
        return parse_and_record

    monkeypatch.setattr(rich.markup, "render", watch(rich.markup.render))
    monkeypatch.setattr(textual.markup, "to_content", watch(textual.markup.to_content))
    yield parsed
    assert parsed == [], f"untrusted text parsed as markup: {parsed[:3]!r}"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return hostile_root(tmp_path)


@pytest.fixture
def app(make_app: Callable[..., InspectorApp], root: Path) -> InspectorApp:
    return make_app(root, labels_dir=root / "labels", annotator="ana")


def terminal_output(app: InspectorApp | ReplayApp) -> str:
    """What the app writes to the terminal to draw the current screen (escape codes too)."""
    return app.screen._compositor.render_full_update().render_segments(app.console)


def screen_text(app: InspectorApp | ReplayApp) -> str:
    """The characters on screen, line by line."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def assert_safe(app: InspectorApp | ReplayApp, *visible: str) -> str:
    """No hostile sequence reaches the terminal; each of ``visible`` is on screen."""
    out = terminal_output(app)
    leaked = [r for r in RAW if r in out]
    assert not leaked, f"raw {leaked!r} reached the terminal"
    text = screen_text(app)
    for v in visible:
        assert v in text, f"{v!r} is not on screen:\n{text}"
    return text


def tree_labels(tree: Tree) -> list[str]:  # type: ignore[type-arg]
    labels, stack = [], [tree.root]
    while stack:
        node = stack.pop()
        labels.append(str(node.label))
        stack.extend(node.children)
    return labels


# ------------------------------------------------------------------------------- main screen

async def test_main_tabs_and_palette_show_hostile_runs_as_text(app: InspectorApp,
                                                               markup_probe: list[str]) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.is_running  # a folder named b[/x] (a load problem) used to kill it here
        # the two broken run.json are listed as unreadable runs (issue 28)
        runs = app.main_screen.runs
        assert sorted(bool(r.metrics["unreadable"]) for r in runs) == [False, True, True]
        assert len(app.main_screen.samples) == 2
        text = assert_safe(app, SHOWN_RUN_ID, "agent[/x]<ESC>]52;c;cHduZWQ=<BEL><ESC>]0;TITLE<BEL>",
                           "Z<U+200D>W<U+202E>R")
        problems = str(app.main_screen.query_one("#problems", Static).render())
        assert "b[/x]/run.json" in problems and "bad<ESC>]0;T<BEL><U+200D>" in problems
        assert "b[/x]/run.json" in text
        await pilot.press("2")
        await settle(app, pilot)
        assert_safe(app, "EVIL[/x][bold]B[link=https://example.invalid]L[@click=app.quit]Q")
        # a filter choice taken from the data (sample 1's framework), chosen
        app.main_screen.select_options(framework="any[/x]\x1b]0;T\x07\u200d")
        await settle(app, pilot)
        assert app.main_screen.filter.framework == "any[/x]\x1b]0;T\x07\u200d"
        assert_safe(app, "any[/x]<ESC>]0;T<BEL><U+200D>")
        await pilot.press("x")
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        assert_safe(app, "agent[/x]<ESC>]52")
        await pilot.press("4")
        await settle(app, pilot)
        table = app.main_screen.query_one("#health-table", DataTable)
        assert table.row_count >= 1  # test_greet passes in no sample: a candidate defect
        assert_safe(app, "EVIL[/x][bold]")
        await pilot.press("1")
        await pilot.press("ctrl+p")
        await settle(app, pilot)
        await pilot.press(*"run")
        await pilot.pause(0.5)
        await settle(app, pilot)
        assert_safe(app, "<ESC>]52;c;cHduZWQ=<BEL>")
        await pilot.press("escape")
        await settle(app, pilot)
        # the filter box echoes what the user typed (markup included) as text
        await pilot.press("2", "slash", *"[/x]")
        await pilot.pause(0.3)
        await settle(app, pilot)
        assert "[/x]" in str(app.main_screen.query_one("#samples-count", Static).render())
        assert app.is_running


# ------------------------------------------------------------------------------ sample view

async def test_sample_view_tests_files_deploy_and_endpoints(app: InspectorApp,
                                                            markup_probe: list[str]) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_sample(app, pilot, SAMPLE_0)
        pane = screen.main_pane
        assert pane is not None
        assert screen.title and "agent[/x]" in app.format_title(screen.title, "").plain
        header = app.format_title(screen.title or "", screen.sub_title or "").plain
        assert "\x1b" not in header and "<U+200D>" in header
        # Tests: the failure message holds the service's answer
        assert pane.query_one(TabbedContent).active == pane.query_one(".tests-tab").id
        detail = str(pane.query_one(".test-detail", Static).render())
        assert "[@click=app.quit]Q" in detail and "<U+200D>" in detail
        assert_safe(app, "EVIL[/x][bold]B")
        # Files: names with markup and control characters, a symlink to b[/x]
        pane.show_tab("files")
        await settle(app, pilot)
        labels = tree_labels(pane.query_one(".repo-tree", Tree))
        assert any(x.startswith("link[bold] → b[/x]") for x in labels), labels
        assert any(x.startswith("broken-link → gone[/x]") for x in labels), labels
        assert "evil<ESC>]0;T<BEL><U+200D><U+202E>.py" in labels
        assert any(x.startswith("ln<ESC>]52;c;cHduZWQ=<BEL> → server.py") for x in labels), labels
        assert "d<ESC>[2J[/" in labels and "x]" in labels and "b[/" in labels
        text = assert_safe(app, "link[bold] → b[/x]", "evil<ESC>]0;T<BEL><U+200D>")
        assert "Cannot" not in text
        for rel in ("link[bold]", "b[/x]", CONTROL_FILE, CONTROL_LINK, f"{CONTROL_DIR}/x]",
                    "broken-link", "README.md", "server.py"):
            pane.open_file("repo", rel, None)
            await settle(app, pilot)
            label = str(pane.query_one(".file-label", Static).render())
            assert "\x1b" not in label and "\u200d" not in label
            assert_safe(app)
        pane.open_file("repo", CONTROL_FILE, None)
        await settle(app, pilot)
        assert_safe(app, "evil<ESC>]0;T<BEL><U+200D><U+202E>.py  (", "# <ESC>]52;c;cHduZWQ=<BEL>")
        pane.open_file("repo", "missing[/x]", 3)
        await settle(app, pilot)
        assert_safe(app)
        # Deploy
        pane.show_tab("deploy")
        await settle(app, pilot)
        assert_safe(app)
        # Endpoints: the README's markup in a description; T lists the tests calling one
        await pilot.press("e")
        await settle(app, pilot)
        endpoints = screen.query_one("#endpoints", DataTable)
        rows = [str(endpoints.get_row_at(i)[1]) for i in range(endpoints.row_count)]
        endpoints.move_cursor(row=rows.index("/greet"))
        await settle(app, pilot)
        detail = str(screen.query_one("#endpoint-detail", Static).render())
        assert "Greets [bold]you[/x] with [link=https://example.invalid]a link" in detail
        assert_safe(app)
        await pilot.press("T")
        await settle(app, pilot)
        if isinstance(app.screen, PickScreen):  # the golden test that calls /greet
            assert_safe(app, "test_greet")
            await pilot.press("escape")
            await settle(app, pilot)
        # Compare with the other sample of this run (its repo is missing)
        await pilot.press("c")
        await settle(app, pilot)
        if isinstance(app.screen, PickScreen):
            await pilot.press("enter")
            await settle(app, pilot)
        assert screen.query("#compare-pane")
        assert_safe(app, "missing[/x]")
        assert app.is_running


async def test_a_missing_repo_path_holding_markup_is_named_not_parsed(
        app: InspectorApp, markup_probe: list[str]) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_sample(app, pilot, SAMPLE_1)
        pane = screen.main_pane
        assert pane is not None
        pane.show_tab("files")
        await settle(app, pilot)
        notice = str(pane.query_one(".file-notice", Static).render())
        assert "not available" in notice and "missing[/x]" in notice
        assert_safe(app, "missing[/x]")
        await pilot.press("n", "p")  # next/previous sample: the view is rebuilt each time
        await settle(app, pilot)
        assert app.is_running


# ----------------------------------------------------------------------------------- replay

async def test_replay_of_a_hostile_log(app: InspectorApp, markup_probe: list[str]) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await open_sample(app, pilot, SAMPLE_0)
        await pilot.press("l")
        await settle(app, pilot)
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await pilot.press("G")  # the end: every line, the start log's hostile ones among them
        await settle(app, pilot)
        assert_safe(app, "<U+200D>")
        await pilot.press("slash", *"EVIL", "enter")
        await settle(app, pilot)
        assert_safe(app)
        assert app.is_running


async def test_replay_app_on_a_hostile_log_file(root: Path, markup_probe: list[str]) -> None:
    from inspector.services.logs.deployment_log import locate_sample_log

    folder = root / "runs" / "hostile-run" / "samples" / "echo-svc" / "0"
    app = ReplayApp(locate_sample_log(folder, None, 0, None), speed=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("G")
        await pilot.pause(0.3)
        assert_safe(app, "starting EVIL[/x][bold]B[link=https://example.invalid]L"
                         "[@click=app.quit]Q<ESC>]52", "<U+200D>")
        assert app.is_running


# ---------------------------------------------------------------------------------- labels

async def test_labelling_and_adjudication_with_hostile_labels(app: InspectorApp,
                                                              markup_probe: list[str]) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.labels is not None and not app.label_problems
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press("L")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, LabelScreen)
        assert len(screen.queue.entries) == 2  # one row per failing sample
        text = assert_safe(app, "Cross-file [/x]<ESC>]0;T<BEL><U+200D>", "ana: EVIL[/x][bold]B")
        assert "[@click=app.quit]Q" in text
        assert "bob" not in text or "bob: EVIL" in text  # blind or not, never raw
        await pilot.press("t")  # label one failing test of the sample
        await settle(app, pilot)
        assert_safe(app)
        await pilot.press("D")
        await settle(app, pilot)
        assert isinstance(app.screen, DisagreementScreen)
        assert_safe(app, "Cross-file [/x]<ESC>]0;T<BEL><U+200D>")
        table = app.screen.query_one("#disputes", DataTable)
        for row in range(table.row_count):
            table.move_cursor(row=row)
            await settle(app, pilot)
            assert_safe(app)
        assert "why EVIL[/x]" in screen_text(app) or table.row_count == 1
        assert app.is_running


# -------------------------------------------------- live: re-run, requests, sandboxes

async def _wait(pilot, condition: Callable[[], object], what: str,  # type: ignore[no-untyped-def]
                timeout: float = 120.0) -> None:
    await until(pilot, condition, what, timeout, step=0.2)


@pytest.mark.slow
async def test_rerun_request_and_sandboxes_with_the_hostile_service(
        make_app: Callable[..., InspectorApp], root: Path, tmp_path: Path, venv_cache: Path,
        monkeypatch: pytest.MonkeyPatch, markup_probe: list[str]) -> None:
    """The service deployed for real (local backend): pytest's streamed output, the results,
    the response body and headers, the history and the sandboxes list all hold its payload."""
    venv_cache.mkdir(parents=True, exist_ok=True)
    (tmp_path / "cache").mkdir(parents=True, exist_ok=True)
    (tmp_path / "cache" / "venvs").symlink_to(venv_cache, target_is_directory=True)
    monkeypatch.setenv("GENESIS_INSPECTOR_ALLOW_LOCAL_EXEC", "1")
    app = make_app(root, labels_dir=root / "labels", annotator="ana")
    app.rerun_backend = "local"
    try:
        async with app.run_test(size=SIZE) as pilot:
            sample = await open_sample(app, pilot, SAMPLE_0)
            assert sample.main_pane is not None and sample.main_pane.select_test(GREET)
            await pilot.press("R")
            await pilot.pause()
            rerun = app.screen
            assert isinstance(rerun, RerunScreen)
            await _wait(pilot, lambda: not rerun.running and rerun.report is not None,
                        "the re-run")
            assert rerun.report is not None and rerun.report.deployed, rerun.error
            output = rerun.query_one("#rerun-output", RichLog)
            # a long line is wrapped into several strips: a marker may straddle two
            streamed = "".join(strip.text for strip in output.lines)
            assert "<ESC>]52;c;cHduZWQ=<BEL>" in streamed and "<U+200D>" in streamed
            assert "\x1b" not in streamed and "\u200d" not in streamed
            assert_safe(app)
            await pilot.press("escape")
            await settle(app, pilot)
            await pilot.press("Q")
            await settle(app, pilot)
            request = app.screen
            assert isinstance(request, RequestScreen)
            paths = [ep.path for ep, _ in request.templates]
            endpoints = request.query_one("#req-endpoints", OptionList)
            endpoints.focus()
            endpoints.highlighted = paths.index("/greet")
            await pilot.press("enter")
            await pilot.press("ctrl+s")
            await _wait(pilot, lambda: request.response is not None and request.cancel is None,
                        "the response")
            assert request.response is not None and request.response.status == 500
            body = str(request.query_one("#req-resp-body", Static).render())
            assert "EVIL[/x][bold]B[link=https://example.invalid]L[@click=app.quit]Q" in body
            assert "<ESC>]52;c;cHduZWQ=<BEL>" in body and "<U+202E>" in body
            assert_safe(app, "EVIL[/x][bold]B")
            await pilot.press("ctrl+d")
            await settle(app, pilot)
            assert isinstance(app.screen, SandboxesScreen)
            assert_safe(app, SHOWN_RUN_ID)
            assert app.is_running
    finally:
        if app.has_deployments:
            app.deployments().close()


def test_the_fixture_holds_what_the_issue_names() -> None:
    """The checked-in data really is hostile (the tests above would pass on tame data)."""
    run = json.loads((FIXTURE / "runs" / "hostile-run" / "run.json").read_text("utf-8"))
    for field in ("agent", "model"):
        assert "\x1b]52;" in run[field] and "\x1b]0;" in run[field] and "\u200d" in run[field]
        assert "\u202e" in run[field] and "\x07" in run[field] and "\x1b[2J" in run[field]
    # a run id names folders: no C0 control (the loader refuses one), the rest is there
    assert "[link=" in run["run_id"] and "\u200d" in run["run_id"] and "\x9b" in run["run_id"]
    assert "[/x]" in run["agent"] and "[bold" in run["model"]
    result = json.loads((FIXTURE / "runs" / "hostile-run" / "samples" / "echo-svc" / "0"
                         / "result.json").read_text("utf-8"))
    message = next(c["message"] for c in result["tests"]["cases"] if c["id"] == GREET)
    assert "[/x]" in message and "[@click=app.quit]" in message and "\u200d" in message
    start_log = (FIXTURE / "runs" / "hostile-run" / "samples" / "echo-svc" / "0" / "logs"
                 / "start.log").read_bytes()
    assert b"\x1b]52;c;" in start_log and b"\x1b]0;TITLE\x07" in start_log
    repo = FIXTURE / PREDICTIONS
    assert (repo / "b[" / "x]").is_file() and (repo / "link[bold]").is_symlink()
    assert (FIXTURE / "b[" / "x]" / "run.json").is_file()
