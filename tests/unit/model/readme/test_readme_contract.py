"""README contract: what the bundled task READMEs state, with line numbers checked by reading
each README, and the verdicts of :func:`check` for realistic expectations of failing tests."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from inspector.model.failures.facts import (
    CONNECTION,
    CONTAINS,
    HEADER,
    KEY,
    LENGTH,
    STATUS,
    TYPE,
    VALUE,
    Expectation,
    RequestFact,
)
from inspector.model.readme.contract import ReadmeContract, check
from inspector.model.readme.contract_types import (
    CASE,
    CONTRADICTED,
    DEFAULT,
    ENUM,
    ERROR,
    EXACT,
    EXAMPLE,
    FIXED,
    LITERAL,
    REQUEST,
    SILENT,
    SPECIFIED,
    UNKNOWN,
)

REPO = Path(__file__).resolve().parents[4] / "sample_runs" / "tasks" / "repo"


@cache
def contract(task: str) -> ReadmeContract:
    return ReadmeContract.parse((REPO / task / "README.md").read_text(encoding="utf-8"))


def req(method: str, path: str) -> RequestFact:
    return RequestFact(method, path, 10)


def lines(mentions) -> list[int]:  # noqa: ANN001
    return sorted({m.line for m in mentions})


# -- endpoints and their sections -------------------------------------------------------------


def test_user_management_endpoints_sections_and_base_path() -> None:
    c = contract("UserManagement_2")
    assert (c.base_path, c.base_line) == ("/api/v1", 11)
    assert [(e.key, e.line, e.start, e.end) for e in c.endpoints] == [
        ("POST /api/v1/users/register", 16, 14, 41),  # "### 1. User Registration API" .. schema
        ("POST /api/v1/users/login", 45, 43, 72),
        ("GET /api/v1/users/{user_id}", 76, 74, 97),
        ("PUT /api/v1/users/{user_id}", 101, 99, 129),
        ("DELETE /api/v1/users/{user_id}", 133, 131, 146),  # ends before "## Error Response"
    ]


@pytest.mark.parametrize(("task", "method", "path", "key"), [
    # base path omitted by the test, an f-string base URL, a full URL, a concrete id
    ("UserManagement_2", "POST", "/users/register", "POST /api/v1/users/register"),
    ("UserManagement_2", "POST", "{}/users/register", "POST /api/v1/users/register"),
    ("UserManagement_2", "GET", "http://localhost:8080/api/v1/users/{}",
     "GET /api/v1/users/{user_id}"),
    ("UserManagement_2", "DELETE", "/api/v1/users/42", "DELETE /api/v1/users/{user_id}"),
    # relative README paths under "API Base Path: /api/v1": the test may write either form
    ("StructuredDataConvertor", "GET", "/health", "GET /api/v1/health"),
    ("StructuredDataConvertor", "POST", "/api/v1/convert/batch", "POST /api/v1/convert/batch"),
    ("django-rest-framework-crud", "GET", "/movies/", "GET /api/v1/movies/"),
    ("django-rest-framework-crud", "PUT", "/api/v1/movies/7", "PUT /api/v1/movies/{id}/"),
    ("spring-boot-course-scheduling", "GET", "/terms/3", "GET /api/terms/{id}"),
    ("spark-dashboard-backend", "GET", "/api/dashboards/abc", "GET /api/dashboards/:id"),
    ("synapse", "GET", "/rooms/!room123:example.org/messages?limit=2",
     "GET /rooms/{room_id}/messages"),
    # a literal route beats a parameter route
    ("url-shortener", "GET", "/health", "GET /health"),
    ("url-shortener", "GET", "/aB3xY9", "GET /{code}"),
])
def test_endpoint_for_matches_templates(task: str, method: str, path: str, key: str) -> None:
    ep = contract(task).endpoint_for(method, path)
    assert ep is not None and ep.key == key


def test_endpoint_for_rejects_other_methods_and_paths() -> None:
    c = contract("UserManagement_2")
    assert c.endpoint_for("PATCH", "/api/v1/users/1") is None
    assert c.endpoint_for("GET", "/api/v1/users/1/avatar") is None
    assert [e.method for e in c.endpoints_at("/api/v1/users/1")] == ["GET", "PUT", "DELETE"]


def test_plain_text_readme_sections_end_at_plain_headings() -> None:
    """django and flask have no Markdown headings: titles on their own line bound sections."""
    d = contract("django-rest-framework-crud")
    assert [(e.key, e.start, e.end) for e in d.endpoints][3:5] == [
        ("GET /api/v1/movies/", 56, 69), ("POST /api/v1/movies/", 71, 80)]
    assert d.endpoint("DELETE /api/v1/movies/{id}/").end == 94  # "Running Instructions" at 97
    f = contract("flask")
    assert [(e.key, e.start, e.end) for e in f.endpoints] == [
        ("GET /health", 13, 27), ("POST /echo", 29, 46), ("GET /sum", 48, 60)]


def test_places_naming_an_endpoint_outside_its_section() -> None:
    # a prose sentence in another endpoint's list item: "a subsequent `GET /people/{id}`
    # returns `404 Not Found`"
    assert contract("eve").endpoint("GET /people/{id}").extra == ((59, 59),)
    # table-declared endpoints: the prose label, its block, and "Response, status `201`:"
    url = contract("url-shortener")
    assert url.endpoint("POST /api/shorten").extra == ((31, 45),)
    # example requests (```http) and the response block after them
    assert contract("synapse").endpoint("GET /health").extra == ((197, 203),)


# -- status codes -------------------------------------------------------------------------------


def test_status_mentions_per_endpoint_and_global() -> None:
    auth = contract("javalin-user-auth-platform")
    login = auth.endpoint("POST /api/users/login")
    assert lines(auth.status_mentions(200, login)) == [77]  # "**Output Schema** (Success - 200)"
    assert lines(auth.status_mentions(401, login)) == [87]
    delete = auth.endpoint("DELETE /api/users/{userId}")
    assert auth.codes(auth.status_mentions(None, delete)) == ["200", "401", "404"]  # "400/401"
    multi = contract("Multilingual")
    assert [(m.line, m.what) for m in multi.global_statuses()] == [
        (192, "200"), (193, "400 Bad Request"), (194, "500 Internal Server Error")]
    eve = contract("eve")
    put = eve.endpoint("PUT /people/{id}")
    assert [m.what for m in eve.status_mentions(None, put)] == [
        "200", "428 Precondition Required", "400", "412 Precondition Failed"]


def test_status_numbers_that_are_not_status_codes_are_ignored() -> None:
    # WebPan: "size": 1024, "total": 100 in JSON, "Concurrent user support: 100+", "100MB"
    assert contract("WebPan").statuses == ()
    # synapse: "range 1..100", "maxLength": 128
    assert contract("synapse").statuses == ()


# -- fields ----------------------------------------------------------------------------------


def test_schema_annotations_types_required_constraints_fixed_values() -> None:
    c = contract("UserManagement_2")
    register = c.endpoint("POST /api/v1/users/register")
    login = c.endpoint("POST /api/v1/users/login")
    username = c.field("username", register, roles=(REQUEST,))
    assert (username.line, username.type, username.required, username.constraints) == (
        21, "string", True, "3-20 characters")
    full_name = c.field("full_name", register, roles=(REQUEST,))
    assert (full_name.line, full_name.required, full_name.constraints) == (
        24, False, "max 100 characters")
    token_type = c.field("data.token_type", login)
    assert (token_type.line, token_type.values, token_type.value_kind) == (62, ("Bearer",), FIXED)
    assert c.field("data.user_id", register).type == "integer"
    assert [(f.path, f.line) for f in c.error_format] == [
        ("success", 154), ("message", 155), ("error_code", 156), ("details", 157)]


def test_field_matching_with_and_without_envelope() -> None:
    c = contract("UserManagement_2")
    login = c.endpoint("POST /api/v1/users/login")
    assert c.field("token_type", login).path == "data.token_type"  # test without 'data.'
    assert c.field("user.email", login).path == "data.user.email"
    assert c.field("data.user.email", login).line == 67
    assert c.field("['data']['expires_in']", login).line == 63
    assert c.field("refresh_token", login) is None


def test_json_schema_blocks_are_read() -> None:
    """synapse writes JSON Schema 2020-12; blocks named after an "Interface Name" belong to
    that endpoint."""
    c = contract("synapse")
    login = c.endpoint("POST /login")
    token_type = c.field("token_type", login)
    assert (token_type.line, token_type.values, token_type.value_kind, token_type.required) == (
        115, ("Bearer",), FIXED, True)
    assert c.field("expires_in", login).constraints == "minimum 60"
    health = c.field("status", c.endpoint("GET /health"))
    assert (health.line, health.values, health.value_kind) == (57, ("ok",), ENUM)
    body = c.field("messages.content.body", c.endpoint("GET /rooms/{room_id}/messages"))
    assert (body.line, body.type) == (179, "string")


def test_comments_inline_schemas_named_types_and_field_lists() -> None:
    chat = contract("springboot-chat-gateway")  # "status": "string", // "ONLINE", "OFFLINE"
    st = chat.field("status", chat.endpoint("GET /api/users/{userId}/status"))
    assert (st.line, st.values, st.value_kind) == (63, ("ONLINE", "OFFLINE", "AWAY"), ENUM)
    sdc = contract("StructuredDataConvertor")  # // File encoding, default "utf-8"
    enc = sdc.field("options.encoding", sdc.endpoint("POST /api/v1/convert"))
    assert (enc.line, enc.values, enc.value_kind) == (55, ("utf-8",), DEFAULT)
    ci = contract("micronaut-ci-status")  # - **Output**: `{"id": "string", "status": "QUEUED"}`
    queued = ci.field("status", ci.endpoint("POST /projects/{id}/builds"))
    assert (queued.line, queued.values, queued.value_kind) == (52, ("QUEUED",), LITERAL)
    judge = contract("javalin-online-judge")  # "Common types" shared by all endpoints
    role = judge.field("role", judge.endpoint("GET /api/users/{id}"))
    assert (role.line, role.values, role.endpoints) == (19, ("USER", "ADMIN"), ())
    pan = contract("WebPan")  # "sort_by: string (optional, values: name, size, upload_time)"
    sort_by = pan.field("sort_by", pan.endpoint("GET /api/v1/files"), roles=("query",))
    assert (sort_by.line, sort_by.required, sort_by.values) == (
        168, False, ("name", "size", "upload_time"))
    eve = contract("eve")  # "- `_id: string|integer` (server-generated identifier)"
    assert (eve.field("_id").line, eve.field("_id").type) == (24, "string|integer")


def test_error_tables_give_error_literals() -> None:
    inv = contract("inventory-api")
    detail = [f for f in inv.fields if f.path == "detail"]
    assert [(f.line, f.values[0], f.role) for f in detail] == [
        (61, "Item not found", ERROR), (62, "SKU already exists", ERROR),
        (63, "insufficient stock", ERROR), (64, "cannot release more than reserved", ERROR)]
    assert inv.codes(inv.global_statuses()) == ["200", "404", "409", "422"]


def test_literals_headers_limits() -> None:
    c = contract("UserManagement_2")
    assert [(m.line, m.match) for m in c.literal_mentions("bearer", whole=True)] == [(62, CASE)]
    assert [(m.line, m.match) for m in c.literal_mentions("Bearer", whole=True)] == [(62, EXACT)]
    assert lines(c.header_mentions("authorization")) == [80, 105, 137]
    assert c.header_mentions("Access-Control-Allow-Origin") == []
    assert [(m.line, m.what) for m in c.limit_mentions("full_name")] == [
        (24, "max 100 characters"), (112, "max 100 characters")]
    eve = contract("eve")
    put = eve.endpoint("PUT /people/{id}")
    assert lines(eve.header_mentions("If-Match", put)) == [49, 52, 53]
    syn = contract("synapse")
    assert (43, "range 1..100") in [(m.line, m.what) for m in syn.limits]


def test_parse_never_raises_on_odd_markdown() -> None:
    for text in ("", "```json\n" + "[" * 3000, "{" * 5000, "| a |\n" * 500,
                 "GET /x/{id}\n- `a: string`\n" * 200, "```\nunclosed", "\x00\ufffd"):
        c = ReadmeContract.parse(text)
        assert isinstance(c.endpoints, tuple)


def test_a_field_table() -> None:
    readme = "\n".join([
        "## POST /api/users", "", "| Field | Type | Required | Description |",
        "|---|---|---|---|", "| username | string | yes | 3-20 characters |",
        "| role | string | no | one of `admin`, `user` |", ""])
    c = ReadmeContract.parse(readme)
    ep = c.endpoint("POST /api/users")
    username = c.field("username", ep)
    assert (username.line, username.required, username.constraints) == (5, True,
                                                                        "3-20 characters")
    assert c.field("role", ep).values == ("admin", "user")


# -- checks -----------------------------------------------------------------------------------


def test_status_never_listed_is_silent_and_names_the_section() -> None:
    r = check(Expectation(STATUS, 201, 200, request=req("POST", "/api/v1/users/register")),
              contract("UserManagement_2"))
    assert r.verdict == SILENT
    assert r.reason.startswith("README.md never lists a status code for POST "
                               "/api/v1/users/register (section lines 14-41); the test expects 201")
    assert r.endpoint == "POST /api/v1/users/register"


def test_status_5xx_on_a_documented_endpoint_is_the_services_fault() -> None:
    r = check(Expectation(STATUS, 201, 500, request=req("POST", "{}/users/register")),
              contract("UserManagement_2"))
    assert r.verdict == SPECIFIED and lines(r.mentions) == [16] and "500" in r.reason


@pytest.mark.parametrize(("task", "exp", "verdict", "cited"), [
    # listed for the endpoint
    ("javalin-user-auth-platform", Expectation(STATUS, 401, 403, request=req(
        "GET", "/api/users/profile")), SPECIFIED, [121]),
    ("eve", Expectation(STATUS, 204, 200, request=req("DELETE", "/people/abc")), SPECIFIED, [58]),
    ("eve", Expectation(STATUS, 404, 200, request=req("GET", "/people/abc")), SPECIFIED, [59]),
    ("django-rest-framework-crud", Expectation(STATUS, 201, 200, request=req(
        "POST", "/auth/register/")), SPECIFIED, [25]),
    # listed only globally ("Common HTTP status codes", an errors table)
    ("Multilingual", Expectation(STATUS, 400, 200, request=req("POST", "/api/translate")),
     SPECIFIED, [193]),
    ("inventory-api", Expectation(STATUS, 409, 201, request=req("POST", "/items")),
     SPECIFIED, [62, 63, 64]),
    # a sibling code for the same situation
    ("flask", Expectation(STATUS, 422, 400, request=req("POST", "/echo")), CONTRADICTED, [46]),
    ("micronaut-ci-status", Expectation(STATUS, 200, 201, request=req("POST", "/agents")),
     CONTRADICTED, [93]),
    ("todo-service", Expectation(STATUS, 422, 400, request=req("POST", "/todos")),
     CONTRADICTED, [59]),
    # other codes listed, not this one
    ("django-rest-framework-crud", Expectation(STATUS, 401, 403, request=req(
        "GET", "/api/v1/movies/")), SILENT, [61]),
    ("javalin-user-auth-platform", Expectation(STATUS, 409, 400, request=req(
        "POST", "/api/users/register")), SILENT, [44, 53]),
    ("Multilingual", Expectation(STATUS, 404, 400, request=req("POST", "/api/translate")),
     SILENT, [38]),
    # a route the README lists answering 404: the service lacks it
    ("spring-boot-course-scheduling", Expectation(STATUS, 200, 404, request=req(
        "GET", "/api/terms")), SPECIFIED, [22]),
])
def test_status_verdicts(task: str, exp: Expectation, verdict: str, cited: list[int]) -> None:
    r = check(exp, contract(task))
    assert (r.verdict, lines(r.mentions)) == (verdict, cited), r.reason
    assert f"README.md:{cited[0]}" in r.reason or "section lines" in r.reason


def test_status_alternatives_and_named_constants() -> None:
    ci = contract("micronaut-ci-status")
    r = check(Expectation(STATUS, (200, 201), 500, request=req("POST", "/projects")), ci)
    assert r.verdict == SPECIFIED and lines(r.mentions) == [30]  # "(201 Created)"
    r = check(Expectation(STATUS, "status.HTTP_201_CREATED", 200,
                          request=req("POST", "/projects")), ci)
    assert r.verdict == SPECIFIED and "201" in r.reason


def test_status_on_undocumented_endpoints() -> None:
    c = contract("UserManagement_2")
    r = check(Expectation(STATUS, 200, 405, request=req("PATCH", "/api/v1/users/1")), c)
    assert r.verdict == SILENT
    assert "documents DELETE, GET, PUT /api/v1/users/{user_id}" in r.reason
    assert "not PATCH" in r.reason
    r = check(Expectation(STATUS, 200, 404, request=req("GET", "/api/v1/health")), c)
    assert r.verdict == SILENT and "no endpoint GET /api/v1/health" in r.reason


def test_value_fixed_by_the_readme() -> None:
    c = contract("UserManagement_2")
    login = req("POST", "/api/v1/users/login")
    r = check(Expectation(VALUE, "Bearer", "bearer", json_path="data.token_type",
                          request=login), c)
    assert r.verdict == SPECIFIED and lines(r.mentions) == [62]
    assert r.reason.startswith("README.md:62 fixes data.token_type to 'Bearer'")
    assert "the service returned 'bearer'" in r.reason
    r = check(Expectation(VALUE, "bearer", "Bearer", json_path="token_type", request=login), c)
    assert r.verdict == CONTRADICTED and "differs in case" in r.reason
    syn = check(Expectation(VALUE, "bearer", "Bearer", json_path="token_type",
                            request=req("POST", "/login")), contract("synapse"))
    assert syn.verdict == CONTRADICTED and lines(syn.mentions) == [115]


def test_value_literals_enums_and_examples() -> None:
    ci = contract("micronaut-ci-status")
    r = check(Expectation(VALUE, "PENDING", "QUEUED", json_path="status",
                          request=req("POST", "/projects/p1/builds")), ci)
    assert r.verdict == CONTRADICTED and "README.md:52 gives status as 'QUEUED'" in r.reason
    chat = contract("springboot-chat-gateway")
    r = check(Expectation(VALUE, "ONLINE", "online", json_path="status",
                          request=req("GET", "/api/users/u1/status")), chat)
    assert r.verdict == SPECIFIED and "allows only 'ONLINE', 'OFFLINE', 'AWAY'" in r.reason
    flask = contract("flask")  # {"status": "ok"} shown as the output
    r = check(Expectation(VALUE, "ok", "healthy", json_path="status",
                          request=req("GET", "/health")), flask)
    assert r.verdict == SPECIFIED and lines(r.mentions) == [24]
    r = check(Expectation(VALUE, ("UP", "OK"), "DOWN", json_path="status",
                          request=req("GET", "/api/system/health")), chat)  # any of them
    assert r.verdict == SPECIFIED and lines(r.mentions) == [227]
    pan = contract("WebPan")  # "size": 1024 is an example, not a promise
    r = check(Expectation(VALUE, 2048, 1024, json_path="size",
                          request=req("GET", "/api/v1/files/f1/info")), pan)
    assert r.verdict == UNKNOWN and "example" in r.reason
    r = check(Expectation(VALUE, "alice", "bob", json_path="data.username",
                          request=req("POST", "/api/v1/users/register")),
              contract("UserManagement_2"))
    assert r.verdict == UNKNOWN and "README.md:35 documents data.username" in r.reason


def test_keys() -> None:
    um = contract("UserManagement_2")
    get = req("GET", "/api/v1/users/{}")
    r = check(Expectation(KEY, "error_code", request=get), um)  # the global error format
    assert r.verdict == SPECIFIED and lines(r.mentions) == [156]
    r = check(Expectation(KEY, "id", json_path="data", request=get), um)  # it is data.user_id
    assert r.verdict == SILENT and "data.id" in r.reason
    r = check(Expectation(KEY, "access_token", json_path="data",
                          request=req("POST", "/api/v1/users/login")), um)
    assert r.verdict == SPECIFIED and lines(r.mentions) == [61]
    r = check(Expectation(KEY, "password", request=req("POST", "/api/v1/users/register")), um)
    assert r.verdict == SILENT and "only as a request field" in r.reason
    r = check(Expectation(KEY, "password", negated=True,
                          request=req("POST", "/api/v1/users/register")), um)
    assert r.verdict == SPECIFIED  # the response schema does not list it
    tm = contract("javalin-task-manager")
    r = check(Expectation(KEY, "token", negated=True, request=req("POST", "/users/login")), tm)
    assert r.verdict == CONTRADICTED and lines(r.mentions) == [50]
    eve = contract("eve")  # "at minimum an `_items` array" in prose
    r = check(Expectation(KEY, "_items", request=req("GET", "/people")), eve)
    assert r.verdict == SPECIFIED and lines(r.mentions) == [36]
    blog = contract("quarkus-blog-cms")  # "Output Schema: Same as Create Post output."
    r = check(Expectation(KEY, "title", request=req("GET", "/api/posts/1")), blog)
    assert r.verdict == SPECIFIED and lines(r.mentions) == [35]


def test_contains_needs_the_literal() -> None:
    auth = contract("javalin-user-auth-platform")
    login = req("POST", "/api/users/login")
    r = check(Expectation(CONTAINS, "Invalid credentials", "Bad login", json_path="message",
                          request=login), auth)
    assert r.verdict == SPECIFIED and lines(r.mentions) == [91]
    r = check(Expectation(CONTAINS, "invalid credentials", "Invalid credentials",
                          json_path="message", request=login), auth)
    assert r.verdict == CONTRADICTED and "differs in case" in r.reason
    r = check(Expectation(CONTAINS, "invalid credentials", "Bad", json_path="message",
                          request=login, statement="assert 'invalid credentials' in "
                          "body['message'].lower()"), auth)
    assert r.verdict == SPECIFIED
    r = check(Expectation(CONTAINS, "required", "validation failed", json_path="message",
                          request=req("POST", "/api/v1/users/register")),
              contract("UserManagement_2"))
    assert r.verdict == SILENT and "never gives a text containing 'required'" in r.reason
    r = check(Expectation(CONTAINS, "not found", "Not Found", json_path="detail",
                          request=req("GET", "/items/X")), contract("inventory-api"))
    assert r.verdict == SPECIFIED and lines(r.mentions) == [61]


def test_contains_any_of_alternatives() -> None:
    # ``assert "a" in msg or "b" in msg``: silent only when the README gives neither
    users = contract("UserManagement_2")
    r = check(Expectation(CONTAINS, ("authorization", "token"), "authentication required",
                          json_path="message", request=req("GET", "/api/v1/users/1")), users)
    assert r.verdict == SILENT
    assert "never gives a text containing 'authorization' or 'token'" in r.reason
    auth = contract("javalin-user-auth-platform")
    r = check(Expectation(CONTAINS, ("no such text anywhere", "Invalid credentials"), "Bad",
                          json_path="message", request=req("POST", "/api/users/login")), auth)
    assert r.verdict == SPECIFIED and lines(r.mentions) == [91]


def test_types() -> None:
    auth = contract("javalin-user-auth-platform")
    r = check(Expectation(TYPE, int, "str", json_path="userId",
                          request=req("POST", "/api/users/register")), auth)
    assert r.verdict == CONTRADICTED
    assert r.reason.startswith("README.md:49 types userId as string; the test expects integer")
    r = check(Expectation(TYPE, "int", json_path="data.user_id",
                          request=req("POST", "/api/v1/users/register")),
              contract("UserManagement_2"))
    assert r.verdict == SPECIFIED and lines(r.mentions) == [34]


def test_headers() -> None:
    um = contract("UserManagement_2")
    get = req("GET", "/api/v1/users/1")
    r = check(Expectation(HEADER, "Access-Control-Allow-Origin", request=get), um)
    assert r.verdict == SILENT and "nor CORS" in r.reason
    r = check(Expectation(HEADER, "Authorization", request=get), um)
    assert r.verdict == SPECIFIED and lines(r.mentions) == [80]
    r = check(Expectation(HEADER, "Location", request=req("GET", "/aB3xY9")),
              contract("url-shortener"))
    assert r.verdict == SPECIFIED and lines(r.mentions) == [50]


def test_not_a_readme_question() -> None:
    um = contract("UserManagement_2")
    assert check(Expectation(CONNECTION), um).verdict == UNKNOWN
    r = check(Expectation(LENGTH, 3, 0, json_path="data",
                          request=req("GET", "/api/v1/users/1")), um)
    assert r.verdict == UNKNOWN


def test_example_values_are_examples() -> None:
    pan = contract("WebPan")
    upload = pan.field("upload_time", pan.endpoint("POST /api/v1/files/upload"))
    assert (upload.line, upload.value_kind) == (84, EXAMPLE)
