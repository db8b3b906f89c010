"""Export failure labels: the paper's category table plus per-run and per-agent breakdowns.

Input is a list of :class:`ExportRow` — one labelled failing sample (or test), already
resolved to one final category (adjudicated, agreed, majority, single annotator, or
unresolved when annotators disagree and nobody adjudicated). :func:`render` writes it as

* ``md`` — the tables (by language, by run, by agent) and a listing of every label;
* ``csv`` — the listing only, one row per label (machine-readable; the tables come with
  ``md``, ``json`` and ``latex``);
* ``json`` — taxonomy, tables and listing (``genesis-inspector.label-export``, version 1);
* ``latex`` — the tables as booktabs ``table`` environments, ready for the paper.

The tables count the rows of one *view* of the label roll-up (``counted``: per sample,
per root cause or per test — :mod:`inspector.services.labels.views`), and every table says
which; the listings hold every labelled item. Without ``counted`` every row given is one
counted unit. Unresolved rows are left out of the shares and reported on their own line.
Shares are a category's count over the group's resolved count. Output is deterministic:
the same rows, in any order, give byte-identical text.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from inspector.model.labels.rollup import VIEW_TEXT, VIEW_UNIT
from inspector.model.labels.taxonomy import Taxonomy

EXPORT_FORMAT = "genesis-inspector.label-export"
EXPORT_VERSION = 1
FORMATS = ("md", "csv", "json", "latex")
STATUSES = ("adjudicated", "agreed", "majority", "single", "unresolved")
CSV_COLUMNS = ("sample", "test", "run_id", "agent", "model", "language", "task", "category",
               "category_name", "status", "ratings", "confirmation")
UNKNOWN_GROUP = "unknown"
UNRESOLVED_TEXT = "unresolved (annotators disagree, not adjudicated)"
PAPER_LANGUAGES = ("python", "java")
"""The paper's column order; other languages follow, sorted by name."""


@dataclass(frozen=True, slots=True)
class ExportRow:
    """One labelled failing sample, resolved to one final category."""

    sample: str            # stable sample id "<run id>/<task>/<n>"
    test: str | None       # None for a sample-level label
    category: str | None   # final category id; None when annotators disagree, not adjudicated
    status: str            # "adjudicated" | "agreed" | "majority" | "single" | "unresolved"
    #                        (a per-sample row of several roots: "rolled-up")
    ratings: dict[str, str]  # annotator -> category (sorted keys)
    run_id: str
    agent: str
    model: str
    language: str          # "python" / "java" / "" unknown
    task: str
    confirmation: str = ""  # the causal re-run kept with the label: "supports: <outcome>"


@dataclass
class Breakdown:
    """Category counts per group (language, run, agent ...).

    ``rows`` are ``(category id, count per group, total)`` in taxonomy order, every taxonomy
    category listed (zeros too), then ids the taxonomy does not know, sorted. ``group_totals``
    and ``total`` count resolved rows (the shares' denominators); ``unresolved`` holds the
    unresolved count per group and, last, their total. ``view``: what one row is (a view of
    :data:`inspector.model.labels.rollup.VIEWS`; ``""`` when not said).
    """

    title: str
    group_names: list[str]
    rows: list[tuple[str, list[int], int]]
    group_totals: list[int]
    total: int
    unresolved: list[int]
    view: str = ""

    @property
    def has_unresolved(self) -> bool:
        return self.unresolved[-1] > 0


# --- numbers ------------------------------------------------------------------------------

def _fraction(n: int, d: int) -> Decimal:
    return Decimal(n) / Decimal(d) if d else Decimal(0)


def share(n: int, d: int) -> float:
    """``n / d`` as a fraction rounded half-up to 4 decimals (0.0 when ``d`` is 0)."""
    return float(_fraction(n, d).quantize(Decimal("0.0001"), ROUND_HALF_UP))


def percent(n: int, d: int) -> str:
    """``n / d`` as a percentage with one decimal, rounded half-up, without the sign."""
    return str((_fraction(n, d) * 100).quantize(Decimal("0.1"), ROUND_HALF_UP))


# --- tables -------------------------------------------------------------------------------

def _row_sort_key(row: ExportRow) -> tuple[object, ...]:
    return (row.sample, row.test is not None, row.test or "", row.category is not None,
            row.category or "", row.status, sorted(row.ratings.items()), row.run_id,
            row.agent, row.model, row.language, row.task)


def sorted_rows(rows: Iterable[ExportRow]) -> list[ExportRow]:
    """Rows in listing order: by sample, the sample-level row before its tests."""
    return sorted(rows, key=_row_sort_key)


def view_title(title: str, view: str) -> str:
    """``title`` saying what one counted row is: ``"… (per sample)"``."""
    return f"{title} (per {VIEW_UNIT[view].removesuffix('s')})" if view else title


