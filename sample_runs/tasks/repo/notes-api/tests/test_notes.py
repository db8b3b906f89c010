"""Black-box tests for the Notes API."""
import uuid

import requests

TIMEOUT = 5


def _unique(prefix="note"):
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def _create(base_url, **fields):
    payload = {"title": _unique()}
    payload.update(fields)
    resp = requests.post(f"{base_url}/api/v1/notes", json=payload, timeout=TIMEOUT)
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_health(base_url):
    resp = requests.get(f"{base_url}/health", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_create_note_returns_full_note(base_url):
    title = _unique()
    resp = requests.post(
        f"{base_url}/api/v1/notes",
        json={"title": title, "body": "hello", "tags": ["a", "b"]},
        timeout=TIMEOUT,
    )
    assert resp.status_code == 201
    note = resp.json()
    assert isinstance(note["id"], int)
    assert note["title"] == title
    assert note["body"] == "hello"
    assert note["tags"] == ["a", "b"]
    assert isinstance(note["created_at"], str) and note["created_at"]


def test_create_note_defaults(base_url):
    note = _create(base_url)
    assert note["body"] == ""
    assert note["tags"] == []


def test_create_note_missing_title_is_422(base_url):
    resp = requests.post(f"{base_url}/api/v1/notes", json={"body": "no title"}, timeout=TIMEOUT)
    assert resp.status_code == 422


def test_get_note_by_id(base_url):
    created = _create(base_url, body="read me")
    resp = requests.get(f"{base_url}/api/v1/notes/{created['id']}", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert resp.json()["title"] == created["title"]
    assert resp.json()["body"] == "read me"


def test_get_unknown_note_is_404(base_url):
    resp = requests.get(f"{base_url}/api/v1/notes/987654321", timeout=TIMEOUT)
    assert resp.status_code == 404
    assert "detail" in resp.json()


def test_list_contains_created_note(base_url):
    created = _create(base_url)
    resp = requests.get(f"{base_url}/api/v1/notes", timeout=TIMEOUT)
    assert resp.status_code == 200
    ids = [n["id"] for n in resp.json()]
    assert created["id"] in ids


def test_list_filter_by_tag(base_url):
    tag = _unique("tag")
    tagged = _create(base_url, tags=[tag])
    other = _create(base_url, tags=["unrelated"])
    resp = requests.get(f"{base_url}/api/v1/notes", params={"tag": tag}, timeout=TIMEOUT)
    assert resp.status_code == 200
    ids = [n["id"] for n in resp.json()]
    assert tagged["id"] in ids
    assert other["id"] not in ids


def test_update_note_partial(base_url):
    created = _create(base_url, body="old body", tags=["keep"])
    resp = requests.put(
        f"{base_url}/api/v1/notes/{created['id']}", json={"body": "new body"}, timeout=TIMEOUT
    )
    assert resp.status_code == 200
    note = resp.json()
    assert note["body"] == "new body"
    assert note["title"] == created["title"]
    assert note["tags"] == ["keep"]
    again = requests.get(f"{base_url}/api/v1/notes/{created['id']}", timeout=TIMEOUT)
    assert again.json()["body"] == "new body"


def test_delete_note(base_url):
    created = _create(base_url)
    resp = requests.delete(f"{base_url}/api/v1/notes/{created['id']}", timeout=TIMEOUT)
    assert resp.status_code == 204
    after = requests.get(f"{base_url}/api/v1/notes/{created['id']}", timeout=TIMEOUT)
    assert after.status_code == 404
