"""What a failing test expected and what came back (:func:`expectation_of`).

Inputs are real: the failures recorded in ``sample_runs`` (the dev tasks UserManagement_2,
Multilingual and synapse of the three 1125 runs, and the synthetic tasks of the 1118/1119 runs)
read against the golden suites in ``sample_runs/tasks``, plus pytest's own output (short and long
``--tb``) captured from a small suite in ``tests/fixtures/failure_facts`` for shapes the corpus
lacks: multi-line asserts, fixtures, helpers, f-string URLs, ``in`` tuples, headers, thresholds,
lengths, types, unittest asserts, httpx, white-box repo frames.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from inspector.model.failures.assertion_reader import expectation_of
from inspector.model.failures.facts import (
    COMPARISON,
    CONNECTION,
    CONTAINS,
    EXCEPTION,
    HEADER,
    IN_FIXTURE,
    IN_HELPER,
    IN_LIBRARY,
    IN_REPO,
    IN_TEST,
    KEY,
    LENGTH,
    STATUS,
    TRUTH,
    TYPE,
    UNKNOWN,
    VALUE,
    Expectation,
)
from inspector.paths import sample_runs

RUNS = sample_runs() / "runs"
TASKS = sample_runs() / "tasks" / "repo"
CAPTURED = Path(__file__).resolve().parents[1] / "fixtures" / "failure_facts"
DEV_TASKS = ("UserManagement_2", "Multilingual", "synapse")
ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
RELAY = "repo_readme_1125_relay_open_coder-7b_Python"
FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY_SYN = "repo_readme_1119_relay_open_coder-7b_Python"


@cache
def suite_files(root: Path) -> dict[str, str]:
    """Every Python file of a golden suite, keyed by its path relative to the task."""
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(root.rglob("*.py"))}


def read(test_id: str, message: str, traceback: str, files: dict[str, str]) -> Expectation:
    test_file = test_id.split("::")[0]
    return expectation_of(test_id, message, traceback, files.get(test_file), test_file,
                          sources={k: v for k, v in files.items() if k != test_file})


@cache
def recorded(run: str, task: str) -> dict[str, dict[str, Any]]:
    data = json.loads((RUNS / run / "samples" / task / "0" / "result.json").read_text())
    return {c["id"]: c for c in data["tests"]["cases"] if c["outcome"] in ("failed", "error")}


def from_run(run: str, task: str, test_id: str) -> Expectation:
    case = recorded(run, task)[test_id]
    return read(test_id, case["message"], case["traceback"], suite_files(TASKS / task))


def check(e: Expectation, **want: Any) -> None:
    """``e`` has the wanted fields; ``request=(method, path, line[, body_keys])``."""
    req = want.pop("request", None)
    got = {k: getattr(e, k) for k in want}
    assert got == want, e
    if req is not None:
        assert e.request is not None, e
        r = e.request
        assert (r.method, r.path, r.line, r.body_keys)[:len(req)] == req, e


UM = "tests/test_user_api.py::TestUserAPI::"
EDGE = "tests/test_edge_cases.py::TestEdgeCases::"
SYN = "tests/test_api_contract.py::"
REGISTER = ("POST", "/api/v1/users/register")
USER_KEYS = ("username", "email", "password", "full_name")

DEV_CASES = [
    (ATLAS, "UserManagement_2", UM + "test_user_registration_success",
     dict(kind=STATUS, expected=201, actual=409, op="==", line=28, where=IN_TEST,
          json_path=None, request=(*REGISTER, 23, USER_KEYS))),
    (ATLAS, "UserManagement_2", UM + "test_get_user_info_success",
     dict(kind=VALUE, expected="Test User", actual="", json_path="data.full_name", line=139,
          request=("GET", "/api/v1/users/{}", 131, ()))),
    (ATLAS, "UserManagement_2", UM + "test_delete_user_success",  # the second request's status
     dict(kind=STATUS, expected=404, actual=401, line=227,
          request=("GET", "/api/v1/users/{}", 226))),
    (ATLAS, "UserManagement_2", EDGE + "test_unsupported_http_methods",
     dict(kind=STATUS, expected=405, actual=401, line=255,
          request=("GET", "/api/v1/users/register", 254))),
    (ATLAS, "UserManagement_2", EDGE + "test_update_user_info_duplicate_email",
     dict(kind=STATUS, expected=400, actual=409, line=202,
          request=("PUT", "/api/v1/users/{}", 200, ("email",)))),
    (ATLAS, "synapse", SYN + "test_readme_present_and_sections",
     dict(kind=CONTAINS, expected="Service Information", op="in", line=36, request=None,
          message="README should include section: Service Information")),
    (ATLAS, "synapse", SYN + "test_json_schemas_are_valid_json",
     dict(kind=TRUTH, expected=True, actual=[], line=45, where=IN_TEST,
          message="At least one JSON schema code block is required")),
    (ATLAS, "synapse", SYN + "test_message_contract_schemas_present",
     dict(kind=TRUTH, expected=True, actual=[], line=98, where=IN_HELPER,
          function="_load_schema_by_title", test_file="tests/test_api_contract.py")),
    (DASH, "Multilingual", "tests/test_translate.py::test_translate_english_to_chinese",
     dict(kind=STATUS, expected=200, actual=500, line=34, message="Expected 200, got 500",
          request=("POST", "/api/translate", 33, ("text", "source_lang", "target_lang")))),
    (DASH, "UserManagement_2", EDGE + "test_register_empty_request_body",
     dict(kind=CONTAINS, expected="required", actual="validation failed", json_path="message",
          op="in", line=16, request=(*REGISTER, 11, ()))),
    (DASH, "UserManagement_2", EDGE + "test_register_special_characters_in_username",
     dict(kind=STATUS, expected=(200, 400), actual=201, op="in", line=111,
          request=(*REGISTER, 106, ("username", "email", "password")))),
    (DASH, "UserManagement_2", EDGE + "test_get_user_info_nonexistent_user",
     dict(kind=KEY, expected="data", actual=None, json_path="data", exception="KeyError",
          line=146, statement='token = login_response.json()["data"]["access_token"]',
          request=("POST", "/api/v1/users/login", 142, ("username", "password")))),
    (DASH, "synapse", SYN + "test_readme_present_and_sections",
     dict(kind=TRUTH, expected=True, actual=False, line=25, message="README.md must exist")),
    (DASH, "synapse", SYN + "test_json_schemas_are_valid_json",
     dict(kind=EXCEPTION, exception="FileNotFoundError", line=42, where=IN_TEST, request=None)),
    (RELAY, "Multilingual", "tests/test_languages.py::test_languages_get_request",
     dict(kind=CONNECTION, actual="connection refused", line=27, where=IN_LIBRARY,
          function="test_languages_get_request", exception="requests.exceptions.ConnectionError",
          request=("GET", "/api/languages", 27, ()))),
    (RELAY, "Multilingual", "tests/test_localize.py::test_localize_missing_required_field",
     dict(kind=CONNECTION, line=108, request=("POST", "/api/localize", 108,
                                              ("datetime", "timezone")))),
    (RELAY, "UserManagement_2", EDGE + "test_register_empty_request_body",
     dict(kind=CONTAINS, expected="required", actual="invalid json body", json_path="message")),
]


@pytest.mark.parametrize(("run", "task", "test_id", "want"), DEV_CASES,
                         ids=[f"{c[0][17:22]}-{c[2].split('::')[-1]}" for c in DEV_CASES])
def test_dev_corpus_failures(run: str, task: str, test_id: str, want: dict[str, Any]) -> None:
    want = dict(want)
    if "request" in want and want["request"] is None:
        assert from_run(run, task, test_id).request is None
        del want["request"]
    check(from_run(run, task, test_id), **want)


def test_readme_section_check_keeps_what_came_back() -> None:
    e = from_run(ATLAS, "synapse", SYN + "test_readme_present_and_sections")
    assert isinstance(e.actual, str) and e.actual.startswith("# Synapse Message Service")


def test_every_dev_failure_is_read() -> None:
    """All 99 failures of the dev tasks: a kind, a line in the file the traceback names, and
    for status checks both codes and the request."""
    seen = 0
    for run in (ATLAS, DASH, RELAY):
        for task in DEV_TASKS:
            for test_id in recorded(run, task):
                e = from_run(run, task, test_id)
                seen += 1
                assert e.kind != UNKNOWN, (test_id, e)
                assert e.line and e.test_file and e.test_file.startswith("tests/"), (test_id, e)
                if e.kind == STATUS:
                    assert isinstance(e.actual, int) and e.request is not None, (test_id, e)
    assert seen == 99


SYN_CASES = [
    (FORGE, "todo-service", "tests/test_todos.py::test_create_defaults",  # body from a helper
     dict(kind=KEY, expected="completed", json_path="completed", line=30, exception="KeyError",
          request=("POST", "/todos", 16, ("title",)))),
    (FORGE, "todo-service", "tests/test_todos.py::test_patch_completed",
     dict(kind=KEY, expected="completed", json_path="completed", line=90,
          request=("PATCH", "/todos/{}", 86, ("completed",)))),
    (FORGE, "quote-board", "tests/test_quote_model.py",
     dict(kind=EXCEPTION, exception="ModuleNotFoundError", line=5, where=IN_TEST)),
    (RELAY_SYN, "quote-board", "tests/test_quote_model.py",  # raised importing the repo's app.py
     dict(kind=EXCEPTION, exception="ModuleNotFoundError", line=5, where=IN_REPO)),
    (RELAY_SYN, "notes-api", "tests/test_notes.py::test_list_contains_created_note",
     dict(kind=CONTAINS, expected=1, actual=[], json_path="[*].id", line=73,
          request=("GET", "/api/v1/notes", 70, ()))),
    (FORGE, "unit-converter", "tests/test_converter.py::test_celsius_to_fahrenheit",
     dict(kind=CONNECTION, line=9, where=IN_LIBRARY, function="_convert",
          request=("GET", "/convert", 9))),
    (RELAY_SYN, "unit-converter", "tests/test_converter.py::test_batch",
     dict(kind=STATUS, expected=200, actual=500, line=65,
          request=("POST", "/convert/batch", 64, ("items",)))),
    (RELAY_SYN, "inventory-api", "tests/test_inventory.py::test_reserve_insufficient_stock_is_409",
     dict(kind=STATUS, expected=200, actual=500, line=82,
          request=("POST", "/items/{}/reserve", 79, ("quantity",)))),
]


@pytest.mark.parametrize(("run", "task", "test_id", "want"), SYN_CASES,
                         ids=[f"{c[0][17:22]}-{c[2].split('::')[-1]}" for c in SYN_CASES])
def test_synthetic_task_failures(run: str, task: str, test_id: str, want: dict[str, Any]) -> None:
    check(from_run(run, task, test_id), **want)


# --------------------------------------------------------------------------- captured output

SHAPES = "tests/test_shapes.py::"
CAPTURED_CASES = [
    ("test_multiline_status",  # a three-line assert with its own message
     dict(kind=STATUS, expected=201, actual=409, line=16, message="unexpected 409",
          request=(*REGISTER, 12, ("username", "password")))),
    ("test_token_type_from_fixture",  # the response comes from a conftest fixture
     dict(kind=VALUE, expected="Bearer", actual="bearer", json_path="token_type", line=24,
          request=("POST", "/auth/login", 16, ("username", "password")))),
    ("test_profile_full_name",  # data = resp.json()["data"]; a static id in the f-string
     dict(kind=VALUE, expected="Test User", actual="", json_path="data.full_name", line=31,
          request=("GET", "/api/v1/users/7", 29))),
    ("test_profile_unknown_id",  # BASE_URL + "..." constants, an unknown id, an `in` tuple
     dict(kind=STATUS, expected=(404, 410), actual=200, op="in", line=37,
          request=("GET", "/api/v1/users/{}/profile", 36))),
    ("test_cors_header",
     dict(kind=HEADER, header="Access-Control-Allow-Origin",
          expected="Access-Control-Allow-Origin", op="in", line=42,
          request=("GET", "/health", 41))),
    ("test_content_type",
     dict(kind=HEADER, header="Content-Type", expected="application/json", actual="text/plain",
          op="==", line=47)),
    ("test_latency_threshold",
     dict(kind=COMPARISON, op="<", expected=500, actual=900, json_path="elapsed_ms", line=52,
          request=("GET", "/api/v1/stats", 51))),
    ("test_rate_threshold_flipped",  # `0.5 <= x` read as `x >= 0.5`
     dict(kind=COMPARISON, op=">=", expected=0.5, actual=0.2, json_path="rate", line=57)),
    ("test_items_length",
     dict(kind=LENGTH, expected=3, actual=2, json_path="items", line=62)),
    ("test_id_is_string",
     dict(kind=TYPE, expected="str", actual="int", json_path="data.user_id", line=67)),
    ("test_token_from_helper",  # KeyError in a helper; the response is the caller's argument
     dict(kind=KEY, expected="token", json_path="token", line=11, where=IN_HELPER,
          test_file="tests/helpers.py", function="token_of", request=("POST", "/auth/login", 71))),
    ("test_name_error_in_test",
     dict(kind=EXCEPTION, exception="NameError", where=IN_TEST, line=78)),
    ("test_not_json",  # raised inside requests while decoding the body
     dict(kind=EXCEPTION, exception="requests.exceptions.JSONDecodeError", where=IN_LIBRARY,
          line=82, request=("GET", "/text", 82))),
    ("test_session_request_status",  # session.request("POST", ...) with a dict(...) body
     dict(kind=STATUS, expected=201, actual=409, line=91,
          request=(*REGISTER, 90, ("username", "password")))),
    ("test_message_alternatives",  # `a in m or b in m`: any of them
     dict(kind=CONTAINS, expected=("duplicate", "already"), actual="username exists",
          json_path="message", line=97)),
    ("test_success_flag",
     dict(kind=VALUE, expected=True, actual=False, op="is", json_path="success", line=102)),
    ("test_password_not_echoed",
     dict(kind=KEY, expected="full_name", json_path="data.full_name", negated=True,
          op="not in", exception=None, line=107)),
    ("test_helper_status",  # a helper module pytest does not rewrite: only "Expected X, got Y"
     dict(kind=STATUS, expected=201, actual=409, line=6, where=IN_HELPER, function="register",
          test_file="tests/helpers.py", request=(*REGISTER, 5, ("username", "password")))),
    ("test_fixture_fails",  # pytest.fail in a conftest fixture, after its request
     dict(kind=EXCEPTION, exception="Failed", where=IN_FIXTURE, function="auth_token", line=25,
          test_file="tests/conftest.py", message="Failed to register the test user",
          request=(*REGISTER, 21, ("username", "password")))),
    ("test_httpx_connect_refused",
     dict(kind=CONNECTION, actual="connection refused", exception="httpx.ConnectError",
          where=IN_LIBRARY, line=119, request=("GET", "/health", 119))),
    ("test_required_field[email]",  # parametrized; the body key is not a literal
     dict(kind=STATUS, expected=400, actual=409, function="test_required_field", line=126,
          request=(*REGISTER, 125, ()))),
]


@cache
def captured(style: str) -> dict[str, dict[str, str]]:
    return json.loads((CAPTURED / f"{style}.json").read_text(encoding="utf-8"))


def from_capture(style: str, test_id: str, files: dict[str, str] | None = None) -> Expectation:
    case = captured(style)[test_id]
    return read(test_id, case["message"], case["traceback"],
                suite_files(CAPTURED / "suite") if files is None else files)


@pytest.mark.parametrize("style", ["short", "long"])
@pytest.mark.parametrize(("name", "want"), CAPTURED_CASES, ids=[c[0] for c in CAPTURED_CASES])
def test_captured_pytest_output(style: str, name: str, want: dict[str, Any]) -> None:
    check(from_capture(style, SHAPES + name), **{"test_file": "tests/test_shapes.py",
                                                 "where": IN_TEST, **want})


def test_unittest_assert_equal() -> None:
    e = from_capture("short", "tests/test_unittest_style.py::RegisterTest::test_register")
    check(e, kind=STATUS, expected=201, actual=409, line=11, request=(*REGISTER, 10, ("username",)))


def test_white_box_failure_in_the_repo() -> None:
    e = from_capture("long", "tests/test_whitebox.py::test_ratio_of_empty_list")
    check(e, kind=EXCEPTION, exception="ZeroDivisionError", where=IN_REPO, line=5,
          function="test_ratio_of_empty_list", request=None)


def test_without_a_traceback_the_matching_assert_is_found() -> None:
    case = captured("short")[SHAPES + "test_profile_full_name"]
    files = suite_files(CAPTURED / "suite")
    e = read(SHAPES + "test_profile_full_name", case["message"], "", files)
    check(e, kind=VALUE, expected="Test User", json_path="data.full_name", line=31,
          request=("GET", "/api/v1/users/7", 29))


def test_without_the_source_the_shown_lines_are_read() -> None:
    e = from_capture("long", SHAPES + "test_multiline_status", files={})
    check(e, kind=STATUS, expected=201, actual=409, line=16, function="test_multiline_status",
          request=None)
    assert e.statement.startswith("assert r.status_code == 201")
    e = from_capture("short", SHAPES + "test_fixture_fails", files={})
    check(e, kind=EXCEPTION, where=IN_FIXTURE, test_file="tests/conftest.py", line=25)


# --------------------------------------------------------------------------- hand-written output

def test_key_error_in_a_real_conftest_fixture() -> None:
    """UserManagement_2's ``auth_token`` fixture; its URL base is an environment default."""
    tb = ("tests/conftest.py:73: in auth_token\n"
          '    return response.json()["data"]["access_token"]\n'
          "           ^^^^^^^^^^^^^^^^^^^^^^^^\n"
          "E   KeyError: 'data'")
    files = suite_files(TASKS / "UserManagement_2")
    e = read(UM + "test_get_user_info_success", "KeyError: 'data'", tb, files)
    check(e, kind=KEY, expected="data", json_path="data", where=IN_FIXTURE, line=73,
          function="auth_token", test_file="tests/conftest.py",
          request=("POST", "/api/v1/users/login", 71, ("username", "password")))
    assert e.request is not None and e.request.file == "tests/conftest.py"


