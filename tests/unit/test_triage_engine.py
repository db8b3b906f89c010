"""Per-test triage on the bundled real runs: items, root groups, decisions, abstention.

Only the dev tasks of ``sample_runs/labels-real/split.json`` and the synthetic tasks are used
here: the held-aside tasks are never looked at while the rules are written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.model.triage import (
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
