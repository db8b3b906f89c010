"""What each analysis plot draws, on a Plotext figure (``PlotextPlot.plt``).

Each ``draw_*`` clears the figure and draws one analysis of an
:class:`~inspector.services.analysis.overview.Overview` (or a run comparison); it returns a
one-line caption saying what is shown and what was left out, for the line under the plot.
"""

from __future__ import annotations

from typing import Any

from inspector.model.labels.rollup import VIEW_SHORT
from inspector.services.analysis.compare import RunComparison
from inspector.services.analysis.outcomes import RunOutcomes
from inspector.services.analysis.overview import Overview
from inspector.ui.safe import sanitize

MAX_SERIES = 6  # runs (or categories) drawn in one plot; the tables list them all
NAME_WIDTH = 18
MAX_FRAMEWORKS = 10
FEW_TASKS = 10  # the paired plot names its tasks up to this many
TASK_WIDTH = 12


def cut(text: str, width: int, *, tail: bool = False) -> str:
    """Untrusted ``text`` as a plot label: sanitised (plotext's output is read back as ANSI, so a
    raw ESC would vanish and take what follows with it), then its first (or last) ``width``."""
    shown = sanitize(text)
    return shown[-width:] if tail else shown[:width]


def short_name(run: RunOutcomes, others: list[RunOutcomes]) -> str:
    """The run's agent (model), with its id's ``@suffix`` when another run has the same."""
    name = sanitize(run.label)
    if sum(1 for r in others if r.label == run.label) > 1 and "@" in run.run_id:
        name += " @" + run.run_id.rsplit("@", 1)[1]
    elif sum(1 for r in others if r.label == run.label) > 1:
        name += " (first)"
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def _reset(plt: Any) -> None:
    plt.clear_data()
    plt.clear_figure()


def _message(plt: Any, title: str, text: str) -> None:
    plt.title(title)
    plt.xlim(0, 10)
    plt.ylim(0, 10)
    plt.xticks([])
    plt.yticks([])
    plt.text(text, 5, 5, alignment="center")


def shown_runs(overview: Overview) -> list[RunOutcomes]:
    """The runs a per-run plot draws: the ones with the most samples, up to MAX_SERIES."""
    ranked = sorted(overview.runs, key=lambda r: -len(r.samples))[:MAX_SERIES]
    return [r for r in overview.runs if r in ranked]


def draw_tier_pass(plt: Any, overview: Overview) -> str:
    """Strict Pass@1 (%) by difficulty tier, one bar per run in each tier."""
    _reset(plt)
    tiers = overview.tier_names()
    runs = shown_runs(overview)
    if not tiers or not runs:
        _message(plt, "Pass@1 by tier", "no samples")
        return ""
    cell = {(g.run_key, g.group): g.strict for g in overview.passes.get("by_tier", [])}
    series = [[round(100 * cell.get((r.key, t), 0.0), 1) for t in tiers] for r in runs]
    plt.multiple_bar(tiers, series, labels=[short_name(r, overview.runs) for r in runs])
    plt.title("Pass@1 (%) by difficulty tier")
    plt.ylim(0, 100 + 12 * len(runs))  # headroom: the legend sits top left
    plt.yticks([0, 25, 50, 75, 100])
    left = len(overview.runs) - len(runs)
    return (f"Tiers: {overview.tier_source}."
            + (f" {left} smaller run(s) not drawn (the table has them)." if left else ""))


def draw_category_mix(plt: Any, overview: Overview) -> str:
    """Share of each failure category per agent (stacked, %)."""
    _reset(plt)
    cats = overview.categories
    table = cats.tables.get("by_agent") if cats is not None else None
    if cats is None or table is None or not table.total:
        _message(plt, "Failure categories by agent",
                 "no labels yet: label failures (L) to see their mix")
        return "Categories come from the labels' final (adjudicated) category."
    rows = sorted((r for r in table.rows if r[2]), key=lambda r: -r[2])
    top, rest = rows[:MAX_SERIES], rows[MAX_SERIES:]
    groups = table.group_names
    totals = [t or 1 for t in table.group_totals]
    series = [[round(100 * counts[i] / totals[i], 1) for i in range(len(groups))]
              for _, counts, _ in top]
    names = [cut(cats.taxonomy.name_of(cat), NAME_WIDTH) for cat, _, _ in top]
    if rest:
        series.append([round(100 * sum(r[1][i] for r in rest) / totals[i], 1)
                       for i in range(len(groups))])
        names.append("other")
    plt.stacked_bar([cut(g, NAME_WIDTH) for g in groups], series, labels=names)
    plt.title(f"Failure categories by agent (% of labelled {cats.unit})")
    plt.ylim(0, 100 + 10 * len(series))
    plt.yticks([0, 25, 50, 75, 100])
    return (f"{table.total} {cats.unit} with a final category, from {cats.folder.name}/; "
            f"{VIEW_SHORT[cats.view]}"
            + (f"; {cats.outside} labelled elsewhere" if cats.outside else ""))


