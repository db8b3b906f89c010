"""In-memory runs for the HTML report tests: hostile names and texts, and a big corpus."""

from __future__ import annotations

from pathlib import Path

from inspector.model.results.outcomes import Outcome, Phase
from inspector.model.results.run import Run, RunSource
from inspector.model.results.sample import Deployment, SampleResult, TestCase, TestSummary

#: Text that would run script or break out of the markup if the page embedded it raw.
XSS = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>&amp;</pre></section>"
HOSTILE_TASK = "task<script>alert('t')</script>\x1b]0;T\x07\u202e"
HOSTILE_RUN = "run\"><svg onload=alert(3)>\u200d"
HOSTILE_TEST = "tests/test_x.py::test_<b>bold</b>\x9b"


def case(i: int, message: str = "assert 1 == 2", traceback: str = "") -> TestCase:
    return TestCase(f"tests/test_api.py::test_{i}", Outcome.FAILED, message=message,
                    traceback=traceback)


def sample(run_id: str, task: str, n: int, cases: tuple[TestCase, ...], *,
           passed: int = 0, log: Path | None = None, deployed: bool = True) -> SampleResult:
    failed = sum(c.outcome is Outcome.FAILED for c in cases)
    return SampleResult(
        run_id=run_id, task=task, sample=n, language="python",
        deployment=Deployment(success=deployed,
                              failed_phase=None if deployed else Phase.INSTALL,
                              message="" if deployed else f"pip failed {XSS}"),
        tests=TestSummary(passed=passed, failed=failed, cases=cases, has_cases=True),
        framework="flask", logs={Phase.TESTS: log} if log else {})


def run(run_id: str, samples: list[SampleResult], agent: str = "Agent",
        model: str = "m1") -> Run:
    return Run(id=run_id, agent=agent, model=model, language="python",
               source=RunSource("genesis-inspector", Path("/nowhere") / "run.json"),
               samples=tuple(samples))


def hostile_runs(log: Path) -> list[Run]:
    """One run whose id, task, test id, message, traceback and log hold markup and
    controls; a second sample that did not deploy."""
    cases = (TestCase(HOSTILE_TEST, Outcome.FAILED, message=XSS,
                      traceback=f"Traceback:\n  {XSS}\n\x1b[2J\x07"),)
    return [run(HOSTILE_RUN, [sample(HOSTILE_RUN, HOSTILE_TASK, 0, cases, log=log),
                              sample(HOSTILE_RUN, HOSTILE_TASK, 1, (), deployed=False)],
                agent=f"A{XSS}", model="m<i>")]


def big_runs(runs: int = 20, tasks: int = 100, per_cell: int = 5, failing_tests: int = 20
             ) -> list[Run]:
    """``runs * tasks * per_cell`` samples (10,000 by default), four in five failing with
    ``failing_tests`` failing tests, each with a 2 KB traceback."""
    tb = "Traceback (most recent call last):\n" + "  File \"x.py\", line 1, in f\n" * 60
    cases = tuple(case(i, "assert response.status_code == 200, " + "x" * 300, tb)
                  for i in range(failing_tests))
    out = []
    for r in range(runs):
        run_id = f"repo_readme_1120_agent{r}_model{r}_Python"
        samples = []
        for t in range(tasks):
            for n in range(per_cell):
                ok = (r + t + n) % 5 == 0
                samples.append(sample(run_id, f"task-{t:03d}", n,
                                      () if ok else cases, passed=10))
        out.append(run(run_id, samples, agent=f"Agent{r}", model=f"model{r}"))
    return out
