"""Black-box tests for the URL shortener."""
import re
import uuid

import requests

TIMEOUT = 5
CODE_RE = re.compile(r"^[A-Za-z0-9]{6}$")


def _long_url():
    return f"https://example.com/articles/{uuid.uuid4().hex}?ref=test"


def _shorten(base_url, url):
    resp = requests.post(f"{base_url}/api/shorten", json={"url": url}, timeout=TIMEOUT)
    assert resp.status_code == 201, resp.text
    return resp.json()


def test_health(base_url):
    resp = requests.get(f"{base_url}/health", timeout=TIMEOUT)
    assert resp.status_code == 200
    assert resp.json() == {"status": "ok"}


def test_shorten_returns_code(base_url):
    url = _long_url()
    data = _shorten(base_url, url)
    assert CODE_RE.match(data["code"])
    assert data["url"] == url
    assert data["short_url"].endswith("/" + data["code"])


def test_shorten_rejects_non_http_url(base_url):
    resp = requests.post(
        f"{base_url}/api/shorten", json={"url": "ftp://example.com/file"}, timeout=TIMEOUT
    )
    assert resp.status_code == 400
    assert "error" in resp.json()


def test_shorten_rejects_missing_url(base_url):
    resp = requests.post(f"{base_url}/api/shorten", json={}, timeout=TIMEOUT)
    assert resp.status_code == 400
    assert "error" in resp.json()


def test_redirect(base_url):
    url = _long_url()
    code = _shorten(base_url, url)["code"]
    resp = requests.get(f"{base_url}/{code}", allow_redirects=False, timeout=TIMEOUT)
    assert resp.status_code == 302
    assert resp.headers["Location"] == url


def test_unknown_code_is_404(base_url):
    resp = requests.get(f"{base_url}/zzzzzz", allow_redirects=False, timeout=TIMEOUT)
    assert resp.status_code == 404


def test_stats_count_hits(base_url):
    url = _long_url()
    code = _shorten(base_url, url)["code"]
    stats = requests.get(f"{base_url}/api/stats/{code}", timeout=TIMEOUT).json()
    assert stats == {"code": code, "url": url, "hits": 0}
    for _ in range(2):
        requests.get(f"{base_url}/{code}", allow_redirects=False, timeout=TIMEOUT)
    stats = requests.get(f"{base_url}/api/stats/{code}", timeout=TIMEOUT).json()
    assert stats["hits"] == 2


def test_stats_unknown_code_is_404(base_url):
    resp = requests.get(f"{base_url}/api/stats/zzzzzz", timeout=TIMEOUT)
    assert resp.status_code == 404
