"""The run analysis as tables for a paper: one small table model and four renderers.

A :class:`Table` has typed columns (:class:`Column`: text, int, share, number, money) and rows
of plain values; :func:`render_md`, :func:`render_csv`, :func:`render_json` and
:func:`render_latex` (a booktabs ``table``) write it. Shares are fractions (0.5) in CSV and
JSON and percentages (50.0%) in Markdown and LaTeX; a missing value (None) is empty in CSV,
null in JSON and a dash in Markdown and LaTeX. Rendering is deterministic.

:func:`overview_tables` builds the tables of an :class:`~.overview.Overview` (Pass@1 by tier
per run — the paper's table — Pass@1 and test pass with 95% intervals, Pass@1 by framework,
by language, the failure categories, cost vs pass, the tasks); :func:`comparison_tables`
those of a :class:`~.compare.RunComparison`.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from inspector.model.figures.stats import (
    CI_RESAMPLES,
    DEFAULT_SEED,
    pass_at_1_interval,
    score_interval,
)
from inspector.model.labels.taxonomy import Taxonomy
from inspector.model.untrusted.safe_text import sanitize
from inspector.services.analysis.breakdown import GroupPass
from inspector.services.analysis.compare import RunComparison
from inspector.services.analysis.overview import Overview
from inspector.services.labels.export import Breakdown, latex_escape

Cell = str | int | float | None
KINDS = ("text", "int", "share", "number", "money")
TABLE_FORMAT = "genesis-inspector.analysis-table"
DASH_MD = "—"
DASH_TEX = "--"


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its header and how its values are written (``digits`` for numbers)."""

    name: str
    kind: str = "text"
    digits: int = 2

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"column {self.name!r}: unknown kind {self.kind!r}")

    @property
    def numeric(self) -> bool:
        return self.kind != "text"


@dataclass(frozen=True, slots=True)
class Table:
    """One table: ``name`` is its file name (no suffix), ``label`` its LaTeX label."""

    name: str
    caption: str
    label: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        names = [c.name for c in self.columns]
        if len(set(names)) != len(names):
            raise ValueError(f"table {self.name}: repeated column names")
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.name}: a row has {len(row)} cells, "
                                 f"expected {len(self.columns)}")


# --- values -------------------------------------------------------------------------------

def _half_up(x: float, digits: int) -> str:
    q = Decimal(1).scaleb(-digits)
    return str(Decimal(repr(x)).quantize(q, ROUND_HALF_UP))


def _text(value: Cell, col: Column, percent_sign: str, dollar: str) -> str | None:
    """A value as a person reads it (None: missing)."""
    if value is None:
        return None
    if col.kind == "text" or isinstance(value, str):
        return str(value)
    if col.kind == "int" or (col.kind == "number" and isinstance(value, int)):
        return str(value)
    if col.kind == "share":
        return _half_up(float(value) * 100, 1) + percent_sign
    if col.kind == "money":
        return dollar + _half_up(float(value), 4)
    return _half_up(float(value), col.digits)


def _machine(value: Cell, col: Column) -> Cell:
    """A value for CSV and JSON: numbers rounded (shares to 4 decimals), text as is."""
    if value is None or isinstance(value, str) or col.kind == "text":
        return value
    if col.kind == "int" or isinstance(value, int):
        return int(value)
    digits = {"share": 4, "money": 6}.get(col.kind, max(col.digits, 4))
    return round(float(value), digits)


# --- markdown -----------------------------------------------------------------------------

def _line(text: str) -> str:
    """One line of visible text: controls and bidi characters shown (never raw), whitespace
    runs (newlines too) as one space."""
    return " ".join(sanitize(text).split())


def _md_cell(text: str) -> str:
    """A cell's text for a pipe table; ``<`` escaped so a marker such as ``<ESC>`` (or a
    name's ``<b>``) shows as written, not as an HTML tag a Markdown viewer drops."""
    return _line(text).replace("\\", "\\\\").replace("|", "\\|").replace("<", "\\<")


