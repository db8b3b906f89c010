"""send(): real HTTP on loopback, refusal of other hosts, errors as records, the body cap."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import httpx
import pytest

from inspector.model.request.http_request import RequestSpec, to_curl
from inspector.services.rerun.http_client import RequestRefused, is_loopback_host, send

from .test_http_request import echo_server, received, run_curl


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with echo_server() as url:
        yield url


class Recorder:
    """A transport that records every request it is asked to send."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.transport = httpx.MockTransport(self._handle)

    def _handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(204)


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------------ real exchanges


def test_send_delivers_the_request_and_records_the_response(base_url: str) -> None:
    spec = RequestSpec("POST", "/todos/{id}", query=(("q", "a b"), ("u", "ü")),
                       headers=(("X-Trace", 'say "hi"'),), body_kind="json",
                       body='{"title": "ü"}').with_params({"id": "5"})
    r = send(spec, base_url)
    assert r.error is None
    assert (r.status, r.reason, r.http_version) == (200, "OK", "HTTP/1.1")
    assert r.header("content-type") == "application/json"
    assert 0 < r.elapsed_ms < 5000
    assert r.sent_at.endswith("+00:00")
    got = received(json.loads(r.body))
    assert got["method"] == "POST"
    assert got["path"] == "/todos/5"
    assert got["query"] == [("q", "a b"), ("u", "ü")]
    assert got["headers"]["x-trace"] == 'say "hi"'
    assert got["headers"]["content-type"] == "application/json"
    assert got["body"] == '{"title": "ü"}'.encode()


@pytest.mark.parametrize("spec", [
    RequestSpec("GET", "/search", query=(("q", "hello world"), ("city", "Zürich"))),
    RequestSpec("PUT", "/raw", headers=(("X-Q", "it's"),), body_kind="raw", body="a\nb 'c'"),
    RequestSpec("POST", "/form", body_kind="form", body="name=John+Doe&city=K%C3%B6ln&e="),
    RequestSpec("DELETE", "/items/{sku}").with_params({"sku": "WID 001"}),
], ids=["query", "raw", "form", "delete"])
def test_curl_and_send_deliver_the_same_request(base_url: str, spec: RequestSpec) -> None:
    via_client = received(json.loads(send(spec, base_url).body))
    via_curl = run_curl(to_curl(spec, base_url))
    for key in ("method", "raw_path", "query"):
        assert via_client[key] == via_curl[key]
    if spec.body_kind == "form":
        assert (httpx.QueryParams(via_client["body"].decode()).multi_items()
                == httpx.QueryParams(via_curl["body"].decode()).multi_items())
    else:
        assert via_client["body"] == via_curl["body"]
    for name, value in spec.effective_headers():
        assert via_client["headers"][name.lower()] == via_curl["headers"][name.lower()] == value
    assert ("content-type" in via_client["headers"]) == ("content-type" in via_curl["headers"])


def test_status_errors_are_responses_not_errors(base_url: str) -> None:
    r = send(RequestSpec("GET", "/teapot"), base_url)
    assert r.status == 418 and r.error is None
    assert json.loads(r.body) == {"error": "short and stout"}


def test_redirects_are_not_followed(base_url: str) -> None:
    r = send(RequestSpec("GET", "/redirect"), base_url)
    assert r.status == 302
    assert r.header("Location") == "http://example.com/"


def test_text_binary_and_json_bodies_pretty_print(base_url: str) -> None:
    assert send(RequestSpec("GET", "/text"), base_url).pretty_body() == "héllo\nwörld\n"
    png = send(RequestSpec("GET", "/png"), base_url)
    assert png.body.startswith(b"\x89PNG")
    assert png.pretty_body().startswith("<binary body: 272 bytes, image/png> 89 50 4e 47")
    ordered = send(RequestSpec("GET", "/ordered"), base_url).pretty_body()
    assert ordered.splitlines()[1:3] == ['  "zeta": 1,', '  "alpha": [']


# ------------------------------------------------------------------------ body cap


def test_body_is_capped_and_marked_truncated(base_url: str) -> None:
    spec = RequestSpec("GET", "/bytes", query=(("n", str(5_000_000)),))
    r = send(spec, base_url, max_body=100_000)
    assert r.error is None and r.status == 200
    assert len(r.body) == 100_000 and r.body_truncated
    assert "body truncated after 100,000 bytes" in r.pretty_body()


