"""``inspector report PATH --html OUT.html`` as a user runs it: the real command in a
subprocess."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_RUNS = ROOT / "sample_runs"


def inspector(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, GENESIS_INSPECTOR_CONFIG=str(tmp_path / "config.toml"),
               GENESIS_INSPECTOR_CACHE=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, env=env, timeout=300, cwd=tmp_path)


def test_report_writes_one_page_and_the_same_bytes_twice(tmp_path: Path) -> None:
    first = inspector(tmp_path, "report", str(SAMPLE_RUNS), "--html", "a.html")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("wrote a.html: ") and "6 runs, 17 tasks" in first.stdout
    assert "report: reading runs…" in first.stderr
    second = inspector(tmp_path, "report", str(SAMPLE_RUNS), "--html", "b.html", "--quiet")
    assert second.returncode == 0 and second.stdout == "" and second.stderr == ""
    a, b = (tmp_path / "a.html").read_bytes(), (tmp_path / "b.html").read_bytes()
    assert a == b and a.startswith(b"<!DOCTYPE html>") and len(a) < 1_000_000
    assert b"repo_readme_1125_dash_m2-mini_Python/Multilingual/0" in a


def test_report_errors_are_one_clear_line(tmp_path: Path) -> None:
    missing = inspector(tmp_path, "report", str(tmp_path / "nope"), "--html", "x.html")
    assert missing.returncode == 2
    assert missing.stderr.strip() == f"inspector: error: {tmp_path / 'nope'}: no such file or " \
                                      "folder"
    out = inspector(tmp_path, "report", str(SAMPLE_RUNS), "--html", "no/such/x.html")
    assert out.returncode == 1 and out.stderr.strip() == \
        "inspector: error: no/such: no such folder (for --html no/such/x.html)"
    (tmp_path / "empty").mkdir()
    empty = inspector(tmp_path, "report", str(tmp_path / "empty"), "--html", "x.html",
                      "--quiet")
    assert empty.returncode == 1 and "no runs found" in empty.stderr
    assert len(empty.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.html").exists()
    need = inspector(tmp_path, "report", str(SAMPLE_RUNS))
    assert need.returncode == 2 and "--html" in need.stderr



@pytest.fixture(scope="module")
def bundled_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, Path]:
    """The report of a copy of the bundled runs (a space in the copy's path): the page, the
    copy and the folder the command ran in."""
    tmp = tmp_path_factory.mktemp("report")
    copy = tmp / "my runs" / "sample_runs"
    shutil.copytree(SAMPLE_RUNS, copy)
    out = inspector(tmp, "report", str(copy), "--html", "r.html", "--quiet")
    assert out.returncode == 0, out.stderr
    return (tmp / "r.html").read_text(encoding="utf-8"), copy, tmp


def test_the_report_holds_no_absolute_path_of_the_machine(
        bundled_report: tuple[str, Path, Path]) -> None:
    """Issue 28 item 8: the bundled runs' report (46 distinct paths from log tails and
    tracebacks before, 308 occurrences) names no folder of the machine that made it."""
    page, copy, tmp = bundled_report
    for prefix in {str(copy), str(copy.resolve()), str(tmp), tempfile.gettempdir(),
                   str(Path.home()), str(ROOT)}:
        assert prefix not in page, prefix
    leaks = re.findall(r"(?:/work/|/root/|/home/|/tmp/)[^\s<\"&']*", page)
    assert leaks == []
    # what was a path is still there, shown relative or by its last components
    assert "inspector replay &#x27;sample_runs&#x27; Multilingual --sample 0" in page
    assert "…/site-packages/requests/api.py:71: in request" in page
    # (a log excerpt around the first error: Multilingual's junit.xml line is no longer shown)
    assert "repo_readme_1125_atlas_m2-large_Python/samples/WebPan/0/junit.xml" in page


def test_the_report_gives_each_run_its_figures_with_95_percent_intervals(
        bundled_report: tuple[str, Path, Path]) -> None:
    """Issue 28 item 9: atlas, 4 of 8 tasks passed, one sample each: Wilson 21.5–78.5%."""
    page = bundled_report[0]
    row = re.search(r"<tr><td>\d+</td><td>repo_readme_1125_atlas_m2-large_Python</td>"
                    r"<td>([^<]*)</td><td>([^<]*)</td></tr>", page)
    assert row is not None
    assert row[1] == "50.0% (95% CI 21.5–78.5%, Wilson, n=8 tasks)"
    assert row[2].startswith("75.5% (95% CI ") and "bootstrap over tasks, n=8 tasks" in row[2]


def test_failing_sections_show_labels_and_the_log_around_the_first_error(
        bundled_report: tuple[str, Path, Path]) -> None:
    """Issue 32 item 10: the labels of each failing sample (the adjudicator's with its
    reason first), and its log excerpt centred on the replay's first error line."""
    page = bundled_report[0]

    def section(sid: str) -> str:
        s = page[page.index(f"<h3>{sid}</h3>"):]
        return s[:s.index("</section>")]

    quote = section("repo_readme_1118_forge_m1-large_Python/quote-board/0")
    assert ("<b>adjudication (by carla)</b>: Not a model failure (high) <span class=\"note\">"
            "(final: Not a model failure, adjudicated)</span> — test_quote_model.py needs "
            "app.models, which the README never asks for; the API tests pass") in quote
    assert "<b>ben</b>: Cross-file consistency (low) — The test expects app/models.py" in quote
    inventory = section("repo_readme_1119_relay_open_coder-7b_Python/inventory-api/0")
    assert "<b>ana</b>: Dependency management (high) <span class=\"note\">(final: Dependency " \
           "management, agreed)</span> — policy.py imports yaml" in inventory
    assert "(lines 88–117 of 318, around the first error (line 98))" in inventory
    assert '<mark class="first-error">[tests] tests/test_inventory.py::' \
           "test_reserve_increases_reserved FAILED" in inventory
    assert "ModuleNotFoundError: No module named &#x27;yaml&#x27;" in inventory
