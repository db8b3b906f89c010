"""The HTML report (``inspector.services.report``): what it shows, escaping, determinism,
caps and size."""

from __future__ import annotations

import re
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from inspector import paths
from inspector.model import discover_runs
from inspector.model.labels.agreement import agreement
from inspector.model.labels.label_file import Edit, ItemRef, Label, LabelFile, Stamp
from inspector.model.labels.labelset import LabelSet
from inspector.services.analysis.overview_load import read_labels
from inspector.services.figures.metrics import compute_run_metrics
from inspector.services.report.caps import Caps, head, tail_lines
from inspector.services.report.details import anchor_of
from inspector.services.report.load import assemble, load_report
from inspector.services.report.markup import pct
from inspector.services.report.page import SCRIPT, render, script_hash
from tests.hostile_text import RAW, hostile_root
from tests.report_runs import (
    HOSTILE_RUN,
    HOSTILE_TASK,
    HOSTILE_TEST,
    XSS,
    big_runs,
    case,
    hostile_runs,
    run,
    sample,
)

MB = 1_000_000


class _Tags(HTMLParser):
    """Every start tag and its attributes, as a browser's parser sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def tags(page: str) -> list[tuple[str, dict[str, str | None]]]:
    p = _Tags()
    p.feed(page)
    return p.tags


def assert_self_contained(page: str) -> None:
    """No script but the filter box's (allowed by its hash, nothing else may run), no
    handler, nothing fetched: no src, no external href, no CSS url()."""
    found = tags(page)
    names = {t for t, _ in found}
    assert not names & {"iframe", "object", "embed", "link", "img", "foreignobject"}
    assert [t for t, _ in found].count("script") == 1
    assert page.count("<script") == 1 and f"<script>{SCRIPT}</script>" in page
    assert f"script-src {script_hash(SCRIPT)};" in page
    for tag, attrs in found:
        assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
        assert "src" not in attrs, (tag, attrs)
        href = attrs.get("href") or attrs.get("xlink:href")
        assert href is None or href.startswith("#"), (tag, attrs)
    assert "url(http" not in page and "@import" not in page
    assert 'http-equiv="Content-Security-Policy" content="default-src \'none\'' in page


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = tmp_path_factory.mktemp("index") / "index.sqlite3"
    return render(load_report(paths.sample_runs(), "sample_runs", db_path=db))


def test_bundled_report_shows_summary_matrix_health_labels_and_plots(bundled: str) -> None:
    page = bundled
    runs = discover_runs(paths.sample_runs()).runs
    summary = page[page.index('id="summary"'):page.index('id="matrix"')]
    for r in runs:
        m = compute_run_metrics(r)
        row = summary[summary.index(f"<td>{r.id}</td>"):]
        row = row[:row.index("</tr>")]
        # strict and stock Pass@1, AC, DSR as `inspector summary` computes them
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", row)
        # a run without an evaluable sample has no figure (dash Java: 3 not evaluable)
        fig = pct if m.samples else (lambda _: "—")
        assert [fig(m.pass_at_1), fig(m.test_pass_ratio)] == cells[7:9]
        assert [fig(m.api_coverage), fig(m.dsr), str(m.suites_not_run)] == cells[10:13]
    # the samples the infrastructure left without a verdict: counted and listed apart
    assert '<h3 class="warn" id="not-evaluable">3 of 39 samples not evaluable</h3>' in summary
    assert "repo_readme_1125_dash_m2-mini_Java/javalin-task-manager/0</td>" \
        "<td>dependency_repository_unreachable</td><td>inferred</td>" in summary
    # the matrix: a cell per (task, run) with the app's glyphs, failing cells linked
    matrix = page[page.index('id="matrix"'):page.index('id="health"')]
    assert "✔ 10/10" in matrix and "⊘ install" in matrix and "✘ 7/10" in matrix
    sid = "repo_readme_1125_dash_m2-mini_Python/Multilingual/0"
    assert f'<a href="#{anchor_of(sid)}" title="{sid}">✘ 29/33</a>' in matrix
    section = page[page.index(f'<section class="sample" id="{anchor_of(sid)}">'):]
    section = section[:section.index("</section>")]
    assert "tests/test_translate.py::test_translate_english_to_chinese" in section
    assert "AssertionError: Expected 200, got 500" in section
    # benchmark health and tampering
    health = page[page.index('id="health"'):page.index('id="labels"')]
    assert "Candidate benchmark defects" in health and "never passes" in health
    # labels: category tables and the agreement `inspector labels agreement` reports
    labels = page[page.index('id="labels"'):page.index('id="plots"')]
    assert "Failure categories by agent" in labels and "Failure categories by framework" in labels
    li = read_labels(paths.sample_runs() / "labels").input
    assert li is not None
    report = agreement(li.labels.ratings(), list(li.taxonomy.ids))
    for p in report.pairs:
        assert f"<td>{p.a}</td><td>{p.b}</td><td class=n>{p.items}</td>" in labels
        assert p.kappa is not None and f"{p.kappa:.3f}" in labels
    assert f"{report.alpha:.3f}" in labels
    # plots as inline SVG, ids unique over the page
    plots = page[page.index('id="plots"'):page.index('id="samples"')]
    assert plots.count('<svg class="plot"') == 2  # tiers and categories; no cost recorded
    assert "Not drawn: generation cost not recorded" in plots
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    assert "<?xml" not in page and "<!DOCTYPE svg" not in page
    assert_self_contained(page)


def test_every_failing_cell_links_to_a_section_that_exists(bundled: str) -> None:
    links = set(re.findall(r'<a href="#(s-[0-9a-f]+x*)"', bundled))
    sections = set(re.findall(r'<section class="sample" id="(s-[0-9a-f]+x*)"', bundled))
    assert links and links <= sections
    # the stock copies are twins, not counted; the 3 not-evaluable Java samples are no failure
    assert "All 23 failing samples" in bundled


def test_same_input_gives_the_same_bytes(bundled: str, tmp_path: Path) -> None:
    again = render(load_report(paths.sample_runs(), "sample_runs",
                               db_path=tmp_path / "other.sqlite3"))
    assert again.encode() == bundled.encode()


def test_hostile_names_and_texts_are_escaped_and_sanitised(tmp_path: Path) -> None:
    log = tmp_path / "tests.log"
    log.write_text("".join(f"line {i}\n" for i in range(5)) + f"{XSS}\x1b]52;c;eA==\x07\n",
                   encoding="utf-8")
    page = render(assemble("t<b>", "runs <&>", hostile_runs(log)))
    assert_self_contained(page)
    for raw in (*RAW, "\x1b", "\x07"):
        assert raw not in page
    assert page.lower().count("<script") == 1  # the filter box's own (assert_self_contained)
    assert "<img" not in page and "<svg onload" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#x27;&gt;&lt;img" in page
    assert ("task&lt;script&gt;alert(&#x27;t&#x27;)&lt;/script&gt;&lt;ESC&gt;]0;T&lt;BEL&gt;"
            "&lt;U+202E&gt;") in page
    assert "tests/test_x.py::test_&lt;b&gt;bold&lt;/b&gt;\\x9b" in page
    assert "run&quot;&gt;&lt;svg onload=alert(3)&gt;&lt;U+200D&gt;" in page
    assert "&lt;ESC&gt;]52;c;eA==&lt;BEL&gt;" in page  # the log line, its controls made visible
    assert "runs &lt;&amp;&gt;" in page
    assert HOSTILE_RUN not in page and HOSTILE_TASK not in page and HOSTILE_TEST not in page


def test_hostile_fixture_run_is_escaped_end_to_end(tmp_path: Path) -> None:
    root = hostile_root(tmp_path)
    page = render(load_report(root, str(root), db_path=tmp_path / "i.sqlite3"))
    assert_self_contained(page)
    for raw in RAW:
        assert raw not in page
    assert "run[bold]R[link=x]Z&lt;U+200D&gt;W&lt;U+202E&gt;R&lt;U+2066&gt;I\\x9bC" in page


def test_cut_texts_say_what_was_left_out() -> None:
    assert head("abcdef", 3).text == "abc…" and head("abcdef", 3).note == \
        "first 3 of 6 characters"
    assert head("abc", 3).note == ""
    cut = tail_lines([f"l{i}" for i in range(100)], 10, 1000)
    assert cut.text.split("\n") == [f"l{i}" for i in range(90, 100)]
    assert cut.note == "last 10 of 100 lines"
    one = tail_lines(["x" * 50], 10, 20)
    assert len(one.text) == 20 and one.note == "last 1 of 1 lines (its end only)"
    assert tail_lines(["a", "b"], 10, 100).note == ""


def test_sections_are_capped_per_sample_with_notes(tmp_path: Path) -> None:
    log = tmp_path / "tests.log"
    log.write_text("".join(f"log line {i}\n" for i in range(1000)), encoding="utf-8")
    tb = "".join(f"frame {i}\n" for i in range(100))
    cases = tuple(case(i, "m" * 1000, tb) for i in range(12))
    r = run("r1", [sample("r1", "alpha", 0, cases, passed=3, log=log)])
    page = render(assemble("x", "runs", [r]))
    section = page[page.index('<section class="sample"'):]
    assert section.count('<div class="test">') == 5
    assert "7 more failing tests not shown" in section
    assert "<code>inspector failures runs</code>" in section
    assert "(first 400 of 1,000 characters)" in section
    assert "(last 20 of 100 lines)" in section and "frame 99" in section
    assert "frame 79" not in section
    assert "(last 30 of 1,000 lines)" in section and "log line 999" in section
    assert "log line 969" not in section
    assert "inspector replay runs alpha --sample 0 --run r1" in section


def test_total_caps_leave_samples_out_with_a_note() -> None:
    runs = [run("r1", [sample("r1", f"t{t}", n, (case(1),)) for t in range(4)
                       for n in range(3)])]
    page = render(assemble("x", "runs", runs, caps=Caps(sections=6, detail_chars=10_000)))
    assert page.count('<section class="sample"') == 4  # one per failing cell (compact caps)
    assert "8 of 12 failing samples have no section here" in page
    assert "<code>inspector failures runs</code>" in page


def test_big_synthetic_corpus_stays_under_5_mb_and_every_failing_cell_links() -> None:
    runs = big_runs()
    started = time.perf_counter()
    page = render(assemble("big", "/data/corpus", runs))
    seconds = time.perf_counter() - started
    size = len(page.encode())
    assert size <= 5 * MB, size
    assert seconds < 30, seconds
    failing_cells = sum(1 for r in runs for t in {s.task for s in r.samples}
                        if any(not s.passed for s in r.samples if s.task == t))
    assert len(re.findall(r'<a href="#s-', page)) >= failing_cells == 2000
    assert "failing samples have no section here" in page
    assert "inspector failures /data/corpus" in page


def test_the_log_excerpt_is_centred_on_the_first_error(tmp_path: Path) -> None:
    """Issue 32 item 10: 900 lines, the first error at line 131: the excerpt shows lines
    121-150 with that line marked and says so, not the last 30 lines."""
    log = tmp_path / "tests.log"
    lines = [f"log line {i}" for i in range(900)]
    lines[130] = "Traceback (most recent call last):"
    lines[131] = "ValueError: boom"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = run("r1", [sample("r1", "alpha", 0, (case(1),), log=log)])
    page = render(assemble("x", "runs", [r]))
    section = page[page.index('<section class="sample"'):]
    assert "(lines 121–150 of 900, around the first error (line 131))" in section
    assert '<mark class="first-error">[tests] Traceback (most recent call last):</mark>' \
        in section
    assert "[tests] log line 120\n" in section and "[tests] log line 149</pre>" in section
    assert "log line 119\n" not in section and "log line 899" not in section


def test_failing_sections_list_labels_with_reason_suggestion_and_re_run() -> None:
    """Issue 32 item 10: each label (who, category, confidence, reason), the adjudicator's
    first with the reason given with it, the suggestion the label was made with and the
    causal re-run kept with it."""
    sid = "r1/alpha/0"
    test = "tests/test_api.py::test_1"
    made = {"category": "dependency", "rule": "missing-module", "confidence": "0.91",
            "reason": "No module named 'yaml' <b>", "confirmation": "supports",
            "confirmation_outcome": "all 3 tests pass with PyYAML installed"}
    ana = Label(ItemRef(sid, test), "dependency", "high", "policy.py imports yaml",
                suggestion=made)
    ben = Label(ItemRef(sid, test), "cross-file", "low", "")
    adj = Label(ItemRef(sid, test), "dependency", "high",
                updated=Stamp("2026-01-01T00:00:00Z", "carla"),
                history=(Edit("2026-01-01T00:00:00Z", "carla", "create", {},
                              "yaml is never declared"),))
    labels = LabelSet({"ana": LabelFile("ana", labels=(ana,)),
                       "ben": LabelFile("ben", labels=(ben,))},
                      LabelFile("adjudication", "adjudication", labels=(adj,)))
    r = run("r1", [sample("r1", "alpha", 0, (case(1),)), sample("r1", "beta", 0, (case(1),))])
    page = render(assemble("x", "runs", [r], label_set=labels))
    section = page[page.index(f'id="{anchor_of(sid)}"'):]
    section = section[:section.index("</section>")]
    shown = section[section.index("<h4>Labels</h4>"):section.index("<h4>Failing tests")]
    assert shown.count("<li>") == 3
    assert ("<li>test <code>tests/test_api.py::test_1</code>: <b>adjudication (by carla)</b>: "
            "dependency (high) <span class=\"note\">(final: dependency, adjudicated)</span> — "
            "yaml is never declared</li>") in shown
    assert "<b>ana</b>: dependency (high) — policy.py imports yaml" in shown
    assert "suggested: dependency (0.91) — No module named &#x27;yaml&#x27; &lt;b&gt;" in shown
    assert "causal re-run: supports: all 3 tests pass with PyYAML installed" in shown
    assert "<b>ben</b>: cross-file (low)</li>" in shown
    other = page[page.index(f'id="{anchor_of("r1/beta/0")}"'):]
    assert "<h4>Labels</h4>" not in other[:other.index("</section>")]
