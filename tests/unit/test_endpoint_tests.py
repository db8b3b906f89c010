"""Mapping README endpoints to the golden tests that hit them (static analysis, never run)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from inspector.model import Endpoint
from inspector.model.tasks import load_tasks
from inspector.paths import sample_runs
from inspector.services.endpoint_tests import (
    EndpointTests,
    TestRef,
    endpoint_segments,
    path_segments,
)
from inspector.services.endpoint_tests import (  # renamed: pytest would collect test*
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

        def test_unresolved(base_url):
            requests.get(_url(base_url, 1))  # helper returns a URL: not followed
    """)
    result = map_tests(task / "tests", eps(
        "POST /notes", "GET /notes/{id}", "PUT /notes/{id}", "DELETE /notes"))
    post = result["POST:/notes"]
    assert [(r.test_id, r.file, r.via) for r in post] == [
        ("tests/test_flow.py::test_uses_fixture", "tests/conftest.py", "fixture created")]
    assert ids(result, "PUT:/notes/{id}") == ["tests/test_flow.py::test_uses_fixture"]
    get = result["GET:/notes/{id}"]
    assert [(r.test_id, r.line, r.via) for r in get] == [
        ("tests/test_flow.py::test_uses_helper", 6, "_get")]
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

# README endpoints the bundled golden suites really do not exercise (checked by reading them).
NOT_EXERCISED = {("quote-board", "GET:/health")}


@pytest.fixture(scope="module")
def bundled_tasks() -> dict:
    tasks, issues = load_tasks(sample_runs() / "tasks")
    assert len(tasks) == 6 and not [i for i in issues if i.severity == "error"]
    return tasks


def test_bundled_every_exercised_endpoint_has_tests(bundled_tasks: dict) -> None:
    missing = set()
    for name, task in bundled_tasks.items():
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
