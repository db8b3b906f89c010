"""Run-level metrics: strict Pass@1 and pass@k, and the stock RepoGenesis summary figures.

* ``pass_at_1``: the paper's definition — a sample passes only if all its tests pass; a sample
  whose suite did not run counts as failed. Averaged per task (unbiased estimator with k=1),
  then over tasks.
* ``pass_at_k``: the unbiased estimator 1 - C(n-c, k) / C(n, k) per task, averaged over tasks,
  for every k up to the smallest number of samples any task has.
* ``test_pass_ratio``, ``api_coverage``, ``dsr``: exactly the stock summary rules — mean of the
  per-sample test score over samples with ``total > 0``; mean AC over samples with
  ``total_apis > 0``; deployed samples over all samples. On a RepoGenesis report these equal its
  ``avg_pass_at_1``, ``avg_api_coverage`` and ``deployment_success_rate``.
* ``dsr_lenient`` and ``api_coverage_lenient``: what the stock harness would report for the same
  samples, where our figure is stricter (port really open; route really declared).
* ``pass_at_1_ci`` and ``test_pass_ci``: their 95 % intervals (Wilson for pass@1 when each
  task has one sample, else a bootstrap over tasks; see :mod:`inspector.model.figures.stats`), from
  the same per-task counts and scored samples as the figures; None when there is nothing.
* ``not_evaluable``: samples the infrastructure left without a verdict (an unreachable dependency
  repository, a port held by another process, a harness exception, …) are in none of the
  figures above, counted and listed apart; ``repogenesis_summary`` keeps the stock semantics
  and counts every sample.
* ``reported_summary`` and ``summary_warnings``: a stock report's own ``summary`` figures, and
  one warning per figure that disagrees with what its ``results`` give. The figures shown are
  always recomputed from the results; the report's own stay next to them.

Strict AC is over the endpoints each README really requires (the spec list), so it also counts
samples whose README the stock extraction finds no endpoint in, which the stock average drops;
the stock-vs-strict notes say which endpoints the two lists disagree on.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

from inspector.model import Run, SampleResult, SuiteStatus
from inspector.model.figures.stats import Interval, pass_at_1_interval, score_interval
from inspector.model.figures.stats import pass_at_k as pass_at_k  # its home; re-exported here
from inspector.model.runs.stock_flaws import JAVA_DOUBLED


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


@dataclass
class RunMetrics:
    """Figures for one run, as printed by ``inspector summary``."""

    run_id: str
    agent: str
    model: str
    language: str
    format: str
    tasks: int
    samples: int
    pass_at_1: float
    pass_at_k: dict[int, float]
    test_pass_ratio: float
    api_coverage: float
    dsr: float
    suites_not_run: int
    suites_incomplete: int
    dsr_lenient: float | None = None
    api_coverage_lenient: float | None = None
    samples_passed: int = 0
    deployed: int = 0
    failing_tests: int = 0
    has_test_cases: bool = False
    differences: list[str] = field(default_factory=list)
    reported_summary: dict[str, float] = field(default_factory=dict)
    summary_warnings: list[str] = field(default_factory=list)
    pass_at_1_ci: Interval | None = None
    test_pass_ci: Interval | None = None
    # samples the infrastructure left without a verdict: in no figure above (``samples`` is
    # what the figures are over; ``samples_total`` counts these too)
    samples_total: int = 0
    not_evaluable: int = 0
    not_evaluable_samples: list[dict[str, Any]] = field(default_factory=list)
    # samples whose files could not be read (figures are over the ``samples`` read): see
    # model/unreadable.py; each {kind, task, sample, file (relative to the run), reason}
    unreadable: int = 0
    unreadable_samples: list[dict[str, Any]] = field(default_factory=list)

    @property
    def samples_cell(self) -> str:
        """The samples a table shows: the figures' count, "of" all when files were unreadable
        ("unreadable" when none was read), and the not-evaluable ones apart ("+3 n/e")."""
        if self.unreadable:
            text = (f"{self.samples} of {self.samples_total + self.unreadable}"
                    if self.samples_total else "unreadable")
        else:
            text = str(self.samples)
        return text + (f" (+{self.not_evaluable} n/e)" if self.not_evaluable else "")

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["pass_at_k"] = {str(k): v for k, v in self.pass_at_k.items()}
        if not self.samples and (self.unreadable or self.not_evaluable):
            # nothing read, or nothing evaluable: no figures, not 0 % (that would blame the model)
            d.update(dict.fromkeys(("pass_at_1", "test_pass_ratio", "api_coverage", "dsr")))
        return d


def strict_passed(s: SampleResult) -> bool:
    return s.tests.all_passed and s.tests.status is not SuiteStatus.NOT_RUN


def not_evaluable_rows(samples: list[SampleResult]) -> list[dict[str, Any]]:
    """One record per sample the infrastructure left without a verdict (sample id, kind,
    reason, inferred), in sample order."""
    return [{"sample_id": s.sample_id, "kind": s.not_evaluable.kind,
             "reason": s.not_evaluable.reason, "inferred": s.not_evaluable.inferred}
            for s in sorted(samples, key=lambda s: (s.task, s.sample))
            if s.not_evaluable is not None]


def compute_run_metrics(run: Run) -> RunMetrics:
    # the figures are over the evaluable samples; the others are counted and listed apart
    samples = [s for s in run.samples if s.not_evaluable is None]
    by_task: dict[str, list[SampleResult]] = defaultdict(list)
    for s in samples:
        by_task[s.task].append(s)
    per_task = {t: (len(ss), sum(strict_passed(s) for s in ss)) for t, ss in by_task.items()}
    k_max = min((n for n, _ in per_task.values()), default=0)
    pass_k: dict[int, float] = {}
    for k in range(1, k_max + 1):
        pass_k[k] = _mean([pass_at_k(n, c, k) for n, c in per_task.values()])
    scored = [s.tests.score for s in samples if s.tests.total > 0]
    scored_by_task: dict[str, list[float]] = defaultdict(list)  # the same samples, per task
    for s in samples:
        if s.tests.total > 0:
            scored_by_task[s.task].append(s.tests.score)
    covs = [s.api_coverage for s in samples if s.api_coverage]
    with_ac = [a for a in covs if a.total_apis]  # the stock rule, over the stock endpoints
    # strict AC: over the required (spec) endpoints; leaves out samples whose endpoints are
    # all unresolved (nothing to decide)
    ac = [a.score for a in covs
          if a.required_apis and (a.verifiable_apis or a.reported_score is not None)]
    ac_len = [a.lenient_score for a in with_ac if a.lenient_score is not None]
    deployed = sum(s.deployment.success for s in samples)
    lenient = [s.deployment.lenient_success for s in samples]
    dsr = round(deployed / len(samples), 4) if samples else 0.0
    dsr_lenient = (round(sum(bool(x) for x in lenient) / len(samples), 4)
                   if samples and all(x is not None for x in lenient) else None)
    statuses = [s.tests.status for s in samples]
    m = RunMetrics(
        run_id=run.id, agent=run.agent, model=run.model, language=run.language,
        format=run.source.format,
        tasks=len(by_task), samples=len(samples),
        pass_at_1=pass_k.get(1, 0.0),
        pass_at_k={k: v for k, v in pass_k.items() if k > 1},
        test_pass_ratio=_mean(scored),
        api_coverage=_mean(ac),
        dsr=dsr,
        suites_not_run=sum(st is not SuiteStatus.RAN for st in statuses),
        suites_incomplete=sum(st is SuiteStatus.INCOMPLETE for st in statuses),
        dsr_lenient=dsr_lenient,
        api_coverage_lenient=_mean(ac_len) if len(ac_len) == len(with_ac) and ac_len else None,
        samples_passed=sum(strict_passed(s) for s in samples),
        deployed=deployed,
        failing_tests=sum(len(s.failing_tests) for s in samples),
        has_test_cases=run.has_test_cases,
        pass_at_1_ci=pass_at_1_interval(list(per_task.values())),
        test_pass_ci=score_interval(list(scored_by_task.values())),
        samples_total=len(run.samples),
        not_evaluable=len(run.samples) - len(samples),
        not_evaluable_samples=not_evaluable_rows(list(run.samples)),
    )
    if m.dsr_lenient is not None and m.dsr_lenient != m.dsr:
        m.differences.append(
            f"DSR {m.dsr:.2%} counts only samples whose port really opened; the stock harness "
            f"would report {m.dsr_lenient:.2%} (a live process counts as deployed)")
    if m.api_coverage_lenient is not None and m.api_coverage_lenient != m.api_coverage:
        m.differences.append(
            f"AC {m.api_coverage:.2%} requires a route declaration for the endpoint; the stock "
            f"regex check gives {m.api_coverage_lenient:.2%}")
    m.reported_summary = dict(run.reported_summary)
    m.summary_warnings = summary_warnings(run)
    m.differences.extend(endpoint_list_notes(samples))
    if m.test_pass_ratio != m.pass_at_1:
        m.differences.append(
            f"Pass@1 {m.pass_at_1:.2%} counts a sample only when all its tests pass; the stock "
            f"'avg_pass_at_1' is the test pass ratio {m.test_pass_ratio:.2%} over samples that "
            "ran tests")
    m.differences.extend(n for n in run.notes if n.startswith(JAVA_DOUBLED))
    m.unreadable = len(run.unreadable)
    m.unreadable_samples = [u.to_json(run.source.path.parent) for u in run.unreadable]
    return m


SUMMARY_TOLERANCE = 0.0001
"""Both sides are rounded to 4 places: a larger gap is a real disagreement."""


def summary_warnings(run: Run) -> list[str]:
    """One warning per figure of a stock report's own ``summary`` that its ``results``
    (recomputed by the stock rules) do not give."""
    if not run.reported_summary:
        return []
    recomputed = repogenesis_summary(list(run.samples))
    out = []
    for key, reported in run.reported_summary:
        value = recomputed.get(key)
        if isinstance(value, float) and abs(value - reported) > SUMMARY_TOLERANCE + 1e-9:
            out.append(f"the report's own summary says {key} {reported:.2%}, but its results "
                       f"give {value:.2%}; the figures shown are recomputed from the results")
    return out


def endpoint_list_notes(samples: list[SampleResult]) -> list[str]:
    """Where strict AC's endpoint list (what each README requires) differs from the stock
    extraction's: endpoints only strict AC counts, per task, and stock-only ones."""
    missed: dict[str, int] = {}
    extra: dict[str, int] = {}
    dropped: set[str] = set()
    for s in samples:
        a = s.api_coverage
        if a is None or a.spec_apis is None:
            continue
        if a.spec_only_apis:
            missed[s.task] = a.spec_only_apis
        if a.stock_only:
            extra[s.task] = len(a.stock_only)
        if a.required_apis and not a.total_apis:
            dropped.add(s.task)
    notes = []
    if missed:
        per = ", ".join(f"{t} {n}" for t, n in sorted(missed.items()))
        line = (f"AC counts {sum(missed.values())} README endpoint(s) the stock extraction "
                f"does not see ({per})")
        if dropped:
            line += (f"; the stock AC finds no endpoint in {', '.join(sorted(dropped))} and "
                     "leaves those samples out of its average")
        notes.append(line)
    if extra:
        per = ", ".join(f"{t} {n}" for t, n in sorted(extra.items()))
        notes.append(f"The stock extraction also counts {sum(extra.values())} endpoint(s) the "
                     f"README does not require as such (code-block examples, FEATURE items: "
                     f"{per}); strict AC leaves them out")
    return notes


