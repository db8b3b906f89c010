"""Black-box tests for the todo service."""
import uuid

import requests

TIMEOUT = 5


def _title():
    return f"todo-{uuid.uuid4().hex[:10]}"


def _create(base_url, **fields):
    payload = {"title": _title()}
    payload.update(fields)
    resp = requests.post(f"{base_url}/todos", json=payload, timeout=TIMEOUT)
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_health(base_url):
    resp = requests.get(f"{base_url}/health", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_create_defaults(base_url):
    todo = _create(base_url)
    assert isinstance(todo["id"], int)
    assert todo["completed"] is False
    assert todo["priority"] == "medium"


def test_create_with_priority(base_url):
    title = _title()
    todo = _create(base_url, title=title, priority="high")
    assert todo["title"] == title
    assert todo["priority"] == "high"


def test_create_bad_priority_is_400(base_url):
    resp = requests.post(
        f"{base_url}/todos", json={"title": _title(), "priority": "urgent"}, timeout=TIMEOUT
    )
    assert resp.status_code == 400
    assert "error" in resp.json()


def test_create_missing_title_is_400(base_url):
    resp = requests.post(f"{base_url}/todos", json={"priority": "low"}, timeout=TIMEOUT)
    assert resp.status_code == 400


def test_get_todo(base_url):
    created = _create(base_url, priority="low")
    resp = requests.get(f"{base_url}/todos/{created['id']}", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert resp.json()["title"] == created["title"]
    assert resp.json()["priority"] == "low"


def test_get_unknown_is_404(base_url):
    resp = requests.get(f"{base_url}/todos/987654321", timeout=TIMEOUT)
    assert resp.status_code == 404


def test_list_contains_created(base_url):
    created = _create(base_url)
    resp = requests.get(f"{base_url}/todos", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert created["id"] in [t["id"] for t in resp.json()]


def test_list_filter_completed(base_url):
    done = _create(base_url, completed=True)
    open_ = _create(base_url, completed=False)
    resp = requests.get(f"{base_url}/todos", params={"completed": "true"}, timeout=TIMEOUT)
    assert resp.status_code == 200
    ids = [t["id"] for t in resp.json()]
    assert done["id"] in ids
    assert open_["id"] not in ids


def test_patch_completed(base_url):
    created = _create(base_url)
    resp = requests.patch(
        f"{base_url}/todos/{created['id']}", json={"completed": True}, timeout=TIMEOUT
    )
    assert resp.status_code == 200
    assert resp.json()["completed"] is True
    assert resp.json()["title"] == created["title"]


def test_patch_bad_priority_is_400(base_url):
    created = _create(base_url)
    resp = requests.patch(
        f"{base_url}/todos/{created['id']}", json={"priority": "asap"}, timeout=TIMEOUT
    )
    assert resp.status_code == 400


def test_delete_todo(base_url):
    created = _create(base_url)
    resp = requests.delete(f"{base_url}/todos/{created['id']}", timeout=TIMEOUT)
    assert resp.status_code == 204
    assert requests.get(f"{base_url}/todos/{created['id']}", timeout=TIMEOUT).status_code == 404
