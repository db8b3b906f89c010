"""Control characters in untrusted text are shown as printable-ASCII markers (``<ESC>``,
``<BEL>``) that every font draws, in the served app and in the HTML report, in headless
Chromium. The Control Pictures used before (U+241B, U+2407) are missing from the served app's
bundled font, so the safeguard showed as blanks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.hostile_text import RUN, hostile_root

from .chromium import open_offline
from .served import CAPTURE, serve, wait_for_text

pytestmark = pytest.mark.slow

PICTURES = [chr(c) for c in range(0x2400, 0x2427)]  # Control Pictures
#: The hostile run folder's name (OSC 0 ended by BEL), as the run detail shows its source.
SHOWN_FOLDER = "bad<ESC>]0;T<BEL><U+200D>/run.json"


def test_served_app_and_report_show_ascii_markers(page: Any, tmp_path: Path,
                                                  screenshot: Any) -> None:
    from inspector.services.report.load import assemble
    from inspector.services.report.page import render
    from tests.report_runs import hostile_runs

    assert "\x1b]52;c;cHduZWQ=\x07" in RUN["agent"]  # the fixture is hostile
    root = hostile_root(tmp_path)
    env = {"GENESIS_INSPECTOR_CONFIG": str(tmp_path / "config.toml"),
           "GENESIS_INSPECTOR_CACHE": str(tmp_path / "cache")}
    page.add_init_script(CAPTURE)
    with serve(root, env=env) as served:
        served.as_annotator(page.context)
        page.goto(served.url)
        screen = wait_for_text(page, "Genesis Inspector", SHOWN_FOLDER)
        screenshot(page, "served")
    assert not [p for p in PICTURES if p in screen], screen

    log = tmp_path / "tests.log"
    log.write_text("starting\nbell\x07 and \x1b[2J clear\n", encoding="utf-8")
    out = tmp_path / "hostile.html"
    out.write_text(render(assemble("hostile", "runs", hostile_runs(log))), encoding="utf-8")
    assert open_offline(page, out) == []
    text = page.locator("body").inner_text()
    assert "bell<BEL> and <ESC>[2J clear" in text  # the log excerpt
    assert "task<script>alert('t')</script><ESC>]0;T<BEL><U+202E>" in text  # the task name
    assert not [p for p in PICTURES if p in text]
    page.get_by_text("bell<BEL> and <ESC>[2J clear").first.scroll_into_view_if_needed()
    screenshot(page, "report")