def draw_cost_vs_pass(plt: Any, overview: Overview) -> str:
    """One point per run: median generation cost (or time) against strict Pass@1."""
    _reset(plt)
    costed = [c for c in overview.costs if c.median_cost is not None]
    timed = [c for c in overview.costs if c.median_seconds is not None]
    points, what = (costed, "median cost per sample (USD)") if costed else \
        (timed, "median generation time (s)")
    if not points:
        _message(plt, "Cost vs pass", "generation cost not recorded by any sample")
        return ("Runs record it as generation {seconds, input_tokens, output_tokens, "
                "cost_usd} in result.json.")
    for c in points:
        x = c.median_cost if costed else c.median_seconds
        plt.scatter([x], [round(100 * c.pass_at_1, 1)],
                    label=cut(c.run_id, NAME_WIDTH, tail=True),
                    marker="●")
    plt.title("Cost vs pass: one point per run")
    plt.xlabel(what)
    plt.ylabel("Pass@1 %")
    plt.ylim(0, 100)
    left = len(overview.costs) - len(points)
    return f"{len(points)} run(s) record it" + (f"; {left} do not" if left else "")


def draw_paired(plt: Any, comparison: RunComparison) -> str:
    """A − B Pass@1 per common task (percentage points), sorted."""
    _reset(plt)
    pairs = comparison.pairs
    if not pairs:
        _message(plt, "Paired per-task differences", "no task in common")
        return ""
    diffs = sorted((round(100 * (p.a.pass_at_1 - p.b.pass_at_1), 1), p.task) for p in pairs)
    wins = [d if d > 0 else 0 for d, _ in diffs]
    losses = [d if d < 0 else 0 for d, _ in diffs]
    xs: list[Any] = list(range(1, len(diffs) + 1))
    if len(diffs) <= FEW_TASKS:
        xs = [cut(task, TASK_WIDTH) for _, task in diffs]
    plt.bar(xs, wins, label="A better", color="green")
    plt.bar(xs, losses, label="B better", color="red")
    plt.hline(0)
    plt.ylim(-105, 105)
    plt.title("Pass@1 A − B per task (pp), sorted")
    plt.xlabel(f"{len(diffs)} common tasks")
    ties = sum(1 for d, _ in diffs if d == 0)
    return (f"A better on {sum(1 for w in wins if w)} task(s), B on "
            f"{sum(1 for x in losses if x)}, equal on {ties}.")


def draw_framework_pass(plt: Any, overview: Overview) -> str:
    """Strict Pass@1 (%) per framework over every run (each run's task share, averaged)."""
    _reset(plt)
    shares: dict[str, list[float]] = {}
    samples: dict[str, int] = {}
    for run in overview.runs:
        for ss in run.by_task().values():
            fw = ss[0].framework or "unknown"
            shares.setdefault(fw, []).append(sum(s.strict_pass for s in ss) / len(ss))
            samples[fw] = samples.get(fw, 0) + len(ss)
    if not shares:
        _message(plt, "Pass@1 by framework", "no samples")
        return ""
    ranked = sorted(shares, key=lambda f: -samples[f])[:MAX_FRAMEWORKS]
    ranked.sort()
    ranked.reverse()  # horizontal bars are drawn bottom-up: A at the top
    # horizontal: every name is shown whole on the y axis (x labels get dropped at the edge)
    plt.bar([cut(f, 12) for f in ranked],
            [round(100 * sum(shares[f]) / len(shares[f]), 1) for f in ranked],
            orientation="horizontal", width=0.6)
    plt.title("Pass@1 (%) by framework, all runs")
    plt.xlim(0, 100)
    plt.xticks([0, 25, 50, 75, 100])
    left = len(shares) - len(ranked)
    return (f"{len(ranked)} frameworks" + (f"; {left} with fewer samples not drawn"
                                            if left else ""))
