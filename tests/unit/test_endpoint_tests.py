"""Mapping README endpoints to the golden tests that hit them (static analysis, never run)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from inspector.model import Endpoint
from inspector.model.benchmark.tasks import load_tasks
from inspector.paths import sample_runs
from inspector.services.suite.endpoint_tests import (
    EndpointTests,
    TestRef,
    endpoint_segments,
    path_segments,
)
from inspector.services.suite.endpoint_tests import (  # renamed: pytest would collect test*
    tests_for_endpoints as map_tests,
)


def write(root: Path, rel: str, source: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return path


def eps(*specs: str) -> list[Endpoint]:
    return [Endpoint(*spec.split(" ", 1)) for spec in specs]


def ids(result: EndpointTests, key: str) -> list[str]:
    return [r.test_id for r in result[key]]


def line_of(path: Path, needle: str, after: str = "") -> int:
    lines = path.read_text().splitlines()
    start = next(i for i, ln in enumerate(lines) if after in ln) if after else 0
    return next(i for i in range(start, len(lines)) if needle in lines[i]) + 1


@pytest.fixture
def task(tmp_path: Path) -> Path:
    return tmp_path / "task"


def test_fstrings_concatenation_and_methods(task: Path) -> None:
    write(task, "tests/test_notes.py", """
        import requests
        BASE = "http://127.0.0.1:8080"

        def test_create(base_url):
            requests.post(f"{base_url}/notes", json={"title": "x"})

        def test_get(base_url):
            nid = 3
            requests.get(f"{BASE}/notes/{nid}")

        def test_delete(session, url):
            session.delete(url + "/notes/" + str(7))

        def test_put():
            import httpx
            httpx.put("http://localhost:9999/notes/1/", json={})
    """)
    result = map_tests(task / "tests", eps(
        "POST /notes", "GET /notes/{id}", "DELETE /notes/{id}", "PUT /notes/{id}"))
    assert ids(result, "POST:/notes") == ["tests/test_notes.py::test_create"]
    assert ids(result, "GET:/notes/{id}") == ["tests/test_notes.py::test_get"]
    assert ids(result, "DELETE:/notes/{id}") == ["tests/test_notes.py::test_delete"]
    assert ids(result, "PUT:/notes/{id}") == ["tests/test_notes.py::test_put"]
    ref = result["POST:/notes"][0]
    assert ref == TestRef("tests/test_notes.py::test_create", "tests/test_notes.py", 5,
                          'requests.post(f"{base_url}/notes", json={"title": "x"})')
    assert result.skipped == []


def test_class_methods_and_nested_classes(task: Path) -> None:
    write(task, "tests/test_api.py", """
        class TestTodos:
            def test_list(self, client):
                client.get("/todos")

            def helper(self):
                pass

            class TestNested:
                async def test_patch(self, client):
                    await client.patch("/todos/5", json={})

        class Helper:  # not a test class
            def test_ignored(self, client):
                client.get("/todos")
    """)
    result = map_tests(task / "tests", eps("GET /todos", "PATCH /todos/{id}"))
    assert ids(result, "GET:/todos") == ["tests/test_api.py::TestTodos::test_list"]
    assert ids(result, "PATCH:/todos/{id}") == [
        "tests/test_api.py::TestTodos::TestNested::test_patch"]


@pytest.mark.parametrize("readme_path", ["/items/{sku}/reserve", "/items/<sku>/reserve",
                                         "/items/<string:sku>/reserve", "/items/:sku/reserve",
                                         "/items/{sku}/reserve/"])
def test_readme_parameter_styles(task: Path, readme_path: str) -> None:
    write(task, "tests/test_items.py", """
        def test_reserve(client, sku):
            client.post(f"/items/{sku}/reserve?dry=1", json={"quantity": 1})
            client.post("/items/ABC-1/reserve/")
    """)
    result = map_tests(task / "tests", eps(f"POST {readme_path}"))
    assert [r.line for r in result[f"POST:{readme_path}"]] == [2, 3]


def test_base_prefix_is_tolerated_but_exact_paths_win(task: Path) -> None:
    write(task, "tests/test_v1.py", """
        API = "/api/v1"

        def test_prefixed(base_url):
            requests.get(f"{base_url}/api/v1/notes")
            requests.get(base_url + API + "/notes/12")

        def test_exact(base_url):
            requests.get(f"{base_url}/notes")
    """)
    result = map_tests(task / "tests", eps("GET /notes", "GET /notes/{id}"))
    assert ids(result, "GET:/notes") == ["tests/test_v1.py::test_prefixed",
                                         "tests/test_v1.py::test_exact"]
    assert ids(result, "GET:/notes/{id}") == ["tests/test_v1.py::test_prefixed"]
    # with the prefixed endpoint in the README as well, only the exact one is credited
    both = map_tests(task / "tests", eps("GET /notes", "GET /api/v1/notes"))
    assert ids(both, "GET:/api/v1/notes") == ["tests/test_v1.py::test_prefixed"]
    assert ids(both, "GET:/notes") == ["tests/test_v1.py::test_exact"]


def test_method_must_match_and_feature_endpoints_are_skipped(task: Path) -> None:
    write(task, "tests/test_m.py", """
        def test_get_only(client):
            client.get("/notes")
            client.request("DELETE", "/notes/1")
            client.request(method="patch", url="/notes/2")
    """)
    result = map_tests(task / "tests", eps(
        "POST /notes", "FEATURE Notes", "DELETE /notes/{id}", "PATCH /notes/{id}"))
    assert result["POST:/notes"] == []
    assert result["FEATURE:Notes"] == []
    assert [r.line for r in result["DELETE:/notes/{id}"]] == [3]
    assert [r.line for r in result["PATCH:/notes/{id}"]] == [4]


def test_most_specific_endpoint_wins_and_wildcards_only_match_parameters(task: Path) -> None:
    write(task, "tests/test_short.py", """
        def test_health(base_url):
            requests.get(f"{base_url}/health")

        def test_redirect(base_url, code):
            requests.get(f"{base_url}/{code}")

        def test_unknown(base_url):
            requests.get(base_url + "/zzzzzz")

        def test_stats(base_url, code):
            requests.get(f"{base_url}/api/stats/{code}")
    """)
    result = map_tests(task / "tests", eps(
        "GET /health", "GET /{code}", "GET /api/stats/{code}"))
    assert ids(result, "GET:/health") == ["tests/test_short.py::test_health"]
    assert ids(result, "GET:/{code}") == ["tests/test_short.py::test_redirect",
                                          "tests/test_short.py::test_unknown"]
    assert ids(result, "GET:/api/stats/{code}") == ["tests/test_short.py::test_stats"]


def test_helpers_fixtures_and_variables(task: Path) -> None:
    write(task, "tests/conftest.py", """
        import pytest

        @pytest.fixture
        def base_url():
            return os.environ.get("API_BASE_URL", "http://127.0.0.1:1").rstrip("/")

        @pytest.fixture
        def created(base_url):
            return requests.post(f"{base_url}/notes", json={}).json()

        @pytest.fixture(autouse=True)
        def reset(base_url):
            requests.delete(f"{base_url}/notes")
    """)
    write(task, "tests/test_flow.py", """
        def _url(base, nid):
            return f"{base}/notes/{nid}"

        def _get(base_url, nid):
            url = "%s/notes/%d" % (base_url, nid)
            return requests.get(url)

        def test_uses_fixture(created, base_url):
            path = "/notes/{}".format(created["id"])
            path += "/"
            requests.put(base_url + path, json={})

        def test_uses_helper(base_url):
            _get(base_url, 1)

        def test_url_helper(base_url):
            requests.get(_url(base_url, 1))  # a helper returning a URL is followed
    """)
    result = map_tests(task / "tests", eps(
        "POST /notes", "GET /notes/{id}", "PUT /notes/{id}", "DELETE /notes"))
    post = result["POST:/notes"]
    assert [(r.test_id, r.file, r.via) for r in post] == [
        ("tests/test_flow.py::test_uses_fixture", "tests/conftest.py", "fixture created")]
    assert ids(result, "PUT:/notes/{id}") == ["tests/test_flow.py::test_uses_fixture"]
    get = result["GET:/notes/{id}"]
    assert [(r.test_id, r.line, r.via) for r in get] == [
        ("tests/test_flow.py::test_uses_helper", 6, "_get"),
        ("tests/test_flow.py::test_url_helper", 17, "")]
    assert get[0].call == "return requests.get(url)"
    assert result["DELETE:/notes"] == []  # autouse fixtures are not credited to every test


def test_unparsable_and_non_test_files(task: Path) -> None:
    write(task, "tests/test_broken.py", "def test_x(:\n    pass\n")
    write(task, "tests/helpers.py", "def test_not_collected(c):\n    c.get('/notes')\n")
    write(task, "tests/sub/test_deep.py", "def test_deep(c):\n    c.get('/notes')\n")
    write(task, "tests/sub/notes_test.py", "def test_suffix(c):\n    c.get('/notes/')\n")
    result = map_tests(task / "tests", eps("GET /notes"))
    assert ids(result, "GET:/notes") == ["tests/sub/notes_test.py::test_suffix",
                                         "tests/sub/test_deep.py::test_deep"]
    assert len(result.skipped) == 1
    file, error = result.skipped[0]
    assert file == "tests/test_broken.py" and error.startswith("SyntaxError")


def test_test_code_is_never_executed(task: Path, tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    write(task, "tests/conftest.py", f"open({str(marker)!r}, 'w').close()\n")
    write(task, "tests/test_side_effect.py", f"""
        open({str(marker)!r}, "w").close()
        raise SystemExit(3)

        def test_x(c):
            c.get("/notes")
    """)
    result = map_tests(task / "tests", eps("GET /notes"))
    assert ids(result, "GET:/notes") == ["tests/test_side_effect.py::test_x"]
    assert not marker.exists()


def test_missing_tests_dir_gives_empty_lists(tmp_path: Path) -> None:
    result = map_tests(tmp_path / "nope", eps("GET /a", "FEATURE b"))
    assert dict(result) == {"GET:/a": [], "FEATURE:b": []} and result.skipped == []


def test_call_text_is_joined_and_capped(task: Path) -> None:
    long = "x" * 300
    write(task, "tests/test_long.py", f"""
        def test_long(base_url):
            resp = requests.post(
                f"{{base_url}}/notes",
                json={{"title": "{long}"}},
            )
    """)
    ref = map_tests(task / "tests", eps("POST /notes"))["POST:/notes"][0]
    assert ref.line == 2
    assert ref.call.startswith('resp = requests.post(f"{base_url}/notes", json=')
    assert len(ref.call) == 160


@pytest.mark.parametrize(("template", "segments"), [
    ("\x00/notes/\x00", ("notes", None)),
    ("http://127.0.0.1:8080/api/v1/notes?x=1", ("api", "v1", "notes")),
    ("/notes/", ("notes",)),
    ("notes/1", ("notes", "1")),
    ("localhost:8000/health", ("health",)),
    ("\x00", None),
    ("API_BASE_URL", None),
    ("\x00/", ()),
])
def test_path_segments(template: str, segments: tuple | None) -> None:
    assert path_segments(template) == segments


def test_endpoint_segments() -> None:
    assert endpoint_segments("/convert?value=1") == ("convert",)
    assert endpoint_segments("/a/{id}/<b>/:c/") == ("a", None, None, None)


# ------------------------------------------------------------------------ bundled tasks

# The bundled tasks: 8 real Python RepoGenesis tasks, 8 real Java ones (browsing only) and the
# synthetic tasks kept for what the real ones do not show.
REAL_PYTHON = {"Multilingual", "StructuredDataConvertor", "UserManagement_2", "WebPan",
               "django-rest-framework-crud", "eve", "flask", "synapse"}
SYNTHETIC = {"inventory-api", "notes-api", "quote-board", "todo-service", "unit-converter",
             "url-shortener"}
# README endpoints the bundled synthetic suites really do not exercise (checked by reading them).
NOT_EXERCISED = {("quote-board", "GET:/health")}


@pytest.fixture(scope="module")
def bundled_tasks() -> dict:
    tasks, issues = load_tasks(sample_runs() / "tasks")
    assert not [i for i in issues if i.severity == "error"]
    assert {n for n, t in tasks.items() if t.language == "python"} == REAL_PYTHON | SYNTHETIC
    assert len([t for t in tasks.values() if t.language == "java"]) == 8
    return tasks


def test_bundled_every_exercised_endpoint_has_tests(bundled_tasks: dict) -> None:
    missing = set()
    for name in SYNTHETIC:
        task = bundled_tasks[name]
        result = map_tests(task.tests_dir, task.endpoints)
        assert result.skipped == []
        assert set(result) == {ep.key for ep in task.endpoints}
        for ep in task.endpoints:
            if ep.method != "FEATURE" and not result[ep.key]:
                missing.add((name, ep.key))
    assert missing == NOT_EXERCISED


def test_bundled_notes_api_create(bundled_tasks: dict) -> None:
    task = bundled_tasks["notes-api"]
    result = map_tests(task.tests_dir, task.endpoints)
    source = task.tests_dir / "test_notes.py"
    refs = {r.test_id: r for r in result["POST:/api/v1/notes"]}
    direct = refs["tests/test_notes.py::test_create_note_returns_full_note"]
    assert direct.file == "tests/test_notes.py" and direct.via == ""
    assert direct.line == line_of(source, "requests.post(",
                                  after="def test_create_note_returns_full_note")
    via = refs["tests/test_notes.py::test_create_note_defaults"]  # only through _create()
    assert via.via == "_create" and via.line == line_of(source, "requests.post(")
    assert "tests/test_notes.py::test_health" not in refs
    assert [r.test_id for r in result["DELETE:/api/v1/notes/{id}"]] == [
        "tests/test_notes.py::test_delete_note"]


def test_bundled_url_shortener_redirect_is_not_health(bundled_tasks: dict) -> None:
    task = bundled_tasks["url-shortener"]
    result = map_tests(task.tests_dir, task.endpoints)
    assert {r.test_id.split("::")[1] for r in result["GET:/{code}"]} == {
        "test_redirect", "test_unknown_code_is_404", "test_stats_count_hits"}
    assert [r.test_id.split("::")[1] for r in result["GET:/health"]] == ["test_health"]


def test_bundled_unit_converter_query_endpoint(bundled_tasks: dict) -> None:
    """The stock README rules also extract ``GET /convert?value=…``; it maps like ``/convert``,
    whose only calls are in the ``_convert`` helper."""
    task = bundled_tasks["unit-converter"]
    result = map_tests(task.tests_dir, task.endpoints)
    query_key = next(ep.key for ep in task.endpoints if "?" in ep.path)
    assert result[query_key] == result["GET:/convert"]
    assert {r.via for r in result["GET:/convert"]} == {"_convert"}
    assert len(result["GET:/convert"]) == 5


# ---------------------------------------------------------------- real RepoGenesis suites

# Spec endpoints (``task.required_endpoints``) no test of the real suite sends a request to,
# found by reading each suite: django's suite never refreshes a token; synapse's suite only
# checks the README's schemas and calls /health; flask's suite builds its own minimal Flask
# app in the test file and calls that through ``app.test_client()``, never the service.
REAL_UNEXERCISED = {
    "Multilingual": set(),
    "StructuredDataConvertor": set(),
    "UserManagement_2": set(),
    "WebPan": set(),
    "django-rest-framework-crud": {"POST:/api/v1/auth/refresh/"},
    "eve": set(),
    "flask": {"GET:/health", "POST:/echo", "GET:/sum"},
    "synapse": {"POST:/register", "POST:/login", "POST:/rooms/{room_id}/messages",
                "GET:/rooms/{room_id}/messages"},
}

# (task, endpoint key, test id, file, line of the HTTP call, via), read off the suites.
REAL_SPOT_CHECKS = [
    ("Multilingual", "POST:/api/translate",
     "tests/test_translate.py::test_translate_english_to_chinese",
     "tests/test_translate.py", 33, ""),
    ("Multilingual", "GET:/api/languages", "tests/test_languages.py::test_languages_consistency",
     "tests/test_languages.py", 94, ""),
    ("StructuredDataConvertor", "GET:/api/v1/health",
     "tests/test_health.py::TestHealthEndpoint::test_health_endpoint_available",
     "tests/test_health.py", 13, ""),
    ("StructuredDataConvertor", "POST:/api/v1/convert/batch",
     "tests/test_convert_batch.py::TestConvertBatchEndpoint::test_batch_conversion_sequential",
     "tests/test_convert_batch.py", 55, ""),
    # ``for interface_name, method, url in interfaces: ... requests.post(url, ...)``
    ("StructuredDataConvertor", "POST:/api/v1/convert/batch",
     "tests/test_integration.py::TestIntegration::test_api_version_compatibility",
     "tests/test_integration.py", 309, ""),
    ("UserManagement_2", "POST:/api/v1/users/register",
     "tests/test_user_api.py::TestUserAPI::test_user_registration_success",
     "tests/test_user_api.py", 23, ""),
    ("UserManagement_2", "GET:/api/v1/users/{user_id}",
     "tests/test_edge_cases.py::TestEdgeCases::test_get_user_info_nonexistent_user",
     "tests/test_edge_cases.py", 149, ""),
    ("WebPan", "GET:/api/v1/storage/quota",
     "tests/test_webpan_api.py::TestWebPanAPI::test_storage_quota",
     "tests/test_webpan_api.py", 418, ""),
    ("WebPan", "POST:/api/v1/auth/login",
     "tests/test_webpan_api.py::TestWebPanAPI::test_file_upload_single",
     "tests/test_webpan_api.py", 528, "_login_user"),
    ("WebPan", "DELETE:/api/v1/share/{share_id}",
     "tests/test_webpan_api.py::TestWebPanAPI::test_share_delete",
     "tests/test_webpan_api.py", 402, ""),
    ("django-rest-framework-crud", "POST:/api/v1/auth/token/",
     "tests/test_api_blackbox.py::test_movies_crud_flow_blackbox",
     "tests/test_api_blackbox.py", 21, "auth_headers > obtain_token"),
    ("django-rest-framework-crud", "GET:/api/v1/movies/{id}/",
     "tests/test_api_blackbox.py::test_movies_crud_flow_blackbox",
     "tests/test_api_blackbox.py", 93, ""),
    ("eve", "PUT:/people/{id}", "tests/test_api_blackbox.py::test_people_crud_with_etag_blackbox",
     "tests/test_api_blackbox.py", 65, ""),
    ("eve", "PUT:/people/{id}", "tests/test_api_blackbox.py::test_people_crud_with_etag_blackbox",
     "tests/test_api_blackbox.py", 25, "update_person"),
    ("synapse", "GET:/health",
     "tests/test_api_contract.py::test_healthcheck_contract_or_skip_if_unavailable",
     "tests/test_api_contract.py", 66, ""),
]


@pytest.mark.parametrize("name", sorted(REAL_PYTHON))
def test_real_suite_unexercised_spec_endpoints(bundled_tasks: dict, name: str) -> None:
    task = bundled_tasks[name]
    result = map_tests(task.tests_dir, task.required_endpoints)
    assert result.skipped == []
    unexercised = {ep.key for ep in task.required_endpoints
                   if ep.method != "FEATURE" and not result[ep.key]}
    assert unexercised == REAL_UNEXERCISED[name]
    for refs in result.values():  # ids are repo-root node ids, files exist, lines are calls
        for ref in refs:
            file, _, names = ref.test_id.partition("::")
            assert file.startswith("tests/") and names
            assert (task.tests_dir.parent / ref.file).is_file()
            assert ref.call


@pytest.mark.parametrize(("name", "key", "test_id", "file", "line", "via"), REAL_SPOT_CHECKS)
def test_real_suite_spot_checks(bundled_tasks: dict, name: str, key: str, test_id: str,
                                file: str, line: int, via: str) -> None:
    task = bundled_tasks[name]
    refs = map_tests(task.tests_dir, task.required_endpoints)[key]
    assert (test_id, file, line, via) in {(r.test_id, r.file, r.line, r.via) for r in refs}
    source = (task.tests_dir.parent / file).read_text().splitlines()
    assert re.search(r"\.(get|post|put|delete|patch|request)\(", source[line - 1])


def test_real_suite_table_driven_loop_credits_each_row(bundled_tasks: dict) -> None:
    """``for name, method, url in [...]: if method == "GET": requests.get(url) else:
    requests.post(url)``: the GET line hits health only, the POST line both converts."""
    task = bundled_tasks["StructuredDataConvertor"]
    result = map_tests(task.tests_dir, task.required_endpoints)
    test_id = "tests/test_integration.py::TestIntegration::test_api_version_compatibility"
    lines = {key: {r.line for r in refs if r.test_id == test_id} for key, refs in result.items()}
    assert lines == {"GET:/api/v1/health": {288, 302}, "POST:/api/v1/convert": {309},
                     "POST:/api/v1/convert/batch": {309}}


def test_real_suite_wrong_method_probes_are_not_credited(bundled_tasks: dict) -> None:
    """``GET /users/register`` and ``PUT /users/login`` probe the POST endpoints; they do not
    read or update a user called "register"; ``request("POST", .../health)`` is no endpoint."""
    um = bundled_tasks["UserManagement_2"]
    result = map_tests(um.tests_dir, um.required_endpoints)
    probe = "tests/test_edge_cases.py::TestEdgeCases::test_unsupported_http_methods"
    assert not [r for refs in result.values() for r in refs if r.test_id == probe]
    sdc = bundled_tasks["StructuredDataConvertor"]
    result = map_tests(sdc.tests_dir, sdc.required_endpoints)
    probe = "tests/test_health.py::TestHealthEndpoint::test_health_endpoint_invalid_methods"
    assert not [r for refs in result.values() for r in refs if r.test_id == probe]


# ------------------------------------------------------------- patterns of real suites


def test_class_attribute_base_url_with_prefix(task: Path) -> None:
    write(task, "tests/test_users.py", """
        import requests

        class TestUserAPI:
            BASE_URL = "http://localhost:8080/api/v1"

            def test_register(self):
                requests.post(f"{self.BASE_URL}/users/register", json={})

            def test_get(self):
                requests.get(self.BASE_URL + "/users/7")

            def test_by_class_name(self):
                requests.get(TestUserAPI.BASE_URL + "/users/8")

        class TestOverride:
            BASE = "http://localhost:8080"

            def setup_method(self):  # the instance attribute wins over the class's
                self.BASE = self.BASE + "/api/v1"

            def test_users(self):
                requests.get(f"{self.BASE}/users/9")
    """)
    spec = map_tests(task / "tests", eps("POST /api/v1/users/register", "GET /api/v1/users/{id}"))
    assert ids(spec, "POST:/api/v1/users/register") == [
        "tests/test_users.py::TestUserAPI::test_register"]
    assert ids(spec, "GET:/api/v1/users/{id}") == [
        "tests/test_users.py::TestUserAPI::test_get",
        "tests/test_users.py::TestUserAPI::test_by_class_name",
        "tests/test_users.py::TestOverride::test_users"]
    # a README that omits the base path: the call's extra leading segments are tolerated
    bare = map_tests(task / "tests", eps("POST /users/register"))
    assert ids(bare, "POST:/users/register") == ["tests/test_users.py::TestUserAPI::test_register"]


def test_session_and_base_url_set_in_setup(task: Path) -> None:
    source = write(task, "tests/test_files.py", """
        import pytest
        import requests

        class TestFiles:
            @pytest.fixture(autouse=True)
            def setup(self):
                self.session = requests.Session()
                self.base = "http://localhost:8080/api/v1"

            def setup_method(self):
                self.api = self.base + "/files"

            def test_list(self):
                self.session.get(self.api)

            def test_rename(self):
                fid = self._upload()
                self.session.put(f"{self.api}/{fid}/rename", json={})

            def _upload(self):
                r = self.session.post(f"{self.base}/files/upload", files={})
                return r.json()["id"]
    """)
    result = map_tests(task / "tests", eps(
        "GET /api/v1/files", "PUT /api/v1/files/{id}/rename", "POST /api/v1/files/upload"))
    assert ids(result, "GET:/api/v1/files") == ["tests/test_files.py::TestFiles::test_list"]
    assert ids(result, "PUT:/api/v1/files/{id}/rename") == [
        "tests/test_files.py::TestFiles::test_rename"]
    upload = result["POST:/api/v1/files/upload"]
    assert [(r.test_id, r.line, r.via) for r in upload] == [
        ("tests/test_files.py::TestFiles::test_rename",
         line_of(source, "self.session.post("), "_upload")]


def test_environment_defaults_and_url_helpers(task: Path) -> None:
    write(task, "tests/test_people.py", """
        import os
        import requests

        BASE_URL = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:5001")
        API = os.getenv("API_URL") or "http://127.0.0.1:5001/api"

        def url(path: str) -> str:
            return f"{BASE_URL}{path}"

        def api_get(path, **kw):
            return requests.get(API + path, **kw)

        def test_get_person():
            pid = "abc"
            requests.get(url(f"/people/{pid}"), timeout=10)

        def test_list_people():
            requests.get(url("/people"))

        def test_api_helper():
            api_get("/stats")
            api_get(path="/people")
    """)
    result = map_tests(task / "tests", eps(
        "GET /people", "GET /people/{id}", "GET /api/stats", "GET /api/people"))
    assert ids(result, "GET:/people/{id}") == ["tests/test_people.py::test_get_person"]
    assert ids(result, "GET:/people") == ["tests/test_people.py::test_list_people"]
    assert [(r.test_id, r.line, r.via) for r in result["GET:/api/stats"]] == [
        ("tests/test_people.py::test_api_helper", 11, "api_get")]
    assert ids(result, "GET:/api/people") == ["tests/test_people.py::test_api_helper"]


def test_fixtures_returning_base_urls_and_clients(task: Path) -> None:
    conftest = write(task, "tests/conftest.py", """
        import os
        import httpx
        import pytest

        @pytest.fixture(scope="session")
        def api_base_url():
            return os.getenv("API_BASE_URL", "http://localhost:8080/api/v1")

        @pytest.fixture
        def client():
            with httpx.Client(base_url="http://localhost:8080/api/v1/") as c:
                yield c

        @pytest.fixture
        def token(api_base_url):
            return requests.post(f"{api_base_url}/users/login", json={}).json()["token"]
    """)
    write(task, "tests/test_api.py", """
        def test_register(api_base_url):
            requests.post(f"{api_base_url}/users/register", json={})

        def test_me(client, token):
            client.get("/users/me", headers={"Authorization": token})

        def test_relative(client):
            client.get("users/me")
    """)
    result = map_tests(task / "tests", eps(
        "POST /api/v1/users/register", "POST /api/v1/users/login", "GET /api/v1/users/me",
        "GET /users/me"))
    assert ids(result, "POST:/api/v1/users/register") == ["tests/test_api.py::test_register"]
    login = result["POST:/api/v1/users/login"]
    assert [(r.test_id, r.file, r.line, r.via) for r in login] == [
        ("tests/test_api.py::test_me", "tests/conftest.py",
         line_of(conftest, "requests.post("), "fixture token")]
    # the client's base_url carries /api/v1: the exact endpoint wins over the bare one
    assert ids(result, "GET:/api/v1/users/me") == ["tests/test_api.py::test_me",
                                                   "tests/test_api.py::test_relative"]
    assert result["GET:/users/me"] == []


def test_request_with_method_argument_and_parametrize(task: Path) -> None:
    write(task, "tests/test_req.py", """
        import pytest
        import requests

        BASE = "http://localhost:8000"

        def test_request_post():
            requests.request("POST", f"{BASE}/items", json={})

        @pytest.mark.parametrize("method", ["PUT", "DELETE"])
        def test_request_param(method):
            requests.request(method, BASE + "/items/3")

        @pytest.mark.parametrize(("path", "code"), [("/health", 200), pytest.param("/items", 200)])
        def test_paths(path, code):
            requests.get(BASE + path)
    """)
    result = map_tests(task / "tests", eps(
        "POST /items", "PUT /items/{id}", "DELETE /items/{id}", "GET /health", "GET /items"))
    assert ids(result, "POST:/items") == ["tests/test_req.py::test_request_post"]
    assert ids(result, "PUT:/items/{id}") == ["tests/test_req.py::test_request_param"]
    assert ids(result, "DELETE:/items/{id}") == ["tests/test_req.py::test_request_param"]
    assert ids(result, "GET:/health") == ["tests/test_req.py::test_paths"]
    assert ids(result, "GET:/items") == ["tests/test_req.py::test_paths"]


def test_urljoin_and_path_joins(task: Path) -> None:
    write(task, "tests/test_join.py", """
        from urllib.parse import urljoin
        import requests

        BASE = "http://localhost:8000/api/v1/"

        def test_relative_join():
            requests.get(urljoin(BASE, "orders"))

        def test_absolute_join_replaces_the_base_path():
            requests.get(urljoin(BASE, "/orders"))

        def test_str_join():
            requests.get("/".join([BASE.rstrip("/"), "orders", str(5)]))
    """)
    result = map_tests(task / "tests", eps(
        "GET /api/v1/orders", "GET /orders", "GET /api/v1/orders/{id}"))
    assert ids(result, "GET:/api/v1/orders") == ["tests/test_join.py::test_relative_join"]
    assert ids(result, "GET:/orders") == [
        "tests/test_join.py::test_absolute_join_replaces_the_base_path"]
    assert ids(result, "GET:/api/v1/orders/{id}") == ["tests/test_join.py::test_str_join"]


def test_unknown_base_may_omit_the_readme_base_path(task: Path) -> None:
    write(task, "tests/test_prefix.py", """
        import requests

        def test_unknown_base(request):
            base = request.config.getoption("--base-url")
            requests.get(f"{base}/users")

        def test_known_host_without_prefix():
            requests.get("http://localhost:8080/users")

        def test_client_bare_path(client):
            client.get("/users")
    """)
    result = map_tests(task / "tests", eps("GET /api/v1/users"))
    # an unknown base (or a client's) may carry /api/v1; a literal host without it does not
    assert ids(result, "GET:/api/v1/users") == ["tests/test_prefix.py::test_unknown_base",
                                                "tests/test_prefix.py::test_client_bare_path"]


def test_django_trailing_slashes(task: Path) -> None:
    write(task, "tests/test_movies.py", """
        import requests
        BASE_URL = "http://127.0.0.1:8000"

        def test_movies():
            requests.get(f"{BASE_URL}/api/v1/movies/?title=x")
            requests.get(f"{BASE_URL}/api/v1/movies/{3}/")
            requests.get(f"{BASE_URL}/api/v1/movies")
    """)
    result = map_tests(task / "tests", eps("GET /api/v1/movies/", "GET /api/v1/movies/{id}/"))
    assert [r.line for r in result["GET:/api/v1/movies/"]] == [5, 7]
    assert [r.line for r in result["GET:/api/v1/movies/{id}/"]] == [6]


def test_class_collection_follows_pytest(task: Path) -> None:
    write(task, "tests/base.py", """
        import requests

        class ApiBase:
            BASE_URL = "http://localhost:8080/api"

            def get(self, path):
                return requests.get(self.BASE_URL + path)

            def test_inherited_health(self):
                self.get("/health")
    """)
    write(task, "tests/test_classes.py", """
        import unittest
        from base import ApiBase
        import requests

        class TestItems(ApiBase):
            def test_items(self):
                self.get("/items")

        class TestWithInit:  # pytest does not collect a class with __init__
            def __init__(self):
                self.x = 1

            def test_never_run(self):
                requests.get("http://h/api/items")

        class ItemsCase(unittest.TestCase):
            def setUp(self):
                self.url = "http://localhost:8080/api/items"

            def test_items(self):
                requests.get(self.url)
    """)
    result = map_tests(task / "tests", eps("GET /api/items", "GET /api/health"))
    assert ids(result, "GET:/api/items") == ["tests/test_classes.py::TestItems::test_items",
                                             "tests/test_classes.py::ItemsCase::test_items"]
    health = result["GET:/api/health"]
    assert [(r.test_id, r.file, r.line, r.via) for r in health] == [
        ("tests/test_classes.py::TestItems::test_inherited_health", "tests/base.py", 7, "get")]


def test_names_imported_from_other_suite_modules(task: Path) -> None:
    write(task, "tests/conftest.py", """
        BASE_URL = "http://localhost:9000/v2"
    """)
    write(task, "tests/helpers/__init__.py", "")
    write(task, "tests/helpers/urls.py", """
        from conftest import BASE_URL

        def endpoint(name):
            return f"{BASE_URL}/{name}"
    """)
    write(task, "tests/test_imports.py", """
        import requests
        from conftest import BASE_URL
        from helpers.urls import endpoint
        import helpers.urls as urls

        def test_constant():
            requests.get(BASE_URL + "/status")

        def test_function():
            requests.post(endpoint("jobs"))

        def test_module_attribute():
            requests.delete(urls.endpoint("jobs") + "/1")
    """)
    result = map_tests(task / "tests", eps(
        "GET /v2/status", "POST /v2/jobs", "DELETE /v2/jobs/{id}"))
    assert ids(result, "GET:/v2/status") == ["tests/test_imports.py::test_constant"]
    assert ids(result, "POST:/v2/jobs") == ["tests/test_imports.py::test_function"]
    assert ids(result, "DELETE:/v2/jobs/{id}") == ["tests/test_imports.py::test_module_attribute"]


def test_loop_tables_and_dict_lookups(task: Path) -> None:
    write(task, "tests/test_tables.py", """
        import requests
        BASE = "http://localhost:8000"
        ROUTES = {"list": "/tasks", "stats": "/tasks/stats"}

        def test_table():
            for method, path in [("GET", "/tasks"), ("POST", "/tasks")]:
                requests.request(method, BASE + path)

        def test_dict():
            requests.get(BASE + ROUTES["stats"])

        def test_each_route():
            for path in ROUTES.values():
                requests.get(f"{BASE}{path}")
    """)
    result = map_tests(task / "tests", eps("GET /tasks", "POST /tasks", "GET /tasks/stats"))
    assert ids(result, "GET:/tasks") == ["tests/test_tables.py::test_table",
                                         "tests/test_tables.py::test_each_route"]
    assert ids(result, "POST:/tasks") == ["tests/test_tables.py::test_table"]
    assert ids(result, "GET:/tasks/stats") == ["tests/test_tables.py::test_dict",
                                               "tests/test_tables.py::test_each_route"]


def test_suite_built_apps_and_route_decorators_are_not_the_service(task: Path) -> None:
    write(task, "tests/test_stub.py", """
        import pytest
        from flask import Flask, jsonify
        from fastapi.testclient import TestClient
        from app.main import app as service_app

        def make_app():
            app = Flask(__name__)

            @app.get("/health")
            def health():
                return jsonify({}), 200
            return app

        @pytest.fixture
        def stub():
            with make_app().test_client() as c:
                yield c

        @pytest.fixture
        def service():
            return TestClient(service_app)

        def test_stub(stub):
            stub.get("/health")

        def test_service(service):
            service.get("/health")
    """)
    result = map_tests(task / "tests", eps("GET /health"))
    assert ids(result, "GET:/health") == ["tests/test_stub.py::test_service"]


def test_collection_names_come_from_the_suite_config(task: Path) -> None:
    write(task, "tests/pytest.ini", """
        [pytest]
        python_files = check_*.py
        python_classes = Check
        python_functions = check_ test_
    """)
    write(task, "tests/check_api.py", """
        import requests

        def check_health():
            requests.get("http://localhost:8000/health")

        class CheckItems:
            def check_items(self):
                requests.get("http://localhost:8000/items")

        class TestIgnored:
            def test_items(self):
                requests.get("http://localhost:8000/items")
    """)
    write(task, "tests/test_not_collected.py", """
        def test_health():
            requests.get("http://localhost:8000/health")
    """)
    result = map_tests(task / "tests", eps("GET /health", "GET /items"))
    assert ids(result, "GET:/health") == ["tests/check_api.py::check_health"]
    assert ids(result, "GET:/items") == ["tests/check_api.py::CheckItems::check_items"]
    # a pytest.ini whose section pytest ignores ([tool:pytest]): the defaults apply
    write(task, "tests/pytest.ini", "[tool:pytest]\npython_files = check_*.py\n")
    result = map_tests(task / "tests", eps("GET /health", "GET /items"))
    assert ids(result, "GET:/health") == ["tests/test_not_collected.py::test_health"]
    assert result["GET:/items"] == []  # check_api.py is no test file by default


def test_cycles_and_runaway_code_end_with_what_is_known(task: Path) -> None:
    write(task, "tests/test_cycles.py", """
        import pytest
        import requests

        A = B
        B = A + "/x"

        def rec(p):
            return rec(p + "/x")

        def ping(p):
            return pong(p)

        def pong(p):
            return ping(p)

        @pytest.fixture
        def fa(fb):
            return fb + "/a"

        @pytest.fixture
        def fb(fa):
            return fa + "/b"

        def test_cycles(fa):
            requests.get(A + rec("/q") + ping("/r") + fa)
            requests.get("http://h/items/" + rec("/q"))
    """)
    write(task, "tests/test_deep.py",
          "def test_deep(c):\n    c.get('/' " + "+ 'a' " * 5000 + ")\n")
    result = map_tests(task / "tests", eps("GET /items/{id}"))
    assert [r.line for r in result["GET:/items/{id}"]] == [line_of(
        task / "tests/test_cycles.py", '"http://h/items/"')]
    assert [f for f, _ in result.skipped] == ["tests/test_deep.py"]
    assert result.skipped[0][1].startswith(("RecursionError", "SyntaxError", "MemoryError"))


def test_a_unittest_case_with_class_attributes_is_mapped(task: Path) -> None:
    """Class attributes and nested classes in a ``unittest.TestCase`` body are not tests (they
    used to stop the mapping with an AttributeError)."""
    write(task, "tests/test_case_attrs.py", """
        import unittest
        import requests

        class ItemsCase(unittest.TestCase):
            base = "http://localhost:8080/api"
            timeout: float = 5.0

            class Meta:
                pass

            def test_items(self):
                requests.get(self.base + "/items")
    """)
    result = map_tests(task / "tests", eps("GET /api/items"))
    assert ids(result, "GET:/api/items") == ["tests/test_case_attrs.py::ItemsCase::test_items"]
