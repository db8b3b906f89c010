"""The label export: the paper's category table, breakdowns and the four formats."""

from __future__ import annotations

import csv
import io
import json
import random
import re

import pytest

from inspector.model.labels.taxonomy import Category, Taxonomy
from inspector.services.labels.export import (
    CSV_COLUMNS,
    UNRESOLVED_TEXT,
    ExportRow,
    agent_key,
    breakdown,
    latex_escape,
    paper_table,
    percent,
    render,
    share,
)

TAX = Taxonomy("repogenesis", "RepoGenesis failures", (
    Category("dependency", "Dependency management", "", "1", "#e0a030"),
    Category("cross-file", "Cross-file consistency", "", "2", "#1f77b4"),
    Category("config", "Config & 100% _env_ | pipes", "", "3", "#2ca02c"),
    Category("other", "Other", "", "4", "#7f7f7f"),
))

PY_RUN = "2024-05-01_claude_python"
JAVA_RUN = "2024-05-02_codex_java"


def _row(run: str, task: str, n: int, category: str | None, *, test: str | None = None,
         status: str = "agreed", ratings: dict[str, str] | None = None) -> ExportRow:
    python = run == PY_RUN
    if ratings is None:
        ratings = {"ana": category or "", "ben": category or ""}
    return ExportRow(sample=f"{run}/{task}/{n}", test=test, category=category, status=status,
                     ratings=dict(sorted(ratings.items())), run_id=run,
                     agent="claude" if python else "codex",
                     model="opus" if python else "gpt-5",
                     language="python" if python else "java", task=task)


def make_rows() -> list[ExportRow]:
    py = [_row(PY_RUN, "todo", 1, "dependency"),
          _row(PY_RUN, "todo", 2, "dependency", status="single", ratings={"ana": "dependency"}),
          _row(PY_RUN, "blog", 1, "dependency", status="majority",
               ratings={"ana": "dependency", "ben": "dependency", "cy": "config"}),
          _row(PY_RUN, "blog", 2, "cross-file"),
          _row(PY_RUN, "shop", 1, "cross-file", status="adjudicated",
               ratings={"ana": "cross-file", "ben": "dependency"}),
          _row(PY_RUN, "shop", 2, "config"),
          _row(PY_RUN, "shop", 3, "mystery")]
    java = [_row(JAVA_RUN, "todo", 1, "dependency"),
            _row(JAVA_RUN, "todo", 2, "cross-file"),
            _row(JAVA_RUN, "blog", 1, "cross-file")]
    unresolved = [_row(PY_RUN, "blog", 3, None, status="unresolved",
                       ratings={"ana": "dependency", "ben": "cross-file"})]
    tests = [_row(PY_RUN, "todo", 1, "dependency", test="tests/test_api.py::test_create"),
             _row(JAVA_RUN, "todo", 1, "config", test="ApiTest#create")]
    return py + java + unresolved + tests


def samples() -> list[ExportRow]:
    """The rows a per-sample table counts (each sample once): the sample-level rows here."""
    return [r for r in make_rows() if r.test is None]


def _by_cat(table):
    return {cat: (counts, total) for cat, counts, total in table.rows}


# --- numbers and tables -------------------------------------------------------------------

def test_percent_and_share_round_half_up() -> None:
    assert percent(3, 7) == "42.9"
    assert percent(1, 16) == "6.3"
    assert percent(0, 0) == "0.0"
    assert share(3, 7) == 0.4286
    assert share(1, 3) == 0.3333
    assert share(5, 0) == 0.0


def test_paper_table_counts_by_hand() -> None:
    t = paper_table(samples(), TAX)
    assert t.title == "Failure categories by language"
    assert t.group_names == ["python", "java"]  # the paper's order
    cats = _by_cat(t)
    assert cats["dependency"] == ([3, 1], 4)
    assert cats["cross-file"] == ([2, 2], 4)
    assert cats["config"] == ([1, 0], 1)  # the java test-level "config" is not counted
    assert cats["other"] == ([0, 0], 0)   # zero everywhere, still listed
    assert cats["mystery"] == ([1, 0], 1)
    assert t.group_totals == [7, 3]
    assert t.total == 10
    assert t.unresolved == [1, 0, 1]


