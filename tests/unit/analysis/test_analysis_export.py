"""The analysis export: the table renderers on a hand-made table, and the real export of the
bundled runs (files, SVG text, PNG headers, byte-identical repeats)."""

from __future__ import annotations

import csv
import io
import json
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from inspector.model.results.sample import Generation
from inspector.services.analysis.compare import compare_runs
from inspector.services.analysis.export import ExportError, export_analysis
from inspector.services.analysis.export_tables import (
    Column,
    Table,
    render_csv,
    render_json,
    render_latex,
    render_md,
)
from inspector.services.analysis.outcomes import RunOutcomes
from inspector.services.analysis.overview import Overview
from inspector.services.analysis.overview_load import (
    labels_folder_for,
    overview_of_folder,
    read_labels,
)
from tests.analysis_runs import write_run

ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
SVG = "{http://www.w3.org/2000/svg}"

TABLE = Table(
    "t", "Pass@1 & cost: 100% of $x_1 {a} ~b ^c #d \\e", "tab:t",
    (Column("run_id"), Column("pass@1", "share"), Column("cost", "money"),
     Column("n", "int"), Column("score", "number", 2)),
    (("a_b & c", 0.5, 0.0125, 3, 1.005),
     ('say "hi", then\nleave', None, None, None, 7)),
    ("50% of runs; see #3",))


def test_latex_escapes_every_special_character_in_a_booktabs_table() -> None:
    assert render_latex(TABLE) == "\n".join([
        r"% requires \usepackage{booktabs}",
        r"\begin{table}[t]",
        r"\centering",
        r"\caption{Pass@1 \& cost: 100\% of \$x\_1 \{a\} \textasciitilde{}b "
        r"\textasciicircum{}c \#d \textbackslash{}e}",
        r"\label{tab:t}",
        r"\begin{tabular}{lrrrr}",
        r"\toprule",
        r"run\_id & pass@1 & cost & n & score \\",
        r"\midrule",
        r"a\_b \& c & 50.0\% & \$0.0125 & 3 & 1.01 \\",
        r'say "hi", then leave & -- & -- & -- & 7 \\',
        r"\bottomrule",
        r"\end{tabular}",
        r"\par\smallskip",
        r"{\footnotesize 50\% of runs; see \#3}",
        r"\end{table}",
        ""])


def test_markdown_is_a_pipe_table_with_numbers_right_aligned() -> None:
    lines = render_md(TABLE).splitlines()
    assert lines[0] == r"**Pass@1 & cost: 100% of $x_1 {a} ~b ^c #d \\e**"
    assert lines[2] == "| run_id | pass@1 | cost | n | score |"
    assert lines[3] == "| --- | ---: | ---: | ---: | ---: |"
    assert lines[4] == "| a_b & c | 50.0% | $0.0125 | 3 | 1.01 |"
    assert lines[5] == '| say "hi", then leave | — | — | — | 7 |'  # one line per row
    assert lines[-1] == "50% of runs; see #3"


def test_csv_round_trips_through_the_csv_reader() -> None:
    rows = list(csv.reader(io.StringIO(render_csv(TABLE), newline="")))
    assert rows == [["run_id", "pass@1", "cost", "n", "score"],
                    ["a_b & c", "0.5", "0.0125", "3", "1.005"],
                    ['say "hi", then\nleave', "", "", "", "7"]]


def test_json_has_typed_columns_and_rows_as_objects() -> None:
    doc = json.loads(render_json(TABLE))
    assert doc["columns"][1] == {"name": "pass@1", "kind": "share"}
    assert doc["rows"][0] == {"run_id": "a_b & c", "pass@1": 0.5, "cost": 0.0125, "n": 3,
                              "score": 1.005}
    assert doc["rows"][1]["pass@1"] is None and doc["notes"] == ["50% of runs; see #3"]


def test_a_row_of_the_wrong_width_is_refused() -> None:
    with pytest.raises(ValueError, match="a row has 1 cells, expected 2"):
        Table("x", "x", "tab:x", (Column("a"), Column("b")), (("only one",),))


# --- the real export ----------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="module")
def bundled(sample_runs: Path, tmp_path_factory: pytest.TempPathFactory) -> Overview:
    mp = pytest.MonkeyPatch()
    mp.setenv("GENESIS_INSPECTOR_CACHE", str(tmp_path_factory.mktemp("bundled-cache")))
    try:
        labels = read_labels(labels_folder_for(sample_runs)).input
        return overview_of_folder(sample_runs, labels)
    finally:
        mp.undo()


