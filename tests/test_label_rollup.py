"""Per-test labels made through the labelling queue's session reach every table (issue 28,
item 1): ``labels export``, ``analyze --runs`` and ``report`` count them through the one
roll-up (:mod:`inspector.model.labels.rollup`), per sample, per root cause and per test; the
queue's progress counts by the same definition. And ``labels suggest --score`` says which
labels it scored against (item 7)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.model.labels.label_file import ItemRef
from inspector.services.labels.session import LabelSession

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_RUNS = ROOT / "sample_runs"
FORGE = "repo_readme_1118_forge_m1-large_Python"
TODO = f"{FORGE}/todo-service/0"
UNIT = f"{FORGE}/unit-converter/0"
QUOTE = f"{FORGE}/quote-board/0"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the forge run (3 failing samples), with no labels yet."""
    root = tmp_path / "project"
    shutil.copytree(SAMPLE_RUNS / "runs" / FORGE, root / "runs" / FORGE)
    return root


def failing_tests(sample: str) -> list[str]:
    path = SAMPLE_RUNS / "runs" / FORGE / "samples" / sample.split("/", 1)[1] / "result.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [t["id"] for t in doc["tests"]["cases"] if t["outcome"] in ("failed", "error")]


def label_in_the_queue(labels: Path) -> LabelSession:
    """What an annotator does in the Label screen (its session calls, its code path):
    todo-service: the first failing test as a root (cross-file) with the second following
    it, the third a root of its own (not-model); unit-converter: the failed deployment (the
    sample-level item) as the root of all its 8 tests (architectural)."""
    session = LabelSession(labels, "ana")
    t1, t2, t3 = failing_tests(TODO)
    session.save_group(ItemRef(TODO, t1), [ItemRef(TODO, t2)], "cross-file")
    session.save(ItemRef(TODO, t3), "not-model", follows=None)
    unit_tests = failing_tests(UNIT)
    assert len(unit_tests) == 8
    session.save_group(ItemRef(UNIT), [ItemRef(UNIT, t) for t in unit_tests], "architectural")
    session.flush()
    return session


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def by_language(doc: dict[str, object]) -> dict[str, int]:
    table = doc["tables"]["by_language"]  # type: ignore[index]
    return {r["category"]: r["total"]["n"] for r in table["rows"] if r["total"]["n"]}


def test_queue_labels_reach_export_analyze_and_report(
        project: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = label_in_the_queue(project / "labels")
    # the queue's progress: 2 of the 3 failing samples have a labelled item
    assert session.progress([TODO, UNIT, QUOTE]) == (2, 3)
    session.close()
    runs = str(project / "runs")

    code, out, err = cli(capsys, "labels", "export", runs, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["view"] == "sample" and "per sample" in doc["tables"]["by_language"]["title"]
    # each sample once: unit-converter architectural (1 root); todo-service has a
    # cross-file and a not-model root: a tie, taxonomy order gives cross-file
    assert by_language(doc) == {"architectural": 1, "cross-file": 1}
    todo = next(r for r in doc["counted"] if r["sample"] == TODO)
    assert todo["categories"] == ["cross-file", "not-model"] and todo["roots"] == 2
    assert len(doc["rows"]) == 12  # the listing: every labelled item (3 + 1 + 8)
    assert "The tables count 2 samples" in err

    code, out, err = cli(capsys, "labels", "export", runs, "--format", "json", "--view", "root")
    assert code == 0, err
    doc = json.loads(out)
    # 3 roots (not 11 tests): todo's first and third tests, unit-converter's deployment
    assert by_language(doc) == {"architectural": 1, "cross-file": 1, "not-model": 1}
    assert doc["tables"]["by_language"]["totals"]["total"] == 3

    code, out, err = cli(capsys, "labels", "export", runs, "--format", "json", "--view", "test")
    assert code == 0, err
    assert by_language(json.loads(out)) == {"architectural": 8, "cross-file": 2,
                                            "not-model": 1}

    code, out, err = cli(capsys, "labels", "export", runs, "--format", "md")
    assert "## Failure categories by language (per sample)" in out
    assert "| Total | 2 | 100.0% | 2 | 100.0% |" in out

    monkeypatch.setenv("GENESIS_INSPECTOR_CACHE", str(project.parent / "cache"))
    code, out, err = cli(capsys, "analyze", str(project), "--runs", "--json", "--view", "root")
    assert code == 0, err
    cats = json.loads(out)["categories"]
    assert cats["view"] == "root" and cats["labelled"] == 3
    assert {r["category"]: r["total"]["n"] for r in cats["by_agent"]["rows"]
            if r["total"]["n"]} == {"architectural": 1, "cross-file": 1, "not-model": 1}

    # the report's label section, from the same analysis the report loads (plots aside)
    from inspector.services.analysis.overview_load import overview_of_folder, read_labels
    from inspector.services.report.data import Labels
    from inspector.services.report.load import assemble
    from inspector.services.report.page import render

    label_input = read_labels(project / "labels").input
    assert label_input is not None
    overview = overview_of_folder(project, label_input)
    page = render(assemble("p", str(project), [], labels=Labels(
        "labels", label_input.taxonomy, overview.categories, None)))
    assert "Counted per sample: each labelled failing sample once" in page
    assert "2 samples of these runs" in page
    assert "<h3>Failure categories by agent (model) (per sample)</h3>" in page


def test_score_says_which_labels_and_prefers_the_reference_labels(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    java = "repo_readme_1125_dash_m2-mini_Java"
    root = tmp_path / "copy"
    shutil.copytree(SAMPLE_RUNS / "runs" / java, root / "runs" / java)
    for name in ("labels", "labels-real"):  # synthetic labels beside the reference ones
        shutil.copytree(SAMPLE_RUNS / name, root / name)
    code, out, err = cli(capsys, "labels", "suggest", str(root), "--score", "--json")
    assert code == 0, err
    doc = json.loads(out)
    against = doc["scored_against"]
    assert against["folder"] == doc["labels"] == str(root / "labels-real")
    assert against["annotators"] == ["otto", "rhea"]
    assert (against["labels"], against["items"]) == (126, 126)
    assert against["source"].startswith("the reference labels found beside the runs")

    code, out, err = cli(capsys, "labels", "suggest", str(root), "--score")
    assert code == 0, err
    assert out.splitlines()[:2] == [
        f"Labels: {root / 'labels-real'} (annotators: otto, rhea; 126 labelled items: "
        "126 single)",
        "Scored against these labels: the reference labels found beside the runs; --labels "
        "DIR scores against others; 126 labels of 126 items."]

    code, out, err = cli(capsys, "labels", "suggest", str(root), "--score", "--labels",
                         str(root / "labels"))
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"Labels: {root / 'labels'} (annotators: ana, ben;")
    assert out.splitlines()[1] == ("Scored against these labels: given with --labels; 20 "
                                   "labels of 10 items, 1 adjudicated.")
