"""suggest() with a shared per-sample context answers exactly as without one: on every sample
of the bundled runs, and when a repository's read budgets would run out across calls."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model.results.outcomes import Outcome, Phase
from inspector.model.results.sample import Deployment, SampleResult, TestCase, TestSummary
from inspector.model.runs.discover import discover_runs
from inspector.services.triage import exception_rules as label_suggest
from inspector.services.triage.exception_rules import SampleContext, suggest

ROOT = Path(__file__).resolve().parents[2]


def bundled_samples() -> list[SampleResult]:
    found = discover_runs(ROOT / "sample_runs")
    return [s for run in found.runs for s in run.samples
            if not (s.passed and s.deployment.success)]


def test_a_shared_context_changes_no_answer_on_the_bundled_runs() -> None:
    samples = bundled_samples()
    assert len(samples) >= 10
    compared = 0
    for s in samples:
        ctx = SampleContext(s)
        asked: list[str | None] = [None, *(c.id for c in s.failing_tests)]
        for test_id in asked:
            assert suggest(s, test_id, context=ctx) == suggest(s, test_id), (s.sample_id, test_id)
            compared += 1
    assert compared > len(samples)


def test_a_context_for_another_sample_is_not_used(tmp_path: Path) -> None:
    a, b = attribute_sample(tmp_path / "a"), attribute_sample(tmp_path / "b", cls="Other")
    ctx = SampleContext(a)
    assert suggest(b, "tests/test_a.py::test_store", context=ctx) == \
        suggest(b, "tests/test_a.py::test_store")
    assert ctx.repo.root == a.repo_path  # left as it was


CLASSES = {"Store": "storage.py", "Queue": "queue_mod.py"}


def attribute_sample(root: Path, cls: str = "Store") -> SampleResult:
    """Two failing tests, each an AttributeError on a different repo class: telling each
    needs its class's module parsed."""
    repo = root / "repo"
    repo.mkdir(parents=True)
    for name, module in CLASSES.items():
        body = "".join(f"        self.field_{i} = {i}\n" for i in range(40))
        (repo / module).write_text(f"class {name if cls == 'Store' else cls + name}:\n"
                                   f"    def __init__(self):\n{body}", encoding="utf-8")
    (repo / "app.py").write_text("import storage\n", encoding="utf-8")
    cases = []
    for name, test in (("Store", "test_store"), ("Queue", "test_queue")):
        cases.append(TestCase(
            f"tests/test_a.py::{test}", Outcome.FAILED,
            message=f"AttributeError: '{name}' object has no attribute 'put'",
            traceback=("Traceback (most recent call last):\n"
                       '  File "/tmp/gi-task/repo/app.py", line 1, in handler\n'
                       "    item.put(1)\n"
                       f"AttributeError: '{name}' object has no attribute 'put'"),
            file="tests/test_a.py"))
    return SampleResult(
        run_id="r", task="t", sample=0, language="python",
        deployment=Deployment(success=True, message="Service started successfully",
                              failed_phase=Phase.TESTS),
        tests=TestSummary(failed=2, cases=tuple(cases), has_cases=True), port=18080,
        repo_path=repo)


def test_budgets_are_per_call_even_with_a_shared_context(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Each call may parse MAX_PARSE_BYTES of sources: a context that already spent it on an
    earlier call must not make a later call read less."""
    s = attribute_sample(tmp_path)
    one = (s.repo_path / "storage.py").stat().st_size  # type: ignore[operator]
    monkeypatch.setattr(label_suggest, "MAX_PARSE_BYTES", one + one // 2)  # one module, not two
    first, second = (c.id for c in s.failing_tests)
    alone = suggest(s, second)
    assert alone is not None and alone.rule == "repo-attribute-missing"
    assert "Queue" in alone.reason
    ctx = SampleContext(s)
    found = suggest(s, first, context=ctx)
    assert found is not None and "Store" in found.reason
    assert suggest(s, second, context=ctx) == alone
    assert suggest(s, first, context=ctx) == found  # and back


def test_a_read_refused_in_one_call_is_not_carried_into_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first call parses storage.py and is refused storage2.py (its own budget is spent);
    the next call, about a class only storage2.py defines, must still read it."""
    s = attribute_sample(tmp_path)
    repo = s.repo_path
    assert repo is not None
    (repo / "queue_mod.py").unlink()
    (repo / "storage2.py").write_text("class Store:\n    size = 1\n\n\nclass Queue:\n"
                                      "    size = 1\n    head = 0\n", encoding="utf-8")
    monkeypatch.setattr(label_suggest, "MAX_PARSE_BYTES", (repo / "storage.py").stat().st_size
                        + 10)
    first, second = (c.id for c in s.failing_tests)
    alone = suggest(s, second)
    assert alone is not None and "storage2.py" in alone.reason
    ctx = SampleContext(s)
    assert suggest(s, first, context=ctx) == suggest(s, first)
    assert suggest(s, second, context=ctx) == alone
