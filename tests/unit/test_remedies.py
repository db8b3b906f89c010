"""Causal re-runs without an engine: what cannot be tried is refused before anything is
deployed or written, and how an outcome is read against the recorded one."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from inspector.model import Outcome, TestCase
from inspector.model.failures.triage import (
    ADD_TASK_FILE,
    INSTALL_REPO_PACKAGE,
    INSTALL_TEST_PACKAGE,
    RUN_ALONE,
    RUN_AS_SCRIPT,
    TEST,
    FailureItem,
    Remedy,
    TestSuggestion,
)
from inspector.model.repo.requirement_sources import plain_requirement_problem
from inspector.services.deploy.choose import backend_factory, find_target
from inspector.services.deploy.warm import DeploymentPool, Target
from inspector.services.triage.remedies import (
    RemedyError,
    UnsupportedRemedy,
    confirm,
    confirm_suggestions,
    log_root_for,
)
from inspector.services.triage.remedy_outcome import RemedyRun, judge

RELAY = "repo_readme_1125_relay_open_coder-7b_Python"


@pytest.fixture
def copied(sample_runs: Path, tmp_path: Path) -> Target:
    root = tmp_path / "copy"
    shutil.copytree(sample_runs / "runs" / RELAY, root / "runs" / RELAY)
    shutil.copytree(sample_runs / "predictions" / RELAY, root / "predictions" / RELAY)
    shutil.copytree(sample_runs / "tasks", root / "tasks")
    return find_target(root / "runs", "Multilingual", 0, RELAY)


@pytest.fixture
def pool(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A pool whose local backend is not allowed: using it at all raises DeployError."""
    p = DeploymentPool(backend_factory(False), work_root=tmp_path / "reruns")
    yield p
    p.close()


@pytest.mark.parametrize("ok", ["pandas", "Babel>=2.12", "uvicorn[standard]==0.30.1",
                                "googletrans==4.0.0rc1"])
def test_plain_packages_are_accepted(ok: str) -> None:
    assert plain_requirement_problem([ok]) is None


@pytest.mark.parametrize("bad,why", [
    ("pandas numpy", "not a single package"), ("--index-url=https://evil", "an option"),
    ("git+https://example.com/x.git", "VCS link"), ("./vendor/pkg", "local path"),
    ("https://example.com/p.whl", "direct URL"), ("pandas; os_name == 'nt'", "not a single"),
    ("", "not a single"), ("pandas\n--extra-index-url=x", "not a single")])
def test_anything_else_is_refused_naming_the_package(bad: str, why: str) -> None:
    problem = plain_requirement_problem(["flask", bad])
    assert problem is not None and why in problem
    assert "configured package index" in problem


@pytest.mark.parametrize("remedy,said", [
    (Remedy(INSTALL_REPO_PACKAGE, "babel --index-url=https://evil"), "not a single package"),
    (Remedy(INSTALL_TEST_PACKAGE, "git+https://example.com/pandas"), "VCS link"),
    (Remedy(ADD_TASK_FILE, "../../etc/passwd"), "not a file of the task folder"),
    (Remedy(ADD_TASK_FILE, "tests/test_languages.py"), "copies tests/ already"),
    (Remedy(ADD_TASK_FILE, "pytest.ini"), "the task has no file pytest.ini"),
    (Remedy(RUN_ALONE, "test_no_such_test"), "no recorded test 'test_no_such_test'"),
    (Remedy(RUN_ALONE, "test_languages_format", ("tests/nope.py::x", "test_nothing")),
     "no recorded test 'test_nothing'"),
])
def test_a_remedy_that_cannot_be_tried_is_refused_before_anything_runs(
        copied: Target, pool: DeploymentPool, remedy: Remedy, said: str) -> None:
    run_dir = copied.recorded.source_file.parents[3]  # type: ignore[union-attr]
    with pytest.raises(RemedyError) as err:
        confirm(remedy, copied, pool, "local")  # local is not allowed: never reached
    assert said in str(err.value) and copied.key in str(err.value)
    assert not (run_dir / "remedies").exists(), "nothing written"
    assert not pool.list()


def test_run_as_script_is_not_tried(copied: Target, pool: DeploymentPool) -> None:
    with pytest.raises(UnsupportedRemedy, match="is not tried by a causal re-run"):
        confirm(Remedy(RUN_AS_SCRIPT, "tests/test_languages.py"), copied, pool, "local")


