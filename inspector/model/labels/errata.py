"""An errata file: the tests of a benchmark whose failures are not the model's, as one JSON
document another lab can load to apply the same corrections to its own runs.

Schema ``inspector/schemas/errata.schema.json``; ``docs/errata.md`` says how it is made and
used::

    {"format": "genesis-inspector.errata", "version": 1, "benchmark": "RepoGenesis",
     "taxonomy": "repogenesis", "category": "not-model", "created": "<ISO time>",
     "labels": {"annotators": ["ana", "ben"], "adjudicated": true},
     "tasks": [{"task": "synapse", "language": "python", "framework": "fastapi",
                "suite": ["tests/t.py::test_a", ...], "whole_suite": true}],
     "entries": [{"task": "synapse", "test": "tests/t.py::test_a", "category": "not-model",
                  "status": "agreed", "reason": "...", "evidence": [<anchor>, ...],
                  "annotators": {"ana": "not-model", "ben": "not-model"}, "follows": null,
                  "labels": [{"sample": "<run>/<task>/<n>", "category": "not-model",
                              "status": "agreed", "annotators": {...}}]}]}

An entry names a test of a task (a pytest node id or a Java ``Class::method``); it covers
that test, and when it names a file, a class or a function, every test inside it
(:func:`covers`). Pure data: no I/O here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.model.labels.label_file import Anchor, _anchor
from inspector.model.labels.labelset import FINAL_STATUSES
from inspector.model.untrusted.doc_header import check_header, type_name
from inspector.model.untrusted.errors import LoadError

ERRATA_FORMAT = "genesis-inspector.errata"
ERRATA_VERSION = 1
BENCHMARK = "RepoGenesis"
NOT_MODEL = "not-model"
ENTRY_STATUSES = tuple(s for s in FINAL_STATUSES if s != "unresolved")


def covers(excluded: str, test_id: str) -> bool:
    """Whether the excluded id ``excluded`` names ``test_id``: the same id, or a file, class
    or function containing it (``tests/t.py`` covers ``tests/t.py::C::test_a[1]``)."""
    return test_id == excluded or test_id.startswith((excluded + "::", excluded + "["))


@dataclass(frozen=True, slots=True)
class ErrataLabel:
    """What the labels said about the test in one sample."""

    sample: str
    category: str
    status: str
    annotators: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"sample": self.sample, "category": self.category, "status": self.status,
                "annotators": {k: self.annotators[k] for k in sorted(self.annotators)}}


@dataclass(frozen=True, slots=True)
class ErrataEntry:
    """One excluded test of one task, with the label that decided it (``status``,
    ``annotators``, ``reason``, ``evidence``, ``follows``) and every sample's label of it."""

    task: str
    test: str
    category: str
    status: str
    reason: str = ""
    evidence: tuple[Anchor, ...] = ()
    annotators: dict[str, str] | None = None
    follows: str | None = None
    labels: tuple[ErrataLabel, ...] = ()

    @property
    def key(self) -> tuple[str, str]:
        return (self.task, self.test)

    @property
    def disputed(self) -> bool:
        """Some sample's final label of this test is a model failure."""
        return any(lb.category != self.category for lb in self.labels)

    def to_json(self) -> dict[str, Any]:
        ann = self.annotators or {}
        return {"task": self.task, "test": self.test, "category": self.category,
                "status": self.status, "reason": self.reason,
                "evidence": [a.to_json() for a in self.evidence],
                "annotators": {k: ann[k] for k in sorted(ann)}, "follows": self.follows,
                "labels": [lb.to_json() for lb in self.labels]}


@dataclass(frozen=True, slots=True)
class ErrataTask:
    """A task with entries: its language and framework, and the test ids its suite was seen
    with (``suite``) when the file was made; ``whole_suite`` when every one is excluded."""

    task: str
    language: str = ""
    framework: str = ""
    suite: tuple[str, ...] = ()
    whole_suite: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"task": self.task, "language": self.language, "framework": self.framework,
                "suite": list(self.suite), "whole_suite": self.whole_suite}


@dataclass(frozen=True, slots=True)
class Errata:
    """The whole document (see the module docstring)."""

    entries: tuple[ErrataEntry, ...] = ()
    tasks: tuple[ErrataTask, ...] = ()
    benchmark: str = BENCHMARK
    taxonomy: str = ""
    category: str = NOT_MODEL
    created: str = ""
    annotators: tuple[str, ...] = ()
    adjudicated: bool = False

    def excluded(self) -> dict[str, list[str]]:
        """task -> its excluded test ids."""
        out: dict[str, list[str]] = {}
        for e in self.entries:
            out.setdefault(e.task, []).append(e.test)
        return out

    def suites(self) -> dict[str, set[str]]:
        """task -> the test ids its suite was seen with when the file was made."""
        return {t.task: set(t.suite) for t in self.tasks}

    def to_json(self) -> dict[str, Any]:
        return {"format": ERRATA_FORMAT, "version": ERRATA_VERSION,
                "benchmark": self.benchmark, "taxonomy": self.taxonomy,
                "category": self.category, "created": self.created,
                "labels": {"annotators": list(self.annotators),
                           "adjudicated": self.adjudicated},
                "tasks": [t.to_json() for t in sorted(self.tasks, key=lambda t: t.task)],
                "entries": [e.to_json() for e in sorted(self.entries, key=lambda e: e.key)]}


