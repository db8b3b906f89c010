"""Spec endpoints: what a README really requires, checked against hand counts of the 16 bundled
real RepoGenesis READMEs (read by hand: method, path, README line) and synthetic snippets of
each layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.model.benchmark.tasks import load_tasks
from inspector.model.readme.reader import extract_endpoints
from inspector.model.readme.spec_endpoints import extract_spec_endpoints, stock_only

TASKS = Path(__file__).resolve().parents[2] / "sample_runs" / "tasks"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "spec"


def spec(readme: str) -> list[tuple[str, str, int]]:
    return [(e.method, e.path, e.readme_line) for e in extract_spec_endpoints(readme)]


def keys(readme: str) -> list[str]:
    return [f"{e.method} {e.path}" for e in extract_spec_endpoints(readme)]


# Hand-made from reading each README (line = where the endpoint's path is written).
HAND: dict[str, list[tuple[str, str, int]]] = {
    "Multilingual": [  # "**Endpoint:** `/api/translate`" + "**Method:** POST" per section
        ("POST", "/api/translate", 38), ("POST", "/api/timezone", 73),
        ("POST", "/api/localize", 108), ("GET", "/api/languages", 142)],
    "StructuredDataConvertor": [  # "- **Endpoint**: `/convert`" under "API Base Path: /api/v1"
        ("GET", "/api/v1/health", 30), ("POST", "/api/v1/convert", 44),
        ("POST", "/api/v1/convert/batch", 80)],
    "UserManagement_2": [
        ("POST", "/api/v1/users/register", 16), ("POST", "/api/v1/users/login", 45),
        ("GET", "/api/v1/users/{user_id}", 76), ("PUT", "/api/v1/users/{user_id}", 101),
        ("DELETE", "/api/v1/users/{user_id}", 133)],
    "WebPan": [  # "**POST** `/api/v1/auth/login`"
        ("POST", "/api/v1/auth/login", 26), ("POST", "/api/v1/auth/register", 45),
        ("POST", "/api/v1/files/upload", 66), ("POST", "/api/v1/files/upload-multiple", 89),
        ("GET", "/api/v1/files/{file_id}/download", 122),
        ("GET", "/api/v1/files/{file_id}/info", 137), ("GET", "/api/v1/files", 160),
        ("DELETE", "/api/v1/files/{file_id}", 194),
        ("PUT", "/api/v1/files/{file_id}/rename", 209),
        ("POST", "/api/v1/files/{file_id}/share", 229),
        ("GET", "/api/v1/share/{share_id}", 251), ("DELETE", "/api/v1/share/{share_id}", 272),
        ("GET", "/api/v1/storage/quota", 289)],
    "django-rest-framework-crud": [
        ("POST", "/api/v1/auth/register/", 15), ("POST", "/api/v1/auth/token/", 34),
        ("POST", "/api/v1/auth/refresh/", 46), ("GET", "/api/v1/movies/", 58),
        ("POST", "/api/v1/movies/", 71), ("GET", "/api/v1/movies/{id}/", 82),
        ("PUT", "/api/v1/movies/{id}/", 87), ("DELETE", "/api/v1/movies/{id}/", 92)],
    "eve": [  # "- GET `/people`" list items
        ("GET", "/people", 33), ("POST", "/people", 38), ("GET", "/people/{id}", 44),
        ("PUT", "/people/{id}", 48), ("DELETE", "/people/{id}", 56)],
    "flask": [("GET", "/health", 15), ("POST", "/echo", 29), ("GET", "/sum", 48)],
    "synapse": [  # "- Method and Path: GET /health"; the http examples are instances
        ("GET", "/health", 17), ("POST", "/register", 23), ("POST", "/login", 29),
        ("POST", "/rooms/{room_id}/messages", 35), ("GET", "/rooms/{room_id}/messages", 42)],
    "javalin-online-judge": [
        ("POST", "/api/auth/register", 27), ("POST", "/api/auth/login", 30),
        ("GET", "/api/users/{id}", 35), ("PATCH", "/api/users/{id}", 37),
        ("POST", "/api/problems", 42), ("GET", "/api/problems", 45),
        ("GET", "/api/problems/{id}", 47), ("PUT", "/api/problems/{id}", 49),
        ("DELETE", "/api/problems/{id}", 52), ("POST", "/api/submissions", 56),
        ("GET", "/api/submissions", 59), ("GET", "/api/submissions/{id}", 62),
        ("POST", "/api/contests", 66), ("GET", "/api/contests", 69),
        ("GET", "/api/contests/{id}", 71), ("POST", "/api/contests/{id}/join", 73),
        ("GET", "/api/contests/{id}/standings", 75), ("POST", "/api/admin/users/{id}/ban", 79)],
    "javalin-task-manager": [
        ("POST", "/users", 20), ("POST", "/users/login", 39), ("GET", "/projects", 55),
        ("POST", "/projects", 70), ("GET", "/projects/{id}", 89), ("PUT", "/projects/{id}", 102),
        ("DELETE", "/projects/{id}", 121), ("GET", "/projects/{id}/tasks", 126),
        ("POST", "/projects/{id}/tasks", 143), ("GET", "/tasks/{id}", 165),
        ("PUT", "/tasks/{id}", 180), ("DELETE", "/tasks/{id}", 203),
        ("POST", "/tasks/{id}/comments", 208), ("GET", "/tasks/{id}/comments", 227),
        ("GET", "/users/{id}/tasks", 243)],
    "javalin-user-auth-platform": [  # hyphenated paths kept whole
        ("POST", "/api/users/register", 31), ("POST", "/api/users/login", 65),
        ("GET", "/api/users/profile", 99), ("PUT", "/api/users/profile", 133),
        ("POST", "/api/users/change-password", 169), ("POST", "/api/users/logout", 206),
        ("GET", "/api/users/validate-session", 227), ("DELETE", "/api/users/{userId}", 258)],
    "micronaut-ci-status": [  # "- **Method**: `GET`" then "- **Path**: `/projects`"
        ("GET", "/projects", 23), ("POST", "/projects", 28), ("GET", "/projects/{id}", 34),
        ("PUT", "/projects/{id}", 39), ("DELETE", "/projects/{id}", 45),
        ("POST", "/projects/{id}/builds", 50), ("GET", "/projects/{id}/builds", 56),
        ("GET", "/builds/{id}", 61), ("GET", "/builds/{id}/status", 66),
        ("POST", "/builds/{id}/cancel", 71), ("GET", "/builds/{id}/logs", 76),
        ("GET", "/builds/{id}/artifacts", 81), ("GET", "/agents", 86), ("POST", "/agents", 91),
        ("GET", "/agents/{id}", 97), ("PUT", "/agents/{id}/status", 102), ("GET", "/queue", 108),
        ("GET", "/users", 113), ("POST", "/users", 118), ("GET", "/users/{id}", 124),
        ("GET", "/statistics/daily", 129), ("GET", "/system/health", 134),
        ("GET", "/system/version", 139), ("POST", "/webhooks/git", 144),
        ("GET", "/reports/latest", 150)],
    "quarkus-blog-cms": [
        ("POST", "/api/posts", 19), ("GET", "/api/posts/{id}", 46), ("PUT", "/api/posts/{id}", 52),
        ("DELETE", "/api/posts/{id}", 66), ("GET", "/api/posts", 72),
        ("POST", "/api/categories", 95), ("GET", "/api/categories", 114),
        ("PUT", "/api/categories/{id}", 120), ("DELETE", "/api/categories/{id}", 132),
        ("POST", "/api/comments", 138), ("GET", "/api/posts/{id}/comments", 160),
        ("DELETE", "/api/comments/{id}", 166), ("POST", "/api/authors", 172),
        ("GET", "/api/authors/{id}", 193), ("GET", "/api/tags", 199)],
    "spark-dashboard-backend": [  # ':id' kept whole
        ("POST", "/api/login", 20), ("GET", "/api/dashboards", 42), ("POST", "/api/dashboards", 59),
        ("GET", "/api/dashboards/:id", 80), ("PUT", "/api/dashboards/:id", 103),
        ("DELETE", "/api/dashboards/:id", 123), ("POST", "/api/dashboards/:id/widgets", 134),
        ("PUT", "/api/widgets/:id", 160), ("DELETE", "/api/widgets/:id", 180),
        ("GET", "/api/datasources", 191), ("POST", "/api/datasources", 207),
        ("GET", "/api/datasets", 231), ("POST", "/api/query", 247), ("GET", "/api/users/me", 267),
        ("PUT", "/api/users/me", 281)],
    "spring-boot-course-scheduling": [  # "All APIs are prefixed with `/api`": already written
        ("POST", "/api/terms", 19), ("GET", "/api/terms", 22), ("GET", "/api/terms/{id}", 23),
        ("PUT", "/api/terms/{id}", 24), ("DELETE", "/api/terms/{id}", 25),
        ("POST", "/api/classrooms", 28), ("GET", "/api/classrooms", 31),
        ("GET", "/api/classrooms/{id}", 32), ("PUT", "/api/classrooms/{id}", 33),
        ("DELETE", "/api/classrooms/{id}", 34), ("POST", "/api/departments", 37),
        ("GET", "/api/departments", 40), ("DELETE", "/api/departments/{id}", 41),
        ("POST", "/api/teachers", 44), ("GET", "/api/teachers", 47),
        ("GET", "/api/teachers/{id}", 48), ("PUT", "/api/teachers/{id}", 49),
        ("DELETE", "/api/teachers/{id}", 50), ("POST", "/api/courses", 53),
        ("GET", "/api/courses", 56), ("GET", "/api/courses/{id}", 57),
        ("PUT", "/api/courses/{id}", 58), ("DELETE", "/api/courses/{id}", 59),
        ("POST", "/api/offerings", 62), ("GET", "/api/offerings", 65),
        ("GET", "/api/offerings/{id}", 66), ("POST", "/api/constraints", 69),
        ("GET", "/api/constraints", 72), ("POST", "/api/schedule/auto", 75),
        ("GET", "/api/schedule/term/{termId}", 78), ("POST", "/api/schedule/manual", 79),
        ("GET", "/api/schedule/teacher/{teacherId}", 82),
        ("GET", "/api/schedule/classroom/{classroomId}", 83)],
    "springboot-chat-gateway": [
        ("POST", "/api/users/register", 17), ("POST", "/api/users/login", 37),
        ("GET", "/api/users/{userId}/status", 56), ("PUT", "/api/users/{userId}/status", 69),
        ("POST", "/api/messages/send", 87), ("GET", "/api/messages/history", 108),
        ("POST", "/api/groups/create", 127), ("POST", "/api/groups/{groupId}/join", 147),
        ("POST", "/api/groups/{groupId}/leave", 166),
        ("POST", "/api/groups/{groupId}/messages", 183),
        ("GET", "/api/groups/{groupId}/members", 203), ("GET", "/api/system/health", 221)],
}


def _readme(task: str) -> str:
    return (TASKS / "repo" / task / "README.md").read_text(encoding="utf-8")


class TestRealReadmes:
    def test_sixteen_real_tasks_are_checked(self):
        assert len(HAND) == 16

    @pytest.mark.parametrize("task", sorted(HAND))
    def test_equals_hand_count(self, task):
        assert spec(_readme(task)) == HAND[task]

    def test_readme_line_points_at_the_path(self):
        for task, expected in HAND.items():
            lines = _readme(task).splitlines()
            for _, path, line in expected:
                written = path.removeprefix("/api/v1") if task == "StructuredDataConvertor" \
                    else path
                assert written in lines[line - 1], (task, path, line)

    def test_source_says_what_the_stock_extraction_misses(self):
        multi = extract_spec_endpoints(_readme("Multilingual"))
        assert {e.source for e in multi} == {"spec"}
        auth = {e.path: e for e in extract_spec_endpoints(_readme("javalin-user-auth-platform"))}
        assert {e.source for e in auth.values()} == {"stock"}
        assert "'/api/users/change'" in auth["/api/users/change-password"].note
        eve = {e.key: e.source for e in extract_spec_endpoints(_readme("eve"))}
        assert eve == {"GET:/people": "spec", "POST:/people": "spec",
                       "GET:/people/{id}": "stock", "PUT:/people/{id}": "spec",
                       "DELETE:/people/{id}": "spec"}

    def test_base_path_note_names_its_line(self):
        eps = extract_spec_endpoints(_readme("StructuredDataConvertor"))
        assert all("base path '/api/v1' from README line 25" in e.note for e in eps)
        assert "example at README line 146" in eps[1].note

    def test_stock_only_endpoints(self):
        r = _readme("synapse")
        assert [str(e) for e in stock_only(extract_spec_endpoints(r), extract_endpoints(r))] \
            == ["POST /rooms/!room123", "GET /rooms/!room123"]
        r = _readme("WebPan")
        assert [e.method for e in stock_only(extract_spec_endpoints(r),
                                             extract_endpoints(r))] == ["FEATURE"] * 4
        r = _readme("spark-dashboard-backend")
        assert stock_only(extract_spec_endpoints(r), extract_endpoints(r)) == []

    def test_loader_keeps_both_lists(self):
        tasks, _ = load_tasks(TASKS)
        t = tasks["Multilingual"]
        assert t.endpoints == () and len(t.spec_endpoints) == 4
        assert t.required_endpoints == t.spec_endpoints
        t = tasks["WebPan"]
        assert [e.method for e in t.endpoints] == ["FEATURE"] * 4
        assert len(t.required_endpoints) == 13


class TestLayouts:
    def test_heading_with_method_and_path(self):
        readme = "## API\n### POST /api/users\nCreate.\n### GET /api/users/{id}\nOne user.\n"
        assert spec(readme) == [("POST", "/api/users", 2), ("GET", "/api/users/{id}", 4)]

    def test_labelled_section_any_order(self):
        readme = ("#### 1. Translate Text\n\n**Method:** POST\n\n**Endpoint:** `/api/translate`\n"
                  "#### 2. Languages\n- **URL**: `/api/languages`\n- **HTTP Method**: `GET`\n")
        eps = extract_spec_endpoints(readme)
        assert [(e.method, e.path, e.readme_line) for e in eps] == [
            ("POST", "/api/translate", 5), ("GET", "/api/languages", 7)]
        assert [e.description for e in eps] == ["Translate Text", "Languages"]

    def test_label_in_another_section_is_not_paired(self):
        readme = "### A\n**Method:** POST\n### B\n**Endpoint:** `/b`\n"
        assert spec(readme) == []

    def test_method_list_gives_one_endpoint_per_method(self):
        readme = "### Items\n- Path: `/items`\n- Method: GET, POST\n"
        assert keys(readme) == ["GET /items", "POST /items"]

    def test_bold_method_then_code_path(self):
        assert spec("**POST** `/api/v1/auth/login`\n- **Function**: log in\n") == [
            ("POST", "/api/v1/auth/login", 1)]
        assert extract_spec_endpoints("**POST** `/login`\n- **Function**: log in\n")[0] \
            .description == "log in"

    def test_list_item_method_then_code_path(self):
        assert keys("- GET `/people`\n- DELETE `/people/{id}`\n") == [
            "GET /people", "DELETE /people/{id}"]

    def test_table_in_any_column_order(self):
        readme = "| Path | Method | Notes |\n|---|---|---|\n| `/a/{id}` | `PUT` | Edit |\n"
        eps = extract_spec_endpoints(readme)
        assert [(e.key, e.description, e.readme_line) for e in eps] == [("PUT:/a/{id}", "Edit", 3)]

    def test_paths_kept_whole(self):
        readme = "- `GET /api/user-profile/:id`: profile\n- `DELETE /items/{id}`\n"
        eps = extract_spec_endpoints(readme)
        assert [e.path for e in eps] == ["/api/user-profile/:id", "/items/{id}"]
        assert eps[0].source == "stock" and "'/api/user'" in eps[0].note

    def test_prose_mention_counts_but_declaration_wins_the_line(self):
        readme = "Deleting it, a later GET /things/{id} returns 404.\n\n## API\n" \
                 "- `GET /things/{id}`: one thing\n- `DELETE /things/{id}`\n"
        eps = extract_spec_endpoints(readme)
        assert [(e.key, e.readme_line) for e in eps] == [
            ("GET:/things/{id}", 4), ("DELETE:/things/{id}", 5)]
        assert spec("The service answers POST /ping with pong.\n") == [("POST", "/ping", 1)]


class TestBasePath:
    def test_declared_base_applies_to_relative_paths(self):
        readme = "- **API Base Path**: /api/v1\n\n### Items\n- **Endpoint**: `/items`\n" \
                 "- **Method**: GET\n"
        eps = extract_spec_endpoints(readme)
        assert keys(readme) == ["GET /api/v1/items"]
        assert eps[0].note == "base path '/api/v1' from README line 1"

    def test_base_url_path_part(self):
        readme = "Base URL: `http://localhost:8000/api`\n\n- `GET /items`\n"
        assert keys(readme) == ["GET /api/items"]

    def test_base_not_doubled_when_paths_are_full(self):
        readme = "- **Base Path**: `/api/v1`\n\n- `GET /api/v1/items`\n- `GET /health`\n"
        assert keys(readme) == ["GET /api/v1/items", "GET /health"]

    def test_prose_prefix(self):
        readme = "All endpoints are prefixed with `/v2`.\n\n- `GET /items`\n- `POST /items`\n"
        assert keys(readme) == ["GET /v2/items", "POST /v2/items"]

    def test_no_prefix_declared(self):
        readme = "- Base URL: `http://127.0.0.1:5001`\n- Namespace prefix: none\n\n- GET `/a`\n"
        assert keys(readme) == ["GET /a"]

    def test_example_without_base_keeps_the_endpoint_at_root(self):
        readme = ("Base Path: /api\n\n### Health\n- Endpoint: `/health`\n- Method: GET\n"
                  "```bash\ncurl http://localhost:8000/health\n```\n"
                  "### Items\n- Endpoint: `/items`\n- Method: GET\n")
        assert keys(readme) == ["GET /health", "GET /api/items"]

    def test_base_from_examples_alone(self):
        readme = ("### Items\n- Endpoint: `/items`\n- Method: POST\n"
                  "```bash\ncurl -X POST http://localhost:8000/v3/items \\\n  -d '{}'\n```\n"
                  "### Item\n- Endpoint: `/items/{id}`\n- Method: GET\n")
        eps = extract_spec_endpoints(readme)
        assert [e.key for e in eps] == ["POST:/v3/items", "GET:/v3/items/{id}"]
        assert "base path '/v3' from the README's examples" in eps[0].note


class TestExamples:
    def test_examples_only_corroborate(self):
        readme = ("- Method and Path: POST /rooms/{room_id}/messages\n"
                  "```http\nPOST /rooms/!abc:example.org/messages HTTP/1.1\n```\n"
                  "```bash\ncurl http://localhost:1/other\n```\n")
        eps = extract_spec_endpoints(readme)
        assert [e.key for e in eps] == ["POST:/rooms/{room_id}/messages"]
        assert eps[0].note == "example at README line 3"

    def test_examples_are_endpoints_when_nothing_is_declared(self):
        readme = "Usage:\n```bash\ncurl -d '{}' http://localhost:8000/api/jobs\n" \
                 "curl http://localhost:8000/api/jobs/7?full=1\n```\n"
        eps = extract_spec_endpoints(readme)
        assert [(e.key, e.readme_line) for e in eps] == [("POST:/api/jobs", 3),
                                                          ("GET:/api/jobs/7", 4)]
        assert all("only in an example" in e.note for e in eps)

    def test_nothing_found_falls_back_to_the_stock_list(self):
        readme = "## Features\n- File Upload: send files\n"
        eps = extract_spec_endpoints(readme)
        assert [(e.method, e.source) for e in eps] == [("FEATURE", "stock")]


class TestStrictCoverage:
    """Strict AC is over the spec list; total_apis and the lenient count stay the stock ones."""

    def _cov(self, repo: Path, task: str):
        from inspector.services.repo.coverage import compute_coverage

        r = _readme(task)
        stock = extract_endpoints(r)
        return compute_coverage(repo, stock, extract_spec_endpoints(r, stock))

    def test_real_readme_the_stock_extraction_finds_nothing_in(self):
        # hand count: /api/v1 prefix from the Blueprint; health and convert declared
        # (app.py:8, app.py:13), /convert/batch missing
        cov = self._cov(FIXTURES / "convertor" / "repo", "StructuredDataConvertor")
        assert (cov.total_apis, cov.lenient_implemented_apis) == (0, 0)  # stock figures
        assert (cov.spec_apis, cov.implemented_apis, cov.spec_only_apis) == (3, 2, 3)
        assert cov.score == 0.6667 and cov.lenient_score == 0.0
        got = [(e.method, e.path, e.implemented, str(e.evidence[0]) if e.evidence else None,
                e.readme_line, e.source) for e in cov.endpoints or ()]
        assert got == [("GET", "/api/v1/health", True, "app.py:8", 30, "spec"),
                       ("POST", "/api/v1/convert", True, "app.py:13", 44, "spec"),
                       ("POST", "/api/v1/convert/batch", False, None, 80, "spec")]

    def test_whole_hyphenated_path_is_required(self):
        # the repo declares '/api/users/validate' and no change-password route: the stock
        # paths ('/api/users/validate', '/api/users/change') made the first look implemented
        repo = Path(__file__).resolve().parents[1] / "fixtures" / "routes" / "javalin_auth" / "repo"
        cov = self._cov(repo, "javalin-user-auth-platform")
        missing = [e.path for e in cov.endpoints or () if not e.implemented]
        assert missing == ["/api/users/change-password", "/api/users/validate-session"]
        assert (cov.total_apis, cov.spec_apis, cov.implemented_apis) == (8, 8, 6)

    def test_stock_only_examples_are_named_not_counted(self):
        cov = self._cov(FIXTURES / "convertor" / "repo", "synapse")
        assert cov.total_apis == 7 and cov.spec_apis == 5
        assert cov.stock_only == ("POST /rooms/!room123", "GET /rooms/!room123")

    def test_result_json_round_trip_and_schema(self, tmp_path):
        from inspector.model.results.sample import Deployment, SampleResult, TestSummary
        from inspector.model.runs.runformat import parse_sample, sample_to_json
        from tests.unit.test_schemas import RESULT, errors

        cov = self._cov(FIXTURES / "convertor" / "repo", "StructuredDataConvertor")
        s = SampleResult(run_id="r", task="StructuredDataConvertor", sample=0,
                         language="python", deployment=Deployment(True), tests=TestSummary(),
                         api_coverage=cov)
        doc = json.loads(json.dumps(sample_to_json(s, tmp_path)))
        assert errors(RESULT, doc) == []
        ac = doc["api_coverage"]
        assert (ac["total_apis"], ac["spec_apis"], ac["spec_only_apis"], ac["score"]) == \
            (0, 3, 3, 0.6667)
        assert ac["endpoints"][0]["readme_line"] == 30
        assert "base path '/api/v1' from README line 25" in ac["endpoints"][0]["readme_note"]
        assert parse_sample(doc, tmp_path / "result.json", []).api_coverage == cov

    def test_old_result_json_scores_over_total_apis(self, tmp_path):
        from inspector.model.runs.runformat import parse_sample

        doc = {"format_version": 1, "run_id": "r", "task": "t", "deployment": {"success": True},
               "tests": {}, "api_coverage": {"total_apis": 4, "implemented_apis": 1,
                                             "endpoints": []}}
        ac = parse_sample(doc, tmp_path / "result.json", []).api_coverage
        assert ac is not None and (ac.spec_apis, ac.required_apis, ac.score) == (None, 4, 0.25)

    def test_run_metrics_count_it_and_say_so(self):
        from inspector.model.results.run import Run, RunSource
        from inspector.model.results.sample import Deployment, SampleResult, TestSummary
        from inspector.services.figures.metrics import compute_run_metrics, repogenesis_summary

        cov = self._cov(FIXTURES / "convertor" / "repo", "StructuredDataConvertor")
        syn = self._cov(FIXTURES / "convertor" / "repo", "synapse")
        samples = tuple(SampleResult(run_id="r", task=t, sample=0, language="python",
                                     deployment=Deployment(True), tests=TestSummary(),
                                     api_coverage=c)
                        for t, c in (("StructuredDataConvertor", cov), ("synapse", syn)))
        run = Run(id="r", agent="A", model="M", language="python",
                  source=RunSource("genesis-inspector", Path("run.json")), samples=samples)
        m = compute_run_metrics(run)
        # strict: mean of 2/3 and 0/5; stock: StructuredDataConvertor dropped (no endpoint)
        assert m.api_coverage == round((0.6667 + 0.0) / 2, 4)
        assert repogenesis_summary(list(samples))["avg_api_coverage"] == syn.lenient_score
        notes = [d for d in m.differences if "stock extraction" in d]
        assert notes == [
            "AC counts 3 README endpoint(s) the stock extraction does not see "
            "(StructuredDataConvertor 3); the stock AC finds no endpoint in "
            "StructuredDataConvertor and leaves those samples out of its average",
            "The stock extraction also counts 2 endpoint(s) the README does not require as "
            "such (code-block examples, FEATURE items: synapse 2); strict AC leaves them out"]
