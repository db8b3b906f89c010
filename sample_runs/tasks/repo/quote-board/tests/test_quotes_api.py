"""Black-box tests for the quote board HTTP API."""
import uuid

import requests

TIMEOUT = 5


def _create(base_url, text=None, author="Anonymous"):
    text = text or f"quote {uuid.uuid4().hex}"
    resp = requests.post(
        f"{base_url}/quotes", json={"text": text, "author": author}, timeout=TIMEOUT
    )
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_create_quote(base_url):
    text = f"Simple is better than complex {uuid.uuid4().hex}"
    quote = _create(base_url, text=text, author="Tim Peters")
    assert isinstance(quote["id"], int)
    assert quote["text"] == text
    assert quote["author"] == "Tim Peters"
    assert quote["votes"] == 0


def test_vote_increments(base_url):
    quote = _create(base_url)
    first = requests.post(f"{base_url}/quotes/{quote['id']}/vote", timeout=TIMEOUT)
    second = requests.post(f"{base_url}/quotes/{quote['id']}/vote", timeout=TIMEOUT)
    assert first.status_code == 200
    assert second.json() == {"id": quote["id"], "votes": 2}


def test_list_sorted_by_votes(base_url):
    popular = _create(base_url)
    plain = _create(base_url)
    for _ in range(3):
        requests.post(f"{base_url}/quotes/{popular['id']}/vote", timeout=TIMEOUT)
    quotes = requests.get(f"{base_url}/quotes", timeout=TIMEOUT).json()
    votes = [q["votes"] for q in quotes]
    assert votes == sorted(votes, reverse=True)
    ids = [q["id"] for q in quotes]
    assert ids.index(popular["id"]) < ids.index(plain["id"])


def test_random_quote(base_url):
    _create(base_url)
    resp = requests.get(f"{base_url}/quotes/random", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert set(resp.json()) >= {"id", "text", "author", "votes"}