def breakdown(rows: Iterable[ExportRow], taxonomy: Taxonomy, key: Callable[[ExportRow], str],
              title: str, order: Sequence[str] = (), view: str = "") -> Breakdown:
    """Count ``rows`` (each one unit of ``view``) per category and per group ``key(row)``.

    Groups are sorted by name (those named in ``order`` first, in that order); an empty key
    is shown as ``"unknown"``. The title says the view.
    """
    samples = list(rows)
    groups_of = [key(r) or UNKNOWN_GROUP for r in samples]
    rank = {name: i for i, name in enumerate(order)}
    groups = sorted(set(groups_of), key=lambda g: (rank.get(g, len(rank)), g))
    index = {g: i for i, g in enumerate(groups)}
    known = list(taxonomy.ids)
    extra = sorted({r.category for r in samples if r.category is not None} - set(known))
    cats = known + extra
    counts = {c: [0] * len(groups) for c in cats}
    unresolved = [0] * (len(groups) + 1)
    for row, group in zip(samples, groups_of, strict=True):
        if row.category is None:
            unresolved[index[group]] += 1
            unresolved[-1] += 1
        else:
            counts[row.category][index[group]] += 1
    table = [(c, counts[c], sum(counts[c])) for c in cats]
    group_totals = [sum(col) for col in zip(*(counts[c] for c in cats), strict=True)] \
        if cats else [0] * len(groups)
    return Breakdown(view_title(title, view), groups, table, group_totals, sum(group_totals),
                     unresolved, view)


def paper_table(rows: Iterable[ExportRow], taxonomy: Taxonomy, view: str = "") -> Breakdown:
    """The paper's table: categories by language (python, java, then any others)."""
    return breakdown(rows, taxonomy, lambda r: r.language, "Failure categories by language",
                     order=PAPER_LANGUAGES, view=view)


def agent_key(row: ExportRow) -> str:
    """``"agent (model)"``; just the agent when the model is unknown."""
    return f"{row.agent} ({row.model})" if row.model else row.agent


def run_table(rows: Iterable[ExportRow], taxonomy: Taxonomy, view: str = "") -> Breakdown:
    """Categories per run id."""
    return breakdown(rows, taxonomy, lambda r: r.run_id, "Failure categories by run",
                     view=view)


def agent_table(rows: Iterable[ExportRow], taxonomy: Taxonomy, view: str = "") -> Breakdown:
    """Categories per agent and model."""
    return breakdown(rows, taxonomy, agent_key, "Failure categories by agent (model)",
                     view=view)


def _tables(rows: list[ExportRow], taxonomy: Taxonomy, view: str = ""
            ) -> list[tuple[str, Breakdown]]:
    return [("by_language", paper_table(rows, taxonomy, view)),
            ("by_run", run_table(rows, taxonomy, view)),
            ("by_agent", agent_table(rows, taxonomy, view))]


def view_line(view: str) -> str:
    """The sentence under a table heading saying what the tables count (``""``: no view)."""
    return f"Counted {VIEW_TEXT[view]}." if view else ""


def _ratings(row: ExportRow, sep: str) -> str:
    return sep.join(f"{who}={cat}" for who, cat in sorted(row.ratings.items()))


# --- markdown -----------------------------------------------------------------------------

def _md_cell(text: str) -> str:
    return " ".join(text.replace("\\", "\\\\").replace("|", "\\|").split())


def _md_line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(_md_cell(c) for c in cells) + " |"


def _unresolved_line(b: Breakdown, label: Callable[[str], str] = str) -> str:
    parts = ", ".join(f"{label(g)} {n}" for g, n in zip(b.group_names, b.unresolved,
                                                          strict=False))
    return f"{UNRESOLVED_TEXT}: {parts}{'; ' if parts else ''}total {b.unresolved[-1]}"


def _md_breakdown(b: Breakdown, taxonomy: Taxonomy) -> list[str]:
    header = ["Category"]
    for g in [*b.group_names, "Total"]:
        header += [f"{g} n", f"{g} %"]
    out = [f"## {b.title}", "", _md_line(header),
           "| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |"]
    for cat, counts, total in b.rows:
        cells = [taxonomy.name_of(cat)]
        for n, d in zip([*counts, total], [*b.group_totals, b.total], strict=True):
            cells += [str(n), f"{percent(n, d)}%"]
        out.append(_md_line(cells))
    cells = ["Total"]
    for d in [*b.group_totals, b.total]:
        cells += [str(d), f"{percent(d, d)}%"]
    out.append(_md_line(cells))
    if b.has_unresolved:
        out += ["", _md_cell(_unresolved_line(b))]
    return out


