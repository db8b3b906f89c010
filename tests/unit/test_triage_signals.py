"""The triage's static signals on real task files: shared identities between tests, status-code
conventions across suites, online APIs a sandbox cannot reach."""

from __future__ import annotations

from pathlib import Path

from inspector.model.benchmark.tasks import load_tasks
from inspector.services.triage.conventions import ConventionIndex, situation_of, suite_demands
from inspector.services.triage.offline import online_calls
from inspector.services.triage.pollution import shared_literals, suite_literals

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "sample_runs" / "tasks"
UM2_TESTS = TASKS / "repo" / "UserManagement_2" / "tests"


def _suite() -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(UM2_TESTS.glob("test_*.py"))}


def test_tests_registering_the_same_user_share_state() -> None:
    shared = shared_literals(_suite(), "test_user_registration_success")
    assert shared is not None
    assert {"testuser", "test@example.com"} <= set(shared.values)
    assert "password123" not in shared.values  # passwords are not identities
    assert "test_user_login_success" in shared.others


def test_self_attribute_bodies_are_followed() -> None:
    source = (UM2_TESTS / "test_user_api.py").read_text()
    literals = suite_literals(source)
    # json=self.test_user, set by the class's autouse fixture
    assert "testuser" in literals["test_user_registration_success"]


def test_a_test_writing_nothing_shares_nothing() -> None:
    source = "import requests\n\ndef test_get():\n    assert requests.get('http://x/a')\n"
    assert shared_literals({"t.py": source}, "test_get") is None


def test_situations_from_test_names() -> None:
    assert situation_of("test_update_user_info_duplicate_email") == "a duplicate resource"
    assert situation_of("test_invalid_url_path") == "an unknown URL path"
    assert situation_of("test_register_username_too_long") == "an out-of-range field value"
    assert situation_of("test_user_login_success") is None


def test_suites_disagreeing_on_a_duplicate() -> None:
    tasks, _ = load_tasks(TASKS)
    demands = suite_demands(tasks["UserManagement_2"])
    assert any(d.codes == (400,) for d in demands["a duplicate resource"])
    found = ConventionIndex(tasks).contradictions(
        "UserManagement_2", "test_update_user_info_duplicate_email", 400)
    assert found is not None
    situation, others = found
    assert situation == "a duplicate resource"
    assert any(d.task == "inventory-api" and 409 in d.codes for d in others)


def test_an_online_api_the_readme_prescribes() -> None:
    tasks, _ = load_tasks(TASKS)
    readme = tasks["Multilingual"].readme
    repo = ROOT / "sample_runs/predictions/repo_readme_1125_dash_m2-mini_Python/Multilingual"
    (call,) = online_calls(repo, readme)
    assert call.library == "googletrans" and call.file == "app.py"
    assert call.readme_line is not None and "googletrans" in call.readme_text


def test_no_online_api_in_a_repo_without_one(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("import flask\n")
    assert online_calls(tmp_path, "googletrans") == []


def test_the_handler_line_answering_a_status() -> None:
    from inspector.services.triage.repo_sites import status_sites

    preds = ROOT / "sample_runs/predictions"
    atlas = preds / "repo_readme_1125_atlas_m2-large_Python/UserManagement_2"
    (site,) = status_sites(atlas, 400, "PUT", "/api/v1/users/{}")  # FastAPI router, prefix apart
    assert (site.file, site.line) == ("app/routers/users.py", 93) and "400" in site.text
    dash = preds / "repo_readme_1125_dash_m2-mini_Python/UserManagement_2"
    sites = status_sites(dash, 409, "PUT", "/api/v1/users/{}")  # Flask, one module
    assert [(s.file, s.line) for s in sites] == [("app.py", 208)]
    assert status_sites(dash, 418, "PUT", "/api/v1/users/{}") == []
