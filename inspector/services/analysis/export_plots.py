"""The run analysis as figures (matplotlib, Agg): SVG and PNG, byte-identical for one input.

Each figure is a :class:`matplotlib.figure.Figure` drawn without pyplot's global state (this
runs in worker threads), saved inside :func:`matplotlib.rc_context` with a fixed SVG hash salt,
text kept as text (``svg.fonttype`` none, DejaVu Sans, bundled with matplotlib) and no date or
software stamp in the files. A figure that has nothing to show is not drawn: :class:`Plot`
then carries the reason instead, for the export's index.

* ``pass_at_1_by_tier`` — grouped bars: per run, strict Pass@1 in each tier;
* ``categories_by_agent`` — stacked bars: each agent's failure-category mix (shares);
* ``cost_vs_pass`` — scatter: median generation cost per sample vs Pass@1, per run;
* ``compare_differences`` — per common task, A's pass@1 minus B's, sorted, coloured by
  win / loss / tie.
"""

from __future__ import annotations

import io
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inspector.model.untrusted.safe_text import sanitize
from inspector.services.analysis.compare import LOSS, WIN, RunComparison
from inspector.services.analysis.overview import Overview

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

FORMATS = ("svg", "png")
PNG_DPI = 150
PALETTE = ("#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377", "#BBBBBB",
           "#000000", "#EE7733", "#0077BB", "#33BBEE", "#EE3377", "#CC3311", "#009988")
"""Paul Tol's colour-blind safe colours, then more; cycled when a figure needs more."""
WIN_COLOUR, LOSS_COLOUR, TIE_COLOUR = "#228833", "#CC3311", "#999999"
RC: dict[RcKeyType, Any] = {"svg.hashsalt": "genesis-inspector", "svg.fonttype": "none",
      "font.family": "DejaVu Sans", "font.size": 9.0, "axes.titlesize": 10.0,
      "path.simplify": True, "savefig.bbox": "tight"}
_LOCK = threading.Lock()  # rc_context changes matplotlib's process-wide settings
# a name in a script DejaVu Sans lacks is drawn as boxes; that is no reason to warn on stderr
warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from font", category=UserWarning)


@dataclass
class Plot:
    """A figure to write as ``name``.svg / .png, or why there is none (``figure`` None)."""

    name: str
    description: str
    figure: Any = None  # matplotlib.figure.Figure
    skipped: str = ""


def _plain(text: str) -> str:
    """Untrusted text (run ids, task names) shown as written, on one line: controls and bidi
    characters made visible, and ``$`` escaped (it would start matplotlib's math mode)."""
    return " ".join(sanitize(text).split()).replace("$", r"\$")


def _colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig


def figure_bytes(fig: Any, fmt: str) -> bytes:
    """``fig`` as SVG or PNG, with no date or software stamp (the same bytes every time)."""
    import matplotlib

    if fmt not in FORMATS:
        raise ValueError(f"unknown figure format {fmt!r}")
    buf = io.BytesIO()
    metadata: dict[str, str | None] = {"Date": None} if fmt == "svg" else {"Software": None}
    with _LOCK, matplotlib.rc_context(RC):
        fig.savefig(buf, format=fmt, metadata=metadata, dpi=PNG_DPI)
    return buf.getvalue()


def _drawn(build: Callable[[], Any]) -> Any:
    import matplotlib

    with _LOCK, matplotlib.rc_context(RC):
        return build()


# --- the figures --------------------------------------------------------------------------