def render_md(table: Table) -> str:
    """The caption in bold, a pipe table (numbers right-aligned), then the notes."""
    cols = table.columns
    out = [f"**{_md_cell(table.caption)}**", "",
           "| " + " | ".join(_md_cell(c.name) for c in cols) + " |",
           "| " + " | ".join("---:" if c.numeric else "---" for c in cols) + " |"]
    for row in table.rows:
        cells = [_text(v, c, "%", "$") for v, c in zip(row, cols, strict=True)]
        out.append("| " + " | ".join(DASH_MD if t is None else _md_cell(t) for t in cells)
                   + " |")
    if not table.rows:
        out.append("| " + " | ".join(["(none)"] + [""] * (len(cols) - 1)) + " |")
    for note in table.notes:
        out += ["", _md_cell(note)]
    return "\n".join(out) + "\n"


# --- csv ----------------------------------------------------------------------------------

def _csv_value(value: Cell) -> str:
    if value is None:
        return ""
    return sanitize(value) if isinstance(value, str) else str(value)


def render_csv(table: Table) -> str:
    """A header line and one line per row (RFC 4180 quoting, ``\\r\\n`` line ends)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow([c.name for c in table.columns])
    for row in table.rows:
        writer.writerow([_csv_value(_machine(v, c))
                         for v, c in zip(row, table.columns, strict=True)])
    return buf.getvalue()


# --- json ---------------------------------------------------------------------------------

def table_to_json(table: Table) -> dict[str, Any]:
    """The table as a JSON document: columns (name, kind) and rows as objects."""
    return {"format": TABLE_FORMAT, "version": 1, "name": table.name,
            "caption": table.caption, "label": table.label,
            "columns": [{"name": c.name, "kind": c.kind} for c in table.columns],
            "rows": [{c.name: _machine(v, c) for v, c in zip(row, table.columns, strict=True)}
                     for row in table.rows],
            "notes": list(table.notes)}


def render_json(table: Table) -> str:
    """The document; text exact, every non-ASCII character as a ``\\u`` escape (so no
    control or bidi character is written raw)."""
    return json.dumps(table_to_json(table), indent=2, ensure_ascii=True) + "\n"


# --- latex --------------------------------------------------------------------------------

def _tex(text: str) -> str:
    return latex_escape(_line(text))


def render_latex(table: Table) -> str:
    """A booktabs ``table`` environment (needs ``\\usepackage{booktabs}``)."""
    cols = table.columns
    spec = "".join("r" if c.numeric else "l" for c in cols)
    out = [r"% requires \usepackage{booktabs}", r"\begin{table}[t]", r"\centering",
           rf"\caption{{{_tex(table.caption)}}}", rf"\label{{{table.label}}}",
           rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
           " & ".join(_tex(c.name) for c in cols) + r" \\", r"\midrule"]
    for row in table.rows:
        cells = [_text(v, c, "%", "$") for v, c in zip(row, cols, strict=True)]
        out.append(" & ".join(DASH_TEX if t is None else _tex(t) for t in cells)
                   + r" \\")
    if not table.rows:
        out.append(rf"\multicolumn{{{len(cols)}}}{{l}}{{(none)}} \\")
    out += [r"\bottomrule", r"\end{tabular}"]
    for note in table.notes:
        out += [r"\par\smallskip", rf"{{\footnotesize {_tex(note)}}}"]
    out.append(r"\end{table}")
    return "\n".join(out) + "\n"


RENDERERS = {"md": render_md, "csv": render_csv, "json": render_json, "tex": render_latex}
"""File suffix -> renderer."""


# --- the overview's tables ----------------------------------------------------------------

def _run_columns() -> list[Column]:
    return [Column("run"), Column("agent"), Column("model")]


def tier_table(overview: Overview) -> Table:
    """The paper's table: rows runs, columns tiers, strict Pass@1 in each."""
    tiers = overview.tier_names()
    cell = {(g.run_key, g.group): g for g in overview.passes.get("by_tier", [])}
    overall = {c.run_key: c.pass_at_1 for c in overview.costs}
    rows = []
    for run in overview.runs:
        shares: list[Cell] = []
        for tier in tiers:
            g = cell.get((run.key, tier))
            shares.append(None if g is None else g.strict)
        rows.append((run.run_id, run.agent, run.model, *shares, overall.get(run.key),
                     len(run.by_task()), len(run.samples)))
    tasks_per_tier: dict[str, set[str]] = {}
    for run in overview.runs:
        for s in run.samples:
            tasks_per_tier.setdefault(overview.tier_of(s.task), set()).add(s.task)
    counts = ", ".join(f"{t} {len(tasks_per_tier.get(t, ()))}" for t in tiers)
    notes = (f"Tiers: {overview.tier_source}.",
             f"Tasks per tier (over all runs): {counts or 'none'}.",
             "Pass@1: per task the share of its samples that passed every test, averaged "
             "over the tasks; a dash: the run has no task in that tier.")
    return Table("pass_at_1_by_tier", "Pass@1 by difficulty tier per run.",
                 "tab:pass-at-1-by-tier",
                 (*_run_columns(), *(Column(t, "share") for t in tiers),
                  Column("all tiers", "share"), Column("tasks", "int"),
                  Column("samples", "int")),
                 tuple(rows), notes)


