"""Loader 2: our own run format (run.json + samples/<task>/<n>/result.json)."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.model import (
    ApiCoverage,
    Deployment,
    EndpointCoverage,
    Evidence,
    LoadError,
    Outcome,
    Phase,
    PhaseResult,
    PhaseStatus,
    SampleResult,
    SuiteStatus,
    TestCase,
    TestSummary,
    discover_runs,
)
from inspector.model.runs.ids import id_problem
from inspector.model.runs.runformat import (
    FORMAT_NAME,
    FORMAT_VERSION,
    is_run_dir,
    load_run,
    parse_sample,
    sample_to_json,
)
from inspector.services.figures.metrics import compute_run_metrics

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


# ----------------------------------------------------------------------------- helpers

def make_sample(run_id: str = "run-1", task: str = "todo", sample: int = 0,
                passed: int = 2, failed: int = 1, sample_dir: Path | None = None,
                **overrides: object) -> SampleResult:
    cases = tuple(
        [TestCase(f"tests/test_{task}.py::test_ok_{i}", Outcome.PASSED, 0.01,
                  file=f"tests/test_{task}.py", line=10 + i) for i in range(passed)]
        + [TestCase(f"tests/test_{task}.py::test_bad_{i}", Outcome.FAILED, 0.5,
                    message="assert 404 == 200", traceback="E   assert 404 == 200",
                    file=f"tests/test_{task}.py", line=40 + i) for i in range(failed)]
    )
    values: dict = dict(
        run_id=run_id, task=task, sample=sample, language="python",
        deployment=Deployment(
            success=True, message="Service started successfully",
            failed_phase=Phase.TESTS if failed else None,
            phases=(
                PhaseResult(Phase.INSTALL, PhaseStatus.OK, "2026-11-21T06:01:04+00:00", 1.25,
                            0, "", True),
                PhaseResult(Phase.START, PhaseStatus.OK, "2026-11-21T06:01:05+00:00", 0.5),
                PhaseResult(Phase.HEALTH, PhaseStatus.OK, None, 0.1),
                PhaseResult(Phase.TESTS, PhaseStatus.FAILED if failed else PhaseStatus.OK,
                            None, 2.0, 1 if failed else 0, "1 failed" if failed else ""),
            ),
            lenient_success=True,
        ),
        tests=TestSummary(passed=passed, failed=failed, expected=passed + failed, cases=cases,
                          has_cases=True),
        framework="flask", port=18080,
        api_coverage=ApiCoverage(
            total_apis=2, implemented_apis=1,
            endpoints=(
                EndpointCoverage("GET", "/todos", True, "List todos",
                                 (Evidence("app.py", 12, "@app.get('/todos')"),)),
                EndpointCoverage("DELETE", "/todos/{id}", False, "Delete a todo"),
            ),
            lenient_implemented_apis=2,
        ),
        elapsed_seconds=4.75, exit_code=0, repo_digest="sha256:abc",
        notes=("first note", "second note"),
    )
    if sample_dir is not None:
        values["logs"] = {Phase.INSTALL: sample_dir / "logs" / "install.log",
                          Phase.TESTS: sample_dir / "logs" / "tests.log"}
        values["repo_path"] = sample_dir.parent.parent.parent / "predictions" / task
    values.update(overrides)
    return SampleResult(**values)


def write_json(path: Path, obj: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=2), encoding="utf-8")
    return path


def run_doc(run_id: str, paths: list[str], **extra: object) -> dict:
    doc: dict = {
        "format": FORMAT_NAME, "format_version": FORMAT_VERSION, "run_id": run_id,
        "agent": "Forge", "model": "m1-large", "language": "python",
        "generation_date": "1118", "created_at": "2026-11-21T06:01:04+00:00",
        "source": {"predictions_dir": "../predictions"},
        "harness": {"name": "genesis-inspector", "version": "0.1.0", "backend": "local"},
        "tasks": [], "samples": [{"path": p} for p in paths],
    }
    doc.update(extra)
    return doc


def write_run(run_dir: Path, samples: list[SampleResult], **extra: object) -> Path:
    paths = []
    for s in samples:
        rel = f"samples/{s.task}/{s.sample}"
        sample_dir = run_dir / rel
        write_json(sample_dir / "result.json", sample_to_json(s, sample_dir))
        paths.append(rel)
    run_id = samples[0].run_id if samples else run_dir.name
    write_json(run_dir / "run.json", run_doc(run_id, paths, **extra))
    return run_dir


def roundtrip(s: SampleResult, sample_dir: Path) -> tuple[SampleResult, list]:
    doc = json.loads(json.dumps(sample_to_json(s, sample_dir)))
    issues: list = []
    back = parse_sample(doc, sample_dir / "result.json", issues)
    return back, issues


# ----------------------------------------------------------------------------- round trip

class TestRoundTrip:
    def test_full_sample(self, tmp_path):
        sample_dir = (tmp_path / "run" / "samples" / "todo" / "0").resolve()
        s = make_sample(sample_dir=sample_dir)
        back, issues = roundtrip(s, sample_dir)
        assert issues == []
        assert back.source_file == sample_dir / "result.json"
        assert replace(back, source_file=None) == s

    def test_paths_are_stored_relative(self, tmp_path):
        sample_dir = (tmp_path / "run" / "samples" / "todo" / "0").resolve()
        doc = sample_to_json(make_sample(sample_dir=sample_dir), sample_dir,
                             "2026-11-21T06:01:04+00:00", "2026-11-21T06:01:09+00:00")
        assert doc["logs"] == {"install": "logs/install.log", "tests": "logs/tests.log"}
        assert doc["repo"] == {"path": "../../../predictions/todo", "digest": "sha256:abc"}
        assert doc["sample_id"] == "run-1/todo/0"
        assert (doc["started_at"], doc["finished_at"]) == ("2026-11-21T06:01:04+00:00",
                                                           "2026-11-21T06:01:09+00:00")
        assert doc["tests"]["total"] == 3 and doc["tests"]["score"] == 0.6667
        assert doc["tests"]["status"] == "ran"
        assert doc["api_coverage"]["score"] == 0.5
        assert doc["api_coverage"]["lenient_score"] == 1.0
        assert doc["format_version"] == FORMAT_VERSION

    def test_minimal_sample(self, tmp_path):
        s = SampleResult("r", "t", 3, "java", Deployment(False), TestSummary(has_cases=True))
        back, issues = roundtrip(s, tmp_path)
        assert issues == []
        assert replace(back, source_file=None) == s
        assert back.tests.status is SuiteStatus.NOT_RUN

    def test_moved_run_folder_still_resolves(self, tmp_path):
        old = (tmp_path / "old").resolve()
        write_run(old, [make_sample(sample_dir=old / "samples" / "todo" / "0")])
        new = (tmp_path / "moved").resolve()
        old.rename(new)
        run, issues = load_run(new)
        assert issues == []
        s = run.samples[0]
        assert s.logs[Phase.TESTS] == new / "samples" / "todo" / "0" / "logs" / "tests.log"
        assert s.repo_path == tmp_path.resolve() / "moved" / "predictions" / "todo"


_text = st.text(max_size=20)
_ident = _text.filter(lambda v: id_problem(v) is None)  # run ids and task names are checked
_nonneg = st.integers(min_value=0, max_value=10_000)
_dur = st.none() | st.floats(min_value=0, max_value=1e6, allow_nan=False)


@st.composite
def samples(draw: st.DrawFn) -> SampleResult:
    cases = tuple(draw(st.lists(st.builds(
        TestCase, id=_text, outcome=st.sampled_from(Outcome), duration_seconds=_dur,
        message=_text, traceback=_text, file=st.none() | _text,
        line=st.none() | _nonneg), max_size=4)))
    phases = tuple(draw(st.lists(st.builds(
        PhaseResult, phase=st.sampled_from(Phase), status=st.sampled_from(PhaseStatus),
        started_at=st.none() | _text, duration_seconds=_dur,
        exit_code=st.none() | st.integers(-300, 300), message=_text, cached=st.booleans()),
        max_size=4)))
    ac = draw(st.none() | st.builds(
        ApiCoverage, total_apis=_nonneg, implemented_apis=_nonneg,
        endpoints=st.lists(st.builds(
            EndpointCoverage, method=_text, path=_text, implemented=st.booleans(),
            description=_text,
            evidence=st.lists(st.builds(Evidence, file=_text, line=_nonneg, text=_text),
                              max_size=2).map(tuple)), max_size=3).map(tuple),
        lenient_implemented_apis=st.none() | _nonneg))
    return SampleResult(
        run_id=draw(_ident), task=draw(_ident), sample=draw(_nonneg),
        language=draw(st.sampled_from(["python", "java"])),
        deployment=Deployment(draw(st.booleans()), draw(_text),
                              draw(st.none() | st.sampled_from(Phase)), phases,
                              draw(st.none() | st.booleans())),
        tests=TestSummary(passed=draw(_nonneg), failed=draw(_nonneg), errors=draw(_nonneg),
                          skipped=draw(_nonneg), expected=draw(st.none() | _nonneg),
                          cases=cases, has_cases=True, collection_errors=draw(_nonneg)),
        framework=draw(_text), port=draw(st.none() | st.integers(-1, 70_000)),
        api_coverage=ac, elapsed_seconds=draw(_dur),
        exit_code=draw(st.none() | st.integers(-300, 300)),
        repo_digest=draw(st.none() | _text), build_error=draw(st.none() | _text),
        error=draw(st.none() | _text), notes=tuple(draw(st.lists(_text, max_size=3))),
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=samples())
def test_roundtrip_property(s: SampleResult) -> None:
    sample_dir = Path("/nonexistent/run/samples/t/0")
    back, issues = roundtrip(s, sample_dir)
    assert issues == []
    assert replace(back, source_file=None) == s


# ----------------------------------------------------------------------------- load_run

class TestLoadRun:
    def test_valid_run(self, tmp_path):
        run_dir = tmp_path / "run-1"
        write_run(run_dir, [
            make_sample(task="todo", sample=0, passed=3, failed=0),
            make_sample(task="todo", sample=1, passed=2, failed=1),
            make_sample(task="notes", sample=0, passed=0, failed=2),
            make_sample(task="notes", sample=1, passed=4, failed=0),
        ])
        assert is_run_dir(run_dir)
        run, issues = load_run(run_dir)
        assert issues == []
        assert (run.id, run.agent, run.model, run.language) == ("run-1", "Forge", "m1-large",
                                                                "python")
        assert run.date == "1118"
        assert run.source.format == "genesis-inspector"
        assert run.source.path == run_dir / "run.json"
        assert run.source.predictions_dir == "../predictions"
        assert run.source.harness == "genesis-inspector 0.1.0 (local backend)"
        assert run.task_names == ["notes", "todo"]
        assert [s.sample for s in run.samples_for("todo")] == [0, 1]
        assert run.has_test_cases
        m = compute_run_metrics(run)
        # todo: 1 of 2 samples passed, notes: 1 of 2 -> pass@1 = 0.5; pass@2 = 1 for both
        assert (m.pass_at_1, m.pass_at_k) == (0.5, {2: 1.0})
        assert m.failing_tests == 3

    def test_created_at_used_without_generation_date(self, tmp_path):
        write_run(tmp_path / "r", [make_sample()], generation_date=None)
        run, _ = load_run(tmp_path / "r")
        assert run.date == "2026-11-21T06:01:04+00:00"

    def test_run_json_newer_version(self):
        path = FIXTURES / "ours_v2" / "run.json"
        with pytest.raises(LoadError) as exc:
            load_run(path.parent)
        assert "newer" in str(exc.value)
        assert str(exc.value) == (
            f"{path}: field 'format_version': written by a newer Genesis Inspector (format "
            "version 2, this one reads up to 1); upgrade genesis-inspector")
        found = discover_runs(path.parent)
        assert [(r.id, r.samples, [u.line() for u in r.unreadable]) for r in found.runs] == [
            ("ours_v2", (), [str(exc.value)])]
        assert [str(i) for i in found.errors] == [str(exc.value)]

    def test_result_json_newer_version_skips_that_sample(self, tmp_path):
        run_dir = write_run(tmp_path / "r", [make_sample(task="a"), make_sample(task="b")])
        result = run_dir / "samples" / "b" / "0" / "result.json"
        doc = json.loads(result.read_text())
        doc["format_version"] = 7
        write_json(result, doc)
        run, issues = load_run(run_dir)
        assert [s.task for s in run.samples] == ["a"]
        assert len(issues) == 1
        assert issues[0].path == result and issues[0].field == "format_version"
        assert "newer Genesis Inspector (format version 7" in str(issues[0])

    @pytest.mark.parametrize(("version", "message"), [
        (0, "unsupported format version 0"),
        (-1, "unsupported format version -1"),
        ("two", "expected an integer, got a string"),
        (None, "missing"),
    ])
    def test_run_json_bad_version(self, tmp_path, version, message):
        write_json(tmp_path / "r" / "run.json", run_doc("r", [], format_version=version))
        with pytest.raises(LoadError, match=message) as exc:
            load_run(tmp_path / "r")
        assert exc.value.issue.field == "format_version"

    @pytest.mark.parametrize("fmt", ["something-else", None, 3])
    def test_run_json_wrong_format(self, tmp_path, fmt):
        write_json(tmp_path / "r" / "run.json", run_doc("r", [], format=fmt))
        with pytest.raises(LoadError) as exc:
            load_run(tmp_path / "r")
        assert exc.value.issue.field == "format"

    def test_run_json_unusable(self, tmp_path):
        (tmp_path / "r").mkdir()
        (tmp_path / "r" / "run.json").write_text("[]")
        with pytest.raises(LoadError, match="expected an object, got a list"):
            load_run(tmp_path / "r")
        write_json(tmp_path / "r" / "run.json", {k: v for k, v in run_doc("r", []).items()
                                                 if k != "samples"})
        with pytest.raises(LoadError, match="field 'samples': missing"):
            load_run(tmp_path / "r")

    def test_missing_result_json(self):
        run_dir = FIXTURES / "ours_missing_result"
        run, issues = load_run(run_dir)
        assert [s.task for s in run.samples] == ["alpha", "gamma"]
        missing = run_dir.resolve() / "samples" / "beta" / "0" / "result.json"
        assert [str(i) for i in issues] == [f"{missing}: missing (listed in run.json)"]
        assert issues[0].severity == "error"
        m = compute_run_metrics(run)
        assert (m.samples, m.pass_at_1, m.test_pass_ratio) == (2, 0.5, 0.75)

    def test_sample_path_outside_the_run_folder(self):
        run_dir = FIXTURES / "ours_outside"
        run, issues = load_run(run_dir)
        assert [s.task for s in run.samples] == ["alpha"]
        assert [str(i) for i in issues] == [
            f"{run_dir / 'run.json'}: field 'samples[0].path': "
            "sample path points outside the run folder"]

    @pytest.mark.parametrize("bad", ["/etc", "../sibling", "samples/../../x", "..", "/"])
    def test_escaping_paths_rejected(self, tmp_path, bad):
        run_dir = write_run(tmp_path / "r", [make_sample(task="a")])
        # a real result.json outside the run folder must not be read
        write_json(tmp_path / "sibling" / "result.json",
                   sample_to_json(make_sample(task="evil"), tmp_path))
        write_json(tmp_path / "x" / "result.json",
                   sample_to_json(make_sample(task="evil"), tmp_path))
        doc = json.loads((run_dir / "run.json").read_text())
        doc["samples"].append({"path": bad})
        write_json(run_dir / "run.json", doc)
        run, issues = load_run(run_dir)
        assert [s.task for s in run.samples] == ["a"]
        assert [i.field for i in issues] == ["samples[1].path"]
        assert "outside the run folder" in issues[0].message

    def test_symlink_escaping_the_run_folder_rejected(self, tmp_path):
        run_dir = write_run(tmp_path / "r", [make_sample(task="a")])
        write_json(tmp_path / "elsewhere" / "result.json",
                   sample_to_json(make_sample(task="evil"), tmp_path))
        os.symlink(tmp_path / "elsewhere", run_dir / "samples" / "link")
        doc = json.loads((run_dir / "run.json").read_text())
        doc["samples"].append({"path": "samples/link"})
        write_json(run_dir / "run.json", doc)
        run, issues = load_run(run_dir)
        assert [s.task for s in run.samples] == ["a"]
        assert [i.field for i in issues] == ["samples[1].path"]

    def test_duplicate_samples(self):
        run_dir = FIXTURES / "ours_duplicate"
        run, issues = load_run(run_dir)
        assert [(s.task, s.sample) for s in run.samples] == [("alpha", 0), ("alpha", 1)]
        assert run.samples[0].tests.passed == 2  # the first listed copy is kept
        dup = run_dir.resolve() / "samples" / "alpha" / "0-copy" / "result.json"
        assert [str(i) for i in issues] == [f"{dup}: field 'sample': duplicate sample alpha#0"]

    def test_same_path_listed_twice(self, tmp_path):
        run_dir = write_run(tmp_path / "r", [make_sample(task="a")])
        doc = json.loads((run_dir / "run.json").read_text())
        doc["samples"].append({"path": "samples/a/0/"})
        write_json(run_dir / "run.json", doc)
        run, issues = load_run(run_dir)
        assert len(run.samples) == 1
        assert [i.message for i in issues] == ["duplicate sample a#0"]

    def test_run_id_mismatch_uses_run_json(self, tmp_path):
        run_dir = write_run(tmp_path / "r", [make_sample(run_id="other")])
        doc = json.loads((run_dir / "run.json").read_text())
        doc["run_id"] = "the-run"
        write_json(run_dir / "run.json", doc)
        run, issues = load_run(run_dir)
        assert run.samples[0].run_id == "the-run"
        assert run.samples[0].sample_id == "the-run/todo/0"
        assert [(i.field, i.severity) for i in issues] == [("run_id", "warning")]
        assert "'other' differs from run.json's 'the-run'" in str(issues[0])

    def test_bad_sample_entries(self, tmp_path):
        run_dir = write_run(tmp_path / "r", [make_sample(task="a")])
        doc = json.loads((run_dir / "run.json").read_text())
        doc["samples"] += ["samples/a/0", {"path": 5}, {}, {"path": "samples/\u0000/0"},
                           {"path": "s" * 300}]
        write_json(run_dir / "run.json", doc)
        run, issues = load_run(run_dir)
        assert [s.task for s in run.samples] == ["a"]
        by_field = {i.field: i.message for i in issues}
        assert by_field["samples[1]"] == "expected an object, got a string"
        assert by_field["samples[3].path"] == "missing"
        # regression: a NUL byte or an over-long name raised out of load_run
        assert by_field["samples[4].path"] == "not a usable path"
        assert by_field["samples[5].path"] == "not a usable path"
        # path 5 is read as the folder "5", which has no result.json
        assert any(i.message == "missing (listed in run.json)" and "/5/" in str(i.path)
                   for i in issues)

    def test_tasks(self, tmp_path):
        task_root = tmp_path / "tasks" / "repo" / "todo"
        (task_root / "tests").mkdir(parents=True)
        (task_root / "README.md").write_text("# Todo\nPOST /todos - Create\n")
        run_dir = write_run(tmp_path / "r", [make_sample()], tasks=[
            {"name": "todo", "language": "python", "framework": "flask", "port": 18080,
             "expected_tests": 12, "root": "../tasks/repo/todo",
             "endpoints": [{"method": "POST", "path": "/todos", "description": "Create"},
                           {"method": "GET"}, "junk"]},
            {"language": "python"},
            {"name": "nul-root", "root": "bad\u0000root"},
        ])
        run, issues = load_run(run_dir)
        todo = run.tasks["todo"]
        assert todo.root == task_root.resolve()
        assert todo.readme.startswith("# Todo")
        assert todo.tests_dir == task_root.resolve() / "tests"
        assert (todo.expected_tests, todo.port, todo.framework) == (12, 18080, "flask")
        assert [str(e) for e in todo.endpoints] == ["POST /todos"]
        assert run.tasks["nul-root"].root is None
        fields = [(i.field, i.severity) for i in issues]
        assert ("tasks[0].endpoints[1].path", "warning") in fields
        assert ("tasks[0].endpoints[2]", "warning") in fields
        assert ("tasks[1].name", "error") in fields
        assert ("tasks[2].root", "warning") in fields

    def test_expected_tests_default_from_task(self, tmp_path):
        s = make_sample(tests=TestSummary(passed=1, has_cases=True))
        run_dir = write_run(tmp_path / "r", [s], tasks=[{"name": "todo",
                                                         "expected_tests": 9}])
        run, _ = load_run(run_dir)
        assert run.samples[0].tests.expected == 9
        assert run.samples[0].tests.status is SuiteStatus.INCOMPLETE


# ----------------------------------------------------------------------------- parse_sample

class TestParseSample:
    def doc(self, **changes: object) -> dict:
        doc = json.loads(json.dumps(sample_to_json(make_sample(), Path("/x"))))
        doc.update(changes)
        return doc

    def parse(self, doc: dict) -> tuple[SampleResult, list]:
        issues: list = []
        return parse_sample(doc, Path("/x/result.json"), issues), issues

    @pytest.mark.parametrize("key", ["run_id", "task", "deployment", "tests",
                                     "format_version"])
    def test_required_fields(self, key):
        doc = self.doc()
        del doc[key]
        with pytest.raises(LoadError) as exc:
            self.parse(doc)
        assert str(exc.value) == f"/x/result.json: field '{key}': missing"

    def test_deployment_success_required(self):
        doc = self.doc()
        del doc["deployment"]["success"]
        with pytest.raises(LoadError, match="'deployment.success': missing"):
            self.parse(doc)

    def test_bad_case_is_skipped_with_warning(self):
        doc = self.doc()
        doc["tests"]["cases"][0]["outcome"] = "exploded"
        doc["tests"]["cases"][1] = "not a case"
        del doc["tests"]["cases"][2]["id"]
        s, issues = self.parse(doc)
        assert s.tests.cases == ()
        assert [(i.field, i.severity) for i in issues] == [
            ("tests.cases[0].outcome", "warning"), ("tests.cases[1]", "warning"),
            ("tests.cases[2].id", "warning")]
        assert "'exploded' is not one of: passed, failed, error, skipped" in str(issues[0])
        # counts still come from the counts, not the cases
        assert (s.tests.passed, s.tests.failed) == (2, 1)

    def test_bad_phase_and_enum_values(self):
        doc = self.doc()
        doc["deployment"]["phases"][0]["phase"] = "deploy"
        doc["deployment"]["phases"][1]["status"] = "weird"
        doc["deployment"]["failed_phase"] = "nope"
        s, issues = self.parse(doc)
        assert [p.phase for p in s.deployment.phases] == [Phase.START, Phase.HEALTH,
                                                          Phase.TESTS]
        assert s.deployment.phases[0].status is PhaseStatus.SKIPPED
        assert s.deployment.failed_phase is None
        assert [i.field for i in issues] == ["deployment.phases[0].phase",
                                             "deployment.phases[1].status",
                                             "deployment.failed_phase"]

    def test_logs_problems(self, tmp_path):
        doc = self.doc(logs={"install": "logs/install.log", "deploy": "x", "tests": 3,
                             "start": "bad\u0000name", "health": "h" * 300})
        issues: list = []
        s = parse_sample(doc, tmp_path / "result.json", issues)
        assert list(s.logs) == [Phase.INSTALL]
        assert s.logs[Phase.INSTALL] == tmp_path.resolve() / "logs" / "install.log"
        # regression: a NUL byte or an over-long name raised ValueError/OSError
        assert {i.field: i.message for i in issues} == {
            "logs.deploy": "unknown phase", "logs.tests": "expected a path",
            "logs.start": "not a usable path", "logs.health": "not a usable path"}

    def test_repo_path_problem(self):
        s, issues = self.parse(self.doc(repo={"path": "a\u0000b", "digest": "d"}))
        assert s.repo_path is None and s.repo_digest == "d"
        assert [(i.field, i.message) for i in issues] == [("repo.path", "not a usable path")]

    def test_api_coverage_counts_default_from_endpoints(self):
        doc = self.doc()
        del doc["api_coverage"]["total_apis"]
        del doc["api_coverage"]["implemented_apis"]
        doc["api_coverage"]["endpoints"].append({"method": "GET"})
        s, issues = self.parse(doc)
        assert s.api_coverage is not None
        assert (s.api_coverage.total_apis, s.api_coverage.implemented_apis) == (2, 1)
        assert [i.field for i in issues] == ["api_coverage.endpoints[2].path"]

    def test_absurd_expected_count(self):
        # regression: a 40-digit expected count crashed TestSummary.status (OverflowError)
        doc = self.doc()
        doc["tests"]["expected"] = 10 ** 40
        s, issues = self.parse(doc)
        assert [(i.field, i.message) for i in issues] == [("tests.expected",
                                                           "integer out of range")]
        assert s.tests.expected is None
        assert s.tests.status is SuiteStatus.RAN

    def test_notes_keep_only_strings(self):
        s, _ = self.parse(self.doc(notes=["a", 1, None, "b"]))
        assert s.notes == ("a", "b")
