"""The paired comparison and the cost figures in words, for the CLI and the app alike.

* :func:`compare_text` — ``inspector compare``'s report: per-task and per-tier tables, the
  tallies, McNemar, the bootstrap CIs, pass@k / pass^k and the cost table.
* :func:`mdd_line` — the smallest pass@1 difference the comparison could detect.
* :func:`comparison_lines` — the app's Compare view: the same facts, one a line, no tables.
* :func:`cost_text` — generation cost vs pass (``compare`` and ``analyze --runs``).

Tables are laid out by the caller's ``table`` (the CLI's makes each cell safe for the
terminal); everything else here is plain text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from inspector.model.figures.percent import pct, pp
from inspector.model.figures.stats import BootstrapCI
from inspector.model.results.unreadable import unreadable_line
from inspector.services.analysis.compare import MDD_ALPHA, MDD_POWER, RunComparison, Tally
from inspector.services.analysis.cost import CostSummary

Table = Callable[[list[str], list[list[str]]], str]
"""Rows under headers as text: ``table(headers, rows)``."""

NOTHING_IN_COMMON = "No task in common: nothing to compare."


def _money(x: float | None) -> str:
    return "—" if x is None else f"${x:.4f}"


def _record(t: Tally) -> str:
    return f"A wins {t.wins}, loses {t.losses}, ties {t.ties}"


def _cis(c: RunComparison) -> Iterator[tuple[str, BootstrapCI]]:
    """The paired bootstrap CIs there are, with their names."""
    for name, ci in (("Pass@1", c.ci_pass_at_1), ("Test pass ratio", c.ci_test_ratio)):
        if ci is not None:
            yield name, ci


def _ci_span(ci: BootstrapCI) -> str:
    return f"{pp(ci.difference)}, {ci.level:.0%} CI [{pp(ci.low)}, {pp(ci.high)}]"


def mdd_line(c: RunComparison) -> str:
    """What the comparison could detect at all: its minimum detectable pass@1 difference."""
    if c.mdd is None:
        return ""
    rate = c.mdd_rate or 0.0
    at = (f"at the runs' mean pass@1 {pct(rate)}" if 0.0 < rate < 1.0
          else "at 50%, the widest case (no task's outcome varied)")
    line = (f"Minimum detectable difference in pass@1 over these {len(c.pairs)} tasks: "
            f"{c.mdd * 100:.1f} pp (two-sided alpha {MDD_ALPHA}, power {MDD_POWER}; normal "
            f"approximation for two proportions {at}): a smaller true difference would most "
            "often go unnoticed")
    if c.ci_pass_at_1 is not None and abs(c.ci_pass_at_1.difference) < c.mdd:
        line += f"; the observed {pp(c.ci_pass_at_1.difference)} is below it"
    return line + "."


def _ks(c: RunComparison) -> list[int]:
    return sorted(set(c.pass_at_k["a"]) | set(c.pass_at_k["b"]))


def _pass_k(c: RunComparison, side: str, k: int, sep: str) -> str:
    return f"{pct(c.pass_at_k[side].get(k))}{sep}{pct(c.pass_hat_k[side].get(k))}"


def comparison_lines(c: RunComparison) -> list[str]:
    """Wins and losses, McNemar, bootstrap CIs, pass@k / pass^k: one fact a line."""
    lines = [f"A: {c.a.run_id} ({c.a.label})", f"B: {c.b.run_id} ({c.b.label})",
             f"{len(c.pairs)} common tasks"
             + (f"; only in A: {len(c.only_a)}" if c.only_a else "")
             + (f"; only in B: {len(c.only_b)}" if c.only_b else "")]
    if not c.pairs:
        lines.append(NOTHING_IN_COMMON)
        return lines
    lines.append(f"Strict pass: {_record(c.strict)}   Test pass ratio: {_record(c.ratio)}")
    m = c.mcnemar
    verdict = "significant at 5%" if m.p_value < 0.05 else "not significant at 5%"
    lines.append(f"McNemar exact (sample 0 per task): {m.b} only A, {m.c} only B, "
                 f"p = {m.p_value:.4f} ({verdict})")
    for name, ci in _cis(c):
        lines.append(f"{name} A − B: {_ci_span(ci)} (paired bootstrap, "
                     f"{ci.resamples} resamples, seed {ci.seed})")
    lines.append(mdd_line(c))
    tiers = c.by_tier()
    if tiers:
        lines.append("By tier: " + "   ".join(
            f"{t.tier} ({t.tasks}): A {pct(t.a_pass_at_1)} vs B {pct(t.b_pass_at_1)}, "
            f"{t.strict.wins}–{t.strict.losses}" for t in tiers))
    if c.max_samples > 1:
        for side in ("a", "b"):
            lines.append(f"{side.upper()} pass@k / pass^k: " + "  ".join(
                f"k={k} {_pass_k(c, side, k, '/')}" for k in _ks(c)))
    return lines


def compare_text(c: RunComparison, table: Table) -> str:
    """``inspector compare``'s report of ``c``, tables laid out by ``table``."""
    out = [f"A: {c.a.run_id}  ({c.a.label}; {len(c.a.by_task())} tasks, "
           f"{len(c.a.samples)} samples)",
           f"B: {c.b.run_id}  ({c.b.label}; {len(c.b.by_task())} tasks, "
           f"{len(c.b.samples)} samples)",
           f"Common tasks: {len(c.pairs)}"]
    for side, r in (("A", c.a), ("B", c.b)):  # never dropped silently (docs/unreadable.md)
        out += [f"Unreadable in {side} (not in any figure): {unreadable_line(u)}"
                for u in r.unreadable]
    if c.only_a:
        out.append(f"Only in A (left out of the paired figures): {', '.join(c.only_a)}")
    if c.only_b:
        out.append(f"Only in B (left out of the paired figures): {', '.join(c.only_b)}")
    if not c.pairs:
        out.append(NOTHING_IN_COMMON)
        return "\n".join(out)
    out.append("")
    rows = [[p.task, c.tiers.get(p.task, ""), pct(p.a.pass_at_1), pct(p.b.pass_at_1),
             p.strict, pct(p.a.test_ratio), pct(p.b.test_ratio), p.ratio] for p in c.pairs]
    out.append(table(["task", "tier", "A pass@1", "B pass@1", "A on pass", "A tests",
                      "B tests", "A on tests"], rows))
    tiers = c.by_tier()
    if tiers:
        out.append("")
        out.append("By difficulty tier:")
        out.append(table(
            ["tier", "tasks", "A pass@1", "B pass@1", "A wins", "A loses", "ties"],
            [[t.tier, str(t.tasks), pct(t.a_pass_at_1), pct(t.b_pass_at_1),
              str(t.strict.wins), str(t.strict.losses), str(t.strict.ties)] for t in tiers]))
    out.append("")
    out.append(f"Strict pass (per-task pass@1): {_record(c.strict)}")
    out.append(f"Test pass ratio:               {_record(c.ratio)}")
    m = c.mcnemar
    out.append(f"McNemar exact test (sample 0 of each task, strict pass): {m.b} task(s) only "
               f"A passed, {m.c} only B passed; two-sided p = {m.p_value:.4f}")
    for name, ci in _cis(c):
        out.append(f"{name} difference A - B: {_ci_span(ci)} (paired bootstrap "
                   f"over {ci.pairs} tasks, {ci.resamples} resamples, seed {ci.seed})")
    out.append(mdd_line(c))
    if c.max_samples > 1:
        out.append("")
        ks = _ks(c)
        krows = [[side.upper(), *(_pass_k(c, side, k, " / ") for k in ks)]
                 for side in ("a", "b")]
        out.append("pass@k / pass^k (all k samples pass), means over the common tasks:")
        out.append(table(["run", *(f"k={k}" for k in ks)], krows))
    out.append("")
    out.append(cost_text([c.cost["a"], c.cost["b"]], table, {c.a.key: "A", c.b.key: "B"}))
    return "\n".join(out)


def cost_text(costs: list[CostSummary], table: Table, names: dict[str, str] | None = None
              ) -> str:
    """Generation cost vs pass per run (``names``: run key -> the name shown, else its id)."""
    names = names or {}
    recorded = [x for x in costs if x.is_recorded]
    if not recorded:
        return "Generation time, tokens and cost: not recorded (no sample records them)."
    rows = []
    for x in costs:
        name = names.get(x.run_key, x.run_id)
        if not x.is_recorded:
            rows.append([name, pct(x.pass_at_1), "not recorded", "", "", "", ""])
            continue
        tokens = "—" if x.median_input_tokens is None and x.median_output_tokens is None else \
            f"{x.median_input_tokens or 0:.0f} / {x.median_output_tokens or 0:.0f}"
        rows.append([name, pct(x.pass_at_1), f"{x.recorded}/{x.samples}",
                     _money(x.median_cost), _money(x.cost_per_pass),
                     "—" if x.median_seconds is None else f"{x.median_seconds:.1f}s", tokens])
    return "Generation cost vs pass:\n" + table(
        ["run", "pass@1", "recorded", "median cost", "cost per pass", "median time",
         "median tokens in/out"], rows)
