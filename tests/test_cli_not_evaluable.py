"""Samples the infrastructure left without a verdict: counted and listed apart, in no figure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.cli import main

JAVA = "repo_readme_1125_dash_m2-mini_Java"
SAMPLES = ("javalin-task-manager", "spark-dashboard-backend", "springboot-chat-gateway")


def _summary(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["summary", *args]) == 0
    return capsys.readouterr().out


def _copy(sample_runs: Path, dest: Path) -> Path:
    """The bundled Java run with its predictions and tasks (relative paths kept)."""
    for part in (f"runs/{JAVA}", f"predictions/{JAVA}", "tasks"):
        shutil.copytree(sample_runs / part, dest / part)
    return dest / "runs" / JAVA


def test_java_samples_without_a_maven_repository_are_not_evaluable(
        tmp_path: Path, sample_runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The bundled Java samples failed because no Maven repository was reachable. Their
    results predate the field: the cause is inferred from the harness's own message, marked
    so, and none of the three counts in a figure; a result recording that it *has* a verdict
    (``not_evaluable: null``) counts again."""
    run = _copy(sample_runs, tmp_path)
    (row,) = json.loads(_summary(capsys, str(run), "--json"))
    assert (row["samples"], row["samples_total"], row["not_evaluable"], row["tasks"]) == \
        (0, 3, 3, 0)
    # no evaluable sample: no figure at all (a 0 % would blame the model)
    assert (row["pass_at_1"], row["dsr"], row["deployed"], row["suites_not_run"]) == \
        (None, None, 0, 0)
    listed = row["not_evaluable_samples"]
    assert [r["sample_id"] for r in listed] == [f"{JAVA}/{t}/0" for t in SAMPLES]
    assert {r["kind"] for r in listed} == {"dependency_repository_unreachable"}
    assert all(r["inferred"] for r in listed)
    assert listed[1]["reason"].startswith("Maven could not resolve com.sparkjava:spark-core")

    text = _summary(capsys, str(run))
    assert f"{JAVA}: 3 of 3 samples not evaluable: dependency_repository_unreachable 3" \
        in text
    assert (f"{JAVA}/javalin-task-manager/0: dependency_repository_unreachable (inferred from "
            "the result's messages): Maven could not resolve io.javalin") in text
    table_row = next(line for line in text.splitlines() if line.startswith(JAVA))
    assert "0 (+3 n/e)" in table_row and "0.0%" not in table_row  # no figure over nothing

    # `failures` names them as not evaluable, never as a failed deployment of the model's
    assert main(["failures", str(run), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["task"], r["outcome"], r["cause"]) for r in rows] == [
        (t, "not_evaluable", "dependency_repository_unreachable") for t in SAMPLES]

    # one result now records that it has a verdict: it counts (and fails), the others not
    result = run / "samples" / "spark-dashboard-backend" / "0" / "result.json"
    doc = json.loads(result.read_text())
    doc["not_evaluable"] = None
    result.write_text(json.dumps(doc))
    (row,) = json.loads(_summary(capsys, str(run), "--json"))
    assert (row["samples"], row["samples_total"], row["not_evaluable"]) == (1, 3, 2)
    assert (row["pass_at_1"], row["dsr"], row["suites_not_run"]) == (0.0, 0.0, 1)
    assert f"{JAVA}/spark-dashboard-backend/0" not in \
        [r["sample_id"] for r in row["not_evaluable_samples"]]


def test_a_sample_the_infrastructure_gave_up_on_is_counted_not_dropped(
        tmp_path: Path, sample_runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sample the harness gave up on has no ``result.json``: an older run recorded only an
    ``infrastructure_failure.txt`` in its folder (read as not evaluable, inferred); a run
    written now lists it in ``run.json`` (recorded). Either way it is counted and listed, in
    no figure, and in the samples list as "not evaluable", never as a failure."""
    from inspector.model.results.verdict import Verdict, verdict_of
    from inspector.model.runs.discover import discover_runs

    run = _copy(sample_runs, tmp_path)
    doc = json.loads((run / "run.json").read_text())
    doc["status"] = "incomplete"
    doc["samples"] = [s for s in doc["samples"] if s["task"] != SAMPLES[0]]
    (run / "run.json").write_text(json.dumps(doc))
    held = run / "samples" / SAMPLES[0] / "0"
    (held / "result.json").unlink()
    (held / "infrastructure_failure.txt").write_text(
        "attempt 1 failed on box for an infrastructure reason (infrastructure: port 7000 is "
        "already in use by another process; not started)\n")
    (row,) = json.loads(_summary(capsys, str(run), "--json"))
    assert (row["samples_total"], row["not_evaluable"]) == (3, 3)
    first = row["not_evaluable_samples"][0]
    assert (first["sample_id"], first["kind"], first["inferred"]) == \
        (f"{JAVA}/{SAMPLES[0]}/0", "port_held", True)

    doc["not_evaluable"] = [{"task": SAMPLES[0], "sample": 0, "kind": "worker_lost",
                             "reason": "attempt 1 failed on node-2 (NodeDiedError)"}]
    (run / "run.json").write_text(json.dumps(doc))
    (row,) = json.loads(_summary(capsys, str(run), "--json"))
    first = row["not_evaluable_samples"][0]
    assert (first["kind"], first["inferred"]) == ("worker_lost", False)
    (loaded,) = discover_runs(run).runs
    given_up = next(s for s in loaded.samples if s.task == SAMPLES[0])
    assert verdict_of(given_up) is Verdict.NOT_EVALUABLE and not verdict_of(given_up).is_failure


def test_corrected_figures_leave_not_evaluable_samples_out_too(tmp_path: Path,
                                                               sample_runs: Path) -> None:
    """Corrected figures are over the official figures' samples: a run whose samples are all
    not evaluable has no corrected figure either (never a corrected 0 %)."""
    from inspector.model.labels.errata import Errata, ErrataEntry
    from inspector.model.runs.discover import discover_runs
    from inspector.services.figures.corrected import corrected_run

    (run,) = discover_runs(_copy(sample_runs, tmp_path)).runs
    errata = Errata(entries=(ErrataEntry(SAMPLES[1], "DashboardTest::testStats", "not-model",
                                         "single"),))
    m = corrected_run(run, errata, [])
    assert (m.tasks, m.samples, m.pass_at_1, m.test_pass_ratio) == (0, 0, None, None)
    assert "no evaluable sample" in m.note
