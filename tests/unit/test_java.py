"""Java: JUnit test counts, Surefire XML and Maven console parsing, stock double counting."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model import Outcome, TestSummary
from inspector.model.benchmark.tasks import load_tasks
from inspector.model.runs.stock_flaws import JAVA_DOUBLED, java_counts_doubled
from inspector.model.suite.java_tests import java_test_notes, java_tests, scan_java_source
from inspector.services.repo.references import find_refs
from inspector.services.suite.maven_log import parse_maven_output, stock_sum
from inspector.services.suite.surefire import SourceIndex, parse_surefire_reports

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "sample_runs" / "tasks"
MAVEN = ROOT / "tests" / "fixtures" / "maven"

# Counted by hand from the bundled sources: every `@Test` annotation (none commented out, no
# parameterized, repeated or disabled tests; `@TestMethodOrder` is not a test).
HAND_COUNTS = {
    "javalin-online-judge": 22,
    "javalin-task-manager": 15,
    "javalin-user-auth-platform": 46,  # 7 + 10 + 7 + 8 + 8 + 6 over six classes
    "micronaut-ci-status": 25,
    "quarkus-blog-cms": 15,
    "spark-dashboard-backend": 15,
    "spring-boot-course-scheduling": 19,  # 2+4+4+3+1+1+2+2; BaseApiTest has none
    "springboot-chat-gateway": 12,
}


def test_bundled_java_tasks_count_their_junit_tests() -> None:
    tasks, _ = load_tasks(TASKS)
    java = {n: t for n, t in tasks.items() if t.language == "java"}
    assert {n: t.expected_tests for n, t in java.items()} == HAND_COUNTS
    for t in java.values():
        assert t.tests_dir == t.root / "src" / "test" / "java"


def test_test_methods_know_class_file_and_line() -> None:
    root = TASKS / "repo" / "spark-dashboard-backend"
    found = java_tests(root / "src" / "test" / "java", root)
    first = found[0]
    # the file declares `package tests;` although it sits at src/test/java/ApiTest.java
    assert (first.class_name, first.method, first.file) == (
        "tests.ApiTest", "testLogin", "src/test/java/ApiTest.java")
    source = (root / first.file).read_text().splitlines()
    assert "testLogin()" in source[first.line - 1]


JUNIT_MIX = '''
package com.example;

import org.junit.*;
import org.junit.jupiter.api.*;

@Ignore("whole class off")
class OffTest {
    @Test public void a() {}
}

class MixTest {
    // @Test void commentedOut() {}
    /* @Test void alsoCommented() {} */
    String s = "@Test void inAString() {}";

    @org.junit.jupiter.api.Test
    @DisplayName("{braces} in a name")
    void qualified() { if (true) { run(); } }

    @ParameterizedTest
    @CsvSource({"1, 2", "3, 4"})
    void params(int a, int b) {}

    @RepeatedTest(value = 3)
    void repeated() {}

    @Disabled
    @Test
    void off() {}

    @Test(expected = IllegalStateException.class)
    public void junit4() throws Exception {}

    @Nested
    class Inner {
        @Test void deep() {}
    }

    @TestFactory
    java.util.List<DynamicTest> dynamic() { return java.util.List.of(); }
}
'''


def test_annotation_rules() -> None:
    found = scan_java_source(JUNIT_MIX, "src/test/java/com/example/MixTest.java")
    got = {(t.class_name, t.method): (t.count, t.disabled) for t in found}
    assert got == {
        ("com.example.OffTest", "a"): (1, True),
        ("com.example.MixTest", "qualified"): (1, False),
        ("com.example.MixTest", "params"): (1, False),
        ("com.example.MixTest", "repeated"): (3, False),
        ("com.example.MixTest", "off"): (1, True),
        ("com.example.MixTest", "junit4"): (1, False),
        ("com.example.MixTest$Inner", "deep"): (1, False),
        ("com.example.MixTest", "dynamic"): (1, False),
    }
    notes = java_test_notes(found)
    assert notes[0].startswith("2 test(s) disabled")
    assert "2 parameterized/dynamic" in notes[1]


# ---------------------------------------------------------------- Surefire XML

def test_surefire_3_reports() -> None:
    src = MAVEN / "jfix"
    index = SourceIndex(java_tests(src / "src" / "test" / "java", src))
    cases, problems = parse_surefire_reports(MAVEN / "surefire-3.2-reports", index)
    assert problems == []
    by_id = {c.id: c for c in cases}
    assert len(cases) == 9
    assert sorted(c.outcome.value for c in cases).count("passed") == 5
    fail = by_id["com.example.CalcTest::statusIsOk"]
    assert fail.outcome is Outcome.FAILED
    assert fail.message == "expected: <200> but was: <404>"
    assert (fail.file, fail.line) == ("src/test/java/com/example/CalcTest.java", 20)
    assert "--- stdout ---\nGET /api/items -> 404" in fail.traceback
    assert fail.duration_seconds == pytest.approx(0.087)
    err = by_id["com.example.CalcTest::dividesByZero"]
    assert (err.outcome, err.message, err.line) == (Outcome.ERROR, "/ by zero", 25)
    assert by_id["com.example.CalcTest::positive(int)[3]"].line == 36
    skipped = by_id["com.example.CalcTest::adminOnly"]
    assert (skipped.outcome, skipped.message) == (Outcome.SKIPPED, "needs a seeded admin user")
    # a passing test points at its declaration
    ok = by_id["com.example.HealthTest::alwaysUp"]
    assert (ok.file, ok.line) == ("src/test/java/com/example/HealthTest.java", 9)


def test_surefire_2_22_reports_open_the_bundled_task_file_at_the_failing_line() -> None:
    task = TASKS / "repo" / "javalin-task-manager"
    index = SourceIndex(java_tests(task / "src" / "test" / "java", task))
    cases, _ = parse_surefire_reports(MAVEN / "surefire-2.22-reports", index)
    by_id = {c.id: c for c in cases}
    assert [c.outcome.value for c in cases].count("passed") == 2
    fail = by_id["tests.ApiTest::testCreateProject"]
    assert (fail.file, fail.line) == ("src/test/java/ApiTest.java", 87)
    assert fail.message == "expected: <201> but was: <404>"
    assert by_id["tests.ApiTest::testListProjects"].outcome is Outcome.ERROR
    assert by_id["tests.ApiTest::testLoginUser"].outcome is Outcome.SKIPPED
    # the link the sample view offers opens the golden test file at that line
    refs = find_refs(fail.traceback, None, task)
    assert [(r.root, r.rel, r.line) for r in refs] == [("task", "src/test/java/ApiTest.java",
                                                        87)]


def test_unreadable_report_is_one_clear_problem(tmp_path: Path) -> None:
    (tmp_path / "TEST-broken.xml").write_text("<testsuite><testcase", encoding="utf-8")
    cases, problems = parse_surefire_reports(tmp_path)
    assert cases == [] and len(problems) == 1
    assert "TEST-broken.xml: unreadable Surefire XML report" in problems[0]


# ---------------------------------------------------------------- Maven console

def test_surefire_3_console_counts_each_test_once() -> None:
    text = (MAVEN / "maven-3.8-surefire-3.2-failures.log").read_text()
    out = parse_maven_output(text)
    assert out.counts == (9, 2, 1, 1)
    assert stock_sum(text) == (18, 4, 2, 2)  # the stock parser's doubled figures
    assert [(c.class_name, c.run) for c in out.classes] == [("com.example.CalcTest", 7),
                                                             ("com.example.HealthTest", 2)]
    assert [(f.class_name, f.name, f.kind) for f in out.failed] == [
        ("com.example.CalcTest", "statusIsOk", "failure"),
        ("com.example.CalcTest", "positive(int)[3]", "failure"),
        ("com.example.CalcTest", "dividesByZero", "error")]
    assert out.failed[0].message == "expected: <200> but was: <404>"
    assert "at com.example.CalcTest.statusIsOk(CalcTest.java:20)" in out.failed[0].trace
    assert [(f.class_name, f.name, f.line, f.message) for f in out.summary] == [
        ("CalcTest", "positive", 36, "n must be positive ==> expected: <true> but was: <false>"),
        ("CalcTest", "statusIsOk", 20, "expected: <200> but was: <404>"),
        ("CalcTest", "dividesByZero", 25, "Arithmetic / by zero")]
    assert out.build_failure and out.problem() is None


def test_surefire_2_22_console() -> None:
    text = (MAVEN / "maven-3.9-surefire-2.22-failures.log").read_text()
    out = parse_maven_output(text)
    assert out.counts == (6, 2, 1, 1)
    assert stock_sum(text) == (12, 4, 2, 2)
    assert [(f.class_name, f.name, f.kind) for f in out.failed] == [
        ("tests.ApiTest", "testCreateProject", "failure"),
        ("tests.ApiTest", "testListProjects", "error"),
        ("tests.LegacyHealthTest", "healthIsUp", "failure")]
    assert out.summary[2].message == "Unirest java.net.ConnectException: Connection refused"


@pytest.mark.parametrize(("fixture", "message"), [
    ("maven-3.8-offline-dependency.log",
     "Maven could not resolve io.javalin:javalin:5.6.3 (no Maven repository reachable; "
     "offline) — infrastructure problem, not the agent's"),
    ("maven-3.8-offline-two-dependencies.log",
     "Maven could not resolve io.javalin:javalin:6.1.3 and 1 more "
     "(com.fasterxml.jackson.core:jackson-databind:2.15.2) (no Maven repository reachable; "
     "offline) — infrastructure problem, not the agent's"),
    ("maven-3.9-offline-dependency.log",
     "Maven could not resolve io.javalin:javalin:5.6.3 and 1 more "
     "(io.rest-assured:rest-assured:5.4.0) (no Maven repository reachable; offline) — "
     "infrastructure problem, not the agent's"),
    ("maven-3.8-online-unreachable.log",
     "Maven could not resolve io.javalin:javalin:5.6.3 (Maven repository unreachable from "
     "this machine) — infrastructure problem, not the agent's"),
    ("maven-3.8-offline-parent.log",
     "Maven could not resolve org.springframework.boot:spring-boot-starter-parent:3.2.0 (no "
     "Maven repository reachable; offline) — infrastructure problem, not the agent's"),
    ("maven-3.8-offline-plugin.log",
     "Maven could not resolve org.apache.maven.plugins:maven-surefire-plugin:3.5.2 and 1 more "
     "(org.codehaus.plexus:plexus-utils:1.1) (no Maven repository reachable; offline) — "
     "infrastructure problem, not the agent's"),
    ("maven-3.8-compile-error.log",
     "compilation failed: src/main/java/com/example/Calc.java:4: ';' expected"),
])
def test_build_problems_in_one_line(fixture: str, message: str) -> None:
    out = parse_maven_output((MAVEN / fixture).read_text())
    assert out.problem() == message
    assert out.counts is None
    # offline or no repository reached: the infrastructure's problem (not evaluable)
    assert out.repository_unreachable == ("compile-error" not in fixture)


def test_a_repository_that_answers_not_found_is_the_repos_dependency_failure() -> None:
    """A reachable repository said the artifact does not exist: the repo's failure, never
    called an infrastructure problem (nor left out of the figures as not evaluable)."""
    out = parse_maven_output((MAVEN / "maven-3.8-repository-not-found.log").read_text())
    assert not out.repository_unreachable and not out.offline and not out.unreachable
    assert out.problem() == ("Maven could not resolve org.apache.maven.plugins:"
                             "maven-clean-plugin:3.3.2 (not found in the configured "
                             "repositories)")


# ---------------------------------------------------------------- stock double counting

def test_stock_java_result_with_doubled_counts_is_flagged() -> None:
    tasks, _ = load_tasks(TASKS)
    task = tasks["javalin-task-manager"]  # 15 tests
    doubled = TestSummary(passed=24, failed=4, errors=2, reported_total=30)
    note = java_counts_doubled("java", doubled, task)
    assert note is not None and note.startswith(JAVA_DOUBLED)
    assert "halved: 12 passed, 2 failed, 1 errors of 15" in note
    honest = TestSummary(passed=12, failed=2, errors=1, reported_total=15)
    assert java_counts_doubled("java", honest, task) is None
    assert java_counts_doubled("python", doubled, task) is None


def test_stock_report_with_doubled_java_counts_is_flagged_where_stock_figures_show(
        tmp_path: Path) -> None:
    import json

    from inspector.model.runs.repogenesis import load_report
    from inspector.services.figures.metrics import compute_run_metrics

    tasks, _ = load_tasks(TASKS)

    def result(name: str, passed: int, failed: int, total: int) -> dict[str, object]:
        return {"repo_name": name, "lang": "java", "exit_code": 0,
                "dsr": {"success": True, "message": "Service started successfully"},
                "pass_at_1": {"passed": passed, "failed": failed, "errors": 0, "skipped": 0,
                              "total": total, "score": round(passed / total, 4)}}

    report = tmp_path / "report.json"
    report.write_text(json.dumps({
        "metadata": {"predictions_dir": "repo_readme_1201_a_m_Java"},
        "summary": {},
        "results": [result("javalin-task-manager", 26, 4, 30),  # 15 tests, doubled
                    result("quarkus-blog-cms", 12, 3, 15)]}))  # 15 tests, honest
    run, _ = load_report(report, tasks)
    by_task = {s.task: s for s in run.samples}
    assert any(n.startswith(JAVA_DOUBLED) for n in by_task["javalin-task-manager"].notes)
    assert not any(n.startswith(JAVA_DOUBLED) for n in by_task["quarkus-blog-cms"].notes)
    assert f"{JAVA_DOUBLED}: javalin-task-manager" in run.notes
    assert f"{JAVA_DOUBLED}: javalin-task-manager" in compute_run_metrics(run).differences
