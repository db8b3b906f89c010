"""The HTML report in real headless Chromium, opened from ``file://`` with every other
request refused: it renders (summary, matrix, an inline SVG plot), a failing matrix cell
opens the right sample's section with its failing test, every table fits a 1,280 px window,
the filter box finds a failing test (and without scripts everything shows), and the dark and
print styles apply."""

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
    from inspector.services.report.page import SCRIPT

    # the one script is the page's own filter box (allowed by its hash); nothing injected ran
    assert page.evaluate("[...document.scripts].map(s => s.text)") == [SCRIPT]
    assert page.locator("img").count() == 0 and page.locator("svg[onload]").count() == 0
    section = page.locator("section.sample").first
    text = section.inner_text()
    assert "<script>alert(1)</script>" in text  # shown, as text
    assert "task<script>alert('t')</script><ESC>]0;T<BEL><U+202E>" in page.locator(
        "table.matrix td.task").first.inner_text()
    screenshot(page, "hostile")
    assert dialogs == [] and refused == []


#: Every table: its right edge, and whether it sits in a scroll box whose first column stays
#: in view once scrolled to the right (each row's first cell inside the box's left edge).
_FIT = """() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('table')].map(t => {
        const box = t.parentElement;
        const out = {cls: t.className, right: t.getBoundingClientRect().right, width,
                     scrolls: box.scrollWidth > box.clientWidth, sticky: null};
        if (out.scrolls) {
            box.scrollLeft = box.scrollWidth;
            const left = box.getBoundingClientRect().left;
            out.sticky = [...t.rows].every(r => {
                const c = r.cells[0].getBoundingClientRect();
                return c.left >= left - 1 && c.right <= left + box.clientWidth;
            });
            box.scrollLeft = 0;
        }
        return out;
    });
}"""


def _wide_matrix(tmp: Path) -> Path:
    """24 runs whose ids and agent/model names are 90 characters long: a matrix wider than
    the window."""
    from report_runs import case, run, sample

    from inspector.services.report.load import assemble
    from inspector.services.report.page import render

    runs = []
    for r in range(24):
        rid = f"repo_readme_1125_{'very-long-agent-name-' * 3}{r}_{'model' * 6}_Python"
        runs.append(run(rid, [sample(rid, f"task-{t}", 0, (case(1),) if (r + t) % 3 else ())
                              for t in range(6)],
                        agent="AgentWithAVeryLongNameThatHasNoBreakAtAll" + str(r),
                        model="model-" * 8))
    out = tmp / "wide.html"
    out.write_text(render(assemble("wide", "runs", runs)), encoding="utf-8")
    return out


def _assert_fits(page) -> None:  # type: ignore[no-untyped-def]
    tables = page.evaluate(_FIT)
    assert tables
    for t in tables:
        assert t["right"] <= t["width"] + 0.5 or (t["scrolls"] and t["sticky"]), t
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280


def test_every_table_fits_a_1280_px_window(page, report: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                            screenshot) -> None:
    """Issue 32 item 7: the health table's detail column was clipped (1,827 px wide in a
    1,240 px box), long run names overflowed the matrix headers."""
    open_offline(page, report)
    _assert_fits(page)
    health = page.locator("table.health")
    assert health.bounding_box()["width"] <= 1240  # type: ignore[index]
    health.scroll_into_view_if_needed()
    screenshot(page, "health")
    open_offline(page, _wide_matrix(tmp_path))
    _assert_fits(page)
    matrix = page.locator("table.matrix")
    wrapper = page.locator("table.matrix >> xpath=..")
    assert wrapper.evaluate("e => e.scrollWidth > e.clientWidth")  # it does scroll
    heads = matrix.locator("thead th[title]")
    assert heads.count() == 24
    for i in (0, 23):
        th = heads.nth(i)
        assert th.get_attribute("title", timeout=1000).startswith("repo_readme_1125_very-long")
        box = th.bounding_box()
        assert box is not None and box["width"] <= 112 and box["height"] <= 60, box
        # the name is wrapped and elided inside its header, never drawn past it
        assert th.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    wrapper.evaluate("e => e.scrollLeft = e.scrollWidth")
    task = matrix.locator("td.task").first
    assert task.bounding_box()["x"] >= 0  # type: ignore[index]
    screenshot(page, "wide-matrix-scrolled")


