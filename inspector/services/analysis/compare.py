"""Paired comparison of two runs on the same tasks: who wins where, and is it significant.

Per task (A = the first run, B = the second):

* **strict pass**: the task's pass@1 estimate ``c / n`` (``c`` of its ``n`` samples passed
  strictly; with one sample this is 0 or 1). A *wins* a task when its estimate is higher.
* **test pass ratio**: the mean over the task's samples of passed / counted tests; a sample
  whose suite did not run counts 0 here (the pair needs a value; the stock summary instead
  leaves such samples out of its average).
* **McNemar's exact test** on strict pass uses one sample per task — the lowest-numbered
  (sample 0) — because the test needs one binary outcome per run and task; ``b`` counts tasks
  only A's sample 0 passed, ``c`` those only B's did. With several samples per task, the
  pass@1 estimates above carry the other samples' information into the bootstrap.
* **Bootstrap 95 % CIs** (paired, over tasks, fixed seed) of the difference A - B in mean
  pass@1 and in mean test pass ratio.
* **Minimum detectable difference** (MDD) in mean pass@1 over the ``n`` common tasks: the
  smallest true difference a two-sided test at alpha 0.05 finds with power 0.8, by the normal
  approximation for two proportions at the two runs' mean pass@1 ``p``:
  ``(z_0.975 + z_0.8) * sqrt(2 p (1 - p) / n)`` (:func:`~inspector.model.figures.stats.
  minimum_detectable_difference`; conservative: it ignores the pairing).
* **pass@k and pass^k** per task and run for k = 1..n (n: the task's sample count in that
  run), and their means over the common tasks for k up to the smallest such n.

Tasks only one run has are listed (``only_a`` / ``only_b``) and left out of the paired
figures, never dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.model.benchmark.task import Task
from inspector.model.figures.stats import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    BootstrapCI,
    McNemar,
    mcnemar_exact,
    minimum_detectable_difference,
    paired_bootstrap_ci,
    pass_at_k,
    pass_hat_k,
)
from inspector.services.analysis.cost import CostSummary, cost_summary
from inspector.services.analysis.outcomes import RunOutcomes, SampleOutcome

WIN, LOSS, TIE = "win", "loss", "tie"
MDD_ALPHA, MDD_POWER = 0.05, 0.8
MDD_METHOD = "normal approximation for two proportions (conservative: ignores the pairing)"


def _outcome(a: float, b: float) -> str:
    if abs(a - b) < 1e-12:
        return TIE
    return WIN if a > b else LOSS


@dataclass(frozen=True, slots=True)
class TaskSide:
    """One run's samples of one task."""

    samples: int
    passed: int  # samples that passed strictly
    sample0_passed: bool  # the lowest-numbered sample (McNemar's outcome)
    test_ratio: float  # mean test pass ratio over the samples
    pass_at_k: dict[int, float]  # k = 1..samples
    pass_hat_k: dict[int, float]

    @property
    def pass_at_1(self) -> float:
        return self.passed / self.samples

    def to_json(self) -> dict[str, Any]:
        return {"samples": self.samples, "passed": self.passed,
                "sample0_passed": self.sample0_passed, "pass_at_1": round(self.pass_at_1, 4),
                "test_ratio": round(self.test_ratio, 4),
                "pass_at_k": {str(k): round(v, 4) for k, v in self.pass_at_k.items()},
                "pass_hat_k": {str(k): round(v, 4) for k, v in self.pass_hat_k.items()}}


def task_side(samples: list[SampleOutcome]) -> TaskSide:
    n = len(samples)
    c = sum(s.strict_pass for s in samples)
    first = min(samples, key=lambda s: s.sample)
    return TaskSide(n, c, first.strict_pass, sum(s.test_ratio for s in samples) / n,
                    {k: pass_at_k(n, c, k) for k in range(1, n + 1)},
                    {k: pass_hat_k(n, c, k) for k in range(1, n + 1)})


@dataclass(frozen=True, slots=True)
class TaskPair:
    """A task both runs attempted: each side, and who won it."""

    task: str
    a: TaskSide
    b: TaskSide

    @property
    def strict(self) -> str:
        """A's result on strict pass (its pass@1 estimate): win, loss or tie."""
        return _outcome(self.a.pass_at_1, self.b.pass_at_1)

    @property
    def ratio(self) -> str:
        """A's result on the test pass ratio."""
        return _outcome(self.a.test_ratio, self.b.test_ratio)

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "strict": self.strict, "ratio": self.ratio,
                "a": self.a.to_json(), "b": self.b.to_json()}


