"""The paired comparison's figures as the Compare view's text."""

from __future__ import annotations

from inspector.services.analysis.compare import RunComparison


def _pp(x: float) -> str:
    return f"{x * 100:+.1f} pp"


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f}%"


def comparison_lines(c: RunComparison) -> list[str]:
    """Wins and losses, McNemar, bootstrap CIs, pass@k / pass^k: one fact a line."""
    lines = [f"A: {c.a.run_id} ({c.a.label})", f"B: {c.b.run_id} ({c.b.label})",
             f"{len(c.pairs)} common tasks"
             + (f"; only in A: {len(c.only_a)}" if c.only_a else "")
             + (f"; only in B: {len(c.only_b)}" if c.only_b else "")]
    if not c.pairs:
        lines.append("No task in common: nothing to compare.")
        return lines
    lines.append(f"Strict pass: A wins {c.strict.wins}, loses {c.strict.losses}, "
                 f"ties {c.strict.ties}   Test pass ratio: A wins {c.ratio.wins}, "
                 f"loses {c.ratio.losses}, ties {c.ratio.ties}")
    m = c.mcnemar
    verdict = "significant at 5%" if m.p_value < 0.05 else "not significant at 5%"
    lines.append(f"McNemar exact (sample 0 per task): {m.b} only A, {m.c} only B, "
                 f"p = {m.p_value:.4f} ({verdict})")
    for name, ci in (("Pass@1", c.ci_pass_at_1), ("Test pass ratio", c.ci_test_ratio)):
        if ci is not None:
            lines.append(f"{name} A − B: {_pp(ci.difference)}, {ci.level:.0%} CI "
                         f"[{_pp(ci.low)}, {_pp(ci.high)}] (paired bootstrap, "
                         f"{ci.resamples} resamples, seed {ci.seed})")
    tiers = c.by_tier()
    if tiers:
        lines.append("By tier: " + "   ".join(
            f"{t.tier} ({t.tasks}): A {_pct(t.a_pass_at_1)} vs B {_pct(t.b_pass_at_1)}, "
            f"{t.strict.wins}–{t.strict.losses}" for t in tiers))
    if c.max_samples > 1:
        ks = sorted(set(c.pass_at_k["a"]) | set(c.pass_at_k["b"]))
        for side in ("a", "b"):
            lines.append(f"{side.upper()} pass@k / pass^k: " + "  ".join(
                f"k={k} {_pct(c.pass_at_k[side].get(k))}/{_pct(c.pass_hat_k[side].get(k))}"
                for k in ks))
    return lines