# ---------------------------------------------------------------------------------- reading

_type = type_name


def _text(d: dict[str, Any], key: str, path: Path, where: str, *, empty: bool = True,
          default: str | None = None) -> str:
    value = d.get(key, default)
    if not isinstance(value, str):
        raise LoadError(path, f"must be a string, not {_type(value)}", f"{where}{key}")
    if not empty and not value.strip():
        raise LoadError(path, "must not be empty", f"{where}{key}")
    return value


def _names(value: Any, path: Path, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise LoadError(path, f"must be an object of annotator -> category, not {_type(value)}",
                        where)
    return dict(value)


def _status(d: dict[str, Any], path: Path, where: str) -> str:
    status = d.get("status")
    if status not in ENTRY_STATUSES:
        raise LoadError(path, f"must be one of {', '.join(ENTRY_STATUSES)}, not {status!r}",
                        f"{where}status")
    return str(status)


def _label(d: Any, path: Path, where: str) -> ErrataLabel:
    if not isinstance(d, dict):
        raise LoadError(path, f"must be an object, not {_type(d)}", where)
    w = where + "."
    return ErrataLabel(_text(d, "sample", path, w, empty=False),
                       _text(d, "category", path, w, empty=False), _status(d, path, w),
                       _names(d.get("annotators", {}), path, f"{w}annotators"))


def _list(d: dict[str, Any], key: str, path: Path, where: str) -> list[Any]:
    value = d.get(key, [])
    if not isinstance(value, list):
        raise LoadError(path, f"must be a list, not {_type(value)}", f"{where}{key}")
    return value


def _entry(d: Any, path: Path, where: str) -> ErrataEntry:
    if not isinstance(d, dict):
        raise LoadError(path, f"must be an object, not {_type(d)}", where)
    w = where + "."
    follows = d.get("follows")
    if follows is not None and not isinstance(follows, str):
        raise LoadError(path, f"must be null or a string, not {_type(follows)}", f"{w}follows")
    return ErrataEntry(
        task=_text(d, "task", path, w, empty=False), test=_text(d, "test", path, w, empty=False),
        category=_text(d, "category", path, w, empty=False), status=_status(d, path, w),
        reason=_text(d, "reason", path, w, default=""),
        evidence=tuple(_anchor(a, path, f"{w}evidence[{i}]")
                       for i, a in enumerate(_list(d, "evidence", path, w))),
        annotators=_names(d.get("annotators", {}), path, f"{w}annotators"), follows=follows,
        labels=tuple(_label(x, path, f"{w}labels[{i}]")
                     for i, x in enumerate(_list(d, "labels", path, w))))


def _task(d: Any, path: Path, where: str) -> ErrataTask:
    if not isinstance(d, dict):
        raise LoadError(path, f"must be an object, not {_type(d)}", where)
    w = where + "."
    suite = _list(d, "suite", path, w)
    if not all(isinstance(t, str) and t for t in suite):
        raise LoadError(path, "must be a list of test ids", f"{w}suite")
    whole = d.get("whole_suite", False)
    if not isinstance(whole, bool):
        raise LoadError(path, "must be true or false", f"{w}whole_suite")
    return ErrataTask(_text(d, "task", path, w, empty=False),
                      _text(d, "language", path, w, default=""),
                      _text(d, "framework", path, w, default=""), tuple(suite), whole)


def parse_errata(data: Any, path: Path) -> Errata:
    """Validate an errata document; :class:`LoadError` names the file and the field. A newer
    version is refused, never guessed at; two entries for one (task, test) are an error."""
    check_header(data, path, ERRATA_FORMAT, ERRATA_VERSION, "errata file")
    category = _text(data, "category", path, "", default=NOT_MODEL)
    labels = data.get("labels", {})
    if not isinstance(labels, dict):
        raise LoadError(path, f"must be an object, not {_type(labels)}", "labels")
    annotators = _list(labels, "annotators", path, "labels.")
    if not all(isinstance(a, str) for a in annotators):
        raise LoadError(path, "must be a list of names", "labels.annotators")
    entries: list[ErrataEntry] = []
    seen: dict[tuple[str, str], int] = {}
    for i, raw in enumerate(_list(data, "entries", path, "")):
        entry = _entry(raw, path, f"entries[{i}]")
        if entry.category != category:
            raise LoadError(path, f"category {entry.category!r} is not the file's "
                                  f"{category!r}", f"entries[{i}].category")
        if entry.key in seen:
            raise LoadError(path, f"a second entry for {entry.task} {entry.test} (first: "
                                  f"entries[{seen[entry.key]}])", f"entries[{i}]")
        seen[entry.key] = i
        entries.append(entry)
    tasks = [_task(t, path, f"tasks[{i}]") for i, t in enumerate(_list(data, "tasks", path, ""))]
    return Errata(tuple(entries), tuple(tasks),
                  benchmark=_text(data, "benchmark", path, "", default=BENCHMARK),
                  taxonomy=_text(data, "taxonomy", path, "", default=""), category=category,
                  created=_text(data, "created", path, "", default=""),
                  annotators=tuple(annotators), adjudicated=bool(labels.get("adjudicated")))
