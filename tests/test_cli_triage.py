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
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.model.labels import ItemRef, Label, LabelFile, apply_edit, dumps_labels

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

def test_agreement_per_item_by_default(capsys: pytest.CaptureFixture[str],
                                       labels_dir: Path) -> None:
    code, out, err = run(capsys, "agreement", str(labels_dir), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert "unit" not in doc  # the default output is unchanged
    (pair,) = doc["cohen_kappa"]
    # 7 items: A and its 4 followers agree (dependency), B and C disagree.
    #   po = 5/7; ana: dependency 5, not-model 1, other 1; ben: the same counts
    #   pe = (5*5 + 1*1 + 1*1) / 49 = 27/49; kappa = (35 - 27) / (49 - 27) = 8/22
    assert (pair["items"], pair["agreed"]) == (7, 5)
    assert pair["kappa"] == round(8 / 22, 4)


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
    assert "Per root: items every annotator marked as following" in text
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
