"""The condition a refusal test exercises (from the request a real suite builds) and whether a
README states it (field rules, prose constraints, per-endpoint error situations)."""

from __future__ import annotations

from inspector.model.failures import conditions as fc
from inspector.model.failures.facts import STATUS, Expectation, RequestFact
from inspector.model.readme import conditions as rc
from inspector.model.readme.contract import ReadmeContract

EVENTS = """# Events API

## Endpoints

### POST /api/events

Create an event.

| Field | Type | Required | Notes |
| ----- | ---- | -------- | ----- |
| title | string | yes | 1-80 characters |
| start_date | string | yes | YYYY-MM-DD |
| end_date | string | yes | YYYY-MM-DD; must be after `start_date` |
| organizer | string | yes | must be unique |

Returns `409` when an event with the same title already exists.

### GET /api/events

List events. Query parameters:

- `page_size`: integer (optional, 1-100, default 20)
- `status`: string (optional, one of "draft", "published")

## Errors

- 400 Bad Request — invalid input
- 422 Unprocessable Entity — validation failed
"""

HTTPX_SUITE = '''import httpx
import pytest

BASE = "http://127.0.0.1:8000"


@pytest.mark.parametrize("title", ["", "   ", "x" * 81])
def test_create_rejects_bad_title(title):
    body = {"title": title, "start_date": "2024-05-01", "end_date": "2024-05-02",
            "organizer": "ann"}
    r = httpx.post(f"{BASE}/api/events", json=body)
    assert r.status_code == 422


def test_backwards_range():
    event = {"title": "t", "start_date": "2024-06-10", "end_date": "2024-06-01",
             "organizer": "bob"}
    event.pop("organizer")
    r = httpx.post(BASE + "/api/events", json=event)
    assert r.status_code == 400


def test_page_size_too_large():
    r = httpx.get(f"{BASE}/api/events?page_size=500")
    assert r.status_code == 422


def test_no_token():
    r = httpx.get(f"{BASE}/api/events", params={"status": "draft"})
    assert r.status_code == 401
'''


def _exp(line: int, method: str, path: str, expected: int) -> Expectation:
    return Expectation(STATUS, expected, 200, request=RequestFact(method, path, line,
                                                                  file="tests/test_events.py"),
                       test_file="tests/test_events.py", line=line + 1)


def _judge(exp: Expectation, test_id: str) -> list[rc.Finding]:
    contract = ReadmeContract.parse(EVENTS)
    sent = fc.sent_request(exp, {"tests/test_events.py": HTTPX_SUITE}, test_id)
    conditions = fc.conditions_of(exp, sent, test_id)
    ep = contract.endpoint_for(exp.request.method, exp.request.path) if exp.request else None
    return rc.judge(conditions, sent, contract, ep)


def test_a_parametrized_whitespace_title_is_not_stated_by_a_length() -> None:
    """'1-80 characters' says nothing of '   ' (three characters)."""
    (f,) = _judge(_exp(11, "POST", "/api/events", 422),
                  "tests/test_events.py::test_create_rejects_bad_title[   ]")
    assert (f.condition.kind, f.condition.field, f.stated) == (fc.WHITESPACE, "title", False)
    assert "README.md:11" in f.why and "1-80 characters" in f.why


def test_parametrized_empty_and_over_long_titles_break_the_stated_length() -> None:
    empty = _judge(_exp(11, "POST", "/api/events", 422),
                   "tests/test_events.py::test_create_rejects_bad_title[]")
    assert any(f.stated and f.condition.kind in (fc.EMPTY, fc.TOO_SHORT) for f in empty)
    long_ = _judge(_exp(11, "POST", "/api/events", 422),
                   "tests/test_events.py::test_create_rejects_bad_title[" + "x" * 81 + "]")
    assert [(f.condition.kind, f.stated) for f in long_] == [(fc.TOO_LONG, True)]


def test_a_backwards_range_and_a_popped_required_field_are_stated() -> None:
    found = _judge(_exp(19, "POST", "/api/events", 400),
                   "tests/test_events.py::test_backwards_range")
    kinds = {f.condition.kind: f for f in found}
    assert kinds[fc.MISSING].condition.field == "organizer" and kinds[fc.MISSING].stated
    assert kinds[fc.ORDER].stated and "README.md:13" in kinds[fc.ORDER].why


def test_a_query_value_over_the_documented_range() -> None:
    (f,) = _judge(_exp(24, "GET", "/api/events", 422),
                  "tests/test_events.py::test_page_size_too_large")
    assert (f.condition.kind, f.condition.field, f.stated) == (fc.ABOVE, "page_size", True)
    assert "100" in f.why


def test_no_token_on_an_endpoint_the_readme_never_protects() -> None:
    (f,) = _judge(_exp(29, "GET", "/api/events", 401), "tests/test_events.py::test_no_token")
    assert (f.condition.kind, f.stated) == (fc.UNAUTHORISED, False)


def test_rules_and_situations_read_from_the_readme() -> None:
    contract = ReadmeContract.parse(EVENTS)
    ep = contract.endpoint_for("POST", "/api/events")
    rules = rc.field_rules(contract, ep)
    assert (rules["title"].min_len, rules["title"].max_len) == (1, 80)
    assert rules["organizer"].unique and rules["start_date"].formats == ("date",)
    situations = rc.error_situations(contract, ep)
    own = [s for s in situations if s.endpoint]
    assert [(s.code, s.mention.line) for s in own] == [("409", 16)]
    # the global "400 Bad Request — invalid input" states no condition of its own
    dup = fc.Condition(fc.DUPLICATE, None, None, "", "request")
    whitespace = fc.Condition(fc.WHITESPACE, None, None, "", "name")
    assert [rc._situation_states(s, dup) for s in own] == [True]
    assert not any(rc._situation_states(s, whitespace) for s in situations)
