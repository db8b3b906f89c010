"""Refusal tests read by the condition they exercise, not by the status code alone; suites that
produce no test item; fixtures crashing on a null the README allows.

Each case is a small task written in ``tmp_path`` (README excerpt + golden test as real suites
write them) and a sample whose failing case carries pytest's own message and traceback; the
triage engine reads them as it reads a real run.
"""

from __future__ import annotations

from pathlib import Path

from inspector.model import Outcome, SampleResult, TestCase, TestSummary
from inspector.model.benchmark.tasks import load_task
from inspector.model.failures.triage import TestSuggestion
from inspector.model.results.sample import Deployment
from inspector.services.triage.engine import TriageContext, triage_sample

REGISTER = """# Accounts service

- **Listening Port**: 8000
- **Base Path**: `/api/v1`

### 1. Register

**API Name**: `POST /api/v1/users/register`

**Input Schema**:
```json
{
  "username": "string (required, 3-20 characters)",
  "email": "string (required, valid email format)",
  "password": "string (required, 6-50 characters)"
}
```
{situations}
### 2. Get user

**API Name**: `GET /api/v1/users/{user_id}`
{get_situations}
**Output Schema**:
```json
{"user_id": "integer", "username": "string", "nickname": "string (optional)"}
```

## Errors

| Status | Meaning |
| ------ | ------- |
| 400 | Validation failed |
| 404 | Not Found |
"""


def _readme(situations: str = "", get_situations: str = "") -> str:
    return REGISTER.replace("{situations}", situations).replace("{get_situations}",
                                                                 get_situations)


def _task(tmp_path: Path, readme: str, files: dict[str, str]):  # type: ignore[no-untyped-def]
    root = tmp_path / "task"
    (root / "tests").mkdir(parents=True)
    (root / "README.md").write_text(readme)
    for rel, text in files.items():
        (root / rel).write_text(text)
    task = load_task(root, [])
    assert task is not None
    return task


def _triage(tmp_path: Path, readme: str, files: dict[str, str],
            cases: tuple[TestCase, ...]) -> list[TestSuggestion]:
    task = _task(tmp_path, readme, files)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "app.py").write_text("import fastapi\n")
    failed = sum(c.outcome is Outcome.FAILED for c in cases)
    errors = sum(c.outcome is Outcome.ERROR for c in cases)
    skipped = sum(c.outcome is Outcome.SKIPPED for c in cases)
    result = SampleResult("run", task.name, 0, "python", Deployment(True),
                          TestSummary(0, failed, errors, skipped, cases=cases, has_cases=True),
                          repo_path=repo)
    return list(triage_sample(result, TriageContext([], {task.name: task})).suggestions)


def _status_case(test_file: str, test: str, line: int, statement: str, expected: int,
                 actual: int) -> TestCase:
    message = (f"AssertionError: assert {actual} == {expected}\n +  where {actual} = "
               f"<Response [{actual}]>.status_code")
    traceback = (f"{test_file}:{line}: in {test}\n    {statement}\nE   AssertionError: assert "
                 f"{actual} == {expected}\nE    +  where {actual} = <Response [{actual}]>"
                 ".status_code")
    return TestCase(f"{test_file}::{test}", Outcome.FAILED, message=message, traceback=traceback,
                    file=test_file, line=line)


REQUESTS_SUITE = '''import requests

BASE_URL = "http://localhost:8000/api/v1"


def test_register_whitespace_username():
    payload = {"username": "   ", "email": "a@example.com", "password": "secret123"}
    resp = requests.post(f"{BASE_URL}/users/register", json=payload)
    assert resp.status_code == 400


def test_register_short_password():
    resp = requests.post(f"{BASE_URL}/users/register",
                         json={"username": "alice", "email": "a@example.com", "password": "123"})
    assert resp.status_code == 400


def test_register_rejected():
    resp = requests.post(f"{BASE_URL}/users/register", json=make_payload())
    assert resp.status_code == 400
'''


def test_a_global_status_listing_does_not_state_a_whitespace_condition(tmp_path: Path) -> None:
    """README: a global "400 — Validation failed" and "username: 3-20 characters"; the test
    sends a whitespace-only username and the service accepts it: the README never said it was
    invalid, so not the model's — quoting what it does constrain."""
    readme = _readme()
    case = _status_case("tests/test_users.py", "test_register_whitespace_username", 9,
                        "assert resp.status_code == 400", 400, 201)
    (s,) = _triage(tmp_path, readme, {"tests/test_users.py": REQUESTS_SUITE}, (case,))
    assert s.category == "not-model" and s.rule == "spec/condition-unstated"
    assert "username whitespace-only" in s.reason
    assert "README.md:13" in s.reason and "3-20 characters" in s.reason
    assert any(a.path == "README.md" and a.line == 13 for a in s.anchors)


def test_a_length_the_readme_states_is_the_models(tmp_path: Path) -> None:
    """The same README states "password: 6-50 characters"; a 3-character password accepted
    with 201 breaks it: the model's."""
    readme = _readme()
    case = _status_case("tests/test_users.py", "test_register_short_password", 15,
                        "assert resp.status_code == 400", 400, 201)
    (s,) = _triage(tmp_path, readme, {"tests/test_users.py": REQUESTS_SUITE}, (case,))
    assert s.category == "other" and s.rule == "spec/condition-stated"
    assert "password" in s.reason and "6-50 characters" in s.reason
    assert any(a.path == "README.md" and a.line == 15 for a in s.anchors)


