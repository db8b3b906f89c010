"""Loader 1: RepoGenesis harness outputs (report.json / report_<stamp>.json, intermediate/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.model import LoadError, Phase, SuiteStatus, Task, discover_runs
from inspector.model.runs.repogenesis import (
    COUNTS_ONLY_NOTE,
    is_repogenesis_dir,
    load_intermediate,
    load_output_dir,
    load_report,
    parse_result,
)
from inspector.services.figures.metrics import compute_run_metrics, repogenesis_summary

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "repogenesis"
SUMMARY_RULES = FIXTURES / "summary_rules" / "report.json"
MALFORMED = FIXTURES / "malformed" / "report.json"
STAMPED = FIXTURES / "stamped"
STAMP = "2026-02-26_15-39-29"
DEEPCODE = FIXTURES / "repo_readme_1212_deepcode_gpt-5-mini_Java"


def result(name: str, **overrides: object) -> dict:
    """A well-formed per-repo result as the stock harness writes it."""
    base: dict = {
        "repo_name": name, "lang": "python", "port": 8080, "framework": "fastapi",
        "exit_code": 0, "dsr": {"success": True, "message": "Service started successfully"},
        "pass_at_1": {"passed": 3, "failed": 1, "errors": 0, "skipped": 0, "total": 4,
                      "score": 0.75},
        "api_coverage": {"total_apis": 4, "implemented_apis": 4, "score": 1.0},
        "elapsed_seconds": 12.5,
    }
    base.update(overrides)
    return {k: v for k, v in base.items() if v is not ...}


def write_report(folder: Path, results: list, name: str = "report.json",
                 metadata: dict | None = None, with_metadata: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    doc: dict = {"results": results}
    if with_metadata:
        doc["metadata"] = metadata or {"harness_version": "1.0.0"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def by_task(run) -> dict:
    return {s.task: s for s in run.samples}


# ----------------------------------------------------------------------------- summary rules

class TestSummaryRules:
    """The stock summary is reproduced exactly from the per-repo results.

    Fixture ``summary_rules/report.json`` (6 repos), by hand:

    ============  ======  =====  ======  ======  ============  =====
    repo          lang    pass   total   score   AC            DSR
    ============  ======  =====  ======  ======  ============  =====
    alpha         python  3      4       0.75    4/4 = 1.0     yes
    beta          python  0      0       0.0     0/0 (skip)    no
    gamma         python  5      5       1.0     (absent)      yes
    delta         python  2      5       0.4     3/4 = 0.75    no
    epsilon       java    7      10      0.7     2/3 = 0.6667  yes
    zeta          python  6      6       1.0     5/6 = 0.8333  yes
    ============  ======  =====  ======  ======  ============  =====

    * avg_pass_at_1 over total > 0 (beta excluded): (0.75+1+0.4+0.7+1)/5 = 3.85/5 = 0.77
    * avg_api_coverage over total_apis > 0 (beta: 0 APIs, gamma: no AC block):
      (1+0.75+0.6667+0.8333)/4 = 3.25/4 = 0.8125
    * DSR over all 6 repos: alpha, gamma, epsilon, zeta = 4/6 = 0.6667
    * strict Pass@1 (passed == total > 0): gamma, zeta = 2/6 = 0.3333
      (epsilon is Java: 7 passed of 10 run, 2 skipped, so not all passed)
    * python only: pass (0.75+1+0.4+1)/4 = 0.7875; AC (1+0.75+0.8333)/3 = 0.8611; DSR 3/5 = 0.6
    * java only: pass 0.7; AC 0.6667; DSR 1/1 = 1.0
    """

    @pytest.fixture(scope="class")
    def loaded(self):
        run, issues = load_report(SUMMARY_RULES)
        summary = json.loads(SUMMARY_RULES.read_text(encoding="utf-8"))["summary"]
        return run, issues, summary

    def test_loads_without_issues(self, loaded):
        run, issues, _ = loaded
        assert issues == []
        assert [s.task for s in run.samples] == ["alpha", "beta", "gamma", "delta", "epsilon",
                                                 "zeta"]

    def test_metrics_equal_report_summary(self, loaded):
        run, _, summary = loaded
        m = compute_run_metrics(run)
        assert m.test_pass_ratio == summary["avg_pass_at_1"] == 0.77
        assert m.api_coverage == summary["avg_api_coverage"] == 0.8125
        assert m.dsr == summary["deployment_success_rate"] == 0.6667

    def test_strict_pass_at_1(self, loaded):
        run, _, _ = loaded
        m = compute_run_metrics(run)
        assert m.pass_at_1 == 0.3333
        assert m.samples_passed == 2
        assert m.deployed == 4
        assert m.tasks == m.samples == 6
        assert m.pass_at_k == {}  # one sample per task: nothing beyond k=1
        assert [s.task for s in run.samples if s.passed] == ["gamma", "zeta"]

    def test_counts_only_format(self, loaded):
        run, _, _ = loaded
        m = compute_run_metrics(run)
        assert m.format == "repogenesis"
        assert m.has_test_cases is False
        assert m.failing_tests == 0
        assert m.suites_not_run == 1  # beta collected no test
        assert m.api_coverage_lenient is None
        assert any(d.startswith("Pass@1 33.33%") for d in m.differences)

    def test_repogenesis_summary_reproduces_the_whole_block(self, loaded):
        run, _, summary = loaded
        assert repogenesis_summary(list(run.samples)) == summary

    def test_excluded_repos(self, loaded):
        run, _, _ = loaded
        s = by_task(run)
        assert s["beta"].tests.total == 0
        assert s["beta"].tests.status is SuiteStatus.NOT_RUN
        assert s["beta"].api_coverage is not None and s["beta"].api_coverage.total_apis == 0
        assert s["gamma"].api_coverage is None

    def test_identity(self, loaded):
        run, _, _ = loaded
        # predictions folder name + the output folder (the report has no stamp)
        assert run.id == "repo_readme_1204_msagent_gpt-5-mini_Python@summary_rules"
        assert run.agent == "MS-Agent"  # metadata.agent_name
        assert run.model == "gpt-5-mini"  # no metadata.model_name: from the predictions name
        assert run.language == "python"
        assert run.date == "2026-02-26T15:39:29.827397"
        assert run.source.format == "repogenesis"
        assert run.source.path == SUMMARY_RULES
        assert run.source.predictions_dir == \
            "exps/repos/repo_readme_1204_msagent_gpt-5-mini_Python"
        assert run.source.harness == "RepoGenesis harness 1.0.0"
        assert run.notes == (COUNTS_ONLY_NOTE,)

    def test_per_repo_fields(self, loaded):
        run, _, _ = loaded
        s = by_task(run)
        alpha = s["alpha"]
        assert alpha.sample_id == f"{run.id}/alpha/0"
        assert (alpha.port, alpha.framework, alpha.exit_code) == (8080, "fastapi", 0)
        assert alpha.elapsed_seconds == 46.72
        assert (alpha.tests.passed, alpha.tests.failed, alpha.tests.total) == (3, 1, 4)
        assert alpha.tests.score == 0.75
        assert alpha.tests.has_cases is False and alpha.tests.cases == ()
        assert alpha.deployment.success is True
        assert alpha.deployment.lenient_success is True
        assert alpha.deployment.message == "Service started successfully"
        assert alpha.deployment.failed_phase is Phase.TESTS  # 1 failed test
        assert alpha.source_file == SUMMARY_RULES
        assert alpha.repo_path is None  # predictions folder not on disk
        assert alpha.notes == (COUNTS_ONLY_NOTE,)
        delta = s["delta"]
        assert delta.exit_code == -3
        assert delta.deployment.failed_phase is Phase.INSTALL
        assert delta.build_error is not None and delta.build_error.startswith("Build failed")
        assert "exit code -3: image build failed" in delta.notes
        epsilon = s["epsilon"]
        assert epsilon.language == "java"
        assert (epsilon.tests.passed, epsilon.tests.skipped, epsilon.tests.total) == (7, 2, 10)
        assert epsilon.tests.score == 0.7
        assert s["gamma"].deployment.failed_phase is None
        assert s["beta"].deployment.failed_phase is Phase.START

    def test_tasks_attach_expected_counts(self):
        tasks = {
            "gamma": Task("gamma", "python", "any", 8082, "", expected_tests=20),
            "other": Task("other", "python", "any", 1, ""),
        }
        run, _ = load_report(SUMMARY_RULES, tasks)
        gamma = by_task(run)["gamma"]
        assert gamma.tests.expected == 20
        assert gamma.tests.status is SuiteStatus.INCOMPLETE  # 5 < 0.75 * 20
        assert set(run.tasks) == {"gamma"}  # only tasks that the report covers


# ----------------------------------------------------------------------------- layouts

class TestLayouts:
    def test_stamped_report_and_crashed_intermediate_run(self):
        runs, issues = load_output_dir(STAMPED)
        assert issues == []
        assert [r.id for r in runs] == [
            f"repo_readme_0219_codex_gpt5.3_Python@{STAMP}",
            "stamped@2026-02-27_09-00-00",
        ]
        report, crashed = runs
        assert report.source.path == STAMPED / f"report_{STAMP}.json"
        assert report.agent == "Codex CLI" and report.model == "gpt-5.3-codex"
        assert [s.task for s in report.samples] == ["Blog", "Chatroom"]
        # the intermediate folder of the same stamp is covered by the report: not loaded twice
        assert crashed.source.path == STAMPED / "intermediate" / "2026-02-27_09-00-00"
        assert crashed.date == "2026-02-27_09-00-00"
        assert [s.task for s in crashed.samples] == ["Blog"]
        blog = crashed.samples[0]
        assert blog.exit_code == -99 and blog.error == "KeyError: 'Blog'"
        assert "exit code -99: harness exception" in blog.notes
        assert "loaded from intermediate results: no report was written" in crashed.notes

    def test_timeout_exit_code(self):
        run, _ = load_report(STAMPED / f"report_{STAMP}.json")
        chat = by_task(run)["Chatroom"]
        assert chat.exit_code == -1
        assert "exit code -1: container timed out" in chat.notes
        assert chat.deployment.failed_phase is Phase.START

    def test_flat_intermediate_without_report(self):
        runs, issues = load_output_dir(DEEPCODE)
        assert issues == []
        assert len(runs) == 1
        run = runs[0]
        assert run.id == "repo_readme_1212_deepcode_gpt-5-mini_Java"
        assert (run.agent, run.model, run.language) == ("DeepCode", "gpt-5-mini", "java")
        assert run.date == "1212"
        assert [s.task for s in run.samples] == ["javalin-task-manager", "spark-dashboard"]
        spark = run.samples[1]
        assert spark.source_file == DEEPCODE / "intermediate" / "spark-dashboard.json"
        assert spark.deployment.failed_phase is Phase.INSTALL
        m = compute_run_metrics(run)
        # test ratio over repos with tests: javalin 1.0 only; AC (1.0 + 0.5)/2; DSR 1/2
        assert (m.test_pass_ratio, m.api_coverage, m.dsr, m.pass_at_1) == (1.0, 0.75, 0.5, 0.5)

    def test_load_intermediate_directly(self):
        run, issues = load_intermediate(STAMPED / "intermediate" / STAMP, run_id="custom")
        assert issues == []
        assert run.id == "custom"
        assert run.date == STAMP
        assert [s.task for s in run.samples] == ["Blog", "Chatroom"]
        assert all(s.run_id == "custom" for s in run.samples)

    def test_flat_intermediate_is_covered_by_report_json(self, tmp_path):
        out = tmp_path / "out"
        write_report(out, [result("a"), result("b")])
        (out / "intermediate").mkdir()
        for name in ("a", "b"):
            (out / "intermediate" / f"{name}.json").write_text(json.dumps(result(name)))
        runs, issues = load_output_dir(out)
        assert issues == []
        assert [r.id for r in runs] == ["out"]

    def test_flat_intermediate_next_to_stamped_report_is_its_own_run(self, tmp_path):
        out = tmp_path / "out"
        write_report(out, [result("a")], name="report_2026-01-01_00-00-00.json")
        (out / "intermediate").mkdir()
        (out / "intermediate" / "b.json").write_text(json.dumps(result("b")))
        runs, _ = load_output_dir(out)
        assert sorted(r.id for r in runs) == ["out", "out@2026-01-01_00-00-00"]

    def test_two_reports_in_one_folder(self, tmp_path):
        out = tmp_path / "out"
        write_report(out, [result("a")], name="report_2026-01-01_00-00-00.json")
        write_report(out, [result("a", dsr={"success": False, "message": "x"})],
                     name="report_2026-01-02_00-00-00.json")
        runs, _ = load_output_dir(out)
        assert [r.id for r in runs] == ["out@2026-01-01_00-00-00", "out@2026-01-02_00-00-00"]
        assert [compute_run_metrics(r).dsr for r in runs] == [1.0, 0.0]

    def test_other_json_files_are_not_reports(self, tmp_path):
        out = tmp_path / "out"
        write_report(out, [result("a")])
        (out / "report_latest.json").write_text("{not json")
        (out / "config.json").write_text("{}")
        runs, issues = load_output_dir(out)
        assert len(runs) == 1 and issues == []

    def test_predictions_dir_resolved_relative_to_the_output(self, tmp_path):
        preds = tmp_path / "exps" / "repos" / "repo_readme_1204_metagpt_gpt-5.1_Python"
        (preds / "a").mkdir(parents=True)
        out = tmp_path / "eval_results"
        path = write_report(out, [result("a"), result("b")], metadata={
            "predictions_dir": "exps/repos/repo_readme_1204_metagpt_gpt-5.1_Python"})
        run, _ = load_report(path)
        s = by_task(run)
        assert s["a"].repo_path == preds / "a"
        assert s["b"].repo_path is None  # not generated
        assert (run.agent, run.model) == ("MetaGPT", "gpt-5.1")
        assert run.date == "1204"  # no timestamp: the predictions date token

    def test_is_repogenesis_dir(self, tmp_path):
        assert is_repogenesis_dir(STAMPED)
        assert is_repogenesis_dir(DEEPCODE)
        assert not is_repogenesis_dir(STAMPED / f"report_{STAMP}.json")
        assert not is_repogenesis_dir(tmp_path)
        ours = tmp_path / "ours"
        write_report(ours, [])
        assert is_repogenesis_dir(ours)
        (ours / "run.json").write_text("{}")
        assert not is_repogenesis_dir(ours)  # our run folders also hold a report.json


# ----------------------------------------------------------------------------- parse_result

class TestParseResult:
    def parse(self, obj, issues=None, tasks=None):
        issues = [] if issues is None else issues
        return parse_result(obj, Path("r.json"), "results[0]", "run", "python", issues, tasks)

    @pytest.mark.parametrize(("code", "note", "phase"), [
        (0, None, Phase.TESTS),
        (-1, "exit code -1: container timed out", Phase.TESTS),
        (-2, "exit code -2: docker error", Phase.TESTS),
        (-3, "exit code -3: image build failed", Phase.INSTALL),
        (-99, "exit code -99: harness exception", Phase.TESTS),
        (None, None, Phase.TESTS),
        (137, None, Phase.TESTS),
    ])
    def test_exit_codes(self, code, note, phase):
        issues: list = []
        s = self.parse(result("a", exit_code=code), issues)
        assert issues == []
        assert s.exit_code == code
        assert s.notes == ((COUNTS_ONLY_NOTE, note) if note else (COUNTS_ONLY_NOTE,))
        assert s.deployment.failed_phase is phase

    def test_skip_docker_note(self):
        s = self.parse(result("a", exit_code=None,
                              dsr={"success": False, "message": "Docker evaluation skipped"}))
        assert s.notes == (COUNTS_ONLY_NOTE, "Docker was skipped (AC only)")

    def test_missing_optional_fields_are_not_issues(self):
        issues: list = []
        s = self.parse({"repo_name": "a", "dsr": {"success": True},
                        "pass_at_1": {"passed": 1, "total": 1}}, issues)
        assert issues == []
        assert s.api_coverage is None
        assert s.elapsed_seconds is None
        assert s.exit_code is None and s.port is None and s.framework == ""
        assert s.build_error is None and s.error is None
        assert s.language == "python"  # the run's default
        assert s.tests.score == 1.0  # computed: 1/1
        assert s.passed

    def test_total_and_score_computed_when_absent(self):
        s = self.parse(result("a", pass_at_1={"passed": 2, "failed": 1, "errors": 1}))
        assert s.tests.total == 4
        assert s.tests.score == 0.5

    def test_reported_values_win_over_recomputation(self):
        # Java: total counts skipped tests, as the stock harness writes it
        s = self.parse(result("a", lang="java", pass_at_1={
            "passed": 3, "failed": 0, "errors": 0, "skipped": 1, "total": 4, "score": 0.75}))
        assert (s.tests.total, s.tests.score) == (4, 0.75)
        assert not s.passed

    def test_ac_reported_score_kept(self):
        s = self.parse(result("a", api_coverage={"total_apis": 3, "implemented_apis": 2,
                                                 "score": 0.6667}))
        assert s.api_coverage is not None
        assert s.api_coverage.score == 0.6667
        assert s.api_coverage.endpoints is None  # counts only

    @pytest.mark.parametrize("name", ["", "  ", ".", "..", "a/b", "../etc"])
    def test_invalid_task_names_rejected(self, name):
        with pytest.raises(LoadError) as exc:
            self.parse(result(name))
        assert exc.value.issue.field == "results[0].repo_name"
        assert "r.json: field 'results[0].repo_name'" in str(exc.value)

    def test_numeric_repo_name_is_read_as_text(self):
        assert self.parse(result(123)).task == "123"

    def test_not_an_object(self):
        with pytest.raises(LoadError, match=r"results\[0\]': expected an object, got a list"):
            self.parse([1, 2])

    def test_integers_written_as_strings_or_floats(self):
        issues: list = []
        s = self.parse(result("a", port="8080", pass_at_1={"passed": 2.0, "total": "2"}),
                       issues)
        assert issues == []
        assert s.port == 8080
        assert (s.tests.passed, s.tests.total) == (2, 2)

    def test_negative_counts_rejected(self):
        issues: list = []
        s = self.parse(result("a", pass_at_1={"passed": -1, "failed": 1, "total": 1}), issues)
        assert [i.field for i in issues] == ["results[0].pass_at_1.passed"]
        assert "must be >= 0, got -1" in str(issues[0])
        assert s.tests.passed == 0

    @pytest.mark.parametrize(("raw", "expected"), [
        (True, True), (False, False), ("yes", True), ("no", False), ("true", True),
        (1, True), (0, False),
    ])
    def test_dsr_success_spellings(self, raw, expected):
        issues: list = []
        s = self.parse(result("a", dsr={"success": raw, "message": "m"}), issues)
        assert issues == []
        assert s.deployment.success is expected

    def test_unusable_exit_code(self):
        issues: list = []
        s = self.parse(result("a", exit_code=True), issues)
        assert s.exit_code is None
        assert [str(i) for i in issues] == [
            "r.json: field 'results[0].exit_code': expected an integer, got a boolean"]


# ----------------------------------------------------------------------------- malformed files

class TestMalformed:
    """Bad files and bad fields: a clear issue naming file and field, never an exception."""

    @pytest.fixture(scope="class")
    def malformed(self):
        run, issues = load_report(MALFORMED)
        return run, issues

    def issue(self, issues, field):
        found = [i for i in issues if i.field == field]
        assert found, f"no issue for {field}: {[str(i) for i in issues]}"
        return found[0]

    def test_other_results_still_load(self, malformed):
        run, _ = malformed
        assert [s.task for s in run.samples] == [
            "ok-one", "bad-counts", "dsr-string", "dsr-success-yes", "timed-out", "rusty",
            "ac-string", "dsr-no"]

    def test_missing_repo_name_skips_that_result(self, malformed):
        _, issues = malformed
        i = self.issue(issues, "results[3].repo_name")
        assert i.severity == "error"
        assert str(i) == f"{MALFORMED}: field 'results[3].repo_name': missing"

    def test_wrong_types(self, malformed):
        run, issues = malformed
        s = by_task(run)
        i = self.issue(issues, "results[1].pass_at_1.passed")
        assert i.severity == "warning"
        assert str(i) == (f"{MALFORMED}: field 'results[1].pass_at_1.passed': "
                          "expected an integer, got a string")
        assert str(self.issue(issues, "results[1].pass_at_1.score")).endswith(
            "must be between 0.0 and 1.0, got 1.7")
        # passed defaults to 0; the score is recomputed from counts instead of 1.7
        assert (s["bad-counts"].tests.passed, s["bad-counts"].tests.total) == (0, 4)
        assert s["bad-counts"].tests.score == 0.0
        assert "expected an object, got a string" in str(self.issue(issues, "results[2].dsr"))
        assert s["dsr-string"].deployment.success is False
        assert s["dsr-success-yes"].deployment.success is True
        assert str(self.issue(issues, "results[4].exit_code")).endswith(
            "expected an integer, got a string")
        assert s["dsr-success-yes"].exit_code is None
        assert str(self.issue(issues, "results[11].dsr.success")).endswith(
            "expected true/false, got an integer")
        assert s["dsr-no"].deployment.success is False

    def test_not_an_object_result(self, malformed):
        _, issues = malformed
        i = self.issue(issues, "results[5]")
        assert i.severity == "error" and "expected an object, got a string" in i.message

    def test_missing_pass_at_1(self, malformed):
        run, issues = malformed
        assert self.issue(issues, "results[6].pass_at_1").message == \
            "missing; no tests counted"
        timed_out = by_task(run)["timed-out"]
        assert timed_out.tests.total == 0
        assert timed_out.exit_code == -1

    def test_duplicate_result_keeps_the_first(self, malformed):
        run, issues = malformed
        assert "duplicate result for 'ok-one'" in str(self.issue(issues, "results[7].repo_name"))
        assert by_task(run)["ok-one"].deployment.success is True
        assert len([s for s in run.samples if s.task == "ok-one"]) == 1

    def test_other_field_problems(self, malformed):
        run, issues = malformed
        assert "unknown language 'rust'" in str(self.issue(issues, "results[8].lang"))
        assert by_task(run)["rusty"].language == "rust"
        assert "not a valid task name: '../etc'" in str(self.issue(issues,
                                                                  "results[9].repo_name"))
        assert "expected an object" in str(self.issue(issues, "results[10].api_coverage"))
        assert "expected a number" in str(self.issue(issues, "results[10].elapsed_seconds"))
        assert by_task(run)["ac-string"].api_coverage is None

    def test_every_issue_names_the_file(self, malformed):
        _, issues = malformed
        assert issues
        assert all(str(i).startswith(f"{MALFORMED}: field 'results") for i in issues)

    def test_metadata_without_agent_or_model(self, malformed):
        run, _ = malformed
        # model tokens with underscores are re-joined; "qwen" maps to the display name
        assert (run.agent, run.model) == ("Qwen-Agent", "qwen3_coder_30b")

    def test_through_discover(self):
        found = discover_runs(MALFORMED.parent)
        assert [r.id for r in found.runs] == \
            ["repo_readme_1204_qwen_qwen3_coder_30b_Python@malformed"]
        assert [i.field for i in found.errors] == ["results[3].repo_name", "results[5]",
                                                   "results[9].repo_name"]

    def test_results_not_a_list(self):
        path = FIXTURES / "results_not_list" / "report.json"
        with pytest.raises(LoadError) as exc:
            load_report(path)
        assert str(exc.value) == f"{path}: field 'results': expected a list, got an object"
        found = discover_runs(path.parent)
        # listed as an unreadable run (never left out), naming the file and the reason
        assert [(r.samples, [u.line() for u in r.unreadable]) for r in found.runs] == [
            ((), [str(exc.value)])]
        assert [str(i) for i in found.issues] == [str(exc.value)]

    def test_invalid_json(self):
        path = FIXTURES / "invalid_json" / "report.json"
        found = discover_runs(path.parent)
        why = (f"{path}: truncated JSON: the file ends at line 5 column 1 "
               "(expecting property name enclosed in double quotes)")
        assert [[u.line() for u in r.unreadable] for r in found.runs] == [[why]]
        assert [str(i) for i in found.issues] == [why]

    @pytest.mark.parametrize(("content", "message"), [
        (b"", "file is empty"),
        (b"  \n\t\n", "file is empty"),
        (b'{"results": []}\xff\xfe', "not UTF-8 (byte 15)"),
        (b"\x80abc", "not UTF-8 (byte 0)"),
        (b"[1, 2, 3]", "expected an object, got a list"),
        (b"null", "expected an object, got null"),
        (b'{"metadata": {}}', "field 'results': missing"),
        (b'{"results": null}', "field 'results': missing"),
        (b"[" * 100_000, "JSON nested too deeply"),
        (b'{"results": [{"repo_name": "a", "port": 1' + b"0" * 5000 + b"}]}",
         "invalid JSON: Exceeds the limit (4300 digits)"),
    ])
    def test_unusable_report_files(self, tmp_path, content, message):
        out = tmp_path / "out"
        out.mkdir()
        (out / "report.json").write_bytes(content)
        found = discover_runs(out)
        [run] = found.runs  # an unreadable run: no samples, the report named as unreadable
        assert run.samples == () and run.file_unreadable
        assert [u.line() for u in run.unreadable] == [str(found.issues[0])]
        assert len(found.issues) == 1
        assert str(found.issues[0]).startswith(f"{out / 'report.json'}: ")
        assert message in str(found.issues[0])

    def test_utf8_bom_is_accepted(self, tmp_path):
        path = tmp_path / "report.json"
        path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"results": [result("a")]}).encode())
        run, _ = load_report(path)
        assert [s.task for s in run.samples] == ["a"]

    def test_bad_report_does_not_hide_good_ones(self, tmp_path):
        write_report(tmp_path / "good", [result("a")])
        (tmp_path / "bad").mkdir()
        (tmp_path / "bad" / "report.json").write_text("{")
        found = discover_runs(tmp_path)
        assert [(r.id, r.file_unreadable) for r in found.runs] == [("bad", True),
                                                                   ("good", False)]
        assert len(found.errors) == 1 and "bad" in str(found.errors[0])

    def test_bad_intermediate_file_does_not_hide_others(self, tmp_path):
        inter = tmp_path / "out" / "intermediate"
        inter.mkdir(parents=True)
        (inter / "a.json").write_text(json.dumps(result("a")))
        (inter / "b.json").write_bytes(b"\xff")
        (inter / "c.json").write_text(json.dumps({"lang": "python"}))
        (inter / "d.json").mkdir()  # a folder with a .json name
        found = discover_runs(tmp_path / "out")
        assert [s.task for r in found.runs for s in r.samples] == ["a"]
        by_file = {i.path.name: i for i in found.issues}
        assert set(by_file) == {"b.json", "c.json", "d.json"}
        assert "not UTF-8" in str(by_file["b.json"])
        assert str(by_file["c.json"]) == f"{inter / 'c.json'}: field 'repo_name': missing"
        assert "cannot read" in str(by_file["d.json"])

    def test_no_metadata(self, tmp_path):
        path = write_report(tmp_path / "repo_readme_1119_relay_open_coder-7b_Python",
                            [result("a")], with_metadata=False)
        run, issues = load_report(path)
        assert [(i.field, i.severity) for i in issues] == [("metadata", "warning")]
        assert run.id == "repo_readme_1119_relay_open_coder-7b_Python"
        assert (run.agent, run.model, run.date) == ("Relay", "open_coder-7b", "1119")
        assert run.source.harness == "RepoGenesis harness"

    def test_metadata_wrong_type(self, tmp_path):
        path = tmp_path / "out" / "report.json"
        path.parent.mkdir()
        path.write_text(json.dumps({"metadata": [], "results": [result("a")]}))
        run, issues = load_report(path)
        assert [i.field for i in issues] == ["metadata", "metadata"]
        assert (run.agent, run.model) == ("unknown", "unknown")

    def test_huge_numbers_and_odd_digit_strings(self, tmp_path):
        # regression: these raised OverflowError/ValueError out of discover_runs
        path = write_report(tmp_path / "out", [
            result("a", elapsed_seconds=10 ** 400),
            result("b", port="\u00b2"),
            result("c", port="--5"),
            result("d", elapsed_seconds=1e400),
        ])
        found = discover_runs(path.parent)
        assert [s.task for r in found.runs for s in r.samples] == ["a", "b", "c", "d"]
        assert [(i.field, i.message) for i in found.issues] == [
            ("results[0].elapsed_seconds", "not a finite number"),
            ("results[1].port", "expected an integer, got a string"),
            ("results[2].port", "expected an integer, got a string"),
            ("results[3].elapsed_seconds", "not a finite number"),
        ]

    def test_absurd_counts_are_rejected_not_crashing(self, tmp_path):
        # regression: 10**400 passed tests overflowed the ratio (OverflowError in metrics)
        path = write_report(tmp_path / "out", [
            result("a", pass_at_1={"passed": 10 ** 400, "failed": 0, "total": 1}),
            result("b", api_coverage={"total_apis": 1, "implemented_apis": 10 ** 20}),
            result("c", port=2 ** 53),
        ])
        found = discover_runs(path.parent)
        assert [(i.field, i.message) for i in found.issues] == [
            ("results[0].pass_at_1.passed", "integer out of range"),
            ("results[1].api_coverage.implemented_apis", "integer out of range"),
        ]
        run = found.runs[0]
        s = by_task(run)
        assert (s["a"].tests.passed, s["a"].tests.score) == (0, 0.0)
        assert s["c"].port == 2 ** 53  # the largest accepted integer
        m = compute_run_metrics(run)
        assert m.test_pass_ratio == 0.5  # a: 0/1, b: 3/4, c: 3/4 -> (0 + 0.75 + 0.75) / 3

    def test_names_the_os_rejects(self, tmp_path):
        # regression: ENAMETOOLONG from is_dir() lost the whole output folder
        preds = tmp_path / "preds"
        preds.mkdir()
        path = write_report(tmp_path / "out", [result("x" * 300), result("a\u0000b"),
                                               result("ok")],
                            metadata={"predictions_dir": str(preds)})
        run, issues = load_report(path)
        assert [s.task for s in run.samples] == ["x" * 300, "ok"]
        assert all(s.repo_path is None for s in run.samples)
        # a NUL is never part of a task name (ids are checked once, in the model)
        assert [(i.field, i.message) for i in issues] == [
            ("results[1].repo_name", "not a valid task name: 'a\\x00b' contains a control "
                                     "character")]
        path = write_report(tmp_path / "out2", [result("a")],
                            metadata={"predictions_dir": "p" * 300})
        run, _ = load_report(path)
        assert [s.task for s in run.samples] == ["a"]
