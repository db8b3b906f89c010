"""Pass@1 by framework / language / tier and failure categories by agent / framework, on the
bundled runs and labels (hand-counted from their files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model import discover_runs
from inspector.services.analysis.breakdown import (
    category_tables,
    framework_key,
    label_rows,
    language_key,
    pass_at_1_by,
    pass_at_1_tables,
    tier_key,
)
from inspector.services.analysis.outcomes import RunOutcomes, from_run
from inspector.services.labels.store import LabelStore

FORGE = "repo_readme_1118_forge_m1-large_Python"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"


@pytest.fixture(scope="module")
def runs(sample_runs: Path) -> list[RunOutcomes]:
    return [from_run(r) for r in discover_runs(sample_runs).runs]


def test_pass_at_1_by_framework_hand_counted(runs: list[RunOutcomes]) -> None:
    # Forge (sample_runs/runs/<forge>/samples/*/0/result.json):
    #   fastapi: inventory-api 10/10, notes-api 10/10, unit-converter 0/8
    #   flask:   quote-board 4/5 (+ a collection error), todo-service 9/12, url-shortener 8/8
    groups = {(g.run_id, g.group): g for g in pass_at_1_by(runs, framework_key)}
    fastapi = groups[(FORGE, "fastapi")]
    assert (fastapi.tasks, fastapi.samples) == (3, 3)
    assert fastapi.strict == pytest.approx(2 / 3)
    assert fastapi.stock == pytest.approx(2 / 3)
    flask = groups[(FORGE, "flask")]
    assert flask.strict == pytest.approx(1 / 3)
    assert flask.stock == pytest.approx((4 / 5 + 9 / 12 + 1) / 3)
    # Relay 1119: fastapi inventory 7/10, notes 5/10, unit-converter 0/8; flask all 0
    assert groups[(RELAY, "fastapi")].stock == pytest.approx((0.7 + 0.5 + 0) / 3)
    assert groups[(RELAY, "flask")].strict == 0.0
    # the Java run's samples are not evaluable (no Maven repository reachable): no group
    assert not any(run == "repo_readme_1125_dash_m2-mini_Java" for run, _ in groups)


def test_pass_at_1_by_language_equals_the_run_metrics(runs: list[RunOutcomes],
                                                      sample_runs: Path) -> None:
    from inspector.services.figures.metrics import compute_run_metrics

    metrics = {r.id: compute_run_metrics(r) for r in discover_runs(sample_runs).runs}
    for g in pass_at_1_by(runs, language_key):
        m = metrics[g.run_id]
        assert round(g.strict, 4) == m.pass_at_1
        if g.stock is not None:
            assert round(g.stock, 4) == m.test_pass_ratio


def test_tier_hook_groups_by_the_given_tier(runs: list[RunOutcomes]) -> None:
    tiers = {"inventory-api": "Easy", "notes-api": "Easy", "url-shortener": "Easy",
             "todo-service": "Medium", "quote-board": "Hard", "unit-converter": "Hard"}
    forge = [r for r in runs if r.run_id == FORGE]
    groups = {g.group: g for g in pass_at_1_by(forge, tier_key(lambda t: tiers.get(t, "")))}
    tables = pass_at_1_tables(forge, tier_of=tiers.__getitem__)
    assert sorted(tables) == ["by_framework", "by_language", "by_tier"]
    assert [(g.group, g.strict) for g in tables["by_tier"]] == [
        ("Easy", 1.0), ("Hard", 0.0), ("Medium", 0.0)]
    assert sorted(pass_at_1_tables(forge)) == ["by_framework", "by_language"]
    assert sorted(groups) == ["Easy", "Hard", "Medium"]
    assert groups["Easy"].strict == 1.0 and groups["Easy"].tasks == 3
    assert groups["Medium"].strict == 0.0 and groups["Medium"].stock == pytest.approx(0.75)
    assert groups["Hard"].strict == 0.0 and groups["Hard"].stock == pytest.approx(0.4)


def test_categories_by_agent_and_framework_hand_counted(runs: list[RunOutcomes],
                                                        sample_runs: Path) -> None:
    store = LabelStore(sample_runs / "labels")
    loaded = store.load()
    rows, outside = label_rows(loaded.labels, runs)
    assert outside == 0
    tables = category_tables(rows, store.taxonomy(), runs,
                             tier_of=lambda t: "Hard" if t == "unit-converter" else "Easy",
                             view="sample")

    def counts(key: str) -> dict[str, dict[str, int]]:
        b = tables[key]
        return {cat: {g: n for g, n in zip(b.group_names, per, strict=True) if n}
                for cat, per, _ in b.rows if any(per)}

    # per sample (the default view), from the final labels (sample_runs/labels: ana, ben,
    # adjudication); notes-api's sample-level root is unresolved but its test root
    # (tests/test_notes.py::test_get_note_by_id) is architectural for both: its primary.
    #   forge quote-board (flask)       not-model (adjudicated; ana not-model, ben cross-file)
    #   forge todo-service (flask)      cross-file
    #   forge unit-converter (fastapi)  architectural
    #   relay inventory-api (fastapi)   dependency
    #   relay notes-api (fastapi)       architectural (sample root unresolved, test root agreed)
    #   relay quote-board (flask)       dependency
    #   relay todo-service (flask)      cross-file
    #   relay unit-converter (fastapi)  unresolved (architectural vs dependency)
    #   relay url-shortener (flask)     dependency
    assert counts("by_framework") == {
        "architectural": {"fastapi": 2}, "dependency": {"fastapi": 1, "flask": 2},
        "cross-file": {"flask": 2}, "not-model": {"flask": 1}}
    fw = tables["by_framework"]
    assert dict(zip(fw.group_names, fw.unresolved, strict=False)) == {"fastapi": 1, "flask": 0}
    assert fw.title == "Failure categories by framework (per sample)"
    assert counts("by_agent") == {
        "architectural": {"Forge (m1-large)": 1, "Relay (open_coder-7b)": 1},
        "dependency": {"Relay (open_coder-7b)": 3},
        "cross-file": {"Forge (m1-large)": 1, "Relay (open_coder-7b)": 1},
        "not-model": {"Forge (m1-large)": 1}}
    assert counts("by_run")["dependency"] == {RELAY: 3}
    assert counts("by_tier")["architectural"] == {"Hard": 1, "Easy": 1}
