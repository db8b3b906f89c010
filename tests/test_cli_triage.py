"""``inspector labels agreement|export --per-root`` and ``inspector labels suggest --per-test |
--score`` on label files written to a temporary folder, against the bundled runs.

The labels (two annotators) describe two real failing samples of the bundled synthetic runs:

    A  relay todo-service/0 (deploy_failed)        ana dependency   ben dependency   roots
    A1-A4  four of its failing tests               both dependency, both follow A
    B  relay notes-api/0 test_get_note_by_id       ana not-model    ben other        roots
    C  relay notes-api/0 test_delete_note          ana other (root) ben not-model (follows B)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.model.labels.label_file import ItemRef, Label, LabelFile, apply_edit, dumps_labels

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_RUNS = ROOT / "sample_runs"
RUNS = SAMPLE_RUNS / "runs"
RELAY = "repo_readme_1119_relay_open_coder-7b_Python"
TODO = f"{RELAY}/todo-service/0"
NOTES = f"{RELAY}/notes-api/0"
TODO_TESTS = ["test_health", "test_create_defaults", "test_get_todo", "test_delete_todo"]
B = "tests/test_notes.py::test_get_note_by_id"
C = "tests/test_notes.py::test_delete_note"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["labels", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def write_labels(folder: Path, name: str, labels: list[Label]) -> None:
    """A real label file, each label with its 'create' history, as the store writes it."""
    made = [apply_edit(None, lb, by=name, at="2026-11-26T05:00:00Z") for lb in labels]
    doc = LabelFile(name, labels=tuple(lb for lb in made if lb is not None)).to_json()
    path = folder / "annotators" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps_labels(doc), encoding="utf-8")


def group_labels(c_category: str, c_follows: str | None, b_category: str) -> list[Label]:
    labels = [Label(ItemRef(TODO), "dependency", "high", "requirements.txt lacks fastapi")]
    labels += [Label(ItemRef(TODO, f"tests/test_todos.py::{t}"), "dependency", follows=TODO)
               for t in TODO_TESTS]
    labels.append(Label(ItemRef(NOTES, B), b_category, note="the README is silent"))
    labels.append(Label(ItemRef(NOTES, C), c_category, follows=c_follows))
    return labels


@pytest.fixture
def labels_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "labels-real"
    write_labels(folder, "ana", group_labels("other", None, "not-model"))
    write_labels(folder, "ben", group_labels("not-model", f"{NOTES}::{B}", "other"))
    return folder


# --- agreement ------------------------------------------------------------------------------

def test_agreement_per_root_by_default(capsys: pytest.CaptureFixture[str],
                                       labels_dir: Path) -> None:
    code, out, err = run(capsys, "agreement", str(labels_dir), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["view"] == "root" and doc["unit"] == "per_root"
    (pair,) = doc["cohen_kappa"]
    assert (pair["items"], pair["agreed"]) == (3, 1)  # as --per-root (below)


def test_agreement_per_test(capsys: pytest.CaptureFixture[str], labels_dir: Path) -> None:
    code, out, err = run(capsys, "agreement", str(labels_dir), "--json", "--view", "test")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["view"] == "test"
    (pair,) = doc["cohen_kappa"]
    # 6 tests: A's 4 followers agree (dependency), B and C disagree.
    #   po = 4/6; ana: dependency 4, not-model 1, other 1; ben: the same counts
    #   pe = (4*4 + 1 + 1) / 36 = 18/36; kappa = (24 - 18) / (36 - 18) = 1/3
    assert (pair["items"], pair["agreed"]) == (6, 4)
    assert pair["kappa"] == round(1 / 3, 4)


def test_agreement_per_sample(capsys: pytest.CaptureFixture[str], labels_dir: Path) -> None:
    code, out, err = run(capsys, "agreement", str(labels_dir), "--json", "--view", "sample")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["view"] == "sample"
    (pair,) = doc["cohen_kappa"]
    # each annotator's own roll-up: todo is dependency for both; notes: ana has roots B
    # (not-model) and C (other): a tie, taxonomy order puts not-model first; ben has one
    # root, B (other; C follows it): other. 2 samples, 1 agreed.
    assert (pair["items"], pair["agreed"]) == (2, 1)
    assert {d["item"]: d["ratings"] for d in doc["disagreements"]} == {
        NOTES: {"ana": "not-model", "ben": "other"}}


def test_agreement_per_root_leaves_followers_out(capsys: pytest.CaptureFixture[str],
                                                 labels_dir: Path) -> None:
    code, out, err = run(capsys, "agreement", str(labels_dir), "--per-root", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["unit"] == "per_root"
    (pair,) = doc["cohen_kappa"]
    # A, B and C (ana calls C a root): po = 1/3; each annotator used dependency, not-model and
    # other once, pe = 3/9, kappa = (3 - 3) / (9 - 3) = 0
    assert (pair["items"], pair["agreed"]) == (3, 1)
    assert pair["kappa"] == 0.0
    assert {d["item"] for d in doc["disagreements"]} == {f"{NOTES}::{B}", f"{NOTES}::{C}"}
    code, text, err = run(capsys, "agreement", str(labels_dir), "--per-root")
    assert code == 0, err
    assert "View: per root cause: each labelled item that follows no other once" in text
    assert "3 shared items" in text


# --- export ---------------------------------------------------------------------------------

def test_export_per_root(capsys: pytest.CaptureFixture[str], labels_dir: Path) -> None:
    code, out, err = run(capsys, "export", str(RUNS), "--labels", str(labels_dir),
                         "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert len(doc["rows"]) == 7 and "unit" not in doc["meta"]
    code, out, err = run(capsys, "export", str(RUNS), "--labels", str(labels_dir),
                         "--format", "json", "--per-root")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["meta"]["unit"] == "per_root"
    # C is unresolved, and ana (root) and ben (follows B) tie on its grouping: kept as a root
    assert [(r["sample"], r["test"]) for r in doc["rows"]] == [
        (NOTES, C), (NOTES, B), (TODO, None)]
    code, out, err = run(capsys, "export", str(RUNS), "--labels", str(labels_dir),
                         "--format", "csv", "--per-root")
    assert code == 0, err
    assert len(out.splitlines()) == 1 + 3


# --- suggest --score: errors met before any triage ------------------------------------------

def test_score_with_a_broken_split(capsys: pytest.CaptureFixture[str],
                                   labels_dir: Path) -> None:
    (labels_dir / "split.json").write_text('{"format": "genesis-inspector.label-split", '
                                           '"held_out_tasks": 3}')
    code, out, err = run(capsys, "suggest", str(SAMPLE_RUNS), "--score", "--labels",
                         str(labels_dir))
    assert code == 1 and out == ""
    assert err.startswith("inspector: error: ") and err.count("\n") == 1
    assert "split.json" in err and "held_out_tasks" in err and "Traceback" not in err


def test_score_without_label_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "empty" / "annotators").mkdir(parents=True)
    code, out, err = run(capsys, "suggest", str(SAMPLE_RUNS), "--score", "--labels",
                         str(tmp_path / "empty"))
    assert code == 1 and out == ""
    assert "no label files" in err and err.count("\n") == 1


def test_per_test_and_score_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["labels", "suggest", str(SAMPLE_RUNS), "--per-test", "--score"])
    assert exc.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


# --- suggest --per-test and --score on the bundled runs (the real engine) -------------------

FORGE_TODO = "repo_readme_1118_forge_m1-large_Python/todo-service/0"
PASSED_TEST = "tests/test_todos.py::test_health"  # passes in forge's todo-service run


@pytest.fixture(scope="module")
def per_test() -> list[dict]:
    """``--per-test --json`` of the bundled runs, in a real process."""
    proc = subprocess.run([sys.executable, "-m", "inspector", "labels", "suggest",
                           str(SAMPLE_RUNS), "--per-test", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no progress lines when stderr is not a terminal
    return json.loads(proc.stdout)


def test_per_test_json_one_object_per_failure_item(per_test: list[dict]) -> None:
    keys = {"sample", "test_id", "category", "rule", "reason", "confidence", "anchors",
            "root", "competing", "remedy", "confirmation"}
    assert per_test and all(keys <= row.keys() for row in per_test)
    by_item = {(r["sample"], r["test_id"]): r for r in per_test}
    assert len(by_item) == len(per_test)  # one object per item
    # every failing test of the todo-service sample (deploy failed) is an item
    for t in TODO_TESTS:
        assert (TODO, f"tests/test_todos.py::{t}") in by_item
    assert (FORGE_TODO, PASSED_TEST) not in by_item
    # a member names its root, and the root is an item of the same sample with no root
    members = [r for r in per_test if r["root"] is not None]
    assert members
    for m in members:
        root = next(r for r in per_test if r["sample"] == m["sample"]
                    and (r["sample"] if r["test_id"] is None
                         else f"{r['sample']}::{r['test_id']}") == m["root"])
        assert root["root"] is None
    assert all(r["category"] is None or 0 <= r["confidence"] <= 1 for r in per_test)


def test_per_test_text_groups_by_sample_and_root(capsys: pytest.CaptureFixture[str],
                                                 per_test: list[dict]) -> None:
    code, out, err = run(capsys, "suggest", str(SAMPLE_RUNS), "--per-test")
    assert code == 0, err
    samples = [ln.split("  (")[0] for ln in out.splitlines() if ln and not ln.startswith(" ")]
    assert samples == list(dict.fromkeys(r["sample"] for r in per_test))
    todo = out.split(f"{TODO}  (", 1)[1].split("\n\n", 1)[0]
    for t in TODO_TESTS:
        assert f"tests/test_todos.py::{t}" in todo
    assert any(ln.strip().startswith("↳ ") for ln in todo.splitlines())
    unsure = [r for r in per_test if r["category"] is None and r["competing"]]
    for r in unsure[:3]:
        cats = " | ".join(dict.fromkeys(c["category"] for c in r["competing"]))
        assert f"unsure: {cats}" in out


def expected_figures(per_test: list[dict], reference: dict[tuple[str, str | None], str]
                     ) -> tuple[int, int, int]:
    """(n, covered, correct) counted here from the engine's own per-test output."""
    by_item = {(r["sample"], r["test_id"]): r["category"] for r in per_test}
    n = covered = correct = 0
    for item, ref in reference.items():
        n += 1
        got = by_item[item]
        covered += got is not None
        correct += got == ref
    return n, covered, correct