def render_md(rows: Iterable[ExportRow], taxonomy: Taxonomy,
              counted: Iterable[ExportRow] | None = None, view: str = "") -> str:
    """The tables (of ``counted``, default ``rows``) and the label listing as Markdown."""
    rows = sorted_rows(rows)
    units = rows if counted is None else sorted_rows(counted)
    out = ["# Failure categories", ""]
    if view:
        out += [view_line(view), ""]
    for _name, table in _tables(units, taxonomy, view):
        out += _md_breakdown(table, taxonomy) + [""]
    out += ["## Labelled samples", "",
            _md_line(["Sample", "Test", "Category", "Status", "Ratings"]),
            "| --- | --- | --- | --- | --- |"]
    for r in rows:
        out.append(_md_line([r.sample, r.test or "—",
                             taxonomy.name_of(r.category) if r.category else "—", r.status,
                             _ratings(r, ", ")]))
    return "\n".join(out) + "\n"


# --- csv ----------------------------------------------------------------------------------

def render_csv(rows: Iterable[ExportRow], taxonomy: Taxonomy) -> str:
    """One row per label (columns :data:`CSV_COLUMNS`), sorted by (sample, test).

    Only the listing, so it loads as is; the tables come with md, json and latex. An empty
    ``test`` is a sample-level label, an empty ``category`` an unresolved one; ``ratings``
    reads ``ana=dependency;ben=cross-file``.
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in sorted_rows(rows):
        writer.writerow([r.sample, r.test or "", r.run_id, r.agent, r.model, r.language,
                         r.task, r.category or "",
                         taxonomy.name_of(r.category) if r.category else "", r.status,
                         _ratings(r, ";"), r.confirmation])
    return buf.getvalue()


# --- json ---------------------------------------------------------------------------------

def _json_breakdown(b: Breakdown, taxonomy: Taxonomy) -> dict[str, Any]:
    def cell(n: int, d: int) -> dict[str, Any]:
        return {"n": n, "share": share(n, d)}

    return {
        "title": b.title,
        **({"view": b.view} if b.view else {}),
        "groups": list(b.group_names),
        "rows": [{"category": cat, "name": taxonomy.name_of(cat),
                  "counts": {g: cell(n, d) for g, n, d in zip(b.group_names, counts,
                                                              b.group_totals, strict=True)},
                  "total": cell(total, b.total)} for cat, counts, total in b.rows],
        "totals": {**dict(zip(b.group_names, b.group_totals, strict=True)), "total": b.total},
        "unresolved": {**dict(zip(b.group_names, b.unresolved, strict=False)),
                       "total": b.unresolved[-1]},
    }


def breakdown_to_json(b: Breakdown, taxonomy: Taxonomy) -> dict[str, Any]:
    """One table as the ``json`` export writes it: counts and shares per group."""
    return _json_breakdown(b, taxonomy)


def row_to_json(row: ExportRow, taxonomy: Taxonomy) -> dict[str, Any]:
    """One listing entry: the csv columns, with ``ratings`` as an object."""
    return {"sample": row.sample, "test": row.test, "run_id": row.run_id, "agent": row.agent,
            "model": row.model, "language": row.language, "task": row.task,
            "category": row.category,
            "category_name": taxonomy.name_of(row.category) if row.category else None,
            "status": row.status, "ratings": dict(sorted(row.ratings.items())),
            "confirmation": row.confirmation or None}


def export_json(rows: Iterable[ExportRow], taxonomy: Taxonomy,
                meta: dict[str, Any] | None = None, counted: Iterable[ExportRow] | None = None,
                view: str = "", details: dict[str, dict[str, Any]] | None = None
                ) -> dict[str, Any]:
    """The json export as a document (see :func:`render`). With a ``view``: ``view``,
    ``view_text`` and ``counted`` (the rows the tables count, with ``details`` of a sample
    merged into its row)."""
    rows = sorted_rows(rows)
    units = rows if counted is None else sorted_rows(counted)
    doc: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "meta": dict(meta or {}),
        "taxonomy": {"id": taxonomy.id, "name": taxonomy.name,
                     "categories": [{"id": c.id, "name": c.name}
                                    for c in taxonomy.categories]},
    }
    if view:
        extra = details or {}
        doc["view"] = view
        doc["view_text"] = VIEW_TEXT[view]
        doc["counted"] = [{**row_to_json(r, taxonomy), **extra.get(r.sample, {})}
                          if r.test is None else row_to_json(r, taxonomy) for r in units]
    doc["tables"] = {name: _json_breakdown(t, taxonomy)
                     for name, t in _tables(units, taxonomy, view)}
    doc["rows"] = [row_to_json(r, taxonomy) for r in rows]
    return doc


def render_json(rows: Iterable[ExportRow], taxonomy: Taxonomy,
                meta: dict[str, Any] | None = None, counted: Iterable[ExportRow] | None = None,
                view: str = "", details: dict[str, dict[str, Any]] | None = None) -> str:
    """The json export as text: indent 2, trailing newline."""
    return json.dumps(export_json(rows, taxonomy, meta, counted, view, details), indent=2,
                      ensure_ascii=False) + "\n"


# --- latex --------------------------------------------------------------------------------

_LATEX_SPECIALS = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
                   "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                   "\\": r"\textbackslash{}",
                   # not special, but wrong glyphs in LaTeX's default (OT1) text font
                   "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters (``& % $ # _ { } ~ ^ \\``, and ``| < >``)."""
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in text)


