"""Strict API coverage on small generated repos, one per framework style, against a hand count.

Each fixture under tests/fixtures/routes/<name>/ holds a ``repo/`` written the way agents write
them and either its own README.md or README.path naming a bundled real task's README (so the
README's endpoint extraction and the route resolution are checked together). EXPECTED is the
hand count: for every README endpoint, the declaring ``file:line`` when implemented, the
unresolved reason when the path needs a runtime value, or None when missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.model.readme.reader import extract_endpoints
from inspector.model.results.sample import ApiCoverage, Deployment, SampleResult, TestSummary
from inspector.model.runs.runformat import parse_sample, sample_to_json
from inspector.services.repo.coverage import compute_coverage

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "routes"
J = "src/main/java/com/example/"
UNRES = "unresolved: "

EXPECTED: dict[str, dict[str, str | None]] = {
    "flask_blueprint": {
        "GET /health": "app/__init__.py:18",
        "GET /api/v1/books": "app/routes/books.py:9",
        "POST /api/v1/books": "app/routes/books.py:9",
        "GET /api/v1/books/{book_id}": "app/routes/books.py:18",
        "DELETE /api/v1/books/{book_id}": None,  # only PUT on the item
        "GET /api/v1/authors": "app/routes/authors.py:8",
        "POST /api/v1/loans": UNRES + "prefix from env var LOANS_PREFIX without default "
                                      "(config.py:7)",
        "GET /api/v1/stats": None,
    },
    "flask_factory_aliases": {  # blueprints imported under aliases, registered in a helper
        "GET /health": "svc/routes/health.py:6",
        "POST /register": "svc/routes/accounts.py:6",
        "POST /rooms/{room_id}/messages": "svc/routes/rooms.py:6",
        "GET /rooms/{room_id}/messages": "svc/routes/rooms.py:11",
        "DELETE /rooms/{room_id}": None,
    },
    "fastapi_settings": {  # real task UserManagement_2
        "POST /api/v1/users/register": "app/api/endpoints/auth.py:6",
        "POST /api/v1/users/login": "app/api/endpoints/auth.py:11",
        "GET /api/v1/users/{user_id}": "app/api/endpoints/users.py:6",
        "PUT /api/v1/users/{user_id}": "app/api/endpoints/users.py:11",
        "DELETE /api/v1/users/{user_id}": "app/api/endpoints/users.py:20",
    },
    "fastapi_runtime": {
        "GET /api/notes": UNRES + "prefix from env var API_PREFIX without default (main.py:5)",
        "POST /api/notes": UNRES + "prefix from env var API_PREFIX without default (main.py:5)",
        "GET /api/notes/{id}": UNRES + "prefix from env var API_PREFIX without default "
                                       "(main.py:5)",
        "GET /healthz": None,
    },
    "flask_classviews": {
        "GET /items": "app.py:12",
        "POST /items": "app.py:12",
        "GET /items/{id}": "app.py:13",
        "PUT /items/{id}": "app.py:13",
        "DELETE /items/{id}": "app.py:13",
        "GET /api/warehouses": "app.py:16",
        "POST /api/warehouses": "app.py:16",
        "GET /api/warehouses/{id}": "app.py:17",
        "PATCH /api/warehouses/{id}": None,  # Warehouse has only get()
        "GET /version": None,  # registered with methods=["POST"]
    },
    "django_drf": {  # real task django-rest-framework-crud
        "POST /api/v1/auth/register/": "accounts/urls.py:7",
        "POST /api/v1/auth/token/": "accounts/urls.py:8",
        "POST /api/v1/auth/refresh/": None,
        "GET /api/v1/movies/": "movies/urls.py:6",
        "POST /api/v1/movies/": "movies/urls.py:6",
        "GET /api/v1/movies/{id}/": "movies/urls.py:6",
        "PUT /api/v1/movies/{id}/": "movies/urls.py:6",
        "DELETE /api/v1/movies/{id}/": None,  # http_method_names leaves delete out
    },
    "eve_settings": {  # real task eve: the stock extraction finds one endpoint line
        "GET /people/{id}": "settings.py:16",
    },
    "eve_prefixed": {
        "GET /api/v2/products": "app.py:7",
        "POST /api/v2/products": "app.py:7",
        "GET /api/v2/products/{id}": "app.py:7",
        "DELETE /api/v2/products/{id}": "app.py:7",
        "GET /api/v2/brands": "app.py:8",
        "POST /api/v2/brands": None,  # default RESOURCE_METHODS is GET only
    },
    "spring_gateway": {  # real task springboot-chat-gateway
        "POST /api/users/register": J + "controller/UserController.java:13",
        "POST /api/users/login": J + "controller/UserController.java:18",
        "GET /api/users/{userId}/status": J + "controller/UserController.java:24",
        "PUT /api/users/{userId}/status": J + "controller/UserController.java:24",
        "POST /api/messages/send": J + "controller/MessageController.java:12",
        "GET /api/messages/history": None,
        "POST /api/groups/create": J + "controller/GroupController.java:11",
        "POST /api/groups/{groupId}/join": J + "controller/GroupController.java:14",
        "POST /api/groups/{groupId}/leave": None,
        "POST /api/groups/{groupId}/messages": None,
        "GET /api/groups/{groupId}/members": J + "controller/GroupController.java:17",
        "GET /api/system/health": J + "controller/GroupController.java:23",
    },
    "quarkus_blog": {  # real task quarkus-blog-cms
        "POST /api/posts": J + "resource/PostResource.java:12",
        "GET /api/posts/{id}": J + "resource/PostResource.java:17",
        "PUT /api/posts/{id}": J + "resource/PostResource.java:23",
        "DELETE /api/posts/{id}": None,
        "GET /api/posts": J + "resource/PostResource.java:29",
        "POST /api/categories": J + "resource/CategoryResource.java:10",
        "GET /api/categories": J + "resource/CategoryResource.java:13",
        "PUT /api/categories/{id}": None,
        "DELETE /api/categories/{id}": J + "resource/CategoryResource.java:16",
        "POST /api/comments": None,
        "GET /api/posts/{id}/comments": J + "resource/PostResource.java:34",
        "DELETE /api/comments/{id}": None,
        "POST /api/authors": None,
        "GET /api/authors/{id}": None,
        "GET /api/tags": None,
    },
    "micronaut_ci": {
        "GET /ci/builds": J + "controller/BuildController.java:11",
        "POST /ci/builds": J + "controller/BuildController.java:14",
        "GET /ci/builds/{id}": J + "controller/BuildController.java:17",
        "DELETE /ci/builds/{id}": None,
        "GET /ci/pipelines/{name}/status": J + "controller/PipelineController.java:8",
        "GET /ci/health": None,
    },
    "javalin_auth": {  # real task javalin-user-auth-platform
        "POST /api/users/register": J + "App.java:15",
        "POST /api/users/login": J + "App.java:16",
        "GET /api/users/profile": J + "App.java:18",
        "PUT /api/users/profile": J + "App.java:19",
        "POST /api/users/change": None,
        "POST /api/users/logout": J + "App.java:21",
        "GET /api/users/validate": J + "App.java:25",
        "DELETE /api/users/{userId}": J + "App.java:26",
    },
    "spark_dashboard": {  # real task spark-dashboard-backend; '/x/' paths were '/x/:id'
        "POST /api/login": J + "Main.java:11",
        "GET /api/dashboards": J + "Main.java:15",
        "POST /api/dashboards": J + "Main.java:16",
        "GET /api/dashboards/": J + "Main.java:17",
        "PUT /api/dashboards/": J + "Main.java:18",
        "DELETE /api/dashboards/": J + "Main.java:19",
        "POST /api/dashboards/": J + "Main.java:20",  # README: POST /api/dashboards/:id/widgets
        "PUT /api/widgets/": None,
        "DELETE /api/widgets/": None,
        "GET /api/datasources": J + "Main.java:22",
        "POST /api/datasources": None,
        "GET /api/datasets": None,
        "POST /api/query": J + "Main.java:23",
        "GET /api/users/me": J + "Main.java:25",
        "PUT /api/users/me": None,
    },
}


def _readme(name: str) -> str:
    d = ROOT / name
    if (d / "README.md").exists():
        return (d / "README.md").read_text()
    return (d / (d / "README.path").read_text().strip()).resolve().read_text()


def _computed(name: str) -> tuple[ApiCoverage, dict[str, str | None]]:
    cov = compute_coverage(ROOT / name / "repo", extract_endpoints(_readme(name)))
    got: dict[str, str | None] = {}
    for e in cov.endpoints or ():
        if e.implemented:
            got[f"{e.method} {e.path}"] = str(e.evidence[0])
        elif e.unresolved:
            got[f"{e.method} {e.path}"] = UNRES + e.unresolved
        else:
            got[f"{e.method} {e.path}"] = None
    return cov, got


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_strict_coverage_equals_the_hand_count(name: str) -> None:
    cov, got = _computed(name)
    want = EXPECTED[name]
    assert got == want
    implemented = sum(1 for v in want.values() if v and not v.startswith(UNRES))
    unresolved = sum(1 for v in want.values() if v and v.startswith(UNRES))
    assert (cov.implemented_apis, cov.unresolved_apis, cov.total_apis) == (
        implemented, unresolved, len(want))
    decided = len(want) - unresolved
    assert cov.score == (round(implemented / decided, 4) if decided else 0.0)


def test_prefix_origin_is_recorded_with_the_route_line() -> None:
    cov, _ = _computed("fastapi_settings")
    ev = next(e for e in cov.endpoints or () if e.path == "/api/v1/users/login").evidence[0]
    assert (ev.file, ev.line, ev.text) == ("app/api/endpoints/auth.py", 11,
                                           '@router.post("/login")')
    assert "'/api/v1'" in ev.note and "app/main.py:8" in ev.note
    assert "'/users'" in ev.note and "app/api/api.py:7" in ev.note


def test_unresolved_endpoints_round_trip_through_result_json(tmp_path: Path) -> None:
    """Written by the run writer, valid against result.schema.json, read back the same."""
    from tests.unit.test_schemas import RESULT, errors

    cov, _ = _computed("fastapi_runtime")
    assert cov.score == 0.0 and cov.verifiable_apis == 1  # only /healthz could be decided
    sample = SampleResult(run_id="r", task="notes", sample=0, language="python",
                          deployment=Deployment(True), tests=TestSummary(), api_coverage=cov)
    doc = json.loads(json.dumps(sample_to_json(sample, tmp_path)))
    assert errors(RESULT, doc) == []
    ep = doc["api_coverage"]["endpoints"][0]
    assert ep["implemented"] is False and ep["evidence"][0]["line"] == 11
    assert ep["unresolved"].startswith("prefix from env var API_PREFIX")
    back = parse_sample(doc, tmp_path / "result.json", [])
    assert back.api_coverage == cov


def test_result_json_without_the_new_fields_still_loads(tmp_path: Path) -> None:
    """Files written before unresolved endpoints existed: no 'unresolved', no 'note'."""
    doc = {"format_version": 1, "run_id": "r", "task": "t", "deployment": {"success": True},
           "tests": {}, "api_coverage": {
               "total_apis": 2, "implemented_apis": 1, "endpoints": [
                   {"method": "GET", "path": "/a", "implemented": True,
                    "evidence": [{"file": "app.py", "line": 3, "text": "@app.get('/a')"}]},
                   {"method": "GET", "path": "/b", "implemented": False, "evidence": []}]}}
    ac = parse_sample(doc, tmp_path / "result.json", []).api_coverage
    assert ac is not None and (ac.unresolved_apis, ac.score) == (0, 0.5)
    assert ac.endpoints and ac.endpoints[0].evidence[0].note == ""


def test_readme_path_cut_at_a_colon_parameter_keeps_what_it_meant() -> None:
    eps = extract_endpoints("- `PUT /api/widgets/:id` - update\n- `GET /api/widgets` - list\n")
    assert [(e.path, e.spec_path) for e in eps] == [("/api/widgets/", "/api/widgets/:id"),
                                                    ("/api/widgets", "")]