def test_score_json_against_tmp_labels_with_a_split(capsys: pytest.CaptureFixture[str],
                                                    labels_dir: Path,
                                                    per_test: list[dict]) -> None:
    (labels_dir / "split.json").write_text(json.dumps(
        {"format": "genesis-inspector.label-split", "version": 1,
         "held_out_tasks": ["notes-api"], "rule": "test"}))
    write_labels(labels_dir, "cara", [Label(ItemRef(FORGE_TODO, PASSED_TEST), "other")])
    code, out, err = run(capsys, "suggest", str(SAMPLE_RUNS), "--score", "--labels",
                         str(labels_dir), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["format"] == "genesis-inspector.triage-score"
    assert doc["labels"] == str(labels_dir) and doc["annotators"] == ["ana", "ben", "cara"]
    assert doc["split"]["held_out_tasks"] == ["notes-api"]
    assert list(doc["scores"]) == ["held_out", "dev", "all"]
    # the passing test cara labelled is listed, not scored; C (ana other, ben not-model) and
    # B (ana not-model, ben other) are unresolved
    assert [u["item"] for u in doc["unmatched"]] == [f"{FORGE_TODO}::{PASSED_TEST}"]
    assert "not a failure item" in doc["unmatched"][0]["reason"]
    assert {u["item"] for u in doc["unresolved"]} == {f"{NOTES}::{B}", f"{NOTES}::{C}"}
    assert doc["label_counts"]["items"] == 8 and doc["label_counts"]["scored"] == 5
    # per test: A and its four followers (todo-service, dev); per root: A alone
    reference = {(TODO, None): "dependency"}
    reference.update({(TODO, f"tests/test_todos.py::{t}"): "dependency" for t in TODO_TESTS})
    n, covered, correct = expected_figures(per_test, reference)
    for split in ("dev", "all"):
        s = doc["scores"][split]["per_test"]
        assert (s["n"], s["covered"], s["correct"]) == (n, covered, correct) and n == 5
        assert sum(map(sum, s["confusion"]["matrix"])) == 5
        assert len(s["misses"]) == n - correct
        r = doc["scores"][split]["per_root"]
        n1, c1, k1 = expected_figures(per_test, {(TODO, None): "dependency"})
        assert (r["n"], r["covered"], r["correct"]) == (n1, c1, k1) and n1 == 1
    held = doc["scores"]["held_out"]
    assert held["per_test"]["n"] == 0 and held["unmatched"] == 0
    assert doc["scores"]["dev"]["unmatched"] == 1
    assert doc["scores"]["all"]["grouping"]["label_followers"] == 4


def test_score_text_names_the_labels_and_the_held_out_promise(
        capsys: pytest.CaptureFixture[str], labels_dir: Path) -> None:
    (labels_dir / "split.json").write_text(json.dumps(
        {"format": "genesis-inspector.label-split", "version": 1,
         "held_out_tasks": ["todo-service"]}))
    code, out, err = run(capsys, "suggest", str(SAMPLE_RUNS), "--score", "--labels",
                         str(labels_dir))
    assert code == 0, err
    assert out.startswith(f"Labels: {labels_dir} (annotators: ana, ben; 7 labelled items")
    assert "held-out tasks: todo-service" in out
    assert "Held-out figures are on tasks never used to write or tune a rule" in out
    rows = {" ".join(ln.split()[:3]): ln.split()[3] for ln in out.splitlines()
            if ln.startswith("  held-out per ")}
    assert rows == {"held-out per root": "1", "held-out per test": "5"}  # n
    assert "Unresolved labels (2" in out


def test_score_on_the_real_labels_in_a_real_process() -> None:
    labels = SAMPLE_RUNS / "labels-real"
    proc = subprocess.run([sys.executable, "-m", "inspector", "labels", "suggest",
                           str(SAMPLE_RUNS), "--score", "--labels", str(labels), "--json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    split = json.loads((labels / "split.json").read_text())
    assert doc["split"]["held_out_tasks"] == split["held_out_tasks"]
    counts = doc["label_counts"]
    assert counts["items"] == counts["scored"] + len(doc["unmatched"]) + len(
        doc["unresolved"])
    every = doc["scores"]["all"]
    assert every["per_test"]["n"] == counts["scored"]
    assert every["per_test"]["n"] == (doc["scores"]["held_out"]["per_test"]["n"]
                                      + doc["scores"]["dev"]["per_test"]["n"])
    assert every["per_root"]["n"] <= every["per_test"]["n"]


def test_score_with_a_corrupt_label_file_still_reports_the_rest(
        capsys: pytest.CaptureFixture[str], labels_dir: Path) -> None:
    ben = labels_dir / "annotators" / "ben.json"
    ben.write_bytes(ben.read_bytes()[:300])
    code, out, err = run(capsys, "suggest", str(SAMPLE_RUNS), "--score", "--labels",
                         str(labels_dir), "--json")
    assert code == 1  # the figures lack ben's labels: not a success
    assert str(ben) in err and "Traceback" not in err
    doc = json.loads(out)
    assert doc["annotators"] == ["ana"] and doc["label_counts"]["items"] == 7


def test_per_test_on_a_folder_without_runs(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    code, out, err = run(capsys, "suggest", str(tmp_path), "--per-test")
    assert code == 1 and out == ""
    assert err == f"inspector: error: {tmp_path}: no runs found\n"
    code, out, err = run(capsys, "suggest", str(tmp_path / "missing"), "--per-test")
    assert code == 2 and "no such file or folder" in err
