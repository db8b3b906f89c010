"""Errata files: made from a project's final labels, read from another lab's file.

:func:`errata_from_labels` turns every test item whose final label is ``not-model`` into an
entry of its (task, test); :func:`read_errata` reads and validates a file (one
:class:`~inspector.model.untrusted.errors.LoadError` naming the file and what is wrong).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from inspector.model import Run
from inspector.model.labels.errata import (
    NOT_MODEL,
    Errata,
    ErrataEntry,
    ErrataLabel,
    ErrataTask,
    covers,
    parse_errata,
)
from inspector.model.labels.label_file import ItemRef, Label, now_iso
from inspector.model.labels.labelset import FinalLabel, LabelSet
from inspector.model.labels.rollup import test_view
from inspector.model.untrusted.errors import LoadError
from inspector.model.untrusted.files import read_regular
from inspector.model.untrusted.jsonfields import parse_json_bytes
from inspector.services.figures.corrected import observed_suites

MAX_ERRATA_BYTES = 64 * 1024 * 1024
_RANK = {"adjudicated": 0, "agreed": 1, "majority": 2, "single": 3}


def test_label(labels: LabelSet, item: ItemRef) -> FinalLabel:
    """The per-test view of the labels roll-up (:func:`inspector.model.labels.rollup.test_view`):
    a test following a root takes the root's final category and status."""
    t = test_view(labels, item)
    return FinalLabel(item, t.category, t.status, t.ratings)


def _task_of(sample: str) -> str:
    return sample.split("/")[1]


def _deciding(labels: LabelSet, final: FinalLabel) -> Label | None:
    """The label whose note and evidence an entry carries: the adjudication, else the first
    annotator (by name) who gave the final category."""
    if final.status == "adjudicated":
        return labels.adjudicated(final.item)
    return next((lb for _n, lb in labels.labels_for(final.item).items()
                 if lb.category == final.category), None)


def _entry(labels: LabelSet, task: str, test: str, finals: list[FinalLabel],
           category: str) -> ErrataEntry | None:
    chosen = [f for f in finals if f.category == category]
    if not chosen:
        return None

    def rank(f: FinalLabel) -> tuple[int, bool, str]:
        lb = _deciding(labels, f)
        return (_RANK.get(f.status, 9), bool(lb and lb.follows), f.item.sample)

    best = min(chosen, key=rank)
    label = _deciding(labels, best)
    records = tuple(ErrataLabel(f.item.sample, f.category or "", f.status, dict(f.ratings))
                    for f in sorted(finals, key=lambda f: f.item.sample)
                    if f.category is not None)
    return ErrataEntry(task, test, category, best.status,
                       reason=label.note if label else "",
                       evidence=label.evidence if label else (),
                       annotators=dict(best.ratings), follows=label.follows if label else None,
                       labels=records)


def errata_from_labels(labels: LabelSet, runs: list[Run], *, taxonomy: str = "",
                       category: str = NOT_MODEL, created: str | None = None) -> Errata:
    """An entry for every (task, test) some test item of which has the final label
    ``category``; every task with an entry is described with the suite ``runs`` show it
    with. Sample-level labels (no test) make no entry."""
    finals: dict[tuple[str, str], list[FinalLabel]] = defaultdict(list)
    for item in labels.items():
        if item.test is not None:
            finals[(_task_of(item.sample), item.test)].append(test_label(labels, item))
    entries = [e for (task, test), fs in sorted(finals.items())
               if (e := _entry(labels, task, test, fs, category)) is not None]
    suites = observed_suites(runs)
    excluded: dict[str, list[str]] = defaultdict(list)
    for e in entries:
        excluded[e.task].append(e.test)
    tasks = []
    for name in sorted(excluded):
        suite = sorted(suites.get(name, ()))
        lang, framework = _task_info(runs, name)
        whole = bool(suite) and all(any(covers(x, t) for x in excluded[name]) for t in suite)
        tasks.append(ErrataTask(name, lang, framework, tuple(suite), whole))
    return Errata(tuple(entries), tuple(tasks), taxonomy=taxonomy, category=category,
                  created=now_iso() if created is None else created,
                  annotators=tuple(labels.annotators),
                  adjudicated=labels.adjudication is not None
                  and bool(labels.adjudication.active()))


def _task_info(runs: list[Run], task: str) -> tuple[str, str]:
    """The task's language and framework, as a run recorded them ("" when none did)."""
    for run in runs:
        t = run.tasks.get(task)
        if t is not None:
            return t.language, t.framework
    for run in runs:
        for s in run.samples:
            if s.task == task:
                return s.language, s.framework
    return "", ""


def unresolved_items(labels: LabelSet, category: str = NOT_MODEL) -> list[ItemRef]:
    """Test items someone labelled ``category`` whose final label is unresolved (the
    annotators disagree and no adjudication settled it): not in the errata."""
    return [i for i in labels.items() if i.test is not None
            and test_label(labels, i).status == "unresolved"
            and any(lb.category == category for lb in labels.labels_for(i).values())]


def read_errata(path: Path) -> Errata:
    """Read and validate an errata file; :class:`LoadError` names the file and the problem."""
    raw = read_regular(path, MAX_ERRATA_BYTES) or b""
    try:
        data = parse_json_bytes(path, raw)
    except LoadError as exc:
        raise LoadError(path, f"not an errata file: {exc.issue.message}") from None
    return parse_errata(data, path)


def dumps_errata(errata: Errata) -> str:
    """The document as written: 2-space JSON, one key order, a final newline."""
    import json

    return json.dumps(errata.to_json(), indent=2, ensure_ascii=False) + "\n"
