"""A crash in the service's log explains only the tests that saw the service fail: a test the
service answered with a definite 4xx, or with a text of its own, failed for another reason;
and a test that never contacted a service that never came up is not explained by its failed
start. Real-shaped inputs: a passlib/bcrypt crash in the service log, requests-based tests."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from inspector.model import Task
from inspector.model.results.outcomes import Phase
from inspector.services.triage.engine import TriageContext, triage_sample
from tests.unit.triage.test_dependency_rules import PIP
from tests.unit.triage.test_label_suggest import LIB, REPO_PREFIX, case, sample

SUITE = '''import os
import requests
BASE = "http://localhost:8080/api/v1"


def test_register_success():
    r = requests.post(f"{BASE}/users/register", json={"username": "ann", "password": "pw12345"})
    assert r.status_code == 201


def test_invalid_url_path():
    r = requests.post(f"{BASE}/users/invalid")
    assert r.status_code == 404


def test_empty_body_message():
    r = requests.post(f"{BASE}/users/register", json={})
    assert "required" in r.json()["message"].lower()


def test_sends_something():
    sent = 0
    for _ in range(3):
        try:
            requests.post(f"{BASE}/users/register", json={}, timeout=1)
            sent += 1
        except Exception:
            pass
    assert sent > 0, "Failed to send any requests"


def test_readme_present():
    assert os.path.exists(os.path.join(os.path.dirname(__file__), "..", "README.md"))
'''

README = """# Users
## POST /api/v1/users/register
Body: username (string), password (string). Returns 201 with the user.
"""

CRASH = ["Traceback (most recent call last):",
         f'  File "{REPO_PREFIX}/auth.py", line 9, in hash_password',
         "    return pwd_context.hash(password)",
         f'  File "{LIB}/passlib/handlers/bcrypt.py", line 655, in _calc_checksum',
         "    hash = _bcrypt.hashpw(secret, config)",
         "ValueError: password cannot be longer than 72 bytes, truncate manually if necessary "
         "(e.g. my_password[:72])"]
REPO = {"auth.py": "from passlib.context import CryptContext\n\n"
                   "pwd_context = CryptContext(schemes=['bcrypt'])\n",
        "requirements.txt": "fastapi\npasslib[bcrypt]==1.7.4\n"}
INSTALL = [PIP, ("out", "Successfully installed bcrypt-5.0.0 passlib-1.7.4")]


def _status(test: str, line: int, statement: str, got: int, want: int):  # type: ignore[no-untyped-def]
    return case(f"tests/test_api.py::{test}", f"assert {got} == {want}",
                f"tests/test_api.py:{line}: in {test}\n    {statement}\nE   assert {got} == {want}"
                f"\nE    +  where {got} = <Response [{got}]>.status_code")


CASES = (
    _status("test_register_success", 8, "assert r.status_code == 201", 500, 201),
    _status("test_invalid_url_path", 13, "assert r.status_code == 404", 405, 404),
    case("tests/test_api.py::test_empty_body_message",
         "AssertionError: assert 'required' in 'validation error'",
         "tests/test_api.py:18: in test_empty_body_message\n"
         "    assert \"required\" in r.json()[\"message\"].lower()\n"
         "E   AssertionError: assert 'required' in 'validation error'"),
)


def _triage(tmp_path: Path, *, up: bool = True, cases=CASES, start=None):  # type: ignore[no-untyped-def]
    task_root = tmp_path / "task"
    (task_root / "tests").mkdir(parents=True)
    (task_root / "README.md").write_text(README)
    (task_root / "tests" / "test_api.py").write_text(SUITE)
    task = Task("task", "python", "fastapi", 8080, README, task_root, task_root / "tests")
    logs = {Phase.INSTALL: INSTALL, Phase.START: start or [("meta", "$ bash start.sh"), *CRASH]}
    s = sample(tmp_path, logs=logs, repo=REPO, cases=cases, success=up,
               failed_phase=None if up else Phase.START)
    s = replace(s, task="task")
    return triage_sample(s, TriageContext([], {"task": task}))


def _rules(triage, test: str) -> set[str]:  # type: ignore[no-untyped-def]
    s = triage.for_item(f"run/task/0::tests/test_api.py::{test}")
    assert s is not None
    return {r.rule for r in s.competing}


def test_the_crash_explains_the_test_that_got_500(tmp_path: Path) -> None:
    got = _rules(_triage(tmp_path), "test_register_success")
    assert "evidence/major-version-mismatch" in got


def test_the_crash_does_not_explain_a_definite_4xx(tmp_path: Path) -> None:
    got = _rules(_triage(tmp_path), "test_invalid_url_path")
    assert not any(r.startswith("evidence/") for r in got)


def test_the_crash_does_not_explain_a_message_the_service_wrote(tmp_path: Path) -> None:
    got = _rules(_triage(tmp_path), "test_empty_body_message")
    assert not any(r.startswith("evidence/") for r in got)


def test_a_failed_start_does_not_explain_a_test_that_needs_no_service(tmp_path: Path) -> None:
    start = [("meta", "$ bash start.sh"), "Traceback (most recent call last):",
             f'  File "{REPO_PREFIX}/main.py", line 3, in <module>',
             "    from auth import hash_password",
             "ImportError: cannot import name 'hash_password' from 'auth' "
             f"({REPO_PREFIX}/auth.py)"]
    readme_test = case("tests/test_api.py::test_readme_present", "assert False",
                       "tests/test_api.py:33: in test_readme_present\n    assert os.path.exists("
                       "os.path.join(os.path.dirname(__file__), \"..\", \"README.md\"))\n"
                       "E   assert False")
    connection = case("tests/test_api.py::test_invalid_url_path",
                      "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', "
                      "port=8080): Max retries exceeded",
                      "tests/test_api.py:12: in test_invalid_url_path\n"
                      "    r = requests.post(f\"{BASE}/users/invalid\")\n"
                      "E   requests.exceptions.ConnectionError: HTTPConnectionPool(host="
                      "'localhost', port=8080): Max retries exceeded")
    swallowed = case("tests/test_api.py::test_sends_something",
                     "AssertionError: Failed to send any requests\nassert 0 > 0",
                     "tests/test_api.py:29: in test_sends_something\n"
                     "    assert sent > 0, \"Failed to send any requests\"\n"
                     "E   AssertionError: Failed to send any requests")
    triage = _triage(tmp_path, up=False, cases=(readme_test, connection, swallowed),
                     start=start)
    assert not any(r.startswith("evidence/") for r in _rules(triage, "test_readme_present"))
    # a test that swallowed its connection errors did try to reach it: the start explains it
    assert "evidence/repo-name-missing" in _rules(triage, "test_sends_something")
    # the test that could not connect is the failed start's (a follower of the sample's root)
    follower = triage.for_item("run/task/0::tests/test_api.py::test_invalid_url_path")
    assert follower is not None and follower.root == "run/task/0"