@dataclass(frozen=True, slots=True)
class Tally:
    wins: int
    losses: int
    ties: int

    def to_json(self) -> dict[str, int]:
        return {"wins": self.wins, "losses": self.losses, "ties": self.ties}


def _tally(results: list[str]) -> Tally:
    return Tally(results.count(WIN), results.count(LOSS), results.count(TIE))


@dataclass(frozen=True, slots=True)
class TierResult:
    """The common tasks of one difficulty tier."""

    tier: str
    tasks: int
    a_pass_at_1: float
    b_pass_at_1: float
    strict: Tally

    def to_json(self) -> dict[str, Any]:
        return {"tier": self.tier, "tasks": self.tasks,
                "a_pass_at_1": round(self.a_pass_at_1, 4),
                "b_pass_at_1": round(self.b_pass_at_1, 4), "strict": self.strict.to_json()}


@dataclass
class RunComparison:
    """Everything :func:`compare_runs` finds; ``wins`` etc. are from A's side."""

    a: RunOutcomes
    b: RunOutcomes
    pairs: list[TaskPair]
    only_a: list[str]
    only_b: list[str]
    strict: Tally
    ratio: Tally
    mcnemar: McNemar
    ci_pass_at_1: BootstrapCI | None  # None without a common task
    ci_test_ratio: BootstrapCI | None
    pass_at_k: dict[str, dict[int, float]] = field(default_factory=dict)  # "a"/"b" -> k -> mean
    pass_hat_k: dict[str, dict[int, float]] = field(default_factory=dict)
    cost: dict[str, CostSummary] = field(default_factory=dict)
    tiers: dict[str, str] = field(default_factory=dict)  # common task -> difficulty tier
    mdd: float | None = None  # minimum detectable pass@1 difference (None: no common task)
    mdd_rate: float | None = None  # the mean pass@1 of both runs it is computed at

    @property
    def max_samples(self) -> int:
        return max((max(p.a.samples, p.b.samples) for p in self.pairs), default=0)

    def by_tier(self) -> list[TierResult]:
        """Per difficulty tier (when tiers are known): tasks, mean pass@1 of each side, and
        A's wins/losses/ties on strict pass — easiest tier first."""
        from inspector.services.analysis.overview import tier_sort_key

        if not self.tiers:
            return []
        groups: dict[str, list[TaskPair]] = {}
        for p in self.pairs:
            groups.setdefault(self.tiers.get(p.task, "unknown"), []).append(p)
        return [TierResult(tier, len(ps), sum(p.a.pass_at_1 for p in ps) / len(ps),
                           sum(p.b.pass_at_1 for p in ps) / len(ps),
                           _tally([p.strict for p in ps]))
                for tier, ps in sorted(groups.items(), key=lambda kv: tier_sort_key(kv[0]))]

    def to_json(self) -> dict[str, Any]:
        def ci(c: BootstrapCI | None) -> dict[str, Any] | None:
            if c is None:
                return None
            return {"difference": round(c.difference, 4), "low": round(c.low, 4),
                    "high": round(c.high, 4), "level": c.level, "resamples": c.resamples,
                    "seed": c.seed, "tasks": c.pairs}

        def run(r: RunOutcomes, side: str) -> dict[str, Any]:
            return {"key": r.key, "run_id": r.run_id, "agent": r.agent, "model": r.model,
                    "language": r.language, "tasks": len(r.by_task()),
                    "samples": len(r.samples),
                    "unreadable": len(r.unreadable),
                    "unreadable_samples": list(r.unreadable),
                    "pass_at_k": {str(k): round(v, 4)
                                  for k, v in self.pass_at_k.get(side, {}).items()},
                    "pass_hat_k": {str(k): round(v, 4)
                                   for k, v in self.pass_hat_k.get(side, {}).items()},
                    "cost": self.cost[side].to_json() if side in self.cost else None}

        return {
            "a": run(self.a, "a"), "b": run(self.b, "b"),
            "common_tasks": len(self.pairs), "only_a": self.only_a, "only_b": self.only_b,
            "strict": self.strict.to_json(), "test_ratio": self.ratio.to_json(),
            "mcnemar": {"basis": "sample 0 of each task, strict pass",
                        "a_only": self.mcnemar.b, "b_only": self.mcnemar.c,
                        "discordant": self.mcnemar.discordant,
                        "p_value": round(self.mcnemar.p_value, 6)},
            "ci_pass_at_1": ci(self.ci_pass_at_1), "ci_test_ratio": ci(self.ci_test_ratio),
            "minimum_detectable_difference": None if self.mdd is None else {
                "pass_at_1": round(self.mdd, 4), "tasks": len(self.pairs), "alpha": MDD_ALPHA,
                "power": MDD_POWER, "at_rate": round(self.mdd_rate or 0.0, 4),
                "method": MDD_METHOD},
            "tasks": [{**p.to_json(), "tier": self.tiers[p.task]} if p.task in self.tiers
                      else p.to_json() for p in self.pairs],
            "by_tier": [t.to_json() for t in self.by_tier()],
        }