def tier_plot(overview: Overview) -> Plot:
    """Grouped horizontal bars: one group per run, one bar per tier."""
    name, what = "pass_at_1_by_tier", "Pass@1 by difficulty tier per run (grouped bars)"
    tiers = overview.tier_names()
    if not overview.runs or not tiers:
        return Plot(name, what, skipped="no run has a sample in any tier")
    cell = {(g.run_key, g.group): g.strict for g in overview.passes.get("by_tier", [])}
    runs = overview.runs

    def build() -> Any:
        n = len(tiers)
        height = min(60.0, 1.4 + 0.22 * len(runs) * max(1.5, n * 0.8))
        fig = _figure(7.5, height)
        ax = fig.add_subplot()
        bar = 0.8 / n
        for j, tier in enumerate(tiers):
            ys, xs = [], []
            for i, run in enumerate(runs):
                v = cell.get((run.key, tier))
                if v is not None:
                    ys.append(i - 0.4 + bar * (j + 0.5))
                    xs.append(v * 100)
            ax.barh(ys, xs, height=bar, color=_colour(j), label=_plain(tier))
            for y, x in zip(ys, xs, strict=True):  # 0 % is a value; a missing bar is not
                ax.annotate(f"{x:.0f}%", (x, y), xytext=(2, 0), textcoords="offset points",
                            va="center", fontsize=6.5, color="#333333")
        ax.set_yticks(range(len(runs)), [_plain(r.run_id) for r in runs])
        ax.invert_yaxis()
        ax.set_xlim(0, 108)
        ax.set_xticks(range(0, 101, 20))
        ax.set_xlabel("Pass@1 (%)")
        ax.set_title("Pass@1 by difficulty tier")
        ax.grid(axis="x", color="#DDDDDD", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.legend(title="tier", loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        return fig

    return Plot(name, what, _drawn(build))


def category_plot(overview: Overview) -> Plot:
    """Stacked horizontal bars: per agent, the share of each failure category."""
    name, what = "categories_by_agent", "Failure-category mix per agent (stacked shares)"
    cats = overview.categories
    if cats is None or "by_agent" not in cats.tables:
        return Plot(name, what, skipped="no labels (labels/annotators/<name>.json)")
    b = cats.tables["by_agent"]
    if b.total == 0:
        return Plot(name, what, skipped=f"no resolved label ({cats.view_text})")
    unit = cats.unit
    agents = [g for g, d in zip(b.group_names, b.group_totals, strict=True) if d]
    totals = [d for d in b.group_totals if d]
    keep = [(cat, [n for n, d in zip(counts, b.group_totals, strict=True) if d])
            for cat, counts, total in b.rows if total]

    def build() -> Any:
        fig = _figure(7.5, min(40.0, 1.6 + 0.45 * len(agents)))
        ax = fig.add_subplot()
        left = [0.0] * len(agents)
        for k, (cat, counts) in enumerate(keep):
            widths = [100 * n / d for n, d in zip(counts, totals, strict=True)]
            ax.barh(range(len(agents)), widths, left=left, height=0.6, color=_colour(k),
                    label=_plain(cats.taxonomy.name_of(cat)))
            left = [a + w for a, w in zip(left, widths, strict=True)]
        ax.set_yticks(range(len(agents)),
                      [_plain(f"{a} (n={d})") for a, d in zip(agents, totals, strict=True)])
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel(f"share of the agent's labelled {unit} (%)")
        ax.set_title(f"Failure categories by agent (per {unit.removesuffix('s')})")
        ax.legend(title="category", loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  frameon=False)
        return fig

    return Plot(name, what, _drawn(build))


def cost_plot(overview: Overview) -> Plot:
    """Scatter: median generation cost per sample vs Pass@1, one point per run."""
    name, what = "cost_vs_pass", "Median generation cost per sample vs Pass@1 (scatter)"
    points = [c for c in overview.costs if c.median_cost is not None]
    if not points:
        return Plot(name, what, skipped="generation cost not recorded by any sample")

    def build() -> Any:
        fig = _figure(6.5, 4.5)
        ax = fig.add_subplot()
        for i, c in enumerate(points):
            cost = c.median_cost or 0.0
            ax.scatter([cost], [c.pass_at_1 * 100], color=_colour(i), s=28, zorder=3)
            ax.annotate(_plain(c.run_id), (cost, c.pass_at_1 * 100), fontsize=7,
                        xytext=(4, 3), textcoords="offset points")
        ax.set_xlabel("median generation cost per sample (USD)")
        ax.set_ylabel("Pass@1 (%)")
        ax.set_ylim(-5, 105)
        ax.set_xlim(left=0)
        ax.set_title("Generation cost vs Pass@1")
        ax.grid(color="#DDDDDD", linewidth=0.6)
        ax.set_axisbelow(True)
        return fig

    return Plot(name, what, _drawn(build))


def difference_plot(c: RunComparison) -> Plot:
    """Bars: per common task, A's pass@1 minus B's, sorted (wins first)."""
    name = "compare_differences"
    what = "Paired per-task difference A - B in pass@1 (sorted; win / loss / tie)"
    if not c.pairs:
        return Plot(name, what, skipped="the two runs have no task in common")
    pairs = sorted(c.pairs, key=lambda p: (-(p.a.pass_at_1 - p.b.pass_at_1), p.task))

    def build() -> Any:
        fig = _figure(min(40.0, max(6.0, 0.28 * len(pairs) + 2)), 4.8)
        ax = fig.add_subplot()
        diffs = [100 * (p.a.pass_at_1 - p.b.pass_at_1) for p in pairs]
        colours = [WIN_COLOUR if p.strict == WIN else LOSS_COLOUR if p.strict == LOSS
                   else TIE_COLOUR for p in pairs]
        ax.bar(range(len(pairs)), diffs, color=colours, width=0.75)
        ties = [i for i, p in enumerate(pairs) if p.strict not in (WIN, LOSS)]
        ax.scatter(ties, [0] * len(ties), marker="_", color=TIE_COLOUR, s=40, zorder=3)
        ax.axhline(0, color="#333333", linewidth=0.8)
        ax.set_xticks(range(len(pairs)), [_plain(p.task) for p in pairs], rotation=90)
        ax.set_xlim(-0.6, len(pairs) - 0.4)
        ax.set_ylim(-105, 105)
        ax.set_ylabel("A - B pass@1 (percentage points)")
        ax.set_title(f"A: {_plain(c.a.run_id)}   vs   B: {_plain(c.b.run_id)}\n"
                     f"A wins {c.strict.wins}, loses {c.strict.losses}, ties {c.strict.ties}")
        ax.grid(axis="y", color="#DDDDDD", linewidth=0.6)
        ax.set_axisbelow(True)
        return fig

    return Plot(name, what, _drawn(build))


def overview_plots(overview: Overview) -> list[Plot]:
    return [tier_plot(overview), category_plot(overview), cost_plot(overview)]