def repogenesis_summary(samples: list[SampleResult]) -> dict[str, Any]:
    """The stock harness's ``summary`` block for these samples (its rules, to 4 places)."""
    if not samples:
        return {"total_repos": 0, "evaluated": 0, "avg_pass_at_1": 0.0,
                "avg_api_coverage": 0.0, "deployment_success_rate": 0.0}

    def block(ss: list[SampleResult]) -> tuple[float, float, float]:
        scores = [s.tests.score for s in ss if s.tests.total > 0]
        acs = [s.api_coverage.lenient_score if s.api_coverage.lenient_score is not None
               else s.api_coverage.score
               for s in ss if s.api_coverage and s.api_coverage.total_apis]
        dsr = sum(bool(s.deployment.lenient_success if s.deployment.lenient_success is not None
                       else s.deployment.success) for s in ss)
        return _mean(scores), _mean(acs), round(dsr / len(ss), 4) if ss else 0.0

    py = [s for s in samples if s.language == "python"]
    java = [s for s in samples if s.language == "java"]
    p_all, ac_all, dsr_all = block(samples)
    p_py, ac_py, dsr_py = block(py)
    p_j, ac_j, dsr_j = block(java)
    return {
        "total_repos": len(samples), "python_repos": len(py), "java_repos": len(java),
        "avg_pass_at_1": p_all, "avg_api_coverage": ac_all, "deployment_success_rate": dsr_all,
        "pass_at_1_by_lang": {"python": p_py, "java": p_j},
        "ac_by_lang": {"python": ac_py, "java": ac_j},
        "dsr_by_lang": {"python": dsr_py, "java": dsr_j},
    }