def test_body_at_exactly_the_cap_is_not_truncated(base_url: str) -> None:
    r = send(RequestSpec("GET", "/bytes", query=(("n", "70000"),)), base_url, max_body=70_000)
    assert len(r.body) == 70_000 and not r.body_truncated


# ------------------------------------------------------------------------ failures as records


def test_connection_refused_is_an_error_record() -> None:
    r = send(RequestSpec("GET", "/health"), f"http://127.0.0.1:{closed_port()}")
    assert r.status == 0
    assert r.error is not None and r.error.startswith("connection refused")
    assert r.body == b"" and r.elapsed_ms >= 0


def test_timeout_is_an_error_record(base_url: str) -> None:
    r = send(RequestSpec("GET", "/slow", query=(("s", "3"),)), base_url, timeout=0.3)
    assert r.status == 0
    assert r.error == "timed out waiting for the response after 0.3 s"
    assert 250 <= r.elapsed_ms < 2500


def test_invalid_header_is_an_error_record_not_an_exception(base_url: str) -> None:
    r = send(RequestSpec("GET", "/x", headers=(("X-Bad", "a\r\nInjected: 1"),)), base_url)
    assert r.status == 0 and r.error


# ------------------------------------------------------------------------ refusal


@pytest.mark.parametrize("base", [
    "http://10.0.0.1:8080", "http://example.com", "https://example.com:443/api",
    "http://127.0.0.1:80@example.com/", "http://localhost.example.com", "http://0.0.0.0:8000",
    "http://[2001:db8::1]:80", "http://169.254.169.254", "http://127.1:80",
])
def test_non_loopback_hosts_are_refused_without_connecting(base: str) -> None:
    rec = Recorder()
    with pytest.raises(RequestRefused, match="refusing to send to") as info:
        send(RequestSpec("GET", "/health"), base, transport=rec.transport)
    assert isinstance(info.value, ValueError)
    assert rec.requests == []


@pytest.mark.parametrize("base", ["ftp://127.0.0.1/", "127.0.0.1:8000", "file:///etc/passwd"])
def test_non_http_urls_are_refused(base: str) -> None:
    rec = Recorder()
    with pytest.raises(RequestRefused):
        send(RequestSpec("GET", "/"), base, transport=rec.transport)
    assert rec.requests == []


@pytest.mark.parametrize("base", [
    "http://127.0.0.1:9", "http://127.8.9.10", "http://localhost:8000", "http://LOCALHOST",
    "http://[::1]:8000", "http://[::ffff:127.0.0.1]:80",
])
def test_loopback_hosts_are_allowed(base: str) -> None:
    rec = Recorder()
    r = send(RequestSpec("GET", "/health"), base, transport=rec.transport)
    assert r.status == 204 and len(rec.requests) == 1


def test_allow_hosts_lets_exactly_that_host_through() -> None:
    rec = Recorder()
    spec = RequestSpec("GET", "/health")
    r = send(spec, "http://172.17.0.2:18080", transport=rec.transport, allow_hosts={"172.17.0.2"})
    assert r.status == 204
    assert str(rec.requests[0].url) == "http://172.17.0.2:18080/health"
    with pytest.raises(RequestRefused):
        send(spec, "http://172.17.0.3:18080", transport=rec.transport,
             allow_hosts={"172.17.0.2"})
    with pytest.raises(RequestRefused):  # a bare string is one host, not a set of characters
        send(spec, "http://1", transport=rec.transport, allow_hosts="172.17.0.2")
    assert len(rec.requests) == 1


def test_a_path_cannot_smuggle_another_host() -> None:
    rec = Recorder()
    r = send(RequestSpec("GET", "@example.com/x"), "http://127.0.0.1:8000",
             transport=rec.transport)
    assert r.status == 204
    assert rec.requests[0].url.host == "127.0.0.1"
    assert rec.requests[0].url.path == "/@example.com/x"


def test_is_loopback_host() -> None:
    assert is_loopback_host("127.0.0.1") and is_loopback_host("[::1]")
    assert is_loopback_host("localhost.")
    assert not is_loopback_host("10.0.0.1") and not is_loopback_host("example.com")
    assert not is_loopback_host("::ffff:10.0.0.1")


def test_environment_proxies_are_ignored(base_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a proxy on a closed port would make the request fail if it were used
    proxy = f"http://127.0.0.1:{closed_port()}"
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, proxy)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    r = send(RequestSpec("GET", "/teapot"), base_url)
    assert r.status == 418 and r.error is None