def group_table(groups: list[GroupPass], what: str, name: str) -> Table:
    """Pass@1 per run and group (framework, language)."""
    rows = tuple((g.run_id, g.group, g.tasks, g.samples, g.strict, g.stock, g.counted)
                 for g in groups)
    return Table(f"pass_at_1_by_{name}", f"Pass@1 by {what} per run.",
                 f"tab:pass-at-1-by-{name}",
                 (Column("run"), Column(what), Column("tasks", "int"),
                  Column("samples", "int"), Column("pass@1", "share"),
                  Column("stock pass@1", "share"), Column("samples with tests", "int")),
                 rows,
                 ("pass@1: every test passed (strict); stock pass@1: the mean test pass "
                  "ratio over the samples whose suite counted tests (the stock harness's "
                  "figure).",))


def category_table(b: Breakdown, taxonomy: Taxonomy, key: str) -> Table:
    """Failure categories by group: count and share of each group's resolved labels."""
    groups = [*b.group_names, "total"]
    columns = [Column("category")]
    for g in groups:
        columns += [Column(f"{g} n", "int"), Column(f"{g} %", "share")]
    rows: list[tuple[Cell, ...]] = []
    for cat, counts, total in b.rows:
        cells: list[Cell] = [taxonomy.name_of(cat)]
        for n, d in zip([*counts, total], [*b.group_totals, b.total], strict=True):
            cells += [n, n / d if d else None]
        rows.append(tuple(cells))
    cells = ["resolved total"]
    for d in [*b.group_totals, b.total]:
        cells += [d, 1.0 if d else None]
    rows.append(tuple(cells))
    notes = []
    if b.has_unresolved:
        parts = ", ".join(f"{g} {n}" for g, n in zip(b.group_names, b.unresolved,
                                                      strict=False))
        notes.append(f"Unresolved (annotators disagree, not adjudicated): {parts}; total "
                     f"{b.unresolved[-1]}.")
    slug = key.removeprefix("by_")
    return Table(f"categories_by_{slug}", f"{b.title} (final labels).",
                 f"tab:categories-by-{slug}", tuple(columns), tuple(rows), tuple(notes))