def test_taxonomy_order_then_unknown_categories() -> None:
    t = paper_table(make_rows(), TAX)
    assert [cat for cat, _, _ in t.rows] == ["dependency", "cross-file", "config", "other",
                                             "mystery"]


def test_breakdown_groups_sorted_and_unknown_key() -> None:
    rows = make_rows() + [ExportRow("x/t/1", None, "other", "single", {"ana": "other"},
                                    "x", "", "", "", "t")]
    t = breakdown(rows, TAX, lambda r: r.agent, "by agent")
    assert t.group_names == ["claude", "codex", "unknown"]
    assert _by_cat(t)["other"] == ([0, 0, 1], 1)
    by_agent = breakdown(rows, TAX, agent_key, "by agent (model)")
    assert by_agent.group_names == ["claude (opus)", "codex (gpt-5)", "unknown"]


def test_every_row_given_is_counted_and_the_title_says_the_view() -> None:
    rows = [r for r in make_rows() if r.run_id == PY_RUN]
    rows.append(_row(JAVA_RUN, "todo", 1, "config", test="ApiTest#create"))
    t = paper_table(rows, TAX, view="test")
    assert t.group_names == ["python", "java"]
    assert _by_cat(t)["config"] == ([1, 1], 2)
    assert t.title == "Failure categories by language (per test)" and t.view == "test"


# --- markdown -----------------------------------------------------------------------------

def _md_cells(line: str) -> list[str]:
    return re.split(r"(?<!\\)\|", line.strip())[1:-1]


def test_md_tables() -> None:
    md = render(make_rows(), TAX, "md", counted=samples())
    assert md.startswith("# Failure categories\n")
    assert md.endswith("\n")
    assert "| Category | python n | python % | java n | java % | Total n | Total % |" in md
    assert "| Dependency management | 3 | 42.9% | 1 | 33.3% | 4 | 40.0% |" in md
    assert "| Other | 0 | 0.0% | 0 | 0.0% | 0 | 0.0% |" in md
    assert "| mystery | 1 | 14.3% | 0 | 0.0% | 1 | 10.0% |" in md
    assert "| Total | 7 | 100.0% | 3 | 100.0% | 10 | 100.0% |" in md
    assert "**" not in md
    assert f"{UNRESOLVED_TEXT}: python 1, java 0; total 1" in md
    assert "Config & 100% _env_ \\| pipes" in md
    for title in ("## Failure categories by language", "## Failure categories by run",
                  "## Failure categories by agent (model)", "## Labelled samples"):
        assert title in md
    assert f"| {PY_RUN} n | {PY_RUN} % | {JAVA_RUN} n |" in md
    assert "| claude (opus) n |" in md


def test_md_tables_have_consistent_column_counts() -> None:
    md = render(make_rows(), TAX, "md")
    blocks = [b for b in md.split("\n\n") if b.startswith("|")]
    assert len(blocks) == 4
    for block in blocks:
        widths = {len(_md_cells(line)) for line in block.splitlines()}
        assert len(widths) == 1, block


def test_md_listing() -> None:
    md = render(make_rows(), TAX, "md")
    listing = md.split("## Labelled samples", 1)[1]
    lines = [ln for ln in listing.splitlines() if ln.startswith("|")][2:]
    assert len(lines) == 13
    assert (f"| {PY_RUN}/blog/3 | — | — | unresolved | ana=dependency, ben=cross-file |"
            in lines)
    assert (f"| {PY_RUN}/todo/1 | tests/test_api.py::test_create | Dependency management | "
            "agreed | ana=dependency, ben=dependency |") in lines


def test_md_without_unresolved_has_no_unresolved_line() -> None:
    rows = [r for r in make_rows() if r.category is not None]
    assert UNRESOLVED_TEXT not in render(rows, TAX, "md")


# --- csv ----------------------------------------------------------------------------------

