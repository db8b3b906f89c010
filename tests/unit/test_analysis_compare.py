"""Paired run comparison: on the bundled real runs (hand-counted from their result files) and
on multi-sample runs written by the real writer."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model import discover_runs
from inspector.model.results.sample import Generation
from inspector.services.analysis.compare import compare_runs, task_tiers
from inspector.services.analysis.cost import cost_summary
from inspector.services.analysis.outcomes import RunOutcomes, from_run
from inspector.services.analysis.source import (
    RunNotFound,
    load_outcomes,
    resolve_runs,
    resolve_with_tasks,
)
from tests.analysis_runs import write_run

ATLAS = "repo_readme_1125_atlas_m2-large_Python"
DASH = "repo_readme_1125_dash_m2-mini_Python"
RELAY = "repo_readme_1125_relay_open_coder-7b_Python"


@pytest.fixture(scope="module")
def bundled(sample_runs: Path) -> dict[str, RunOutcomes]:
    runs = discover_runs(sample_runs).runs
    return {r.id: from_run(r) for r in runs if r.id in (ATLAS, DASH, RELAY)}


def test_atlas_vs_dash_hand_counted(bundled: dict[str, RunOutcomes]) -> None:
    # From sample_runs/runs/<run>/samples/*/0/result.json (passed/counted tests):
    #   task                        Atlas   Dash
    #   Multilingual                33/33   29/33   strict: Atlas wins; ratio: Atlas wins
    #   StructuredDataConvertor      8/13*  38/42   both fail;          ratio: Dash wins
    #   UserManagement_2            23/31   11/31   both fail;          ratio: Atlas wins
    #   WebPan                      15/22    0/0    both fail;          ratio: Atlas (0 for not run)
    #   django-rest-framework-crud   2/2     2/2    ties
    #   eve                          2/2     2/2    ties
    #   flask                        7/7     7/7    ties
    #   synapse                      0/5     0/5    ties
    #   (* a collection error: not a strict pass whatever the counts)
    c = compare_runs(bundled[ATLAS], bundled[DASH], resamples=2_000)
    assert len(c.pairs) == 8 and c.only_a == [] and c.only_b == []
    assert (c.strict.wins, c.strict.losses, c.strict.ties) == (1, 0, 7)
    assert (c.ratio.wins, c.ratio.losses, c.ratio.ties) == (3, 1, 4)
    by_task = {p.task: p for p in c.pairs}
    assert by_task["Multilingual"].strict == "win"
    assert by_task["StructuredDataConvertor"].ratio == "loss"
    assert by_task["WebPan"].b.test_ratio == 0.0
    assert by_task["UserManagement_2"].a.test_ratio == pytest.approx(23 / 31)
    # McNemar on sample 0: one task only Atlas passed, none only Dash did -> p = 1
    assert (c.mcnemar.b, c.mcnemar.c, c.mcnemar.p_value) == (1, 0, 1.0)
    # pass@1 differences per task are [1, 0 x 7]: the mean is 1/8 and no resample is < 0
    assert c.ci_pass_at_1 is not None
    assert c.ci_pass_at_1.difference == pytest.approx(0.125)
    assert c.ci_pass_at_1.low == 0.0 and c.ci_pass_at_1.contains(0.125)
    assert c.pass_at_k["a"] == {1: 0.5} and c.pass_at_k["b"] == {1: 0.375}
    assert c.pass_hat_k == {"a": {1: 0.5}, "b": {1: 0.375}}
    ratio_diff = (1 - 29 / 33 + 8 / 13 - 38 / 42 + 23 / 31 - 11 / 31 + 15 / 22) / 8
    assert c.ci_test_ratio is not None
    assert c.ci_test_ratio.difference == pytest.approx(ratio_diff)


def test_dash_vs_relay_hand_counted(bundled: dict[str, RunOutcomes]) -> None:
    # Relay: Multilingual 0/33, StructuredDataConvertor 38/42, UserManagement_2 12/31,
    # WebPan not run, the other four as Dash. Strict: the same three tasks pass -> all ties.
    # Ratio: Dash wins Multilingual (29/33 vs 0), loses UserManagement_2 (11 vs 12 of 31).
    c = compare_runs(bundled[DASH], bundled[RELAY], resamples=2_000)
    assert (c.strict.wins, c.strict.losses, c.strict.ties) == (0, 0, 8)
    assert (c.ratio.wins, c.ratio.losses, c.ratio.ties) == (1, 1, 6)
    assert c.mcnemar.discordant == 0 and c.mcnemar.p_value == 1.0
    assert c.ci_pass_at_1 is not None
    assert (c.ci_pass_at_1.low, c.ci_pass_at_1.high) == (0.0, 0.0)


def test_catalog_and_loaded_runs_agree(sample_runs: Path, tmp_path: Path,
                                       bundled: dict[str, RunOutcomes]) -> None:
    loaded = load_outcomes(sample_runs, db_path=tmp_path / "index.sqlite3")
    by_id = {r.run_id: r for r in loaded.runs}
    for run_id in (ATLAS, DASH):
        fast = sorted((s.task, s.sample, s.strict_pass, s.passed, s.total, s.framework)
                      for s in by_id[run_id].samples)
        full = sorted((s.task, s.sample, s.strict_pass, s.passed, s.total, s.framework)
                      for s in bundled[run_id].samples)
        assert fast == full
    a = compare_runs(by_id[ATLAS], by_id[DASH], resamples=500).to_json()
    b = compare_runs(bundled[ATLAS], bundled[DASH], resamples=500).to_json()
    for doc in (a, b):
        for side in ("a", "b"):
            doc[side].pop("key")
            doc[side]["cost"].pop("run_key")
    assert a == b


def test_several_samples_pass_at_k_and_pass_hat_k(tmp_path: Path) -> None:
    # alpha: A passes 2 of 3, B none; beta: A 3 of 3, B 2 of 3; gamma only in A; delta only B
    write_run(tmp_path, "run-a", "AgentA", "m1", {
        "alpha": [(5, 5), (5, 5), (4, 5)], "beta": [(3, 3)] * 3, "gamma": [(1, 1)] * 3})
    write_run(tmp_path, "run-b", "AgentB", "m2", {
        "alpha": [(0, 5), (4, 5), (0, 0)], "beta": [(3, 3), (2, 3), (3, 3)],
        "delta": [(1, 2)] * 3})
    loaded = load_outcomes(tmp_path, db_path=tmp_path / "index.sqlite3")
    runs = {r.run_id: r for r in loaded.runs}
    c = compare_runs(runs["run-a"], runs["run-b"], resamples=1_000)
    assert c.only_a == ["gamma"] and c.only_b == ["delta"]
    alpha, beta = c.pairs
    # alpha A: n=3 c=2 -> pass@2 = 1 - C(1,2)/C(3,2) = 1, pass^2 = C(2,2)/C(3,2) = 1/3, pass^3 = 0
    assert alpha.a.pass_at_k == pytest.approx({1: 2 / 3, 2: 1.0, 3: 1.0})
    assert alpha.a.pass_hat_k == pytest.approx({1: 2 / 3, 2: 1 / 3, 3: 0.0})
    assert alpha.b.pass_at_k == {1: 0.0, 2: 0.0, 3: 0.0}
    assert beta.b.pass_hat_k == pytest.approx({1: 2 / 3, 2: 1 / 3, 3: 0.0})
    assert beta.a.pass_hat_k == {1: 1.0, 2: 1.0, 3: 1.0}
    # means over the two common tasks
    assert c.pass_at_k["a"] == pytest.approx({1: 5 / 6, 2: 1.0, 3: 1.0})
    assert c.pass_hat_k["a"] == pytest.approx({1: 5 / 6, 2: 2 / 3, 3: 0.5})
    assert c.pass_hat_k["b"] == pytest.approx({1: 1 / 3, 2: 1 / 6, 3: 0.0})
    # strict: A's pass@1 estimate is higher on both; ratio: alpha 14/15 vs 4/15 (a sample
    # that did not deploy counts 0), beta 1 vs 8/9
    assert (c.strict.wins, c.strict.losses, c.strict.ties) == (2, 0, 0)
    assert alpha.b.test_ratio == pytest.approx((0 + 0.8 + 0) / 3)
    # McNemar on sample 0 only: alpha A pass / B fail, beta both pass -> b=1, c=0
    assert (c.mcnemar.b, c.mcnemar.c) == (1, 0)
    assert c.max_samples == 3


def test_generation_cost_vs_pass(tmp_path: Path) -> None:
    gen = {("alpha", 0): Generation(seconds=30.0, input_tokens=1000, output_tokens=400,
                                    cost_usd=0.02),
           ("alpha", 1): Generation(seconds=50.0, input_tokens=3000, output_tokens=600,
                                    cost_usd=0.06),
           ("beta", 0): Generation(seconds=40.0, cost_usd=0.04)}
    write_run(tmp_path, "run-a", "AgentA", "m1",
              {"alpha": [(5, 5), (1, 5)], "beta": [(3, 3), (0, 3)]}, gen)
    write_run(tmp_path, "run-b", "AgentB", "m2", {"alpha": [(5, 5)] * 2, "beta": [(0, 3)] * 2})
    runs = {r.run_id: r for r in load_outcomes(tmp_path, db_path=tmp_path / "i.db").runs}
    a = cost_summary(runs["run-a"])
    # three of four samples record; costs 0.02 (pass), 0.06 (fail), 0.04 (pass)
    assert (a.recorded, a.with_cost, a.samples) == (3, 3, 4)
    assert a.median_cost == pytest.approx(0.04)
    assert a.total_cost == pytest.approx(0.12)
    assert a.passes_with_cost == 2 and a.cost_per_pass == pytest.approx(0.06)
    assert a.median_seconds == pytest.approx(40.0)
    assert a.median_input_tokens == 2000.0 and a.median_output_tokens == 500.0
    assert a.pass_at_1 == 0.5
    b = cost_summary(runs["run-b"])
    assert not b.is_recorded and b.to_json()["status"] == "not recorded"
    assert b.median_cost is None and b.cost_per_pass is None


def test_resolve_runs_by_folder_id_and_part(sample_runs: Path, tmp_path: Path) -> None:
    def db(p: Path) -> Path:
        return tmp_path / f"{p.resolve().name}.db"

    def one(spec: str) -> RunOutcomes:
        (run,) = resolve_runs([spec], sample_runs, db_path_for=db)
        return run

    by_folder, by_id = resolve_runs([str(sample_runs / "runs" / DASH), DASH], sample_runs,
                                    db_path_for=db)
    assert by_folder.run_id == by_id.run_id == DASH  # exact, beside its stock copy
    assert by_folder.key == by_id.key  # the same run reached two ways
    assert len(by_id.samples) == 8
    assert one("1125_relay").run_id == RELAY
    with pytest.raises(RunNotFound, match="fits 2 runs"):  # Java and Python (not the copy)
        one("1125_dash")
    with pytest.raises(RunNotFound, match="no run with that id"):
        one("no-such-run")
    with pytest.raises(FileNotFoundError):
        one("./missing/run")
    with pytest.raises(RunNotFound, match="holds 6 runs"):
        one(str(sample_runs))


def test_resolved_runs_bring_their_folders_tasks(sample_runs: Path, tmp_path: Path) -> None:
    """The tiers come from the tasks the catalog of the folder named holds: the first run
    named by its path, else --root's."""
    def db(p: Path) -> Path:
        return tmp_path / f"{p.resolve().name}.db"

    by_id = resolve_with_tasks([ATLAS, DASH], sample_runs, db_path_for=db)
    assert [r.run_id for r in by_id.runs] == [ATLAS, DASH]
    tiers = task_tiers(by_id.runs, by_id.tasks)
    assert (tiers["WebPan"], tiers["synapse"], tiers["flask"]) == \
        ("spec high", "spec medium", "spec low")
    by_path = resolve_with_tasks([str(sample_runs / "runs" / r) for r in (ATLAS, DASH)],
                                 tmp_path / "none", db_path_for=db)
    assert task_tiers(by_path.runs, by_path.tasks) == tiers  # the run folder's tasks
    alone = tmp_path / "runs"
    write_run(alone, "run-a", "A", "m", {"alpha": [(1, 1)]})
    write_run(alone, "run-b", "B", "m", {"alpha": [(0, 1)]})
    nothing = resolve_with_tasks(["run-a", "run-b"], alone, db_path_for=db)
    assert nothing.tasks == {} and task_tiers(nothing.runs, nothing.tasks) == {}


