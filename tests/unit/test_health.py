"""Benchmark-health analysis: hand-built records, normalisation, the bundled runs, properties."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.model import (
    Deployment,
    Outcome,
    SampleResult,
    TestCase,
    TestSummary,
    discover_runs,
)
from inspector.paths import sample_runs
from inspector.services.figures.health import (
    HealthFinding,
    HealthReport,
    SuiteRecord,
    TestRecord,
    analyse_health,
    normalise_message,
    records_from_runs,
    records_from_samples,
    split_collection_message,
    suspected_cause,
)

Bundled = tuple[list[SuiteRecord], list[TestRecord], dict[str, str]]
T1 = "tests/test_a.py::test_one"
T2 = "tests/test_a.py::test_two"


def suite(run: str, n: int = 0, *, task: str = "svc", deployed: bool = True, total: int = 10,
          expected: int | None = 10, collection: tuple[str, ...] = ()) -> SuiteRecord:
    status = "not_run" if total == 0 else "incomplete" if collection else "ran"
    return SuiteRecord(task, run, f"{run}/{task}/{n}", deployed, status, total, expected,
                       len(collection), collection)


def rec(run: str, test: str, outcome: str, message: str = "", *, n: int = 0,
        task: str = "svc") -> TestRecord:
    return TestRecord(task, run, f"{run}/{task}/{n}", test, outcome, message)


def only(report: HealthReport, kind: str) -> HealthFinding:
    found = report.by_kind(kind)
    assert len(found) == 1, report.findings
    return found[0]


# --------------------------------------------------------------------------- never_passes


def test_never_passes_across_runs_groups_volatile_messages() -> None:
    suites = [suite("r1"), suite("r2"), suite("r3")]
    tests = [
        rec("r1", T1, "failed", "TypeError: <Foo object at 0x7f3a9c2b1d60> in /tmp/abc123/x.py"),
        rec("r2", T1, "error", "TypeError: <Foo object at 0x7ffe00112233> in /tmp/zz9/x.py"),
        rec("r3", T1, "failed", "AssertionError: assert 500 == 200"),
        rec("r1", T2, "passed"), rec("r2", T2, "failed", "boom"),
    ]
    report = analyse_health(suites, tests)
    f = only(report, "never_passes")
    assert (f.task, f.test_id, f.samples, f.runs) == ("svc", T1, 3, 3)
    # the display message is the first example's, un-normalised
    assert f.common_error == "TypeError: <Foo object at 0x7f3a9c2b1d60> in /tmp/abc123/x.py"
    assert f.share == pytest.approx(2 / 3, abs=1e-3)
    assert f.examples == ("r1/svc/0", "r2/svc/0", "r3/svc/0")
    assert "No deployed sample passes" in f.detail and "3 runs" in f.detail
    assert report.suspect_tests() == {("svc", T1)}
    assert report.suspect_tasks() == {"svc"}


def test_never_passes_needs_min_samples() -> None:
    suites = [suite("r1")]
    tests = [rec("r1", T1, "failed", "x")]
    assert analyse_health(suites, tests).findings == ()
    assert only(analyse_health(suites, tests, min_samples=1), "never_passes").samples == 1


def test_undeployed_samples_are_not_evidence() -> None:
    suites = [suite("r1"), suite("r2", deployed=False), suite("r3", deployed=False)]
    tests = [rec(r, T1, "failed", "ConnectionError") for r in ("r1", "r2", "r3")]
    assert analyse_health(suites, tests).findings == ()
    f = only(analyse_health(suites, tests, min_samples=1), "never_passes")
    assert f.samples == 1 and f.examples == ("r1/svc/0",)


def test_a_pass_anywhere_clears_the_test_even_after_failures() -> None:
    suites = [suite("r1"), suite("r2"), suite("r3")]
    tests = [rec("r1", T1, "failed", "x"), rec("r2", T1, "failed", "x"),
             rec("r3", T1, "passed")]
    assert analyse_health(suites, tests).by_kind("never_passes") == []


def test_a_pass_in_an_undeployed_sample_does_not_count() -> None:
    suites = [suite("r1"), suite("r2"), suite("r3", deployed=False)]
    tests = [rec("r1", T1, "failed", "x"), rec("r2", T1, "failed", "x"),
             rec("r3", T1, "passed")]
    assert only(analyse_health(suites, tests), "never_passes").samples == 2


def test_skipped_is_not_running_the_test() -> None:
    suites = [suite("r1"), suite("r2"), suite("r3")]
    tests = [rec("r1", T1, "failed", "x"), rec("r2", T1, "skipped"), rec("r3", T1, "skipped")]
    assert analyse_health(suites, tests).findings == ()
    tests.append(rec("r2", T2, "skipped"))
    assert analyse_health(suites, tests, min_samples=1).suspect_tests() == {("svc", T1)}


def test_tests_without_a_suite_record_are_ignored_and_counted() -> None:
    report = analyse_health([suite("r1")], [rec("r1", T1, "failed", "x"),
                                            rec("ghost", T1, "failed", "x")], min_samples=1)
    assert report.unmatched_tests == 1
    assert only(report, "never_passes").examples == ("r1/svc/0",)


def test_never_passes_flags_a_broken_service_as_weak_evidence() -> None:
    suites = [suite("r1"), suite("r2")]
    tests = [rec("r1", T1, "failed", "assert 500 == 200"), rec("r1", T2, "failed", "y"),
             rec("r2", T1, "failed", "assert 500 == 200"), rec("r2", T2, "passed")]
    f = only(analyse_health(suites, tests), "never_passes")
    assert "always with the same error" in f.detail
    assert "In 1 of these samples no test passed at all" in f.detail


def test_never_passes_suspects_a_missing_test_requirement() -> None:
    suites = [suite("r1"), suite("r2")]
    msg = "ModuleNotFoundError: No module named 'pytest_asyncio'"
    tests = [rec("r1", T1, "error", msg), rec("r2", T1, "error", msg)]
    f = only(analyse_health(suites, tests), "never_passes")
    assert f.suspected_cause == "missing test dependency"
    assert "missing test dependency" in f.detail and "'pytest_asyncio'" in f.detail


def test_streaming_inputs_are_consumed_once() -> None:
    def gen_suites() -> Iterator[SuiteRecord]:
        yield from (suite("r1"), suite("r2"))

    def gen_tests() -> Iterator[TestRecord]:
        yield from (rec("r1", T1, "failed", "x"), rec("r2", T1, "failed", "x"))

    report = analyse_health(gen_suites(), gen_tests())
    assert report.samples == 2 and report.deployed_samples == 2 and report.test_records == 2
    assert len(report.findings) == 1


# ------------------------------------------------------------------------- suite findings

APP_MODELS = "tests/test_model.py: ModuleNotFoundError: No module named 'app.models'"


def test_collection_error_repeated_across_runs() -> None:
    suites = [suite("r1", total=6, collection=(APP_MODELS,)),
              suite("r2", total=6, collection=(APP_MODELS.replace("'app.models'",
                                                                  "'app.models'"),)),
              suite("r3", total=6, deployed=False,
                    collection=("tests/test_model.py: ModuleNotFoundError: No module named "
                                "'flask'",))]
    report = analyse_health(suites, [], readmes={"svc": "# Svc\nGET /health\n"})
    f = only(report, "collection_error")
    assert f.test_id == "tests/test_model.py"
    assert (f.samples, f.runs, f.share) == (2, 2, 1.0)
    assert f.common_error == "ModuleNotFoundError: No module named 'app.models'"
    assert f.suspected_cause == "undocumented internal module"
    assert "README does not document" in f.detail
    assert "r3/svc/0" not in f.examples
    assert ("svc", "tests/test_model.py") in report.suspect_tests()


def test_collection_error_once_is_below_threshold() -> None:
    report = analyse_health([suite("r1", total=6, collection=(APP_MODELS,))], [])
    assert report.by_kind("collection_error") == []
    assert only(analyse_health([suite("r1", total=6, collection=(APP_MODELS,))], [],
                               min_samples=1), "collection_error").samples == 1


def test_documented_module_is_not_suspected() -> None:
    readme = "Put the model in `app/models.py` (class `Quote`)."
    suites = [suite("r1", total=6, collection=(APP_MODELS,)),
              suite("r2", total=6, collection=(APP_MODELS,))]
    f = only(analyse_health(suites, [], readmes={"svc": readme}), "collection_error")
    assert f.suspected_cause == "" and "Suspected" not in f.detail


def test_collection_errors_without_messages_group_per_task() -> None:
    bare = [SuiteRecord("svc", r, f"{r}/svc/0", True, "incomplete", 6, 10, 1, ())
            for r in ("r1", "r2")]
    f = only(analyse_health(bare, []), "collection_error")
    assert f.test_id is None and f.common_error == "" and "no message recorded" in f.detail


def test_zero_collected_only_for_deployed_samples() -> None:
    suites = [suite("r1", total=0), suite("r2", total=0, deployed=False)]
    report = analyse_health(suites, [])
    f = only(report, "zero_collected")
    assert f.samples == 1 and f.examples == ("r1/svc/0",) and f.test_id is None
    assert report.by_kind("fewer_than_expected") == []  # zero is not also "fewer"


def test_fewer_than_expected_uses_incomplete_ratio() -> None:
    suites = [suite("r1", total=5, expected=8), suite("r2", total=6, expected=8),
              suite("r3", total=1, expected=8, deployed=False), suite("r4", total=3,
                                                                        expected=None)]
    f = only(analyse_health(suites, []), "fewer_than_expected")
    assert f.samples == 1 and f.examples == ("r1/svc/0",)
    assert "75%" in f.detail and "8 tests" in f.detail


def test_fewer_than_expected_mentions_collection_errors() -> None:
    f = only(analyse_health([suite("r1", total=5, expected=8, collection=(APP_MODELS,))], []),
             "fewer_than_expected")
    assert f.common_error == "ModuleNotFoundError: No module named 'app.models'"
    assert "collection errors" in f.detail


def test_findings_sorted_by_severity_and_grouped_by_task() -> None:
    suites = [suite("r1", task="a", total=9, collection=(APP_MODELS,)),
              suite("r2", task="a", total=9, collection=(APP_MODELS,)),
              suite("r1", task="b", total=0),
              suite("r1", task="c", total=2, expected=10),
              *(suite(r, task="d") for r in ("r1", "r2", "r3"))]
    tests = [rec(r, T1, "failed", "x", task="d") for r in ("r1", "r2")]
    tests += [rec(r, T2, "failed", "y", task="d") for r in ("r1", "r2", "r3")]
    report = analyse_health(suites, tests)
    assert [(f.kind, f.task, f.test_id) for f in report.findings] == [
        ("collection_error", "a", "tests/test_model.py"),
        ("zero_collected", "b", None),
        ("never_passes", "d", T2),
        ("never_passes", "d", T1),
        ("fewer_than_expected", "c", None),
    ]
    assert list(report.by_task()) == ["a", "b", "d", "c"]
    assert [f.test_id for f in report.by_task()["d"]] == [T2, T1]
    assert report.suspect_tasks() == {"a", "b", "c", "d"}
    assert report.suspect_tests() == {("a", "tests/test_model.py"), ("d", T1), ("d", T2)}


# ------------------------------------------------------------------ normalisation, causes


@pytest.mark.parametrize(("a", "b"), [
    ("<Obj at 0x7f3a9c2b1d60>", "<Obj at 0x10ab22>"),
    ("File /tmp/tmpa1b2c3/app/main.py failed", "File /tmp/pytest-of-u/pytest-7/x/main.py failed"),
    ('File "main.py", line 12, in f', 'File "main.py", line 345, in f'),
    ("at app/main.py:12", "at app/main.py:99"),
    ("HTTPConnectionPool(host='127.0.0.1', port=18083)",
     "HTTPConnectionPool(host='127.0.0.1', port=18099)"),
    ("note 123e4567-e89b-12d3-a456-426614174000 missing",
     "note 9f0e1d2c-0000-4000-8000-aaaaaaaaaaaa missing"),
    ("KeyError: '12'", "KeyError: '7'"),
    ("id 1234567890 not found", "id 9876543210 not found"),
    ("timed out after 0.4s", "timed out after 12.75s"),
    ("at 2024-05-01T12:00:00.123+00:00", "at 2025-01-09T01:02:03Z"),
    ("  spaced   out ", "spaced out"),
])
def test_normalise_groups_volatile_variants(a: str, b: str) -> None:
    assert normalise_message(a) == normalise_message(b)


@pytest.mark.parametrize(("a", "b"), [
    ("assert 500 == 200", "assert 404 == 200"),
    ("No module named 'app.models'", "No module named 'flask'"),
    ("KeyError: 'completed'", "KeyError: 'done'"),
])
def test_normalise_keeps_meaningful_differences(a: str, b: str) -> None:
    assert normalise_message(a) != normalise_message(b)


@pytest.mark.parametrize(("message", "readme", "label"), [
    ("ModuleNotFoundError: No module named 'requests'", None, "missing test dependency"),
    ("ModuleNotFoundError: No module named 'pytest_asyncio.plugin'", "",
     "missing test dependency"),
    ("ModuleNotFoundError: No module named 'app.models'", None, "undocumented internal module"),
    ("ModuleNotFoundError: No module named 'app.models'", "see app/models.py", ""),
    ("ImportError: cannot import name 'Quote' from 'app'", "GET /quotes",
     "undocumented internal module"),
    ("ImportError: cannot import name 'Quote' from 'app'", "the `Quote` class", ""),
    ("fixture 'client' not found", None, "missing fixture"),
    ("assert 500 == 200", None, ""),
])
def test_suspected_cause(message: str, readme: str | None, label: str) -> None:
    got, why = suspected_cause(message, readme)
    assert got == label
    assert bool(why) == bool(label)


def test_split_collection_message() -> None:
    assert split_collection_message(APP_MODELS) == (
        "tests/test_model.py", "ModuleNotFoundError: No module named 'app.models'")
    assert split_collection_message("ImportError: x") == ("", "ImportError: x")


# ------------------------------------------------------------------------------ adapters


def test_records_from_samples_moves_collection_failures_to_the_suite() -> None:
    cases = (
        TestCase("tests/test_model.py", Outcome.ERROR, message="collection failure",
                 traceback="E   ModuleNotFoundError: No module named 'app.models'",
                 file="tests/test_model.py"),
        TestCase("tests/test_api.py::test_ok", Outcome.PASSED),
        TestCase("tests/test_api.py::test_bad", Outcome.FAILED, message="assert 1 == 2\nmore"),
    )
    sample = SampleResult("run", "svc", 0, "python", Deployment(True),
                          TestSummary(passed=1, failed=1, errors=1, expected=8, cases=cases,
                                      has_cases=True, collection_errors=1))
    suites, tests = records_from_samples([sample])
    assert suites == [SuiteRecord("svc", "run", "run/svc/0", True, "incomplete", 3, 8, 1,
                                  (APP_MODELS,))]
    assert tests == [
        TestRecord("svc", "run", "run/svc/0", "tests/test_api.py::test_ok", "passed", ""),
        TestRecord("svc", "run", "run/svc/0", "tests/test_api.py::test_bad", "failed",
                   "assert 1 == 2"),
    ]


# ------------------------------------------------------------------------ bundled data


@pytest.fixture(scope="module")
def bundled() -> Bundled:
    found = discover_runs(sample_runs())
    assert found.runs and found.tasks
    suites, tests = records_from_runs(found.runs)
    return suites, tests, {name: t.readme for name, t in found.tasks.items()}


def test_bundled_stock_copies_are_not_double_counted(bundled: Bundled) -> None:
    suites, _, _ = bundled
    # one suite per sample of our six runs: forge and relay 6 tasks each, atlas, dash and the
    # real-task relay 8 each, dash's Java run 3; the stock reports of four of them are dropped
    assert len(suites) == 6 + 6 + 8 + 8 + 8 + 3
    assert not any("@" in s.run_id for s in suites)
    assert len({s.sample_id for s in suites}) == len(suites)


def test_bundled_quote_board_defect_is_a_collection_error(bundled: Bundled) -> None:
    suites, tests, readmes = bundled
    report = analyse_health(suites, tests, min_samples=1, readmes=readmes)
    f = next(f for f in report.by_kind("collection_error") if f.task == "quote-board")
    assert f.test_id == "tests/test_quote_model.py"
    assert f.common_error == "ModuleNotFoundError: No module named 'app.models'"
    assert f.suspected_cause == "undocumented internal module"
    assert f.examples == ("repo_readme_1118_forge_m1-large_Python/quote-board/0",)
    # the relay sample fails to collect too ('flask'), but it never deployed: not evidence
    deployed = {s.sample_id for s in suites if s.deployed}
    for finding in report.findings:
        assert set(finding.examples) <= deployed
    assert ("quote-board", "tests/test_quote_model.py") in report.suspect_tests()


def test_bundled_agent_failures_are_not_blamed_on_the_benchmark(bundled: Bundled) -> None:
    suites, tests, readmes = bundled
    relay_fails = {t.test_id for t in tests if t.task == "notes-api" and "relay" in t.run_id
                   and t.outcome == "failed"}
    assert "tests/test_notes.py::test_get_note_by_id" in relay_fails
    for min_samples in (1, 2):
        report = analyse_health(suites, tests, min_samples=min_samples, readmes=readmes)
        flagged = {f.test_id for f in report.by_kind("never_passes")}
        assert not relay_fails & flagged
        assert "notes-api" not in report.suspect_tasks()
        assert "inventory-api" not in report.suspect_tasks()


def test_bundled_default_threshold(bundled: Bundled) -> None:
    suites, tests, readmes = bundled
    report = analyse_health(suites, tests, readmes=readmes)
    # a test is flagged when at least two deployed samples fail it and none passes it; each
    # synthetic task has at most one deployed sample failing anything, so only real tasks,
    # run by three agents, have such tests (hand count from the result.json files)
    um = "tests/test_user_api.py::TestUserAPI::"
    edge = "tests/test_edge_cases.py::TestEdgeCases::"
    contract = "tests/test_api_contract.py::"
    assert {(f.task, f.test_id, f.samples) for f in report.by_kind("never_passes")} == {
        ("StructuredDataConvertor",
         "tests/test_health.py::TestHealthEndpoint::test_health_endpoint_headers", 3),
        ("StructuredDataConvertor",
         "tests/test_convert.py::TestConvertEndpoint::test_large_file_conversion", 2),
        ("StructuredDataConvertor", "tests/test_convert_batch.py::TestConvertBatchEndpoint::"
         "test_batch_conversion_with_failures", 2),
        ("StructuredDataConvertor", "tests/test_integration.py::TestIntegration::"
         "test_performance_under_realistic_load", 2),
        ("UserManagement_2", edge + "test_update_user_info_duplicate_email", 3),
        ("UserManagement_2", edge + "test_update_user_info_empty_body", 3),
        ("UserManagement_2", um + "test_delete_user_success", 3),
        ("UserManagement_2", um + "test_get_user_info_success", 3),
        ("UserManagement_2", um + "test_user_registration_duplicate_username", 3),
        ("UserManagement_2", um + "test_user_registration_success", 3),
        ("synapse", contract + "test_auth_flow_contract_shapes_defined", 3),
        ("synapse", contract + "test_healthcheck_contract_or_skip_if_unavailable", 3),
        ("synapse", contract + "test_json_schemas_are_valid_json", 3),
        ("synapse", contract + "test_message_contract_schemas_present", 3),
        ("synapse", contract + "test_readme_present_and_sections", 3),
    }
    # the suite facts: WebPan skipped every test for dash and relay (an undocumented health
    # gate); forge's quote-board and atlas's StructuredDataConvertor lost test files to
    # collection errors
    (webpan,) = report.by_kind("zero_collected")
    assert (webpan.task, webpan.samples) == ("WebPan", 2)
    fewer = {f.task: f for f in report.by_kind("fewer_than_expected")}
    assert set(fewer) == {"quote-board", "StructuredDataConvertor"}
    assert "No module named 'app.models'" in fewer["quote-board"].common_error
    assert "No module named 'pandas'" in fewer["StructuredDataConvertor"].common_error


# ---------------------------------------------------------------------------- properties

_RUNS = ("r1", "r2", "r3")
_TESTS = ("t::a", "t::b", "t::c")
_sample = st.tuples(st.sampled_from(_RUNS), st.integers(0, 2), st.booleans(),
                    st.lists(st.tuples(st.sampled_from(_TESTS),
                                       st.sampled_from(["passed", "failed", "error",
                                                        "skipped"]),
                                       st.sampled_from(["x", "y at 0x1f", "y at 0x2e"])),
                             max_size=4))


def _build(samples: list) -> tuple[list[SuiteRecord], list[TestRecord]]:
    suites: dict[str, SuiteRecord] = {}
    tests: list[TestRecord] = []
    for run, n, deployed, cases in samples:
        s = suite(run, n, deployed=deployed, total=len(cases))
        if s.sample_id in suites:
            continue
        suites[s.sample_id] = s
        unique = {t: (o, m) for t, o, m in cases}  # one result per test and sample
        tests += [rec(run, t, o, m, n=n) for t, (o, m) in unique.items()]
    return list(suites.values()), tests


@settings(max_examples=150, deadline=None)
@given(st.lists(_sample, max_size=8), st.integers(1, 3))
def test_property_findings_never_cite_undeployed_samples(samples: list, min_samples: int) -> None:
    suites, tests = _build(samples)
    report = analyse_health(suites, tests, min_samples=min_samples)
    deployed = {s.sample_id for s in suites if s.deployed}
    for f in report.findings:
        assert set(f.examples) <= deployed
        assert f.samples >= 1
        assert 0 < f.share <= 1 or f.common_error == ""
    for f in report.by_kind("never_passes"):
        assert f.samples >= min_samples
        assert not any(t.outcome == "passed" and t.test_id == f.test_id and
                       t.sample_id in deployed for t in tests)


@settings(max_examples=150, deadline=None)
@given(st.lists(_sample, max_size=8), st.sampled_from(_TESTS))
def test_property_a_passing_deployed_sample_clears_never_passes(samples: list,
                                                                test_id: str) -> None:
    suites, tests = _build(samples)
    extra = suite("extra", deployed=True, total=1)
    fixed = analyse_health([*suites, extra], [*tests, rec("extra", test_id, "passed")],
                           min_samples=1)
    assert ("svc", test_id) not in {(f.task, f.test_id) for f in fixed.by_kind("never_passes")}
    before = {f.test_id for f in analyse_health(suites, tests, min_samples=1)
              .by_kind("never_passes")}
    after = {f.test_id for f in fixed.by_kind("never_passes")}
    assert after == before - {test_id}


@settings(max_examples=100, deadline=None)
@given(st.lists(_sample, max_size=8), st.randoms(use_true_random=False))
def test_property_order_of_records_does_not_change_what_is_found(samples: list,
                                                                 rnd: random.Random) -> None:
    suites, tests = _build(samples)
    shuffled = list(tests)
    rnd.shuffle(shuffled)

    def key(r: HealthReport) -> set:
        return {(f.kind, f.task, f.test_id, f.samples, f.runs) for f in r.findings}

    assert key(analyse_health(suites, tests, min_samples=1)) == \
        key(analyse_health(list(reversed(suites)), shuffled, min_samples=1))


def test_a_suite_whose_every_test_was_skipped_is_called_so() -> None:
    """WebPan's gating fixture skips all 22 tests: not 'crashed or collected nothing'."""
    suites = [SuiteRecord("gated", r, f"{r}/gated/0", True, "not_run", 0, 22, 0, (), 22)
              for r in ("a", "b")]
    report = analyse_health(suites, [], min_samples=1)
    [finding] = [f for f in report.findings if f.kind == "zero_collected"]
    assert "every collected test was skipped" in finding.detail
    assert "crashed" not in finding.detail
    crashed = [SuiteRecord("gated", "c", "c/gated/0", True, "not_run", 0, 22, 0, ())]
    [mixed] = [f for f in analyse_health(suites + crashed, [], min_samples=1).findings
               if f.kind == "zero_collected"]
    assert "every test was skipped in 2 of them" in mixed.detail
