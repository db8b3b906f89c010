"""Per-test results from pytest's JUnit XML (``-o junit_family=xunit1``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.model import Outcome
from inspector.services.suite.junit import MAX_TEXT, parse_junit

FORGE = Path(__file__).resolve().parents[2] / "sample_runs" / "runs" / \
    "repo_readme_1118_forge_m1-large_Python" / "samples"

XUNIT1 = """<?xml version="1.0" encoding="utf-8"?>
<testsuites name="pytest tests"><testsuite name="pytest" errors="2" failures="1" skipped="1"
 tests="7" time="1.5">
<testcase classname="tests.test_api" name="test_ok" file="tests/test_api.py" line="9"
 time="0.010" />
<testcase classname="tests.test_api" name="test_bad" file="tests/test_api.py" line="19"
 time="0.200"><failure message="assert 404 == 200">tests/test_api.py:21: in test_bad
    assert r.status_code == 200
E   assert 404 == 200</failure><system-out>some output</system-out></testcase>
<testcase classname="tests.test_api.TestItems" name="test_list[param-1]"
 file="tests/test_api.py" line="30" time="0.001" />
<testcase classname="tests.test_api" name="test_skip" file="tests/test_api.py" line="40"
 time="0.000"><skipped type="pytest.skip" message="server unreachable">skip reason
</skipped></testcase>
<testcase classname="tests.test_api" name="test_setup_error" file="tests/test_api.py"
 line="50" time="0.003"><error message="failed on setup with &quot;ConnectionError&quot;">
E   requests.exceptions.ConnectionError</error></testcase>
<testcase classname="" name="tests.test_models" file="tests/test_models.py" time="0.000">
<error message="collection failure">ImportError while importing test module
E   ModuleNotFoundError: No module named 'app'</error></testcase>
<testcase classname="" name="tests.sub.test_x" time="0"><error message="collection failure">
E   SyntaxError</error></testcase>
</testsuite></testsuites>
"""


@pytest.fixture()
def parsed(tmp_path):
    path = tmp_path / "junit.xml"
    path.write_text(XUNIT1, encoding="utf-8")
    return parse_junit(path)


def test_ids_and_outcomes(parsed):
    cases, _ = parsed
    assert [(c.id, c.outcome) for c in cases] == [
        ("tests/test_api.py::test_ok", Outcome.PASSED),
        ("tests/test_api.py::test_bad", Outcome.FAILED),
        ("tests/test_api.py::TestItems::test_list[param-1]", Outcome.PASSED),
        ("tests/test_api.py::test_skip", Outcome.SKIPPED),
        ("tests/test_api.py::test_setup_error", Outcome.ERROR),
        # a collection error's id is pytest's own node id: the test file itself
        ("tests/test_models.py", Outcome.ERROR),
        # without a `file` attribute the dotted module name becomes the file path
        ("tests/sub/test_x.py", Outcome.ERROR),
    ]


def test_collection_errors_counted(parsed):
    cases, collection_errors = parsed
    # the setup error is an error but not a collection failure
    assert collection_errors == 2
    assert [c.id for c in cases if c.outcome.is_failure] == [
        "tests/test_api.py::test_bad", "tests/test_api.py::test_setup_error",
        "tests/test_models.py", "tests/sub/test_x.py"]


def test_failure_details(parsed):
    cases, _ = parsed
    bad = cases[1]
    assert bad.message == "assert 404 == 200"
    assert bad.traceback.endswith("E   assert 404 == 200")
    assert bad.first_message_line == "assert 404 == 200"
    assert bad.file == "tests/test_api.py"
    assert bad.line == 20  # JUnit lines are 0-based, ours 1-based
    assert bad.duration_seconds == 0.2
    skip = cases[3]
    assert skip.message == "server unreachable"
    collect = cases[5]
    assert collect.message == "collection failure"
    assert "No module named 'app'" in collect.traceback
    assert collect.file == "tests/test_models.py"
    assert collect.line is None
    assert cases[6].file == "tests/sub/test_x.py"
    assert cases[6].duration_seconds == 0.0


def test_odd_attributes(tmp_path):
    path = tmp_path / "j.xml"
    long = "x" * (MAX_TEXT + 100)
    path.write_text(
        '<testsuite><testcase classname="tests.test_a" name="t1" time="abc" line="\u00b2"/>'
        '<testcase classname="tests.test_a" name="t2" line="-1"/>'
        f'<testcase classname="tests.test_a" name="t3"><failure message="{long}">{long}'
        "</failure></testcase></testsuite>", encoding="utf-8")
    cases, errors = parse_junit(path)
    assert errors == 0
    assert [c.id for c in cases] == ["tests/test_a.py::t1", "tests/test_a.py::t2",
                                     "tests/test_a.py::t3"]
    assert cases[0].duration_seconds is None  # unparsable time
    assert cases[0].line is None  # regression: '²' passed isdigit() and crashed int()
    assert cases[1].line is None and cases[1].duration_seconds == 0.0
    assert len(cases[2].message) == len(cases[2].traceback) == MAX_TEXT


def test_empty_report(tmp_path):
    path = tmp_path / "j.xml"
    path.write_text('<testsuites><testsuite tests="0"/></testsuites>')
    assert parse_junit(path) == ([], 0)


@pytest.mark.parametrize("content", ["", "<testsuite>", "not xml at all", "\x00"])
def test_unreadable(tmp_path, content):
    path = tmp_path / "junit.xml"
    path.write_text(content)
    with pytest.raises(ValueError, match="unreadable JUnit XML") as exc:
        parse_junit(path)
    assert str(exc.value).startswith(f"{path}: ")


def test_missing_file(tmp_path):
    with pytest.raises(ValueError, match="unreadable JUnit XML"):
        parse_junit(tmp_path / "nope.xml")


def test_bundled_todo_service_junit():
    """The forge todo-service sample: 12 tests, 3 failures, as stored in its result.json."""
    cases, errors = parse_junit(FORGE / "todo-service" / "0" / "junit.xml")
    assert errors == 0
    assert len(cases) == 12
    failing = [c.id for c in cases if c.outcome.is_failure]
    assert failing == ["tests/test_todos.py::test_create_defaults",
                       "tests/test_todos.py::test_list_filter_completed",
                       "tests/test_todos.py::test_patch_completed"]
    stored = json.loads((FORGE / "todo-service" / "0" / "result.json").read_text())
    assert [c.id for c in cases] == [c["id"] for c in stored["tests"]["cases"]]
    assert cases[1].message == "KeyError: 'completed'"
    assert cases[1].line == 27


def test_bundled_collection_error_junit():
    cases, errors = parse_junit(FORGE / "quote-board" / "0" / "junit.xml")
    assert errors == 1
    stored = json.loads((FORGE / "quote-board" / "0" / "result.json").read_text())
    assert [c.id for c in cases] == [c["id"] for c in stored["tests"]["cases"]]
    assert [(c.id, c.outcome) for c in cases] == [
        ("tests/test_quote_model.py", Outcome.ERROR),
        ("tests/test_quotes_api.py::test_create_quote", Outcome.PASSED),
        ("tests/test_quotes_api.py::test_vote_increments", Outcome.PASSED),
        ("tests/test_quotes_api.py::test_list_sorted_by_votes", Outcome.PASSED),
        ("tests/test_quotes_api.py::test_random_quote", Outcome.PASSED),
    ]
    assert "No module named 'app.models'" in cases[0].traceback
