"""The HTML report in real headless Chromium, opened from ``file://`` with every other
request refused: it renders (summary, matrix, an inline SVG plot), and a failing matrix
cell opens the right sample's section with its failing test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .chromium import open_offline, paint_timing

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = "repo_readme_1125_dash_m2-mini_Python/Multilingual/0"
FAILING_TEST = "tests/test_translate.py::test_translate_english_to_chinese"
RENDER_LIMIT_MS = 2000


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of the bundled runs, written by the real command."""
    tmp = tmp_path_factory.mktemp("report")
    env = dict(os.environ, GENESIS_INSPECTOR_CONFIG=str(tmp / "config.toml"),
               GENESIS_INSPECTOR_CACHE=str(tmp / "cache"))
    out = tmp / "report.html"
    subprocess.run([sys.executable, "-m", "inspector", "report", str(ROOT / "sample_runs"),
                    "--html", str(out), "--quiet"], check=True, env=env, timeout=300)
    return out


def test_report_renders_offline(page, report: Path, screenshot) -> None:  # type: ignore[no-untyped-def]
    refused = open_offline(page, report)
    assert page.locator("h1").inner_text().startswith("Genesis Inspector report: sample_runs")
    summary = page.locator("table.summary")
    assert summary.is_visible()
    assert summary.locator("tbody tr").count() == 6  # stock-layout copies: twins
    assert "repo_readme_1118_forge_m1-large_Python" in summary.inner_text()
    assert page.locator("table.matrix").is_visible()
    plot = page.locator("svg.plot").first
    plot.scroll_into_view_if_needed()
    box = plot.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 150
    assert "Pass@1 by difficulty tier" in plot.inner_html()
    assert screenshot(page, "plot").stat().st_size > 10_000
    page.evaluate("window.scrollTo(0, 0)")
    assert screenshot(page, "top").stat().st_size > 10_000
    assert refused == []


def test_failing_cell_opens_its_sample_section(page, report: Path, screenshot) -> None:  # type: ignore[no-untyped-def]
    refused = open_offline(page, report)
    cell = page.locator(f'table.matrix a[title="{SAMPLE}"]')
    assert cell.inner_text() == "✘ 29/33"
    cell.scroll_into_view_if_needed()
    screenshot(page, "matrix")
    anchor = cell.get_attribute("href")
    assert anchor is not None and anchor.startswith("#s-")
    cell.click()
    page.wait_for_function(f"location.hash === {anchor!r}")
    assert page.url.endswith(anchor)
    section = page.locator("section.sample:target")
    assert section.get_attribute("id") == anchor[1:]
    assert section.locator("h3").inner_text() == SAMPLE
    failing = section.locator(".test .id").first
    assert failing.inner_text() == FAILING_TEST
    assert failing.is_visible()
    # the section is on screen, below the sticky navigation bar
    top = section.bounding_box()
    assert top is not None and 0 <= top["y"] < 900
    assert "AssertionError: Expected 200, got 500" in section.inner_text()
    assert screenshot(page, "sample").stat().st_size > 10_000
    # a traceback opens on a click
    section.locator("details summary").first.click()
    assert section.locator("details pre").first.is_visible()
    assert refused == []


def test_report_renders_within_two_seconds(page, report: Path) -> None:  # type: ignore[no-untyped-def]
    open_offline(page, report)
    timing = paint_timing(page, wait_ms=5000)
    assert timing["load"] < RENDER_LIMIT_MS, timing
    assert timing["paint"] is not None and timing["paint"] < RENDER_LIMIT_MS, timing


def test_hostile_texts_show_as_text_and_run_nothing(page, tmp_path: Path, screenshot) -> None:  # type: ignore[no-untyped-def]
    from report_runs import XSS, hostile_runs

    from inspector.services.report.load import assemble
    from inspector.services.report.page import render

    log = tmp_path / "tests.log"
    log.write_text(f"starting\n{XSS}\n", encoding="utf-8")
    out = tmp_path / "hostile.html"
    out.write_text(render(assemble("hostile", "runs", hostile_runs(log))), encoding="utf-8")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    refused = open_offline(page, out)
    assert page.evaluate("document.scripts.length") == 0
    assert page.locator("img").count() == 0 and page.locator("svg[onload]").count() == 0
    section = page.locator("section.sample").first
    text = section.inner_text()
    assert "<script>alert(1)</script>" in text  # shown, as text
    assert "task<script>alert('t')</script><ESC>]0;T<BEL><U+202E>" in page.locator(
        "table.matrix td.task").first.inner_text()
    screenshot(page, "hostile")
    assert dialogs == [] and refused == []