def test_the_filter_box_finds_a_failing_test_and_the_page_works_without_it(  # type: ignore[no-untyped-def]
        browser, page, report: Path, screenshot) -> None:
    """Issue 32 item 8: typing a failing test's name leaves its sample's section and matrix
    row and says how many match; the CSP lets exactly that script run; without JavaScript
    there is no box and everything shows."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning")
            else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    open_offline(page, report)
    box = page.locator("nav input#filter")
    sections = page.locator("section.sample")
    total = sections.count()
    assert total > 20
    box.fill(FAILING_TEST.split("::")[1])
    count = page.locator("#filter-count")
    assert count.inner_text() == f"1 of {total} failing samples, " + \
        count.inner_text().split(", ", 1)[1]
    assert page.locator("section.sample:not([hidden])").count() == 1
    shown = page.locator("section.sample:not([hidden]) h3").text_content()
    assert shown == SAMPLE
    rows = page.locator("table.matrix tbody tr:not([hidden])")
    assert rows.count() == 1 and rows.locator("td.task").inner_text() == "Multilingual"
    assert page.locator("table.health tbody tr[hidden]").count() > 0
    screenshot(page, "filtered")
    box.press("Escape")
    assert page.locator("section.sample[hidden], tr[hidden]").count() == 0
    assert count.inner_text() == ""
    assert problems == []

    off = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        plain = off.new_page()
        open_offline(plain, report)
        assert plain.locator("#filter").count() == 0
        assert plain.locator("section.sample").count() == total
        assert plain.locator("[hidden]").count() == 0
        last = plain.locator("section.sample").last
        last.scroll_into_view_if_needed()
        assert last.is_visible() and FAILING_TEST in plain.locator(
            f"section.sample:has(h3:text-is('{SAMPLE}'))").text_content()
    finally:
        off.close()


def _luminance(css: str) -> float:
    r, g, b = (int(x) / 255 for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


_STYLE = "(e, p) => getComputedStyle(e)[p]"


def test_dark_scheme_and_print_styles(page, report: Path, screenshot) -> None:  # type: ignore[no-untyped-def]
    """Issue 32 item 9: a dark page for a dark system; on paper no sticky bar, no scroll
    boxes, no filter box, long texts and folded tracebacks printed whole."""
    page.emulate_media(color_scheme="dark")
    open_offline(page, report)
    body = page.locator("body")
    bg, fg = body.evaluate(_STYLE, "backgroundColor"), body.evaluate(_STYLE, "color")
    assert _luminance(bg) < 0.05 and _contrast(fg, bg) >= 7, (fg, bg)
    th = page.locator("table.summary th").first
    assert _contrast(th.evaluate(_STYLE, "color"), th.evaluate(_STYLE, "backgroundColor")) >= 7
    link = page.locator("table.matrix a").first
    cell = page.locator("table.matrix td:has(a)").first
    assert _contrast(link.evaluate(_STYLE, "color"),
                     cell.evaluate(_STYLE, "backgroundColor")) >= 4.5
    screenshot(page, "dark")

    page.emulate_media(media="print", color_scheme="light")
    assert page.locator("nav").evaluate(_STYLE, "display") == "none"
    assert page.locator("#filter").count() == 1 and not page.locator("#filter").is_visible()
    scroll = page.locator("table.health >> xpath=..")
    assert scroll.evaluate(_STYLE, "overflowX") == "visible"
    first = page.locator("table.matrix td.task").first
    assert first.evaluate(_STYLE, "position") == "static"
    log = page.locator("pre.log").first
    assert log.evaluate(_STYLE, "maxHeight") == "none"
    folded = page.locator("section.sample details:not([open]) pre").first
    box = folded.bounding_box()
    assert box is not None and box["height"] > 20  # a closed traceback prints whole
    assert _luminance(body.evaluate(_STYLE, "backgroundColor")) > 0.9