def test_runs_without_a_common_task_are_listed_not_compared(tmp_path: Path) -> None:
    write_run(tmp_path, "run-a", "A", "m", {"alpha": [(1, 1)]})
    write_run(tmp_path, "run-b", "B", "m", {"beta": [(1, 1)], "gamma": [(0, 1)]})
    runs = {r.run_id: r for r in load_outcomes(tmp_path, db_path=tmp_path / "i.db").runs}
    c = compare_runs(runs["run-a"], runs["run-b"])
    assert c.pairs == [] and c.only_a == ["alpha"] and c.only_b == ["beta", "gamma"]
    assert c.ci_pass_at_1 is None and c.ci_test_ratio is None
    assert c.mcnemar.p_value == 1.0 and c.pass_at_k == {"a": {}, "b": {}}
    doc = c.to_json()
    assert doc["common_tasks"] == 0 and doc["ci_pass_at_1"] is None


def test_sample_entries_give_the_same_outcomes(sample_runs: Path, tmp_path: Path) -> None:
    from inspector.services.analysis.outcomes import from_entries
    from inspector.services.catalog.index import Catalog

    db = tmp_path / "index.sqlite3"
    fast = {r.key: r for r in load_outcomes(sample_runs, db_path=db).runs}
    catalog = Catalog(sample_runs.resolve(), db)
    try:
        catalog.refresh()
        entries = catalog.samples()
        for run in catalog.runs():
            mine = from_entries(run, entries)
            assert sorted(mine.samples, key=lambda s: (s.task, s.sample)) == \
                list(fast[run.key].samples)
    finally:
        catalog.close()