def headline_table(overview: Overview) -> Table:
    """Each run's pass@1 and test pass with their 95% intervals (see
    :mod:`inspector.model.figures.stats`:
    Wilson for pass@1 when each task has one sample, else a bootstrap over tasks)."""
    rows = []
    for run in overview.runs:
        tasks = run.by_task()
        per_task = [(len(ss), sum(s.strict_pass for s in ss)) for ss in tasks.values()]
        scores = [[s.test_ratio for s in ss if s.total > 0] for ss in tasks.values()]
        p1 = sum(c / n for n, c in per_task) / len(per_task) if per_task else None
        flat = [x for xs in scores for x in xs]
        tp = sum(flat) / len(flat) if flat else None
        p_ci, t_ci = pass_at_1_interval(per_task), score_interval(scores)
        rows.append((run.run_id, run.agent, run.model, len(tasks), len(run.samples), p1,
                     p_ci.low if p_ci else None, p_ci.high if p_ci else None,
                     p_ci.method if p_ci else "", tp, t_ci.low if t_ci else None,
                     t_ci.high if t_ci else None, t_ci.samples if t_ci else 0))
    notes = ("pass@1: per task the share of its samples that passed every test, averaged over "
             "the tasks; its 95% CI is the Wilson score interval when each task has one "
             "sample, else a percentile bootstrap over tasks (each resampled task carries all "
             f"its samples; {CI_RESAMPLES} resamples, seed {DEFAULT_SEED}).",
             "test pass: the mean share of passed tests over the samples that counted tests "
             "(the stock harness's avg_pass_at_1); its 95% CI: the same bootstrap over tasks.")
    return Table("headline_figures", "Pass@1 and test pass per run, with 95% intervals.",
                 "tab:headline-figures",
                 (*_run_columns(), Column("tasks", "int"), Column("samples", "int"),
                  Column("pass@1", "share"), Column("pass@1 CI low", "share"),
                  Column("pass@1 CI high", "share"), Column("pass@1 CI method"),
                  Column("test pass", "share"), Column("test pass CI low", "share"),
                  Column("test pass CI high", "share"),
                  Column("samples with tests", "int")),
                 tuple(rows), notes)


def cost_table(overview: Overview) -> Table:
    """Generation cost vs pass per run (dashes where not recorded)."""
    rows = tuple((c.run_id, c.samples, c.pass_at_1, c.recorded, c.with_cost, c.median_cost,
                  c.total_cost, c.cost_per_pass, c.median_seconds, c.median_input_tokens,
                  c.median_output_tokens) for c in overview.costs)
    recorded = sum(c.is_recorded for c in overview.costs)
    notes = ["Cost per pass: the total cost of the samples recording one over how many of "
             "them passed strictly."]
    if not recorded:
        notes.append("No sample of these runs records its generation time, tokens or cost.")
    return Table("cost_vs_pass", "Generation cost vs Pass@1 per run.", "tab:cost-vs-pass",
                 (Column("run"), Column("samples", "int"), Column("pass@1", "share"),
                  Column("recorded", "int"), Column("with cost", "int"),
                  Column("median cost", "money"), Column("total cost", "money"),
                  Column("cost per pass", "money"), Column("median seconds", "number", 1),
                  Column("median input tokens", "number", 0),
                  Column("median output tokens", "number", 0)),
                 rows, tuple(notes))


def tasks_table(overview: Overview) -> Table:
    """Every task the runs attempted: spec figures, difficulty, tier, pooled pass rate."""
    samples: dict[str, list[bool]] = {}
    for run in overview.runs:
        for s in run.samples:
            samples.setdefault(s.task, []).append(s.strict_pass)
    rows: list[tuple[Cell, ...]] = []
    for name in sorted(samples):
        t = overview.tasks.get(name)
        passed = samples[name]
        pooled = sum(passed) / len(passed)
        if t is None:
            rows.append((name, None, None, None, None, None, None, None, None,
                         overview.tier_of(name), len(passed), pooled))
            continue
        rows.append((name, t.language, t.framework, t.spec.words, len(t.spec.endpoints),
                     t.spec.score, t.spec.tier, t.difficulty.score, t.difficulty.label,
                     overview.tier_of(name), len(passed), pooled))
    return Table("tasks", "Tasks: spec complexity, difficulty and tier.", "tab:tasks",
                 (Column("task"), Column("language"), Column("framework"),
                  Column("README words", "int"), Column("endpoints", "int"),
                  Column("spec score", "number", 2), Column("spec tier"),
                  Column("difficulty score", "number", 2), Column("difficulty"),
                  Column("tier"), Column("samples", "int"), Column("passed", "share")),
                 tuple(rows),
                 ("passed: the share of the task's samples, over all runs, that passed "
                  "every test.", f"Tiers: {overview.tier_source}."))


def overview_tables(overview: Overview) -> list[Table]:
    """Every table of the overview, in the order the index lists them."""
    out = [tier_table(overview), headline_table(overview),
           group_table(overview.passes.get("by_framework", []), "framework", "framework"),
           group_table(overview.passes.get("by_language", []), "language", "language")]
    cats = overview.categories
    if cats is not None:
        for key in ("by_agent", "by_tier", "by_framework"):
            if key in cats.tables:
                out.append(category_table(cats.tables[key], cats.taxonomy, key))
    out += [cost_table(overview), tasks_table(overview)]
    return out