def test_csv_listing() -> None:
    text = render(make_rows(), TAX, "csv")
    assert "\r" not in text
    parsed = list(csv.reader(io.StringIO(text)))
    assert tuple(parsed[0]) == CSV_COLUMNS
    assert parsed[0] == ["sample", "test", "run_id", "agent", "model", "language", "task",
                         "category", "category_name", "status", "ratings", "confirmation"]
    records = list(csv.DictReader(io.StringIO(text)))
    assert len(records) == 13  # 10 resolved + 1 unresolved + 2 test-level
    keys = [(r["sample"], r["test"]) for r in records]
    assert keys == sorted(keys)
    tests = [r for r in records if r["test"]]
    assert {r["test"] for r in tests} == {"tests/test_api.py::test_create", "ApiTest#create"}
    shop = next(r for r in records if r["sample"] == f"{PY_RUN}/shop/1")
    assert shop["ratings"] == "ana=cross-file;ben=dependency"
    assert shop["category_name"] == "Cross-file consistency"
    assert shop["status"] == "adjudicated"
    assert shop["language"] == "python" and shop["model"] == "opus"
    config = next(r for r in records if r["sample"] == f"{PY_RUN}/shop/2")
    assert config["category_name"] == "Config & 100% _env_ | pipes"
    unresolved = next(r for r in records if r["status"] == "unresolved")
    assert unresolved["category"] == "" and unresolved["category_name"] == ""
    assert "Failure categories" not in text  # only the listing


# --- json ---------------------------------------------------------------------------------

def test_json_document() -> None:
    doc = json.loads(render(make_rows(), TAX, "json", meta={"project": "paper"},
                            counted=samples()))
    assert list(doc) == ["format", "version", "meta", "taxonomy", "tables", "rows"]
    assert doc["format"] == "genesis-inspector.label-export"
    assert doc["version"] == 1
    assert doc["meta"] == {"project": "paper"}
    assert doc["taxonomy"]["id"] == "repogenesis"
    assert doc["taxonomy"]["categories"][0] == {"id": "dependency",
                                                "name": "Dependency management"}
    assert set(doc["tables"]) == {"by_language", "by_run", "by_agent"}
    lang = doc["tables"]["by_language"]
    assert {"title", "groups", "rows", "unresolved"} <= set(lang)
    assert lang["groups"] == ["python", "java"]
    dep = lang["rows"][0]
    assert dep["category"] == "dependency" and dep["name"] == "Dependency management"
    assert dep["counts"]["python"] == {"n": 3, "share": 0.4286}
    assert dep["counts"]["java"] == {"n": 1, "share": 0.3333}
    assert dep["total"] == {"n": 4, "share": 0.4}
    assert [r["category"] for r in lang["rows"]][-1] == "mystery"
    assert lang["unresolved"] == {"python": 1, "java": 0, "total": 1}
    assert doc["tables"]["by_run"]["groups"] == [PY_RUN, JAVA_RUN]
    assert doc["tables"]["by_agent"]["groups"] == ["claude (opus)", "codex (gpt-5)"]
    assert len(doc["rows"]) == 13
    first = doc["rows"][0]
    assert list(first) == list(CSV_COLUMNS)
    assert sum(1 for r in doc["rows"] if r["test"] is not None) == 2
    unresolved = next(r for r in doc["rows"] if r["status"] == "unresolved")
    assert unresolved["category"] is None
    assert unresolved["ratings"] == {"ana": "dependency", "ben": "cross-file"}


def test_json_without_meta_and_trailing_newline() -> None:
    text = render(make_rows(), TAX, "json")
    assert text.endswith("}\n")
    assert text.startswith('{\n  "format"')
    assert json.loads(text)["meta"] == {}


@pytest.mark.parametrize("fmt", ["md", "csv", "json", "latex"])
def test_output_is_deterministic_and_order_independent(fmt: str) -> None:
    rows = make_rows()
    first = render(rows, TAX, fmt, meta={"a": 1})
    assert render(rows, TAX, fmt, meta={"a": 1}) == first
    for seed in range(5):
        shuffled = rows[:]
        random.Random(seed).shuffle(shuffled)
        assert render(shuffled, TAX, fmt, meta={"a": 1}) == first
    assert render(iter(rows), TAX, fmt, meta={"a": 1}) == first


# --- latex --------------------------------------------------------------------------------

