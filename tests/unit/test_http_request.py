"""RequestSpec, ResponseRecord and to_curl; curl commands are run for real against loopback."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urlsplit

import pytest

from inspector.model.request.http_request import RequestSpec, ResponseRecord, to_curl

CURL = "/usr/bin/curl"

# ------------------------------------------------------------------------ loopback echo server


class _Handler(BaseHTTPRequestHandler):
    """Echoes the request as JSON; a few paths answer differently for the client tests."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass

    def _answer(self, status: int, body: bytes, ctype: str,
                extra: tuple[tuple[str, str], ...] = ()) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        route = urlsplit(self.path).path
        params = dict(parse_qsl(urlsplit(self.path).query))
        if route == "/slow":
            time.sleep(float(params.get("s", "2")))
            self._answer(200, b"{}", "application/json")
        elif route == "/bytes":
            n = int(params["n"])
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(n))
            self.end_headers()
            chunk = b"x" * 65536
            sent = 0
            try:
                while sent < n:
                    piece = chunk[: min(len(chunk), n - sent)]
                    self.wfile.write(piece)
                    sent += len(piece)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif route == "/text":
            self._answer(200, "héllo\nwörld\n".encode(), "text/plain; charset=utf-8")
        elif route == "/png":
            self._answer(200, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)),
                         "image/png")
        elif route == "/ordered":
            self._answer(200, b'{"zeta": 1, "alpha": [1, 2], "mid": {"b": null, "a": true}}',
                         "application/json")
        elif route == "/redirect":
            self._answer(302, b"", "text/plain", (("Location", "http://example.com/"),))
        elif route == "/teapot":
            self._answer(418, b'{"error": "short and stout"}', "application/json")
        else:
            echo = {
                "method": self.command,
                "path": self.path,
                "headers": [[k, v] for k, v in self.headers.items()],
                "body_b64": base64.b64encode(body).decode("ascii"),
            }
            self._answer(200, json.dumps(echo).encode(), "application/json")

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = _handle


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # clients that hung up: fine
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@contextmanager
def echo_server() -> Iterator[str]:
    """A ThreadingHTTPServer on 127.0.0.1:<free port>; yields its base URL."""
    server = _Server(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with echo_server() as url:
        yield url


def received(echo: dict) -> dict:
    """The echo reply decoded: method, path, query pairs, headers (lower-cased), body."""
    split = urlsplit(echo["path"])
    return {
        "method": echo["method"],
        "path": unquote(split.path),
        "raw_path": echo["path"],
        "query": parse_qsl(split.query, keep_blank_values=True),
        "headers": {k.lower(): v for k, v in echo["headers"]},
        "body": base64.b64decode(echo["body_b64"]),
    }


def run_curl(command: str) -> dict:
    """Run a generated curl command through a real POSIX shell (no proxy from the env)."""
    assert command.startswith("curl ")
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env["PATH"] = f"{os.path.dirname(CURL)}:{env.get('PATH', '')}"
    proc = subprocess.run(["/bin/sh", "-c", command + " --silent --show-error"], env=env,
                          capture_output=True, timeout=30)
    assert proc.returncode == 0, proc.stderr.decode()
    return received(json.loads(proc.stdout))


# ------------------------------------------------------------------------ curl round trips


def test_curl_json_body_round_trips_byte_for_byte(base_url: str) -> None:
    body = '{\n  "title": "it\'s \\"quoted\\" — ünïcode",\n  "n": 1\n}\n'
    spec = RequestSpec("PATCH", "/todos/{id}", headers=(("Accept", "application/json"),),
                       body_kind="json", body=body).with_params({"id": "42"})
    cmd = to_curl(spec, base_url)
    assert "-X PATCH" in cmd and "'Content-Type: application/json'" in cmd
    got = run_curl(cmd)
    assert got["method"] == "PATCH"
    assert got["path"] == "/todos/42"
    assert got["headers"]["content-type"] == "application/json"
    assert got["headers"]["accept"] == "application/json"
    assert got["body"] == body.encode("utf-8")


def test_curl_keeps_an_explicit_content_type(base_url: str) -> None:
    spec = RequestSpec("POST", "/x", headers=(("content-type", "application/merge-patch+json"),),
                       body_kind="json", body='{"a": 1}')
    cmd = to_curl(spec, base_url)
    assert cmd.count("ontent-") == 1
    assert run_curl(cmd)["headers"]["content-type"] == "application/merge-patch+json"


def test_curl_form_body_sends_the_same_fields(base_url: str) -> None:
    spec = RequestSpec("POST", "/form", body_kind="form",
                       body="name=John+Doe&city=K%C3%B6ln&empty=&a%26b=1%3D2&at=%40file")
    assert spec.form_pairs() == [("name", "John Doe"), ("city", "Köln"), ("empty", ""),
                                 ("a&b", "1=2"), ("at", "@file")]
    cmd = to_curl(spec, base_url)
    assert "--data-urlencode" in cmd
    got = run_curl(cmd)
    assert got["method"] == "POST"
    assert got["headers"]["content-type"] == "application/x-www-form-urlencoded"
    assert parse_qsl(got["body"].decode("ascii"), keep_blank_values=True) == spec.form_pairs()


def test_curl_form_with_a_nameless_field_falls_back_to_raw_data(base_url: str) -> None:
    spec = RequestSpec("POST", "/form", body_kind="form", body="=orphan&a=1")
    got = run_curl(to_curl(spec, base_url))
    assert got["body"] == b"=orphan&a=1"


def test_curl_query_with_spaces_unicode_and_reserved_characters(base_url: str) -> None:
    query = (("q", "hello world"), ("city", "Zürich"), ("expr", "a&b=c/d?#x"),
             ("plus", "1+1"), ("q", "again"), ("blank", ""))
    spec = RequestSpec("GET", "/search results/ü", query=query)
    url = spec.url(base_url)
    assert " " not in url and "ü" not in url
    assert "q=hello%20world" in url and "city=Z%C3%BCrich" in url
    got = run_curl(to_curl(spec, base_url))
    assert got["method"] == "GET"
    assert got["path"] == "/search results/ü"
    assert got["query"] == list(query)
    assert got["body"] == b""


def test_curl_headers_with_quotes_and_shell_metacharacters(base_url: str) -> None:
    headers = (("X-Quote", 'it\'s a "test"'), ("X-Shell", "$HOME `id` $(id) \\ ; | &"),
               ("X-Empty", ""), ("Accept", "text/plain"))
    spec = RequestSpec("DELETE", "/items/1", headers=headers)
    got = run_curl(to_curl(spec, base_url))
    assert got["method"] == "DELETE"
    assert got["headers"]["x-quote"] == 'it\'s a "test"'
    assert got["headers"]["x-shell"] == "$HOME `id` $(id) \\ ; | &"
    assert got["headers"]["x-empty"] == ""
    assert got["headers"]["accept"] == "text/plain"  # replaces curl's own */*


def test_curl_raw_body_gets_no_invented_content_type(base_url: str) -> None:
    body = "line one\nline 'two' with $VAR\n"
    spec = RequestSpec("PUT", "/raw", body_kind="raw", body=body)
    got = run_curl(to_curl(spec, base_url))
    assert got["method"] == "PUT"
    assert "content-type" not in got["headers"]
    assert got["body"] == body.encode()


def test_multiline_curl_runs_the_same(base_url: str) -> None:
    spec = RequestSpec("POST", "/todos", query=(("dry run", "yes"),),
                       headers=(("X-A", "1"), ("X-B", "two words")),
                       body_kind="json", body='{"title": "x"}')
    one, multi = to_curl(spec, base_url), to_curl(spec, base_url, multiline=True)
    assert multi.count("\\\n") == 4  # headers x2, implied content type, body
    assert run_curl(multi) == run_curl(one)


def test_curl_url_with_ipv6_brackets_turns_globbing_off() -> None:
    cmd = to_curl(RequestSpec("GET", "/health"), "http://[::1]:8080")
    assert cmd.startswith("curl --globoff -X GET ")
    assert "http://[::1]:8080/health" in cmd


# ------------------------------------------------------------------------ RequestSpec


def test_to_dict_from_dict_round_trip() -> None:
    spec = RequestSpec("POST", "/a/{id}", (("q", "1"),), (("X-A", "b"),), "form", "a=1&b=2")
    data = json.loads(json.dumps(spec.to_dict()))
    assert RequestSpec.from_dict(data) == spec


@pytest.mark.parametrize(("data", "message"), [
    ([], "must be an object"),
    ({"path": "/x"}, "missing 'method'"),
    ({"method": "", "path": "/x"}, "'method' must not be empty"),
    ({"method": "GET"}, "missing 'path'"),
    ({"method": "GET", "path": 3}, "'path' must be a string"),
    ({"method": "GET", "path": "/x", "body_kind": "xml"}, "unknown body_kind 'xml'"),
    ({"method": "GET", "path": "/x", "query": {"a": "1"}}, "'query' must be a list"),
    ({"method": "GET", "path": "/x", "headers": [["A", "1", "2"]]}, "'headers' item 0"),
    ({"method": "GET", "path": "/x", "headers": [["A", 1]]}, "pair of strings"),
    ({"method": "GET", "path": "/x", "body": None}, "'body' must be a string"),
])
def test_from_dict_rejects_with_a_specific_message(data: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        RequestSpec.from_dict(data)


def test_from_dict_defaults_optional_fields() -> None:
    assert RequestSpec.from_dict({"method": "GET", "path": "/h"}) == RequestSpec("GET", "/h")


def test_path_params_and_with_params() -> None:
    spec = RequestSpec("GET", "/users/{user_id}/posts/{id}/{user_id}")
    assert spec.path_params() == ["user_id", "id"]
    filled = spec.with_params({"user_id": "a/b c"})
    assert filled.path == "/users/a%2Fb%20c/posts/{id}/a%2Fb%20c"
    assert filled.path_params() == ["id"]
    assert spec.with_params({"user_id": "", "id": "7"}).path == "/users/{user_id}/posts/7/{user_id}"


def test_url_joins_base_path_and_query() -> None:
    spec = RequestSpec("GET", "items", query=(("tag", "a b"), ("x", "ü")))
    assert spec.url("http://127.0.0.1:8000/") == "http://127.0.0.1:8000/items?tag=a%20b&x=%C3%BC"
    assert spec.url("http://h:1/api") == "http://h:1/api/items?tag=a%20b&x=%C3%BC"
    typed = RequestSpec("GET", "/convert?value=1", query=(("to", "f"),))
    assert typed.url("http://h:1") == "http://h:1/convert?value=1&to=f"
    assert RequestSpec("GET", "/a%20b").url("http://h:1") == "http://h:1/a%20b"


def test_validate_accepts_a_good_request() -> None:
    spec = RequestSpec("POST", "/x", headers=(("X-Ok", "1"),), body_kind="json", body="[1]")
    assert spec.validate() == []


def test_validate_reports_each_problem() -> None:
    spec = RequestSpec("GET POST", "/todos/{id}", headers=(("Bad Header", "1"), ("X:Y", "2"),
                                                           ("X-Inject", "a\r\nEvil: 1")),
                       body_kind="json", body='{\n  "a": 1,\n}')
    problems = spec.validate()
    assert "method 'GET POST' is not a valid HTTP method" in problems
    assert "path parameter {id} is not filled in" in problems
    assert any("header name 'Bad Header' is not valid" in p for p in problems)
    assert any("header name 'X:Y' is not valid" in p for p in problems)
    assert "header 'X-Inject' value contains a line break or NUL" in problems
    assert ("JSON body is not valid JSON: Expecting property name enclosed in double quotes "
            "(line 3, column 1)") in problems
    assert len(problems) == 6


def test_validate_other_body_and_path_problems() -> None:
    assert RequestSpec("POST", "/x", body_kind="json", body="  ").validate() == [
        "JSON body is empty"]
    assert RequestSpec("GET", "/x", body="{}").validate() == [
        "body text is ignored because the body kind is none"]
    assert RequestSpec("GET", "http://evil/x").validate() == [
        "path 'http://evil/x' must be a path such as /items, not a URL"]


# ------------------------------------------------------------------------ ResponseRecord


def record(body: bytes, ctype: str | None = None, **kw: object) -> ResponseRecord:
    headers = (("Content-Type", ctype),) if ctype else ()
    return ResponseRecord(200, "OK", "HTTP/1.1", headers, 1.5, body, **kw)  # type: ignore[arg-type]


def test_response_round_trips_text_and_binary_bodies() -> None:
    text = record("ünï".encode(), "text/plain", sent_at="2024-01-01T00:00:00+00:00")
    assert text.to_dict()["body"] == "ünï" and text.to_dict()["body_encoding"] == "utf-8"
    binary = record(b"\x89PNG\xff\x00", "image/png", body_truncated=True, error="cut")
    d = binary.to_dict()
    assert d["body_encoding"] == "base64"
    assert base64.b64decode(d["body"]) == b"\x89PNG\xff\x00"
    for r in (text, binary):
        assert ResponseRecord.from_dict(json.loads(json.dumps(r.to_dict()))) == r


@pytest.mark.parametrize(("change", "message"), [
    ({"status": "200"}, "'status' must be a non-negative integer"),
    ({"body": "!!!", "body_encoding": "base64"}, "not valid base64"),
    ({"body_encoding": "hex"}, "unknown body_encoding 'hex'"),
    ({"headers": [["a"]]}, "response: 'headers' item 0"),
    ({"error": 5}, "'error' must be a string or null"),
])
def test_response_from_dict_rejects_bad_fields(change: dict, message: str) -> None:
    data = record(b"x").to_dict() | change
    with pytest.raises(ValueError, match=message):
        ResponseRecord.from_dict(data)


def test_pretty_body_indents_json_keeping_key_order() -> None:
    r = record(b'{"zeta": 1, "alpha": [1, 2], "name": "\\u00fc"}', "application/json")
    assert r.pretty_body() == ('{\n  "zeta": 1,\n  "alpha": [\n    1,\n    2\n  ],\n'
                               '  "name": "ü"\n}')
    # no content type, but the body is JSON
    assert record(b'[{"a":1}]').pretty_body() == '[\n  {\n    "a": 1\n  }\n]'
    assert record(b"42", "application/problem+json").pretty_body() == "42"


def test_pretty_body_shows_text_as_text() -> None:
    assert record(b"<h1>hi</h1>", "text/html").pretty_body() == "<h1>hi</h1>"
    assert record(b'{"broken": ', "application/json").pretty_body() == '{"broken": '
    assert record(b"caf\xe9", "text/plain; charset=iso-8859-1").pretty_body() == "café"
    assert record(b"bad \xff byte", "text/plain").pretty_body() == "bad \ufffd byte"
    assert record(b"").pretty_body() == ""


def test_pretty_body_summarises_binary() -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(100)
    out = record(png, "image/png").pretty_body()
    assert out.startswith("<binary body: 108 bytes, image/png> 89 50 4e 47 0d 0a 1a 0a 00")
    assert out.endswith(" …") and "\n" not in out
    unlabelled = record(b"\x00\x01\x02\xff").pretty_body()
    assert unlabelled == "<binary body: 4 bytes, unknown type> 00 01 02 ff"


def test_pretty_body_says_when_the_body_was_cut() -> None:
    r = record(b'{"a": [1, 2', "application/json", body_truncated=True)
    assert r.pretty_body() == '{"a": [1, 2\n… body truncated after 11 bytes'
