"""Tampering findings are untrusted text (issue 27, part 4): a crafted ``result.json`` whose
findings hold terminal escapes (OSC 0 sets the window title, OSC 52 fills the clipboard), a
line break that would start a forged finding, and bidi controls, in the kind, the path and the
detail. Opened in the app, the sample's tampering banner and the Health tab show all of it as
visible text; nothing reaches the terminal or a markup parser."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile_text import SAMPLE_0, hostile_root
from textual.widgets import DataTable, Static

from inspector.ui.app import InspectorApp

from .conftest import open_sample, settle
from .test_hostile_text import SIZE, assert_safe, markup_probe  # noqa: F401 - a fixture

KIND = "pytest_plugin\x1b]0;OWNED\x07\x1b]52;c;cHduZWQ=\x07\ndeliberate forged: all clear"
FINDINGS = [
    {"kind": KIND, "path": "conf\x1b[2Jtest.py", "detail": "hook \u202eevil\u200d\x07",
     "deliberate": True},
    {"kind": "root_conftest", "path": "conftest.py", "detail": "ok\x1b]0;T2\x07\nforged",
     "deliberate": False},
]
#: How the kind is shown: every escape and the line break visible, on the finding's own line.
SHOWN_KIND = ("pytest plugin<ESC>]0;OWNED<BEL><ESC>]52;c;cHduZWQ=<BEL><LF>"
              "deliberate forged: all clear")


def _root(tmp_path: Path) -> Path:
    root = hostile_root(tmp_path)
    result = next(root.glob("runs/*/samples/echo-svc/0/result.json"))
    doc = json.loads(result.read_text("utf-8"))
    doc["tampering"] = FINDINGS
    result.write_text(json.dumps(doc), encoding="utf-8")
    return root


@pytest.fixture
def app(make_app: Callable[..., InspectorApp], tmp_path: Path) -> InspectorApp:
    root = _root(tmp_path)
    return make_app(root, labels_dir=root / "labels", annotator="ana")


async def test_the_tampering_banner_shows_every_field_as_text(
        app: InspectorApp, markup_probe: list[str]) -> None:  # noqa: F811
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_sample(app, pilot, SAMPLE_0)
        pane = screen.main_pane
        assert pane is not None
        banner = str(pane.query_one(".tamper-warning", Static).render())
        lines = banner.splitlines()
        assert lines[0].startswith("⚠ Tampering attempt: 2 findings, 1 deliberate")
        assert len(lines) == 3, banner  # one line per finding: no forged line
        assert SHOWN_KIND in lines[1]
        assert "hook <U+202E>evil<U+200D><BEL>" in lines[1]
        assert "ok<ESC>]0;T2<BEL><LF>forged" in lines[2]
        assert_safe(app, "<ESC>]0;OWNED<BEL>")


async def test_the_health_tab_shows_every_field_as_text(
        app: InspectorApp, markup_probe: list[str]) -> None:  # noqa: F811
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("4")
        await settle(app, pilot)
        table = app.main_screen.query_one("#health-table", DataTable)
        row = next(i for i in range(table.row_count)
                   if "tampering" in str(table.get_row_at(i)[0]))
        table.move_cursor(row=row)
        await settle(app, pilot)
        detail = str(app.main_screen.query_one("#health-detail", Static).render())
        assert SHOWN_KIND in detail and "<LF>forged" in detail
        assert "\x1b" not in detail
        assert_safe(app, "conf<ESC>[2Jtest.py")