def _mean_over(pairs: list[TaskPair], side: str, kind: str) -> dict[int, float]:
    """Mean of each task's pass@k (``kind`` "at") or pass^k ("hat") for k up to the smallest
    sample count any common task has in that run."""
    sides = [p.a if side == "a" else p.b for p in pairs]
    if not sides:
        return {}
    k_max = min(s.samples for s in sides)
    return {k: sum((s.pass_at_k if kind == "at" else s.pass_hat_k)[k] for s in sides)
            / len(sides) for k in range(1, k_max + 1)}


def task_tiers(runs: list[RunOutcomes], tasks: Mapping[str, Task]) -> dict[str, str]:
    """The difficulty tier of each task of ``runs`` found in ``tasks`` (e.g. a catalog's
    :meth:`~inspector.services.catalog.index.Catalog.tasks`), as the run analysis names it."""
    from inspector.services.analysis.overview import analyze_used_tasks, tier_name

    return {name: tier_name(t) for name, t in analyze_used_tasks(runs, tasks).items()}


def compare_runs(a: RunOutcomes, b: RunOutcomes, *, seed: int = DEFAULT_SEED,
                 resamples: int = DEFAULT_RESAMPLES,
                 tier_of: Callable[[str], str] | None = None) -> RunComparison:
    """Compare run ``a`` with run ``b`` on the tasks both attempted (see the module doc)."""
    ta, tb = a.by_task(), b.by_task()
    common = sorted(set(ta) & set(tb))
    pairs = [TaskPair(t, task_side(ta[t]), task_side(tb[t])) for t in common]
    b_count = sum(p.a.sample0_passed and not p.b.sample0_passed for p in pairs)
    c_count = sum(p.b.sample0_passed and not p.a.sample0_passed for p in pairs)
    ci_pass = ci_ratio = mdd = rate = None
    if pairs:
        rate = sum(p.a.pass_at_1 + p.b.pass_at_1 for p in pairs) / (2 * len(pairs))
        mdd = minimum_detectable_difference(len(pairs), rate, alpha=MDD_ALPHA, power=MDD_POWER)
        ci_pass = paired_bootstrap_ci([p.a.pass_at_1 for p in pairs],
                                      [p.b.pass_at_1 for p in pairs],
                                      resamples=resamples, seed=seed)
        ci_ratio = paired_bootstrap_ci([p.a.test_ratio for p in pairs],
                                       [p.b.test_ratio for p in pairs],
                                       resamples=resamples, seed=seed)
    return RunComparison(
        a=a, b=b, pairs=pairs,
        only_a=sorted(set(ta) - set(tb)), only_b=sorted(set(tb) - set(ta)),
        strict=_tally([p.strict for p in pairs]), ratio=_tally([p.ratio for p in pairs]),
        mcnemar=mcnemar_exact(b_count, c_count),
        ci_pass_at_1=ci_pass, ci_test_ratio=ci_ratio,
        pass_at_k={s: _mean_over(pairs, s, "at") for s in ("a", "b")},
        pass_hat_k={s: _mean_over(pairs, s, "hat") for s in ("a", "b")},
        cost={"a": cost_summary(a), "b": cost_summary(b)},
        tiers={t: tier_of(t) for t in common} if tier_of is not None else {},
        mdd=mdd, mdd_rate=rate,
    )