def test_latex_escape() -> None:
    assert latex_escape("a_b & 5% $x #1 {y} ~ ^ \\") == (
        r"a\_b \& 5\% \$x \#1 \{y\} \textasciitilde{} \textasciicircum{} \textbackslash{}")
    assert latex_escape("a|b<c>") == r"a\textbar{}b\textless{}c\textgreater{}"


def _latex_tables(tex: str) -> list[str]:
    return re.findall(r"\\begin\{table\}.*?\\end\{table\}", tex, flags=re.S)


def test_latex_tables() -> None:
    tex = render(make_rows(), TAX, "latex", counted=samples())
    assert tex.startswith("% requires \\usepackage{booktabs}\n")
    tables = _latex_tables(tex)
    assert len(tables) == 3
    paper = tables[0]
    assert "\\centering" in paper
    assert "\\caption{Failure categories of generated repositories by language.}" in paper
    assert "\\label{tab:failure-categories}" in paper
    assert "\\begin{tabular}{lrrrrrr}" in paper
    for rule in ("\\toprule", "\\midrule", "\\bottomrule"):
        assert rule in paper
    assert ("Category & \\multicolumn{2}{c}{Python} & \\multicolumn{2}{c}{Java} & "
            "\\multicolumn{2}{c}{Total} \\\\") in paper
    assert " & n & \\% & n & \\% & n & \\% \\\\" in paper
    assert "Dependency management & 3 & 42.9\\% & 1 & 33.3\\% & 4 & 40.0\\% \\\\" in paper
    assert "Config \\& 100\\% \\_env\\_ \\textbar{} pipes & 1 & 14.3\\%" in paper
    assert "Other & 0 & 0.0\\% & 0 & 0.0\\% & 0 & 0.0\\% \\\\" in paper
    assert "Total & 7 & 100.0\\% & 3 & 100.0\\% & 10 & 100.0\\% \\\\" in paper
    assert "Unresolved (annotators disagree, not adjudicated): Python 1, Java 0; total 1" \
        in paper
    assert "\\label{tab:failure-categories-by-run}" in tables[1]
    assert "2024-05-01\\_claude\\_python" in tables[1]
    assert "_claude" not in tables[1].replace("\\_claude", "")
    assert "\\label{tab:failure-categories-by-agent}" in tables[2]
    assert "\\multicolumn{2}{c}{claude (opus)}" in tables[2]


def test_latex_rows_have_the_right_number_of_columns() -> None:
    tex = render(make_rows(), TAX, "latex")
    for table in _latex_tables(tex):
        spec = re.search(r"\\begin\{tabular\}\{(\w+)\}", table).group(1)
        ncols = len(spec)
        body = [ln for ln in table.splitlines() if ln.endswith("\\\\")]
        assert len(body) == 2 + len(TAX.categories) + 1 + 1  # headers, categories, mystery, total
        for line in body:
            stripped = line.replace("\\&", "")
            if "\\multicolumn" in stripped:
                spans = [int(n) for n in re.findall(r"\\multicolumn\{(\d+)\}", stripped)]
                cells = stripped.count("&") + 1 - len(spans) + sum(spans)
            else:
                cells = stripped.count("&") + 1
            assert cells == ncols, line


def test_latex_has_no_unescaped_specials_in_cells() -> None:
    tex = render(make_rows(), TAX, "latex")
    for line in tex.splitlines():
        if line.startswith("%"):
            continue
        assert not re.search(r"(?<!\\)[_#$]", line), line
        assert not re.search(r"(?<![\\\d.])%", line), line


# --- formats ------------------------------------------------------------------------------

def test_bad_format() -> None:
    with pytest.raises(ValueError) as err:
        render(make_rows(), TAX, "xlsx")
    message = str(err.value)
    assert "xlsx" in message
    for fmt in ("md", "csv", "json", "latex"):
        assert fmt in message


def test_empty_export() -> None:
    for fmt in ("md", "csv", "json", "latex"):
        assert render([], TAX, fmt)
    t = paper_table([], TAX)
    assert t.group_names == [] and t.total == 0 and t.unresolved == [0]
    assert [cat for cat, _, _ in t.rows] == list(TAX.ids)
