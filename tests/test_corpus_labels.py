"""The triage development corpus (``corpus/``) stays complete: every failure item of its runs
is labelled, every follower names a labelled root of its own sample, and every held-aside item
carries two independent labels. The published suggestion figures stand on this; a run
re-evaluated or a label file edited without the other would change them silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.model import discover_runs
from inspector.model.labels.label_file import ItemRef
from inspector.services.labels.store import LabelStore
from inspector.services.triage.items import failure_items

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture(scope="module")
def items() -> set[ItemRef]:
    found = discover_runs(CORPUS / "runs")
    assert not found.errors and not any(r.unreadable for r in found.runs)
    split = json.loads((CORPUS / "labels" / "split.json").read_text())
    assert sorted(r.id for r in found.runs) == sorted(split["runs"])
    out: set[ItemRef] = set()
    for run in found.runs:
        for sample in run.samples:
            out.update(i.ref for i in failure_items(sample, run.tasks.get(sample.task)))
    return out


def test_every_failure_item_is_labelled_and_nothing_else(items: set[ItemRef]) -> None:
    loaded = LabelStore(CORPUS / "labels").load()
    assert not loaded.problems
    labelled = set(loaded.labels.items())
    assert labelled == items, (sorted(i.key for i in items - labelled)[:5],
                               sorted(i.key for i in labelled - items)[:5])


def test_followers_follow_a_labelled_root_of_their_sample() -> None:
    labels = LabelStore(CORPUS / "labels").load().labels
    keys = {i.key for i in labels.items()}
    for item in labels.items():
        for label in labels.labels_for(item).values():
            if label.follows is not None:
                assert label.follows in keys, (item.key, label.follows)
                assert label.follows.split("::")[0] == item.sample


def test_held_aside_items_have_two_independent_labels(items: set[ItemRef]) -> None:
    split = json.loads((CORPUS / "labels" / "split.json").read_text())
    held = set(split["held_out_tasks"])
    labels = LabelStore(CORPUS / "labels").load().labels
    aside = [i for i in items if i.sample.split("/")[1] in held]
    assert aside
    assert all(len(labels.labels_for(i)) >= 2 for i in aside)


JAVA = CORPUS.parent / "corpus-java"


def test_the_java_corpus_is_labelled_item_for_item() -> None:
    """``corpus-java/``: every failure item of its runs has a label, and nothing else does."""
    found = discover_runs(JAVA / "runs")
    assert not found.errors and len(found.runs) == 6
    items: set[ItemRef] = set()
    for run in found.runs:
        for sample in run.samples:
            items.update(i.ref for i in failure_items(sample, run.tasks.get(sample.task)))
    loaded = LabelStore(JAVA / "labels").load()
    assert not loaded.problems
    assert set(loaded.labels.items()) == items