def _run(overview: Overview, run_id: str) -> RunOutcomes:
    return next(r for r in overview.runs if r.run_id == run_id)


def _svg_text(path: Path) -> str:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    return "\n".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_export_of_the_bundled_runs(bundled: Overview, tmp_path: Path) -> None:
    comparison = compare_runs(_run(bundled, ATLAS), _run(bundled, DASH), resamples=500)
    out = tmp_path / "paper"
    paths = export_analysis(bundled, out, comparison)
    names = {p.relative_to(out).as_posix() for p in paths}
    tables = ["pass_at_1_by_tier", "headline_figures", "pass_at_1_by_framework",
              "pass_at_1_by_language", "categories_by_agent", "categories_by_tier",
              "categories_by_framework",
              "cost_vs_pass", "tasks", "compare_tasks", "compare_stats"]
    figures = ["pass_at_1_by_tier", "categories_by_agent", "compare_differences"]
    assert names == ({f"tables/{t}.{s}" for t in tables for s in ("md", "csv", "json", "tex")}
                     | {f"figures/{f}.{s}" for f in figures for s in ("svg", "png")}
                     | {"index.md"})
    assert paths[-1] == out / "index.md"
    index = (out / "index.md").read_text()
    for name in names - {"index.md"}:
        assert sum(f"[`{name}`]" in line for line in index.splitlines()) == 1
    # no sample records a cost: no scatter, and the index says why
    assert "`cost_vs_pass` — " in index and "generation cost not recorded" in index

    # the paper's table: rows runs, columns tiers
    tier = list(csv.reader(io.StringIO((out / "tables/pass_at_1_by_tier.csv").read_text())))
    assert tier[0][:6] == ["run", "agent", "model", "spec low", "spec medium", "spec high"]
    atlas = next(r for r in tier if r[0] == ATLAS)
    assert atlas[3:7] == ["0.8", "0.0", "0.0", "0.5"]
    assert len(tier) == 1 + len(bundled.runs)
    tex = (out / "tables/pass_at_1_by_tier.tex").read_text()
    assert r"repo\_readme\_1125\_atlas\_m2-large\_Python & Atlas & m2-large & 80.0\% & " \
           r"0.0\% & 0.0\% & 50.0\% & 8 & 8 \\" in tex

    # issue 28 item 9: every headline figure with its 95% interval (atlas: 4 of 8 tasks,
    # one sample each: Wilson 0.2152-0.7848)
    head = {r["run"]: r for r in
            json.loads((out / "tables/headline_figures.json").read_text())["rows"]}
    a = head[ATLAS]
    assert (a["pass@1"], a["pass@1 CI low"], a["pass@1 CI high"], a["pass@1 CI method"]) == \
        (0.5, 0.2152, 0.7848, "Wilson")
    assert a["test pass CI low"] < a["test pass"] < a["test pass CI high"]
    assert r"50.0\% & 21.5\% & 78.5\% & Wilson" in \
        (out / "tables/headline_figures.tex").read_text()

    stats = {r["statistic"]: r["value"] for r in
             json.loads((out / "tables/compare_stats.json").read_text())["rows"]}
    assert stats["common tasks"] == 8 and stats["A wins on pass@1"] == 1
    assert stats["pass@1 difference A - B"] == 0.125

    text = _svg_text(out / "figures/pass_at_1_by_tier.svg")
    for run in bundled.runs:
        assert run.run_id in text
    for name in ("spec low", "spec medium", "spec high"):
        assert name in text
    assert "Dependency management" in _svg_text(out / "figures/categories_by_agent.svg")
    diff = _svg_text(out / "figures/compare_differences.svg")
    assert "Multilingual" in diff and "A wins 1, loses 0, ties 7" in diff
    for f in figures:
        width, height = _png_size(out / f"figures/{f}.png")
        assert 600 < width < 20000 and 300 < height < 20000

    again = export_analysis(bundled, tmp_path / "again", comparison)
    for first, second in zip(paths, again, strict=True):
        assert first.read_bytes() == second.read_bytes(), first.name


