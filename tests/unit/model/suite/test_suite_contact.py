"""Whether a golden test can have reached the service, read from its source."""

from __future__ import annotations

from inspector.model.suite.contact import may_contact_service

SUITE = '''import os
import time
import requests
BASE = "http://localhost:8080"


def _register(name):
    return requests.post(f"{BASE}/register", json={"name": name})


def test_readme_present():
    path = os.path.join(os.path.dirname(__file__), "..", "README.md")
    assert os.path.exists(path), "README.md must exist"
    assert "Service" in open(path).read()


def test_swallows_its_connection_errors():
    def hammer(seconds=1):
        sent = 0
        end = time.time() + seconds
        while time.time() < end:
            try:
                requests.post(f"{BASE}/convert", json={}, timeout=1)
                sent += 1
            except Exception:
                time.sleep(0.1)
        return sent
    assert hammer() > 0, "Failed to send any requests"


def test_through_a_helper():
    assert _register("ann").status_code == 201


def test_with_a_client_fixture(client):
    assert client.get("/health").status_code == 200


def test_with_pytest_fixtures_only(tmp_path, monkeypatch):
    (tmp_path / "x").write_text("1")
    assert (tmp_path / "x").read_text() == "2"


class TestApi:
    def test_schema_file(self):
        assert os.path.isfile("schemas/user.json")

    def test_health(self):
        assert requests.get(BASE + "/health").ok

    def test_case(self, value=None):
        assert value is not None
'''


def test_a_test_that_makes_no_call_cannot_have_reached_the_service() -> None:
    assert may_contact_service(SUITE, "tests/test_x.py::test_readme_present") is False
    assert may_contact_service(SUITE, "tests/test_x.py::TestApi::test_schema_file") is False
    assert may_contact_service(SUITE, "tests/test_x.py::test_with_pytest_fixtures_only") is False


def test_a_request_anywhere_in_the_test_may_have() -> None:
    # a request inside a nested function whose errors the test swallows still counts
    assert may_contact_service(SUITE, "tests/test_x.py::test_swallows_its_connection_errors")
    assert may_contact_service(SUITE, "tests/test_x.py::TestApi::test_health")
    assert may_contact_service(SUITE, "tests/test_x.py::test_through_a_helper")
    assert may_contact_service(SUITE, "tests/test_x.py::test_with_a_client_fixture")


def test_unknown_when_the_test_or_source_cannot_be_read() -> None:
    assert may_contact_service(SUITE, "tests/test_x.py::test_missing") is None
    assert may_contact_service("def broken(:\n", "tests/test_x.py::test_a") is None
    assert may_contact_service(SUITE, "tests/test_x.py::TestApi::test_case[1]") is True