def test_suggestions_keep_what_cannot_be_tried_visible(copied: Target,
                                                       pool: DeploymentPool) -> None:
    item = FailureItem(copied.key, "tests/test_languages.py::test_languages_format", TEST)
    bad = TestSuggestion(item, "dependency", 0.8, "r", "why",
                         remedy=Remedy(INSTALL_REPO_PACKAGE, "file:///tmp/babel.whl"))
    script = replace(bad, remedy=Remedy(RUN_AS_SCRIPT, "tests/test_languages.py"))
    unknown = replace(bad, item=replace(item, sample="other/run/0"))
    out = confirm_suggestions([bad, script, unknown], {copied.key: copied}, pool, "local")
    c = out[0].confirmation
    assert c is not None and c.supports is None
    assert c.outcome.startswith("not tried: ") and "file:///tmp/babel.whl" in c.outcome
    assert out[1] is script and out[2] is unknown


def test_logs_go_under_the_run_folder_or_the_pool(copied: Target, pool: DeploymentPool
                                                  ) -> None:
    run_dir = copied.recorded.source_file.parents[3]  # type: ignore[union-attr]
    assert log_root_for(copied, pool) == run_dir / "remedies"
    loose = replace(copied, recorded=None)
    assert log_root_for(loose, pool) == pool.work_root / "remedies" / RELAY


# -- reading outcomes ------------------------------------------------------------------------

def _case(tid: str, outcome: Outcome, message: str = "", traceback: str = "") -> TestCase:
    return TestCase(tid, outcome, message=message, traceback=traceback,
                    file=tid.partition("::")[0])


def _collection_error(file: str, error: str) -> TestCase:
    return _case(file, Outcome.ERROR, "collection failure", f"E   {error}")


def test_files_that_still_do_not_collect_say_why() -> None:
    pandas = "ModuleNotFoundError: No module named 'pandas'"
    recorded = {f: _collection_error(f, pandas) for f in ("tests/a.py", "tests/b.py")}
    remedy = Remedy(INSTALL_TEST_PACKAGE, "pandas")
    same = RemedyRun(True, cases=[_collection_error("tests/a.py", pandas),
                                  _collection_error("tests/b.py", pandas)], tests_ran=True)
    v = judge(remedy, recorded, True, same)
    assert v.supports is False
    assert v.outcome == ("with pandas installed for the tests, the 2 test files still do not "
                         f"collect: {pandas}")
    other = "ModuleNotFoundError: No module named 'openpyxl'"
    half = RemedyRun(True, cases=[_case("tests/a.py::t1", Outcome.PASSED),
                                  _case("tests/a.py::t2", Outcome.FAILED, "assert 1 == 2"),
                                  _collection_error("tests/b.py", other)], tests_ran=True)
    v = judge(remedy, recorded, True, half)
    assert v.supports is True, "pandas's error is gone; another module is missing"
    assert v.outcome == ("with pandas installed for the tests, 1 of the 2 test files now "
                         f"collect (2 tests, 1 pass); tests/b.py still does not: {other}")
    assert (v.passed, v.failed, v.collected) == (1, 1, 2)


def test_a_test_alone_that_fails_differently_is_inconclusive() -> None:
    tid = "tests/t.py::test_x"
    recorded = {tid: _case(tid, Outcome.FAILED, "assert 409 == 201")}
    run = RemedyRun(True, cases=[_case(tid, Outcome.FAILED, "assert 500 == 201")],
                    tests_ran=True)
    v = judge(Remedy(RUN_ALONE, tid), recorded, True, run)
    assert v.supports is None
    assert v.outcome == ("run alone on a fresh deployment, test_x fails with a different "
                         "error: assert 500 == 201")
    run = RemedyRun(True, cases=[_case(tid, Outcome.FAILED, "assert 409 == 201")],
                    tests_ran=True)
    assert judge(Remedy(RUN_ALONE, tid), recorded, True, run).supports is False


def test_a_repo_package_that_does_not_install_or_start() -> None:
    remedy = Remedy(INSTALL_REPO_PACKAGE, "Babel")
    v = judge(remedy, {}, False, RemedyRun(False, "install", "pip install failed (exit 1)"))
    assert v.supports is None
    assert v.outcome == ("with Babel added to requirements.txt, the install fails: pip "
                         "install failed (exit 1)")
    v = judge(remedy, {}, False, RemedyRun(False, "start", "process exited with code 1 after "
                                           "0.2s", "ModuleNotFoundError: No module named 'x'"))
    assert v.supports is False
    assert v.outcome == ("with Babel added to requirements.txt, the service still does not "
                         "start: process exited with code 1 after 0.2s (ModuleNotFoundError: "
                         "No module named 'x')")
    stopped = RemedyRun(False, stopped="timed out after 60s")
    assert judge(remedy, {}, False, stopped).outcome == (
        "with Babel added to requirements.txt: the re-run timed out after 60s before it "
        "finished; nothing to compare")
