"""Run metrics: strict Pass@1, unbiased pass@k, and the stock RepoGenesis summary figures."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.model import (
    ApiCoverage,
    Deployment,
    Outcome,
    Run,
    RunSource,
    SampleResult,
    TestCase,
    TestSummary,
    discover_runs,
)
from inspector.services.figures.metrics import (
    compute_run_metrics,
    pass_at_k,
    repogenesis_summary,
    strict_passed,
)

SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"


def sample(task: str = "t", n: int = 0, passed: int = 1, failed: int = 0, errors: int = 0,
           deployed: bool = True, lenient: bool | None = None, ac: ApiCoverage | None = None,
           language: str = "python", collection_errors: int = 0,
           expected: int | None = None) -> SampleResult:
    return SampleResult(
        run_id="r", task=task, sample=n, language=language,
        deployment=Deployment(success=deployed, lenient_success=lenient),
        tests=TestSummary(passed=passed, failed=failed, errors=errors, has_cases=True,
                          collection_errors=collection_errors, expected=expected,
                          cases=tuple(TestCase(f"t.py::f{i}", Outcome.FAILED)
                                      for i in range(failed))),
        api_coverage=ac,
    )


def make_run(samples: list[SampleResult], fmt: str = "genesis-inspector") -> Run:
    return Run(id="r", agent="A", model="M", language="python",
               source=RunSource(fmt, Path("run.json")), samples=tuple(samples))


# ----------------------------------------------------------------------------- pass@k

class TestPassAtK:
    def test_hand_computed(self):
        assert pass_at_k(5, 2, 1) == 0.4  # 1 - C(3,1)/C(5,1) = 1 - 3/5
        assert pass_at_k(5, 2, 2) == 0.7  # 1 - C(3,2)/C(5,2) = 1 - 3/10
        assert pass_at_k(5, 2, 3) == pytest.approx(0.9)  # 1 - C(3,3)/C(5,3) = 1 - 1/10
        assert pass_at_k(10, 3, 5) == pytest.approx(1 - 21 / 252)  # C(7,5)/C(10,5)

    @pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
    def test_no_correct_sample(self, k):
        assert pass_at_k(5, 0, k) == 0.0

    @pytest.mark.parametrize(("n", "c", "k"), [(5, 4, 2), (5, 3, 3), (3, 3, 1), (5, 5, 5),
                                               (2, 1, 2)])
    def test_fewer_wrong_samples_than_k(self, n, c, k):
        assert n - c < k
        assert pass_at_k(n, c, k) == 1.0

    @pytest.mark.parametrize(("n", "c", "k"), [(5, 2, 0), (0, 0, 1), (3, 1, 4), (5, 2, -1)])
    def test_invalid(self, n, c, k):
        with pytest.raises(ValueError, match="need 0 < k <= n"):
            pass_at_k(n, c, k)

    @settings(max_examples=150, deadline=None)
    @given(st.integers(1, 30).flatmap(lambda n: st.tuples(
        st.just(n), st.integers(0, n), st.integers(1, n))))
    def test_properties(self, nck):
        n, c, k = nck
        p = pass_at_k(n, c, k)
        assert 0.0 <= p <= 1.0
        assert p == pytest.approx(1 - comb(n - c, k) / comb(n, k))
        if k == 1:
            assert p == pytest.approx(c / n)
        if k < n:
            assert pass_at_k(n, c, k + 1) >= p - 1e-12
        if c < n:
            assert pass_at_k(n, c + 1, k) >= p - 1e-12


# ----------------------------------------------------------------------------- run metrics

class TestRunMetrics:
    def test_pass_at_k_over_tasks(self):
        # task a: 1 of 3 samples passes; task b: 2 of 3.
        # pass@1 = (1/3 + 2/3) / 2 = 0.5
        # pass@2: a = 1 - C(2,2)/C(3,2) = 1 - 1/3 = 0.6667; b: n-c = 1 < 2 -> 1.0
        #         mean = 0.8333
        # pass@3: a: n-c = 2 < 3 -> 1.0; b -> 1.0; mean = 1.0
        samples = [
            sample("a", 0, passed=2), sample("a", 1, passed=1, failed=1),
            sample("a", 2, passed=0, failed=2),
            sample("b", 0, passed=3), sample("b", 1, passed=3),
            sample("b", 2, passed=2, errors=1),
        ]
        m = compute_run_metrics(make_run(samples))
        assert m.pass_at_1 == 0.5
        assert m.pass_at_k == {2: 0.8333, 3: 1.0}
        assert (m.tasks, m.samples, m.samples_passed) == (2, 6, 3)
        # stock ratio over the 6 samples: (1 + 0.5 + 0 + 1 + 1 + 0.6667) / 6
        assert m.test_pass_ratio == round((1 + 0.5 + 0 + 1 + 1 + 0.6667) / 6, 4) == 0.6944
        assert m.failing_tests == 3
        assert m.to_json()["pass_at_k"] == {"2": 0.8333, "3": 1.0}

    def test_k_limited_by_the_task_with_fewest_samples(self):
        samples = [sample("a", i) for i in range(3)] + [sample("b", i, passed=0, failed=1)
                                                        for i in range(2)]
        m = compute_run_metrics(make_run(samples))
        assert list(m.pass_at_k) == [2]
        assert m.pass_at_1 == 0.5  # a: 3/3, b: 0/2
        assert m.pass_at_k[2] == 0.5

    def test_strict_verdicts(self):
        ok = sample(passed=3)
        one_failed = sample(passed=2, failed=1)
        not_run = sample(passed=0)
        collection = sample(passed=3, collection_errors=1)
        assert strict_passed(ok)
        assert not strict_passed(one_failed)
        assert not strict_passed(not_run)
        assert not strict_passed(collection)
        m = compute_run_metrics(make_run([
            ok, sample("b", passed=2, failed=1), sample("c", passed=0),
            sample("d", passed=3, collection_errors=1)]))
        assert m.pass_at_1 == 0.25
        assert m.suites_not_run == 2  # c (no test) and d (incomplete)
        assert m.suites_incomplete == 1

    def test_stock_figures(self):
        samples = [
            sample("a", passed=1, failed=1, ac=ApiCoverage(4, 3), deployed=True),
            sample("b", passed=0, ac=ApiCoverage(0, 0), deployed=False),  # no tests, no APIs
            sample("c", passed=2, ac=None, deployed=False),
            sample("d", passed=1, failed=3, ac=ApiCoverage(2, 2), deployed=True),
        ]
        m = compute_run_metrics(make_run(samples))
        assert m.test_pass_ratio == 0.5833  # (0.5 + 1.0 + 0.25) / 3, b excluded
        assert m.api_coverage == 0.875  # (0.75 + 1.0) / 2, b and c excluded
        assert m.dsr == 0.5 and m.deployed == 2
        assert m.dsr_lenient is None  # lenient verdicts unknown
        assert m.api_coverage_lenient is None

    def test_lenient_figures_and_differences(self):
        samples = [
            sample("a", passed=1, deployed=True, lenient=True,
                   ac=ApiCoverage(4, 2, lenient_implemented_apis=4)),
            sample("b", passed=1, deployed=False, lenient=True,
                   ac=ApiCoverage(2, 2, lenient_implemented_apis=2)),
        ]
        m = compute_run_metrics(make_run(samples))
        assert (m.dsr, m.dsr_lenient) == (0.5, 1.0)
        assert (m.api_coverage, m.api_coverage_lenient) == (0.75, 1.0)
        assert m.differences == [
            "DSR 50.00% counts only samples whose port really opened; the stock harness "
            "would report 100.00% (a live process counts as deployed)",
            "AC 75.00% requires a route declaration for the endpoint; the stock regex check "
            "gives 100.00%",
        ]
        assert m.pass_at_1 == m.test_pass_ratio == 1.0

    def test_no_differences_when_equal(self):
        m = compute_run_metrics(make_run([sample(passed=2, lenient=True)]))
        assert m.differences == []

    def test_empty_run(self):
        m = compute_run_metrics(make_run([]))
        assert (m.tasks, m.samples, m.pass_at_1, m.pass_at_k) == (0, 0, 0.0, {})
        assert (m.test_pass_ratio, m.api_coverage, m.dsr) == (0.0, 0.0, 0.0)
        assert m.dsr_lenient is None and m.api_coverage_lenient is None
        assert m.has_test_cases is False

    def test_identity_fields(self):
        m = compute_run_metrics(make_run([sample()], fmt="repogenesis"))
        assert (m.run_id, m.agent, m.model, m.language, m.format) == ("r", "A", "M", "python",
                                                                      "repogenesis")
        assert m.has_test_cases is True


class TestRepogenesisSummary:
    def test_empty(self):
        assert repogenesis_summary([]) == {"total_repos": 0, "evaluated": 0,
                                           "avg_pass_at_1": 0.0, "avg_api_coverage": 0.0,
                                           "deployment_success_rate": 0.0}

    def test_by_language_and_lenient_values(self):
        samples = [
            # strict: not deployed, AC 1/2; stock (lenient): deployed, AC 2/2
            sample("a", passed=1, failed=1, deployed=False, lenient=True,
                   ac=ApiCoverage(2, 1, lenient_implemented_apis=2)),
            sample("b", passed=0, deployed=False, lenient=False, ac=ApiCoverage(0, 0)),
            sample("j", passed=3, failed=1, deployed=True, language="java",
                   ac=ApiCoverage(4, 1)),
        ]
        assert repogenesis_summary(samples) == {
            "total_repos": 3, "python_repos": 2, "java_repos": 1,
            "avg_pass_at_1": 0.625,  # (0.5 + 0.75) / 2; b ran no test
            "avg_api_coverage": 0.625,  # (1.0 + 0.25) / 2; b has no API
            "deployment_success_rate": 0.6667,  # a (lenient) and j
            "pass_at_1_by_lang": {"python": 0.5, "java": 0.75},
            "ac_by_lang": {"python": 1.0, "java": 0.25},
            "dsr_by_lang": {"python": 0.5, "java": 1.0},
        }

    def test_language_without_repos_reports_zero(self):
        s = repogenesis_summary([sample(passed=1)])
        assert s["java_repos"] == 0
        assert s["pass_at_1_by_lang"]["java"] == s["ac_by_lang"]["java"] == \
            s["dsr_by_lang"]["java"] == 0.0


# ----------------------------------------------------------------------------- bundled data

@pytest.fixture(scope="module")
def bundled():
    found = discover_runs(SAMPLE_RUNS)
    return {r.id: r for r in found.all_runs}


FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"


def stock_report(folder: str) -> tuple[str, str]:
    """(run id, report path under sample_runs) of a bundled stock copy: a stamped
    ``report_<stamp>.json`` (its stamp changes at every regeneration) gives ``<run>@<stamp>``,
    a plain ``report.json`` gives ``<run>@<folder>``."""
    (path,) = (SAMPLE_RUNS / "repogenesis" / folder).glob("report*.json")
    meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]
    run = Path(meta["predictions_dir"]).name
    suffix = path.stem.removeprefix("report_") if path.stem != "report" else folder
    return f"{run}@{suffix}", str(path.relative_to(SAMPLE_RUNS))


FORGE_STOCK = stock_report("forge")[0]


class TestBundledRepoGenesisRuns:
    @pytest.mark.parametrize(("run_id", "report", "repos"), [
        (*stock_report("forge"), 6),
        (*stock_report("relay"), 6),
        (*stock_report("atlas"), 8),
        (*stock_report("dash"), 8),
    ])
    def test_metrics_equal_the_report_summary(self, bundled, run_id, report, repos):
        summary = json.loads((SAMPLE_RUNS / report).read_text(encoding="utf-8"))["summary"]
        run = bundled[run_id]
        m = compute_run_metrics(run)
        assert m.test_pass_ratio == summary["avg_pass_at_1"]
        assert m.api_coverage == summary["avg_api_coverage"]
        assert m.dsr == summary["deployment_success_rate"]
        assert m.samples == summary["total_repos"] == repos
        assert repogenesis_summary(list(run.samples)) == summary

    def test_the_bundle_has_four_stock_copies(self):
        assert sorted(p.name for p in (SAMPLE_RUNS / "repogenesis").iterdir()) == \
            ["atlas", "dash", "forge", "relay"]

    def test_forge_values(self, bundled):
        m = compute_run_metrics(bundled[FORGE_STOCK])
        # inventory 10/10, notes 10/10, quote 4/5, todo 9/12, unit 0/8, url 8/8
        # ratio (1 + 1 + 0.8 + 0.75 + 0 + 1) / 6 = 0.7583; strict 3/6
        assert (m.test_pass_ratio, m.api_coverage, m.dsr) == (0.7583, 0.925, 1.0)
        assert m.pass_at_1 == 0.5

    def test_atlas_values(self, bundled):
        m = compute_run_metrics(bundled[stock_report("atlas")[0]])
        # Multilingual 33/33, StructuredDataConvertor 8/13, UserManagement_2 23/31,
        # WebPan 15/22, django-rest-framework-crud 2/2, eve 2/2, flask 7/7, synapse 0/5
        assert m.test_pass_ratio == round((1 + 8 / 13 + 23 / 31 + 15 / 22 + 1 + 1 + 1 + 0) / 8,
                                          4)
        # AC averages only the repos whose README yields endpoints to the stock extraction
        # (Multilingual and StructuredDataConvertor yield none): UserManagement_2 5/5,
        # WebPan 0/4, django 2/8, eve 1/1, flask 3/3, synapse 7/7
        assert m.api_coverage == round((1 + 0 + 2 / 8 + 1 + 1 + 1) / 6, 4)
        assert m.dsr == 1.0
        assert m.pass_at_1 == 0.5  # Multilingual, django, eve, flask pass every test

    def test_relay_values(self, bundled):
        m = compute_run_metrics(bundled[f"{RELAY}@relay"])
        # inventory 7/10, notes 5/10, everything else 0: (0.7 + 0.5) / 6 = 0.2; strict 0
        assert (m.test_pass_ratio, m.api_coverage, m.dsr) == (0.2, 0.8972, 0.5)
        assert m.pass_at_1 == 0.0


class TestBundledOurRuns:
    def test_forge(self, bundled):
        """Hand count from samples/*/0/result.json of the forge run:

        ==============  ======  =====  ======  ========  ==========================
        task            passed  total  all ok  deployed  AC strict (lenient)
        ==============  ======  =====  ======  ========  ==========================
        inventory-api   10      10     yes     yes       6/6 (6/6)
        notes-api       10      10     yes     yes       6/6 (6/6)
        quote-board     4       5      no      yes       5/5 (5/5)  1 collection error
        todo-service    9       12     no      yes       6/6 (6/6)
        unit-converter  0       8      no      no (*)    5/5 (4/5)
        url-shortener   8       8      yes     yes       4/4 (3/4)
        ==============  ======  =====  ======  ========  ==========================

        (*) the port never opened; the stock harness would count it (lenient).
        Pass@1 = 3/6 = 0.5; ratio = (1+1+0.8+0.75+0+1)/6 = 0.7583; DSR 5/6 = 0.8333
        (lenient 6/6); AC 6 x 1.0 = 1.0 (lenient 0.925; the README's example line
        `GET /convert?value=...` counts as an endpoint, as in the stock extraction).
        """
        run = bundled[FORGE]
        m = compute_run_metrics(run)
        assert m.pass_at_1 == 0.5 and m.samples_passed == 3
        assert m.test_pass_ratio == 0.7583
        assert (m.dsr, m.dsr_lenient) == (0.8333, 1.0)
        assert (m.api_coverage, m.api_coverage_lenient) == (1.0, 0.925)
        assert m.failing_tests == 12  # quote 1 + todo 3 + unit 8
        assert (m.suites_not_run, m.suites_incomplete) == (1, 1)  # quote-board: 5 of 8
        assert m.has_test_cases
        report = json.loads((run.source.path.parent / "report.json").read_text())
        assert repogenesis_summary(list(run.samples)) == report["summary"]

    def test_relay(self, bundled):
        """Relay: no sample passes all its tests (inventory 7/10, notes 5/10, quote 0/5,
        todo 0/12, unit 0/8, url 0/8) -> Pass@1 0.0; ratio (0.7 + 0.5) / 6 = 0.2;
        deployed: inventory, notes, unit = 3/6."""
        run = bundled[RELAY]
        m = compute_run_metrics(run)
        assert (m.pass_at_1, m.test_pass_ratio, m.dsr) == (0.0, 0.2, 0.5)
        assert m.failing_tests == 41  # 3 + 5 + 5 + 12 + 8 + 8
        report = json.loads((run.source.path.parent / "report.json").read_text())
        assert repogenesis_summary(list(run.samples)) == report["summary"]