# --- the comparison's tables --------------------------------------------------------------

def comparison_task_table(c: RunComparison) -> Table:
    """Per common task: each run's pass@1 and test pass ratio, and A's result."""
    rows = tuple((p.task, p.a.samples, p.b.samples, p.a.pass_at_1, p.b.pass_at_1,
                  p.a.pass_at_1 - p.b.pass_at_1, p.strict, p.a.test_ratio, p.b.test_ratio,
                  p.ratio) for p in c.pairs)
    notes = [f"A: {c.a.run_id}; B: {c.b.run_id}."]
    if c.only_a:
        notes.append(f"Only in A (left out): {', '.join(c.only_a)}.")
    if c.only_b:
        notes.append(f"Only in B (left out): {', '.join(c.only_b)}.")
    return Table("compare_tasks", "Paired comparison per task (A vs B).",
                 "tab:compare-tasks",
                 (Column("task"), Column("A samples", "int"), Column("B samples", "int"),
                  Column("A pass@1", "share"), Column("B pass@1", "share"),
                  Column("A - B pass@1", "share"), Column("A on pass@1"),
                  Column("A test ratio", "share"), Column("B test ratio", "share"),
                  Column("A on test ratio")),
                 rows, tuple(notes))


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def comparison_stats_table(c: RunComparison) -> Table:
    """The comparison's statistics, one per row (value, and what it rests on)."""
    rows: list[tuple[Cell, ...]] = [
        ("common tasks", len(c.pairs), ""),
        ("A wins on pass@1", c.strict.wins, ""), ("A losses on pass@1", c.strict.losses, ""),
        ("ties on pass@1", c.strict.ties, ""),
        ("A wins on test ratio", c.ratio.wins, ""),
        ("A losses on test ratio", c.ratio.losses, ""),
        ("ties on test ratio", c.ratio.ties, ""),
        ("McNemar: tasks only A passed", c.mcnemar.b, "sample 0 of each task, strict pass"),
        ("McNemar: tasks only B passed", c.mcnemar.c, "sample 0 of each task, strict pass"),
        ("McNemar exact p (two-sided)", c.mcnemar.p_value, ""),
        ("A mean pass@1", _mean([p.a.pass_at_1 for p in c.pairs]), "common tasks"),
        ("B mean pass@1", _mean([p.b.pass_at_1 for p in c.pairs]), "common tasks"),
    ]
    for name, ci in (("pass@1", c.ci_pass_at_1), ("test ratio", c.ci_test_ratio)):
        if ci is None:
            continue
        basis = (f"paired bootstrap over {ci.pairs} tasks, {ci.resamples} resamples, "
                 f"seed {ci.seed}")
        rows += [(f"{name} difference A - B", ci.difference, ""),
                 (f"{name} difference {ci.level:.0%} CI low", ci.low, basis),
                 (f"{name} difference {ci.level:.0%} CI high", ci.high, basis)]
    if c.mdd is not None:
        rows.append(("pass@1 minimum detectable difference", c.mdd,
                     f"alpha 0.05 two-sided, power 0.8, {len(c.pairs)} tasks; normal "
                     f"approximation for two proportions at {c.mdd_rate or 0.0:.4f}"))
    if c.max_samples > 1:
        for side in ("a", "b"):
            for k, v in sorted(c.pass_at_k.get(side, {}).items()):
                rows.append((f"{side.upper()} pass@{k}", v, "mean over the common tasks"))
            for k, v in sorted(c.pass_hat_k.get(side, {}).items()):
                rows.append((f"{side.upper()} pass^{k}", v, "all k samples pass; mean"))
    return Table("compare_stats", "Paired comparison: statistics (A vs B).",
                 "tab:compare-stats",
                 (Column("statistic"), Column("value", "number", 4), Column("basis")),
                 tuple(rows), (f"A: {c.a.run_id}; B: {c.b.run_id}.",))


def comparison_tables(c: RunComparison) -> list[Table]:
    return [comparison_task_table(c), comparison_stats_table(c)]
