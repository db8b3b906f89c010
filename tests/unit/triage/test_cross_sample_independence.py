"""Cross-sample evidence scales with how many independent agents/models fail a test alike."""

from __future__ import annotations

from pathlib import Path

from inspector.model import Outcome, Run
from inspector.model.results.run import RunSource
from inspector.model.results.sample import Deployment, SampleResult, TestCase, TestSummary
from inspector.services.triage.corpus import CorpusIndex
from inspector.services.triage.items import failure_items
from inspector.services.triage.rules import ItemEvidence, cross_sample_readings

TEST = "tests/test_api.py::test_create_rejects_blank_name"
ERROR = "assert 201 == 400"


def _run(agent: str, model: str, samples: int, outcome: Outcome = Outcome.FAILED) -> Run:
    out = []
    for n in range(samples):
        case = TestCase(TEST, outcome, message=ERROR if outcome.is_failure else "")
        failed = int(outcome.is_failure)
        out.append(SampleResult(
            run_id=f"r_{agent}_{model}", task="todo", sample=n, language="python",
            deployment=Deployment(success=True),
            tests=TestSummary(passed=1 - failed, failed=failed, cases=(case,), has_cases=True)))
    return Run(id=f"r_{agent}_{model}", agent=agent, model=model, language="python",
               source=RunSource("genesis-inspector", Path(".")), samples=tuple(out))


def _reading(runs: list[Run], mine: SampleResult):  # type: ignore[no-untyped-def]
    corpus = CorpusIndex(runs)
    item = next(i for i in failure_items(mine) if i.test_id == TEST)
    ev = ItemEvidence(mine, None, item, mine.tests.cases[0], None, corpus)
    found = cross_sample_readings(ev)
    assert len(found) == 1
    return found[0]


def test_five_other_agents_weigh_more_than_one() -> None:
    mine = _run("ours", "m", 1)
    five = [mine] + [_run(f"agent{i}", f"model{i}", 1) for i in range(5)]
    one = [mine, _run("agent0", "model0", 1)]
    strong = _reading(five, mine.samples[0])
    weak = _reading(one, mine.samples[0])
    assert strong.category == weak.category == "not-model"
    assert strong.weight > weak.weight + 0.15
    assert "strong evidence" in strong.reason and "5 other agent/model(s)" in strong.reason
    assert "weak evidence" in weak.reason and "1 other agent/model(s)" in weak.reason


def test_samples_of_the_same_agent_are_not_independent() -> None:
    own = _run("ours", "m", 6)  # six samples of one agent and model, all failing alike
    mine = own.samples[0]
    r = _reading([own], mine)
    other = _reading([own, _run("agent0", "model0", 1)], mine)
    assert "5 sample(s) of this sample's own agent, not independent" in r.reason
    assert "weak evidence" in r.reason
    assert r.weight < other.weight


def test_a_pass_elsewhere_says_it_can_be_passed() -> None:
    mine = _run("ours", "m", 1)
    r = _reading([mine, _run("agent0", "model0", 1, Outcome.PASSED)], mine.samples[0])
    assert r.rule == "~cross-sample/passed-elsewhere" and r.weight < 0
