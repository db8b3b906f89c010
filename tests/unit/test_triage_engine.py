"""Per-test triage on the bundled real runs: items, root groups, decisions, abstention.

Only the dev tasks of ``sample_runs/labels-real/split.json`` and the synthetic tasks are used
here: the held-aside tasks are never looked at while the rules are written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.model.failures.triage import (
    INSTALL_REPO_PACKAGE,
    Reading,
)
from inspector.services.triage.combine import decide, support
from inspector.services.triage.engine import TriageContext, triage_sample
from inspector.services.triage.items import failure_items
from inspector.services.triage.roots import failing_statement, group_roots

ROOT = Path(__file__).resolve().parents[2]
RELAY = "repo_readme_1125_relay_open_coder-7b_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
JAVA = "repo_readme_1125_dash_m2-mini_Java"


@pytest.fixture(scope="module")
def ctx() -> TriageContext:
    return TriageContext.load(ROOT / "sample_runs")


def _sample(ctx: TriageContext, run: str, task: str):  # type: ignore[no-untyped-def]
    return next(s for r in ctx.runs if r.id == run for s in r.samples if s.task == task)


def test_held_out_tasks_are_declared() -> None:
    split = json.loads((ROOT / "sample_runs/labels-real/split.json").read_text())
    assert set(split["held_out_tasks"]) == {"WebPan", "StructuredDataConvertor"}


def test_a_failed_deployment_is_the_root_of_every_test_that_could_not_connect(
        ctx: TriageContext) -> None:
    sample = _sample(ctx, RELAY, "Multilingual")
    items = failure_items(sample, ctx.task_of(sample))
    groups = group_roots(sample, items)
    assert len(groups) == 1
    assert groups[0].root.test_id is None and groups[0].root.kind == "deploy_failed"
    assert len(groups[0].members) == len(items) - 1 == 33


def test_a_copied_statement_failing_alike_is_one_root(ctx: TriageContext) -> None:
    sample = _sample(ctx, DASH, "UserManagement_2")
    groups = group_roots(sample, failure_items(sample, ctx.task_of(sample)))
    login = [g for g in groups if "access_token" in g.why]
    assert len(login) == 1 and len(login[0].members) == 6
    assert all("KeyError: 'data'" in m.message for m in login[0].members)
    # assertions with equal text but different requests stay separate roots
    status = [g for g in groups if g.root.message == "assert 409 == 400"]
    assert len(status) == 2 and not any(g.members for g in status)


def test_failing_statement_reads_pytest_short_tracebacks() -> None:
    tb = ('tests/t.py:146: in test_x\n    token = r.json()["data"]["access_token"]\n'
          '            ^^^^^^^^^^^^^\nE   KeyError: \'data\'')
    assert failing_statement(tb) == 'token = r.json()["data"]["access_token"]'


def test_a_missing_package_in_the_repo_is_dependency_with_a_remedy(ctx: TriageContext) -> None:
    triage = triage_sample(_sample(ctx, RELAY, "Multilingual"), ctx)
    root = next(s for s in triage.suggestions if s.is_root)
    assert root.category == "dependency" and root.confidence >= 0.8
    assert "babel" in root.reason
    assert root.remedy is not None and root.remedy.kind == INSTALL_REPO_PACKAGE
    followers = [s for s in triage.suggestions if not s.is_root]
    assert len(followers) == 33 and all(f.category == "dependency" for f in followers)
    assert all(f.root == root.item.key for f in followers)


def test_an_offline_maven_repository_is_not_the_models_failure(ctx: TriageContext) -> None:
    triage = triage_sample(_sample(ctx, JAVA, "spark-dashboard-backend"), ctx)
    (only,) = triage.suggestions
    assert only.item.test_id is None and only.category == "not-model"
    assert "Maven" in only.reason


def test_every_suggestion_names_its_evidence(ctx: TriageContext) -> None:
    for run in (RELAY, DASH):
        for task in ("Multilingual", "UserManagement_2", "synapse"):
            for s in triage_sample(_sample(ctx, run, task), ctx).suggestions:
                if s.category is not None:
                    assert s.reason and (s.anchors or ":" in s.reason), s


def test_noisy_or_and_abstention() -> None:
    a = Reading("not-model", 0.6, "x", "")
    b = Reading("not-model", 0.5, "y", "")
    assert support([a, b])["not-model"] == pytest.approx(0.8)
    category, confidence, _ = decide([a, b])
    assert category == "not-model" and confidence == pytest.approx(0.8)
    # a strong contradicting reading makes it unsure, with both readings kept
    c = Reading("other", 0.8, "z", "")
    category, confidence, ordered = decide([a, b, c])
    assert category is None and confidence == pytest.approx(0.8 * 0.6)
    assert {r.category for r in ordered} == {"not-model", "other"}
    # evidence against a category scales it down; a modifier alone proposes nothing
    assert support([a, Reading("not-model", -0.5, "~p", "")])["not-model"] == pytest.approx(0.3)
    assert decide([Reading("other", 0.9, "~m", "")])[0] is None


ATLAS = "repo_readme_1125_atlas_m2-large_Python"
UM2 = "UserManagement_2"


def _suggestion(ctx: TriageContext, run: str, task: str, test_name: str):  # type: ignore[no-untyped-def]
    triage = triage_sample(_sample(ctx, run, task), ctx)
    return next(s for s in triage.suggestions
                if s.item.test_id and s.item.test_id.endswith("::" + test_name))


def test_a_valid_request_refused_is_the_models_failure(ctx: TriageContext) -> None:
    s = _suggestion(ctx, ATLAS, UM2, "test_update_user_info_empty_body")
    assert s.category == "other" and s.rule == "spec/valid-request-refused"
    # the README lines that make the empty update valid, and the failing test line
    assert "README.md:111-112" in s.reason and "400" in s.reason
    assert any(a.kind == "task" and a.path == "README.md" and a.line == 111 for a in s.anchors)
    assert any(a.kind == "task" and a.path == "tests/test_edge_cases.py" for a in s.anchors)
    # and where the repo answers 400 in the handler
    assert "app/routers/users.py:93" in s.reason
    assert any(a.kind == "file" and a.path == "app/routers/users.py" and a.line == 93
               for a in s.anchors)


def test_a_status_code_the_readme_never_gives_is_the_benchmarks(ctx: TriageContext) -> None:
    s = _suggestion(ctx, DASH, UM2, "test_update_user_info_duplicate_email")
    assert s.category == "not-model" and s.rule == "spec/readme-silent"
    assert "never lists a status code for PUT /api/v1/users/{user_id}" in s.reason
    rules = {r.rule for r in s.competing}
    # the same test fails alike for every agent; another task's suite wants 409 for a duplicate
    assert "cross-sample/fails-alike" in rules
    disagree = next(r for r in s.competing if r.rule == "~conventions/suites-disagree")
    assert "inventory-api" in disagree.reason and "409" in disagree.reason


def test_a_word_the_readme_never_gives_in_an_error_message(ctx: TriageContext) -> None:
    s = _suggestion(ctx, DASH, UM2, "test_register_username_too_long")
    assert s.category == "not-model" and s.rule == "spec/readme-silent"
    assert "'username'" in s.reason and "validation failed" in s.reason


def test_a_conflict_on_a_fresh_registration_suspects_shared_state(ctx: TriageContext) -> None:
    s = _suggestion(ctx, DASH, UM2, "test_user_registration_success")
    assert s.category == "not-model"
    rules = {r.rule for r in s.competing}
    assert {"spec/conflict-shared-state", "spec/shared-state"} <= rules
    assert s.remedy is not None and s.remedy.kind == "run_alone"
    assert s.remedy.target.endswith("test_user_registration_success")


def test_a_server_error_from_an_online_api_the_readme_prescribes(ctx: TriageContext) -> None:
    s = _suggestion(ctx, DASH, "Multilingual", "test_translate_long_text")
    offline = next(r for r in s.competing if r.rule == "spec/offline-prescribed-api")
    assert offline.category == "not-model" and "googletrans" in offline.reason
    assert any(a.path == "README.md" and a.line == 18 for a in offline.anchors)
    server = next(r for r in s.competing if r.rule == "spec/server-error")
    assert server.weight < offline.weight  # the offline sandbox explains the 500


def test_a_confirmation_decides_again(ctx: TriageContext) -> None:
    from inspector.model.failures.triage import Confirmation
    from inspector.services.triage.engine import confirm_in

    triage = triage_sample(_sample(ctx, DASH, UM2), ctx)
    key = next(s.item.key for s in triage.suggestions
               if s.item.test_id and s.item.test_id.endswith("test_get_user_info_nonexistent_user"))
    before = triage.for_item(key)
    assert before is not None and before.category is None  # unsure: other vs shared state
    passed = Confirmation("run it alone", True, "alone on a fresh deployment it passes", 1, 0, 1)
    after = confirm_in(triage, key, passed)
    root = after.for_item(key)
    assert root is not None and root.category == "not-model" and root.confirmation is passed
    assert "confirmed by a re-run" in root.reason
    followers = [s for s in after.suggestions if s.root == key]
    assert followers and all(f.category == "not-model" for f in followers)
    failed = Confirmation("run it alone", False, "alone it fails the same way", 0, 1, 1)
    refuted = confirm_in(triage, key, failed).for_item(key)
    assert refuted is not None and refuted.category == "other"


MISSING_YAML_TB = """ImportError while importing test module '/tmp/gi-x/repo/tests/test_schema.py'.
Traceback:
/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py:126: in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
tests/test_schema.py:5: in <module>
    import yaml