def test_test_client_and_a_response_text_message() -> None:
    source = ('from fastapi.testclient import TestClient\n'
              'from app.main import app\n\n'
              'client = TestClient(app)\n\n\n'
              'def test_create_todo():\n'
              '    payload = {"title": "x", "done": False}\n'
              '    resp = client.post("/todos", json=payload)\n'
              '    assert resp.status_code == 201, resp.text\n')
    message = ('AssertionError: {"detail":"Not Found"}\nassert 404 == 201\n'
               ' +  where 404 = <Response [404 Not Found]>.status_code')
    tb = ("tests/test_todo.py:10: in test_create_todo\n"
          "    assert resp.status_code == 201, resp.text\n"
          'E   AssertionError: {"detail":"Not Found"}\n'
          "E   assert 404 == 201\n"
          "E    +  where 404 = <Response [404 Not Found]>.status_code")
    e = expectation_of("tests/test_todo.py::test_create_todo", message, tb, source,
                       "tests/test_todo.py")
    check(e, kind=STATUS, expected=201, actual=404, line=10, message='{"detail":"Not Found"}',
          request=("POST", "/todos", 9, ("title", "done")))


def test_a_message_only_failure_without_any_frame() -> None:
    e = expectation_of("tests/t.py::test_x", "AssertionError: expected status 200 but got 503",
                       "", None)
    check(e, kind=STATUS, expected=200, actual=503, line=None, function="test_x")