def test_a_bare_status_listing_without_a_readable_condition_is_not_enough(tmp_path: Path
                                                                          ) -> None:
    """The request's body is built by a helper the reader cannot follow: the status listing
    alone no longer calls it the model's."""
    readme = _readme()
    case = _status_case("tests/test_users.py", "test_register_rejected", 20,
                        "assert resp.status_code == 400", 400, 201)
    (s,) = _triage(tmp_path, readme, {"tests/test_users.py": REQUESTS_SUITE}, (case,))
    assert s.category is None
    spec = next(r for r in s.competing if r.rule == "spec/readme-specified")
    assert spec.weight < 0.55


TESTCLIENT_SUITE = '''from fastapi.testclient import TestClient

from app import app

client = TestClient(app)


def test_get_unknown_user():
    response = client.get("/api/v1/users/99999")
    assert response.status_code == 404
'''


def test_a_per_endpoint_error_situation_states_the_condition(tmp_path: Path) -> None:
    """"Returns 404 if the user does not exist" in the endpoint's section; a TestClient call
    for id 99999 answered 200: the model's."""
    readme = _readme(get_situations="\nReturns `404` if the user does not exist.\n")
    case = _status_case("tests/test_get.py", "test_get_unknown_user", 10,
                        "assert response.status_code == 404", 404, 200)
    (s,) = _triage(tmp_path, readme, {"tests/test_get.py": TESTCLIENT_SUITE}, (case,))
    assert s.category == "other" and s.rule == "spec/condition-stated"
    assert "99999" in s.reason and "does not exist" in s.reason


FLASK_SUITE = '''import pytest

from app import create_app


@pytest.fixture
def client():
    app = create_app()
    app.config["TESTING"] = True
    return app.test_client()


def test_register_malformed_body(client):
    rv = client.post("/api/v1/users/register", data="{username: alice",
                     content_type="application/json")
    assert rv.status_code == 400
'''


def test_a_malformed_body_under_a_generic_bad_request(tmp_path: Path) -> None:
    """A Flask test client posting a body that is not JSON, where the README lists 400 only as
    "Validation failed": the README never states malformed bodies; it lists the code only."""
    readme = _readme()
    case = _status_case("tests/test_flask.py", "test_register_malformed_body", 16,
                        "assert rv.status_code == 400", 400, 500)
    (s,) = _triage(tmp_path, readme, {"tests/test_flask.py": FLASK_SUITE}, (case,))
    reading = next(r for r in s.competing if r.rule.startswith("spec/"))
    assert reading.rule == "spec/condition-unstated" and reading.category == "not-model"
    assert "malformed body" in reading.reason


NULL_CONFTEST = '''import pytest
import requests

BASE = "http://localhost:8000/api/v1"


@pytest.fixture
def user():
    r = requests.get(f"{BASE}/users/1")
    nick = r.json()["nickname"].lower()
    return nick
'''
NULL_TEST = '''def test_profile(user):
    assert user
'''


def test_a_fixture_crashing_on_a_null_the_readme_allows(tmp_path: Path) -> None:
    readme = _readme()
    tb = ("tests/conftest.py:10: in user\n    nick = r.json()[\"nickname\"].lower()\n"
          "E   AttributeError: 'NoneType' object has no attribute 'lower'")
    case = TestCase("tests/test_profile.py::test_profile", Outcome.ERROR,
                    message="AttributeError: 'NoneType' object has no attribute 'lower'",
                    traceback=tb, file="tests/test_profile.py", line=1)
    (s,) = _triage(tmp_path, readme, {"tests/conftest.py": NULL_CONFTEST,
                                      "tests/test_profile.py": NULL_TEST}, (case,))
    assert s.category == "not-model" and s.rule == "spec/readme-allows-null"
    assert "README.md:25" in s.reason and "nickname" in s.reason
    assert any(a.path == "tests/conftest.py" and a.line == 10 for a in s.anchors)


SCRIPT_SUITE = '''import requests


def check_health():
    assert requests.get("http://localhost:8000/health").status_code == 200


if __name__ == "__main__":
    check_health()
    print("ok")
'''
GATED_SUITE = '''import os

import pytest
import requests

pytestmark = pytest.mark.skipif(not os.getenv("RUN_E2E"), reason="set RUN_E2E to run")


def test_health():
    assert requests.get("http://localhost:8000/health").status_code == 200
'''


def test_a_script_style_suite_runs_no_test(tmp_path: Path) -> None:
    readme = _readme()
    suggestions = _triage(tmp_path, readme, {"tests/test_smoke.py": SCRIPT_SUITE}, ())
    s = next(x for x in suggestions if x.item.test_id is None)
    assert s.category == "not-model" and s.rule == "suite/no-collectable-test"
    assert "script-style" in s.reason and "tests/test_smoke.py" in s.reason


def test_every_test_skipped_by_an_environment_gate(tmp_path: Path) -> None:
    readme = _readme()
    case = TestCase("tests/test_e2e.py::test_health", Outcome.SKIPPED,
                    message="set RUN_E2E to run", file="tests/test_e2e.py", line=9)
    suggestions = _triage(tmp_path, readme, {"tests/test_e2e.py": GATED_SUITE}, (case,))
    s = next(x for x in suggestions if x.item.test_id is None)
    assert s.category == "not-model" and s.rule == "suite/skipped-by-gate"
    assert "RUN_E2E" in s.reason and "tests/test_e2e.py:6" in s.reason
    assert "never mentions RUN_E2E" in s.reason