E   ModuleNotFoundError: No module named 'yaml'"""


def test_a_golden_import_nobody_installs_gets_the_test_package_remedy(tmp_path: Path) -> None:
    """The suite imports yaml; its tests/requirements.txt does not list it: not the model's,
    and installing PyYAML for the tests (never for the repo) is the remedy to try."""
    from inspector.model import Outcome, SampleResult, TestCase, TestSummary
    from inspector.model.benchmark.tasks import load_task
    from inspector.model.results.sample import Deployment
    from inspector.services.triage.engine import TriageContext as Ctx

    task = load_task(ROOT / "tests/fixtures/suite_audit/missing_dependency", [])
    assert task is not None
    case = TestCase("tests/test_schema.py", Outcome.ERROR, message="collection failure",
                    traceback=MISSING_YAML_TB, file="tests/test_schema.py")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "app.py").write_text("import flask\n")
    result = SampleResult("run", task.name, 0, "python", Deployment(True),
                          TestSummary(0, 0, 1, 0, cases=(case,), has_cases=True,
                                      collection_errors=1), repo_path=repo)
    ctx = Ctx([], {task.name: task})
    (s,) = [x for x in triage_sample(result, ctx).suggestions if x.item.test_id]
    assert s.category == "not-model"
    assert s.remedy is not None and (s.remedy.kind, s.remedy.target) == (
        "install_test_package", "pyyaml")