ODD = [
    ("", "", None),
    ("\x00\xff" * 500, "(((" * 300, "def ("),
    ("assert " + "[" * 5000, "t.py:1: in t\n    assert x\nE   assert " + "[" * 5000,
     "def t():\n    assert x\n"),
    ("KeyError", "E   KeyError", "x = (" * 150 + ")" * 150),
    ("E" * 300_000, "tests/t.py:99999999999: in t\n" * 20_000, "a = 1\n" * 50_000),
    ("assert 1 == 2", "tests/t.py:3: in t\n    assert a == b\nE   assert 1 == 2",
     "def t():\n\n    assert a == b\n"),
]


@pytest.mark.parametrize(("message", "traceback", "source"), ODD,
                         ids=["empty", "binary", "deep-repr", "deep-source", "huge", "mismatch"])
def test_odd_input_never_raises(message: str, traceback: str, source: str | None) -> None:
    e = expectation_of("tests/t.py::t", message, traceback, source, "tests/t.py")
    assert isinstance(e, Expectation)
    assert e.kind in (UNKNOWN, TRUTH, VALUE, EXCEPTION, KEY)


STATUS_SOURCE = '''from http import HTTPStatus

from fastapi import status


def test_create(client):
    r = client.post("/items", json={"name": "x"})
    assert r.status_code == HTTPStatus.CREATED


def test_delete(client):
    r = client.delete("/items/1")
    assert r.status_code == status.HTTP_204_NO_CONTENT
'''


def test_status_constants_are_read_as_codes() -> None:
    e = expectation_of(
        "tests/test_items.py::test_create",
        "assert 409 == <HTTPStatus.CREATED: 201>\n"
        " +  where 409 = <Response [409 Conflict]>.status_code",
        "tests/test_items.py:8: in test_create\n"
        "    assert r.status_code == HTTPStatus.CREATED\n"
        "E   assert 409 == <HTTPStatus.CREATED: 201>\n"
        "E    +  where 409 = <Response [409 Conflict]>.status_code",
        STATUS_SOURCE, "tests/test_items.py")
    check(e, kind=STATUS, expected=201, actual=409, request=("POST", "/items", 7, ("name",)))
    # a plain AssertionError (assertion rewriting off): the code comes from the constant's name
    e = expectation_of("tests/test_items.py::test_delete", "AssertionError",
                       "tests/test_items.py:13: in test_delete\n"
                       "    assert r.status_code == status.HTTP_204_NO_CONTENT\n"
                       "E   AssertionError", STATUS_SOURCE, "tests/test_items.py")
    check(e, kind=STATUS, expected=204, actual=None, line=13,
          request=("DELETE", "/items/1", 12))
