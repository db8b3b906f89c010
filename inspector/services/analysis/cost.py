"""Generation cost vs pass, per run: median cost, time and tokens per sample, cost per pass.

From the optional ``generation`` record of each sample (``docs/run-format.md``). A run whose
samples record none is "not recorded" (every stock RepoGenesis run: its metadata has no
generation time, tokens or cost). When only some samples record a figure, the figure is over
those samples and ``recorded`` says how many.

*Cost per passing sample* is the total cost of the samples that record one divided by how many
of them passed strictly (the paper's Pass@1 verdict) — what one working repo cost; None when
none of them passed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from statistics import median
from typing import Any

from inspector.services.analysis.outcomes import RunOutcomes, SampleOutcome

NOT_RECORDED = "not recorded"


@dataclass(frozen=True, slots=True)
class CostSummary:
    """One run's generation figures (None: not recorded by any sample)."""

    run_key: str
    run_id: str
    samples: int
    pass_at_1: float  # strict Pass@1: per-task share of passing samples, averaged over tasks
    recorded: int  # samples with any generation figure
    with_cost: int
    median_cost: float | None
    total_cost: float | None
    cost_per_pass: float | None
    passes_with_cost: int
    median_seconds: float | None
    median_input_tokens: float | None
    median_output_tokens: float | None

    @property
    def is_recorded(self) -> bool:
        return self.recorded > 0

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 6)

        return {"run_key": self.run_key, "run_id": self.run_id, "samples": self.samples,
                "pass_at_1": round(self.pass_at_1, 4), "recorded": self.recorded,
                "status": "recorded" if self.is_recorded else NOT_RECORDED,
                "with_cost": self.with_cost, "median_cost_usd": r(self.median_cost),
                "total_cost_usd": r(self.total_cost),
                "cost_per_passing_sample_usd": r(self.cost_per_pass),
                "passes_with_cost": self.passes_with_cost,
                "median_seconds": r(self.median_seconds),
                "median_input_tokens": r(self.median_input_tokens),
                "median_output_tokens": r(self.median_output_tokens)}


def strict_pass_at_1(tasks: Iterable[list[SampleOutcome]]) -> float:
    """Pass@1 as :mod:`inspector.services.figures.metrics` computes it: per task the share of its
    samples that passed strictly (the unbiased estimator with k = 1), averaged over tasks."""
    shares = [sum(s.strict_pass for s in ss) / len(ss) for ss in tasks if ss]
    return sum(shares) / len(shares) if shares else 0.0


def _median(values: list[float]) -> float | None:
    return float(median(values)) if values else None


def cost_summary(run: RunOutcomes) -> CostSummary:
    """The generation figures of ``run`` (see the module doc)."""
    gens = [(s, s.generation) for s in run.samples if s.generation is not None]
    costs = [(s.strict_pass, g.cost_usd) for s, g in gens if g.cost_usd is not None]
    total = sum(c for _, c in costs) if costs else None
    passes = sum(p for p, _ in costs)
    n = len(run.samples)
    return CostSummary(
        run_key=run.key, run_id=run.run_id, samples=n,
        pass_at_1=strict_pass_at_1(run.by_task().values()),
        recorded=len(gens), with_cost=len(costs),
        median_cost=_median([c for _, c in costs]), total_cost=total,
        cost_per_pass=total / passes if total is not None and passes else None,
        passes_with_cost=passes,
        median_seconds=_median([g.seconds for _, g in gens if g.seconds is not None]),
        median_input_tokens=_median([float(g.input_tokens) for _, g in gens
                                     if g.input_tokens is not None]),
        median_output_tokens=_median([float(g.output_tokens) for _, g in gens
                                      if g.output_tokens is not None]),
    )
