"""Task README parsing: endpoints (stock AC extraction rules), port and framework."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model import Endpoint
from inspector.model.readme.reader import extract_endpoints, extract_framework, extract_port

NOTES_README = Path(__file__).resolve().parents[1] / "fixtures" / "readme" / "notes_api.md"


def eps(readme: str) -> list[tuple[str, str, str]]:
    return [(e.method, e.path, e.description) for e in extract_endpoints(readme)]


class TestEndpoints:
    def test_table_row(self):
        readme = "| Method | Path | Description |\n|---|---|---|\n" \
                 "| GET | /api/v1/notes/{id} | Get one note |\n"
        assert extract_endpoints(readme) == [Endpoint("GET", "/api/v1/notes/{id}",
                                                      "Get one note")]

    def test_table_row_with_backticks_and_lower_case_method(self):
        readme = "| `post` | `/api/v1/notes` | Create a note |\n| get | /b |\n"
        assert eps(readme) == [("POST", "/api/v1/notes", "Create a note"), ("GET", "/b", "")]

    def test_table_path_keeps_hyphens(self):
        assert eps("| GET | /api/user-profile | Profile |") == \
            [("GET", "/api/user-profile", "Profile")]

    def test_explicit_lines(self):
        readme = "POST /api/login - Log in\nGET /health: Health check\nPUT /items/{id} Edit\n"
        assert eps(readme) == [
            ("POST", "/api/login", "Log in"),
            ("GET", "/health", "Health check"),
            ("PUT", "/items/{id}", "Edit"),
        ]

    def test_explicit_line_without_description_keeps_stock_quirks(self):
        # The stock regex needs at least one description character: with nothing after the
        # path it takes the next line, or (at the end) the path's last character. Same key
        # as the stock harness, so total_apis matches.
        assert eps("DELETE /items/{id}\nnext line") == [("DELETE", "/items/{id}", "next line")]
        assert eps("DELETE /items/{id}") == [("DELETE", "/items/{id", "}")]

    def test_explicit_line_with_markdown(self):
        assert eps("**GET /items** - list") == [("GET", "/items", "list")]
        assert eps("- `PATCH /items/{id}` : edit") == [("PATCH", "/items/{id}", "edit")]

    def test_stock_quirks_kept(self):
        # the stock regex stops a path at '-' or ':' (Spark ':id' style is cut at the colon)
        assert eps("GET /api/user-profile - Profile")[0][:2] == ("GET", "/api/user")
        assert eps("GET /items/:id - one item")[0][:2] == ("GET", "/items/")

    def test_fenced_code_block(self):
        readme = "Example:\n\n```http\nPUT /api/v1/notes/{id} - Replace a note\n" \
                 "GET /api/v1/notes - List\n```\n"
        assert eps(readme) == [("PUT", "/api/v1/notes/{id}", "Replace a note"),
                               ("GET", "/api/v1/notes", "List")]

    def test_dedupe_by_method_and_path(self):
        readme = (
            "| GET | /notes/{id} | Get one note |\n"
            "| GET | /notes/{id} | Second row |\n"
            "GET /notes/{id} - explicit text\n"
            "```\nGET /notes/{id} - in a fence\n```\n"
            "POST /notes - create\nPOST /notes - again\n"
        )
        assert eps(readme) == [
            # explicit lines are found first; the table's description is preferred, and the
            # first table row wins over a later duplicate row
            ("GET", "/notes/{id}", "Get one note"),
            ("POST", "/notes", "create"),
        ]

    def test_same_path_different_methods_are_distinct(self):
        readme = "GET /notes - list\nPOST /notes - create\n"
        assert [e.key for e in extract_endpoints(readme)] == ["GET:/notes", "POST:/notes"]

    def test_fixture_readme(self):
        readme = NOTES_README.read_text(encoding="utf-8")
        assert eps(readme) == [
            ("POST", "/api/login", "Log in"),
            ("POST", "/api/logout", "Log out"),
            ("PUT", "/api/v1/notes/{id}", "Replace a note"),
            ("GET", "/api/v1/notes/{id}", "Get one note"),
            ("GET", "/api/v1/notes", "List notes"),
            ("POST", "/api/v1/notes", "Create a note"),
            ("DELETE", "/api/v1/notes/{id}", "Delete a note"),
        ]
        # "- User Login" is a feature bullet but endpoints exist: no FEATURE fallback
        assert all(e.method != "FEATURE" for e in extract_endpoints(readme))

    def test_feature_fallback_only_when_nothing_else(self):
        features = "## Features\n- User Login\n- **Admin Manage** users\n  - File Upload\n" \
                   "- Nothing here\n"
        # as the stock check reads them: a bold name is not a feature, "Management" yields
        # "Manage" (no word boundary), and nested bullets count too
        assert eps(features + "- Storage Management: quotas\n") == [
            ("FEATURE", "User Login", "User Login"),
            ("FEATURE", "File Upload", "File Upload"),
            ("FEATURE", "Storage Manage", "Storage Manage"),
        ]
        assert eps(features + "\nGET /health - ok\n") == [("GET", "/health", "ok")]
        assert eps(features + "\n| GET | /health | ok |\n") == [("GET", "/health", "ok")]

    def test_feature_dedupe(self):
        assert eps("- User Login\n- User Login\n") == [("FEATURE", "User Login", "User Login")]

    @pytest.mark.parametrize("readme", ["", "# Title\n\nJust prose, no API.\n",
                                        "GET requests are cached.", "| GET | no path |"])
    def test_nothing_found(self, readme):
        assert extract_endpoints(readme) == []

    def test_endpoint_str_and_key(self):
        e = Endpoint("GET", "/a/{id}", "x")
        assert (str(e), e.key) == ("GET /a/{id}", "GET:/a/{id}")


class TestPort:
    @pytest.mark.parametrize(("readme", "port"), [
        ("Port: 18081", 18081),
        ("The service runs on port **8080**.", 8080),
        ("PORT=5000", 5000),
        ("Listen on port 80.", 80),
        ("port: `3000`", 3000),
        ("First port 8080, then port 9090", 8080),
        ("Ports: 8080", None),  # only the word "port"
        ("import 1234", None),
        ("port 99999", None),  # not a TCP port
        ("port 0", None),
        ("no number at all", None),
        ("", None),
    ])
    def test_extract_port(self, readme, port):
        assert extract_port(readme) == port

    def test_fixture_readme(self):
        assert extract_port(NOTES_README.read_text(encoding="utf-8")) == 18081


class TestFramework:
    @pytest.mark.parametrize(("readme", "framework"), [
        ("Framework: FastAPI", "fastapi"),
        ("Framework: **Flask**\n\nWe do not use FastAPI.", "flask"),  # explicit line first
        ("A Django REST service", "django"),
        ("Built with Spring Boot 3", "springboot"),
        ("A Javalin app. Every request is logged.", "javalin"),  # regression: "eve" in "every"
        ("A Quarkus app; however, see the level docs", "quarkus"),
        ("Framework: everything you need (Flask)", "flask"),
        ("Python Eve REST API", "eve"),
        ("uses flask-sqlalchemy", "flask"),
        ("Micronaut service", "micronaut"),
        ("plain http.server", "any"),
        ("", "any"),
    ])
    def test_extract_framework(self, readme, framework):
        assert extract_framework(readme) == framework

    def test_fixture_readme(self):
        assert extract_framework(NOTES_README.read_text(encoding="utf-8")) == "fastapi"


# total_apis of the committed stock RepoGenesis report for the bundled real Python tasks (the
# stock harness's own figures; ours must reproduce them to compare runs with published ones)
STOCK_TOTAL_APIS = {"Multilingual": 0, "StructuredDataConvertor": 0, "UserManagement_2": 5,
                    "WebPan": 4, "django-rest-framework-crud": 8, "eve": 1, "flask": 3,
                    "synapse": 7}


@pytest.mark.parametrize("task", sorted(STOCK_TOTAL_APIS))
def test_stock_endpoint_count_of_real_tasks(task: str) -> None:
    from inspector.paths import sample_runs

    readme = (sample_runs() / "tasks" / "repo" / task / "README.md").read_text()
    assert len(extract_endpoints(readme)) == STOCK_TOTAL_APIS[task]