def _language_label(name: str) -> str:
    return name[:1].upper() + name[1:]


def _latex_breakdown(b: Breakdown, taxonomy: Taxonomy, caption: str, label: str,
                     group_label: Callable[[str], str] = str) -> list[str]:
    ncols = 2 * (len(b.group_names) + 1)
    heads = [group_label(g) for g in b.group_names] + ["Total"]
    out = [r"\begin{table}", r"\centering", rf"\caption{{{caption}}}", rf"\label{{{label}}}",
           r"\begin{tabular}{l" + "rr" * (len(b.group_names) + 1) + "}", r"\toprule",
           "Category & " + " & ".join(rf"\multicolumn{{2}}{{c}}{{{latex_escape(h)}}}"
                                      for h in heads) + r" \\",
           "".join(rf"\cmidrule(lr){{{2 + 2 * i}-{3 + 2 * i}}}" for i in range(len(heads))),
           " & " + " & ".join([r"n & \%"] * (ncols // 2)) + r" \\", r"\midrule"]
    for cat, counts, total in b.rows:
        cells = [latex_escape(taxonomy.name_of(cat))]
        for n, d in zip([*counts, total], [*b.group_totals, b.total], strict=True):
            cells += [str(n), rf"{percent(n, d)}\%"]
        out.append(" & ".join(cells) + r" \\")
    out.append(r"\midrule")
    cells = ["Total"]
    for d in [*b.group_totals, b.total]:
        cells += [str(d), rf"{percent(d, d)}\%"]
    out += [" & ".join(cells) + r" \\", r"\bottomrule", r"\end{tabular}"]
    if b.has_unresolved:
        text = latex_escape(_unresolved_line(b, group_label))
        out += [r"\par\smallskip", rf"{{\footnotesize {text[:1].upper()}{text[1:]}.}}"]
    out.append(r"\end{table}")
    return out


def render_latex(rows: Iterable[ExportRow], taxonomy: Taxonomy,
                 counted: Iterable[ExportRow] | None = None, view: str = "") -> str:
    """The three tables (of ``counted``, default ``rows``) as booktabs ``table``
    environments; with a ``view`` each caption says what a row counts."""
    units = sorted_rows(rows if counted is None else counted)
    per = f", counted per {VIEW_UNIT[view].removesuffix('s')}" if view else ""
    out = [r"% requires \usepackage{booktabs}", ""]
    if view:
        out += [f"% {view_line(view)}", ""]
    out += _latex_breakdown(paper_table(units, taxonomy), taxonomy,
                            f"Failure categories of generated repositories by language{per}.",
                            "tab:failure-categories", _language_label)
    out.append("")
    out += _latex_breakdown(run_table(units, taxonomy), taxonomy,
                            f"Failure categories of generated repositories by run{per}.",
                            "tab:failure-categories-by-run")
    out.append("")
    out += _latex_breakdown(agent_table(units, taxonomy), taxonomy,
                            "Failure categories of generated repositories by agent (model)"
                            f"{per}.", "tab:failure-categories-by-agent")
    return "\n".join(out) + "\n"


# --- entry point --------------------------------------------------------------------------

def render(rows: Iterable[ExportRow], taxonomy: Taxonomy, fmt: str,
           meta: dict[str, Any] | None = None, *, counted: Iterable[ExportRow] | None = None,
           view: str = "", details: dict[str, dict[str, Any]] | None = None) -> str:
    """Render the export as ``fmt`` (``md``, ``csv``, ``json`` or ``latex``).

    ``rows`` are listed; the tables count ``counted`` (default: ``rows``), the rows of
    ``view``. ``meta`` (e.g. project, date, annotators) and ``details`` (per sample) go into
    the json document only. :class:`ValueError` for any other format.
    """
    rows = list(rows)
    units = None if counted is None else list(counted)
    if fmt == "md":
        return render_md(rows, taxonomy, units, view)
    if fmt == "csv":
        return render_csv(rows, taxonomy)
    if fmt == "json":
        return render_json(rows, taxonomy, meta, units, view, details)
    if fmt == "latex":
        return render_latex(rows, taxonomy, units, view)
    raise ValueError(f"unknown export format {fmt!r} (expected one of: {', '.join(FORMATS)})")
