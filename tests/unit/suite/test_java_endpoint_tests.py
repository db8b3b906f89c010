"""Mapping README endpoints to the JUnit tests that call them (Java sources read, never run)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from inspector.model import Endpoint, Task
from inspector.model.benchmark.tasks import load_task
from inspector.model.suite.java_tests import java_tests
from inspector.paths import sample_runs
from inspector.services.suite.endpoint_match import EndpointTests
from inspector.services.suite.endpoint_tests import tests_for_task as map_task
from inspector.services.suite.java_endpoint_tests import (  # renamed: pytest collects test*
    java_tests_for_endpoints as map_java,
)
from inspector.ui.sample.loading import endpoint_refs

TEST = "src/test/java/com/example"


def write(task: Path, rel: str, source: str) -> Path:
    path = task / TEST / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return path


def eps(*specs: str) -> list[Endpoint]:
    return [Endpoint(*spec.split(" ", 1)) for spec in specs]


def ids(result: EndpointTests, key: str) -> list[str]:
    return sorted({r.test_id for r in result[key]})


def line_of(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if needle in ln)


@pytest.fixture
def task(tmp_path: Path) -> Path:
    return tmp_path / "task"


def bundled(name: str) -> Task:
    task = load_task(sample_runs() / "tasks" / "repo" / name, [])
    assert task is not None and task.language == "java"
    return task


def run(task: Path, *specs: str) -> EndpointTests:
    return map_java(task / "src/test/java", eps(*specs))


def test_restassured_base_path_templates_and_nested_classes(task: Path) -> None:
    src = write(task, "UsersTest.java", """
        package com.example;

        import io.restassured.RestAssured;
        import org.junit.jupiter.api.*;
        import static io.restassured.RestAssured.given;

        class UsersTest {
            private static final String USERS = "/users";

            @BeforeAll
            static void setup() {
                RestAssured.baseURI = "http://localhost";
                RestAssured.basePath = "/api/v1";
                given().post("/ignored-in-setup");
            }

            @Test
            void create() {
                given().contentType("application/json").body("{\\"name\\": \\"a\\"}")
                    .when()
                    .post(USERS)
                    .then().statusCode(201).extract().path("id");
            }

            @Nested
            class ById {
                @ParameterizedTest
                @ValueSource(ints = {1, 2})
                void fetch(int id) {
                    given().pathParam("id", id).when().get(USERS + "/{id}").then().statusCode(200);
                }

                @RepeatedTest(2)
                void remove() {
                    RestAssured.delete("/users/" + 7);
                    // given().when().put("/users/1");
                    String s = "given().when().patch(\\"/users/1\\")";
                }
            }
        }
        """)
    result = run(task, "POST /api/v1/users", "POST /users", "GET /api/v1/users/{id}",
                 "DELETE /api/v1/users/{id}", "PUT /api/v1/users/{id}",
                 "PATCH /api/v1/users/{id}")
    assert ids(result, "POST:/api/v1/users") == ["com.example.UsersTest::create"]
    assert result["POST:/users"] == []  # joined to RestAssured.basePath
    assert ids(result, "GET:/api/v1/users/{id}") == ["com.example.UsersTest$ById::fetch"]
    assert ids(result, "DELETE:/api/v1/users/{id}") == ["com.example.UsersTest$ById::remove"]
    assert result["PUT:/api/v1/users/{id}"] == [] and result["PATCH:/api/v1/users/{id}"] == []
    ref = result["POST:/api/v1/users"][0]
    assert ref.file == f"{TEST}/UsersTest.java"
    assert ref.line == line_of(src, ".post(USERS)")
    assert ref.call.startswith("given().contentType(") and ref.call.endswith(".post(USERS)")
    # the ids are those the JUnit counter (and so the per-test results) use
    found = {t.test_id for t in java_tests(task / "src/test/java", task)}
    assert {r.test_id for refs in result.values() for r in refs} <= found


def test_java_net_http_constants_concatenation_and_methods(task: Path) -> None:
    write(task, "Api.java", """
        package com.example;
        public final class Api {
            public static final String BASE_URL = "http://localhost:8080";
            public static final String ITEMS = BASE_URL + "/items";
        }
        """)
    write(task, "ItemsTest.java", """
        package com.example;

        import java.net.URI;
        import java.net.http.*;
        import org.junit.jupiter.api.Test;

        public class ItemsTest {
            private final HttpClient client = HttpClient.newHttpClient();

            @Test
            public void listAndCreate() throws Exception {
                HttpRequest list = HttpRequest.newBuilder(URI.create(Api.ITEMS)).build();
                client.send(list, HttpResponse.BodyHandlers.ofString());
                HttpRequest create = HttpRequest.newBuilder()
                        .uri(URI.create(Api.BASE_URL + "/items"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build();
            }

            @Test
            public void patchAndDelete() throws Exception {
                long id = 42;
                String url = String.format(Api.BASE_URL + "/items/%d", id);
                HttpRequest patch = HttpRequest.newBuilder().uri(URI.create(url))
                        .method("PATCH", HttpRequest.BodyPublishers.ofString("{}")).build();
                HttpRequest del = HttpRequest.newBuilder(new URI(Api.ITEMS + "/" + id))
                        .DELETE().build();
            }

            @Test
            public void literalPathIsNotAParameter() throws Exception {
                HttpRequest r = HttpRequest.newBuilder(URI.create(Api.ITEMS + "/search")).GET()
                        .build();
            }
        }
        """)
    result = run(task, "GET /items", "POST /items", "PATCH /items/{id}", "DELETE /items/{id}",
                 "GET /items/{id}", "GET /items/search")
    assert ids(result, "GET:/items") == ["com.example.ItemsTest::listAndCreate"]
    assert ids(result, "POST:/items") == ["com.example.ItemsTest::listAndCreate"]
    assert ids(result, "PATCH:/items/{id}") == ["com.example.ItemsTest::patchAndDelete"]
    assert ids(result, "DELETE:/items/{id}") == ["com.example.ItemsTest::patchAndDelete"]
    assert ids(result, "GET:/items/search") == ["com.example.ItemsTest::literalPathIsNotAParameter"]
    assert result["GET:/items/{id}"] == []  # "/items/search" goes to the literal endpoint


def test_spring_mockmvc_resttemplate_and_webtestclient(task: Path) -> None:
    write(task, "OrdersTest.java", """
        package com.example;

        import org.springframework.http.HttpMethod;
        import org.springframework.boot.test.web.client.TestRestTemplate;
        import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.*;
        import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

        @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
        class OrdersTest {
            @Autowired MockMvc mvc;
            @Autowired TestRestTemplate rest;
            @Autowired WebTestClient web;
            @LocalServerPort int port;

            @Test
            void mvcCalls() throws Exception {
                mvc.perform(get("/orders/{id}", 5)).andExpect(status().isOk());
                mvc.perform(MockMvcRequestBuilders.post("/orders").content("{}"));
            }

            @Test
            void templateCalls() {
                rest.getForEntity("/orders", String.class);
                rest.postForObject("http://localhost:" + port + "/orders", body(), Map.class);
                rest.exchange("/orders/" + 3, HttpMethod.PUT, new HttpEntity<>(body()), Map.class);
                rest.delete("/orders/{id}", 3);
                Map<String, Object> map = new HashMap<>();
                map.put("path", "/orders/1");
            }

            @Test
            void webClientCalls() {
                web.patch().uri("/orders/{id}", 9).bodyValue(body()).exchange()
                   .expectStatus().isOk();
            }

            private Map<String, Object> body() { return Map.of("item", "x"); }
        }
        """)
    result = run(task, "GET /api/orders/{id}", "POST /api/orders", "GET /api/orders",
                 "PUT /api/orders/{id}", "DELETE /api/orders/{id}", "PATCH /api/orders/{id}")
    assert ids(result, "GET:/api/orders/{id}") == ["com.example.OrdersTest::mvcCalls"]
    assert ids(result, "POST:/api/orders") == ["com.example.OrdersTest::mvcCalls"]
    assert ids(result, "GET:/api/orders") == ["com.example.OrdersTest::templateCalls"]
    assert ids(result, "PUT:/api/orders/{id}") == ["com.example.OrdersTest::templateCalls"]
    assert ids(result, "DELETE:/api/orders/{id}") == ["com.example.OrdersTest::templateCalls"]
    assert ids(result, "PATCH:/api/orders/{id}") == ["com.example.OrdersTest::webClientCalls"]
    # postForObject to "http://localhost:<port>/orders" has a known base: not under /api
    assert all("postForObject" not in r.call for r in result["POST:/api/orders"])


def test_okhttp_unirest_and_httpurlconnection(task: Path) -> None:
    write(task, "ClientsTest.java", """
        package com.example;

        import okhttp3.*;
        import kong.unirest.Unirest;
        import java.net.*;

        class ClientsTest {
            static final String BASE = "http://127.0.0.1:7000";
            OkHttpClient http = new OkHttpClient();

            @BeforeAll
            static void init() { Unirest.config().defaultBaseUrl(BASE + "/v2"); }

            @Test
            void okhttp() throws Exception {
                Request get = new Request.Builder().url(BASE + "/v2/notes").build();
                Request post = new Request.Builder()
                    .url(BASE + "/v2/notes")
                    .post(RequestBody.create("{}", MediaType.get("application/json")))
                    .build();
                http.newCall(post).execute();
            }

            @Test
            void unirest() {
                Unirest.delete("/notes/" + 4).asEmpty();
                Unirest.request("PATCH", "/notes/4").asEmpty();
            }

            @Test
            void connection() throws Exception {
                HttpURLConnection conn = (HttpURLConnection) new URL(BASE + "/v2/notes/1")
                    .openConnection();
                conn.setRequestMethod("PUT");
                conn.getResponseCode();
            }
        }
        """)
    result = run(task, "GET /v2/notes", "POST /v2/notes", "DELETE /v2/notes/{id}",
                 "PATCH /v2/notes/{id}", "PUT /v2/notes/{id}")
    assert ids(result, "GET:/v2/notes") == ["com.example.ClientsTest::okhttp"]
    assert ids(result, "POST:/v2/notes") == ["com.example.ClientsTest::okhttp"]
    assert ids(result, "DELETE:/v2/notes/{id}") == ["com.example.ClientsTest::unirest"]
    assert ids(result, "PATCH:/v2/notes/{id}") == ["com.example.ClientsTest::unirest"]
    assert ids(result, "PUT:/v2/notes/{id}") == ["com.example.ClientsTest::connection"]


def test_helpers_in_a_base_class_resolved_at_the_call_site(task: Path) -> None:
    base = write(task, "BaseApiTest.java", """
        package com.example;

        import java.net.*;
        import java.net.http.*;

        public abstract class BaseApiTest {
            protected static String baseUrl;

            @BeforeAll
            static void start() { baseUrl = "http://localhost:" + App.port(); }

            protected HttpResponse<String> post(String path, String body) throws Exception {
                return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
            }

            protected int call(String method, String path) throws Exception {
                HttpURLConnection c = (HttpURLConnection) URI.create(baseUrl + path).toURL()
                        .openConnection();
                c.setRequestMethod(method);
                return c.getResponseCode();
            }

            protected String books(long id) { return "/books/" + id; }
        }
        """)
    write(task, "BooksTest.java", """
        package com.example;

        class BooksTest extends BaseApiTest {
            private static final String BOOKS = "/books";

            @Test
            void create() throws Exception {
                post(BOOKS, "{}");
            }

            @Test
            void remove() throws Exception {
                call("DELETE", books(12));
            }
        }
        """)
    result = run(task, "POST /books", "DELETE /books/{id}")
    [ref] = result["POST:/books"]
    assert (ref.test_id, ref.via, ref.file) == ("com.example.BooksTest::create", "post",
                                                 f"{TEST}/BaseApiTest.java")
    assert ref.line == line_of(base, "return send(HttpRequest.newBuilder")
    [ref] = result["DELETE:/books/{id}"]
    assert (ref.test_id, ref.via) == ("com.example.BooksTest::remove", "call")


def test_bundled_java_tasks_map_the_endpoints_their_suites_call() -> None:
    """Pairs read in the suites by hand; every README endpoint of these suites is called."""
    cases = {
        "javalin-online-judge": ("POST:/api/contests/{id}/join", "tests.ApiTest::testJoinContest"),
        "javalin-user-auth-platform": ("DELETE:/api/users/{userId}",
                                       "UserDeletionTest::testSuccessfulUserDeletion"),
        "micronaut-ci-status": ("PUT:/agents/{id}/status", "tests.ApiTest::testUpdateAgentStatus"),
        "quarkus-blog-cms": ("GET:/api/authors/{id}", "com.example.blog.ApiTest::testGetAuthor"),
        "spark-dashboard-backend": ("POST:/api/dashboards/:id/widgets",
                                    "tests.ApiTest::testAddWidget"),
        "javalin-task-manager": ("GET:/users/{id}/tasks", "tests.ApiTest::testGetUserTasks"),
    }
    for name, (key, test_id) in cases.items():
        task = bundled(name)
        result = map_task(task, task.required_endpoints)
        assert test_id in ids(result, key), name
        assert all(result[e.key] for e in task.required_endpoints if e.method != "FEATURE"), name
    task = bundled("javalin-user-auth-platform")
    result = map_task(task, task.required_endpoints)
    logins = ids(result, "POST:/api/users/login")
    assert "UserLoginTest::testSuccessfulLogin" in logins
    assert "UserRegistrationTest::testSuccessfulRegistration" not in logins


def test_sample_screen_refs_of_a_java_task() -> None:
    """What the sample screen's endpoint → tests view reads for a bundled Java task."""
    task = bundled("quarkus-blog-cms")
    refs = endpoint_refs(task, list(task.required_endpoints))
    [ref] = refs["DELETE:/api/comments/{id}"]
    assert ref.test_id == "com.example.blog.ApiTest::testDeleteComment"
    assert ref.file == "src/test/java/ApiTest.java"
    assert ".delete(\"/api/comments/{id}\")" in ref.call


def test_a_builder_given_its_method_later_static_helpers_and_a_ternary(task: Path) -> None:
    """The shape of a hand-written suite helper: ``send(method, path, body)`` keeps the
    ``java.net.http`` builder in a variable and sets the method in a later statement (in both
    branches), tests call ``post``/``get`` through ``import static``, and a path is chosen by
    ``c ? a : b``."""
    write(task, "Api.java", """
        package com.example;

        import java.net.URI;
        import java.net.http.*;

        final class Api {
            static final String BASE = "http://localhost:8080";

            static String send(String method, String path, String body) throws Exception {
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(BASE + path))
                        .header("Accept", "application/json");
                if (body == null) {
                    b.method(method, HttpRequest.BodyPublishers.noBody());
                } else {
                    b.method(method, HttpRequest.BodyPublishers.ofString(body));
                }
                return HttpClient.newHttpClient().send(b.build(),
                        HttpResponse.BodyHandlers.ofString()).body();
            }

            static String get(String path) throws Exception { return send("GET", path, null); }

            static String post(String path, String body) throws Exception {
                return send("POST", path, body);
            }

            static String list(String tag) throws Exception {
                return get(tag == null ? "/items" : "/items?tag=" + tag);
            }
        }
        """)
    write(task, "ItemsTest.java", """
        package com.example;

        import static com.example.Api.post;
        import static com.example.Api.list;

        import org.junit.jupiter.api.Test;

        class ItemsTest {
            @Test
            void creates() throws Exception { post("/items", "{}"); }

            @Test
            void lists() throws Exception { list(null); }
        }
        """)
    got = run(task, "POST /items", "GET /items", "PUT /items")
    assert ids(got, "POST:/items") == ["com.example.ItemsTest::creates"]
    assert ids(got, "GET:/items") == ["com.example.ItemsTest::lists"]
    assert ids(got, "PUT:/items") == []  # the builder's later method is the caller's, no more