def test_cost_scatter_when_cost_is_recorded(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    write_run(runs, "cheap-run", "AgentA", "m1", {"alpha": [(5, 5)], "beta": [(1, 3)]},
              {("alpha", 0): Generation(cost_usd=0.02), ("beta", 0): Generation(cost_usd=0.04)})
    write_run(runs, "dear-run", "AgentB", "m2", {"alpha": [(5, 5)], "beta": [(3, 3)]},
              {("alpha", 0): Generation(cost_usd=0.5), ("beta", 0): Generation(cost_usd=0.7)})
    overview = overview_of_folder(runs)
    out = tmp_path / "out"
    export_analysis(overview, out)
    text = _svg_text(out / "figures/cost_vs_pass.svg")
    assert "cheap-run" in text and "dear-run" in text
    _png_size(out / "figures/cost_vs_pass.png")
    rows = {r["run"]: r for r in
            json.loads((out / "tables/cost_vs_pass.json").read_text())["rows"]}
    assert rows["cheap-run"]["median cost"] == 0.03 and rows["cheap-run"]["pass@1"] == 0.5
    assert rows["dear-run"]["cost per pass"] == 0.6
    index = (out / "index.md").read_text()
    assert "[`figures/cost_vs_pass.svg`]" in index and "cost not recorded" not in index


def test_a_file_in_the_way_is_one_clear_error(bundled: Overview, tmp_path: Path) -> None:
    target = tmp_path / "paper.pdf"
    target.write_text("keep me")
    with pytest.raises(ExportError, match=r"paper\.pdf: exists and is a file, not a folder"):
        export_analysis(bundled, target)
    assert target.read_text() == "keep me"


def test_other_files_in_the_folder_are_left_alone(bundled: Overview, tmp_path: Path) -> None:
    out = tmp_path / "paper"
    (out / "tables").mkdir(parents=True)
    (out / "main.tex").write_text("my paper")
    (out / "tables" / "mine.csv").write_text("a,b\n")
    (out / "tables" / "tasks.md").write_text("old")
    export_analysis(bundled, out)
    assert (out / "main.tex").read_text() == "my paper"
    assert (out / "tables" / "mine.csv").read_text() == "a,b\n"
    assert (out / "tables" / "tasks.md").read_text().startswith("**Tasks:")
    assert not [p for p in out.rglob("*.tmp")]


def test_exports_from_two_threads_at_once_match_one_alone(bundled: Overview,
                                                          tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    alone = export_analysis(bundled, tmp_path / "alone")
    with ThreadPoolExecutor(2) as pool:
        both = list(pool.map(lambda name: export_analysis(bundled, tmp_path / name),
                             ["t1", "t2"]))
    for paths in both:
        for first, second in zip(alone, paths, strict=True):
            assert first.read_bytes() == second.read_bytes(), first.name


def test_hostile_names_never_reach_the_files_raw(tmp_path: Path) -> None:
    import shutil

    from tests.hostile_text import FIXTURE, RAW, RUN, SHOWN_RUN_ID

    root = tmp_path / "data"
    shutil.copytree(FIXTURE, root, symlinks=True)
    overview = overview_of_folder(root)
    run = overview.runs[0]
    out = tmp_path / "out"
    paths = export_analysis(overview, out, compare_runs(run, run, resamples=50))
    assert any(ch in RUN["agent"] for ch in "\x1b\x07")  # the fixture is hostile
    for path in [p for p in paths if p.suffix != ".png"]:
        data = path.read_text("utf-8")
        assert not [r for r in RAW if r in data], path.name
        if path.suffix == ".svg":  # parses as XML, the run id shown as the app shows it
            assert SHOWN_RUN_ID in _svg_text(path)
    doc = json.loads((out / "tables/pass_at_1_by_tier.json").read_text())
    assert doc["rows"][0]["agent"] == RUN["agent"]  # JSON keeps the exact text, escaped
    assert "\\<ESC>" in (out / "tables/pass_at_1_by_tier.md").read_text()


def test_a_hostile_agent_name_is_plotted_with_glyphs_the_font_has(tmp_path: Path) -> None:
    """The figures' font (DejaVu Sans) has no Control Pictures: a marker such as U+241B was
    drawn as a box (with a "missing from font" warning the module otherwise silences)."""
    import warnings

    from inspector.services.analysis.export_plots import category_plot, figure_bytes
    from tests.hostile_text import hostile_root

    root = hostile_root(tmp_path)
    plot = category_plot(overview_of_folder(root, read_labels(labels_folder_for(root)).input))
    assert plot.figure is not None, plot.skipped
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure_bytes(plot.figure, "png")
    assert not [w for w in caught if "missing from font" in str(w.message)]
    svg = tmp_path / "plot.svg"
    svg.write_bytes(figure_bytes(plot.figure, "svg"))
    assert "agent[/x]<ESC>]52;c;cHduZWQ=<BEL><ESC>]0;TITLE<BEL>" in _svg_text(svg)
